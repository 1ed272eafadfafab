"""Solo campaigns (French rulebook 003, "Jeu en campagne"): the rules, the CLI and the API.

The rulebook gives no worked campaign example with numbers; the numbers below follow from its
text and the cities' scores (MIXED scores 59 beside two factory-less cities: shops 16,
factories 8, taverns 17, offices 4, parks 8, houses 6).
"""

import json

import pytest
from helpers import city, named_pipe

from scorer.campaign import CampaignError, campaign_game, format_campaign, score_campaign
from scorer.city import SortedCity
from scorer.cli import main
from scorer.table import Table, score_table
from web import create_app

SHOPS = city("S S S S / S S S S / S S S S / S S S S")  # 64
PARKS = city("P P P P / P P P P / P P P P / P P P P")  # 25
HOUSES = city("H H H H / H H H H / H H H H / H H H H")  # 0
MIXED = city("S S S S / F H Td P / O O Tm P / H Tf Tb F")
MIXED_ROWS = ["S S S S", "F H Td P", "O O Tm P", "H Tf Tb F"]


def solo(cities, difficulty=4, player="Me"):
    return score_table(Table(cities, (player,), difficulty))


WON = solo((MIXED, HOUSES, SHOPS))  # Me 59 (city 1), the Automas 0: won
LOST = solo((PARKS, SHOPS, MIXED))  # Me 25 (city 1), Automanon 59: rank 3


def test_lower_city_plus_type_doubled_when_won():
    # « deux fois la valeur des tuiles de ce type si vous avez gagné »
    game = campaign_game(WON, "shop")
    assert (game["final"], game["final_city"], game["won"]) == (59, 1, True)
    assert (game["type_points"], game["factor"], game["bonus"], game["points"]) == (16, 2, 32, 91)
    assert game["line"] == "59 + 32 = 91"
    assert [p["points"] for p in game["parts"]] == [59, 32]
    assert game["parts"][0]["line"] == "lower city: city 1 (Me & Automartin) scores 59"
    assert game["parts"][1]["line"] == "shops in city 1 (Me & Automartin): 16 x 2 = 32; you won"


def test_type_counted_once_when_not_won():
    # « la valeur des tuiles de ce type dans la ville qui vous donne votre score final si
    # vous n'avez pas gagné »
    game = campaign_game(LOST, "park")
    assert (game["won"], game["rank"], game["factor"]) == (False, 3, 1)
    assert game["points"] == 25 + 25
    assert "you did not win (rank 3)" in game["parts"][1]["line"]
    # the bonus comes from the lower city only (city 3, the higher, has 8 park points)
    assert campaign_game(LOST, "shop")["bonus"] == 0


def test_difficulty_counts_for_automaville_not_for_your_cities():
    # At level 7 Automaville gets +6: 64 + 6 = 70 for city 2; you still score your 25.
    game = campaign_game(solo((PARKS, SHOPS, MIXED), difficulty=7), "park")
    assert game["final"] == 25 and game["difficulty"] == 7


def test_tied_cities_give_the_bonus_of_the_better_one():
    result = json.loads(json.dumps(WON))
    you = next(p for p in result["players"] if p["name"] == "Me")
    you["city_totals"] = [59, 59]
    result["cities"][2]["scores"]["shops"] = 40
    game = campaign_game(result, "shop")
    assert game["final_city"] == 3 and game["type_points"] == 40
    assert "both your cities score 59, city 3 has more shops" in game["parts"][0]["line"]


def test_three_game_campaign_total_and_explanation():
    beginner = SortedCity.from_counts({"house": 16})
    games = [(WON, "shop"), (LOST, "park"), (solo((MIXED, HOUSES, SHOPS)), "tavern")]
    campaign = score_campaign(games, 3, 4, "full")
    assert [g["points"] for g in campaign["games"]] == [91, 50, 59 + 34]
    assert campaign["total"] == 91 + 50 + 93 and campaign["complete"]
    assert campaign["line"] == "91 + 50 + 93 = 234"
    assert campaign["types_left"] == ["factory", "office", "house"]
    text = format_campaign(campaign, "Winter")
    assert "Total (final): 91 + 50 + 93 = 234" in text and "taverns in city 1" in text
    # the beginner mode: Automaville from tile counts
    counted = solo((MIXED, beginner, SHOPS))
    assert score_campaign([(counted, "office")], 3, 4, "beginner")["total"] == 59 + 2 * 4


