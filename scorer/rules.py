"""Scoring of one city, category by category, each score with the reason behind it.

Rules from the English rulebook (section SCORING). Every ``score_*`` function returns
``(points, explanation)``; the explanation is plain data (lists of ``[row, col]`` cells)
that the CLI prints and the web page draws on the photo.

Shops: the rulebook only says that where lines of shops cross, each tile counts in one
set. We score the partition of the shop tiles into straight, contiguous sets of 1-4 that
gives the most points, which is what players do at the table.
"""

from __future__ import annotations

from functools import cache

from .city import SIZE, TAVERN_KINDS, Cell, City, building_type, neighbours

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


def score_factories(city: City, rank: int) -> tuple[int, dict]:
    """4/3/2 per factory for the city with the most, the next most, and all others."""
    count = len(city.cells_of("factory"))
    per_tile = FACTORY_RANK_POINTS.get(rank, 0) if count else 0
    return count * per_tile, {"count": count, "rank": rank, "per_tile": per_tile}


# --- taverns -----------------------------------------------------------------------------


def score_taverns(city: City) -> tuple[int, dict]:
    """1/4/9/17 per set of distinct tavern kinds; a duplicate kind starts a new set."""
    remaining = {kind: 0 for kind in TAVERN_KINDS}
    for cell in city.cells_of("tavern"):
        remaining[city[cell]] += 1
    sets = []
    while any(remaining.values()):
        kinds = [k for k in TAVERN_KINDS if remaining[k]]
        for k in kinds:
            remaining[k] -= 1
        sets.append({"kinds": kinds, "points": TAVERN_SET_POINTS[len(kinds)]})
    return sum(s["points"] for s in sets), {"sets": sets}


# --- offices -----------------------------------------------------------------------------


def score_offices(city: City) -> tuple[int, dict]:
    """1/3/6/10/15/21 per set of up to six offices, +1 per office next to a tavern."""
    offices = city.cells_of("office")
    sizes = [OFFICE_SET_SIZE] * (len(offices) // OFFICE_SET_SIZE)
    if len(offices) % OFFICE_SET_SIZE:
        sizes.append(len(offices) % OFFICE_SET_SIZE)
    set_points = [n * (n + 1) // 2 for n in sizes]
    bonus = [c for c in offices if any(building_type(city[n]) == "tavern" for n in neighbours(c))]
    explanation = {
        "sets": [{"size": n, "points": p} for n, p in zip(sizes, set_points, strict=True)],
        "next_to_tavern": _cells_json(bonus),
    }
    return sum(set_points) + len(bonus), explanation


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


def score_houses(city: City) -> tuple[int, dict]:
    """1 per other building type in the city (taverns count once); 1 if next to a factory."""
    others = sorted(t for t, n in city.type_counts().items() if n and t != "house")
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
