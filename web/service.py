"""What the web app does with tables, beyond storage: reading photos, scoring, exports.

Views call these; they hold no Flask state except the store and reader passed in.
"""

from __future__ import annotations

import csv
import io
import math
import secrets
import threading
import time

from scorer.city import BUILDINGS, City, PartialCity, SortedCity
from scorer.errors import GridNotFound, LearningRefused, ScorerError, TableError
from scorer.learned import anchor_count, lessons_from_bytes, lessons_to_bytes, load_learned
from scorer.photo import DecodeBudget, cell_png, open_photo
from scorer.table import (
    AUTOMAVILLE,
    AUTOMAVILLE_NAME,
    DIFFICULTY_MODIFIER,
    Table,
    builders_of,
    is_automaville,
    running_scores,
    same_name,
    score_cities,
    score_table,
    supply_warnings,
    table_warnings,
)

from .store import PhotoChanged, Store, is_complete, is_started

STORED_SIDE = 2000  # photos are kept at most this size (the browser already shrinks them)
TABLE_SIDE = 4000  # ... and whole-table photos this size, where each city is small
NO_CITY_ON_TABLE = ("no complete city found in the photo; photograph the table from above, "
                    "with every city whole in the frame (or each city in its own photo)")
PHOTO_KEYS = ("table_photo", "in_photo", "photo_notes", "photo_unread",  # kept when read again
              "seating_checked", "more_cities")
MIN_CITY_SHARE = 0.005  # tapped corners must enclose at least this share of the photo
CORNER_SLACK = 0.05  # a corner may lie this share of the photo's side outside it (a city at the edge)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # spreadsheets run cells starting so


class LazyReader:
    """One PhotoReader per process, made on first use (tests of typed-in cities never load
    it), reading with what the store's data folder says was learned from the players."""

    def __init__(self, model_dir=None, store: Store | None = None):
        self._reader = None
        self._lock = threading.Lock()
        self.learning_lock = threading.Lock()  # one fit at a time
        self.model_dir = model_dir
        self.store = store
        self.refused: str | None = None  # why the latest update was not used
        self.fit_ms: float | None = None
        self.learned_from: int | None = None  # a hash of the lessons of the latest update
        self._anchors_total: int | None = None

    def get(self):
        with self._lock:
            if self._reader is None:
                from scorer.reading import PhotoReader

                self._reader = PhotoReader(self.model_dir, adaptation=self._saved())
            return self._reader

    def _saved(self):
        return load_learned(self.store.folder) if self.store else None

    def anchors_total(self) -> int:
        """How many built-in cells an update is checked on (without loading the models)."""
        if self._anchors_total is None:
            self._anchors_total = anchor_count(self.model_dir)
        return self._anchors_total

    def adaptation(self):
        """What the reader uses now (without loading the models)."""
        return self._reader.adaptation if self._reader is not None else self._saved()

    def learning(self) -> dict:
        """What the reader learned from the players (see the API's /learning)."""
        adaptation = self.adaptation()
        right, shipped = adaptation.anchors_right if adaptation else (None, None)
        return {"active": adaptation is not None,
                "cells": adaptation.cells if adaptation else 0,
                "learned": adaptation.learned if adaptation else {},
                "doubtful": adaptation.doubtful if adaptation else 0,
                "inks": adaptation is not None and adaptation.inks is not None,
                "pictures": len(adaptation.looks) if adaptation and adaptation.looks is not None
                else 0,
                "anchors": {"adapted": right, "shipped": shipped,
                            "total": self.anchors_total() if adaptation else None},
                "refused": self.refused,
                "fit_ms": None if self.fit_ms is None else round(self.fit_ms, 1)}


