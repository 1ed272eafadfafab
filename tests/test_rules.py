"""Every worked example of the rulebook's SCORING section, as tables."""

import pytest
from helpers import city

from scorer import rules
from scorer.table import score_cities

FILL = "H"  # neutral filler for examples that only look at one category


@pytest.mark.parametrize(
    "grid, points",
    [
        # The rulebook's cross: a row of four (16), a column of two (5) and a single shop (2).
        ("S S S S / S H P O / S F Td P / O P H S", 23),
        ("S H H H / H H H H / H H H H / H H H H", 2),
        ("S S H H / H H H H / H H H H / H H H H", 5),
        ("S H H H / S H H H / S H H H / H H H H", 10),
        ("S S S S / S S S S / S S S S / S S S S", 64),
        # An L: best is 3 in a line + 1 single = 12 (not 2 + 2 + ... nor 5 + 5 = 10).
        ("S S S H / S H H H / H H H H / H H H H", 12),
        # Diagonal shops are not connected.
        ("S H H H / H S H H / H H S H / H H H S", 8),
    ],
    ids=["rulebook-cross-23", "single", "pair", "column-3", "all-16", "L-shape", "diagonal"],
)
def test_shops(grid, points):
    assert rules.score_shops(city(grid))[0] == points


def test_shop_explanation_lists_each_set():
    _, why = rules.score_shops(city("S S S S / S H P O / S F Td P / O P H S"))
    sets = sorted((s["points"], s["cells"]) for s in why["sets"])
    assert sets == [(2, [[3, 3]]), (5, [[1, 0], [2, 0]]), (16, [[0, 0], [0, 1], [0, 2], [0, 3]])]


def test_factory_example_cities_a_to_f():
    # A and B five factories, C three, D two, E one, F none.
    counts = [5, 5, 3, 2, 1, 0]
    ranks = rules.factory_ranks(counts)
    assert ranks == [1, 1, 2, 3, 3, 0]
    per_tile = [rules.FACTORY_RANK_POINTS.get(r, 0) for r in ranks]
    assert [n * p for n, p in zip(counts, per_tile, strict=True)] == [20, 20, 9, 4, 2, 0]


@pytest.mark.parametrize(
    "counts, ranks",
    [([0, 0, 0], [0, 0, 0]), ([3], [1]), ([2, 2], [1, 1]), ([4, 1, 1, 0], [1, 2, 2, 0])],
    ids=["none", "alone", "tied-most", "tied-second"],
)
def test_factory_ranks(counts, ranks):
    assert rules.factory_ranks(counts) == ranks


@pytest.mark.parametrize(
    "grid, points",
    [
        # One music, two drink, two food: 9 (music+drink+food) + 4 (drink+food) = 13.
        ("Tm Td Td Tf / Tf H H H / H H H H / H H H H", 13),
        ("Td H H H / H H H H / H H H H / H H H H", 1),
        ("Td Tf H H / H H H H / H H H H / H H H H", 4),
        ("Td Tf Tm H / H H H H / H H H H / H H H H", 9),
        ("Td Tf Tm Tb / H H H H / H H H H / H H H H", 17),
        ("Td Td H H / H H H H / H H H H / H H H H", 2),
    ],
    ids=["rulebook-13", "one", "two-kinds", "three-kinds", "four-kinds", "two-same"],
)
def test_taverns(grid, points):
    assert rules.score_taverns(city(grid))[0] == points


@pytest.mark.parametrize(
    "grid, points, bonus",
    [
        # Seven offices: 21 for the first six, the seventh starts a new set: 22.
        ("O O O O / O O O H / H H H H / H H H H", 22, 0),
        ("O Td H H / H H H H / H H H H / H H H H", 2, 1),  # one office next to a tavern
        ("Td Tf H H / O Tm H H / Tb H H H / H H H H", 2, 1),  # still 2 with several taverns
        ("O Td O H / H H H H / H H H H / H H H H", 5, 2),  # one tavern gives both a bonus
        ("O O O O / O O O O / O O O O / H H H H", 21 + 21, 0),
    ],
    ids=["seven-offices-22", "next-to-tavern", "next-to-four-taverns", "shared-tavern", "twelve"],
)
def test_offices(grid, points, bonus):
    score, why = rules.score_offices(city(grid))
    assert (score, len(why["next_to_tavern"])) == (points, bonus)


@pytest.mark.parametrize(
    "grid, points",
    [
        ("P H P H / H H H H / P H P H / H H H H", 8),  # four separate parks
        ("P P P H / H H H H / H H H P / H H H H", 14),  # three adjacent and one separate
        ("P P P P / H H H H / H H H H / H H H H", 13),  # four adjacent
        ("P P H H / H H H H / H H P P / H H H H", 16),  # two groups of two
        ("P P H H / H P H H / H P P H / H H H H", 14),  # five bent: 12 + 2
    ],
    ids=["four-separate-8", "three-and-one-14", "four-adjacent-13", "two-pairs-16", "bent-five"],
)
def test_parks(grid, points):
    assert rules.score_parks(city(grid))[0] == points


@pytest.mark.parametrize(
    "grid, points",
    [
        ("H S S S / S S S S / S S S S / S S S S", 1),  # one other type: house worth 1
        # Five other types, taverns count once: each house worth 5.
        ("H S O P / Td Tf H O / P S O H / F O S O", 15),
        ("H F S O / P Td H S / S S S S / S S S S", 1 + 5),  # one capped by the factory
        ("H H H H / H H H H / H H H H / H H H H", 0),  # no other type: nothing
    ],
    ids=["one-type", "five-types-taverns-once", "capped-by-factory", "only-houses"],
)
def test_houses(grid, points):
    assert rules.score_houses(city(grid))[0] == points


def test_house_explanation_names_capped_house():
    _, why = rules.score_houses(city("H F S O / P Td H S / S S S S / S S S S"))
    assert why["next_to_factory"] == [[0, 0]]
    assert why["other_types"] == ["factory", "office", "park", "shop", "tavern"]


def test_city_scoring_example_52_points():
    # The rulebook's first city example: 5 shops, 20 factories (most), 2 taverns (same kind),
    # 0 offices, 16 parks (8 + 8), 9 houses (4 + 4 + 1, one next to a factory).
    cities = [
        city("F F F F / F H S S / P P H Td / H Td P P"),
        city("F F H H / H H H H / H H H H / S S S S"),
    ]
    scores = score_cities(cities)[0]["scores"]
    assert scores == {"shops": 5, "factories": 20, "taverns": 2, "offices": 0, "parks": 16,
                      "houses": 9, "total": 52}


def test_park_group_points_grow_by_one_after_three():
    assert [rules.park_group_points(n) for n in range(1, 8)] == [2, 8, 12, 13, 14, 15, 16]
