"""Tables, cities and corrections kept in one SQLite file, images in the data folder."""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list, clockwise seating order
    difficulty INTEGER NOT NULL DEFAULT 4,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS cities (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,           -- 0-based position in seating order
    grid TEXT,                      -- JSON 4x4 tokens, NULL until read or typed in
    reading TEXT,                   -- JSON: confidence, corners, duplex, timing_ms
    photo INTEGER NOT NULL DEFAULT 0,   -- 1 when photo and warped images are stored
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    city INTEGER NOT NULL,
    row INTEGER NOT NULL,
    col INTEGER NOT NULL,
    guess TEXT,                     -- what the model (or the previous value) said
    building TEXT NOT NULL,         -- what the player chose
    image TEXT,                     -- cell crop file, relative to the data folder
    created REAL NOT NULL
);
"""


class Store:
    """Thin data access over one SQLite file; one connection per call keeps threads apart."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "btc.sqlite3"
        db = sqlite3.connect(self.path, timeout=30)
        try:
            db.executescript(SCHEMA)
        finally:
            db.close()

    @contextmanager
    def _db(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction on a fresh connection: committed on success, rolled back on error.

        Writers take the lock up front (BEGIN IMMEDIATE), so a read-modify-write cannot lose
        a concurrent update; readers do not block anyone (WAL).
        """
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    def image_path(self, table_id: int, name: str) -> Path:
        folder = self.folder / "images" / str(table_id)
        folder.mkdir(parents=True, exist_ok=True)
        return folder / name

    def write_image(self, table_id: int, name: str, data: bytes) -> Path:
        """Write an image file atomically: readers see the old file or the new, never half."""
        path = self.image_path(table_id, name)
        temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
        temporary.write_bytes(data)
        os.replace(temporary, path)
        return path

    # --- tables ---------------------------------------------------------------------------

    def create_table(self, name: str, players: list[str], difficulty: int, cities: int) -> int:
        now = time.time()
        with self._db() as db:
            cur = db.execute(
                "INSERT INTO tables (name, players, difficulty, created, updated) "
                "VALUES (?, ?, ?, ?, ?)", (name, json.dumps(players), difficulty, now, now))
            table_id = cur.lastrowid
            db.executemany("INSERT INTO cities (table_id, idx) VALUES (?, ?)",
                           [(table_id, i) for i in range(cities)])
        return table_id

    def list_tables(self) -> list[dict]:
        with self._db(write=False) as db:
            rows = db.execute("SELECT * FROM tables ORDER BY updated DESC").fetchall()
        return [self._table_row(r) for r in rows]

    def get_table(self, table_id: int) -> dict | None:
        with self._db(write=False) as db:
            row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            cities = db.execute("SELECT * FROM cities WHERE table_id = ? ORDER BY idx",
                                (table_id,)).fetchall()
        table = self._table_row(row)
        table["cities"] = [
            {"index": c["idx"], "grid": json.loads(c["grid"]) if c["grid"] else None,
             "reading": json.loads(c["reading"]) if c["reading"] else None,
             "photo": bool(c["photo"])}
            for c in cities
        ]
        return table

    def rename_table(self, table_id: int, name: str) -> None:
        with self._db() as db:
            db.execute("UPDATE tables SET name = ?, updated = ? WHERE id = ?",
                       (name, time.time(), table_id))

    def delete_table(self, table_id: int) -> None:
        with self._db() as db:
            db.execute("DELETE FROM cities WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    @staticmethod
    def _table_row(row: sqlite3.Row) -> dict:
        return {"id": row["id"], "name": row["name"], "players": json.loads(row["players"]),
                "difficulty": row["difficulty"], "created": row["created"],
                "updated": row["updated"]}

    # --- cities and corrections -----------------------------------------------------------

    def save_city(self, table_id: int, index: int, grid, reading=None, photo=None) -> None:
        """Store a city's grid; ``reading`` and ``photo`` are kept unless given."""
        with self._db() as db:
            db.execute("UPDATE cities SET grid = ? WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid) if grid else None, table_id, index))
            if reading is not None:
                db.execute("UPDATE cities SET reading = ? WHERE table_id = ? AND idx = ?",
                           (json.dumps(reading) if reading else None, table_id, index))
            if photo is not None:
                db.execute("UPDATE cities SET photo = ? WHERE table_id = ? AND idx = ?",
                           (int(photo), table_id, index))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))

    def set_cell(self, table_id: int, index: int, row: int, col: int, building: str) -> str | None:
        """Change one cell in one transaction (no lost update); returns what it was."""
        with self._db() as db:
            stored = db.execute("SELECT grid FROM cities WHERE table_id = ? AND idx = ?",
                                (table_id, index)).fetchone()["grid"]
            grid = json.loads(stored) if stored else [[None] * 4 for _ in range(4)]
            before, grid[row][col] = grid[row][col], building
            db.execute("UPDATE cities SET grid = ? WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), table_id, index))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))
        return before

    def add_correction(self, table_id: int, city: int, row: int, col: int, guess: str | None,
                       building: str, image: str | None) -> None:
        with self._db() as db:
            db.execute(
                "INSERT INTO corrections (table_id, city, row, col, guess, building, image, "
                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, city, row, col, guess, building, image, time.time()))

    def corrections(self) -> list[dict]:
        with self._db(write=False) as db:
            rows = db.execute("SELECT * FROM corrections ORDER BY id").fetchall()
        return [dict(r) for r in rows]
