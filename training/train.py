"""One-command, seeded recipe for the models: ``python -m training.train [--out models]``.

Renders scenes from the real artwork (70 %) and the project's drawn tiles (30 %), trains the
tile classifier, the icon readers (a tavern's kind, and any building, from its icon's glyph,
on the classifier's crops recoloured) and the city finder on CPU with torch, and writes
``tiles.onnx`` / ``icons.onnx`` / ``badges.onnx`` / ``city_finder.onnx`` with their metadata
(labels, input sizes, normalisation, sha256, recipe, data summary, measured accuracy).
``--budget tiny`` runs end to end in seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from scorer.city import BUILDINGS, TAVERN_KINDS
from scorer.vision.config import DEFAULT
from scorer.vision.geometry import icon_input

from . import data
from .anchors import save_anchors
from .render import TIERS
from .tables import HELD_OUT as HELD_OUT_TABLES
from .tables import TRAINING as TRAINING_TABLES

BUDGETS = {  # scenes for the classifier, scenes for the finder, epochs of each
    "full": {"cls_scenes": 1400, "finder_scenes": 3000, "cls_epochs": 8, "finder_epochs": 10,
             "icon_epochs": 20, "badge_epochs": 12},
    "tiny": {"cls_scenes": 6, "finder_scenes": 8, "cls_epochs": 1, "finder_epochs": 1,
             "icon_epochs": 1, "badge_epochs": 1},
}


def block(cin: int, cout: int, stride: int, folded: bool = False) -> nn.Sequential:
    """Convolution, batch norm and ReLU; ``folded``: the norm folded into the convolution's
    bias, as the exported model has it (``training.finetune`` trains that)."""
    if folded:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1), nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


def branch(widths: list[int], folded: bool = False) -> nn.Sequential:
    layers, cin = [], 3
    for w in widths:
        layers += [block(cin, w, 2, folded), block(w, w, 1, folded)]
        cin = w
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten())


class TileNet(nn.Module):
    """Whole-tile view and a sharper view of the icon corner; heads for building and turn
    (``folded``: see ``block``)."""

    def __init__(self, labels: int, folded: bool = False):
        super().__init__()
        self.tile = branch([16, 32, 64, 96], folded)
        self.corner = branch([16, 32, 48, 64], folded)
        self.building = nn.Sequential(nn.Dropout(0.2), nn.Linear(96 + 64, labels))
        self.turn = nn.Linear(96 + 64, 4)

    def forward(self, tile, corner):
        """Building and turn logits, and the features both heads read (for adaptation)."""
        features = torch.cat([self.tile(tile), self.corner(corner)], dim=1)
        return self.building(features), self.turn(features), features


class IconNet(nn.Module):
    """An icon's glyph, (N, 1, C, C) whiteness (``geometry.icon_input``) -> logits of the
    labels it tells apart (a tavern's kinds, or the buildings)."""

    def __init__(self, kinds: int):
        super().__init__()
        layers, cin = [], 1
        for w in (16, 32, 48):
            layers += [block(cin, w, 2), block(w, w, 1)]
            cin = w
        self.glyph = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.kind = nn.Sequential(nn.Dropout(0.2), nn.Linear(cin, kinds))

    def forward(self, corner):
        return self.kind(self.glyph(corner))


class FinderNet(nn.Module):
    """A small encoder-decoder: (N, 3, S, S) -> city logits (N, 1, S/2, S/2)."""

    def __init__(self):
        super().__init__()
        self.d1, self.d2 = block(3, 16, 2), block(16, 32, 2)  # S/2, S/4
        self.d3, self.d4 = block(32, 48, 2), block(48, 64, 2)  # S/8, S/16
        self.context = nn.Sequential(block(64, 64, 1), block(64, 64, 1))
        self.u3, self.u2, self.u1 = block(64 + 48, 48, 1), block(48 + 32, 32, 1), block(32 + 16, 16, 1)
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        up = lambda a, b: torch.cat([nn.functional.interpolate(a, size=b.shape[-2:], mode="bilinear",  # noqa: E731
                                                               align_corners=False), b], 1)
        e1 = self.d1(x)
        e2 = self.d2(e1)
        e3 = self.d3(e2)
        e4 = self.context(self.d4(e3))
        return self.out(self.u1(up(self.u2(up(self.u3(up(e4, e3)), e2)), e1)))


def to_tensor(batch: np.ndarray) -> torch.Tensor:
    from scorer.vision.geometry import to_input

    return torch.from_numpy(to_input(batch))


def augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per-sample brightness, contrast and colour jitter on uint8 crops."""
    b = batch.astype(np.float32)
    n = len(b)
    gain = rng.uniform(0.7, 1.3, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    mean = b.mean(axis=(1, 2, 3), keepdims=True)
    b = (b - mean) * rng.uniform(0.75, 1.25, (n, 1, 1, 1)) + mean
    return np.clip(b * gain + rng.uniform(-20, 20, (n, 1, 1, 1)), 0, 255).astype(np.uint8)


def recoloured(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Icon corners (N, C, C, 3) uint8 as other printings and photos show them: any hue, more
    or less saturated, another gamma, contrast and cast, moved, turned and scaled a little,
    sometimes blurred, with noise. The glyph is what stays."""
    out = np.empty_like(corners)
    side = corners.shape[1]
    for i, corner in enumerate(corners):
        hsv = cv2.cvtColor(corner, cv2.COLOR_RGB2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180  # OpenCV hue runs 0..180
        hsv[..., 1] *= rng.uniform(0.6, 1.3)
        x = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
        x = 255 * (x / 255) ** rng.uniform(0.6, 1.6)
        x = (x - 128) * rng.uniform(0.6, 1.2) + 128 + rng.uniform(-25, 25, 3)
        move = cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(-8, 8), rng.uniform(0.85, 1.15))
        move[:, 2] += rng.uniform(-3, 3, 2)
        x = cv2.warpAffine(x, move, (side, side), borderMode=cv2.BORDER_REFLECT)
        if rng.uniform() < 0.3:
            x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.5))
        x += rng.normal(0, rng.uniform(0, 8), x.shape)
        out[i] = np.clip(x, 0, 255).astype(np.uint8)
    return out


