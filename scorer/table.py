"""A whole table: cities in seating order, who built which, final scores, ties, the winner.

Seating (clockwise), for N players named P1..PN:
- 3-7 players: N cities; city k lies between player k and player k+1 (the last city between
  the last player and the first). A player's final score is their lower city.
- 2 players: four cities; P1 built cities 1 and 2, P2 cities 3 and 4; final = their sum.
- 1 player (solo, French rulebook): three cities, as a 3-player table of You, Automartin and
  Automanon: city 1 = You & Automartin, city 2 = Automaville, city 3 = Automanon & You.
  The difficulty level 1-7 adds -6..+6 points to Automaville.
  Automaville is a laid-out 4x4 city (full mode) or, in the beginner mode, its tiles sorted
  by type (a SortedCity, scored "maximally"); the difficulty applies in both.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .city import GAME_SUPPLY, TILES, TYPES, City, PartialCity, SortedCity, beyond_supply
from .duplex import holds_two_duplexes
from .errors import TableError
from .rules import factory_ranks, score_city, score_sorted_city

DIFFICULTY_MODIFIER = {1: -6, 2: -4, 3: -2, 4: 0, 5: 2, 6: 4, 7: 6}
MAX_PLAYERS = 7  # the game seats 1 (solo) to 7
AUTOMAS = ("Automartin", "Automanon")
AUTOMAVILLE = 1  # index of Automaville among the solo game's three cities
AUTOMAVILLE_NAME = "Automaville"


def cities_for(players: int) -> int:
    """How many cities a table of this many players builds."""
    return {1: 3, 2: 4}.get(players, players)


INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))  # zero-width
# characters and the soft hyphen: a name that shows the same is the same name


def same_name(name: str) -> str:
    """A name as the table tells players apart: letter case, extra spaces, invisible
    characters and look-alike forms (a full-width "Ａ", the ligature "ﬀ") do not count."""
    shown = unicodedata.normalize("NFKC", name).translate(INVISIBLE)
    return " ".join(shown.split()).casefold()


def is_text(name: str) -> bool:
    """A name that can be shown and saved: no lone surrogate, no control character (a tab
    aside, which reads as a space; the 8-bit controls too, such as U+009B, a terminal's
    escape), no line or paragraph separator."""
    return not any(0xD800 <= ord(c) <= 0xDFFF or (
        unicodedata.category(c) in ("Cc", "Zl", "Zp") and c != "\t") for c in name)


def check_seating(players: tuple[str, ...], difficulty: int = 4) -> None:
    """Refuse seatings the game does not have (TableError with a message for the player)."""
    if len(players) > MAX_PLAYERS:
        raise TableError(f"the game seats at most {MAX_PLAYERS} players")
    if not all(is_text(p) for p in players):
        raise TableError("a player's name contains characters that are not text")
    names = [same_name(p) for p in players]
    if not all(names):
        raise TableError("a player's name is empty")
    if len(set(names)) != len(names):
        raise TableError("player names must be different (letter case and extra spaces do "
                         "not count)")
    if len(players) == 1 and names[0] in {same_name(a) for a in AUTOMAS}:
        raise TableError(f"{players[0].strip()} is a solo opponent's name (you play against "
                         f"{' and '.join(AUTOMAS)}): choose another name")
    if difficulty not in DIFFICULTY_MODIFIER:
        raise TableError("the solo difficulty level is 1 to 7")


@dataclass(frozen=True)
class Table:
    """Cities in clockwise seating order, the players' names, and the solo difficulty."""

    cities: tuple[City | SortedCity, ...]
    players: tuple[str, ...] = ()
    difficulty: int = 4

    def __post_init__(self) -> None:
        n, p = len(self.cities), len(self.players)
        if n == 0:
            raise TableError("a table needs at least one city")
        check_seating(self.players, self.difficulty)
        if p and n != cities_for(p):
            players = "1 player builds" if p == 1 else f"{p} players build"
            given = "1 city was" if n == 1 else f"{n} cities were"
            raise TableError(f"{players} {cities_for(p)} cities, but {given} given")
        for i, city in enumerate(self.cities):
            if isinstance(city, SortedCity) and not self.is_automaville(i):
                raise TableError(f"city {i + 1} is given as tile counts: only Automaville "
                                 f"(city {AUTOMAVILLE + 1} of a solo game) is scored from counts")

    def is_automaville(self, index: int) -> bool:
        """Whether city ``index`` is the solo game's Automaville."""
        return is_automaville(self.players, index)
    @property
    def seats(self) -> tuple[str, ...]:
        """Everyone who scores: the players, plus the two Automas in the solo game."""
        return seats_of(self.players)

    def builders(self, index: int) -> list[str]:
        """The seats that built city ``index`` (see ``builders_of``)."""
        return builders_of(self.players, index)

    def modifier(self, index: int) -> int:
        """Points added to a city's total: only Automaville in the solo game."""
        return DIFFICULTY_MODIFIER[self.difficulty] if self.is_automaville(index) else 0


