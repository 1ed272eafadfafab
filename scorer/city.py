"""A finished city: a 4x4 grid of buildings, in the game's words.

Standard library only: the rules engine never imports image code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SIZE = 4

TAVERN_KINDS = ("tavern-drink", "tavern-food", "tavern-music", "tavern-bed")
BUILDINGS = ("shop", "factory", *TAVERN_KINDS, "office", "park", "house")

# Building types in reference-card order (the order of scoring and of the tiebreaker).
TYPES = ("shop", "factory", "tavern", "office", "park", "house")

# How many of each building the game contains: singles plus duplex halves.
GAME_SUPPLY = {
    "shop": 24,
    "factory": 24,
    "office": 28,
    "park": 24,
    "house": 28,
    **{kind: 7 for kind in TAVERN_KINDS},
}

Cell = tuple[int, int]  # (row, column), row 0 at the top


def building_type(building: str) -> str:
    """The type of a building: every tavern kind is the one type 'tavern'."""
    return "tavern" if building.startswith("tavern-") else building


@dataclass(frozen=True)
class City:
    """An upright 4x4 city; ``grid[row][col]`` is a building token from BUILDINGS."""

    grid: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if len(self.grid) != SIZE or any(len(row) != SIZE for row in self.grid):
            raise ValueError(f"a city is {SIZE}x{SIZE} cells")
        unknown = {b for row in self.grid for b in row} - set(BUILDINGS)
        if unknown:
            raise ValueError(f"unknown building(s): {', '.join(sorted(unknown))}")

    @classmethod
    def from_rows(cls, rows) -> City:
        """Build a city from any nested sequence of 4 rows of 4 tokens."""
        return cls(tuple(tuple(row) for row in rows))

    def __getitem__(self, cell: Cell) -> str:
        row, col = cell
        return self.grid[row][col]

    def cells(self) -> Iterator[Cell]:
        """All cells in row-major order."""
        for row in range(SIZE):
            for col in range(SIZE):
                yield (row, col)

    def cells_of(self, building_type_name: str) -> list[Cell]:
        """Cells whose building is of the given type ('tavern' matches all four kinds)."""
        return [c for c in self.cells() if building_type(self[c]) == building_type_name]

    def type_counts(self) -> dict[str, int]:
        """Number of buildings of each type, in reference-card order."""
        counts = Counter(building_type(self[c]) for c in self.cells())
        return {t: counts.get(t, 0) for t in TYPES}

    def rows(self) -> list[list[str]]:
        """The grid as a list of lists (for JSON)."""
        return [list(row) for row in self.grid]


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The orthogonally adjacent cells inside the grid."""
    row, col = cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            yield (r, c)


def beyond_supply(cities: Iterable[City]) -> dict[str, int]:
    """Buildings these cities hold more of than the game contains: building -> how many."""
    counts = Counter(city[cell] for city in cities for cell in city.cells())
    return {b: counts[b] for b in BUILDINGS if counts[b] > GAME_SUPPLY[b]}