def learn(store: Store, lazy: LazyReader) -> dict:
    """Learn again from every stored lesson; the next photo is read with it and the data
    folder keeps it. An update that reads the built-in cells worse is not used."""
    lessons = store.lessons()
    seen = hash(tuple(lessons))
    if (not lessons and lazy.adaptation() is None) or seen == lazy.learned_from:
        return lazy.learning()  # nothing new to learn (most photos and cells change nothing)
    reader = lazy.get()
    with lazy.learning_lock:
        lazy.learned_from = seen
        started = time.perf_counter()
        try:
            adaptation = reader.learn(lessons)
        except LearningRefused as refusal:
            lazy.refused = str(refusal)
            return lazy.learning()
        lazy.refused, lazy.fit_ms = None, (time.perf_counter() - started) * 1000
        store.keep_learned(adaptation.to_bytes() if adaptation else None)
    return lazy.learning()


def export_lessons(store: Store) -> bytes:
    return lessons_to_bytes(store.lessons())


def import_lessons(store: Store, lazy: LazyReader, data: bytes) -> dict:
    """Add an exported file's lessons to what is learned: ``{"added", "known"}``, the cells
    new here and those already learned (the same file imported twice, or exported from this
    app: not counted twice). TableError for a bad file or when what they teach would read the
    built-in cells worse (then nothing is added)."""
    reader = lazy.get()
    lessons = lessons_from_bytes(data, reader.classifier.feature_size)
    with lazy.learning_lock:
        learned = store.lessons()
        seen = {(cell, building) for cell, building, _ in learned}
        new = []
        for cell, building, player in lessons:
            if (cell, building) not in seen:
                seen.add((cell, building))
                new.append((cell, building, player))
        try:
            adaptation = reader.learn(learned + new)
        except LearningRefused as refusal:
            raise TableError(f"these learned tiles were not used: {refusal}") from None
        store.add_lessons(new)
        store.keep_learned(adaptation.to_bytes() if adaptation else None)
        lazy.refused = None
    return {"added": len(new), "known": len(lessons) - len(new)}


def _known(city: dict) -> City | SortedCity:
    """A stored city that is known: its grid, or (solo Automaville) its tile counts."""
    if city.get("counts") is not None:
        return SortedCity.from_counts(city["counts"])
    return City.from_rows(city["grid"])


def scoreboard(table: dict) -> dict:
    """Scores of a stored table: the full result once every city is known, else per city,
    with what each city being typed in scores so far (``so_far``: its tiles as they lie,
    factories ranked against the cities known or being typed); and which whole-table photo's
    seating is still to be checked (``unchecked``, None when none is): the seats decide who
    wins."""
    known = [c for c in table["cities"]
             if c.get("counts") is not None or is_complete(c["grid"])]
    if len(known) == len(table["cities"]):
        players = tuple(table["players"])
        result = score_table(Table(tuple(_known(c) for c in known), players,
                                   table["difficulty"]))
        result["complete"] = True
        result["unchecked"] = unchecked_seating(table)
        return result
    cities = [_known(c) for c in known]
    scored = score_cities(cities) if known else []
    by_index = dict(zip((c["index"] for c in known), scored, strict=True))
    for index, city in by_index.items():
        if is_automaville(table["players"], index):
            city["name"] = AUTOMAVILLE_NAME
    return {"complete": False, "cities": [by_index.get(c["index"]) for c in table["cities"]],
            "so_far": _so_far(table, cities), "warnings": table_warnings(cities),
            "unchecked": unchecked_seating(table)}


def unchecked_seating(table: dict) -> str | None:
    """The whole-table photo (its cities' table_photo) whose seating the players have not
    checked yet, or None."""
    for city in table["cities"]:
        reading = city.get("reading")
        if isinstance(reading, dict) and reading.get("seating_checked") is False:
            return reading.get("table_photo")
    return None


def seating_is_right(store: Store, table: dict, shot) -> None:
    """The players say the seats given by one whole-table photo (``shot``) are right."""
    if not isinstance(shot, str) or not shot:
        raise TableError("table_photo names the whole-table photo whose seating is right")
    store.seating_is_right(table["id"], shot)


