"""Render one photo of a whole table: several finished cities around its centre, with truth.

``render_table(faces, rng, cities)`` lays each city out by hand (``render.lay_out_plane``),
turns it toward its builders and puts it on a ring around the table's centre, with clutter
between the cities and, when asked, one more city cut by the frame's edge. Then the photo is
taken from above (a player on a chair): mild tilt, any roll. Seeded and deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .render import TIERS, _paste, jpeg, lay_out_plane, light_and_lens, random_layout
from .tables import table_texture
from .tiles import FaceSet

EDGE_MARGIN = 0.02  # complete cities keep this share of the frame from its edges


@dataclass
class TablePhoto:
    """A rendered whole-table photo and its truth.

    image : (H, W, 3) uint8 RGB
    grids : each complete city's upright grid, in seating order (clockwise around the centre,
        as seen in the photo, starting from the city nearest straight below the centre)
    corners : (N, 4, 2) float32, those cities' upright TL TR BR BL in the image
    cut : (M, 4, 2) float32, the corners of cities cut by the frame's edge (not complete)
    """

    image: np.ndarray
    grids: list[list[list[str]]]
    corners: np.ndarray
    cut: np.ndarray


def render_table(faces: FaceSet, rng: np.random.Generator, cities: int,
                 out_size: tuple[int, int] = (1600, 1200), tile_px: int = 48,
                 tier: str = "medium", cut: bool = False, table: str | None = None,
                 spread: tuple[float, float] = (0.75, 0.95)) -> TablePhoto:
    """A photo of ``cities`` complete cities around a table, plus one cut city if ``cut``.

    tile_px : a tile's side on the table plane; the photo shows them at about this size.
    spread : neighbouring cities' centres lie twice this many cities' sides apart, or more
        (two cities at 0.55 leave a tenth of a city between them).
    """
    settings = dict(TIERS[tier], clutter=0)
    t, side = tile_px, 4 * tile_px
    radius = 0.0 if cities == 1 else max(side * rng.uniform(*spread) / np.sin(np.pi / cities),
                                          side * min(0.9, spread[1]))
    span = int(2 * radius + 8 * side)
    plane = np.zeros((span, span, 3), np.float32)
    alpha, shadow = np.zeros((span, span), np.float32), np.zeros((span, span), np.float32)
    middle = np.array([span / 2, span / 2])
    start = rng.uniform(0, 2 * np.pi)
    directions = [start + 2 * np.pi * k / cities + rng.normal(0, 0.1 / cities)
                  for k in range(cities)]  # clockwise on the plane, as in the photo
    placed = [_lay_city(faces, rng, plane, alpha, shadow, settings, t,
                        middle + radius * np.array([np.cos(d), np.sin(d)]), d) for d in directions]
    hmat = _camera(np.concatenate([q for _, q in placed]), out_size, settings["tilt"] / 2, rng)
    extra = []
    if cut:
        spot = _edge_spot(hmat, out_size, [q.mean(0) for _, q in placed], side, rng)
        if spot is not None:
            away = np.arctan2(*(spot - middle)[::-1])
            extra.append(_lay_city(faces, rng, plane, alpha, shadow, settings, t, spot, away))
    _clutter(faces, rng, plane, alpha, shadow, t, middle, radius + side,
             [q for _, q in placed + extra], 2 * cities + 2)
    w, h = out_size
    warp = lambda a: cv2.warpPerspective(a, hmat, (w, h), flags=cv2.INTER_AREA)  # noqa: E731
    layer, a, s = warp(plane), warp(alpha)[..., None], warp(shadow)[..., None]
    img = table_texture(h, w, rng, table) * (1 - s)
    img = img * (1 - a) + layer * a
    img = jpeg(light_and_lens(img, settings["effects"], rng), int(rng.integers(80, 96)))
    to_img = lambda q: cv2.perspectiveTransform(np.float32(q)[None], hmat)[0]  # noqa: E731
    corners = np.float32([to_img(q) for _, q in placed])
    # seats: the ring's order, starting from the city nearest straight below the centre
    below = to_img(middle[None])[0]
    centres = corners.mean(1)
    first = int(np.argmin(np.abs(np.arctan2(centres[:, 0] - below[0], centres[:, 1] - below[1]))))
    order = [(first + k) % cities for k in range(cities)]
    return TablePhoto(img, [placed[i][0] for i in order], corners[order],
                      np.float32([to_img(q) for _, q in extra]).reshape(-1, 4, 2))


def _lay_city(faces, rng, plane, alpha, shadow, settings, t, centre, direction):
    """Lay a random city at ``centre`` on the plane, facing away from the table's centre
    (``direction``, radians) or turned a quarter more: its grid and corners (4, 2)."""
    layout = random_layout(faces, rng)
    canvas, c_alpha, c_shadow, _, pad = lay_out_plane(layout, faces, t, settings, rng)
    n, side = len(canvas), 4 * t
    turn = -np.degrees(direction) - 90 + 90 * int(rng.integers(4)) + rng.normal(0, 6)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), turn, 1.0)
    m[:, 2] += centre - n / 2
    size = (plane.shape[1], plane.shape[0])
    warp = lambda a: cv2.warpAffine(a, m, size, flags=cv2.INTER_LINEAR)  # noqa: E731
    a = warp(c_alpha)[..., None]
    shadow[:] = np.maximum(shadow, warp(c_shadow))
    plane[:] = plane * (1 - a) + warp(canvas) * a
    alpha[:] = np.maximum(alpha, a[..., 0])
    square = np.float32([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]])
    return layout.grid, cv2.transform(square[None], m)[0]


def _clutter(faces, rng, plane, alpha, shadow, t, middle, reach, cities, most):
    """Tile backs and loose tiles between the cities (none over a city)."""
    for _ in range(int(rng.integers(0, most + 1))):
        spot = middle + rng.uniform(-1, 1, 2) * reach
        if min(np.linalg.norm(q.mean(0) - spot) for q in cities) < 3.5 * t:
            continue
        face = faces.back if rng.random() < 0.5 else list(faces.singles.values())[
            int(rng.integers(9))]
        face = cv2.resize(face, (t - 2, t - 2), interpolation=cv2.INTER_AREA).astype(np.float32)
        _paste(plane, alpha, shadow, face, spot, rng.uniform(0, 360),
               (rng.uniform(0.01, 0.03) * t,) * 2, rng)


def _camera(points: np.ndarray, out_size, tilt_deg: float, rng) -> np.ndarray:
    """Homography from the table plane to a photo that frames ``points`` (N, 2): any roll,
    a tilt up to ``tilt_deg``, the points inside the frame's margin."""
    w, h = out_size
    roll, axis = rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi)
    tilt = np.radians(rng.uniform(0, tilt_deg))
    rot = np.array([[np.cos(roll), -np.sin(roll)], [np.sin(roll), np.cos(roll)]])
    p = (points - points.mean(0)) @ rot.T
    p = p / np.abs(p).max()
    lean = np.array([np.cos(axis), np.sin(axis)]) * np.tan(tilt) * 0.5
    proj = p / (1.6 + p @ lean)[:, None]
    lo, hi = proj.min(0), proj.max(0)
    scale = (1 - 2 * EDGE_MARGIN) * min(w / (hi - lo)[0], h / (hi - lo)[1]) * rng.uniform(0.85, 1)
    room = np.array([w, h]) - (hi - lo) * scale
    target = (proj - lo) * scale + room * rng.uniform(0.3, 0.7, 2)
    return cv2.findHomography(np.float32(points), np.float32(target))[0]


def _edge_spot(hmat, out_size, centres, side, rng) -> np.ndarray | None:
    """A point of the plane under the frame's edge, clear of the cities, or None."""
    w, h = out_size
    back = np.linalg.inv(hmat)
    for _ in range(40):
        edge = int(rng.integers(4))
        along = rng.uniform(0.15, 0.85)
        point = [(0, along * h), (along * w, 0), (w, along * h), (along * w, h)][edge]
        spot = cv2.perspectiveTransform(np.float32([[point]]), back)[0, 0]
        if min(np.linalg.norm(spot - c) for c in centres) > 1.6 * side:
            return spot
    return None
