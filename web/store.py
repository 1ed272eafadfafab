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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from scorer.city import BUILDINGS
from scorer.errors import ScorerError, TableError
from scorer.learned import LEARNED_FILE

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT,                       -- the table's id in links: random, cannot be guessed
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list, clockwise seating order
    difficulty INTEGER NOT NULL DEFAULT 4,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    deleted REAL                    -- when it was deleted: kept DELETED_KEPT_S for an undo
);
CREATE TABLE IF NOT EXISTS cities (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,           -- 0-based position in seating order
    grid TEXT,                      -- JSON 4x4 tokens, NULL until read or typed in
    reading TEXT,                   -- JSON: confidence, corners, duplex, timing_ms
    photo INTEGER NOT NULL DEFAULT 0,   -- (before version 2) 1 when images were stored
    photo_file TEXT,                -- the photo, in the table's image folder
    warped_file TEXT,               -- the city warped upright, from that photo
    cells BLOB,                     -- float16 (16, D + L): the reading's cells, to learn from
    counts TEXT,                    -- JSON building -> n: solo Automaville's tiles sorted by
                                    -- type (beginner mode), instead of a grid
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS replaced (   -- a city as it was before its latest photo or typing
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,  -- over: for an undo
    idx INTEGER NOT NULL,
    grid TEXT, reading TEXT, photo_file TEXT, warped_file TEXT, cells BLOB, counts TEXT,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL,
    city INTEGER NOT NULL,
    row INTEGER NOT NULL,
    col INTEGER NOT NULL,
    guess TEXT,                     -- the cell's value before the player chose
    building TEXT NOT NULL,         -- what the player chose
    image TEXT,                     -- cell crop file, in the table's image folder
    created REAL NOT NULL,
    model_guess TEXT,               -- what the model read there
    reading TEXT,                   -- the reading it corrects (its warped file)
    cell BLOB                       -- float16 (D + L): the cell, to learn from
);
CREATE TABLE IF NOT EXISTS lessons (  -- labelled cells kept apart from any table
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    cell BLOB NOT NULL,
    building TEXT NOT NULL,
    player INTEGER NOT NULL,        -- 1: a player's choice, 0: a cell of an accepted reading
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS campaigns (  -- solo campaigns (French rulebook, "Jeu en campagne")
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,       -- the campaign's id in links, like a table's
    name TEXT NOT NULL,
    length INTEGER NOT NULL,        -- 3 or 6 games
    difficulty INTEGER NOT NULL,
    mode TEXT NOT NULL,             -- beginner or full
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS campaign_games (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,           -- 0-based, in the order played
    table_key TEXT NOT NULL UNIQUE, -- the solo table (a table counts in one campaign only)
    type TEXT NOT NULL,             -- the building type chosen for the bonus
    result TEXT NOT NULL,           -- JSON: the table's scores when it was added (kept if the
                                    -- table is deleted later)
    PRIMARY KEY (campaign_id, idx)
);
"""
VERSION = 5
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
ORPHAN_GRACE_S = 600  # unreferenced files younger than this may belong to a request in flight
DELETED_KEPT_S = 600  # a deleted table can be brought back this long
CONTENT = ("grid", "reading", "photo_file", "warped_file", "cells", "counts")  # a city's


class PhotoChanged(Exception):
    """The city's photo was replaced while it was being read (the later one is kept)."""


class TableChanged(Exception):
    """The table changed (on another phone) since the change asked for was decided on."""


class Gone(KeyError):
    """A table, city or campaign that is not there: never made, or deleted (on another phone,
    say, while a photo of it was being read)."""

    def __str__(self) -> str:
        return self.args[0]


def new_key() -> str:
    """A table id for links: 16 URL-safe characters, 96 random bits."""
    return secrets.token_urlsafe(12)


def clean_text(value: str) -> str:
    """Text that can always be encoded and shown (lone surrogates become U+FFFD)."""
    return LONE_SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


class UnusableFolder(ScorerError):
    """A data folder the app cannot keep tables in: a file, read-only, another database."""


class Store:
    """Data access over one SQLite file and the image folder beside it.

    One connection per call keeps threads apart; every public method is one transaction.
    """

    def __init__(self, folder: str | Path, orphan_grace_s: float = ORPHAN_GRACE_S):
        self.folder = Path(folder)
        self.images = self.folder / "images"
        self.path = self.folder / "btc.sqlite3"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=30)
            try:
                db.executescript(SCHEMA)
            finally:
                db.close()
            with self._db() as db:
                self._migrate(db)
            self.sweep(orphan_grace_s)
        except (OSError, sqlite3.DatabaseError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise UnusableFolder(f"the data folder {self.folder} cannot be used ({reason}): "
                                 "choose another one") from None

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
        for table, column, kind in (("tables", "deleted", "REAL"), ("cities", "photo_file", "TEXT"),
                                    ("cities", "warped_file", "TEXT"), ("cities", "cells", "BLOB"),
                                    ("cities", "counts", "TEXT"),
                                    ("corrections", "model_guess", "TEXT"),
                                    ("corrections", "reading", "TEXT"),
                                    ("corrections", "cell", "BLOB")):
            if column not in {r["name"] for r in db.execute(f"PRAGMA table_info({table})")}:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        # before version 3 a correction kept only the cell's previous value: the best guess
        db.execute("UPDATE corrections SET model_guess = guess WHERE model_guess IS NULL")
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
        """Remove files of a table that no row points at any more (a whole-table photo is
        shared by its cities)."""
        names = {n for n in names if n}
        if not names:
            return
        with self._db(write=False) as db:
            used = {r[1] for r in db.execute(f"{USED_FILES} WHERE table_id = ?", (row_id,))}
        for name in names - used:
            (self._folder(row_id) / name).unlink(missing_ok=True)

    def sweep(self, grace_s: float = ORPHAN_GRACE_S) -> int:
        """Remove the tables deleted long enough ago, and image files and folders no row
        points at (left by a killed request)."""
        self.purge()
        if not self.images.is_dir():
            return 0
        with self._db(write=False) as db:
            tables = {str(r[0]) for r in db.execute("SELECT id FROM tables")}
            used = {(str(r[0]), r[1]) for r in db.execute(USED_FILES) if r[1]}
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
            rows = db.execute("SELECT * FROM tables WHERE deleted IS NULL "
                              "ORDER BY updated DESC").fetchall()
        return [self._table_row(r) for r in rows]

    def get_table(self, key: str) -> dict | None:
        with self._db(write=False) as db:
            row = db.execute("SELECT * FROM tables WHERE key = ? AND deleted IS NULL",
                             (key,)).fetchone()
            if row is None:
                return None
            cities = db.execute("SELECT * FROM cities WHERE table_id = ? ORDER BY idx",
                                (row["id"],)).fetchall()
            chosen = {}
            for r in db.execute("SELECT c.city, c.row, c.col FROM corrections c JOIN cities t "
                                "ON t.table_id = c.table_id AND t.idx = c.city AND "
                                "t.warped_file = c.reading WHERE c.table_id = ? ORDER BY c.id",
                                (row["id"],)):
                chosen.setdefault(r["city"], []).append([r["row"], r["col"]])
        table = self._table_row(row)
        table["cities"] = [
            {"index": c["idx"], "grid": _load(c["grid"]), "counts": _load(c["counts"]),
             "reading": _with_chosen(
                _load(c["reading"]), chosen.get(c["idx"], [])),
             "photo": c["photo_file"] is not None}
            for c in cities
        ]
        return table

    def rename_table(self, key: str, name: str) -> None:
        with self._db() as db:
            db.execute("UPDATE tables SET name = ?, updated = ? WHERE key = ? AND deleted IS NULL",
                       (name, time.time(), key))

    def delete_table(self, key: str) -> bool:
        """Delete a table: gone from the list and its link at once, and kept
        ``DELETED_KEPT_S`` for :meth:`restore_table` (an undo); False if unknown."""
        with self._db() as db:
            gone = db.execute("UPDATE tables SET deleted = ? WHERE key = ? AND deleted IS NULL",
                              (time.time(), key)).rowcount
        self.purge()
        return bool(gone)

    def restore_table(self, key: str) -> bool:
        """Bring back a table deleted less than ``DELETED_KEPT_S`` ago; False if there is none."""
        self.purge()
        with self._db() as db:
            return bool(db.execute("UPDATE tables SET deleted = NULL WHERE key = ? AND "
                                   "deleted IS NOT NULL", (key,)).rowcount)

    def purge(self, kept_s: float = DELETED_KEPT_S) -> None:
        """Remove the tables deleted more than ``kept_s`` ago with their cities, corrections
        and every file; what the reader learned from them is kept apart (lessons)."""
        with self._db() as db:
            rows = db.execute("SELECT id FROM tables WHERE deleted < ?",
                              (time.time() - kept_s,)).fetchall()
            for row in rows:
                db.executemany("INSERT INTO lessons (cell, building, player, created) "
                               "VALUES (?, ?, ?, ?)", [(c, b, int(p), time.time()) for c, b, p
                                                       in self._lessons(db, row["id"])])
                for sql in ("DELETE FROM corrections WHERE table_id = ?",
                            "DELETE FROM replaced WHERE table_id = ?",
                            "DELETE FROM cities WHERE table_id = ?",
                            "DELETE FROM tables WHERE id = ?"):
                    db.execute(sql, (row["id"],))
        for row in rows:
            shutil.rmtree(self._folder(row["id"]), ignore_errors=True)

    @staticmethod
    def _table_row(row: sqlite3.Row) -> dict:
        players = _load(row["players"])
        players = players if isinstance(players, list) else []
        return {"id": row["key"], "name": clean_text(str(row["name"])),
                "players": [clean_text(str(p)) for p in players],
                "difficulty": row["difficulty"], "created": row["created"],
                "updated": row["updated"]}

    # --- campaigns ------------------------------------------------------------------------

    def create_campaign(self, name: str, length: int, difficulty: int, mode: str) -> str:
        """A new campaign with no games yet; returns its key."""
        now, key = time.time(), new_key()
        with self._db() as db:
            db.execute("INSERT INTO campaigns (key, name, length, difficulty, mode, created, "
                       "updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (key, name, length, difficulty, mode, now, now))
        return key

    def _campaigns(self, db: sqlite3.Connection, where: str = "", args=()) -> list[dict]:
        rows = db.execute(f"SELECT * FROM campaigns {where} ORDER BY updated DESC",
                          args).fetchall()
        campaigns = []
        for row in rows:
            games = db.execute("SELECT * FROM campaign_games WHERE campaign_id = ? ORDER BY idx",
                               (row["id"],)).fetchall()
            campaigns.append({
                "id": row["key"], "name": clean_text(str(row["name"])), "length": row["length"],
                "difficulty": row["difficulty"], "mode": row["mode"],
                "created": row["created"], "updated": row["updated"],
                "games": [{"table": g["table_key"], "type": g["type"],
                           "result": _load(g["result"])} for g in games]})
        return campaigns

    def list_campaigns(self) -> list[dict]:
        with self._db(write=False) as db:
            return self._campaigns(db)

    def get_campaign(self, key: str) -> dict | None:
        with self._db(write=False) as db:
            found = self._campaigns(db, "WHERE key = ?", (key,))
        return found[0] if found else None

    def add_campaign_game(self, key: str, table_key: str, building_type: str,
                          result: dict) -> None:
        """The next game of a campaign: a solo table, its chosen type, and its scores now.
        TableError when the table already counts in a campaign."""
        with self._db() as db:
            row = db.execute("SELECT id FROM campaigns WHERE key = ?", (key,)).fetchone()
            if row is None:
                raise Gone(f"no campaign {key}")
            other = db.execute("SELECT c.name FROM campaign_games g JOIN campaigns c ON "
                               "c.id = g.campaign_id WHERE g.table_key = ?",
                               (table_key,)).fetchone()
            if other is not None:
                raise TableError(f"this table already counts in the campaign "
                                 f"{clean_text(str(other['name']))!r}")
            count = db.execute("SELECT COUNT(*) FROM campaign_games WHERE campaign_id = ?",
                               (row["id"],)).fetchone()[0]
            db.execute("INSERT INTO campaign_games (campaign_id, idx, table_key, type, result) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (row["id"], count, table_key, building_type, json.dumps(result)))
            db.execute("UPDATE campaigns SET updated = ? WHERE id = ?", (time.time(), row["id"]))

    def remove_campaign_game(self, key: str, index: int) -> bool:
        """Take game ``index`` (0-based) out of a campaign; the later games move up."""
        with self._db() as db:
            row = db.execute("SELECT id FROM campaigns WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            gone = db.execute("DELETE FROM campaign_games WHERE campaign_id = ? AND idx = ?",
                              (row["id"], index)).rowcount
            later = db.execute("SELECT idx FROM campaign_games WHERE campaign_id = ? AND idx > ? "
                               "ORDER BY idx", (row["id"], index)).fetchall()
            for r in later:
                db.execute("UPDATE campaign_games SET idx = ? WHERE campaign_id = ? AND idx = ?",
                           (r["idx"] - 1, row["id"], r["idx"]))
            db.execute("UPDATE campaigns SET updated = ? WHERE id = ?", (time.time(), row["id"]))
        return bool(gone)

    def delete_campaign(self, key: str) -> bool:
        """Remove a campaign (its tables stay)."""
        with self._db() as db:
            row = db.execute("SELECT id FROM campaigns WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            db.execute("DELETE FROM campaign_games WHERE campaign_id = ?", (row["id"],))
            db.execute("DELETE FROM campaigns WHERE id = ?", (row["id"],))
        return True

    # --- cities ---------------------------------------------------------------------------

    @contextmanager
    def _city(self, key: str, index: int, new_files=()) -> Iterator[tuple[sqlite3.Connection, dict]]:
        """One write transaction on a city's row; the files written for it are removed if
        it fails, the files it stops pointing at once it has committed."""
        row_id = None
        try:
            with self._db() as db:
                row = db.execute("SELECT c.*, t.id AS row_id FROM cities c JOIN tables t "
                                 "ON t.id = c.table_id WHERE t.key = ? AND c.idx = ? "
                                 "AND t.deleted IS NULL", (key, index)).fetchone()
                if row is None:
                    raise Gone(f"no city {index} at table {key}")
                row_id, city = row["row_id"], dict(row)
                yield db, city
                db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), row_id))
        except BaseException:
            if row_id is not None:
                self._remove(row_id, new_files)
            raise
        kept = {city["photo_file"], city["warped_file"]}
        self._remove(row_id, ({row["photo_file"], row["warped_file"]}
                              | city.get("set_aside_before", set())) - kept)

    @staticmethod
    def _set_aside(db: sqlite3.Connection, city: dict) -> set[str]:
        """Keep the city as it is now, to be put back by :meth:`restore_city`; returns the
        files of what was set aside before (the store removes those it no longer uses)."""
        where = (city["table_id"], city["idx"])
        before = db.execute("SELECT photo_file, warped_file FROM replaced WHERE table_id = ? "
                            "AND idx = ?", where).fetchone()
        db.execute(f"INSERT OR REPLACE INTO replaced (table_id, idx, {', '.join(CONTENT)}) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (*where, *(city[k] for k in CONTENT)))
        return {before["photo_file"], before["warped_file"]} if before else set()

    def restore_city(self, key: str, index: int) -> None:
        """Put the city back as it was before its latest photo or typing over, with its
        photo, reading and corrections; what it held until now is set aside in turn, so a
        second call redoes. TableError when there is nothing to put back."""
        with self._city(key, index) as (db, city):
            before = db.execute("SELECT * FROM replaced WHERE table_id = ? AND idx = ?",
                                (city["table_id"], index)).fetchone()
            if before is None:
                raise TableError(f"city {index + 1} has nothing to put back")
            city["set_aside_before"] = self._set_aside(db, city)
            db.execute(f"UPDATE cities SET {', '.join(f'{k} = ?' for k in CONTENT)}, "
                       "photo = ? WHERE table_id = ? AND idx = ?",
                       (*(before[k] for k in CONTENT), int(before["photo_file"] is not None),
                        city["table_id"], index))
            city.update(photo_file=before["photo_file"], warped_file=before["warped_file"])

    def type_city(self, key: str, index: int, grid) -> None:
        """A city typed in: its grid, no reading, and no photo any more."""
        self._typed(key, index, grid, None)

    def type_counts(self, key: str, index: int, counts: dict[str, int]) -> None:
        """Automaville typed in as tile counts (solo beginner mode): no grid, reading or
        photo any more."""
        self._typed(key, index, None, counts)

    def _typed(self, key: str, index: int, grid, counts) -> None:
        with self._city(key, index) as (db, city):
            city["set_aside_before"] = self._set_aside(db, city)
            city.update(photo_file=None, warped_file=None)
            db.execute("UPDATE cities SET grid = ?, counts = ?, reading = NULL, photo = 0, "
                       "photo_file = NULL, warped_file = NULL, cells = NULL "
                       "WHERE table_id = ? AND idx = ?",
                       (None if grid is None else json.dumps(grid),
                        None if counts is None else json.dumps(counts), city["table_id"], index))

    def _row_id(self, key: str) -> int:
        with self._db(write=False) as db:
            row = db.execute("SELECT id FROM tables WHERE key = ? AND deleted IS NULL",
                             (key,)).fetchone()
        if row is None:
            raise Gone(f"no table {key}")
        return row["id"]

    def keep_reading(self, key: str, index: int, photo: bytes | None, warped: bytes, grid,
                     reading: dict, photo_read: str | None = None,
                     cells: bytes | None = None, keep_choices: bool = False,
                     set_aside: bool = False) -> None:
        """A city read from a photo: photo (new, or None for the stored one), warped image,
        reading, grid and the cells to learn from, all at once. ``photo_read`` is the stored
        photo that was read; if another has replaced it meanwhile, :class:`PhotoChanged` is
        raised and nothing kept. ``keep_choices``: the same photo read again, so the cells
        the player chose (and the player's acceptance) carry over to the new reading.
        The city as it was can be put back (:meth:`restore_city`) after a new photo, or with
        ``set_aside`` (the stored photo read inside other corners).
        """
        row_id = self._row_id(key)
        files = [self._write(row_id, f"city{index + 1}-warped", ".jpg", warped)]
        if photo is not None:
            files.append(self._write(row_id, f"city{index + 1}-photo", ".jpg", photo))
        with self._city(key, index, files) as (db, city):
            if photo is None and city["photo_file"] != photo_read:
                raise PhotoChanged("the city's photo was replaced while it was read")
            if keep_choices:
                grid, reading = self._carry_choices(db, city, files[0], grid, reading)
            if photo is not None or set_aside:  # the city as it was can be put back
                city["set_aside_before"] = self._set_aside(db, city)
            city.update(warped_file=files[0], photo_file=files[1] if photo else city["photo_file"])
            db.execute("UPDATE cities SET grid = ?, reading = ?, photo = 1, photo_file = ?, "
                       "warped_file = ?, cells = ?, counts = NULL WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), json.dumps(reading), city["photo_file"],
                        city["warped_file"], cells, city["table_id"], index))

    def keep_table_photo(self, key: str, photo: bytes, readings: list[tuple],
                         seats_for: Callable[[list[dict]], list[int]]) -> list[int]:
        """Cities read from one photo of the whole table, all at once: the photo (kept once,
        shared by them) and for each (warped image, grid, reading, cells), in the photo's
        order. ``seats_for`` picks their seats from the table's cities as they are now
        (``{"index", "grid", "counts", "reading"}`` each), inside the write: another phone's photo kept
        while this one was read is seen, never overwritten. Returns the seats given."""
        row_id = self._row_id(key)
        files = [self._write(row_id, "table-photo", ".jpg", photo)]
        files += [self._write(row_id, f"in-photo{number}-warped", ".jpg", warped)
                  for number, (warped, *_) in enumerate(readings, start=1)]
        old = set()
        try:
            with self._db() as db:
                cities = [{"index": r["idx"], "grid": _load(r["grid"]),
                           "counts": _load(r["counts"]), "reading": _load(r["reading"])}
                          for r in db.execute(
                    "SELECT idx, grid, counts, reading FROM cities WHERE table_id = ? ORDER BY idx",
                    (row_id,))]
                seats = seats_for(cities)
                for index, (_, grid, reading, cells), warped in zip(seats, readings, files[1:],
                                                                    strict=True):
                    row = db.execute("SELECT * FROM cities WHERE table_id = ? AND idx = ?",
                                     (row_id, index)).fetchone()
                    old |= self._set_aside(db, dict(row))
                    db.execute("UPDATE cities SET grid = ?, reading = ?, photo = 1, "
                               "photo_file = ?, warped_file = ?, cells = ?, counts = NULL "
                               "WHERE table_id = ? AND idx = ?",
                               (json.dumps(grid), json.dumps(reading), files[0], warped,
                                cells, row_id, index))
                db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), row_id))
        except BaseException:
            self._remove(row_id, files)
            raise
        self._remove(row_id, old)
        return seats

    def reorder(self, key: str, order: list[int], seen: float | None = None) -> None:
        """Move the cities to other seats: seat i gets the city that was at ``order[i]``,
        with its photo, reading and corrections (``order`` is a permutation of the seats); the
        seating of a whole-table photo whose cities moved is to be checked again. ``seen``:
        the table's ``updated`` the order was decided on; if it changed since (another
        phone), :class:`TableChanged` is raised and nothing moves."""
        row_id = self._row_id(key)
        with self._db() as db:
            updated = db.execute("SELECT updated FROM tables WHERE id = ?", (row_id,)).fetchone()[0]
            if seen is not None and seen != updated:
                raise TableChanged("the table changed on another phone meanwhile: here it is "
                                   "now; change the seating again if it is still wrong")
            count = db.execute("SELECT COUNT(*) FROM cities WHERE table_id = ?",
                               (row_id,)).fetchone()[0]
            if sorted(order) != list(range(count)):
                raise TableError(f"order must list each of the {count} seats once, from 0")
            seat = {old: new for new, old in enumerate(order)}
            rows = db.execute("SELECT idx, reading, counts FROM cities WHERE table_id = ?",
                              (row_id,)).fetchall()
            counted = [r["idx"] for r in rows if r["counts"] is not None and seat[r["idx"]] != r["idx"]]
            if counted:  # only Automaville's seat is scored from counts
                raise TableError(f"city {counted[0] + 1} is given as tile counts (Automaville): "
                                 "it keeps its seat")
            readings = {r["idx"]: _load(r["reading"]) for r in rows}
            # cities of a whole-table photo moved: its seating is to be checked again
            moved = {r.get("table_photo") for i, r in readings.items()
                     if seat[i] != i and isinstance(r, dict)} - {None}
            self._mark_seating(db, row_id, moved, False)
            for old, new in seat.items():  # through negative seats: (table, idx) is unique
                db.execute("UPDATE cities SET idx = ? WHERE table_id = ? AND idx = ?",
                           (-1 - new, row_id, old))
            db.execute("UPDATE cities SET idx = -1 - idx WHERE table_id = ?", (row_id,))
            for table, column in (("corrections", "city"), ("replaced", "idx")):
                db.execute(f"UPDATE {table} SET {column} = -1 - {column} WHERE table_id = ?",
                           (row_id,))
                for old, new in seat.items():
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE table_id = ? AND "
                               f"{column} = ?", (new, row_id, -1 - old))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), row_id))

    @staticmethod
    def _carry_choices(db: sqlite3.Connection, city: dict, warped: str, grid, reading: dict):
        """The grid and reading of a new reading of the same photo, with the player's choices
        in the old one carried over (and moved to the new reading)."""
        where = ("table_id = ? AND city = ? AND reading = ?",
                 (city["table_id"], city["idx"], city["warped_file"]))
        grid = [list(row) for row in grid]
        for r in db.execute(f"SELECT row, col, building FROM corrections WHERE {where[0]}",
                            where[1]):
            grid[r["row"]][r["col"]] = r["building"]
        db.execute(f"UPDATE corrections SET reading = ? WHERE {where[0]}", (warped, *where[1]))
        old = _load(city["reading"])
        if isinstance(old, dict) and old.get("accepted"):
            reading = {**reading, "accepted": True}
        return grid, reading

    def keep_learned(self, data: bytes | None) -> None:
        """Keep (or, given None, remove) what the reader learned, in the data folder."""
        path = self.folder / LEARNED_FILE
        if data is None:
            path.unlink(missing_ok=True)
            return
        part = path.with_suffix(".part")
        part.write_bytes(data)
        part.replace(path)

    def keep_unread_photo(self, key: str, index: int, photo: bytes) -> None:
        """A photo in which no city was found: kept for tapped corners, marked unread; the
        city's grid (and the image it was read from) stay as they are. The city is set aside
        for an undo as it was before, unless its photo was not read either: the city as it
        was before that photo stays the one an undo puts back (two failed retakes in a row
        must not push a photo that was read out of reach)."""
        row_id = self._row_id(key)
        name = self._write(row_id, f"city{index + 1}-photo", ".jpg", photo)
        with self._city(key, index, [name]) as (db, city):
            before = _load(city["reading"]) or {}
            if not before.get("unread"):
                city["set_aside_before"] = self._set_aside(db, city)
            reading = {**before, "unread": True}
            city["photo_file"] = name
            db.execute("UPDATE cities SET reading = ?, photo = 1, photo_file = ? "
                       "WHERE table_id = ? AND idx = ?",
                       (json.dumps(reading), name, city["table_id"], index))

    def image(self, key: str, index: int, kind: str) -> tuple[str, Path] | None:
        """(file name, path) of a city's ``photo`` or ``warped`` image, None if it has none."""
        column = {"photo": "photo_file", "warped": "warped_file"}[kind]
        with self._db(write=False) as db:
            row = db.execute(f"SELECT c.{column} AS name, t.id FROM cities c JOIN tables t ON "
                             "t.id = c.table_id WHERE t.key = ? AND c.idx = ? AND "
                             "t.deleted IS NULL", (key, index)).fetchone()
        if row is None or row["name"] is None:
            return None
        return row["name"], self._folder(row["id"]) / row["name"]

    def set_cell(self, key: str, index: int, row: int, col: int, building: str,
                 cell_image: bytes | None = None) -> str | None:
        """Change one cell, and keep what the player taught, in one transaction (so no
        concurrent update is lost); returns what the cell was.

        On a city read from a photo the player's latest choice for a cell is kept as a
        correction of that reading, with the model's own guess and the cell's image and
        features: choosing again replaces it, choosing what the model read after changing
        the cell undoes it (it is forgotten), and choosing what the cell already shows
        confirms it. A typed-in city teaches nothing.
        """
        files = [self._write(self._row_id(key), f"cell-{index + 1}-{row + 1}-{col + 1}", ".png",
                             cell_image)] if cell_image is not None else []
        with self._city(key, index, files) as (db, city):
            grid = _load(city["grid"]) or [[None] * 4 for _ in range(4)]
            before, grid[row][col] = grid[row][col], building
            db.execute("UPDATE cities SET grid = ?, counts = NULL WHERE table_id = ? AND idx = ?",
                       (json.dumps(grid), city["table_id"], index))
            unused = self._record_choice(db, city, row, col, before, building, files)
        self._remove(city["row_id"], unused)
        return before

    @staticmethod
    def _record_choice(db: sqlite3.Connection, city: dict, row: int, col: int, before,
                       building: str, files: list[str]) -> list[str]:
        """Keep the player's latest choice for a cell of a reading (see ``set_cell``);
        returns the cell images no longer needed."""
        model = _model_guess(city, row, col)
        if model is None:
            return files
        where = ("table_id = ? AND city = ? AND row = ? AND col = ? AND reading = ?",
                 (city["table_id"], city["idx"], row, col, city["warped_file"]))
        unused = [r["image"] for r in db.execute(
            f"SELECT image FROM corrections WHERE {where[0]}", where[1])]
        db.execute(f"DELETE FROM corrections WHERE {where[0]}", where[1])
        if building == model and before != model:
            return unused + files  # undone: the cell is as read, the correction forgotten
        db.execute(
            "INSERT INTO corrections (table_id, city, row, col, guess, building, image, "
            "created, model_guess, reading, cell) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (city["table_id"], city["idx"], row, col, before, building,
             files[0] if files else None, time.time(), model, city["warped_file"],
             _cell(city["cells"], row * 4 + col)))
        return unused

    def accept_city(self, key: str, index: int) -> None:
        """The player says the city's reading is right: its cells become labels to learn
        from (Gone for an unknown city, TableError when it was not read from a photo)."""
        with self._city(key, index) as (db, city):
            reading = _load(city["reading"])
            if not city["cells"] or not isinstance(reading, dict) or reading.get("unread"):
                raise TableError("only a city read from a photo can teach the reader")
            reading["accepted"] = True
            db.execute("UPDATE cities SET reading = ? WHERE table_id = ? AND idx = ?",
                       (json.dumps(reading), city["table_id"], index))

    def seating_is_right(self, key: str, shot: str) -> None:
        """The players say the seats of the cities read from one whole-table photo are right
        (``shot``: their reading's table_photo). TableError when no city came from it."""
        row_id = self._row_id(key)
        with self._db() as db:
            if not self._mark_seating(db, row_id, {shot}, True):
                raise TableError("no city of this table was read from that photo")
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), row_id))

    @staticmethod
    def _mark_seating(db: sqlite3.Connection, row_id: int, shots: set, checked: bool) -> int:
        """Mark the seating of these whole-table photos' cities checked or not: how many."""
        marked = 0
        for row in db.execute("SELECT idx, reading FROM cities WHERE table_id = ?",
                              (row_id,)).fetchall():
            reading = _load(row["reading"])
            if isinstance(reading, dict) and reading.get("table_photo") in shots:
                reading["seating_checked"] = checked
                db.execute("UPDATE cities SET reading = ? WHERE table_id = ? AND idx = ?",
                           (json.dumps(reading), row_id, row["idx"]))
                marked += 1
        return marked

    # --- what the reader learns from --------------------------------------------------------

    def lessons(self, limit: int | None = None) -> list[tuple[bytes, str, bool]]:
        """Every labelled cell to learn from, oldest first, as (cell float16 bytes, building,
        a player's own choice?): the players' corrections and confirmations; the other cells
        of readings the player accepted (or of tables whose scoreboard is complete, its
        seating checked, but for cells flagged as doubtful that no player chose); and the
        lessons kept apart from tables (imported, or from deleted tables)."""
        with self._db(write=False) as db:
            found = self._lessons(db)
            found += [(r["cell"], r["building"], bool(r["player"])) for r in db.execute(
                "SELECT cell, building, player FROM lessons ORDER BY id")]
        return found[-limit:] if limit else found

    def _lessons(self, db: sqlite3.Connection, table_id: int | None = None) -> list:
        only = "" if table_id is None else f" AND table_id = {int(table_id)}"
        cities = [(c, _load(c["reading"]), _load(c["grid"])) for c in db.execute(
            f"SELECT * FROM cities WHERE 1 = 1{only} ORDER BY table_id, idx")]
        # a choice teaches while its reading is the city's: a new photo (or typing over)
        # replaces it, as the page says, and an undo of that brings it back
        shown = {(c["table_id"], c["idx"], c["warped_file"]) for c, _, _ in cities}
        found, chosen = [], set()
        for r in db.execute("SELECT * FROM corrections WHERE cell IS NOT NULL"
                            f"{only} ORDER BY id"):
            if r["reading"] is None or (r["table_id"], r["city"], r["reading"]) in shown:
                found.append((r["cell"], r["building"], True))
                chosen.add((r["table_id"], r["city"], r["reading"], r["row"], r["col"]))
        complete = {}  # a table whose scoreboard the players have seen: every city known,
        for c, reading, grid in cities:  # and no whole-table photo's seating still to check
            known = (is_complete(grid) or c["counts"] is not None) and not (
                isinstance(reading, dict) and reading.get("seating_checked") is False)
            complete[c["table_id"]] = complete.get(c["table_id"], True) and known
        for c, reading, grid in cities:
            if not c["cells"] or not isinstance(reading, dict) or reading.get("unread") \
                    or not is_complete(grid) or not (reading.get("accepted") or (
                        complete[c["table_id"]] and not reading.get("more_cities"))):
                continue
            # a complete table vouches for its cells, but not for those flagged as doubtful
            # that no player looked at (an accepted reading vouches for every cell), nor for
            # a city read from a photo of several: which of them was read, only a player says
            doubtful = set() if reading.get("accepted") else {
                tuple(rc) for rc in reading.get("uncertain") or []}
            for i in range(16):
                r, col = divmod(i, 4)
                if (c["table_id"], c["idx"], c["warped_file"], r, col) not in chosen and \
                        (r, col) not in doubtful:
                    found.append((_cell(c["cells"], i), grid[r][col], False))
        return found

    def add_lessons(self, lessons: list[tuple[bytes, str, bool]]) -> None:
        """Keep labelled cells apart from any table (an imported adaptation)."""
        now = time.time()
        with self._db() as db:
            db.executemany("INSERT INTO lessons (cell, building, player, created) "
                           "VALUES (?, ?, ?, ?)", [(c, b, int(p), now) for c, b, p in lessons])

    def forget_lessons(self) -> None:
        """Forget every labelled cell (the corrections stay in the dataset, without cells;
        accepted readings are no longer marked so)."""
        with self._db() as db:
            db.execute("UPDATE corrections SET cell = NULL")
            for table in ("cities", "replaced"):  # what an undo would put back too
                db.execute(f"UPDATE {table} SET cells = NULL, reading = json_remove(reading, "
                           "'$.accepted') WHERE json_valid(reading)")
            db.execute("DELETE FROM lessons")

    # --- corrections ----------------------------------------------------------------------

    def corrections(self) -> list[dict]:
        """Every correction of a reading, with its table's key and the path of its cell image
        (or None)."""
        with self._db(write=False) as db:
            rows = db.execute("SELECT c.*, t.key FROM corrections c JOIN tables t "
                              "ON t.id = c.table_id WHERE c.model_guess IS NOT NULL "
                              "AND t.deleted IS NULL ORDER BY c.id").fetchall()
        found = []
        for r in rows:
            path = self._folder(r["table_id"]) / r["image"] if r["image"] else None
            found.append({**dict(r), "table": r["key"],
                          "path": path if path is not None and path.is_file() else None})
        return found


