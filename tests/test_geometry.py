"""Geometry on synthetic images: corners from masks, the warp, crops, finder views."""

import cv2
import numpy as np
import pytest

from scorer.vision import geometry
from scorer.vision.config import DEFAULT


def test_order_clockwise_starts_top_left_whatever_the_input_order():
    quad = np.array([[90, 80], [10, 12], [12, 85], [88, 10]], np.float32)
    assert geometry.order_clockwise(quad).tolist() == [[10, 12], [88, 10], [90, 80], [12, 85]]


@pytest.mark.parametrize("angle", [0, 17, 45, 80])
def test_quad_from_mask_finds_a_turned_square_to_a_pixel(angle):
    centre, half = np.array([64.0, 64.0]), 30.0
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    square = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half) @ rot.T + centre
    mask = np.zeros((128, 128), np.uint8)
    cv2.fillConvexPoly(mask, np.round(square * 16).astype(np.int32), 1, shift=4)
    found = geometry.quad_from_mask(mask.astype(bool), 0.02)
    expected = geometry.order_clockwise(square)
    assert np.abs(found - expected).max() < 1.0


def test_quad_from_mask_refuses_tiny_or_empty_regions():
    mask = np.zeros((128, 128), bool)
    assert geometry.quad_from_mask(mask, 0.02) is None
    mask[10:14, 10:14] = True
    assert geometry.quad_from_mask(mask, 0.02) is None


def test_warp_and_crops_follow_the_city():
    # A photo where cell (r, c) is painted with value 10 * (4 r + c) + 5: the crops must see it.
    cell = 50
    image = np.zeros((300, 300, 3), np.uint8)
    for r in range(4):
        for c in range(4):
            image[50 + r * cell:50 + (r + 1) * cell, 50 + c * cell:50 + (c + 1) * cell] = 10 * (4 * r + c) + 5
    corners = np.array([[50, 50], [250, 50], [250, 250], [50, 250]], np.float32)
    warped = geometry.warp_city(image, corners)
    side, pad = geometry.warp_size()
    assert warped.shape == (side, side, 3)
    tiles = geometry.tile_crops(warped)
    assert tiles.shape == (16, DEFAULT.tile_input, DEFAULT.tile_input, 3)
    centres = tiles[:, DEFAULT.tile_input // 2, DEFAULT.tile_input // 2, 0]
    assert centres.tolist() == [10 * k + 5 for k in range(16)]
    assert geometry.corner_crops(warped).shape == (16, DEFAULT.corner_input, DEFAULT.corner_input, 3)


def test_to_input_layout_and_scale():
    batch = np.full((2, 8, 8, 3), 255, np.uint8)
    x = geometry.to_input(batch)
    assert x.shape == (2, 3, 8, 8) and x.dtype == np.float32
    assert np.allclose(x, 2.0)


def test_finder_view_maps_back_to_the_photo():
    image = np.zeros((400, 600, 3), np.uint8)
    box = np.array([[100.0, 50.0], [500.0, 450.0]])
    view, back = geometry.finder_view(image, box, 128)
    assert view.shape == (128, 128, 3)
    corners = geometry.apply_matrix(np.array([[-0.5, -0.5], [127.5, 127.5]]), back)
    # pixel centres are integers, so the view's outer edge is the box's edge less half a pixel
    assert np.allclose(corners, [[99.5, 49.5], [499.5, 449.5]], atol=1e-3)


def test_a_finder_view_of_a_degenerate_box_is_a_view_not_an_error():
    image = np.full((100, 120, 3), 200, np.uint8)
    view, back = geometry.finder_view(image, np.array([[50.2, 40.0], [50.4, 40.1]]), 32)
    assert view.shape == (32, 32, 3) and view.mean() == 200


def test_a_view_reaching_far_beyond_a_large_quad_shows_the_image_there():
    """A large photo is cut to the region before it is shrunk: the cut must hold everything
    the view shows (a lattice of cells around a city reaches cells beyond it), not repeat the
    cut's border there."""
    yy, xx = np.mgrid[0:3000, 0:3000].astype(np.float32)
    image = np.dstack([xx / 3000 * 255, yy / 3000 * 255, np.full_like(xx, 128)]).astype(np.uint8)
    quad = np.float32([[1200, 1200], [1800, 1200], [1800, 1800], [1200, 1800]])
    target = geometry.square(150, 100)  # the quad small in the middle of a 400 px view
    view = geometry.warp_quad(image, quad, target, 400)
    direct = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, target), (400, 400))
    assert np.abs(view.astype(int) - direct.astype(int)).max() <= 3


