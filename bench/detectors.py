"""Which way to find the city? The learned finder against a classical-geometry baseline.

    python bench/detectors.py [--per-tier 40]

Same photos (real artwork, fresh seed), same classifier and decoding; only the corners differ:
- classical: Canny edges, closed, the largest convex 4-sided outline (the usual document-
  scanner recipe, tuned for this renderer's photos);
- finder: the ONNX city finder, two looks at the photo only;
- finder + rectified: the reader's default, two more looks at the city warped square.
Prints the exact-grid rate per tier and the mean corner error in cells.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.errors import GridNotFound  # noqa: E402
from scorer.reading import PhotoReader  # noqa: E402
from scorer.vision import geometry  # noqa: E402
from training.data import scene_for  # noqa: E402

SIZES = [(1600, 1200), (1200, 1600), (1024, 768)]


def classical_corners(image: np.ndarray) -> np.ndarray | None:
    """Largest convex quadrilateral outline in the photo, or None."""
    scale = 800 / max(image.shape[:2])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    edges = cv2.Canny(gray, 40, 120)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.02 * small.shape[0] * small.shape[1]
    for contour in contours:
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        area = cv2.contourArea(approx)
        if len(approx) == 4 and area > best_area:
            best, best_area = approx.reshape(4, 2), area
    return None if best is None else geometry.order_clockwise(best / scale)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    cell = np.linalg.norm(truth[1] - truth[0]) / 4
    truth = geometry.order_clockwise(truth)
    return min(np.abs(np.roll(found, k, 0) - truth).max() for k in range(4)) / cell


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-tier", type=int, default=40)
    parser.add_argument("--seed", type=int, default=515151)
    args = parser.parse_args()
    reader = PhotoReader()
    default = reader.config
    methods = {
        "classical": lambda image: classical_corners(image),
        "finder": lambda image: finder(image, 0),
        "finder + rectified": lambda image: finder(image, default.rectified_looks),
    }

    def finder(image, looks):
        reader.config = dataclasses.replace(default, rectified_looks=looks)
        try:
            return reader.find_city(image)
        except GridNotFound:
            return None
        finally:
            reader.config = default

    print(f"exact grid % / mean corner error in cells, {args.per_tier} photos per tier")
    print(f"{'method':<20}" + "".join(f"{t:>18}" for t in ("easy", "medium", "hard")))
    scenes = {t: [scene_for(args.seed + k, i, "real", tier=t, out_size=SIZES[i % 3])[0]
                  for i in range(args.per_tier)] for k, t in enumerate(("easy", "medium", "hard"))}
    for name, find in methods.items():
        cells = []
        for tier_scenes in scenes.values():
            exact, errors = 0, []
            for scene in tier_scenes:
                corners = find(scene.image)
                if corners is None:
                    errors.append(np.nan)
                    continue
                errors.append(corner_error(corners, scene.corners))
                try:
                    exact += reader.read(scene.image, corners=corners).grid == scene.grid
                except GridNotFound:
                    pass
            mean = np.nanmean(errors) if not np.isnan(errors).all() else float("nan")
            cells.append(f"{100 * exact / len(tier_scenes):7.1f}% / {mean:5.2f}")
        print(f"{name:<20}" + "".join(f"{c:>18}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