USED_FILES = ("SELECT * FROM (SELECT table_id, photo_file FROM cities UNION "
              "SELECT table_id, warped_file FROM cities UNION SELECT table_id, image FROM "
              "corrections UNION SELECT table_id, photo_file FROM replaced UNION "
              "SELECT table_id, warped_file FROM replaced)")  # (table id, file name)


def _with_chosen(reading, chosen: list) -> dict | None:
    """A city's reading with the cells the player chose (corrected or confirmed), if any."""
    return {**reading, "chosen": chosen} if isinstance(reading, dict) and chosen else reading


def _cell(cells: bytes, i: int) -> bytes:
    """Cell ``i`` (row-major) of a reading's 16 cells, kept as one blob of equal parts."""
    size = len(cells) // 16
    return cells[i * size:(i + 1) * size]


def _model_guess(city: dict, row: int, col: int) -> str | None:
    """What the model read in a cell of a city read from a photo (None for a typed city)."""
    reading = _load(city["reading"])
    model = reading.get("model_grid") if isinstance(reading, dict) else None
    if not city["cells"] or not city["warped_file"] or not is_complete(model):
        return None
    return model[row][col]


def is_started(grid) -> bool:
    """A grid being typed in: 4 rows of 4 known buildings or None, some but not all known."""
    return (isinstance(grid, list) and len(grid) == 4
            and all(isinstance(r, list) and len(r) == 4 and all(b is None or b in BUILDINGS
                                                                  for b in r) for r in grid)
            and any(b for r in grid for b in r) and not is_complete(grid))


def is_complete(grid) -> bool:
    """A grid with all 16 cells known (typed-in grids may be partly filled)."""
    return (isinstance(grid, list) and len(grid) == 4
            and all(isinstance(r, list) and len(r) == 4 and all(b in BUILDINGS for b in r)
                    for r in grid))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _load(text: str | None):
    """A stored JSON value; None for nothing, or for a value damaged in the file."""
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None
