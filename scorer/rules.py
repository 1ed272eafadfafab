"""Scoring of one city, category by category, each score with the reason behind it.

Rules from the English rulebook (section SCORING). Every ``score_*`` function returns
``(points, explanation)``; the explanation is plain data (lists of ``[row, col]`` cells)
that the CLI prints and the web page draws on the photo.

Shops: the rulebook only says that where lines of shops cross, each tile counts in one
set. We score the partition of the shop tiles into straight, contiguous sets of 1-4 that
gives the most points, which is what players do at the table.

Automaville from tile counts (the solo game's beginner mode, :class:`SortedCity`): see
:func:`score_sorted_city`, which scores each category "maximally" with the same point
tables as a laid-out city.
"""

from __future__ import annotations

from functools import cache

from .city import SIZE, TAVERN_KINDS, Cell, City, SortedCity, building_type, neighbours

SHOP_SET_POINTS = {1: 2, 2: 5, 3: 10, 4: 16}
FACTORY_RANK_POINTS = {1: 4, 2: 3, 3: 2}
TAVERN_SET_POINTS = {0: 0, 1: 1, 2: 4, 3: 9, 4: 17}
OFFICE_SET_SIZE = 6
CATEGORIES = ("shops", "factories", "taverns", "offices", "parks", "houses")


def _cells_json(cells) -> list[list[int]]:
    return [[r, c] for r, c in sorted(cells)]


# --- shops -------------------------------------------------------------------------------


def _segments_from(first: int, mask: int) -> list[tuple[int, ...]]:
    """Straight sets of shops (as cell indices) that start at ``first`` and lie in ``mask``.

    ``first`` is the lowest index in ``mask``, so any set holding it starts there.
    """
    row, col = divmod(first, SIZE)
    segments = [(first,)]
    for step, room in ((1, SIZE - col), (SIZE, SIZE - row)):
        cells = [first]
        for k in range(1, room):
            nxt = first + k * step
            if not mask >> nxt & 1:
                break
            cells.append(nxt)
            segments.append(tuple(cells))
    return segments


