"""Automaville from tile counts: the solo game's beginner mode (tiles sorted by type).

Every example of the English solitaire rules (Morten Monrad Pedersen) that says how the
Automas' city is scored "maximally" is a test here; then the table, the CLI and the API.
"""

import json

import pytest

from scorer.city import City, SortedCity
from scorer.cli import main
from scorer.errors import NotationError, TableError
from scorer.notation import parse_city_or_counts, parse_counts
from scorer.rules import score_houses, score_sorted_city
from scorer.table import Table, score_table
from web import create_app

GRID = [["shop"] * 4, ["factory", "house", "tavern-drink", "park"], ["office"] * 4, ["park"] * 4]
YOU_AUTOMARTIN = City.from_rows(GRID)
AUTOMANON_YOU = City.from_rows([["factory"] * 4, ["house"] * 4, ["office"] * 4, ["shop"] * 4])


def scored(rank=0, **counts):
    scores, why = score_sorted_city(SortedCity.from_counts(
        {k.replace("_", "-"): v for k, v in counts.items()}), rank)
    return scores, why


# --- the solitaire rules' examples ---------------------------------------------------------


def test_six_shops_score_as_if_optimally_placed_16_plus_5():
    scores, why = scored(shop=6)
    assert scores["shops"] == 21
    assert why["shops"]["sets"] == [{"size": 4, "points": 16}, {"size": 2, "points": 5}]


@pytest.mark.parametrize("shops, points", [(0, 0), (1, 2), (2, 5), (3, 10), (4, 16), (5, 18),
                                           (7, 26), (8, 32), (16, 64)])
def test_shops_take_the_best_split_into_sets_of_one_to_four(shops, points):
    assert scored(shop=shops)[0]["shops"] == points


def test_houses_score_as_if_none_is_next_to_a_factory():
    scores, why = scored(house=2, factory=1, shop=1, park=1)
    assert scores["houses"] == 2 * 3  # factory, park, shop: 3 other types each
    assert why["houses"]["per_house"] == 3
    # the same buildings laid out with a house next to the factory score that house 1
    laid = City.from_rows([["house", "factory", "shop", "park"], ["house"] + ["park"] * 3,
                           ["park"] * 4, ["park"] * 4])
    assert score_houses(laid)[0] == 1 + 3


def test_every_office_gets_its_bonus_if_automaville_has_a_tavern():
    assert scored(office=3, tavern_bed=1)[0]["offices"] == 6 + 3
    assert scored(office=3)[0]["offices"] == 6
    assert scored(office=8, tavern_food=1)[0]["offices"] == 21 + 3 + 8


def test_taverns_drink_music_and_two_food_make_9_plus_1_not_4_plus_4():
    scores, why = scored(tavern_drink=1, tavern_music=1, tavern_food=2)
    assert scores["taverns"] == 10
    assert [s["points"] for s in why["taverns"]["sets"]] == [9, 1]


def test_three_parks_are_separate_pairs_10_not_12():
    scores, why = scored(park=3)
    assert scores["parks"] == 10
    assert why["parks"]["groups"] == [{"size": 2, "points": 8}, {"size": 1, "points": 2}]
    assert scored(park=4)[0]["parks"] == 16 and scored(park=1)[0]["parks"] == 2


def test_factories_rank_across_the_three_cities_as_usual():
    automaville = SortedCity.from_counts({"factory": 5, "house": 11})
    result = score_table(Table((YOU_AUTOMARTIN, automaville, AUTOMANON_YOU), ("Me",)))
    ranks = [c["factory_rank"] for c in result["cities"]]
    assert ranks == [3, 1, 2]  # 1 factory, 5 factories, 4 factories
    assert result["cities"][1]["scores"]["factories"] == 5 * 4
    assert result["cities"][2]["scores"]["factories"] == 4 * 3


# --- the table -------------------------------------------------------------------------------


@pytest.mark.parametrize("level, modifier", [(1, -6), (4, 0), (7, 6)])
def test_difficulty_modifier_applies_in_counts_mode(level, modifier):
    automaville = SortedCity.from_counts({"shop": 6, "park": 3, "office": 3, "tavern-food": 1,
                                         "house": 3})
    result = score_table(Table((YOU_AUTOMARTIN, automaville, AUTOMANON_YOU), ("Me",), level))
    city = result["cities"][1]
    assert city["name"] == "Automaville" and city["mode"] == "counts"
    assert city["counts"]["shop"] == 6 and "grid" not in city
    assert city.get("modifier", 0) == modifier
    automartin = next(p for p in result["players"] if p["name"] == "Automartin")
    assert city["scores"]["total"] + modifier in automartin["city_totals"]


def test_full_mode_keeps_the_grid_and_names_automaville():
    result = score_table(Table((YOU_AUTOMARTIN, YOU_AUTOMARTIN, AUTOMANON_YOU), ("Me",)))
    assert result["cities"][1]["name"] == "Automaville" and "grid" in result["cities"][1]
    assert "name" not in result["cities"][0]


