"""Small helpers shared by tests: cities from notation strings, corner errors in cells, a
count of a reader's searches, the benchmarks' independent renderers."""

import importlib
import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from scorer.notation import parse_city


def city(text: str):
    """A City from notation rows separated by '/' or newlines, e.g. 'S S S S / ...'."""
    return parse_city(text.replace("/", "\n"))


def named_pipe(path: Path) -> Path:
    """A named pipe at ``path``. Were it opened and waited on, a writer that opens and closes
    it 10 s later ends the wait, so such a test fails instead of hanging."""
    os.mkfifo(path)

    def end_the_wait():
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # no one is waiting on it, as it should be
            pass

    threading.Timer(10, end_the_wait).start()
    return path


def corner_error(quad, corners) -> float:
    """The farthest corner of ``quad`` (4, 2) from the truth's, in either labelling, in cells."""
    quad, corners = np.asarray(quad), np.asarray(corners)
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    return min(np.linalg.norm(np.roll(quad, k, axis=0) - corners, axis=1).max()
               for k in range(4)) / cell


def lattice_searches(reader) -> list:
    """A list that grows by one each time ``reader`` (a PhotoReader) searches a photo on its
    lattice of tiles, the search running as it does."""
    searched = []
    search_lattice = type(reader).search_lattice

    def spy(self, *args, **kwargs):
        searched.append(True)
        return search_lattice(self, *args, **kwargs)

    reader.search_lattice = spy.__get__(reader)
    return searched


def independent(renderer: str):
    """A renderer of bench/ written apart from training (``independent_photos``,
    ``independent_tables``); the test is skipped without the tile art it draws."""
    bench = str(Path(__file__).resolve().parents[1] / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    art = importlib.import_module("independent_photos").ART_DIR
    if not (art / "duplex.json").exists():
        pytest.skip(f"tile art not found at {art}")
    return importlib.import_module(renderer)
