"""Where what the reader learned from the players is kept: the data folder (the web app's
and the CLI's), as ``learned-tiles.npz``; and the file of lessons moved between machines.

A lessons file holds, for each labelled cell, its features (float16) and, when its reading
kept them, its colours (see ``vision.inks``) and its look (``vision.appearance``), the
building and whether a player chose it; it loads without pickle.
"""

from __future__ import annotations

import io
import os
import zipfile
import zlib
from pathlib import Path

import numpy as np

from .city import BUILDINGS
from .errors import TableError
from .vision.adaptation import CELL_DTYPE, Adaptation, Anchors
from .vision.appearance import look_values
from .vision.inks import colour_values, old_colour_values

LEARNED_FILE = "learned-tiles.npz"
MAX_LESSONS = 100_000
MAX_UNPACKED_BYTES = MAX_LESSONS * 1400  # cells of 160 float16 features, 30 colours and
# a look of 432, names and flags


def data_folder(folder: str | Path | None = None) -> Path:
    """The data folder: ``folder``, else ``BTC_DATA``, else ./data."""
    return Path(folder or os.environ.get("BTC_DATA") or Path.cwd() / "data")


def load_learned(folder: str | Path | None = None) -> Adaptation | None:
    """What the web app learned in a data folder, None when it learned nothing (or its file
    is damaged: the shipped model then reads, and the next lesson writes the file again)."""
    path = data_folder(folder) / LEARNED_FILE
    try:
        return Adaptation.from_bytes(path.read_bytes()) if path.is_file() else None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None


def anchor_count(model_dir=None) -> int:
    """How many built-in cells an update of what was learned is checked on."""
    return len(Anchors.load(model_dir).labels)


def lessons_to_bytes(lessons: list[tuple[bytes, str, bool]]) -> bytes:
    """A lessons file (see the module's docstring)."""
    cells = np.stack([np.frombuffer(c, CELL_DTYPE) for c, _, _ in lessons]) if lessons \
        else np.zeros((0, 0), CELL_DTYPE)
    out = io.BytesIO()
    np.savez_compressed(out, cells=cells, buildings=np.array([b for _, b, _ in lessons], "U16"),
                        player=np.array([p for _, _, p in lessons], bool))
    return out.getvalue()


def lessons_from_bytes(data: bytes, width: int) -> list[tuple[bytes, str, bool]]:
    """The lessons of a file; TableError when it is not a lessons file for cells of ``width``
    values (the current tile model's features), their colours and look after them or not."""
    problem = "not a file of learned tiles exported by this app"
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as d:
            if sum(info.file_size for info in d.zip.infolist()) > MAX_UNPACKED_BYTES:
                raise TableError(f"{problem} (it unpacks to more than the most lessons kept)")
            cells, buildings, player = d["cells"], d["buildings"], d["player"]
    except (OSError, ValueError, KeyError, EOFError, TypeError, MemoryError,
            zipfile.BadZipFile, zlib.error) as error:  # (a damaged deflate stream raises
        # zlib's own error; a header claiming a huge array, numpy's MemoryError)
        raise TableError(problem) from error
    if not (cells.dtype == CELL_DTYPE and cells.ndim == 2 and buildings.ndim == 1
            and player.dtype == bool and player.ndim == 1
            and len(cells) == len(buildings) == len(player) <= MAX_LESSONS):
        raise TableError(problem)
    n = len(buildings)
    colours, old, looks = colour_values(), old_colour_values(), look_values()
    if n and cells.shape[1] - width not in (0, colours, old, looks, colours + looks,
                                            old + looks):
        raise TableError("these tiles were learned with another version of the tile model")
    if not all(b in BUILDINGS for b in buildings.tolist()) or not np.isfinite(cells).all():
        raise TableError(problem)
    return [(c.tobytes(), str(b), bool(p)) for c, b, p in zip(cells, buildings, player,
                                                               strict=True)]
