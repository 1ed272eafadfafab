"""The built-in anchor cells: what the reader must still read right after it learns a
player's tiles (see scorer.vision.adaptation).

Renders seeded scenes (artwork, drawn tiles and other printings, every table family),
runs the shipped tile model on their cells and keeps up to ``PER_LABEL`` cells of each
label with the model's features and log-probabilities, in ``tiles-anchors.npz`` beside
the model, with the colours of each building's face in the artwork (``face_colours``: what
a players' printing's inks are learned against, see scorer.vision.inks; a few numbers a
face, not its picture). Run after the tile model changes (``train.py`` does)::

    python -m training.anchors --models models
    python -m training.anchors --models models --faces-only   # the faces' colours alone
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from scorer.city import BUILDINGS
from scorer.vision.adaptation import ANCHORS_FILE
from scorer.vision.inks import face_colours
from scorer.vision.models import TileClassifier

from . import data
from .tiles import real_faces

SCENES = 80
PER_LABEL = 100
SEED = 31337  # apart from the training seeds


def make_anchors(model_dir: Path, scenes: int = SCENES, seed: int = SEED) -> dict:
    """Features (M, D) float16, log_probs (M, L) float16 and labels (M,) int8."""
    samples = data.build("classifier", seed, scenes, use_cache=False)
    keep = samples["building"] != data.IGNORE
    tiles, corners, labels = samples["tile"][keep], samples["corner"][keep], samples["building"][keep]
    rng = np.random.default_rng(seed)
    chosen = np.concatenate([rng.permutation(np.flatnonzero(labels == i))[:PER_LABEL]
                             for i in range(len(data.LABELS))])
    probs, _, features = TileClassifier(model_dir).predict(tiles[chosen], corners[chosen])
    return {"features": features.astype(np.float16),
            "log_probs": np.log(np.clip(probs, 1e-12, 1)).astype(np.float16),
            "labels": labels[chosen].astype(np.int8), "faces": faces_colours()}


def faces_colours() -> np.ndarray:
    """``face_colours`` (B, K, 3) float32 of each building's single-tile face in the
    artwork (../shared/tile-art), in BUILDINGS' order."""
    singles = real_faces().singles
    return np.stack([face_colours(singles[b]) for b in BUILDINGS]).astype(np.float32)


def save_anchors(model_dir: Path, scenes: int = SCENES, faces_only: bool = False) -> dict:
    """Make the anchors for the tile model in ``model_dir`` and save them beside it (with
    ``faces_only``, the faces' colours put in its anchors file as they are)."""
    path = Path(model_dir) / ANCHORS_FILE
    if faces_only:
        with np.load(path) as old:
            anchors = {**{key: old[key] for key in old.files}, "faces": faces_colours()}
    else:
        anchors = make_anchors(Path(model_dir), scenes)
    np.savez_compressed(path, **anchors)
    return anchors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="models")
    parser.add_argument("--scenes", type=int, default=SCENES)
    parser.add_argument("--faces-only", action="store_true",
                        help="only put the artwork faces' colours in the anchors file")
    args = parser.parse_args(argv)
    anchors = save_anchors(Path(args.models), args.scenes, args.faces_only)
    right = (anchors["log_probs"].argmax(1) == anchors["labels"]).mean()
    print(f"{len(anchors['labels'])} anchor cells, the model reads {right:.1%} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
