"""The typed-in city notation: parsing, errors that name line and column, round trip."""

import pytest

from scorer.errors import NotationError
from scorer.notation import format_city, parse_city, read_city_file

GOOD = """# a comment line
S  S  S  S   # trailing comment
F  H  Td P

O  O  Tm P
H  Tf Tb F
"""


def test_parse_short_tokens_comments_and_blank_lines():
    city = parse_city(GOOD)
    assert city.grid[0] == ("shop",) * 4
    assert city.grid[1] == ("factory", "house", "tavern-drink", "park")
    assert city.grid[3][1:3] == ("tavern-food", "tavern-bed")


def test_full_names_and_any_case():
    text = "shop FACTORY Tavern-Music park\n" + "house office tavern-bed tavern-food\n" * 3
    assert parse_city(text)[(0, 2)] == "tavern-music"


def test_format_round_trips():
    city = parse_city(GOOD)
    assert parse_city(format_city(city)) == city


@pytest.mark.parametrize(
    "text, message",
    [
        ("S S S\n" + "S S S S\n" * 3, "line 1: 3 buildings in this row, expected 4"),
        ("S S S S\nS X S S\n" + "S S S S\n" * 2, "line 2, column 2: unknown building 'X'"),
        ("S S S S\n" * 3 + "T S S S\n", "allowed: S F Td Tf Tm Tb O P H"),
        ("S S S S\n" * 4 + "S\n", "line 5: a city has only 4 rows"),
        ("", "0 rows found"),
        ("# only a comment\n", "0 rows found"),
        ("S S S S\n" * 3, "3 rows found"),
    ],
    ids=["short-row", "unknown-token", "bare-tavern", "fifth-row", "empty", "comments", "3-rows"],
)
def test_errors_name_line_and_column(text, message):
    with pytest.raises(NotationError, match=message.replace("(", r"\(")):
        parse_city(text)


def test_binary_and_missing_files(tmp_path):
    binary = tmp_path / "photo.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(NotationError, match="not a text file"):
        read_city_file(str(binary))
    with pytest.raises(NotationError, match="cannot read file"):
        read_city_file(str(tmp_path / "missing.txt"))


def test_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert read_city_file(str(path)) == parse_city(GOOD)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "utf-16-le", "cp1252"])
def test_other_encodings_are_not_utf8_text(tmp_path, encoding):
    path = tmp_path / "city.txt"
    path.write_bytes(("# caf\u00e9 \u00e0 Ann\n" + GOOD).encode(encoding))
    with pytest.raises(NotationError, match="not UTF-8 text"):
        read_city_file(str(path))
