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


# --- the unseen table families of bench/unseen_tables.py ------------------------------------------

import independent  # noqa: E402
import unseen_tables  # noqa: E402

DEFAULT_FAMILIES = (
    "gingham", "tartan", "stripes", "polka", "floral", "marble", "ceramic",
    "dark-wood", "light-wood", "linen", "newspaper", "glass", "collage", "terrazzo",
)  # fmt: skip


@pytest.mark.parametrize("family", unseen_tables.FAMILIES)
def test_every_unseen_family_renders_with_a_city_and_without(family):
    unseen_tables.register()
    tier = list(photos.TIERS)[unseen_tables.FAMILIES.index(family) % 3]
    image, truth = photos.render(2, family, tier, size=SMALL)
    assert image.shape == (SMALL[1], SMALL[0], 3) and image.dtype == np.uint8
    assert truth["family"] == family and len(truth["grid"]) == SIZE
    corners = np.array(truth["corners"])
    assert (corners >= 0).all() and (corners <= np.array(SMALL) - 1).all()
    empty, none = photos.render(2, family, tier, size=SMALL, with_city=False)
    assert empty.shape == image.shape and none["grid"] is None and not np.array_equal(empty, image)
    assert 5 < image.mean() < 250 and image.std() > 3
    for seed, texel in ((0, 0.6), (1, 2.5)):  # a near view and a far one: finite colours in range
        X = ((np.arange(320) - 160) * texel)[None, :].astype(np.float32)
        Y = ((120 - np.arange(240)) * texel)[:, None].astype(np.float32)
        table = unseen_tables.PAINTERS[family](np.random.default_rng(seed), X, Y, texel)
        assert table.shape == (240, 320, 3) and np.isfinite(table).all()
        assert table.min() > -0.05 and table.max() < 1.5


def test_the_default_families_are_unchanged(monkeypatch):
    assert photos.FAMILIES == DEFAULT_FAMILIES
    assert independent.pick_families(None) == independent.pick_families("default") == DEFAULT_FAMILIES
    assert {job["family"] for job in independent.jobs(1, 7, 1)} == set(DEFAULT_FAMILIES)
    assert independent.pick_families("unseen") == unseen_tables.FAMILIES
    assert independent.pick_families("tartan,unseen,tartan")[:2] == ("tartan", "parquet")
    with pytest.raises(ValueError):
        independent.pick_families("tartan,velvet")
    unseen_tables.register()
    assert not set(unseen_tables.FAMILIES) & set(DEFAULT_FAMILIES)
    registered = photos.render(3, "ceramic", "medium", "printed", size=SMALL)
    with monkeypatch.context() as m:  # as before registering: the same photo
        m.setattr(photos, "MORE_FAMILIES", [])
        m.setattr(photos, "PAINTERS", {k: v for k, v in photos.PAINTERS.items() if k in DEFAULT_FAMILIES})
        m.setattr(photos, "SHEEN", {k: v for k, v in photos.SHEEN.items() if k in DEFAULT_FAMILIES})
        alone = photos.render(3, "ceramic", "medium", "printed", size=SMALL)
        with pytest.raises(ValueError):
            photos.render(3, "parquet", "medium", size=SMALL)
    assert np.array_equal(registered[0], alone[0]) and registered[1] == alone[1]
