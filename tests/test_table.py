"""Tables: final scores, tiebreakers, the two-player and solo variants."""

import pytest
from helpers import city

from scorer.errors import TableError
from scorer.table import Table, rank_players, score_table

SHOPS = city("S S S S / S S S S / S S S S / S S S S")  # 64
PARKS = city("P P P P / P P P P / P P P P / P P P P")  # 12 + 13 = 25
HOUSES = city("H H H H / H H H H / H H H H / H H H H")  # 0
MIXED = city("S S S S / F H Td P / O O Tm P / H Tf Tb F")


def test_three_players_final_is_lower_city():
    result = score_table(Table((SHOPS, PARKS, MIXED), ("Ann", "Ben", "Cy")))
    totals = [c["scores"]["total"] for c in result["cities"]]
    by_name = {p["name"]: p for p in result["players"]}
    # City 1: Ann & Ben, city 2: Ben & Cy, city 3: Cy & Ann.
    assert result["cities"][0]["builders"] == ["Ann", "Ben"]
    assert by_name["Ann"]["final"] == min(totals[0], totals[2])
    assert by_name["Ben"]["final"] == min(totals[0], totals[1])
    assert by_name["Cy"]["final"] == min(totals[1], totals[2])
    assert by_name["Ben"]["final_city"] == 2


def test_tiebreak_example_ben_beats_emily_on_shops():
    # Ben and Emily tied after the first tiebreaker; Ben has five shops, Emily four.
    def entry(name, shops):
        counts = {"shop": shops, "factory": 2, "tavern": 3, "office": 4, "park": 5, "house": 6}
        return {"name": name, "final": 56, "higher": 60, "building_counts": counts}

    players = [entry("Emily", 4), entry("Ben", 5)]
    reasons = rank_players(players, two_player=False)
    assert [p["name"] for p in players] == ["Ben", "Emily"]
    assert [p["rank"] for p in players] == [1, 2]
    assert reasons == ["Ben ahead of Emily: both 56 points, shop tiles 5 vs 4"]


def test_first_tiebreaker_is_higher_city():
    players = [
        {"name": "A", "final": 50, "higher": 55, "building_counts": dict.fromkeys("sfto", 0)},
        {"name": "B", "final": 50, "higher": 58, "building_counts": dict.fromkeys("sfto", 0)},
    ]
    reasons = rank_players(players, two_player=False)
    assert players[0]["name"] == "B"
    assert "higher city score 58 vs 55" in reasons[0]


def test_full_tie_is_shared_victory():
    result = score_table(Table((MIXED, MIXED, MIXED), ("Ann", "Ben", "Cy")))
    assert result["winner"] == ["Ann", "Ben", "Cy"]
    assert all(p["rank"] == 1 for p in result["players"])
    assert "stay tied" in result["tiebreaks"][0]


def test_two_player_variant_sums_own_cities():
    result = score_table(Table((SHOPS, HOUSES, PARKS, PARKS), ("Ann", "Ben")))
    by_name = {p["name"]: p for p in result["players"]}
    assert result["variant"] == "two-player"
    assert by_name["Ann"]["cities"] == [1, 2] and by_name["Ann"]["final"] == 64
    assert by_name["Ben"]["final"] == 50
    assert result["winner"] == ["Ann"]


def test_two_player_ties_go_straight_to_building_counts():
    one_shop = city("S H H H / H H H H / H H H H / H H H H")  # 2 + 15 = 17
    one_park = city("P H H H / H H H H / H H H H / H H H H")  # 2 + 15 = 17
    result = score_table(Table((one_shop, one_park, one_park, one_park), ("Ann", "Ben")))
    assert [p["final"] for p in result["players"]] == [34, 34]
    assert result["winner"] == ["Ann"]
    assert result["tiebreaks"] == ["Ann ahead of Ben: both 34 points, shop tiles 1 vs 0"]


@pytest.mark.parametrize(
    "level, modifier", [(1, -6), (2, -4), (3, -2), (4, 0), (5, 2), (6, 4), (7, 6)]
)
def test_solo_difficulty_table(level, modifier):
    result = score_table(Table((MIXED, PARKS, SHOPS), ("Me",), difficulty=level))
    automaville = result["cities"][1]
    assert automaville["builders"] == ["Automartin", "Automanon"]
    by_name = {p["name"]: p for p in result["players"]}
    expected = min(25 + modifier, MIXED_TOTAL)
    assert by_name["Automartin"]["final"] == expected
    assert result["variant"] == "solo" and result["difficulty"] == level


MIXED_TOTAL = score_table(Table((MIXED,)))["cities"][0]["scores"]["total"]