def _so_far(table: dict, known: list) -> list[dict | None]:
    """The running score of each city being typed in (None for the others), with the
    buildings typed beyond the game's supply (``warnings``: a slip seen as it is typed)."""
    typing = {c["index"]: PartialCity.from_rows(c["grid"]) for c in table["cities"]
              if c.get("counts") is None and is_started(c["grid"])}
    running = running_scores(known, list(typing.values()))
    for entry, city in zip(running, typing.values(), strict=True):
        entry["warnings"] = supply_warnings(city)
    by_index = dict(zip(typing, running, strict=True))
    return [by_index.get(c["index"]) for c in table["cities"]]


def add_photo(store: Store, reader, budget: DecodeBudget, table: dict, index: int,
              data: bytes) -> None:
    """Read and keep a city's photo: photo, warped city, reading and grid together.

    An undecodable photo changes nothing (ImageError). A photo without a readable city is
    kept for tapped corners and the city marked unread, its grid unchanged (GridNotFound).
    A photo that shows more cities than the one read says so (``more_cities``): the next
    photo of the whole table takes this city's seat as one still to read.
    """
    try:
        reading = reader.read_photo(data, max_side=STORED_SIDE, budget=budget)
    except GridNotFound as refusal:
        store.keep_unread_photo(table["id"], index, refusal.photo.jpeg())
        raise
    details = _details(reading)
    if reader.shows_more_cities(reading):  # a photo of the whole table, say: the page
        details["more_cities"] = True  # offers to read it as one
    store.keep_reading(table["id"], index, reading.photo.jpeg(), reading.warped_jpeg(),
                       reading.grid, details, cells=reading.cells_bytes())


def add_table_photo(store: Store, reader, budget: DecodeBudget, table: dict,
                    data: bytes) -> dict:
    """Read a photo of the whole table (or of some of its cities) and seat what it shows.

    The cities found go, in the order proposed for them (clockwise around the table), to
    every seat when they are as many as the seats, else to the seats with no city yet.
    Nothing changes when the photo shows no city (GridNotFound) or more cities than there
    are seats to take them (TableError). Returns the seats given and the notes about cities
    not read (cut by the frame's edge, hidden).
    """
    try:
        found = reader.read_all(data, max_side=TABLE_SIDE, budget=budget)
    except GridNotFound as refusal:  # in words for a whole table, with the cut cities seen
        cut = [part for part in str(refusal).split("; ") if "not complete" in part]
        raise GridNotFound("; ".join([NO_CITY_ON_TABLE, *cut]), refusal.photo) from None
    shot = {"table_photo": secrets.token_hex(4),  # which cities came from this photo
            "seating_checked": False,  # until the players say the seats it gave are right
            "photo_notes": found.notes(), "photo_unread": [u.to_json() for u in found.unread]}
    readings = [(reading.warped_jpeg(), reading.grid,
                 {**_details(reading), **shot, "in_photo": number}, reading.cells_bytes())
                for number, reading in enumerate(found.cities, start=1)]
    # the seats are taken from the table as it is when the cities are kept: another phone
    # may have seated cities while this photo was read
    seats = store.keep_table_photo(table["id"], found.photo.jpeg(), readings,
                                   lambda cities: _free_seats(cities, len(found.cities)))
    return {"seats": seats, "notes": found.notes(),
            "unread": [u.to_json() for u in found.unread]}


def _free_seats(cities: list[dict], count: int) -> list[int]:
    """The seats ``count`` cities from one photo take (see ``add_table_photo``), given the
    table's cities (``{"index", "grid", "counts", "reading"}`` each): those not known yet,
    and those read from a photo that showed more cities (a photo of the whole table sent for
    one city: this one reads them all)."""
    free = [c["index"] for c in cities if (c.get("counts") is None and not is_complete(c["grid"]))
            or (c.get("reading") or {}).get("more_cities")]
    found = f"the photo shows {count} complete {'city' if count == 1 else 'cities'}"
    if count == len(cities):
        return list(range(count))
    if count > len(cities):
        raise TableError(f"{found}, but this table has {len(cities)}: photograph only this "
                         "table's cities, or start a table for more players")
    if not free:
        raise TableError(f"{found}, but every city of this table is read already: to read "
                         "one again, send its photo on that city's card, or photograph all "
                         "of them at once")
    if count > len(free):
        raise TableError(f"{found}, but only {len(free)} of this table's cities "
                         f"{'is' if len(free) == 1 else 'are'} still to read: photograph "
                         "the cities still to read, or all of them at once")
    return free[:count]