@cache
def _best_shop_sets(mask: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The best partition of the shop cells in ``mask`` (bit ``4*row+col``)."""
    if mask == 0:
        return 0, ()
    first = (mask & -mask).bit_length() - 1
    best: tuple[int, tuple[tuple[int, ...], ...]] = (-1, ())
    for segment in _segments_from(first, mask):
        rest = mask
        for i in segment:
            rest &= ~(1 << i)
        points, sets = _best_shop_sets(rest)
        points += SHOP_SET_POINTS[len(segment)]
        if points > best[0]:
            best = (points, (segment, *sets))
    return best


def score_shops(city: City) -> tuple[int, dict]:
    """2/5/10/16 per straight contiguous set of 1-4 shops; crossing lines use the best split."""
    mask = sum(1 << (r * SIZE + c) for r, c in city.cells_of("shop"))
    points, sets = _best_shop_sets(mask)
    explained = [
        {"cells": _cells_json(divmod(i, SIZE) for i in s), "points": SHOP_SET_POINTS[len(s)]}
        for s in sets
    ]
    return points, {"sets": explained}


# --- factories ---------------------------------------------------------------------------


def factory_ranks(counts: list[int]) -> list[int]:
    """Rank of each city by factory count: 1 most, 2 next distinct count, 3 the rest; 0 none.

    counts : factory tiles per city, for every city at the table.
    """
    distinct = sorted({n for n in counts if n > 0}, reverse=True)
    return [0 if n == 0 else min(distinct.index(n) + 1, 3) for n in counts]


def factory_points(count: int, rank: int) -> tuple[int, dict]:
    """``count`` factories of a city ranked ``rank`` at the table: 4/3/2 each."""
    per_tile = FACTORY_RANK_POINTS.get(rank, 0) if count else 0
    return count * per_tile, {"count": count, "rank": rank, "per_tile": per_tile}


def score_factories(city: City, rank: int) -> tuple[int, dict]:
    """4/3/2 per factory for the city with the most, the next most, and all others."""
    return factory_points(len(city.cells_of("factory")), rank)


# --- taverns -----------------------------------------------------------------------------


def tavern_points(kinds: dict[str, int]) -> tuple[int, dict]:
    """Taverns by kind (kind -> how many) in sets of distinct kinds, each set as large as
    the remaining kinds allow: the best grouping, since 1/4/9/17 grows faster than the
    set (two sets of 2 are 8 points, a set of 3 and a set of 1 are 10)."""
    remaining = {kind: kinds.get(kind, 0) for kind in TAVERN_KINDS}
    sets = []
    while any(remaining.values()):
        kinds = [k for k in TAVERN_KINDS if remaining[k]]
        for k in kinds:
            remaining[k] -= 1
        sets.append({"kinds": kinds, "points": TAVERN_SET_POINTS[len(kinds)]})
    return sum(s["points"] for s in sets), {"sets": sets}


def score_taverns(city: City) -> tuple[int, dict]:
    """1/4/9/17 per set of distinct tavern kinds; a duplicate kind starts a new set."""
    kinds = [city[cell] for cell in city.cells_of("tavern")]
    return tavern_points({kind: kinds.count(kind) for kind in TAVERN_KINDS})


# --- offices -----------------------------------------------------------------------------


def office_sets(count: int) -> list[dict]:
    """``count`` offices in sets of six and one smaller set: 1/3/6/10/15/21 each."""
    sizes = [OFFICE_SET_SIZE] * (count // OFFICE_SET_SIZE)
    if count % OFFICE_SET_SIZE:
        sizes.append(count % OFFICE_SET_SIZE)
    return [{"size": n, "points": n * (n + 1) // 2} for n in sizes]


def score_offices(city: City) -> tuple[int, dict]:
    """1/3/6/10/15/21 per set of up to six offices, +1 per office next to a tavern."""
    offices = city.cells_of("office")
    sets = office_sets(len(offices))
    bonus = [c for c in offices if any(building_type(city[n]) == "tavern" for n in neighbours(c))]
    explanation = {"sets": sets, "next_to_tavern": _cells_json(bonus)}
    return sum(s["points"] for s in sets) + len(bonus), explanation


# --- parks -------------------------------------------------------------------------------


def park_group_points(size: int) -> int:
    """2/8/12 for a group of 1/2/3 parks, then +1 per further park."""
    return {1: 2, 2: 8}.get(size, 12 + size - 3)


def _groups(city: City, cells: list[Cell]) -> list[list[Cell]]:
    """Orthogonally connected groups among ``cells``."""
    unseen, groups = set(cells), []
    while unseen:
        stack = [unseen.pop()]
        group = []
        while stack:
            cell = stack.pop()
            group.append(cell)
            for n in neighbours(cell):
                if n in unseen:
                    unseen.remove(n)
                    stack.append(n)
        groups.append(sorted(group))
    return sorted(groups)


def score_parks(city: City) -> tuple[int, dict]:
    """Each orthogonally connected group of parks: 2/8/12/13/14..."""
    groups = [
        {"cells": _cells_json(g), "points": park_group_points(len(g))}
        for g in _groups(city, city.cells_of("park"))
    ]
    return sum(g["points"] for g in groups), {"groups": groups}


# --- houses ------------------------------------------------------------------------------


def other_types(type_counts: dict[str, int]) -> list[str]:
    """The building types other than houses that a city holds (taverns are one type)."""
    return sorted(t for t, n in type_counts.items() if n and t != "house")


def score_houses(city: City) -> tuple[int, dict]:
    """1 per other building type in the city (taverns count once); 1 if next to a factory."""
    others = other_types(city.type_counts())
    houses = city.cells_of("house")
    capped = [c for c in houses if any(city[n] == "factory" for n in neighbours(c))]
    points = len(capped) + (len(houses) - len(capped)) * len(others)
    explanation = {
        "cells": _cells_json(houses),
        "other_types": others,
        "per_house": len(others),
        "next_to_factory": _cells_json(capped),
    }
    return points, explanation


# --- a whole city ------------------------------------------------------------------------


def score_city(city: City, factory_rank: int) -> tuple[dict[str, int], dict[str, dict]]:
    """All six categories and the total, with explanations, in reference-card order.

    factory_rank : this city's rank from :func:`factory_ranks` over the whole table.
    """
    results = {
        "shops": score_shops(city),
        "factories": score_factories(city, factory_rank),
        "taverns": score_taverns(city),
        "offices": score_offices(city),
        "parks": score_parks(city),
        "houses": score_houses(city),
    }
    scores = {name: points for name, (points, _) in results.items()}
    scores["total"] = sum(scores.values())
    return scores, {name: why for name, (_, why) in results.items()}


# --- Automaville from tile counts (solo game, beginner mode) -------------------------------
#
# In the solo game's beginner mode Automaville's tiles are sorted by type, not laid out
# (French rulebook, MODE DÉBUTANT: "AUTOMAVILLE : Triez les tuiles comme indiqué dans le
# paragraphe « Automaville » page 1"; that paragraph is not in our copy). The English
# solitaire rules by Morten Monrad Pedersen (designer) and David Studley ("Solitaire rules
# for Between Two Cities", the city there called Automacity; read at
# https://64ozgames.com/pages/between-two-cities-solo and
# https://www.scribd.com/document/406048316/between-2-cities-automa-rules) say its tiles are
# scored "maximally":
#   shops as if optimally placed (their example: 6 shops = 16 + 5 = 21);
#   houses as if none is next to a factory;
#   every office gets the +1 bonus if the city has at least one tavern;
#   taverns in the optimal sets (drink, music and 2 food = 9 + 1 = 10, not 4 + 4 = 8);
#   parks as if laid in separate pairs, so the Automas may score less than they could
#   (3 parks = 10, not 12).
# The text we could read breaks off at the next point (factories); the rules say that what
# they do not change is played as in a 3-player game, so factories are ranked across the
# three cities as usual. Every example is a test in tests/test_automaville.py.


@cache
def _best_shop_sizes(count: int) -> tuple[int, ...]:
    """Sizes of the straight sets (1-4 shops) that score ``count`` shops best."""
    if count == 0:
        return ()
    return max(((k, *_best_shop_sizes(count - k)) for k in range(1, min(4, count) + 1)),
               key=lambda sizes: sum(SHOP_SET_POINTS[n] for n in sizes))


def score_shops_maximally(count: int) -> tuple[int, dict]:
    """Shops as if optimally placed: the best split into sets of 1-4 (6 shops: 16 + 5)."""
    sizes = sorted(_best_shop_sizes(count), reverse=True)
    sets = [{"size": n, "points": SHOP_SET_POINTS[n]} for n in sizes]
    return sum(s["points"] for s in sets), {"count": count, "sets": sets}


def score_offices_maximally(count: int, taverns: int) -> tuple[int, dict]:
    """Office sets as usual, and +1 for every office if the city has a tavern at all."""
    sets = office_sets(count)
    bonus = count if taverns else 0
    return sum(s["points"] for s in sets) + bonus, {"count": count, "sets": sets,
                                                   "tavern_bonus": bonus}


def score_parks_maximally(count: int) -> tuple[int, dict]:
    """Parks as separate pairs (8 each), an odd one alone (2): 3 parks are 8 + 2 = 10."""
    groups = [{"size": 2, "points": park_group_points(2)}] * (count // 2)
    if count % 2:
        groups = [*groups, {"size": 1, "points": park_group_points(1)}]
    return sum(g["points"] for g in groups), {"count": count, "groups": groups}


def score_houses_maximally(type_counts: dict[str, int]) -> tuple[int, dict]:
    """Every house as if no factory were next to it: 1 per other building type."""
    others = other_types(type_counts)
    count = type_counts["house"]
    return count * len(others), {"count": count, "other_types": others,
                                 "per_house": len(others)}


def score_sorted_city(city: SortedCity, factory_rank: int) -> tuple[dict[str, int], dict]:
    """Automaville from its tile counts, every category scored "maximally" (see above);
    the same ``(scores, explanations)`` as :func:`score_city`."""
    types = city.type_counts()
    results = {
        "shops": score_shops_maximally(types["shop"]),
        "factories": factory_points(types["factory"], factory_rank),
        "taverns": tavern_points({kind: city.count(kind) for kind in TAVERN_KINDS}),
        "offices": score_offices_maximally(types["office"], types["tavern"]),
        "parks": score_parks_maximally(types["park"]),
        "houses": score_houses_maximally(types),
    }
    scores = {name: points for name, (points, _) in results.items()}
    scores["total"] = sum(scores.values())
    return scores, {name: why for name, (_, why) in results.items()}