def test_tiebreak_counts_automavilles_buildings():
    automaville = SortedCity.from_counts({"shop": 6, "park": 10})
    result = score_table(Table((YOU_AUTOMARTIN, automaville, AUTOMANON_YOU), ("Me",)))
    automartin = next(p for p in result["players"] if p["name"] == "Automartin")
    assert automartin["building_counts"]["park"] == 5 + 10


def test_fewer_than_16_buildings_is_scored_with_a_warning():
    result = score_table(Table((YOU_AUTOMARTIN, SortedCity.from_counts({"shop": 6}),
                                AUTOMANON_YOU), ("Me",)))
    assert result["cities"][1]["warnings"] == [
        "6 buildings counted, but a finished city has 16"]


@pytest.mark.parametrize("players, cities", [
    (("Me",), (SortedCity.from_counts({"shop": 1}), YOU_AUTOMARTIN, AUTOMANON_YOU)),
    (("A", "B", "C"), (YOU_AUTOMARTIN, SortedCity.from_counts({"shop": 1}), AUTOMANON_YOU)),
    ((), (SortedCity.from_counts({"shop": 1}),)),
], ids=["not-city-2", "not-solo", "no-players"])
def test_only_automaville_is_scored_from_counts(players, cities):
    with pytest.raises(TableError, match="only Automaville"):
        Table(cities, players)


@pytest.mark.parametrize("counts, message", [
    ({"shop": -1}, "shop count must be a whole number from 0"),
    ({"shop": 2.5}, "shop count must be a whole number from 0"),
    ({"shop": True}, "shop count must be a whole number from 0"),
    ({"shop": "6"}, "shop count must be a whole number from 0"),
    ({"tavern-drink": 8}, "cannot have 8 tavern-drink buildings: the game has only 7"),
    ({"shop": 10, "park": 7}, "cannot have 17 buildings: a finished city has 16"),
    ({"tavern-bed": 9, "shop": 12}, "cannot have 9 tavern-bed buildings: the game has only 7; "
                                    "and cannot have 21 buildings: a finished city has 16"),
    ({"shop": 10 ** 4000}, r"cannot have 100000\.\.\. \(4001 digits\) shop buildings"),
    ({"castle": 1}, "unknown building 'castle'"),
    ([6, 2], "an object of building: number"),
])
def test_counts_the_game_cannot_have_are_refused(counts, message):
    with pytest.raises(TableError, match=message):
        SortedCity.from_counts(counts)


# --- notation ----------------------------------------------------------------------------------


def test_counts_notation_lines_short_names_and_inline():
    text = "# Automaville\nshop 6\nTd: 1\ntavern-food=2  # two\n\nP 3\n"
    assert parse_city_or_counts(text).building_counts() == {
        "shop": 6, "factory": 0, "tavern-drink": 1, "tavern-food": 2, "tavern-music": 0,
        "tavern-bed": 0, "office": 0, "park": 3, "house": 0}
    assert parse_counts("shop=6, factory=2").count("factory") == 2
    assert isinstance(parse_city_or_counts("S S S S\n" * 4), City)


@pytest.mark.parametrize("text, message", [
    ("shop 6\nshop 2", "line 2: shop is counted twice"),
    ("castle 2", "unknown building 'castle'"),
    ("shop -1", "shop count '-1' is not a whole number"),
    ("shop 6 7", "is not a building and a number"),
])
def test_counts_notation_errors(text, message):
    with pytest.raises(NotationError, match=message):
        parse_counts(text, "a.txt")


# --- CLI ---------------------------------------------------------------------------------------


