"""The independent whole-table renderer of bench/independent_tables.py: deterministic, truthful,
legal, every complete city in view and seated in clockwise order."""

import functools
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import independent_photos as photos  # noqa: E402
import independent_tables as tables  # noqa: E402

from scorer.city import BUILDINGS, GAME_SUPPLY, SIZE  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (photos.ART_DIR / "duplex.json").exists(), reason=f"tile art not found at {photos.ART_DIR}"
)
SMALL = (480, 360)
TILE_PX = 12.0
# seed, complete cities, family, tier, art, cut
CASES = [
    (1, 1, "gingham", "easy", "artwork", False),
    (2, 3, "marble", "medium", "printed", True),
    (3, 5, "light-wood", "hard", "artwork", None),
    (4, 7, "newspaper", "medium", "artwork", True),
    (5, 2, "glass", "hard", "printed", True),
    (6, 6, "tartan", "easy", "artwork", False),
]


def case_id(case) -> str:
    return f"{case[1]}-cities-{case[2]}"


@functools.cache
def photo(seed, n, family, tier, art, cut):
    return tables.render_table(seed, n, family, tier, art, size=SMALL, min_tile_px=TILE_PX, cut=cut)


def cell_centres(corners) -> np.ndarray:
    """(16, 2) image centres of a city's cells from its corners TL TR BR BL (a plane's homography)."""
    unit = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
    homography = cv2.getPerspectiveTransform(unit, np.float32(corners))
    centres = np.float32([[c + 0.5, r + 0.5] for r in range(SIZE) for c in range(SIZE)])
    return cv2.perspectiveTransform(centres[None], homography)[0]


def in_frame(points, size=SMALL) -> np.ndarray:
    points = np.asarray(points)
    return (points >= 0).all(axis=-1) & (points <= np.array(size) - 1).all(axis=-1)


def test_same_arguments_give_the_same_photo():
    a, truth_a = photo(7, 4, "polka", "hard", "printed", None)
    b, truth_b = tables.render_table(7, 4, "polka", "hard", "printed", size=SMALL, min_tile_px=TILE_PX)
    assert np.array_equal(a, b) and truth_a == truth_b
    c, _ = tables.render_table(8, 4, "polka", "hard", "printed", size=SMALL, min_tile_px=TILE_PX)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_city_is_legal_and_the_table_keeps_to_the_supply(case):
    seed, n, family, tier, art, cut = case
    image, truth = photo(*case)
    assert image.shape == (SMALL[1], SMALL[0], 3) and image.dtype == np.uint8
    assert (truth["family"], truth["tier"], truth["art"]) == (family, tier, art)
    complete = [city for city in truth["cities"] if city["complete"]]
    extra = len(truth["cities"]) - len(complete)
    assert len(complete) == n
    assert extra <= tables.MAX_CUT
    assert (extra == 0) if cut is False else (extra >= 1) if cut else True
    table = Counter()
    for city in truth["cities"]:
        grid = city["grid"]
        assert len(grid) == SIZE and all(len(row) == SIZE for row in grid)
        counts = Counter(b for row in grid for b in row)
        assert set(counts) <= set(BUILDINGS)
        assert all(counts[b] <= GAME_SUPPLY[b] for b in counts)
        table += counts
    assert all(table[b] <= GAME_SUPPLY[b] for b in table)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_complete_cities_are_in_the_frame_with_big_enough_tiles(case):
    _, truth = photo(*case)
    for city in truth["cities"]:
        if city["complete"]:
            corners = np.array(city["corners"])
            assert corners.shape == (4, 2) and in_frame(corners).all() and in_frame(city["centre"])
            sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
            assert sides.min() / SIZE >= TILE_PX