def reorder(store: Store, table: dict, order, seen=None) -> None:
    """Seat the cities in another order (``order[i]`` is the seat whose city goes to seat i),
    unless the table changed since ``seen`` (its ``updated`` where the order was chosen)."""
    count = len(table["cities"])
    if not (isinstance(order, list) and all(isinstance(i, int) and not isinstance(i, bool)
                                            for i in order) and sorted(order) == list(range(count))):
        raise TableError(f"order lists each seat number 0 to {count - 1} once")
    if seen is not None and not _is_number(seen):
        raise TableError("seen is the table's updated time, a number")
    store.reorder(table["id"], order, seen)


def read_with_corners(store: Store, reader, budget: DecodeBudget, table: dict, index: int,
                      corners) -> None:
    """Read the stored photo again inside the four corners the player tapped; the city as
    it was read before can be put back (a photo not read keeps the undo it had: the city
    before that photo)."""
    name, photo = _stored_photo(store, reader, budget, table, index)
    reading = reader.read(photo, check_corners(corners, *photo.size))
    before = table["cities"][index]["reading"]
    unread = isinstance(before, dict) and before.get("unread")
    if unread:  # a new photo, where no city was found: not the whole-table photo the city
        before = None  # may have come from
    store.keep_reading(table["id"], index, None, reading.warped_jpeg(), reading.grid,
                       _details(reading, before), photo_read=name, cells=reading.cells_bytes(),
                       set_aside=not unread)


def read_again(store: Store, reader, budget: DecodeBudget, table: dict, index: int) -> None:
    """Read a city's stored photo again inside the corners of its reading, with what the
    reader learned since; the cells the player chose keep the player's choice."""
    reading = table["cities"][index]["reading"]
    if not reading or reading.get("unread") or "corners" not in reading:
        raise TableError("only a city read from a photo can be read again")
    name, photo = _stored_photo(store, reader, budget, table, index)
    again = reader.read(photo, check_corners(reading["corners"], *photo.size))
    store.keep_reading(table["id"], index, None, again.warped_jpeg(), again.grid,
                       _details(again, reading), photo_read=name, cells=again.cells_bytes(),
                       keep_choices=True)


def _stored_photo(store: Store, reader, budget: DecodeBudget, table: dict, index: int):
    """(file name, decoded Photo) of a city's stored photo."""
    found = store.image(table["id"], index, "photo")
    if found is None:
        raise TableError("upload a photo of this city first")
    name, path = found
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PhotoChanged("the city's photo was replaced meanwhile; try again") from None
    return name, open_photo(data, reader.config, max_side=TABLE_SIDE, budget=budget)


def _details(reading, before: dict | None = None) -> dict:
    """A reading's JSON as kept with the city, with the model's own grid beside it, and
    (read again from the same photo) which whole-table photo it came from."""
    kept = {k: before[k] for k in PHOTO_KEYS if isinstance(before, dict) and k in before}
    return {**reading.to_json(), "model_grid": reading.grid, **kept}


def check_corners(corners, width: int | None = None, height: int | None = None) -> list:
    """Four tapped points on the photo, as [[x, y] x4] floats: finite, and (given the
    photo's size) inside it or just outside (a city at the photo's edge: its corner may lie
    beyond the frame), enclosing a fair share of it; TableError otherwise."""
    message = "corners are four [x, y] points on the photo"
    if not (isinstance(corners, list) and len(corners) == 4 and all(
            isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p)
            for p in corners)):
        raise TableError(message)
    points = [(float(x), float(y)) for x, y in corners]
    if width is None or height is None:
        return points
    dx, dy = CORNER_SLACK * width + 1, CORNER_SLACK * height + 1
    if not all(-dx <= x <= width + dx and -dy <= y <= height + dy for x, y in points):
        raise TableError(f"{message}: each inside its {width}x{height} pixels")
    cx, cy = sum(x for x, _ in points) / 4, sum(y for _, y in points) / 4
    around = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                   in zip(around, around[1:] + around[:1], strict=True))) / 2
    if area < MIN_CITY_SHARE * width * height:
        raise TableError("tap the city's four corners: they enclose too small an area")
    return points