@pytest.mark.parametrize(
    "cities, players, difficulty, message",
    [
        ((MIXED, MIXED), ("A", "B", "C"), 4, "3 players build 3 cities, but 2 cities were given"),
        ((MIXED,) * 3, ("A",), 9, "difficulty level is 1 to 7"),
        ((MIXED,) * 3, ("A", "A", "B"), 4, "must be different"),
        ((MIXED,) * 8, tuple("ABCDEFGH"), 4, "at most 7"),
        ((), (), 4, "at least one city"),
        ((MIXED,), ("A",), 4, "1 player builds 3 cities, but 1 city was given"),
        ((MIXED,) * 3, ("Ann", " ann ", "Ben"), 4, "must be different"),
        ((MIXED,) * 3, ("Ann", "", "Ben"), 4, "name is empty"),
        ((MIXED,) * 3, ("Automartin",), 4, "Automartin is a solo opponent's name"),
        ((MIXED,) * 3, ("AUTOMANON",), 4, "AUTOMANON is a solo opponent's name"),
    ],
    ids=["too-few-cities", "bad-difficulty", "same-names", "eight-players", "empty",
         "one-city-for-solo", "same-but-case-and-spaces", "empty-name", "automartin", "automanon"],
)
def test_bad_tables(cities, players, difficulty, message):
    with pytest.raises(TableError, match=message):
        Table(cities, players, difficulty)


def test_automas_names_are_fine_at_a_table_without_automas():
    result = score_table(Table((MIXED,) * 3, ("Automartin", "Ben", "Cy")))
    assert {p["name"] for p in result["players"]} == {"Automartin", "Ben", "Cy"}


DRINKS = city("Td Td Td Td / Td Td Td Td / S H S S / S S S Tb")  # 8 tavern-drink: the game has 7
BUILT_SHOPS = city("S S S S / S S S S / S S S S / S H O S")  # 14 shops, two duplexes that fit


def test_city_beyond_the_games_supply_is_scored_with_a_warning():
    result = score_table(Table((DRINKS,)))
    assert result["cities"][0]["scores"]["total"] > 0
    assert result["cities"][0]["warnings"] == [
        "8 tavern-drink buildings in this city, but the game has only 7"]
    assert result["warnings"] == []  # said once, on the city


def test_cities_beyond_the_games_supply_together_are_warned_about():
    result = score_table(Table((BUILT_SHOPS, BUILT_SHOPS, MIXED), ("Ann", "Ben", "Cy")))
    assert result["warnings"] == [
        "32 shop buildings in these cities together, but the game has only 24"]
    assert all(c["warnings"] == [] for c in result["cities"])


def test_supply_is_the_rulebooks():
    from scorer.city import GAME_SUPPLY

    # Rulebook: 108 building tiles and 24 duplex tiles (48 halves); 7 of each tavern kind.
    assert sum(GAME_SUPPLY.values()) == 108 + 2 * 24
    assert [GAME_SUPPLY[k] for k in ("tavern-drink", "tavern-food", "tavern-music", "tavern-bed")] == [7] * 4


def test_a_city_being_typed_in_scores_its_tiles_as_they_lie():
    from scorer.city import PartialCity
    from scorer.table import running_scores

    rows = [["shop", "shop", None, None], [None, "house", "park", "park"],
            [None, "factory", None, None], [None] * 4]
    (running,) = running_scores([], [PartialCity.from_rows(rows)])
    scores = running["scores"]
    assert running["tiles"] == 6
    assert scores["shops"] == 5 and scores["parks"] == 8  # a line of two, a group of two
    assert scores["houses"] == 1  # next to a factory: 1 point
    assert scores["factories"] == 4  # the only factories at the table so far: the most
    assert scores["total"] == 5 + 8 + 1 + 4
    full = city("F F F F / F F F F / F F F F / F F F F")
    (running,) = running_scores([full], [PartialCity.from_rows(rows)])
    assert running["scores"]["factories"] == 3  # second most, behind the finished city


def test_an_empty_city_being_typed_scores_nothing():
    from scorer.city import PartialCity
    from scorer.table import running_scores

    (running,) = running_scores([], [PartialCity.from_rows([[None] * 4] * 4)])
    assert running == {"scores": {k: 0 for k in running["scores"]}, "tiles": 0}


NO_DUPLEXES = ("no two of the game's duplex tiles fit in this city, but every city has two: "
               "a cell may be wrong")


def test_a_city_where_two_duplex_tiles_cannot_lie_is_warned_about():
    from scorer.table import supply_warnings

    assert supply_warnings(MIXED) == []
    assert supply_warnings(HOUSES) == [NO_DUPLEXES]  # no duplex tile is two houses
    # House-park, park-factory and park-over-house all fit, but every one needs the park at the top.
    assert supply_warnings(city("H P F H / H H H H / H H H H / H H H H")) == [NO_DUPLEXES]


def test_a_city_still_being_typed_is_not_warned_about_its_duplexes():
    from scorer.city import PartialCity
    from scorer.table import supply_warnings

    rows = [["house"] * 4 for _ in range(4)]
    rows[3][3] = None
    assert supply_warnings(PartialCity.from_rows(rows)) == []
    rows[3][3] = "house"
    assert supply_warnings(PartialCity.from_rows(rows)) == [NO_DUPLEXES]