@pytest.mark.parametrize("case", [c for c in CASES if c[-1]], ids=case_id)
def test_cut_cities_lie_across_the_frame_edge(case):
    _, truth = photo(*case)
    cut = [city for city in truth["cities"] if not city["complete"]]
    assert cut
    for city in cut:
        seen = in_frame(cell_centres(city["corners"]))
        assert seen.sum() >= 2 and (~seen).sum() >= 2


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_two_cities_overlap(case):
    _, truth = photo(*case)
    quads = [np.float32(city["corners"]) for city in truth["cities"]]
    for i in range(len(quads)):
        for j in range(i):
            area, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            assert area < 1e-3, (i, j)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_order_goes_clockwise_from_the_city_nearest_straight_down(case):
    _, truth = photo(*case)
    cx, cy = truth["table_centre"]
    complete = [i for i, city in enumerate(truth["cities"]) if city["complete"]]
    order = truth["order"]
    assert sorted(order) == complete
    angle = {
        i: math.atan2(truth["cities"][i]["centre"][1] - cy, truth["cities"][i]["centre"][0] - cx)
        for i in order
    }
    off_down = {i: abs((angle[i] - math.pi / 2 + math.pi) % (2 * math.pi) - math.pi) for i in order}
    assert off_down[order[0]] == min(off_down.values())
    turned = [(angle[i] - angle[order[0]]) % (2 * math.pi) for i in order]
    assert turned == sorted(turned)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_layout_alone_is_the_photo_s(case):
    """table_layout (bench/seating.py) gives the complete cities of render_table's photo, in
    its seating order, without drawing it."""
    seed, n, family, tier, art, cut = case
    _, truth = photo(*case)
    layout = tables.table_layout(seed, n, family, tier, art, size=SMALL, min_tile_px=TILE_PX, cut=cut)
    seated = [truth["cities"][i]["corners"] for i in truth["order"]]
    assert np.allclose([layout["corners"][i] for i in layout["order"]], seated, atol=0.01)
    assert layout["margin_deg"] == pytest.approx(truth["scene"]["order_margin_deg"], abs=0.05)


def test_seating_order_on_a_clock_face():
    # image coordinates, y down: below, left of, above, right of the centre, and a cut city below
    centres = [(10, 0), (0, -10), (-10, 0), (0.5, 10), (0, 12)]
    order, margin = tables.seating_order(centres, np.array([0.0, 0.0]), [True, True, True, True, False])
    assert order == [3, 2, 1, 0]
    assert margin == pytest.approx(90 - math.degrees(math.atan2(0.5, 10)), abs=1e-6)


def test_a_city_tiles_lie_on_its_cells():
    rng = np.random.default_rng(3)
    (city,) = tables._draw_cities(rng, 1, photos.Faces(rng, "artwork"), 2, 0.02)
    city.centre, city.turn = np.array([120.0, -340.0]), 2.1
    lattice = city.lattice()[..., :2]
    for piece, tile in zip(city.pieces, city.tiles(), strict=True):
        cells = [(lattice[r, c] + lattice[r + 1, c + 1]) / 2 for r, c in piece["cells"]]
        assert np.linalg.norm(np.mean(cells, axis=0) - tile.centre) < 5
    assert np.allclose(lattice[[0, 0, SIZE, SIZE], [0, SIZE, SIZE, 0]], city.square())


def test_a_whole_table_of_cities_keeps_to_one_box_of_tiles():
    rng = np.random.default_rng(0)
    supply = {"duplex": list(range(len(photos.DUPLEX_TILES))), "singles": photos.singles_bag()}
    table = Counter()
    for _ in range(tables.MAX_CUT + 7):
        grid, _ = photos.sample_city(rng, supply)
        table += Counter(b for row in grid for b in row)
    assert supply["singles"] == [] and len(supply["duplex"]) == len(photos.DUPLEX_TILES) - 2 * 9
    assert all(table[b] <= GAME_SUPPLY[b] for b in table)


def test_what_cannot_be_photographed_is_refused():
    with pytest.raises(ValueError, match="cannot hold"):
        tables.render_table(0, 7, "linen", "easy", size=(160, 120), min_tile_px=40)
    for bad in ({"n_cities": 0}, {"n_cities": 8}, {"family": "lava"}, {"cut": "yes"}):
        args = {"seed": 0, "n_cities": 3, "family": "linen", "tier": "easy", "size": SMALL, **bad}
        with pytest.raises(ValueError):
            tables.render_table(**args)


