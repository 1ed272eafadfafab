"""Write the committed fixtures and icons, made only from the project's own drawn tiles.

``python -m training.make_fixtures`` writes ``tests/fixtures/photos/<case>.jpg`` and
``<case>.json`` (the truth: upright grid, city corners, tier). Seeded: the same files every run.
Also writes an empty table (no city) for the error path, and whole-table photos of 2, 4 and 7
cities (``tests/fixtures/tables``; the 4-city one also shows a city cut by the frame's edge)
and of two cities a tenth of a city apart (``table-pair``, and ``table-side-by-side``, where
they lie edge to edge and the finder sees one region).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from .render import light_and_lens, random_layout, render_scene, table_texture
from .tiles import drawn_faces
from .whole_table import render_table

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "photos"
TABLES = OUT.parent / "tables"  # whole-table photos
SEED = 7
PER_TIER = 10


def save(name: str, image: np.ndarray, truth: dict | None, folder: Path = OUT) -> None:
    cv2.imwrite(str(folder / f"{name}.jpg"), cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                [cv2.IMWRITE_JPEG_QUALITY, 90])
    if truth is not None:
        (folder / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    faces = drawn_faces()
    for t, tier in enumerate(("easy", "medium", "hard")):
        for i in range(PER_TIER):
            rng = np.random.default_rng([SEED, t, i])
            size = (1024, 768) if i % 2 else (768, 1024)
            scene = render_scene(random_layout(faces, rng), faces, rng, tier, size)
            save(f"{tier}-{i:02d}", scene.image, {
                "grid": scene.grid, "corners": np.round(scene.corners, 1).tolist(),
                "tier": tier, "art": "drawn", "seed": [SEED, t, i],
            })
    icons = OUT.parents[2] / "web" / "static" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    for building, face in faces.singles.items():  # the picker's icons: our own drawn tiles
        small = cv2.resize(face, (96, 96), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(icons / f"{building}.png"), cv2.cvtColor(small, cv2.COLOR_RGB2BGR))
    rng = np.random.default_rng([SEED, 99])
    empty = light_and_lens(table_texture(768, 1024, rng), 0.5, rng)
    save("no-city-empty-table", empty, None)
    write_tables(faces)
    print(f"wrote fixtures to {OUT}")
    return 0


def write_tables(faces) -> None:
    """Whole-table photos: truth is the cities in seating order and the cut ones' corners."""
    TABLES.mkdir(parents=True, exist_ok=True)
    for name, seed, n, spread in (("table-2", [SEED, 50, 2], 2, (0.75, 0.95)),
                                  ("table-4", [SEED, 50, 4], 4, (0.75, 0.95)),
                                  ("table-7", [SEED, 50, 7], 7, (0.75, 0.95)),
                                  ("table-pair", [SEED, 51, 15], 2, (0.55, 0.57)),
                                  ("table-side-by-side", [SEED, 51, 1], 2, (0.55, 0.57))):
        rng = np.random.default_rng(seed)
        photo = render_table(faces, rng, n, (1600, 1200), tile_px=56, cut=n == 4,
                             spread=spread)
        save(name, photo.image, {
            "grids": photo.grids, "corners": np.round(photo.corners, 1).tolist(),
            "cut": np.round(photo.cut, 1).tolist(), "art": "drawn", "seed": seed,
        }, TABLES)


if __name__ == "__main__":
    raise SystemExit(main())