@pytest.mark.parametrize(
    "games, length, difficulty, mode, message",
    [
        ([(WON, "shop"), (WON, "shop")], 3, 4, "full", "shops were already chosen in game 1"),
        ([(WON, "shop")] * 4, 3, 4, "full", "a campaign of 3 games has no game 4"),
        ([(solo((MIXED, HOUSES, SHOPS), 5), "shop")], 3, 4, "full",
         "game 1 was played at difficulty 5; the campaign is at difficulty 4"),
        ([(WON, "shop")], 3, 4, "beginner", "game 1 was played in the full mode"),
        ([(WON, "shop"), (solo((MIXED, HOUSES, SHOPS), player="Bo"), "park")], 3, 4, "full",
         "game 2 was played by Bo; this campaign is Me's"),
        ([(WON, "church")], 3, 4, "full", "unknown building type 'church'"),
        ([(score_table(Table((MIXED,) * 3, ("A", "B", "C"))), "shop")], 3, 4, "full",
         "game 1: a campaign game is a solo table"),
        ([], 4, 4, "full", "a campaign is 3 games (or 6"),
        ([], 3, 8, "full", "difficulty level is 1 to 7"),
    ],
    ids=["type-twice", "too-many", "difficulty", "mode", "player", "type", "not-solo",
         "length", "level"],
)
def test_what_a_campaign_cannot_have(games, length, difficulty, mode, message):
    with pytest.raises(CampaignError, match=message.replace("(", r"\(")):
        score_campaign(games, length, difficulty, mode)


def test_six_game_campaign_uses_every_type_once():
    types = ["shop", "factory", "tavern", "office", "park", "house"]
    campaign = score_campaign([(WON, t) for t in types], 6, 4, "full")
    assert campaign["complete"] and campaign["types_left"] == []
    assert campaign["total"] == 6 * 59 + 2 * (16 + 8 + 17 + 4 + 8 + 6)


# --- the solo difficulty named on its own ------------------------------------------------------

def test_difficulty_is_a_line_of_its_own(capsys):
    result = solo((MIXED, PARKS, SHOPS), difficulty=6)
    assert result["cities"][1]["difficulty"] == {
        "level": 6, "modifier": 4, "buildings": 25, "total": 29,
        "line": "25 + 4 = 29 (difficulty 6)"}
    assert solo((MIXED, PARKS, SHOPS), difficulty=2)["cities"][1]["difficulty"]["line"] == \
        "25 - 4 = 21 (difficulty 2)"


def test_scoreboard_writes_the_sum_out(tmp_path, capsys):
    files = []
    for i, rows in enumerate([MIXED_ROWS, ["P P P P"] * 4, ["S S S S"] * 4]):
        path = tmp_path / f"c{i}.txt"
        path.write_text("\n".join(rows))
        files.append(str(path))
    assert main(["score-grid", *files, "--players", "Me", "--difficulty", "6"]) == 0
    out = capsys.readouterr().out
    assert "difficulty  +4  level 6" in out and "total       29  25 + 4 = 29 (difficulty 6)" in out


# --- CLI --------------------------------------------------------------------------------------

def write_campaign(tmp_path, data) -> str:
    (tmp_path / "me-automartin.txt").write_text("\n".join(MIXED_ROWS) + "\n")
    (tmp_path / "automanon-me.txt").write_text("S S S S\n" * 4)
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(data))
    return str(path)


GAMES = [
    {"cities": ["me-automartin.txt", ["H H H H"] * 4, "automanon-me.txt"], "type": "shop"},
    {"cities": ["P P P P\n" * 4, "S S S S\n" * 4, "\n".join(MIXED_ROWS)], "type": "park"},
]