@pytest.fixture
def cities(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    grid = "\n".join(" ".join(row) for row in GRID)
    return write("you-automartin.txt", grid), write("automaville.txt",
                                                    "shop 6\nTd 1\nTm 1\nTf 2\npark 3\n"
                                                    "office 2\nfactory 1\n"), \
        write("automanon-you.txt", grid)


def test_cli_counts_file_as_automaville(capsys, cities):
    assert main(["score-grid", *cities, "--players", "Me", "--difficulty", "5"]) == 0
    out = capsys.readouterr().out
    assert "City 2 (Automaville: Automartin & Automanon)" in out
    assert "tiles sorted by type (scored maximally): S 6  F 1  Td 1  Tf 2  Tm 1  O 2  P 3" in out
    assert "shops       21  6 as if optimally placed: 16 (set of 4) + 5 (set of 2)" in out
    assert "taverns     10  9 (drink+food+music) + 1 (food) (best sets)" in out
    assert "parks       10  3 as separate pairs: 8 (pair) + 2 (single)" in out
    assert "2 (every office: Automaville has a tavern)" in out
    assert "difficulty  +2" in out


def test_cli_automaville_flag_matches_the_file(capsys, cities):
    assert main(["score-grid", *cities, "--players", "Me", "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    flag = "shop=6,tavern-drink=1,tavern-music=1,tavern-food=2,park=3,office=2,factory=1"
    assert main(["score-grid", cities[0], cities[2], "--players", "Me", "--json",
                 "--automaville", flag]) == 0
    from_flag = json.loads(capsys.readouterr().out)
    assert from_flag["cities"][1]["source"] == "--automaville"
    for result in (from_file, from_flag):
        del result["cities"][1]["source"]
    assert from_flag == from_file
    # one factory in each city: all three tie for the most, 4 each
    assert from_flag["cities"][1]["scores"] == {"shops": 21, "factories": 4, "taverns": 10,
                                                "offices": 5, "parks": 10, "houses": 0,
                                                "total": 50}


@pytest.mark.parametrize("extra, message", [
    (["--automaville", "shop=6,tavern-bed=9"], "--automaville: Automaville cannot have 9 tavern-bed"),
    (["--automaville", "shop=-2"], "--automaville: shop count '-2' is not a whole number"),
    (["--automaville", "shop=6", "--players", "A,B,C"], "--automaville is for the solo game"),
], ids=["beyond-supply", "negative", "not-solo"])
def test_cli_counts_errors_are_one_line(capsys, cities, extra, message):
    players = [] if "--players" in extra else ["--players", "Me"]
    assert main(["score-grid", cities[0], cities[2], *players, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_cli_counts_file_only_for_automaville(capsys, cities):
    assert main(["score-grid", cities[1], cities[0], cities[2], "--players", "Me"]) == 2
    assert "city 1 is given as tile counts: only Automaville" in capsys.readouterr().err


# --- API ---------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()


def solo_table(client, difficulty=4):
    response = client.post("/api/tables", json={"players": ["Me"], "difficulty": difficulty})
    assert response.status_code == 201
    return f"/api/tables/{response.json['id']}"


def test_api_counts_score_automaville_with_the_difficulty(client):
    url = solo_table(client, difficulty=3)
    counts = {"shop": 6, "tavern-drink": 1, "tavern-music": 1, "tavern-food": 2, "park": 3,
              "office": 3}
    response = client.put(f"{url}/cities/2/counts", json={"counts": counts})
    assert response.status_code == 200, response.json
    table = response.json
    assert table["cities"][1]["counts"]["shop"] == 6 and table["cities"][1]["grid"] is None
    city = table["scores"]["cities"][1]
    assert city["name"] == "Automaville" and city["mode"] == "counts"
    assert city["scores"] == {"shops": 21, "factories": 0, "taverns": 10, "offices": 9,
                              "parks": 10, "houses": 0, "total": 50}
    assert table["scores"]["complete"] is False
    for number in (1, 3):
        assert client.put(f"{url}/cities/{number}/grid", json={"grid": GRID}).status_code == 200
    done = client.get(url).json["scores"]
    assert done["complete"] and done["cities"][1]["modifier"] == -2
    automartin = next(p for p in done["players"] if p["name"] == "Automartin")
    assert 48 in automartin["city_totals"]
    csv = client.get(f"{url}/export.csv").get_data(as_text=True)
    assert "counts: shop 6, tavern-drink 1" in csv


def test_api_typing_a_grid_replaces_the_counts(client):
    url = solo_table(client)
    client.put(f"{url}/cities/2/counts", json={"counts": {"shop": 6}})
    table = client.put(f"{url}/cities/2/grid", json={"grid": GRID}).json
    assert table["cities"][1]["counts"] is None
    assert "grid" in table["scores"]["cities"][1]
    table = client.put(f"{url}/cities/2/counts", json={"counts": {"park": 3}}).json
    assert table["cities"][1]["grid"] is None
    assert table["scores"]["cities"][1]["scores"]["parks"] == 10


@pytest.mark.parametrize("body, message", [
    ({"counts": {"shop": -1}}, "shop count must be a whole number from 0"),
    ({"counts": {"shop": 1.5}}, "shop count must be a whole number from 0"),
    ({"counts": {"house": 17}}, "cannot have 17 buildings: a finished city has 16"),
    ({"counts": {"tavern-music": 8}}, "the game has only 7"),
    ({"counts": {"shop": 9, "house": 9}}, "cannot have 18 buildings"),
    ({"counts": {"castle": 1}}, "unknown building 'castle'"),
    ({"counts": "shop=6"}, "an object of building: number"),
    ({}, "an object of building: number"),
])
def test_api_bad_counts_are_400(client, body, message):
    url = solo_table(client)
    response = client.put(f"{url}/cities/2/counts", json=body)
    assert response.status_code == 400 and message in response.json["error"]


def test_api_counts_only_for_automaville(client):
    url = solo_table(client)
    response = client.put(f"{url}/cities/1/counts", json={"counts": {"shop": 1}})
    assert response.status_code == 400 and "only Automaville" in response.json["error"]
    three = client.post("/api/tables", json={"players": ["A", "B", "C"]}).json["id"]
    response = client.put(f"/api/tables/{three}/cities/2/counts", json={"counts": {"shop": 1}})
    assert response.status_code == 400 and "only Automaville" in response.json["error"]
    assert client.put(f"{url}/cities/4/counts", json={"counts": {}}).status_code == 404
