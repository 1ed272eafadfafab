"""Seating a whole table: the reader's rule given every complete city's true corners.

    python bench/seating.py [--layouts 120] [--seed 7000000]

Lays out --layouts tables for every count of cities 3..7 with bench/independent_tables.py
(written apart from the training renderer: seats on a ring, an ellipse or a rectangle,
unevenly spaced, each city turned toward its builder, a phone up to 30 degrees from straight
down) without drawing them, and seats each with ``search.seating`` from its cities' true
corners in the photo. The truth seats them around the table's true middle, from the city
nearest straight below it; the rule must estimate that middle from the cities alone. Prints
the share seated right by number of cities and by layout, and how many of the misses are
near ties (the truth's first seat under 3 degrees nearer straight down than the next).
What the whole-table benchmark's "rule %" is, on thousands of tables in seconds.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from independent_photos import FAMILIES, TIERS  # noqa: E402
from independent_tables import table_layout  # noqa: E402

from scorer.vision import search  # noqa: E402

COUNTS = (3, 4, 5, 6, 7)
NEAR_TIE_DEG = 3.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layouts", type=int, default=120, help="tables per count of cities")
    parser.add_argument("--seed", type=int, default=7000000)
    args = parser.parse_args(argv)
    right, misses, near_ties = defaultdict(list), 0, 0
    for seed in range(args.seed, args.seed + args.layouts):
        tier = list(TIERS)[seed % len(TIERS)]
        for count in COUNTS:
            table = table_layout(seed, count, FAMILIES[seed % len(FAMILIES)], tier)
            ok = search.seating(table["corners"]) == table["order"]
            for key in (f"{count} cities", table["layout"], "all"):
                right[key].append(ok)
            misses += not ok
            near_ties += not ok and table["margin_deg"] < NEAR_TIE_DEG
    print(f"Seating from true corners, {len(right['all'])} tables of bench/independent_tables.py, "
          f"seeds {args.seed}..{args.seed + args.layouts - 1}")
    for key in [f"{n} cities" for n in COUNTS] + sorted(set(right) - {"all"} - {
            f"{n} cities" for n in COUNTS}) + ["all"]:
        oks = right[key]
        print(f"{key:>12} {len(oks):6d} tables  seated right {100 * np.mean(oks):5.1f} %")
    print(f"misses: {misses}, of which near ties (under {NEAR_TIE_DEG:g} degrees): {near_ties}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
