"""A finished city: a 4x4 grid of buildings, in the game's words; and Automaville's tiles
sorted by type (the solo game's beginner mode), which are counted, not laid out.

Standard library only: the rules engine never imports image code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .errors import TableError

SIZE = 4
TILES = SIZE * SIZE  # buildings in a finished city

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


def building_type(building: str | None) -> str | None:
    """The type of a building: every tavern kind is the one type 'tavern' (None: no tile)."""
    return "tavern" if building and building.startswith("tavern-") else building


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

    def building_counts(self) -> dict[str, int]:
        """Number of each building, in BUILDINGS order."""
        counts = Counter(self[c] for c in self.cells())
        return {b: counts.get(b, 0) for b in BUILDINGS}

    def rows(self) -> list[list[str]]:
        """The grid as a list of lists (for JSON)."""
        return [list(row) for row in self.grid]


@dataclass(frozen=True)
class PartialCity(City):
    """A city being typed in: ``None`` where no tile is chosen yet.

    It is scored as it lies, the empty cells scoring nothing and counting as no type: the
    running score a player sees while typing a city in.
    """

    def __post_init__(self) -> None:
        if len(self.grid) != SIZE or any(len(row) != SIZE for row in self.grid):
            raise ValueError(f"a city is {SIZE}x{SIZE} cells")
        unknown = {b for row in self.grid for b in row if b is not None} - set(BUILDINGS)
        if unknown:
            raise ValueError(f"unknown building(s): {', '.join(sorted(unknown))}")

    @property
    def tiles(self) -> int:
        """How many cells hold a tile."""
        return sum(b is not None for row in self.grid for b in row)


def _count(n: int) -> str:
    """A count as a message shows it: a number of thousands of digits is not echoed whole."""
    shown = str(n)
    return shown if len(shown) <= 12 else f"{shown[:6]}... ({len(shown)} digits)"


@dataclass(frozen=True)
class SortedCity:
    """Automaville in the solo game's beginner mode: its tiles are sorted by type, not laid
    out in a 4x4 square (French rulebook, MODE DÉBUTANT: "AUTOMAVILLE : Triez les tuiles";
    the English solitaire rules: "laid down in rows by type"). Only how many of each building
    it holds is known, and it is scored "maximally" (see ``rules.score_sorted_city``).

    ``counts[i]`` is the number of ``BUILDINGS[i]``. :meth:`from_counts` builds one from a
    mapping and refuses, with a message for the player (TableError), what the game cannot
    have: a count that is not a whole number from 0, more of a building than the game holds
    (GAME_SUPPLY), or more buildings than a finished city's 16.
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(BUILDINGS):
            raise TableError(f"Automaville's counts are {len(BUILDINGS)} numbers, one per building")
        for building, n in zip(BUILDINGS, self.counts, strict=True):
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise TableError(f"Automaville's {building} count must be a whole number "
                                 f"from 0 (got {str(n)[:20]!r})")
        too_many = [f"{_count(n)} {b} buildings: the game has only {GAME_SUPPLY[b]}"
                    for b, n in zip(BUILDINGS, self.counts, strict=True) if n > GAME_SUPPLY[b]]
        if sum(self.counts) > TILES:
            too_many.append(f"{_count(sum(self.counts))} buildings: a finished city has {TILES}")
        if too_many:  # every count over the game's supply, and the total, at once
            raise TableError("Automaville cannot have " + "; and cannot have ".join(too_many))

    @classmethod
    def from_counts(cls, counts) -> SortedCity:
        """From a mapping building -> count; buildings left out count 0."""
        if not isinstance(counts, dict):
            raise TableError("Automaville's counts are an object of building: number")
        unknown = [str(b)[:40] for b in counts if b not in BUILDINGS]
        if unknown:
            raise TableError(f"unknown building {unknown[0]!r} in Automaville's counts; use "
                             f"one of {', '.join(BUILDINGS)}")
        return cls(tuple(counts.get(b, 0) for b in BUILDINGS))

    def count(self, building: str) -> int:
        """How many of one building ('tavern' counts all four kinds)."""
        if building == "tavern":
            return sum(self.count(k) for k in TAVERN_KINDS)
        return self.counts[BUILDINGS.index(building)]

    @property
    def total(self) -> int:
        return sum(self.counts)

    def building_counts(self) -> dict[str, int]:
        """Number of each building, in BUILDINGS order (for JSON)."""
        return dict(zip(BUILDINGS, self.counts, strict=True))

    def type_counts(self) -> dict[str, int]:
        """Number of buildings of each type, in reference-card order."""
        return {t: self.count(t) for t in TYPES}


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The orthogonally adjacent cells inside the grid."""
    row, col = cell
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            yield (r, c)


def beyond_supply(cities: Iterable[City | SortedCity]) -> dict[str, int]:
    """Buildings these cities hold more of than the game contains: building -> how many."""
    counts = Counter()
    for city in cities:
        counts.update(city.building_counts())
    return {b: counts[b] for b in BUILDINGS if counts[b] > GAME_SUPPLY[b]}
