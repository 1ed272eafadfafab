"""The lattice of a city's tiles found near a rough outline (scorer.vision.lattice), on the
committed photo fixtures with their true corners."""

import cv2
import numpy as np
import pytest

from scorer.vision import geometry, lattice, search
from scorer.vision.config import DEFAULT
from tests.helpers import corner_error
from tests.photos import photo, truth


def off(corners: np.ndarray, shift, scale: float, turn: float) -> np.ndarray:
    """The outline moved by ``shift`` cells, grown ``scale`` times and turned ``turn`` degrees
    about its centre: how a region standing out from the table outlines a city."""
    corners = np.float32(corners)
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    centre = corners.mean(0)
    a = np.deg2rad(turn)
    turned = (corners - centre) @ np.float32([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return (turned * scale + centre + np.float32(shift) * cell).astype(np.float32)


@pytest.mark.parametrize("case", ["easy-01", "medium-02", "medium-05", "hard-03"])
@pytest.mark.parametrize("shift, scale, turn", [((0.3, -0.25), 1.12, 4), ((-0.35, 0.3), 0.9, -5)])
def test_a_rough_outline_is_brought_near_the_tiles(case, shift, scale, turn):
    """An outline a cell off (moved, too large or small, turned) is put back on the tiles'
    lattice within half a cell: the tiles' own pictures repeat once a cell too, so the
    lattice's phase is not exact, and the reader centres the block it keeps."""
    image = cv2.cvtColor(cv2.imread(str(photo(case))), cv2.COLOR_BGR2RGB)
    corners = geometry.order_clockwise(np.float32(truth(case)["corners"]))  # as blocks gives them
    rough = off(corners, shift, scale, turn)
    assert corner_error(rough, corners) > 0.7
    found = lattice.blocks(image, rough, DEFAULT)
    assert len(found) == 9
    # within reach of centring on the tiles (the reader reads all nine and keeps the best)
    assert min(corner_error(q, corners) for q in found) < 0.5


def _turn(corners: np.ndarray) -> float:
    """The mean direction of a quad's (4, 2) sides, in degrees, a quarter turn being none."""
    sides = np.roll(corners, -1, axis=0) - corners
    return float(np.degrees(np.angle(np.exp(4j * np.arctan2(sides[:, 1], sides[:, 0])).sum())) / 4)


def _degrees_apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two quads' (4, 2) directions are, in degrees (0 to 45)."""
    return abs((_turn(a) - _turn(b) + 45) % 90 - 45)


@pytest.mark.parametrize("case", ["easy-05", "medium-00", "medium-02", "hard-03"])
def test_a_region_with_no_sides_to_follow_is_squared_to_the_tiles_edges(case):
    """A region outlined by the box around the city (its sides not the city's) is made a
    square as large, turned the way the tiles' edges run, within a few degrees."""
    image = cv2.cvtColor(cv2.imread(str(photo(case))), cv2.COLOR_BGR2RGB)
    corners = np.float32(truth(case)["corners"])
    lo, hi = corners.min(0), corners.max(0)
    box = np.float32([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])])
    squared = lattice.squared(image, box)
    assert _degrees_apart(box, corners) > 15  # the box's sides would mislead
    assert _degrees_apart(squared, corners) < 3
    assert np.linalg.norm(squared.mean(0) - box.mean(0)) < 1
    assert search.area(squared) == pytest.approx(search.area(box), rel=0.01)
