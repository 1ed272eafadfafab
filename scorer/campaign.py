"""Campaign play of the solo game ("Jeu en campagne", French rulebook 003). Pure rules.

The rulebook's text, which this module follows line by line:

    « Une campagne est constituée de trois parties consécutives, dans le même mode de jeu et
    avec le même niveau de difficulté. »
    -> 3 games, one mode (beginner or full), one difficulty level (:func:`score_campaign`).

    « Après chaque partie, marquez un nombre de « Points de Campagne » (PC) égal au plus
    petit score de vos deux villes. »
    -> base points = your final score, the lower of your two cities (:func:`campaign_game`).

    « Choisissez un des six types de bâtiment (Usines, Résidences, Bureaux, Commerces,
    Auberges ou Parcs). Ajoutez un nombre de PC bonus égal à la valeur des tuiles de ce type
    dans la ville qui vous donne votre score final si vous n'avez pas gagné, et deux fois la
    valeur des tuiles de ce type si vous avez gagné. »
    -> bonus = that type's points in your lower city, x2 if you won the game.

    « Chaque type de bâtiment peut être choisi au maximum une fois pendant une campagne. »
    -> a type chosen twice is refused.

    « Une campagne s'achève après trois parties. [...] Vous pouvez mener une campagne plus
    longue en jouant six parties et en choisissant un type de bâtiment différent à chaque
    partie pour les points bonus. »
    -> length 3 or 6; 6 games use each of the six types once.

The rulebook gives no worked example with numbers. Two readings it leaves open, decided here
and said in every explanation: when your two cities score the same, both "give your final
score" and the bonus is taken from the one with more points of the chosen type; "won" is
rank 1 after the usual tiebreakers (a tie on everything is a shared win, which counts).
"""

from __future__ import annotations

from .city import TYPES
from .errors import TableError
from .table import AUTOMAS, AUTOMAVILLE, same_name

LENGTHS = (3, 6)
MODES = ("beginner", "full")  # « mode débutant » (Automaville's tiles sorted), « mode complet »
CATEGORY = {"shop": "shops", "factory": "factories", "tavern": "taverns", "office": "offices",
            "park": "parks", "house": "houses"}
PLURAL = dict(CATEGORY)


class CampaignError(TableError):
    """Games, types or settings a campaign of the rulebook cannot have."""


def solo_mode(result: dict) -> str:
    """The mode a scored solo table was played in: Automaville from tile counts is the
    beginner mode, a laid-out Automaville the full mode."""
    return "beginner" if result["cities"][AUTOMAVILLE].get("mode") == "counts" else "full"


def check_settings(length: int, difficulty: int, mode: str) -> None:
    """Refuse a campaign the rulebook does not have (CampaignError with a one-line message)."""
    if length not in LENGTHS or isinstance(length, bool):
        raise CampaignError("a campaign is 3 games (or 6, the longer campaign)")
    if difficulty not in range(1, 8) or isinstance(difficulty, bool):
        raise CampaignError("the solo difficulty level is 1 to 7")
    if mode not in MODES:
        raise CampaignError(f"the mode is {' or '.join(MODES)}")


def check_type(building_type) -> str:
    """A building type's name (shop, factory, tavern, office, park, house), else CampaignError."""
    if not isinstance(building_type, str) or building_type not in TYPES:
        shown = str(building_type)[:40]
        raise CampaignError(f"unknown building type {shown!r}; choose one of {', '.join(TYPES)}")
    return building_type


def _you(result: dict) -> dict:
    if result.get("variant") != "solo":
        raise CampaignError("a campaign game is a solo table (one player against the Automas)")
    return next(p for p in result["players"] if p["name"] not in AUTOMAS)


