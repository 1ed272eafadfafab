"""Each building at its true corners: read by the tile model, by its icon's glyph, by both.

    python bench/icons.py [--seed 881] [--photos 1] [--families default|unseen|NAME,...]
                          [--edition G] [--workers 2]

Renders --photos photos for every table family x tier with bench/independent_photos.py, of
the artwork and of the printed tiles (with --edition, of the adaptation bench's printing of
that name instead: bench/adaptation.py), warps each city from its true corners and reads
every cell that holds a building three ways: the tile model alone, the glyph alone (the
building ``models/badges.onnx`` reads, a tavern's kind ``models/icons.onnx``) and both, as
the reader weighs them last (``PhotoReader.by_icons``).
Prints the share read right by art and tile size, and how many cells the weighing turned
right and wrong. What the reader's last step adds once a city is found; the reading of a
whole photo is bench/independent.py's.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import independent_photos as photos  # noqa: E402
from adaptation import render as render_edition  # noqa: E402
from independent import pick_families  # noqa: E402

from scorer.city import TAVERN_KINDS  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from scorer.vision import geometry  # noqa: E402

SIZES = ((50, "tiles under 50 px"), (90, "tiles of 50-90 px"), (np.inf, "tiles of 90 px and up"))


def render(job: dict) -> tuple[np.ndarray, dict]:
    if job["edition"]:
        return render_edition(job)
    return photos.render(job["seed"], job["family"], job["tier"], job["art"], (1600, 1200))


def read_three_ways(reader: PhotoReader, image: np.ndarray, truth: dict) -> list[tuple]:
    """(truth, tile model, glyph, both, tile px) label indices of each cell holding a building
    of one photo, read at its true corners."""
    corners = np.float32(truth["corners"])
    upright = geometry.warp_city(image, corners, reader.config)
    tiles, icon_corners = geometry.cities_crops([upright], reader.config)
    probs, _, _ = reader.classifier.predict(tiles, icon_corners)
    both = reader.by_icons(upright, probs.reshape(4, 4, -1)).reshape(16, -1)
    glyphs = [reader.badges.labels[i] for i in reader.badges.predict(icon_corners).argmax(1)]
    kinds = [reader.icons.labels[i] for i in reader.icons.predict(icon_corners).argmax(1)]
    glyphs = [kind if glyph in TAVERN_KINDS else glyph for glyph, kind in zip(glyphs, kinds,
                                                                              strict=True)]
    labels = reader.classifier.labels
    tile_px = float(np.linalg.norm(corners[1] - corners[0])) / 4
    names = [name for row in truth["grid"] for name in row]
    return [(labels.index(name), int(probs[i].argmax()), labels.index(glyphs[i]),
             int(both[i].argmax()), tile_px) for i, name in enumerate(names) if name != "empty"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=881)
    parser.add_argument("--photos", type=int, default=1, help="photos per family x tier x art")
    parser.add_argument("--families", default="default")
    parser.add_argument("--edition", help="a printing of bench/adaptation.py instead of the art")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    families = pick_families(args.families)
    arts = [f"edition {args.edition}"] if args.edition else ["artwork", "printed"]
    todo = []
    for family in families:
        for tier in photos.TIERS:
            for art in arts:
                todo += [{"seed": args.seed * 10_000 + len(todo) + i, "family": family,
                          "tier": tier, "art": art, "edition": args.edition, "size": (1600, 1200)}
                         for i in range(args.photos)]
    with multiprocessing.get_context("spawn").Pool(
            args.workers, functools.partial(_quiet, args.families)) as pool:
        shots = pool.map(render, todo, chunksize=2)
    reader = PhotoReader()
    counts = defaultdict(lambda: np.zeros(6, int))  # cells, tile, glyph, both, fixed, broken
    for job, (image, truth) in zip(todo, shots, strict=True):
        for right, tile, glyph, both, px in read_three_ways(reader, image, truth):
            size = next(name for limit, name in SIZES if px < limit)
            row = [1, tile == right, glyph == right, both == right,
                   tile != right and both == right, tile == right and both != right]
            for key in (job["art"], f"{job['art']}, {size}", "all"):
                counts[key] += row
    print(f"Icons at the true corners: {len(todo)} photos of bench/independent_photos.py, "
          f"seed {args.seed}, families {args.families}"
          + (f", edition {args.edition} (bench/adaptation.py)" if args.edition else ""))
    print(f"{'':36s}{'cells':>6}{'tile model %':>14}{'glyph %':>9}{'both %':>8}"
          f"{'turned right':>14}{'turned wrong':>14}")
    for key in sorted(counts, key=lambda k: (k == "all", k)):
        n, tile, glyph, both, fixed, broken = counts[key]
        print(f"{key:36s}{n:6d}{100 * tile / n:14.2f}{100 * glyph / n:9.2f}{100 * both / n:8.2f}"
              f"{fixed:14d}{broken:14d}")
    return 0


def _quiet(families: str) -> None:
    """A rendering process: one thread for OpenCV, the table families of --families."""
    cv2.setNumThreads(1)
    pick_families(families)


if __name__ == "__main__":
    raise SystemExit(main())
