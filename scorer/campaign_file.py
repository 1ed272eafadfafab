"""Reading a campaign from a JSON file (``btc-scorer campaign FILE.json``; see README).

```json
{"name": "Winter", "player": "Me", "length": 3, "difficulty": 4, "mode": "full",
 "games": [{"cities": ["me-automartin.txt", "automaville.txt", "automanon-me.txt"],
            "type": "shop"}, ...]}
```

A game's three cities are in solo seating order (you & Automartin, Automaville, Automanon &
you). Each is a path to a city file (relative to the JSON file), notation text with newlines,
a list of row strings, or (Automaville, beginner mode) an object of building: count.
"""

from __future__ import annotations

import json
from pathlib import Path

from .campaign import LENGTHS, CampaignError, check_settings, check_type, score_campaign, solo_mode
from .city import SortedCity
from .errors import ScorerError
from .files import UnreadableFile, read_file
from .notation import parse_city_or_counts, read_city_or_counts_file
from .table import Table, is_text, score_table

CAMPAIGN_FILE_BYTES = 1_000_000  # six games of cities written out are a few kilobytes
KEYS = {"name", "player", "length", "difficulty", "mode", "games"}
GAME_KEYS = {"cities", "type", "difficulty"}


def _int(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CampaignError(f"{what} must be a whole number")
    return value


def _city(value, where: str, folder: Path):
    if isinstance(value, dict):
        return SortedCity.from_counts(value)
    if isinstance(value, list) and all(isinstance(r, str) for r in value):
        return parse_city_or_counts("\n".join(value), where)
    if isinstance(value, str):
        if "\n" in value:
            return parse_city_or_counts(value, where)
        return read_city_or_counts_file(str(folder / value))
    raise CampaignError(f"{where}: a city is a file path, notation text, a list of rows or "
                        "(Automaville) an object of counts")


def read_campaign(data, folder: Path) -> tuple[dict, dict]:
    """(settings, scored campaign) from the file's JSON; CampaignError (or the notation's
    and table's errors, naming the game and city) for anything a campaign cannot have."""
    if not isinstance(data, dict):
        raise CampaignError("a campaign file is a JSON object with \"games\"")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise CampaignError(f"unknown key {unknown[0]!r}; use {', '.join(sorted(KEYS))}")
    player = data.get("player", "Me")
    if not isinstance(player, str):
        raise CampaignError("player must be a name")
    name = data.get("name", "")
    name = name if isinstance(name, str) else str(name)
    if not is_text(name):  # (the player's name is the table's to check, as every table's)
        raise CampaignError("the campaign's name contains characters that are not text")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise CampaignError("\"games\" must list the games played, each with \"cities\" and "
                            "\"type\"")
    length = _int(data.get("length", 3), "length")
    if length not in LENGTHS:
        check_settings(length, 4, "full")
    difficulty = _int(data.get("difficulty", 4), "difficulty")
    scored = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict):
            raise CampaignError(f"game {number}: an object with \"cities\" and \"type\"")
        extra = sorted(set(game) - GAME_KEYS)
        if extra:
            raise CampaignError(f"game {number}: unknown key {extra[0]!r}; use "
                                f"{', '.join(sorted(GAME_KEYS))}")
        cities = game.get("cities")
        if not isinstance(cities, list) or len(cities) != 3:
            raise CampaignError(f"game {number}: \"cities\" lists the solo game's 3 cities (you "
                                "& Automartin, Automaville, Automanon & you)")
        building_type = check_type(game.get("type"))
        level = _int(game.get("difficulty", difficulty), f"game {number}: difficulty")
        try:
            built = tuple(_city(c, f"game {number} city {i}", folder)
                          for i, c in enumerate(cities, start=1))
            result = score_table(Table(built, (player,), level))
        except CampaignError:
            raise
        except ScorerError as error:
            message = str(error)
            raise type(error)(message if message.startswith("game ")
                              else f"game {number}: {message}") from None
        scored.append((result, building_type))
    mode = data.get("mode", solo_mode(scored[0][0]))
    campaign = score_campaign(scored, length, difficulty, mode)
    return {"name": name}, campaign


def read_campaign_file(path: str) -> tuple[dict, dict]:
    """(settings, scored campaign) from a campaign file; CampaignError for a file that is not
    one (too large, not UTF-8, not JSON, nested deeper than any campaign)."""
    try:
        data = read_file(path, CAMPAIGN_FILE_BYTES)
    except UnreadableFile as error:
        raise CampaignError(str(error)) from None
    if len(data) > CAMPAIGN_FILE_BYTES:
        raise CampaignError(f"{path}: too large for a campaign file")
    try:
        data = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CampaignError(f"{path}: not UTF-8 text") from None
    except ValueError as error:
        raise CampaignError(f"{path}: not JSON ({error})") from None
    except RecursionError:
        raise CampaignError(f"{path}: nested too deeply for a campaign file") from None
    return read_campaign(data, Path(path).parent)