def campaign_game(result: dict, building_type: str) -> dict:
    """The campaign points of one scored solo table (``score_table``'s result) with the
    building type chosen for it, and the lines that explain them."""
    building_type = check_type(building_type)
    you = _you(result)
    category = CATEGORY[building_type]
    totals = dict(zip(you["cities"], you["city_totals"], strict=True))
    lowest = [c for c in you["cities"] if totals[c] == you["final"]]
    value = {c: result["cities"][c - 1]["scores"][category] for c in lowest}
    city = max(lowest, key=lambda c: (value[c], -c))
    won = you["rank"] == 1
    shared = won and len(result["winner"]) > 1
    factor = 2 if won else 1
    bonus = factor * value[city]
    builders = " & ".join(result["cities"][city - 1].get("builders", []))
    where = f"city {city}" + (f" ({builders})" if builders else "")
    tie = ""
    if len(lowest) > 1:
        more = (f"city {city} has more {PLURAL[building_type]}"
                if len(set(value.values())) > 1 else f"the same {PLURAL[building_type]} points")
        tie = f"; both your cities score {you['final']}, {more}"
    outcome = ("you won (a shared win)" if shared else "you won") if won else \
        f"you did not win (rank {you['rank']})"
    parts = [
        {"what": "lower city", "city": city, "points": you["final"],
         "line": f"lower city: {where} scores {you['final']}{tie}"},
        {"what": "bonus", "type": building_type, "city": city, "value": value[city],
         "factor": factor, "points": bonus,
         "line": (f"{PLURAL[building_type]} in {where}: {value[city]}"
                  + (f" x 2 = {bonus}" if won else "") + f"; {outcome}")},
    ]
    points = you["final"] + bonus
    return {"player": you["name"], "final": you["final"], "final_city": city, "won": won,
            "rank": you["rank"], "type": building_type, "type_points": value[city],
            "factor": factor, "bonus": bonus, "points": points, "parts": parts,
            "line": f"{you['final']} + {bonus} = {points}",
            "difficulty": result["difficulty"], "mode": solo_mode(result)}


def score_campaign(games: list[tuple[dict, str]], length: int = 3, difficulty: int = 4,
                   mode: str = "full") -> dict:
    """Standings of a campaign: ``games`` are (scored solo table, chosen type) in the order
    played. Refuses (CampaignError) games beyond the length, another difficulty or mode,
    another player, and a type chosen twice. A campaign with fewer games is scored so far."""
    check_settings(length, difficulty, mode)
    if len(games) > length:
        raise CampaignError(f"a campaign of {length} games has no game {len(games)}")
    scored, chosen, player = [], {}, None
    for number, (result, building_type) in enumerate(games, start=1):
        try:
            game = campaign_game(result, building_type)
        except CampaignError as error:
            raise CampaignError(f"game {number}: {error}") from None
        if game["difficulty"] != difficulty:
            raise CampaignError(f"game {number} was played at difficulty {game['difficulty']}; "
                                f"the campaign is at difficulty {difficulty} (the same level "
                                "for every game)")
        if game["mode"] != mode:
            raise CampaignError(f"game {number} was played in the {game['mode']} mode; the "
                                f"campaign is in the {mode} mode (the same mode for every game)")
        if player is not None and same_name(game["player"]) != same_name(player):
            raise CampaignError(f"game {number} was played by {game['player']}; this campaign "
                                f"is {player}'s")
        if game["type"] in chosen:
            raise CampaignError(f"game {number}: {PLURAL[game['type']]} were already chosen in "
                                f"game {chosen[game['type']]} (each type once per campaign)")
        player = player or game["player"]
        chosen[game["type"]] = number
        game["game"] = number
        scored.append(game)
    total = sum(g["points"] for g in scored)
    lines = [f"game {g['game']}: {g['line']}" for g in scored]
    return {"length": length, "difficulty": difficulty, "mode": mode, "player": player,
            "games": scored, "total": total, "complete": len(scored) == length,
            "types_left": [t for t in TYPES if t not in chosen],
            "line": " + ".join(str(g["points"]) for g in scored) + f" = {total}"
            if len(scored) > 1 else str(total) if scored else "no games yet", "lines": lines}


def format_campaign(campaign: dict, name: str = "") -> str:
    """The campaign as text: every game's points explained, then the total."""
    title = f"Campaign{': ' + name if name else ''} ({campaign['length']} games, difficulty " \
            f"{campaign['difficulty']}, {campaign['mode']} mode" \
            + (f", {campaign['player']}" if campaign["player"] else "") + ")"
    lines = [title]
    for g in campaign["games"]:
        lines.append(f"Game {g['game']} ({g['type']}): {g['points']} campaign points")
        lines += [f"  {p['points']:>4}  {p['line']}" for p in g["parts"]]
    done = "final" if campaign["complete"] else \
        f"after {len(campaign['games'])} of {campaign['length']} games"
    lines.append(f"Total ({done}): {campaign['line']}")
    if not campaign["complete"]:
        lines.append("Types left: " + ", ".join(campaign["types_left"]))
    return "\n".join(lines) + "\n"
