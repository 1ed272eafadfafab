"""Reading accuracy on a fresh seeded set of rendered photos (not the training seed).

    python bench/accuracy.py [--art real|drawn] [--per-tier 150] [--seed 424242]

Prints, per tier: exact-grid rate (all 16 cells, tavern kinds included), cell accuracy,
orientation right when the grid is right, exact total score, detection failures; then the
cell confusion matrix, and whether the committed fixtures read correctly.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.city import BUILDINGS, City  # noqa: E402
from scorer.errors import GridNotFound  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from scorer.rules import score_city  # noqa: E402
from training.data import scene_for  # noqa: E402

SIZES = [(1600, 1200), (1200, 1600), (1024, 768), (2016, 1512)]
SHORT = ["S", "F", "Td", "Tf", "Tm", "Tb", "O", "P", "H"]


def evaluate(reader: PhotoReader, art: str, per_tier: int, seed: int) -> np.ndarray:
    confusion = np.zeros((len(BUILDINGS), len(BUILDINGS) + 1), int)  # last column: not read
    print(f"art={art} seed={seed} photos per tier={per_tier}")
    print(f"{'tier':<8}{'exact grid':>12}{'cells':>10}{'orient|grid':>13}{'exact total':>13}"
          f"{'not found':>11}{'ms/photo':>10}")
    for t, tier in enumerate(("easy", "medium", "hard")):
        exact = cells = oriented = totals = missed = 0
        elapsed = 0.0
        for i in range(per_tier):
            scene, _ = scene_for(seed + t, i, art, tier=tier, out_size=SIZES[i % len(SIZES)])
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
            cells += int((got == truth).sum())
            if (got == truth).all():
                exact += 1
                cell = np.linalg.norm(scene.corners[1] - scene.corners[0]) / 4
                oriented += int(np.abs(reading.corners - scene.corners).max() < 0.5 * cell)
            same_total = score_city(City.from_rows(got), 1)[0]["total"] == score_city(
                City.from_rows(truth), 1)[0]["total"]
            totals += int(same_total)
        n = per_tier
        print(f"{tier:<8}{100 * exact / n:>11.1f}%{100 * cells / (16 * n):>9.2f}%"
              f"{100 * oriented / max(exact, 1):>12.1f}%{100 * totals / n:>12.1f}%{missed:>11}"
              f"{1000 * elapsed / n:>10.0f}")
    return confusion


def print_confusion(confusion: np.ndarray) -> None:
    print("\nconfusion (rows: truth, columns: read; last column: photo not read)")
    print("      " + "".join(f"{s:>6}" for s in SHORT) + "   none")
    for i, row in enumerate(confusion):
        print(f"{SHORT[i]:>6}" + "".join(f"{v:>6}" for v in row))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--art", choices=["real", "drawn"], default="real")
    parser.add_argument("--per-tier", type=int, default=150)
    parser.add_argument("--seed", type=int, default=424242)
    args = parser.parse_args()
    reader = PhotoReader()
    print_confusion(evaluate(reader, args.art, args.per_tier, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