def _step(opt, sched, loss) -> None:
    """One optimiser step; the one-cycle schedule stops at its last step."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.last_loss = loss.item()
    if sched.last_epoch < sched.total_steps - 1:
        sched.step()


def train_classifier(samples: dict, epochs: int, seed: int) -> TileNet:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = TileNet(len(data.LABELS))
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    n, batch = len(samples["tile"]), 128
    steps = epochs * max(1, n // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    net.train()
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n - batch + 1 if n >= batch else 1, batch):
            idx = order[start:start + batch]
            _step(opt, sched, classifier_loss(net, samples, idx, samples["tile"][idx],
                                              samples["corner"][idx], rng))
        print(f"  classifier epoch {epoch + 1}/{epochs}: loss {sched.last_loss:.4f}", flush=True)
    return net.eval()


_CROSS_ENTROPY = nn.CrossEntropyLoss(ignore_index=data.IGNORE, label_smoothing=0.05)


def classifier_loss(net: TileNet, samples: dict, idx: np.ndarray, tiles: np.ndarray,
                    corners: np.ndarray, rng: np.random.Generator) -> torch.Tensor:
    """The loss of the crops ``tiles`` and ``corners`` (samples ``idx``, as given or seen
    harder), jittered by ``augment``: the building, and half as much the turn."""
    building, turn, _ = net(to_tensor(augment(tiles, rng)), to_tensor(augment(corners, rng)))
    return (_CROSS_ENTROPY(building, torch.from_numpy(samples["building"][idx]))
            + 0.5 * _CROSS_ENTROPY(turn, torch.from_numpy(samples["turn"][idx])))


def icon_corners(samples: dict, labels=TAVERN_KINDS) -> tuple[np.ndarray, np.ndarray]:
    """The icon corners (N, C, C, 3) of the classifier's upright samples of ``labels`` (not
    the turned crops, which only teach the turn) and their labels (N,), indices into them."""
    keep = np.isin(samples["building"], [data.LABELS.index(label) for label in labels])
    which = [labels.index(data.LABELS[i]) for i in samples["building"][keep]]
    return samples["corner"][keep], np.array(which, np.int64)


def train_icons(samples: dict, epochs: int, seed: int, labels=TAVERN_KINDS) -> IconNet:
    """An icon reader of ``labels`` (a tavern's kinds, or the buildings) on the classifier's
    corners of them, recoloured afresh every epoch."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    corners, kinds = icon_corners(samples, labels)
    net = IconNet(len(labels))
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    n, batch = len(kinds), 128
    steps = epochs * max(1, n // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05)
    net.train()
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n - batch + 1 if n >= batch else 1, batch):
            idx = order[start:start + batch]
            glyphs = torch.from_numpy(icon_input(recoloured(corners[idx], rng)))
            _step(opt, sched, loss_of(net(glyphs), torch.from_numpy(kinds[idx])))
        print(f"  icon reader epoch {epoch + 1}/{epochs}: loss {sched.last_loss:.4f}", flush=True)
    return net.eval()


def icon_accuracy(net: IconNet, samples: dict, seed: int, labels=TAVERN_KINDS) -> dict:
    """Labels read right on held-out corners, as printed and recoloured."""
    corners, kinds = icon_corners(samples, labels)
    out = {"corners": len(kinds)}
    for name, seen in (("as_printed", corners),
                       ("recoloured", recoloured(corners, np.random.default_rng(seed)))):
        with torch.no_grad():
            read = net(torch.from_numpy(icon_input(seen))).argmax(1).numpy()
        out[name] = float((read == kinds).mean()) if len(kinds) else 0.0
    return out


def train_finder(samples: dict, epochs: int, seed: int) -> FinderNet:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = FinderNet()
    opt = torch.optim.AdamW(net.parameters(), 4e-3, weight_decay=1e-4)
    views, masks = samples["view"], samples["mask"].astype(np.float32)
    n, batch = len(views), 32
    steps = epochs * max(1, n // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps)
    net.train()
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n - batch + 1 if n >= batch else 1, batch):
            idx = order[start:start + batch]
            logits = net(to_tensor(augment(views[idx], rng)))[:, 0]
            target = torch.from_numpy(masks[idx])
            prob = torch.sigmoid(logits)
            dice = 1 - (2 * (prob * target).sum((1, 2)) + 1) / (prob.sum((1, 2)) + target.sum((1, 2)) + 1)
            _step(opt, sched, nn.functional.binary_cross_entropy_with_logits(logits, target)
                  + dice.mean())
        print(f"  finder epoch {epoch + 1}/{epochs}: loss {sched.last_loss:.4f}", flush=True)
    return net.eval()


def export(net: nn.Module, example: tuple, names: list[str], outputs: list[str], path: Path):
    torch.onnx.export(net, example, str(path), input_names=names, output_names=outputs,
                      dynamic_axes={n: {0: "batch"} for n in names + outputs}, opset_version=17,
                      dynamo=False)


def write_meta(path: Path, onnx_path: Path, meta: dict) -> None:
    meta["sha256"] = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    meta["size_bytes"] = onnx_path.stat().st_size
    path.write_text(json.dumps(meta, indent=2) + "\n")


def crop_accuracy(net: TileNet, samples: dict) -> dict:
    with torch.no_grad():
        b, t, _ = net(to_tensor(samples["tile"]), to_tensor(samples["corner"]))
    keep = samples["building"] != data.IGNORE
    turn_keep = samples["turn"] != data.IGNORE
    return {
        "building": float((b.argmax(1).numpy() == samples["building"])[keep].mean()),
        "turn": float((t.argmax(1).numpy() == samples["turn"])[turn_keep].mean()),
        "crops": int(keep.sum()),
    }


def save_classifier(net: TileNet, out: Path, about: dict) -> None:
    """Write tiles.onnx and tiles.json (the reader's contract) with ``about`` added."""
    cfg = DEFAULT
    export(net, (torch.zeros(1, 3, cfg.tile_input, cfg.tile_input),
                 torch.zeros(1, 3, cfg.corner_input, cfg.corner_input)),
           ["tile", "corner"], ["building", "turn", "features"], out / "tiles.onnx")
    write_meta(out / "tiles.json", out / "tiles.onnx", {
        "labels": data.LABELS,
        "inputs": {"tile": [3, cfg.tile_input, cfg.tile_input],
                   "corner": [3, cfg.corner_input, cfg.corner_input]},
        "outputs": {"building": "logits over labels", "turn": "logits, quarter turns anticlockwise",
                    "features": "(batch, 160): what the building head reads (tile and corner views)"},
        "feature_parts": [96, 64],  # TileNet's tile branch, then its corner branch
        "normalisation": "(x / 255 - 0.5) / 0.25, RGB, NCHW",
        "crop": {"cell_px": cfg.cell_px, "tile_margin": cfg.tile_margin,
                 "corner_span": list(cfg.corner_span)},
        "parameters": sum(p.numel() for p in net.parameters()),
        **about,
    })


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="models")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--budget", choices=list(BUDGETS), default="full")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=["classifier", "icons", "finder"],
                        help="train one model and leave the others in --out as they are")
    args = parser.parse_args(argv)
    budget = BUDGETS[args.budget]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.processes)
    started = time.time()
    recipe = {"command": f"python -m training.train --seed {args.seed} --budget {args.budget}",
              "seed": args.seed, "budget": budget, "torch": torch.__version__,
              "python": platform.python_version()}

    cached = args.budget != "tiny"
    if args.only in (None, "classifier", "icons"):  # (both learn from the classifier's crops)
        print("rendering classifier data ...", flush=True)
        cls = data.build("classifier", args.seed, budget["cls_scenes"], processes=args.processes,
                         use_cache=cached)
        held = data.build("classifier", args.seed + 1, max(4, budget["cls_scenes"] // 10),
                          processes=args.processes, use_cache=cached)
        print(f"  {len(cls['tile'])} crops ({time.time() - started:.0f} s)", flush=True)
    if args.only in (None, "classifier"):
        train_tiles(cls, held, budget, recipe, out, args.seed)
    if args.only in (None, "icons"):
        train_icon_reader(cls, held, budget, recipe, out, args.seed)
    if args.only in (None, "finder"):
        train_city_finder(args, budget, recipe, out, cached)
    print(f"done in {time.time() - started:.0f} s", flush=True)
    return 0


def train_tiles(cls: dict, held: dict, budget: dict, recipe: dict, out: Path, seed: int) -> None:
    """Train the classifier on its crops and save it with its accuracy on ``held``."""
    tile_net = train_classifier(cls, budget["cls_epochs"], seed)
    save_classifier(tile_net, out, {
        "recipe": recipe,
        "data": {"scenes": budget["cls_scenes"], "crops": len(cls["tile"]),
                 "art": "70 % real artwork, 30 % drawn tiles; half the scenes reprinted",
                 "tables": list(TRAINING_TABLES), "held_out_tables": list(HELD_OUT_TABLES),
                 "tiers": list(TIERS)},
        "accuracy_held_out_crops": crop_accuracy(tile_net, held),
    })
    save_anchors(out)


def save_icons(net: IconNet, out: Path, about: dict, name: str = "icons",
               labels=TAVERN_KINDS) -> None:
    """Write ``name``.onnx and ``name``.json (the reader's contract) with ``about`` added."""
    side = DEFAULT.corner_input
    export(net, (torch.zeros(1, 1, side, side),), ["corner"], ["kind"], out / f"{name}.onnx")
    write_meta(out / f"{name}.json", out / f"{name}.onnx", {
        "labels": list(labels),
        "inputs": {"corner": [1, side, side]},
        "outputs": {"kind": "logits over labels"},
        "normalisation": "the darkest of R, G, B, standardised per crop (geometry.icon_input)",
        "crop": {"cell_px": DEFAULT.cell_px, "corner_span": list(DEFAULT.corner_span)},
        "parameters": sum(p.numel() for p in net.parameters()),
        **about,
    })


ICON_READERS = (  # the model, what it tells apart, its epochs in the budget
    ("icons", TAVERN_KINDS, "icon_epochs"),  # a tavern's kind: the glyphs' fine strokes
    ("badges", BUILDINGS, "badge_epochs"),  # any building: its badge and glyph
)


def train_icon_reader(cls: dict, held: dict, budget: dict, recipe: dict, out: Path,
                      seed: int) -> None:
    """Train the icon readers on the classifier's crops and save each with its accuracy on
    ``held``'s."""
    for name, labels, epochs in ICON_READERS:
        print(f"training the icon reader {name} ...", flush=True)
        net = train_icons(cls, budget[epochs], seed, labels)
        save_icons(net, out, {
            "recipe": recipe,
            "data": {"scenes": budget["cls_scenes"],
                     "corners": len(icon_corners(cls, labels)[1]),
                     "colours": "every crop recoloured each epoch (training.train.recoloured)"},
            "accuracy_held_out_corners": icon_accuracy(net, held, seed + 1, labels),
        }, name, labels)


def train_city_finder(args, budget: dict, recipe: dict, out: Path, cached: bool) -> None:
    """Render the finder's views, train it and save it."""
    print("rendering finder data ...", flush=True)
    finder = data.build("finder", args.seed, budget["finder_scenes"], processes=args.processes,
                        use_cache=cached)
    finder_net = train_finder(finder, budget["finder_epochs"], args.seed)
    cfg = DEFAULT
    export(finder_net, (torch.zeros(1, 3, cfg.finder_px, cfg.finder_px),), ["image"], ["city"],
           out / "city_finder.onnx")
    write_meta(out / "city_finder.json", out / "city_finder.onnx", {
        "inputs": {"image": [3, cfg.finder_px, cfg.finder_px]},
        "outputs": {"city": f"logits (1, {cfg.finder_px // 2}, {cfg.finder_px // 2})"},
        "normalisation": "(x / 255 - 0.5) / 0.25, RGB, NCHW",
        "parameters": sum(p.numel() for p in finder_net.parameters()),
        "recipe": recipe,
        "data": {"scenes": budget["finder_scenes"], "views": len(finder["view"])},
    })


if __name__ == "__main__":
    raise SystemExit(main())
