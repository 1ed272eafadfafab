"""Plain-text city notation that people can type and read.

One line per row, four buildings per line separated by spaces, ``#`` starts a comment::

    # Ann & Ben's city
    S  S  S  S
    F  H  Td P
    O  O  Tm P
    H  Tf Tb F

Short tokens ``S F Td Tf Tm Tb O P H`` or the full names (``shop``, ``tavern-drink``, ...),
in any letter case.
"""

from __future__ import annotations

import codecs

from .city import BUILDINGS, SIZE, City
from .errors import NotationError

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


def _utf16(data: bytes) -> bool:
    """UTF-16 text (Windows' "Unicode"): a byte-order mark, or Latin text's zero high bytes."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    return len(data) % 2 == 0 and any(data) and (not any(data[1::2]) or not any(data[::2]))


def read_city_file(path: str) -> City:
    """Read a city from a notation file, with a plain error for files that are not text."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(1_000_001)
    except OSError as error:
        raise NotationError(f"{path}: cannot read file ({error.strerror})") from None
    if len(data) > 1_000_000:
        raise NotationError(f"{path}: too large for a city file")
    if _utf16(data):
        raise NotationError(f"{path}: not UTF-8 text (it is UTF-16): save it as UTF-8")
    if b"\x00" in data:
        raise NotationError(f"{path}: not a text file")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark, as some editors save, is fine
    except UnicodeDecodeError:
        raise NotationError(f"{path}: not UTF-8 text: save it as UTF-8") from None
    return parse_city(text, source=path)


def format_city(city: City) -> str:
    """The city in short notation, columns aligned."""
    return "\n".join(" ".join(f"{SHORT[b]:<2}" for b in row).rstrip() for row in city.grid)
