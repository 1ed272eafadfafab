"""Plain-text city notation that people can type and read.

One line per row, four buildings per line separated by spaces, ``#`` starts a comment::

    # Ann & Ben's city
    S  S  S  S
    F  H  Td P
    O  O  Tm P
    H  Tf Tb F

Short tokens ``S F Td Tf Tm Tb O P H`` or the full names (``shop``, ``tavern-drink``, ...),
in any letter case.

Automaville's tiles sorted by type (the solo game's beginner mode) are written as counts,
a building and a number per line (or between commas); buildings left out count 0::

    # Automaville
    shop 6
    tavern-drink 1
    Tf 2
    park 3

``shop=6`` and ``shop: 6`` read the same, so ``shop=6,factory=2,park=3`` is one line.
"""

from __future__ import annotations

import codecs
import re

from .city import BUILDINGS, SIZE, City, SortedCity
from .errors import NotationError, TableError
from .files import UnreadableFile, read_file

SHORT = {
    "shop": "S", "factory": "F", "tavern-drink": "Td", "tavern-food": "Tf",
    "tavern-music": "Tm", "tavern-bed": "Tb", "office": "O", "park": "P", "house": "H",
}
_TOKENS = {**{b.lower(): b for b in BUILDINGS}, **{s.lower(): b for b, s in SHORT.items()}}
ALLOWED = " ".join(SHORT.values()) + " (or " + ", ".join(BUILDINGS) + ")"


def parse_city(text: str, source: str = "city") -> City:
    """Read a city from notation text; errors name the line and column."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0]
        if not content.strip():
            continue
        if len(rows) == SIZE:
            raise NotationError(f"{source}: line {number}: a city has only {SIZE} rows")
        tokens = content.split()
        row = []
        for column, token in enumerate(tokens, start=1):
            building = _TOKENS.get(token.lower())
            if building is None:
                raise NotationError(
                    f"{source}: line {number}, column {column}: unknown building {token!r}; "
                    f"allowed: {ALLOWED}"
                )
            row.append(building)
        if len(row) != SIZE:
            raise NotationError(
                f"{source}: line {number}: {len(row)} buildings in this row, expected {SIZE}"
            )
        rows.append(row)
    if len(rows) != SIZE:
        raise NotationError(f"{source}: {len(rows)} rows found, a city has {SIZE} rows of {SIZE}")
    return City.from_rows(rows)


CITY_FILE_BYTES = 1_000_000  # a city file is a few lines; more is not one
_COUNT = re.compile(r"^\s*([A-Za-z-]+)\s*[:=]?\s*(\S+)\s*$")


def parse_counts(text: str, source: str = "Automaville") -> SortedCity:
    """Read Automaville's tile counts (``shop 6`` per line or ``shop=6,park=3``); errors name
    the line; TableError for counts the game cannot have (see SortedCity)."""
    counts: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for entry in line.split("#", 1)[0].split(","):
            if not entry.strip():
                continue
            where = f"{source}: line {number}" if "\n" in text.strip() else source
            match = _COUNT.match(entry)
            if not match:
                raise NotationError(f"{where}: {entry.strip()[:40]!r} is not a building and "
                                    "a number, e.g. 'shop 6' or 'shop=6'")
            token, value = match.groups()
            building = _TOKENS.get(token.lower())
            if building is None:
                raise NotationError(f"{where}: unknown building {token!r}; allowed: {ALLOWED}")
            if not value.isdigit():
                raise NotationError(f"{where}: {building} count {value[:20]!r} is not a whole "
                                    "number from 0")
            if building in counts:
                raise NotationError(f"{where}: {building} is counted twice")
            counts[building] = int(value)
    if not counts:
        raise NotationError(f"{source}: no counts found, e.g. 'shop 6' per line")
    try:
        return SortedCity.from_counts(counts)
    except TableError as error:
        raise TableError(f"{source}: {error}") from None


def parse_city_or_counts(text: str, source: str = "city") -> City | SortedCity:
    """A 4x4 city, or (when the text has numbers) Automaville's tile counts."""
    content = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    if re.search(r"\d", content):
        return parse_counts(text, source)
    return parse_city(text, source)


def _utf16(data: bytes) -> bool:
    """UTF-16 text (Windows' "Unicode"): a byte-order mark, or Latin text's zero high bytes."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    return len(data) % 2 == 0 and any(data) and (not any(data[1::2]) or not any(data[::2]))


def read_city_file(path: str) -> City:
    """Read a city from a notation file, with a plain error for files that are not text."""
    return parse_city(_read_text(path), source=path)


def read_city_or_counts_file(path: str) -> City | SortedCity:
    """A city file, or Automaville's tile counts (see :func:`parse_city_or_counts`)."""
    return parse_city_or_counts(_read_text(path), source=path)


def _read_text(path: str) -> str:
    """A text file's content, with a plain error for files that are not UTF-8 text."""
    try:
        data = read_file(path, CITY_FILE_BYTES)
    except UnreadableFile as error:
        raise NotationError(str(error)) from None
    if len(data) > CITY_FILE_BYTES:
        raise NotationError(f"{path}: too large for a city file")
    if _utf16(data):
        raise NotationError(f"{path}: not UTF-8 text (it is UTF-16): save it as UTF-8")
    if b"\x00" in data:
        raise NotationError(f"{path}: not a text file")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors save, is fine
    except UnicodeDecodeError:
        raise NotationError(f"{path}: not UTF-8 text: save it as UTF-8") from None


def format_city(city: City) -> str:
    """The city in short notation, columns aligned."""
    return "\n".join(" ".join(f"{SHORT[b]:<2}" for b in row).rstrip() for row in city.grid)