def is_automaville(players: tuple[str, ...], index: int) -> bool:
    """Whether city ``index`` at a table of ``players`` is the solo game's Automaville."""
    return len(players) == 1 and index == AUTOMAVILLE


def seats_of(players: tuple[str, ...]) -> tuple[str, ...]:
    """Everyone who scores at a table of ``players``: the players, plus the two Automas in
    the solo game."""
    return (*players, *AUTOMAS) if len(players) == 1 else tuple(players)


def builders_of(players: tuple[str, ...], index: int) -> list[str]:
    """The seats that build city ``index`` at a table of ``players``, in seating order: the
    two either side of it, or its one builder in the two-player game (two cities each)."""
    seats = seats_of(players)
    if len(players) == 2:
        return [seats[index // 2]]
    return [seats[index], seats[(index + 1) % len(seats)]]


def score_cities(cities: list[City | SortedCity]) -> list[dict]:
    """Score every city; factory ranks are taken across all of them (a SortedCity's factory
    count ranks like any other). A SortedCity gives ``counts`` and ``"mode": "counts"``
    instead of ``grid``."""
    ranks = factory_ranks([c.type_counts()["factory"] for c in cities])
    scored = []
    for city, rank in zip(cities, ranks, strict=True):
        if isinstance(city, SortedCity):
            scores, explanation = score_sorted_city(city, rank)
            shown = {"mode": "counts", "counts": city.building_counts()}
        else:
            scores, explanation = score_city(city, rank)
            shown = {"grid": city.rows()}
        scored.append({**shown, "scores": scores, "explanation": explanation,
                       "factory_rank": rank, "warnings": supply_warnings(city)})
    return scored


def running_scores(known: list[City | SortedCity], typing: list[PartialCity]) -> list[dict]:
    """What each city being typed in scores so far: its tiles as they lie (the empty cells
    score nothing), its factories ranked against every city known or being typed.

    Returns per city being typed {"scores": six categories and total, "tiles": placed}.
    """
    counts = [c.count("factory") if isinstance(c, SortedCity) else len(c.cells_of("factory"))
              for c in [*known, *typing]]
    ranks = factory_ranks(counts)[len(known):]
    return [{"scores": score_city(city, rank)[0], "tiles": city.tiles}
            for city, rank in zip(typing, ranks, strict=True)]


def _too_many(over: dict[str, int], where: str) -> list[str]:
    return [f"{n} {building} buildings {where}, but the game has only {GAME_SUPPLY[building]}"
            for building, n in over.items()]


def supply_warnings(city: City | SortedCity) -> list[str]:
    """Buildings the game has too few of to build this city (a typing or reading slip),
    tile counts short of a finished city's 16, and a laid-out city where the two duplex tiles
    every city has cannot lie."""
    warnings = _too_many(beyond_supply([city]), "in this city")
    if isinstance(city, SortedCity):
        if city.total < TILES:
            warnings.append(f"{city.total} buildings counted, but a finished city has {TILES}")
    elif (not isinstance(city, PartialCity) or city.tiles == TILES) and not holds_two_duplexes(city):
        warnings.append("no two of the game's duplex tiles fit in this city, but every city "
                        "has two: a cell may be wrong")
    return warnings


def table_warnings(cities: list[City | SortedCity]) -> list[str]:
    """Buildings the game has too few of for these cities together (and no city alone)."""
    alone = {b for city in cities for b in beyond_supply([city])}
    over = {b: n for b, n in beyond_supply(cities).items() if b not in alone}
    return _too_many(over, "in these cities together")


def _player_entries(table: Table, cities: list[dict]) -> list[dict]:
    two_player = len(table.players) == 2
    entries = []
    for seat in table.seats:
        owned = [i for i in range(len(cities)) if seat in table.builders(i)]
        totals = [cities[i]["scores"]["total"] + table.modifier(i) for i in owned]
        counts = {t: sum(table.cities[i].type_counts()[t] for i in owned) for t in TYPES}
        final = sum(totals) if two_player else min(totals)
        lower = owned[totals.index(min(totals))]
        entry = {"name": seat, "cities": [i + 1 for i in owned], "city_totals": totals,
                 "final": final, "final_city": None if two_player else lower + 1,
                 "building_counts": counts}
        if not two_player:
            entry["higher"] = max(totals)
        entries.append(entry)
    return entries


def _tiebreak_key(entry: dict, two_player: bool) -> tuple:
    first = () if two_player else (entry["higher"],)
    return (entry["final"], *first, *entry["building_counts"].values())


def _criteria(two_player: bool) -> list[str]:
    first = [] if two_player else ["higher city score"]
    return ["final score", *first, *(f"{t} tiles" for t in TYPES)]  # counted, not scored


def rank_players(entries: list[dict], two_player: bool) -> list[str]:
    """Order players best first, set each ``rank``; return how each tie on final was broken."""
    entries.sort(key=lambda e: _tiebreak_key(e, two_player), reverse=True)
    criteria = _criteria(two_player)
    reasons = []
    for i, entry in enumerate(entries):
        above = entries[i - 1] if i else None
        key = _tiebreak_key(entry, two_player)
        if above is None or _tiebreak_key(above, two_player) != key:
            entry["rank"] = i + 1
        else:
            entry["rank"] = above["rank"]
        if above is None or above["final"] != entry["final"]:
            continue
        above_key = _tiebreak_key(above, two_player)
        diff = next((k for k in range(len(key)) if key[k] != above_key[k]), None)
        if diff is None:
            reasons.append(f"{above['name']} and {entry['name']} stay tied on every tiebreaker")
        else:
            reasons.append(
                f"{above['name']} ahead of {entry['name']}: both {entry['final']} points, "
                f"{criteria[diff]} {above_key[diff]} vs {key[diff]}"
            )
    return reasons


def difficulty_line(buildings: int, level: int) -> dict:
    """Automaville's difficulty named on its own: the buildings' points, the level's
    modifier and the total the Automas score, with the sum written out ("56 + 4 = 60")."""
    modifier = DIFFICULTY_MODIFIER[level]
    sign = "-" if modifier < 0 else "+"
    return {"level": level, "modifier": modifier, "buildings": buildings,
            "total": buildings + modifier,
            "line": f"{buildings} {sign} {abs(modifier)} = {buildings + modifier} "
                    f"(difficulty {level})"}


def score_table(table: Table) -> dict:
    """Scores of every city, and when players are named: final scores, ranking and winner."""
    cities = score_cities(list(table.cities))
    for i, city in enumerate(cities):
        if table.players:
            city["builders"] = table.builders(i)
        if table.is_automaville(i):
            city["name"] = AUTOMAVILLE_NAME
            city["difficulty"] = difficulty_line(city["scores"]["total"], table.difficulty)
        if table.modifier(i):
            city["modifier"] = table.modifier(i)
    result: dict = {"cities": cities, "warnings": table_warnings(list(table.cities))}
    if not table.players:
        return result
    two_player = len(table.players) == 2
    players = _player_entries(table, cities)
    result["tiebreaks"] = rank_players(players, two_player)
    result["players"] = players
    result["winner"] = [p["name"] for p in players if p["rank"] == 1]
    result["variant"] = {1: "solo", 2: "two-player"}.get(len(table.players), "standard")
    if result["variant"] == "solo":
        result["difficulty"] = table.difficulty
    return result
