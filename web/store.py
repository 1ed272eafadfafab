"""Tables, cities and corrections in one SQLite file; the store owns the image files too.

A city's photo, warped image, reading and grid change together or not at all: new images
are written under new names, the row that points at them is committed in one transaction,
and the files it no longer points at are removed afterwards. A request that fails before
the commit leaves only unreferenced files, which are removed (here or at the next start).
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT,                       -- the table's id in links: random, cannot be guessed
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
    photo INTEGER NOT NULL DEFAULT 0,   -- (before version 2) 1 when images were stored
    photo_file TEXT,                -- the photo, in the table's image folder
    warped_file TEXT,               -- the city warped upright, from that photo
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
VERSION = 2
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
ORPHAN_GRACE_S = 600  # unreferenced files younger than this may belong to a request in flight


class PhotoChanged(Exception):
    """The city's photo was replaced while it was being read (the later one is kept)."""


def new_key() -> str:
    """A table id for links: 16 URL-safe characters, 96 random bits."""
    return secrets.token_urlsafe(12)


def clean_text(value: str) -> str:
    """Text that can always be encoded and shown (lone surrogates become U+FFFD)."""
    return LONE_SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


class Store:
    """Data access over one SQLite file and the image folder beside it.

    One connection per call keeps threads apart; every public method is one transaction.
    """

    def __init__(self, folder: str | Path, orphan_grace_s: float = ORPHAN_GRACE_S):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.images = self.folder / "images"
        self.path = self.folder / "btc.sqlite3"
        db = sqlite3.connect(self.path, timeout=30)
        try:
            db.executescript(SCHEMA)
        finally:
            db.close()
        with self._db() as db:
            self._migrate(db)
        self.sweep(orphan_grace_s)

    @contextmanager
    def _db(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction on a fresh connection: committed on success, rolled back on error.

        Writers take the lock up front (BEGIN IMMEDIATE), so a read-modify-write cannot lose
        a concurrent update; readers do not block anyone (WAL).
        """
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.text_factory = _text  # damaged text in the file must not take a page down
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

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring a data folder from an earlier version up to this one (idempotent)."""
        if db.execute("PRAGMA user_version").fetchone()[0] >= VERSION:
            return
        columns = {r["name"] for r in db.execute("PRAGMA table_info(tables)")}
        if "key" not in columns:
            db.execute("ALTER TABLE tables ADD COLUMN key TEXT")
        columns = {r["name"] for r in db.execute("PRAGMA table_info(cities)")}
        for column in ("photo_file", "warped_file"):
            if column not in columns:
                db.execute(f"ALTER TABLE cities ADD COLUMN {column} TEXT")
        for row in db.execute("SELECT id FROM tables WHERE key IS NULL").fetchall():
            db.execute("UPDATE tables SET key = ? WHERE id = ?", (new_key(), row["id"]))
        # version 1 kept fixed names, city<i>-photo.jpg and city<i>-warped.jpg
        for row in db.execute("SELECT table_id, idx FROM cities WHERE photo = 1 "
                              "AND photo_file IS NULL").fetchall():
            folder = self.images / str(row["table_id"])
            names = [f"city{row['idx']}-{kind}.jpg" for kind in ("photo", "warped")]
            found = [n if (folder / n).is_file() else None for n in names]
            db.execute("UPDATE cities SET photo_file = ?, warped_file = ? "
                       "WHERE table_id = ? AND idx = ?", (*found, row["table_id"], row["idx"]))
        for row in db.execute("SELECT id, image FROM corrections WHERE image LIKE 'images/%'"):
            db.execute("UPDATE corrections SET image = ? WHERE id = ?",
                       (row["image"].rsplit("/", 1)[-1], row["id"]))
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tables_key ON tables(key)")
        db.execute(f"PRAGMA user_version = {VERSION}")

    # --- files ----------------------------------------------------------------------------

    def _folder(self, row_id: int) -> Path:
        return self.images / str(row_id)

    def _write(self, row_id: int, stem: str, suffix: str, data: bytes) -> str:
        """A new file under a name never used before; returns the name."""
        folder = self._folder(row_id)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{stem}-{secrets.token_hex(6)}{suffix}"
        (folder / name).write_bytes(data)
        return name

    def _remove(self, row_id: int, names) -> None:
        for name in names:
            if name:
                (self._folder(row_id) / name).unlink(missing_ok=True)

    def sweep(self, grace_s: float = ORPHAN_GRACE_S) -> int:
        """Remove image files and folders no row points at (left by a killed request)."""
        if not self.images.is_dir():
            return 0
        with self._db(write=False) as db:
            tables = {str(r[0]) for r in db.execute("SELECT id FROM tables")}
            used = {(str(r[0]), r[1]) for r in db.execute(
                "SELECT table_id, photo_file FROM cities UNION SELECT table_id, warped_file "
                "FROM cities UNION SELECT table_id, image FROM corrections") if r[1]}
        cutoff, removed = time.time() - grace_s, 0
        for folder in self.images.iterdir():
            for path in (folder.iterdir() if folder.is_dir() else [folder]):
                if (folder.name, path.name) not in used and path.stat().st_mtime <= cutoff:
                    path.unlink()
                    removed += 1
            if folder.is_dir() and folder.name not in tables and not any(folder.iterdir()):
                folder.rmdir()
        return removed

    # --- tables ---------------------------------------------------------------------------

    def create_table(self, name: str, players: list[str], difficulty: int, cities: int) -> str:
        """A new table; returns its key (the id in its links)."""
        now, key = time.time(), new_key()
        with self._db() as db:
            cur = db.execute(
                "INSERT INTO tables (key, name, players, difficulty, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)", (key, name, json.dumps(players), difficulty, now, now))
            db.executemany("INSERT INTO cities (table_id, idx) VALUES (?, ?)",
                           [(cur.lastrowid, i) for i in range(cities)])
        return key

    def list_tables(self) -> list[dict]:
        with self._db(write=False) as db:
            rows = db.execute("SELECT * FROM tables ORDER BY updated DESC").fetchall()
        return [self._table_row(r) for r in rows]

    def get_table(self, key: str) -> dict | None:
        with self._db(write=False) as db:
            row = db.execute("SELECT * FROM tables WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            cities = db.execute("SELECT * FROM cities WHERE table_id = ? ORDER BY idx",
                                (row["id"],)).fetchall()
        table = self._table_row(row)
        table["cities"] = [
            {"index": c["idx"], "grid": _load(c["grid"]), "reading": _load(c["reading"]),
             "photo": c["photo_file"] is not None}
            for c in cities
        ]
        return table

    def rename_table(self, key: str, name: str) -> None:
        with self._db() as db:
            db.execute("UPDATE tables SET name = ?, updated = ? WHERE key = ?",
                       (name, time.time(), key))

    def delete_table(self, key: str) -> bool:
        """Remove the table with its cities, corrections and every file; False if unknown."""
        with self._db() as db:
            row = db.execute("SELECT id FROM tables WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            for sql in ("DELETE FROM corrections WHERE table_id = ?",
                        "DELETE FROM cities WHERE table_id = ?", "DELETE FROM tables WHERE id = ?"):
                db.execute(sql, (row["id"],))
        shutil.rmtree(self._folder(row["id"]), ignore_errors=True)
        return True

    @staticmethod
    def _table_row(row: sqlite3.Row) -> dict:
        players = _load(row["players"])
        players = players if isinstance(players, list) else []
        return {"id": row["key"], "name": clean_text(str(row["name"])),
                "players": [clean_text(str(p)) for p in players],
                "difficulty": row["difficulty"], "created": row["created"],
                "updated": row["updated"]}

    # --- cities ---------------------------------------------------------------------------

    @contextmanager
    def _city(self, key: str, index: int, new_files=()) -> Iterator[tuple[sqlite3.Connection, dict]]:
        """One write transaction on a city's row; the files written for it are removed if
        it fails, the files it stops pointing at once it has committed."""
        row_id = None
        try:
            with self._db() as db:
                row = db.execute("SELECT c.*, t.id AS row_id FROM cities c JOIN tables t "
                                 "ON t.id = c.table_id WHERE t.key = ? AND c.idx = ?",
                                 (key, index)).fetchone()
                if row is None:
                    raise KeyError(f"no city {index} at table {key}")
                row_id, city = row["row_id"], dict(row)
                yield db, city
                db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), row_id))
        except BaseException:
            if row_id is not None:
                self._remove(row_id, new_files)
            raise
        kept = {city["photo_file"], city["warped_file"]}
        self._remove(row_id, {row["photo_file"], row["warped_file"]} - kept)

    def type_city(self, key: str, index: int, grid) -> None:
        """A city typed in: its grid, no reading, and no photo any more."""
        with self._city(key, index) as (db, city):
            city.update(photo_file=None, warped_file=None)
            db.execute("UPDATE cities SET grid = ?, reading = NULL, photo = 0, photo_file = NULL,"
                       " warped_file = NULL WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), city["table_id"], index))

    def _row_id(self, key: str) -> int:
        with self._db(write=False) as db:
            row = db.execute("SELECT id FROM tables WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(f"no table {key}")
        return row["id"]

    def keep_reading(self, key: str, index: int, photo: bytes | None, warped: bytes, grid,
                     reading: dict, photo_read: str | None = None) -> None:
        """A city read from a photo: photo (new, or None for the stored one), warped image,
        reading and grid, all at once. ``photo_read`` is the stored photo that was read; if
        another has replaced it meanwhile, :class:`PhotoChanged` is raised and nothing kept.
        """
        row_id = self._row_id(key)
        files = [self._write(row_id, f"city{index + 1}-warped", ".jpg", warped)]
        if photo is not None:
            files.append(self._write(row_id, f"city{index + 1}-photo", ".jpg", photo))
        with self._city(key, index, files) as (db, city):
            if photo is None and city["photo_file"] != photo_read:
                raise PhotoChanged("the city's photo was replaced while it was read")
            city.update(warped_file=files[0], photo_file=files[1] if photo else city["photo_file"])
            db.execute("UPDATE cities SET grid = ?, reading = ?, photo = 1, photo_file = ?, "
                       "warped_file = ? WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), json.dumps(reading), city["photo_file"],
                        city["warped_file"], city["table_id"], index))

    def keep_unread_photo(self, key: str, index: int, photo: bytes) -> None:
        """A photo in which no city was found: kept for tapped corners, marked unread; the
        city's grid (and the image it was read from) stay as they are."""
        row_id = self._row_id(key)
        name = self._write(row_id, f"city{index + 1}-photo", ".jpg", photo)
        with self._city(key, index, [name]) as (db, city):
            reading = {**(_load(city["reading"]) or {}), "unread": True}
            city["photo_file"] = name
            db.execute("UPDATE cities SET reading = ?, photo = 1, photo_file = ? "
                       "WHERE table_id = ? AND idx = ?",
                       (json.dumps(reading), name, city["table_id"], index))

    def image(self, key: str, index: int, kind: str) -> tuple[str, Path] | None:
        """(file name, path) of a city's ``photo`` or ``warped`` image, None if it has none."""
        column = {"photo": "photo_file", "warped": "warped_file"}[kind]
        with self._db(write=False) as db:
            row = db.execute(f"SELECT c.{column} AS name, t.id FROM cities c JOIN tables t ON "
                             "t.id = c.table_id WHERE t.key = ? AND c.idx = ?",
                             (key, index)).fetchone()
        if row is None or row["name"] is None:
            return None
        return row["name"], self._folder(row["id"]) / row["name"]

    def set_cell(self, key: str, index: int, row: int, col: int, building: str,
                 cell_image: bytes | None = None) -> str | None:
        """Change one cell and keep the correction (with the cell's image) in one
        transaction, so no concurrent update is lost; returns what the cell was."""
        files = [self._write(self._row_id(key), f"cell-{index + 1}-{row + 1}-{col + 1}", ".png",
                             cell_image)] if cell_image is not None else []
        with self._city(key, index, files) as (db, city):
            grid = _load(city["grid"]) or [[None] * 4 for _ in range(4)]
            before, grid[row][col] = grid[row][col], building
            db.execute("UPDATE cities SET grid = ? WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), city["table_id"], index))
            db.execute(
                "INSERT INTO corrections (table_id, city, row, col, guess, building, image, "
                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (city["table_id"], index, row, col, before, building,
                 files[0] if files else None, time.time()))
        return before

    # --- corrections ----------------------------------------------------------------------

    def corrections(self) -> list[dict]:
        """Every correction, with its table's key and the path of its cell image (or None)."""
        with self._db(write=False) as db:
            rows = db.execute("SELECT c.*, t.key FROM corrections c JOIN tables t "
                              "ON t.id = c.table_id ORDER BY c.id").fetchall()
        found = []
        for r in rows:
            path = self._folder(r["table_id"]) / r["image"] if r["image"] else None
            found.append({**dict(r), "table": r["key"],
                          "path": path if path is not None and path.is_file() else None})
        return found


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _load(text: str | None):
    """A stored JSON value; None for nothing, or for a value damaged in the file."""
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None