def test_cli_scores_a_campaign_file(tmp_path, capsys):
    path = write_campaign(tmp_path, {"name": "Winter", "games": GAMES})
    assert main(["campaign", path]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Campaign: Winter (3 games, difficulty 4, full mode, Me)"
    assert "Total (after 2 of 3 games): 91 + 50 = 141" in out
    assert main(["campaign", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 141 and result["games"][1]["parts"][1]["points"] == 25


def test_cli_beginner_mode_counts(tmp_path, capsys):
    game = {"cities": ["me-automartin.txt", {"house": 16}, "automanon-me.txt"], "type": "office"}
    path = write_campaign(tmp_path, {"games": [game], "difficulty": 3})
    assert main(["campaign", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["mode"] == "beginner" and result["total"] == 59 + 8


@pytest.mark.parametrize(
    "data, message",
    [
        ({"games": [GAMES[0], {**GAMES[1], "type": "shop"}]}, "game 2: shops were already chosen"),
        ({"games": [{**GAMES[0], "cities": ["nope.txt", "x.txt", "y.txt"]}]},
         "game 1: .*nope.txt: cannot read file"),
        ({"games": [{**GAMES[0], "cities": GAMES[0]["cities"][:2]}]}, "game 1: \"cities\" lists"),
        ({"games": [{**GAMES[1], "cities": ["S S\n", "S S S S\n" * 4, "S S S S\n" * 4]}]},
         "game 1 city 1: line 1"),
        ({"games": GAMES, "length": 4}, "a campaign is 3 games"),
        ({"games": [{**GAMES[0], "difficulty": 5}]}, "game 1 was played at difficulty 5"),
        ({"games": GAMES, "colour": 1}, "unknown key 'colour'"),
        ([], "a campaign file is a JSON object"),
        ({"games": [{**GAMES[0], "cities": ["a\x00b.txt", "x.txt", "y.txt"]}]},
         r"game 1: .*a\\x00b.txt': not a file name"),
        ({"games": GAMES, "name": "Winter \ud800"}, "name contains characters that are not text"),
        ({"games": GAMES, "player": "M\x1be"}, "name contains characters that are not text"),
        ({"games": [{**GAMES[0], "cities": ["/dev/zero", "x.txt", "y.txt"]}]},
         "game 1: /dev/zero: not a file"),
    ],
    ids=["type-twice", "missing-file", "two-cities", "bad-row", "length", "difficulty",
         "unknown-key", "not-object", "nul-in-path", "surrogate-in-name", "escape-in-player",
         "device-as-city"],
)
def test_cli_mistakes_are_one_line_exit_2(tmp_path, capsys, data, message):
    path = write_campaign(tmp_path, data)
    assert main(["campaign", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("btc-scorer: error: ")
    assert __import__("re").search(message, err), err


def test_cli_file_not_json(tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text("{games")
    assert main(["campaign", str(path)]) == 2
    assert "not JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.write_text("[" * 100_000), "nested too deeply"),
        (lambda p: p.write_bytes(b"{" + b" " * 1_000_001 + b"}"), "too large for a campaign file"),
        (lambda p: p.write_bytes(b"\xff\xfe{}"), "not UTF-8 text"),
        (lambda p: p.mkdir(), "not a file (a folder, a device or a pipe)"),
        (named_pipe, "not a file (a folder, a device or a pipe)"),
    ],
    ids=["nested", "too-large", "not-utf8", "folder", "named-pipe"],
)
def test_a_campaign_file_that_is_none_is_one_line(tmp_path, capsys, make, message):
    """Refused at once, never a traceback; a named pipe is not waited on."""
    path = tmp_path / "c.json"
    make(path)
    assert main(["campaign", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


# --- web API ----------------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path)}).test_client()


def solo_table(client, cities, difficulty=4, player="Me") -> str:
    table = client.post("/api/tables", json={"players": [player], "difficulty": difficulty}).json
    for number, c in enumerate(cities, start=1):
        if isinstance(c, dict):
            response = client.put(f"/api/tables/{table['id']}/cities/{number}/counts",
                                  json={"counts": c})
        else:
            response = client.put(f"/api/tables/{table['id']}/cities/{number}/grid",
                                  json={"grid": [list(r) for r in c.grid]})
        assert response.status_code == 200, response.json
    return table["id"]


def test_api_campaign_of_three_games(client):
    created = client.post("/api/campaigns", json={"name": "Winter", "length": 3,
                                                  "difficulty": 4, "mode": "full"})
    assert created.status_code == 201
    campaign = created.json
    api = f"/api/campaigns/{campaign['id']}"
    assert campaign["games"] == [] and campaign["line"] == "no games yet"
    won = solo_table(client, (MIXED, HOUSES, SHOPS))
    lost = solo_table(client, (PARKS, SHOPS, MIXED))
    third = solo_table(client, (MIXED, HOUSES, SHOPS))
    other_level = solo_table(client, (MIXED, HOUSES, SHOPS), difficulty=5)
    unfinished = client.post("/api/tables", json={"players": ["Me"]}).json["id"]
    assert {c["id"] for c in client.get(api).json["candidates"]} == {won, lost, third}
    added = client.post(f"{api}/games", json={"table": f"http://x/tables/{won}", "type": "shop"})
    assert added.status_code == 201 and added.json["total"] == 91
    for body, message in [
        ({"table": lost, "type": "shop"}, "shops were already chosen in game 1"),
        ({"table": won, "type": "park"}, "already counts in the campaign 'Winter'"),
        ({"table": other_level, "type": "park"}, "played at difficulty 5"),
        ({"table": unfinished, "type": "park"}, "is not finished"),
        ({"table": "nope", "type": "park"}, "no table nope"),
        ({"table": "a\ud800b", "type": "park"}, "no such table"),  # not text: never looked up
        ({"table": lost, "type": "castle"}, "unknown building type"),
    ]:
        response = client.post(f"{api}/games", json=body)
        assert response.status_code == 400 and message in response.json["error"], response.json
    client.post(f"{api}/games", json={"table": lost, "type": "park"})
    done = client.post(f"{api}/games", json={"table": third, "type": "tavern"}).json
    assert done["complete"] and done["line"] == "91 + 50 + 93 = 234"
    assert done["games"][0]["parts"][1]["line"].endswith("16 x 2 = 32; you won")
    assert client.post(f"{api}/games", json={"table": other_level, "type": "house"}).json[
        "error"] == "this campaign's 3 games are all played"
    listed = client.get("/api/campaigns").json
    assert listed["best"][0]["total"] == 234 and listed["best"][0]["player"] == "Me"
    # a deleted table keeps counting with its scores from when it was added
    client.delete(f"/api/tables/{lost}")
    kept = client.get(api).json
    assert kept["total"] == 234 and kept["games"][1]["deleted"]
    # a game added by mistake is taken out; the later ones move up
    out = client.delete(f"{api}/games/1").json
    assert [g["type"] for g in out["games"]] == ["park", "tavern"] and not out["complete"]
    assert client.get(f"/campaigns/{campaign['id']}").status_code == 200
    assert client.get("/campaigns").status_code == 200
    assert client.delete(api).status_code == 204
    assert client.get(api).status_code == 404
    assert client.get(f"/campaigns/{campaign['id']}").status_code == 404


@pytest.mark.parametrize(
    "body, message",
    [({"mode": "full", "length": 4}, "3 games (or 6"),
     ({"mode": "full", "difficulty": 0}, "1 to 7"),
     ({"mode": "expert"}, "beginner or full"),
     ({"mode": "full", "length": True}, "3 games")],
)
def test_api_campaign_settings_refused(client, body, message):
    response = client.post("/api/campaigns", json=body)
    assert response.status_code == 400 and message in response.json["error"]


def test_api_beginner_campaign_takes_beginner_tables_only(client):
    campaign = client.post("/api/campaigns", json={"mode": "beginner"}).json
    full = solo_table(client, (MIXED, HOUSES, SHOPS))
    counted = solo_table(client, (MIXED, {"house": 16}, SHOPS))
    api = f"/api/campaigns/{campaign['id']}"
    assert [c["id"] for c in client.get(api).json["candidates"]] == [counted]
    response = client.post(f"{api}/games", json={"table": full, "type": "shop"})
    assert response.status_code == 400 and "full mode" in response.json["error"]
    assert client.post(f"{api}/games", json={"table": counted, "type": "office"}).json[
        "total"] == 59 + 8


def test_automavilles_counts_keep_their_seat_when_the_cities_are_reordered(client):
    """Only Automaville's seat is scored from tile counts: a new seating that moves its
    counts elsewhere is refused, and nothing moves (the table and the campaigns still read)."""
    table = solo_table(client, (MIXED, {"house": 16}, SHOPS))
    before = client.get(f"/api/tables/{table}").json
    for order in ([1, 0, 2], [0, 2, 1]):
        moved = client.put(f"/api/tables/{table}/order", json={"order": order})
        assert moved.status_code == 400 and "city 2 is given as tile counts" in moved.json["error"]
    after = client.get(f"/api/tables/{table}")
    assert after.status_code == 200 and after.json["cities"] == before["cities"]
    assert client.get("/api/campaigns").status_code == 200
    assert client.put(f"/api/tables/{table}/order", json={"order": [2, 1, 0]}).status_code == 200


def test_api_host_mode_lists_no_campaigns(tmp_path):
    client = create_app({"DATA_DIR": str(tmp_path), "HOST_MODE": True}).test_client()
    assert client.get("/api/campaigns").status_code == 404
    campaign = client.post("/api/campaigns", json={"mode": "full"}).json
    assert "candidates" not in client.get(f"/api/campaigns/{campaign['id']}").json
