"""The game's 24 duplex tiles: two buildings printed on one rectangle.

Every tile faces the same way, so a horizontal duplex always spans two cells of a row
(``first`` on the left) and a vertical one two cells of a column (``first`` on top).
"""

from __future__ import annotations

from itertools import combinations

from .city import SIZE, Cell, City

DUPLEX_TILES: tuple[tuple[str, str, str], ...] = (
    ("vertical", "factory", "tavern-food"),
    ("vertical", "factory", "office"),
    ("vertical", "house", "office"),
    ("vertical", "house", "shop"),
    ("vertical", "office", "park"),
    ("vertical", "office", "shop"),
    ("vertical", "tavern-drink", "house"),
    ("vertical", "park", "factory"),
    ("vertical", "park", "house"),
    ("vertical", "tavern-music", "park"),
    ("vertical", "shop", "factory"),
    ("vertical", "shop", "tavern-bed"),
    ("horizontal", "tavern-food", "factory"),
    ("horizontal", "factory", "office"),
    ("horizontal", "factory", "shop"),
    ("horizontal", "house", "park"),
    ("horizontal", "house", "tavern-bed"),
    ("horizontal", "office", "house"),
    ("horizontal", "office", "shop"),
    ("horizontal", "tavern-drink", "park"),
    ("horizontal", "park", "factory"),
    ("horizontal", "park", "office"),
    ("horizontal", "shop", "tavern-music"),
    ("horizontal", "shop", "house"),
)


def domino_cells(layout: str) -> list[tuple[Cell, Cell]]:
    """Every pair of cells a duplex tile of this layout can cover, first cell first."""
    if layout == "horizontal":
        return [((r, c), (r, c + 1)) for r in range(SIZE) for c in range(SIZE - 1)]
    return [((r, c), (r + 1, c)) for r in range(SIZE - 1) for c in range(SIZE)]


def duplex_places(city: City) -> list[tuple[int, tuple[Cell, Cell]]]:
    """Where each of the game's duplex tiles could lie in this city: (tile, its two cells)."""
    return [(tile, cells) for tile, (layout, first, second) in enumerate(DUPLEX_TILES)
            for cells in domino_cells(layout)
            if (city[cells[0]], city[cells[1]]) == (first, second)]


def holds_two_duplexes(city: City) -> bool:
    """Whether two different duplex tiles of the game fit the city without overlapping.

    Every finished city has two, so a typed city where none fit has a slip in it.
    """
    places = duplex_places(city)
    return any(a != b and not set(cells_a) & set(cells_b)
               for (a, cells_a), (b, cells_b) in combinations(places, 2))