def _is_number(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def correct_cell(store: Store, reader: LazyReader, table: dict, index: int, row: int, col: int,
                 building: str) -> None:
    """Change one cell and keep the correction, with the cell's image, for retraining."""
    found = store.image(table["id"], index, "warped")
    try:
        png = cell_png(found[1].read_bytes(), row, col, reader.get().config) if found else None
    except FileNotFoundError:  # replaced by a new reading meanwhile
        png = None
    store.set_cell(table["id"], index, row, col, building, png)


def check_counts(table: dict, index: int, counts) -> dict[str, int]:
    """Automaville's tile counts from JSON (solo table, city 2 only); TableError otherwise."""
    if not is_automaville(table["players"], index):
        raise TableError(f"only Automaville (city {AUTOMAVILLE + 1} of a solo table) is typed "
                         "as tile counts")
    return SortedCity.from_counts(counts).building_counts()


def check_grid(grid) -> list[list[str]]:
    """A typed-in grid from JSON: 4 rows of 4 known tokens (or null for not yet chosen)."""
    if not (isinstance(grid, list) and len(grid) == 4
            and all(isinstance(r, list) and len(r) == 4 for r in grid)):
        raise TableError("a city is a list of 4 rows of 4 buildings")
    for row in grid:
        for b in row:
            if b is not None and (not isinstance(b, str) or b not in BUILDINGS):
                raise TableError(f"unknown building {str(b)[:40]!r}; use one of "
                                 f"{', '.join(BUILDINGS)}")
    return grid


def _cell(value):
    """A CSV cell no spreadsheet will run as a formula (text starting =, +, -, @ is quoted)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _shown(city: dict) -> str:
    """A scored city in one CSV cell: its grid row by row, or its tile counts."""
    if city.get("mode") == "counts":
        return "counts: " + ", ".join(f"{b} {n}" for b, n in city["counts"].items() if n)
    return " / ".join(" ".join(r) for r in city["grid"])


def _when(seconds) -> str:
    """A stored time (seconds since the epoch) as this machine's local date and time."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(seconds)))
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def name_builders(table: dict) -> None:
    """Each city of a table's JSON says who builds it (``builders``) and whether it is the solo
    game's Automaville (``automaville``), as the rules seat them: the page names cities so."""
    players = tuple(table["players"])
    for i, city in enumerate(table["cities"]):
        city["builders"] = builders_of(players, i)
        city["automaville"] = is_automaville(players, i)


def export_csv(table: dict, result: dict) -> str:
    """The table's name and date; one row per city: who built it, the six categories and the
    total; then the players with their two cities and scores (said to be unsure while a
    whole-table photo's seating is still to be checked), and how ties were broken. It starts
    with a UTF-8 byte-order mark, so that spreadsheets read accented names right."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(map(_cell, ["table", table.get("name", "")]))
    writer.writerow(map(_cell, ["date", _when(table.get("created"))]))
    writer.writerow(map(_cell, ["players", " · ".join(table.get("players", []))]))
    solo = len(table.get("players", [])) == 1
    if solo:  # what Automaville's total holds besides its buildings
        level = table.get("difficulty", 4)
        writer.writerow(["difficulty", f"{level} (Automaville {DIFFICULTY_MODIFIER[level]:+d})"])
    writer.writerow([])
    writer.writerow(["city", "builders", "shops", "factories", "taverns", "offices", "parks",
                     "houses", "total", "grid"])
    categories = ("shops", "factories", "taverns", "offices", "parks", "houses", "total")
    for i, city in enumerate(result["cities"]):  # a city not read yet: who builds it, no scores
        s = dict(city["scores"]) if city else {}
        if city and city.get("difficulty"):  # Automaville's total with the solo difficulty
            s["total"] = city["difficulty"]["total"]
        built = " & ".join(builders_of(tuple(table["players"]), i))
        if is_automaville(tuple(table["players"]), i):
            built = f"{AUTOMAVILLE_NAME} ({built})"
        writer.writerow(map(_cell, [i + 1, built,
                                    *(s.get(k, "") for k in categories),
                                    _shown(city) if city else ""]))
    if result.get("players"):
        writer.writerow([])
        if result.get("unchecked"):
            writer.writerow(["seating", "not checked yet: the seats, and so the ranks, may change"])
        writer.writerow(["rank", "player", "final", "first city", "first city score",
                         "second city", "second city score", "winner"])
        winners = set(result.get("winner", []))
        for p in result["players"]:
            cities = [value for pair in zip(p["cities"], p["city_totals"], strict=True)
                      for value in pair]
            writer.writerow(map(_cell, [p["rank"], p["name"], p["final"], *cities,
                                        "yes" if p["name"] in winners else ""]))
        for reason in result.get("tiebreaks", []):
            writer.writerow(map(_cell, ["tiebreak", reason]))
    return out.getvalue()


# --- the history of tables, and the players' statistics ------------------------------------

def table_summary(table: dict) -> dict:
    """How a stored table stands: once complete (and a whole-table photo's seating checked),
    the winner and everyone's final score best first; before, how many of its cities are known."""
    try:
        result = scoreboard(table)
    except ScorerError:  # stored data the scorer refuses: shown as not finished
        result = {"complete": False, "cities": []}
    if not result["complete"]:
        return {"complete": False, "known": sum(1 for c in result["cities"] if c),
                "cities": len(table["cities"])}
    if result["unchecked"]:  # no winner before the seats are right
        return {"complete": False, "known": len(table["cities"]), "cities": len(table["cities"]),
                "seating_unchecked": True}
    return {"complete": True, "cities": len(table["cities"]), "winner": result["winner"],
            "scores": [{"name": p["name"], "final": p["final"], "rank": p["rank"]}
                       for p in result["players"]]}


def history(store: Store) -> list[dict]:
    """Every table, most recently changed first, with its summary."""
    tables = []
    for listed in store.list_tables():
        table = store.get_table(listed["id"])
        if table is None:  # deleted meanwhile
            continue
        cities = table.pop("cities")
        tables.append({**table, "summary": table_summary({**table, "cities": cities})})
    return tables


def player_stats(store: Store) -> list[dict]:
    """Per player (names compared without letter case and extra spaces), over complete tables:
    games, wins (shared wins count), average and best final score (None without one), best
    city score; most games first, then most wins. A name is shown as spelled at its latest
    table. A two-player final, the sum of two cities, is not averaged with the others (a
    player's lower city, solo too): it counts as a game and a win, and its cities as cities."""
    stats: dict[str, dict] = {}
    for listed in store.list_tables():  # most recently changed first
        table = store.get_table(listed["id"])
        if table is None:
            continue
        try:
            result = scoreboard(table)
        except ScorerError:
            continue
        if not result["complete"] or result["unchecked"]:  # no winner yet
            continue
        entries = {same_name(p["name"]): p for p in result["players"]}
        winners = {same_name(w) for w in result["winner"]}
        for name in table["players"]:
            key = same_name(name)
            entry = entries.get(key)
            if not key or entry is None:
                continue
            player = stats.setdefault(key, {"name": name, "games": 0, "wins": 0, "finals": [],
                                            "best_city": None})
            player["games"] += 1
            player["wins"] += key in winners
            if len(table["players"]) != 2:
                player["finals"].append(entry["final"])
            best_city = max(entry["city_totals"])
            if player["best_city"] is None or best_city > player["best_city"]:
                player["best_city"] = best_city
    players = [{"name": p["name"], "games": p["games"], "wins": p["wins"],
                "average": round(sum(p["finals"]) / len(p["finals"]), 1) if p["finals"] else None,
                "best": max(p["finals"], default=None), "best_city": p["best_city"]}
               for p in stats.values()]
    players.sort(key=lambda p: (-p["games"], -p["wins"], -(p["average"] or 0),
                                same_name(p["name"])))
    return players
