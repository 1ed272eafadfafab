"""What the web app does with tables, beyond storage: reading photos, scoring, exports.

Views call these; they hold no Flask state except the store and reader passed in.
"""

from __future__ import annotations

import csv
import io
import threading
import uuid

import cv2
import numpy as np

from scorer.city import BUILDINGS, City
from scorer.errors import TableError
from scorer.table import Table, score_cities, score_table
from scorer.vision import geometry
from scorer.vision.image_io import decode_photo

from .store import Store

STORED_SIDE = 2000  # photos are kept at most this size (the browser already shrinks them)


class LazyReader:
    """One PhotoReader per process, made on first use (tests of typed-in cities never load it)."""

    def __init__(self, model_dir=None):
        self._reader = None
        self._lock = threading.Lock()
        self.model_dir = model_dir

    def get(self):
        with self._lock:
            if self._reader is None:
                from scorer.reading import PhotoReader

                self._reader = PhotoReader(self.model_dir)
            return self._reader


def scoreboard(table: dict) -> dict:
    """Scores of a stored table: the full result once every city is known, else per city."""
    known = [c for c in table["cities"] if is_complete(c["grid"])]
    if len(known) == len(table["cities"]):
        players = tuple(table["players"])
        result = score_table(Table(tuple(City.from_rows(c["grid"]) for c in known), players,
                                   table["difficulty"]))
        result["complete"] = True
        return result
    scored = score_cities([City.from_rows(c["grid"]) for c in known]) if known else []
    by_index = dict(zip((c["index"] for c in known), scored, strict=True))
    return {"complete": False, "cities": [by_index.get(c["index"]) for c in table["cities"]]}


def _encode_jpeg(image: np.ndarray, quality: int = 88) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes()


def store_photo(store: Store, table_id: int, index: int, data: bytes) -> np.ndarray:
    """Decode an upload (errors are ImageError) and keep it, shrunk, as the city's photo."""
    image = decode_photo(data)
    scale = STORED_SIDE / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    store.write_image(table_id, f"city{index}-photo.jpg", _encode_jpeg(image))
    return image


def mark_unread(store: Store, table: dict, index: int) -> None:
    """The new photo could not be read: keep any earlier grid, ask for the corners."""
    city = table["cities"][index]
    reading = {**(city["reading"] or {}), "unread": True}
    store.save_city(table["id"], index, city["grid"], reading=reading, photo=True)


def load_photo(store: Store, table_id: int, index: int) -> np.ndarray | None:
    path = store.image_path(table_id, f"city{index}-photo.jpg")
    if not path.is_file():
        return None
    return cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def read_stored_photo(store: Store, reader, table_id: int, index: int, image: np.ndarray,
                      corners=None) -> None:
    """Read the city's photo (GridNotFound when it cannot) and keep grid, reading and warp."""
    from scorer.reading import reading_json

    reading = reader.read(image, corners)
    store.write_image(table_id, f"city{index}-warped.jpg", _encode_jpeg(reading.warped))
    details = reading_json(reading)
    details["model_grid"] = reading.grid
    details["photo_size"] = [int(image.shape[1]), int(image.shape[0])]
    details["warp"] = dict(zip(("side", "pad"), geometry.warp_size(reader.config), strict=True))
    store.save_city(table_id, index, reading.grid, reading=details, photo=True)


def correct_cell(store: Store, table: dict, index: int, row: int, col: int, building: str) -> None:
    """Change one cell and keep the correction, with the cell's image, for retraining."""
    city = table["cities"][index]
    image_name = None
    warped_path = store.image_path(table["id"], f"city{index}-warped.jpg")
    warped = cv2.imread(str(warped_path), cv2.IMREAD_COLOR) if city["photo"] else None
    if warped is not None:
        x0, y0, x1, y1 = geometry.cell_box(len(warped), row, col, -0.1, 1.1)
        ok, png = cv2.imencode(".png", warped[max(y0, 0):y1, max(x0, 0):x1])
        name = f"cell-{index + 1}-{row + 1}-{col + 1}-{uuid.uuid4().hex[:8]}.png"
        path = store.write_image(table["id"], name, png.tobytes())
        image_name = str(path.relative_to(store.folder))
    guess = store.set_cell(table["id"], index, row, col, building)
    store.add_correction(table["id"], index, row, col, guess, building, image_name)


def is_complete(grid) -> bool:
    """A grid with all 16 cells known (typed-in grids may be partly filled)."""
    return bool(grid) and all(b is not None for row in grid for b in row)


def check_grid(grid) -> list[list[str]]:
    """A typed-in grid from JSON: 4 rows of 4 known tokens (or null for not yet chosen)."""
    if not (isinstance(grid, list) and len(grid) == 4
            and all(isinstance(r, list) and len(r) == 4 for r in grid)):
        raise TableError("a city is a list of 4 rows of 4 buildings")
    for row in grid:
        for b in row:
            if b is not None and b not in BUILDINGS:
                raise TableError(f"unknown building {b!r}; use one of {', '.join(BUILDINGS)}")
    return grid


def export_csv(table: dict, result: dict) -> str:
    """One row per city: who built it, the six categories and the total; then the players."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["city", "builders", "shops", "factories", "taverns", "offices", "parks",
                     "houses", "total", "grid"])
    for i, city in enumerate(result["cities"]):
        if not city:
            continue
        s = city["scores"]
        writer.writerow([i + 1, " & ".join(city.get("builders", [])), s["shops"], s["factories"],
                         s["taverns"], s["offices"], s["parks"], s["houses"], s["total"],
                         " / ".join(" ".join(r) for r in city["grid"])])
    if result.get("players"):
        writer.writerow([])
        writer.writerow(["rank", "player", "final", "cities"])
        for p in result["players"]:
            writer.writerow([p["rank"], p["name"], p["final"], " ".join(map(str, p["cities"]))])
    return out.getvalue()
