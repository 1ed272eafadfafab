"""Solo campaigns in the web app: each game is a finished solo table of the app (see
scorer/campaign.py for the rules). A game is scored from its table as it is now; a deleted
table's scores from when it was added are kept."""

from __future__ import annotations

from scorer.campaign import CampaignError, check_type, score_campaign, solo_mode
from scorer.errors import TableError

from . import service
from .store import Store


def table_key(reference) -> str:
    """A table's id from its id or its link (``http://.../tables/<id>``)."""
    if not isinstance(reference, str) or not reference.strip():
        raise TableError("give the solo table's link or id")
    reference = reference.strip().split("#", 1)[0].split("?", 1)[0].rstrip("/")
    key = reference.rsplit("/tables/", 1)[-1].rsplit("/", 1)[-1][:80]
    if not (key.isascii() and key.isprintable()):  # a table's id is a URL-safe token
        raise TableError("no such table: check the link")
    return key


def finished_solo(store: Store, key: str) -> tuple[dict, dict]:
    """(stored table, its full scores) for a solo table whose three cities are known."""
    table = store.get_table(key)
    if table is None:
        raise TableError(f"no table {key[:40]}: check the link")
    if len(table["players"]) != 1:
        raise CampaignError(f"{table['name']} is not a solo table: a campaign is played alone "
                            "against the Automas")
    result = service.scoreboard(table)
    if not result.get("complete"):
        raise CampaignError(f"{table['name']} is not finished: all three cities must be read "
                            "or typed in")
    return table, result


def add_game(store: Store, campaign: dict, reference, building_type) -> None:
    """Add a finished solo table as the campaign's next game, with its chosen type; refuses
    what the rules refuse (checked by scoring the campaign with it)."""
    building_type = check_type(building_type)
    if len(campaign["games"]) >= campaign["length"]:
        raise CampaignError(f"this campaign's {campaign['length']} games are all played")
    key = table_key(reference)
    _, result = finished_solo(store, key)
    games = [(g["result"], g["type"]) for g in _current(store, campaign)]
    score_campaign([*games, (result, building_type)], campaign["length"],
                   campaign["difficulty"], campaign["mode"])
    store.add_campaign_game(campaign["id"], key, building_type, result)


def _current(store: Store, campaign: dict) -> list[dict]:
    """The campaign's games, each scored from its table now if it is still finished."""
    games = []
    for game in campaign["games"]:
        table = store.get_table(game["table"])
        result, name = game["result"], None
        if table is not None:
            name = table["name"]
            now = service.scoreboard(table)
            if now.get("complete") and now.get("variant") == "solo":
                result = now
        games.append({**game, "result": result, "table_name": name, "deleted": table is None})
    return games


def campaign_json(store: Store, campaign: dict, candidates: bool = False) -> dict:
    """A campaign with its standings so far; with ``candidates``, the finished solo tables
    of this app that could be its next game."""
    games = _current(store, campaign)
    pairs = [(g["result"], g["type"]) for g in games]
    try:
        standings = score_campaign(pairs, campaign["length"], campaign["difficulty"],
                                   campaign["mode"])
    except CampaignError:  # a table changed since (say, Automaville typed another way)
        pairs = [(g["result"], g["type"]) for g in campaign["games"]]
        standings = score_campaign(pairs, campaign["length"], campaign["difficulty"],
                                   campaign["mode"])
    for game, stored in zip(standings["games"], games, strict=True):
        game.update(table=stored["table"], table_name=stored["table_name"],
                    deleted=stored["deleted"])
    out = {k: v for k, v in campaign.items() if k != "games"}
    out.update(standings)
    if candidates:
        out["candidates"] = _candidates(store, campaign) if not standings["complete"] else []
    return out


def _candidates(store: Store, campaign: dict) -> list[dict]:
    used = {g["table"] for c in store.list_campaigns() for g in c["games"]}
    found = []
    for summary in store.list_tables():
        if (len(summary["players"]) != 1 or summary["id"] in used
                or summary["difficulty"] != campaign["difficulty"]):
            continue
        result = service.scoreboard(store.get_table(summary["id"]) or {"cities": []})
        if result.get("complete") and solo_mode(result) == campaign["mode"]:
            found.append({"id": summary["id"], "name": summary["name"],
                          "player": summary["players"][0]})
    return found


def best(store: Store, limit: int = 20) -> list[dict]:
    """Finished campaigns, the most campaign points first (ties: the earlier one)."""
    done = []
    for campaign in store.list_campaigns():
        if len(campaign["games"]) != campaign["length"]:
            continue
        scored = campaign_json(store, campaign)
        done.append({"id": campaign["id"], "name": campaign["name"], "player": scored["player"],
                     "total": scored["total"], "length": campaign["length"],
                     "difficulty": campaign["difficulty"], "mode": campaign["mode"],
                     "created": campaign["created"]})
    done.sort(key=lambda c: (-c["total"], c["created"]))
    return done[:limit]
