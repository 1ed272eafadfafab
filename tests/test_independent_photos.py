"""The independent photo renderer of bench/independent.py: deterministic, truthful, legal."""

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import independent_photos as photos  # noqa: E402

from scorer.city import BUILDINGS, GAME_SUPPLY, SIZE  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (photos.ART_DIR / "duplex.json").exists(), reason=f"tile art not found at {photos.ART_DIR}"
)
SMALL = (320, 240)


def test_same_arguments_give_the_same_photo():
    a, truth_a = photos.render(5, "tartan", "hard", "printed", size=SMALL)
    b, truth_b = photos.render(5, "tartan", "hard", "printed", size=SMALL)
    assert np.array_equal(a, b) and truth_a == truth_b
    c, _ = photos.render(6, "tartan", "hard", "printed", size=SMALL)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("family", photos.FAMILIES)
def test_every_family_renders_a_legal_city_inside_the_frame(family):
    tier = list(photos.TIERS)[photos.FAMILIES.index(family) % 3]
    image, truth = photos.render(1, family, tier, size=SMALL)
    assert image.shape == (SMALL[1], SMALL[0], 3) and image.dtype == np.uint8
    assert (truth["family"], truth["tier"], truth["art"]) == (family, tier, "artwork")
    corners = np.array(truth["corners"])
    assert corners.shape == (4, 2)
    assert (corners >= 0).all() and (corners <= np.array(SMALL) - 1).all()
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    assert sides.min() / SIZE >= photos.MIN_CELL_PX
    grid = truth["grid"]
    assert len(grid) == SIZE and all(len(row) == SIZE for row in grid)
    counts = Counter(b for row in grid for b in row)
    assert set(counts) <= set(BUILDINGS)
    assert all(counts[b] <= GAME_SUPPLY[b] for b in counts)


def test_sampled_cities_hold_two_duplex_tiles_and_twelve_singles():
    rng = np.random.default_rng(0)
    for _ in range(50):
        grid, pieces = photos.sample_city(rng)
        kinds = Counter(piece["tile"][0] for piece in pieces)
        assert kinds == {"duplex": 2, "single": 12}
        covered = [cell for piece in pieces for cell in piece["cells"]]
        assert sorted(covered) == [(r, c) for r in range(SIZE) for c in range(SIZE)]
        counts = Counter(b for row in grid for b in row)
        assert all(counts[b] <= GAME_SUPPLY[b] for b in counts)


def test_printed_taverns_keep_the_icon_and_change_the_picture():
    art = photos.load_art()["singles"]
    for kind in photos.TAVERN_KINDS:
        printed = photos.printed_tavern(kind).astype(int)
        cx, cy, half = photos._tavern_diamond(art[kind])
        icon = (slice(int(cy - half / 2), int(cy + half / 2)), slice(int(cx - half / 2), int(cx + half / 2)))
        assert np.abs(printed[icon] - art[kind][icon]).mean() < 1
        x0, y0, x1, y1 = photos.PICTURE_BOX
        assert (
            np.abs(
                printed[y1 - 60 : y1 - 10, x1 - 120 : x1 - 10]
                - art[kind][y1 - 60 : y1 - 10, x1 - 120 : x1 - 10]
            ).mean()
            > 10
        )
