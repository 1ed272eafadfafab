"""Art transfer: a tile classifier trained on one art source, read on the other.

    python bench/art_transfer.py [--scenes 400] [--epochs 5] [--per-tier 30]

Trains the recipe's classifier and icon reader twice with a small budget, once on the artwork
alone and once on the project's drawn tiles alone (the city finder is the shipped one), then
reads fresh
photos of both art sources with each. The held-out source measures transfer: drawn tiles ->
artwork and artwork -> drawn tiles. Needs the [train] extra (torch); about 10 minutes on 2
cores with the defaults.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.accuracy import TIERS, evaluate  # noqa: E402
from scorer.city import BUILDINGS  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from training import data  # noqa: E402
from training.train import (  # noqa: E402
    ICON_READERS,
    save_classifier,
    save_icons,
    train_classifier,
    train_icons,
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenes", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--per-tier", type=int, default=30)
    parser.add_argument("--seed", type=int, default=515151)
    args = parser.parse_args()
    print(f"classifiers: {args.scenes} scenes, {args.epochs} epochs each; reading "
          f"{args.per_tier} photos per tier ({', '.join(TIERS)}) of each art; seed {args.seed}")
    confusion = np.zeros((len(BUILDINGS), len(BUILDINGS) + 1), int)
    for trained_on in ("real", "drawn"):
        started = time.time()
        samples = data.build("classifier", args.seed, args.scenes, art=trained_on, use_cache=False)
        net = train_classifier(samples, args.epochs, args.seed)
        icons = {name: train_icons(samples, 4 * args.epochs, args.seed, labels)
                 for name, labels, _ in ICON_READERS}  # (the same art's icons)
        with tempfile.TemporaryDirectory() as folder:
            shutil.copy(ROOT / "models" / "city_finder.onnx", folder)
            shutil.copy(ROOT / "models" / "city_finder.json", folder)
            save_classifier(net, Path(folder), {"data": {"art": trained_on}})
            for name, labels, _ in ICON_READERS:
                save_icons(icons[name], Path(folder), {"data": {"art": trained_on}}, name, labels)
            reader = PhotoReader(folder)
            print(f"\n=== trained on {'the artwork' if trained_on == 'real' else 'drawn tiles'} "
                  f"only ({time.time() - started:.0f} s)")
            for name in ("artwork", "drawn"):
                held_out = (name == "artwork") != (trained_on == "real")
                evaluate(reader, name, args.per_tier, args.seed + 1, confusion)
                print("  ^ HELD-OUT art source" if held_out else "  ^ the art it was trained on")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
