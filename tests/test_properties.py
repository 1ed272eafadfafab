"""Property tests: symmetry of city scores, shops vs. brute force, factories vs. multisets."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import rules
from scorer.city import BUILDINGS, SIZE, City

grids = st.lists(st.sampled_from(BUILDINGS), min_size=16, max_size=16).map(
    lambda cells: City.from_rows([cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)])
)


def rotate(city: City) -> City:
    return City.from_rows(zip(*city.grid[::-1], strict=True))


def reflect(city: City) -> City:
    return City.from_rows(row[::-1] for row in city.grid)


@given(grids, st.integers(0, 3))
def test_city_score_is_invariant_under_rotation_and_reflection(city, rank):
    expected = rules.score_city(city, rank)[0]
    turned = city
    for _ in range(4):
        turned = rotate(turned)
        assert rules.score_city(turned, rank)[0] == expected
        assert rules.score_city(reflect(turned), rank)[0] == expected


def _is_straight_set(cells: list[tuple[int, int]]) -> bool:
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if len(rows) == 1:
        span = sorted(cols)
    elif len(cols) == 1:
        span = sorted(rows)
    else:
        return False
    return span == list(range(span[0], span[0] + len(span))) and len(span) <= 4


def _partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        for i in range(len(partition)):
            yield partition[:i] + [[first, *partition[i]]] + partition[i + 1:]
        yield [[first], *partition]


def brute_force_shops(shops: list[tuple[int, int]]) -> int:
    """Best score over every partition of the shop tiles into straight contiguous sets."""
    return max(
        sum(rules.SHOP_SET_POINTS[len(block)] for block in partition)
        for partition in _partitions(shops)
        if all(_is_straight_set(block) for block in partition)
    )


@settings(max_examples=150, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=8))
def test_shops_equal_brute_force_maximum(shops):
    rows = [["house"] * SIZE for _ in range(SIZE)]
    for r, c in shops:
        rows[r][c] = "shop"
    assert rules.score_shops(City.from_rows(rows))[0] == brute_force_shops(sorted(shops))


@given(st.lists(st.integers(0, 16), min_size=1, max_size=7), st.randoms())
def test_factory_points_depend_only_on_the_multiset(counts, rnd: random.Random):
    ranks = dict(zip(counts, rules.factory_ranks(counts), strict=True))
    shuffled = counts[:]
    rnd.shuffle(shuffled)
    assert [ranks[n] for n in shuffled] == rules.factory_ranks(shuffled)


@given(grids, st.integers(0, 3))
def test_totals_are_never_negative(city, rank):
    scores = rules.score_city(city, rank)[0]
    assert all(points >= 0 for points in scores.values())
    assert scores["total"] == sum(v for k, v in scores.items() if k != "total")
