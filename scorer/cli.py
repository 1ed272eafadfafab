"""``btc-scorer``: score typed-in cities or photos from a terminal, or serve the web app.

Every user mistake becomes one line on stderr and exit code 2. A city the game's tiles
cannot build is scored, with a warning line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from contextlib import contextmanager

from .errors import ScorerError, TableError

TEXT_SUFFIXES = (".txt", ".city")


class UsageError(ScorerError):
    """A command line argparse cannot read (unknown option, missing file, bad number)."""


class _Parser(argparse.ArgumentParser):
    """Argument mistakes become one line, like every other mistake (no usage block)."""

    def error(self, message: str):
        raise UsageError(f"{message} (see {self.prog} --help)")


def _whole_number(option: str, low: int, high: int):
    """An argparse type for a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        if not (text.strip().isascii() and text.strip().isdigit()
                and low <= int(text) <= high):
            raise UsageError(f"{option} is a whole number from {low} to {high}, not {text!r}")
        return int(text)

    return parse


def _folder(option: str):
    """An argparse type for a folder's path: an empty one is refused (it would mean ./data)."""

    def parse(text: str) -> str:
        if not text.strip():
            raise UsageError(f"{option} names a folder: it cannot be empty")
        return text

    return parse


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", default=None,
                        help='names in clockwise seating order, e.g. "Ann,Ben,Cy"')
    parser.add_argument("--difficulty", type=int, default=None,
                        help="solo game: level 1-7 gives Automaville -6..+6 (default 4)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a scoreboard")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="btc-scorer", description="Score Between Two Cities from photos or typed-in cities."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    grid = commands.add_parser("score-grid", help="score cities typed in plain-text notation")
    grid.add_argument("cities", nargs="+", metavar="CITY.txt",
                      help="a 4x4 city per file; in a solo game Automaville's file (the "
                           "second) may instead give its tiles sorted by type, as counts "
                           "('shop 6' per line)")
    grid.add_argument("--automaville", default=None, metavar="COUNTS",
                      help="solo beginner mode: Automaville's tiles sorted by type, e.g. "
                           '"shop=6,factory=2,tavern-food=1,park=3"; give the other two '
                           "cities as files")
    _add_table_options(grid)
    photo = commands.add_parser("score", help="read city photos (or .txt cities) and score them")
    photo.add_argument("photos", nargs="+", metavar="PHOTO")
    photo.add_argument("--model", default=None,
                       help="folder of the models (default: those installed with the package)")
    photo.add_argument("--data", default=None, type=_folder("--data"),
                       help="the web app's data folder, whose learned tiles are used "
                            "(default: BTC_DATA, else ./data)")
    photo.add_argument("--no-learning", action="store_true",
                       help="read with the shipped model alone, not what the app learned")
    _add_table_options(photo)
    campaign = commands.add_parser(
        "campaign", help="score a solo campaign (3 or 6 games) from a JSON file (see README)")
    campaign.add_argument("file", metavar="FILE.json",
                          help='{"difficulty": 4, "games": [{"cities": [3 cities], '
                               '"type": "shop"}, ...]}')
    campaign.add_argument("--json", action="store_true", help="print JSON instead of text")
    serve = commands.add_parser("serve", help="run the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_whole_number("--port", 1, 65535), default=8000)
    serve.add_argument("--data", default=None, type=_folder("--data"),
                       help="data folder (default: ./data)")
    serve.add_argument("--threads", type=_whole_number("--threads", 1, 64), default=4,
                       help="photos read at once (default 4)")
    serve.add_argument("--host-mode", action="store_true",
                       help="a café serving many tables: no list of tables (or BTC_HOST_MODE=1)")
    serve.add_argument("--lan", action="store_true",
                       help="reach it from the phones on this Wi-Fi: listen on every interface, "
                            "print this machine's LAN address and show its QR code on the pages")
    return parser


def _table_options(args) -> tuple[tuple[str, ...], int]:
    """The players and solo difficulty from --players and --difficulty."""
    players = () if args.players is None else tuple(n.strip() for n in args.players.split(","))
    if not all(players):
        raise TableError(f"--players {args.players!r}: a name is empty; "
                         'give names between commas, e.g. "Ann,Ben,Cy"')
    if args.difficulty is not None and len(players) != 1:
        raise TableError("--difficulty is for the solo game only (--players with one name)")
    return players, 4 if args.difficulty is None else args.difficulty


def _score_grids(args) -> dict:
    from .notation import parse_counts, read_city_or_counts_file
    from .table import AUTOMAVILLE, Table, score_table

    players, difficulty = _table_options(args)
    sources = list(args.cities)
    cities = [read_city_or_counts_file(path) for path in sources]
    if args.automaville is not None:
        if len(players) != 1 or len(cities) != 2:
            raise TableError("--automaville is for the solo game (--players with one name), "
                             "with the other two cities as files")
        cities.insert(AUTOMAVILLE, parse_counts(args.automaville, "--automaville"))
        sources.insert(AUTOMAVILLE, "--automaville")
    result = score_table(Table(tuple(cities), players, difficulty))
    for city, path in zip(result["cities"], sources, strict=True):
        city["source"] = path
    return result


def _score_photos(args) -> dict:
    from .learned import load_learned
    from .reading import read_table

    players, difficulty = _table_options(args)
    learned = None if args.no_learning else load_learned(args.data)
    return read_table(args.photos, players, difficulty, args.model, learned)


def _serve(args) -> int:
    from web import serve

    serve(host=args.host, port=args.port, data_dir=args.data, threads=args.threads,
          host_mode=args.host_mode, lan=args.lan)
    return 0


def _campaign(args) -> int:
    """Score a campaign file; its mistakes raise, as every command's do."""
    from .campaign import format_campaign
    from .campaign_file import read_campaign_file

    settings, campaign = read_campaign_file(args.file)
    if args.json:
        print(json.dumps({**settings, **campaign}, indent=2))
    else:
        print(format_campaign(campaign, settings["name"]), end="")
    return 0


@contextmanager
def _quiet_libraries():
    """No library warnings around our one line: Python warnings are dropped, and what the
    image codecs print straight to the terminal (libjpeg, libpng) goes to /dev/null."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _warn(result: dict) -> None:
    """A line on stderr for each city the game's tiles cannot build (it is scored anyway)."""
    for number, city in enumerate(result["cities"], start=1):
        source = city.get("source") or city.get("photo")
        for warning in city.get("warnings", []):
            where = f"city {number} ({source})" if source else f"city {number}"
            print(f"btc-scorer: warning: {_printable(f'{where}: {warning}')}", file=sys.stderr)
    for warning in result.get("warnings", []):
        print(f"btc-scorer: warning: {_printable(warning)}", file=sys.stderr)


def _printable(line: str) -> str:
    """A message with what a terminal would act on (escape sequences, a file path's control
    bytes) written out as escapes: one line, shown as it is."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in line)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command == "serve":
            return _serve(args)
        if args.command == "campaign":
            return _campaign(args)
        with _quiet_libraries():
            result = _score_grids(args) if args.command == "score-grid" else _score_photos(args)
    except ScorerError as error:
        print(f"btc-scorer: error: {_printable(str(error))}", file=sys.stderr)
        return 2
    _warn(result)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        from .report import format_scoreboard

        print(format_scoreboard(result), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
