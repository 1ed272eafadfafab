"""Reading accuracy on fresh seeded renders, in distribution and on families held out of training.

    python bench/accuracy.py [--per-tier 60] [--seed 424242] [--sets NAME ...]

Each set renders photos of a fresh seed (training never saw it) and reads them; per tier it
prints the exact-city rate (all 16 cells, tavern kinds included), cell accuracy, tavern-kind
accuracy, orientation when the grid is right, photos not read, flagged cells per photo and
time. Sets marked HELD OUT use table tops or a light model that training never drew (see
training.tables.HELD_OUT and training.render.HELD_OUT_LIGHTS); "printed" sets give every
tavern its own picture, as the printed game does. Then the cell confusion of all sets.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.city import BUILDINGS  # noqa: E402
from scorer.errors import GridNotFound  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from training.data import scene_for  # noqa: E402
from training.render import HELD_OUT_LIGHTS  # noqa: E402
from training.tables import HELD_OUT  # noqa: E402

SIZES = [(1600, 1200), (1200, 1600), (1024, 768), (2016, 1512)]
SHORT = ["S", "F", "Td", "Tf", "Tm", "Tb", "O", "P", "H"]
TIERS = ("easy", "medium", "hard")

SETS = {  # name: (what it measures, scene options for photo i)
    "artwork": ("in distribution: the artwork on training tables",
                lambda i: {"art": "real", "reprint_share": 0.0}),
    "drawn": ("in distribution: the project's drawn tiles",
              lambda i: {"art": "drawn", "reprint_share": 0.0}),
    "printed": ("another printing: every tavern its own picture",
                lambda i: {"art": "real", "reprint_share": 1.0}),
    "tables": (f"HELD OUT table tops: {', '.join(HELD_OUT)}",
               lambda i: {"art": "real", "reprint_share": 0.0, "table": HELD_OUT[i % len(HELD_OUT)]}),
    "light": (f"HELD OUT light model: {', '.join(HELD_OUT_LIGHTS)}",
              lambda i: {"art": "real", "reprint_share": 0.0, "light": HELD_OUT_LIGHTS[0]}),
    "small": ("small cities: 12-20 % of the short side of a 2016x1512 photo (tiles >= 45 px)",
              lambda i: {"art": "real", "reprint_share": 0.0, "fill": (0.12, 0.2),
                         "out_size": (2016, 1512)}),
}


def evaluate(reader: PhotoReader, name: str, per_tier: int, seed: int, confusion: np.ndarray) -> None:
    """Read ``per_tier`` photos of each tier of one set and print a line per tier."""
    description, options = SETS[name]
    print(f"\n{name}: {description}")
    print(f"{'tier':<8}{'exact city':>11}{'cells':>9}{'tavern kind':>12}{'orient|grid':>12}"
          f"{'not read':>9}{'flagged':>8}{'ms/photo':>9}")
    for t, tier in enumerate(TIERS):
        exact = cells = oriented = missed = flagged = 0
        taverns = [0, 0]  # right kinds, tavern cells read as some tavern
        elapsed = 0.0
        for i in range(per_tier):
            opts = {"out_size": SIZES[i % len(SIZES)], **options(i)}
            scene, _ = scene_for(seed + 10 * t, i, tier=tier, **opts)
            truth = np.array(scene.grid)
            start = time.perf_counter()
            try:
                reading = reader.read(scene.image)
            except GridNotFound:
                missed += 1
                for b in truth.ravel():
                    confusion[BUILDINGS.index(b), -1] += 1
                continue
            finally:
                elapsed += time.perf_counter() - start
            got = np.array(reading.grid)
            for a, b in zip(truth.ravel(), got.ravel(), strict=True):
                confusion[BUILDINGS.index(a), BUILDINGS.index(b)] += 1
                if a.startswith("tavern") and b.startswith("tavern"):
                    taverns[0] += a == b
                    taverns[1] += 1
            cells += int((got == truth).sum())
            flagged += len(reading.uncertain())
            if (got == truth).all():
                exact += 1
                cell = np.linalg.norm(scene.corners[1] - scene.corners[0]) / 4
                oriented += int(np.abs(reading.corners - scene.corners).max() < 0.5 * cell)
        n = per_tier
        print(f"{tier:<8}{100 * exact / n:>10.1f}%{100 * cells / (16 * n):>8.2f}%"
              f"{100 * taverns[0] / max(taverns[1], 1):>11.2f}%{100 * oriented / max(exact, 1):>11.1f}%"
              f"{missed:>9}{flagged / n:>8.2f}{1000 * elapsed / n:>9.0f}", flush=True)


def print_confusion(confusion: np.ndarray) -> None:
    print("\nconfusion over all sets (rows: truth, columns: read; last column: photo not read)")
    print("      " + "".join(f"{s:>6}" for s in SHORT) + "   none")
    for i, row in enumerate(confusion):
        print(f"{SHORT[i]:>6}" + "".join(f"{v:>6}" for v in row))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-tier", type=int, default=60)
    parser.add_argument("--seed", type=int, default=424242)
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--models", default=None, help="folder of the models (default: models/)")
    args = parser.parse_args()
    reader = PhotoReader(args.models)
    print(f"seed {args.seed}, {args.per_tier} photos per tier and set, sizes {SIZES}")
    confusion = np.zeros((len(BUILDINGS), len(BUILDINGS) + 1), int)  # last column: not read
    for name in args.sets:
        evaluate(reader, name, args.per_tier, args.seed, confusion)
    print_confusion(confusion)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