def test_every_city_of_a_table_on_tartan_is_found_and_seated():
    """A 12 MP photo of six cities on tartan, as a phone's JPEG: the whole photo's look sees one
    region, read as one city it shows none, and the finder outlines only some of the cities
    (it was refused, "no city found", then 3 of 6 were found): the cities standing out from
    the cloth, put on the lattice of their tiles, are all found, in the truth's seating order."""
    from scorer.reading import PhotoReader

    image, truth = tables.render_table(901 * 7 + 1, 6, "tartan", "medium", size=(4000, 3000),
                                       cut=False)
    jpeg = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                        [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    found = PhotoReader().read_all(jpeg).cities
    centres = np.array([np.mean(c["corners"], axis=0) for c in truth["cities"]])
    nearest = [int(np.argmin(np.linalg.norm(centres - c.corners.mean(0), axis=1)))
               for c in found]
    assert nearest == list(truth["order"])


def test_cities_on_tartan_stand_out_from_it():
    """However busy the cloth, a city's tiles are not the cloth: each complete city lies
    within a region standing out from the table about its size
    (scorer.vision.search.standouts)."""
    from scorer.vision import search
    from scorer.vision.config import DEFAULT

    image, truth = tables.render_table(21, 4, "tartan", "medium", size=(1200, 900), cut=False)
    regions = search.standouts(search.standing_out(image, DEFAULT), image.shape[1], DEFAULT)
    for city in truth["cities"]:
        centre = np.mean(city["corners"], axis=0)
        side = np.linalg.norm(np.subtract(city["corners"][1], city["corners"][0]))
        assert any(search.inside(centre, r.quad) and 0.7 < np.sqrt(r.area) / side < 1.5
                   for r in regions), f"the city at {np.round(centre)} does not stand out"


# --- the unseen table families of bench/unseen_tables.py ------------------------------------------


@pytest.mark.parametrize("case", [(31, 4, "chessboard", "medium", "artwork", True),
                                  (32, 3, "hex-tiles", "hard", "printed", None)], ids=case_id)
def test_an_unseen_family_renders_a_whole_table_with_its_truth(case):
    import unseen_tables

    seed, n, family, tier, art, cut = case
    unseen_tables.register()
    image, truth = photo(*case)
    assert image.shape == (SMALL[1], SMALL[0], 3) and image.dtype == np.uint8
    assert 5 < image.mean() < 250 and image.std() > 3
    assert (truth["family"], truth["tier"], truth["art"]) == (family, tier, art)
    complete = [city for city in truth["cities"] if city["complete"]]
    assert len(complete) == n and sorted(truth["order"]) == [
        i for i, city in enumerate(truth["cities"]) if city["complete"]]
    assert (len(truth["cities"]) > n) if cut else True
    for city in complete:
        corners = np.array(city["corners"])
        assert in_frame(corners).all()
        assert np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).min() / SIZE >= TILE_PX
    again, truth_again = tables.render_table(seed, n, family, tier, art, size=SMALL,
                                             min_tile_px=TILE_PX, cut=cut)
    assert np.array_equal(image, again) and truth == truth_again
    layout = tables.table_layout(seed, n, family, tier, art, size=SMALL, min_tile_px=TILE_PX, cut=cut)
    assert np.allclose([layout["corners"][i] for i in layout["order"]],
                       [truth["cities"][i]["corners"] for i in truth["order"]], atol=0.01)


def test_the_default_families_photos_are_unchanged_by_the_unseen_ones(monkeypatch):
    """Registering the unseen families numbers them after the 14: a default family's whole-table
    photo is the same as without them, and bench/whole_table.py's photos are the same without
    --families."""
    import unseen_tables
    import whole_table
    from independent import pick_families

    unseen_tables.register()
    args = (9, 5, "floral", "medium", "printed")
    registered = tables.render_table(*args, size=SMALL, min_tile_px=TILE_PX, cut=True)
    with monkeypatch.context() as m:  # as before registering
        m.setattr(photos, "MORE_FAMILIES", [])
        m.setattr(photos, "PAINTERS", {k: v for k, v in photos.PAINTERS.items() if k in photos.FAMILIES})
        m.setattr(photos, "SHEEN", {k: v for k, v in photos.SHEEN.items() if k in photos.FAMILIES})
        alone = tables.render_table(*args, size=SMALL, min_tile_px=TILE_PX, cut=True)
        with pytest.raises(ValueError):
            tables.render_table(9, 5, "parquet", "medium", size=SMALL, min_tile_px=TILE_PX)
    assert np.array_equal(registered[0], alone[0]) and registered[1] == alone[1]
    default = whole_table.jobs(1, 901, (2000, 1500))
    assert default == whole_table.jobs(1, 901, (2000, 1500), pick_families(None))
    assert [job["family"] for job in default] == [
        photos.FAMILIES[k % len(photos.FAMILIES)] for k in range(len(default))]
    unseen = whole_table.jobs(1, 901, (2000, 1500), pick_families("unseen"))
    assert [job["family"] for job in unseen] == list(unseen_tables.FAMILIES)
    assert [{k: v for k, v in job.items() if k != "family"} for job in unseen] == [
        {k: v for k, v in job.items() if k != "family"} for job in default]
