"""The photos being read right now, per table, so that every phone at the table can say so.

A whole-table photo can take several seconds to read; meanwhile the table has no cities yet,
and a phone that reloads the page, or another phone at the table, would show empty seats and
invite a second photo. The server is one process (waitress threads), so this is kept in
memory: a read that outlives a restart is gone with it anyway.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class ReadingNow:
    """Which photos each table is reading: ``with reading_now.reading(table_id, city): ...``."""

    def __init__(self):
        self._lock = threading.Lock()
        self._reads: dict[str, dict[int, tuple[int | None, float]]] = {}
        self._numbers = itertools.count()

    @contextmanager
    def reading(self, table_id: str, city: int | None = None) -> Iterator[None]:
        """While the block runs, the table is reading a photo of one city (its number, from
        1) or, with none, of the whole table."""
        number = next(self._numbers)
        with self._lock:
            self._reads.setdefault(table_id, {})[number] = (city, time.monotonic())
        try:
            yield
        finally:
            with self._lock:
                reads = self._reads[table_id]
                del reads[number]
                if not reads:
                    del self._reads[table_id]

    def of(self, table_id: str) -> list[dict]:
        """The table's photos being read, oldest first: ``{"what", "city", "seconds"}`` each
        (``city`` None for a photo of the whole table)."""
        now = time.monotonic()
        with self._lock:
            reads = sorted(self._reads.get(table_id, {}).values(), key=lambda r: r[1])
        return [{"what": "the whole table" if city is None else f"city {city}", "city": city,
                 "seconds": int(now - since)} for city, since in reads]