@pytest.mark.parametrize("cells", [4, 10])
def test_crops_of_a_batch_are_those_of_each_cell_shrunk_alone(cells):
    """``cities_crops`` shrinks every cell of several warps in one call: the pixels must be
    those of shrinking each cell's part on its own (what the models were trained on)."""
    rng = np.random.default_rng(7)
    side, _ = geometry.warp_size(DEFAULT, cells)
    warps = [rng.integers(0, 256, (side, side, 3), np.uint8) for _ in range(3)]
    tiles, corners = geometry.cities_crops(warps, DEFAULT, cells)
    for crops, span, size in ((tiles, (-DEFAULT.tile_margin, 1 + DEFAULT.tile_margin),
                               DEFAULT.tile_input),
                              (corners, DEFAULT.corner_span, DEFAULT.corner_input)):
        alone = [cv2.resize(warp[y0:y1, x0:x1], (size, size), interpolation=cv2.INTER_AREA)
                 for warp in warps for at in range(cells * cells)
                 for x0, y0, x1, y1 in [geometry.cell_box(side, at // cells, at % cells, *span)]]
        assert np.array_equal(crops, np.stack(alone))


def test_a_large_region_wholly_off_the_photo_warps_to_its_edge_pixels():
    """A lattice search can outline a region far off the photo: its warp shows the photo's
    edge pixels repeated (it was a ZeroDivisionError: an empty cut of the photo shrunk)."""
    image = np.zeros((600, 800, 3), np.uint8)
    image[-1, -1] = (10, 200, 30)  # the corner pixel nearest the region
    corners = geometry.square(5000, 4000)
    view = geometry.warp_quad(image, corners, geometry.square(20, 384), 424)
    assert view.shape == (424, 424, 3) and (view == (10, 200, 30)).all()


@pytest.mark.parametrize("shape", [(40, 40, 3), (30, 52, 3)])
def test_a_view_turned_back_is_np_rot90_contiguous(shape):
    image = np.random.default_rng(1).integers(0, 255, shape, np.uint8)
    for k in range(-1, 5):
        back = geometry.turned_back(image[:, ::-1], k)  # (a view, not contiguous)
        assert back.flags["C_CONTIGUOUS"]
        assert np.array_equal(back, np.rot90(image[:, ::-1], -k))


def test_the_corners_where_fitted_sides_meet_are_np_cross():
    rng = np.random.default_rng(2)
    for _ in range(200):
        first, second = (geometry._line(rng.random((6, 2)) * 100) for _ in range(2))
        meet = geometry._meet(first, second)
        assert meet.dtype == np.cross(first, second).dtype
        assert np.array_equal(meet, np.cross(first, second))


def test_views_of_one_city_warped_together_are_those_warped_alone():
    """``warp_cities`` cuts and shrinks a large photo once for several outlines of one city
    (a doubtful cell looked at again a little shifted and scaled): each view must show what
    ``warp_city`` of that outline alone shows, give or take the shrink's rounding."""
    yy, xx = np.mgrid[0:1200, 0:1600].astype(np.float32)
    image = np.dstack([127 + 120 * np.sin(xx / 23), 127 + 120 * np.cos(yy / 31),
                       (xx + yy) / 2800 * 255]).astype(np.uint8)
    city = np.float32([[420, 180], [1330, 260], [1250, 1120], [350, 1040]])  # shrunk to warp
    centre = city.mean(0)
    quads = [city + shift for shift in ((0, 0), (18, -18), (-18, 18))]
    quads += [(city - centre) * scale + centre for scale in (0.95, 1.05)]
    together = geometry.warp_cities(image, quads, DEFAULT)
    for quad, view in zip(quads, together, strict=True):
        alone = geometry.warp_city(image, quad, DEFAULT)
        assert np.abs(view.astype(int) - alone.astype(int)).mean() < 1.0
