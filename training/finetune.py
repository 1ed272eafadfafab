"""A second stage for the tile model, for trying changes in minutes:
``python -m training.finetune --models DIR``.

Not part of ``make train``: tried on 2026-12-02 and not kept (README, "Models and training").
It starts from an exported model (its weights read back from ``DIR/tiles.onnx``, where batch
norm is folded into each convolution) and trains it a few hundred steps more on new scenes,
half of whose crops are first seen as a harder photo shows them (``harder``): a tile of
26-60 px, blurred, exposed darker or brighter, under a warm or cool cast, with sensor noise.
It rewrites ``DIR/tiles.onnx``, ``tiles.json`` and the anchors, so run it on a copy of
``models/``. Its 900 steps take 2.5 minutes on 2 cores once its scenes are rendered (5
minutes, cached in ``training/data``), against 48 minutes for the first stage. Seeded: the
same model and seed give the same file, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from . import data
from .anchors import save_anchors
from .train import TileNet, _step, classifier_loss, crop_accuracy, save_classifier

BUDGETS = {  # scenes rendered, optimiser steps of 128 crops
    "full": {"scenes": 1400, "steps": 900},
    "tiny": {"scenes": 4, "steps": 2},
}
SEED = 20261202
LEARNING_RATE = 1e-3
HARDER_SHARE = 0.5  # of the crops, seen as a small, blurred or badly lit tile


def load_exported(path: Path) -> TileNet:
    """The tile model of ``tiles.onnx`` as a torch module: each branch's convolutions in the
    order its input flows through them, then the two heads."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    readers = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    net = TileNet(len(data.LABELS), folded=True)

    def put(param: torch.Tensor, name: str) -> None:
        param.data = torch.from_numpy(weights[name].copy())

    for name, branch in (("tile", net.tile), ("corner", net.corner)):
        convs = [layer for layer in branch.modules() if isinstance(layer, nn.Conv2d)]
        done = 0
        while done < len(convs):
            node = next(n for n in readers[name] if n.op_type in ("Conv", "Relu"))
            if node.op_type == "Conv":
                put(convs[done].weight, node.input[1])
                put(convs[done].bias, node.input[2])
                done += 1
            name = node.output[0]
    for head, name in ((net.building[1], "building.1"), (net.turn, "turn")):
        put(head.weight, f"{name}.weight")
        put(head.bias, f"{name}.bias")
    return net


def _resampled(image: np.ndarray, factor: float) -> np.ndarray:
    """(H, W, 3) uint8 shrunk by ``factor`` and enlarged back: the detail a smaller tile has."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(4, round(w * factor)), max(4, round(h * factor))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def harder(tiles: np.ndarray, corners: np.ndarray, rng: np.random.Generator,
           share: float) -> tuple[np.ndarray, np.ndarray]:
    """A ``share`` of the crops (N, T, T, 3) and their icon corners (N, C, C, 3), uint8, seen
    as a harder photo shows that tile, the same way in both views: a tile of 26-60 px in the
    photo (the tile view holds 46 px a cell, the corner view 96), blurred, then exposed
    darker or brighter (gain and gamma), often under a warm lamp or a cool light the camera
    did not balance, with sensor noise."""
    tiles, corners = tiles.copy(), corners.copy()
    for i in np.flatnonzero(rng.uniform(size=len(tiles)) < share):
        if rng.uniform() < 0.6:
            tile_px = rng.uniform(26, 60)
            if tile_px < 46:
                tiles[i] = _resampled(tiles[i], tile_px / 46)
            corners[i] = _resampled(corners[i], tile_px / 96)
        if rng.uniform() < 0.3:
            sigma = rng.uniform(0.5, 1.4)
            tiles[i] = cv2.GaussianBlur(tiles[i], (0, 0), sigma * 0.5)
            corners[i] = cv2.GaussianBlur(corners[i], (0, 0), sigma)
        gamma = rng.uniform(0.7, 1.45)
        gain = rng.uniform(0.55, 1.45) * rng.uniform(0.85, 1.15, 3)
        light = rng.uniform()
        if light < 0.2:  # a warm lamp
            gain = gain * [rng.uniform(1, 1.1), rng.uniform(0.82, 1), rng.uniform(0.55, 0.9)]
        elif light < 0.3:  # a cool light
            gain = gain * [rng.uniform(0.8, 1), rng.uniform(0.95, 1.05), rng.uniform(1, 1.2)]
        levels = np.clip(255 * (np.arange(256)[:, None] / 255) ** gamma * gain, 0, 255)
        levels = levels.astype(np.uint8)  # (256, 3): each channel's lookup table
        noise = rng.uniform(0, 7)
        for crops in (tiles, corners):
            lit = levels[crops[i], np.arange(3)].astype(np.float32)
            crops[i] = np.clip(lit + rng.normal(0, noise, lit.shape), 0, 255).astype(np.uint8)
    return tiles, corners


def fine_tune(net: nn.Module, samples: dict, steps: int, rng: np.random.Generator) -> nn.Module:
    """``steps`` of 128 crops (one-cycle schedule, ``LEARNING_RATE`` at most), ``harder``
    crops among them, then ``train.augment``'s jitter on all, as the first stage."""
    opt = torch.optim.AdamW(net.parameters(), LEARNING_RATE, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, LEARNING_RATE, total_steps=steps,
                                                pct_start=0.1)
    net.train()
    n, batch = len(samples["tile"]), 128
    order, at = rng.permutation(n), 0
    for step in range(steps):
        if at + batch > n:
            order, at = rng.permutation(n), 0
        idx = order[at:at + batch]
        at += batch
        tiles, corners = harder(samples["tile"][idx], samples["corner"][idx], rng, HARDER_SHARE)
        _step(opt, sched, classifier_loss(net, samples, idx, tiles, corners, rng))
        if step % 100 == 0:
            print(f"  fine-tune step {step}/{steps}: loss {sched.last_loss:.4f}", flush=True)
    return net.eval()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", required=True,
                        help="folder of the exported tiles.onnx, rewritten (a copy of models/)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--budget", choices=list(BUDGETS), default="full")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    budget, out = BUDGETS[args.budget], Path(args.models)
    torch.set_num_threads(args.processes)
    started, cached = time.time(), args.budget != "tiny"
    samples = data.build("classifier", args.seed, budget["scenes"], processes=args.processes,
                         use_cache=cached)
    held = data.build("classifier", args.seed + 1, max(4, budget["scenes"] // 10),
                      processes=args.processes, use_cache=cached)
    torch.manual_seed(args.seed)  # (before the module is made: its dropout draws after)
    net = load_exported(out / "tiles.onnx")
    before = crop_accuracy(net.eval(), held)
    net = fine_tune(net, samples, budget["steps"], np.random.default_rng(args.seed))
    meta = json.loads((out / "tiles.json").read_text())
    save_classifier(net, out, {
        "recipe": meta["recipe"], "data": meta["data"],
        "fine_tune": {"command": f"python -m training.finetune --seed {args.seed} "
                                 f"--budget {args.budget}",
                      "scenes": budget["scenes"], "steps": budget["steps"],
                      "learning_rate": LEARNING_RATE, "harder_share": HARDER_SHARE,
                      "accuracy_held_out_crops_before": before},
        "accuracy_held_out_crops": crop_accuracy(net, held),
    })
    save_anchors(out)
    print(f"fine-tuned in {time.time() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
