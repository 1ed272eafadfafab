"""Independent photos of a whole game table: several finished cities lying around its centre.

For benchmarking "find every city in one photo". It builds on bench/independent_photos.py (tiles,
tables, things, camera, light, optics, phone), written apart from the training renderer so that
the benchmark does not share its blind spots. World units are millimetres; the table top is the
plane z = 0 and the table centre is the origin.

    image, truth = render_table(seed, n_cities, family, tier, art="artwork", size=(4000, 3000),
                                min_tile_px=40.0, cut=None)

family: one of independent_photos.FAMILIES, or of bench/unseen_tables.py's after
unseen_tables.register() (numbered after the 14, so the 14's photos stay as they were).

Stages: draw the cities from one box of tiles (the whole table keeps to the game's supply) ->
seat them around a ring, an ellipse or a rectangle, unevenly spaced, each turned towards its
builder (the direction from the table centre, plus a multiple of 90 degrees, plus up to 15
degrees), the closest two MIN_GAP_MM or more apart -> a phone held about 0.5 to 1.7 m above the
table (tilt 0-30 degrees, any roll, the main or the wide lens) framing every complete city with
tiles of min_tile_px or more -> maybe one or two extra cities across the frame's edge (2+ tiles
in view, 2+ out) -> things between the cities -> the single-city renderer's table, light, optics
and phone pipeline. A layout the photo cannot hold is tried again more compact and less tilted.

Seating order: truth["order"] lists the complete cities clockwise around truth["table_centre"]
(cx, cy) as seen in the photo. A city's angle is a = atan2(y - cy, x - cx) of its centre (x, y) in
image coordinates (y down), so clockwise is increasing a. The first is the complete city whose
angle is nearest to straight down (a = pi / 2); the others follow by increasing
(a - a_first) mod 2 pi.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import independent_photos  # noqa: E402
import unseen_tables  # noqa: E402
from independent_photos import (  # noqa: E402
    ARTS,
    FAMILIES,
    LENSES,
    MAX_TEX_PX,
    SIZE,
    THICK_MM,
    THING_KINDS,
    TIERS,
    TILE_MM,
    Box,
    Camera,
    Canvas,
    Faces,
    _centre3,
    _city_boxes,
    _draw,
    _hand,
    _image_hull,
    _inside,
    _lighting,
    _on_table,
    _optics,
    _overlaps,
    _phone,
    _pose,
    _rotated,
    _shade,
    _shadows,
    _table,
    _thing,
    sample_city,
    singles_bag,
)

from scorer.duplex import DUPLEX_TILES  # noqa: E402

SHAPES = ("ring", "ellipse", "rectangle")  # how the seats go round the table
MIN_GAP_MM = 10.0  # the least room between two cities' outer squares
MAX_CUT = 2  # extra cities cut by the frame's edge
CUT_CHANCE = 0.3  # of a photo having them, when not asked
MAX_TILT_DEG = 30.0  # of the phone from straight down (less for easy photos)
EDGE = 0.02  # of the short side kept free around the complete cities
MAX_FILL = 0.97  # the most of the frame the complete cities may span
CUT_FILL = 0.85  # the most when extra cities must lie across the frame's edge
MIN_FILL = 0.35  # the least: a photographer fills the frame with the table
HEIGHT_MM = (500.0, 1700.0)  # the phone above the table: a seated player up to one on a chair


@dataclass
class TableCity:
    """A city on the table: its upright grid (4x4 names), pieces (as sample_city), tiles laid
    upright at the origin, half its side and its tile gap (mm), where its centre (2,) lies and
    its turn (rad, counter-clockwise)."""

    grid: list
    pieces: list
    boxes: list[Box]
    half: float
    gap: float
    centre: np.ndarray
    turn: float = 0.0
    complete: bool = True

    def _world(self, local) -> np.ndarray:
        """City-frame points (N, 2) -> table points (N, 2)."""
        c, s = math.cos(self.turn), math.sin(self.turn)
        return np.asarray(local, float) @ np.array([[c, s], [-s, c]]) + self.centre

    def square(self) -> np.ndarray:
        """(4, 2) outer corners TL TR BR BL of the upright city on the table (row 0 to its north)."""
        h = self.half
        return self._world([[-h, h], [h, h], [h, -h], [-h, -h]])

    def corners3(self) -> np.ndarray:
        """(4, 3) outer corners TL TR BR BL at the tiles' top."""
        return np.column_stack([self.square(), np.full(4, THICK_MM)])

    def lattice(self) -> np.ndarray:
        """(5, 5, 3) corners of its cells at the tiles' top, [row line, column line]."""
        t = np.linspace(-self.half, self.half, SIZE + 1)
        local = np.stack(np.meshgrid(t, -t), axis=-1).reshape(-1, 2)
        xy = self._world(local).reshape(SIZE + 1, SIZE + 1, 2)
        return np.concatenate([xy, np.full((SIZE + 1, SIZE + 1, 1), THICK_MM)], axis=2)

    def tiles(self) -> list[Box]:
        """Its tiles where it lies: the upright boxes turned and moved as _city_boxes would."""
        c, s = math.cos(self.turn), math.sin(self.turn)
        cx, cy = self.centre
        return [
            replace(
                b,
                centre=(cx + c * b.centre[0] - s * b.centre[1], cy + s * b.centre[0] + c * b.centre[1]),
                angle=b.angle + self.turn,
            )
            for b in self.boxes
        ]


def _draw_cities(rng, count, faces, level, gloss) -> list[TableCity]:
    """count legal cities from one box of the game's tiles, laid upright at the origin."""
    supply = {"duplex": list(range(len(DUPLEX_TILES))), "singles": singles_bag()}
    cities = []
    for _ in range(count):
        grid, pieces = sample_city(rng, supply)
        boxes, gap = _city_boxes(rng, pieces, faces, level, gloss)
        half = 2 * (TILE_MM + gap) - gap / 2
        cities.append(TableCity(grid, pieces, boxes, half, gap, np.zeros(2)))
    return cities


# --- the layout ---------------------------------------------------------------------------------


def _gap(a, b) -> float:
    """Distance (mm) between two convex polygons (N, 2) and (M, 2); 0 where they meet."""
    if _overlaps(a, b):
        return 0.0
    # the nearest points of two apart convex polygons include a corner of one of them
    pa, pb = (np.asarray(p, np.float32).reshape(-1, 1, 2) for p in (a, b))
    signed = [cv2.pointPolygonTest(pb, (float(x), float(y)), True) for x, y in np.asarray(a)]
    signed += [cv2.pointPolygonTest(pa, (float(x), float(y)), True) for x, y in np.asarray(b)]
    return max(0.0, -max(signed))


def _closest_gap(cities) -> float:
    squares = [c.square() for c in cities]
    return min(
        (_gap(squares[i], squares[j]) for i in range(len(squares)) for j in range(i)), default=math.inf
    )


def _seats(rng, n, shape, aspect, uneven) -> np.ndarray:
    """Where n cities sit on a unit shape: (n, 2) in the table's own frame, each up to `uneven`
    of a fair share of the way round off its fair place.

    ring: radius 1; ellipse: semi-axes aspect and 1; rectangle: half sides aspect and 1.
    """
    t = (np.arange(n) + rng.uniform(-uneven, uneven, n)) / n + rng.uniform()
    if shape != "rectangle":
        a = 2 * np.pi * t
        seats = np.column_stack([aspect * np.cos(a), np.sin(a)])
    else:  # along the perimeter, from the middle of the east side anticlockwise
        w, h = aspect, 1.0
        s = (t % 1) * 4 * (w + h)
        legs = np.array([h, 2 * w, 2 * h, 2 * w, h])
        starts = np.concatenate([[0], np.cumsum(legs)[:-1]])
        corner = np.array([[w, 0], [w, h], [-w, h], [-w, -h], [w, -h]])
        heading = np.array([[0, 1], [-1, 0], [0, -1], [1, 0], [0, 1]])
        leg = np.minimum(np.searchsorted(starts, s, side="right") - 1, 4)
        seats = corner[leg] + heading[leg] * (s - starts[leg])[:, None]
    return seats * rng.uniform(0.9, 1.1, (n, 1))


def _turn_towards_builder(rng, centre) -> float:
    """The direction from the table centre, a multiple of 90 degrees, up to 15 degrees more."""
    noise = math.radians(float(np.clip(rng.normal(0, 6), -15, 15)))
    return math.atan2(centre[1], centre[0]) + rng.integers(4) * math.pi / 2 + noise


def _seat_cities(rng, cities, level, compact) -> dict:
    """Lay the cities around the table centre; the closest two are a drawn gap apart (that gap
    shrinks with compact, in (0, 1]). Returns what was made."""
    n = len(cities)
    shape = SHAPES[rng.integers(len(SHAPES))] if n > 2 else "ring"
    aspect = 1.0 if shape == "ring" else 1 + rng.uniform(0.15, 0.8) * compact
    table_turn = rng.uniform(0, math.pi)
    c, s = math.cos(table_turn), math.sin(table_turn)
    unit = _seats(rng, n, shape, aspect, 0.3 * compact) @ np.array([[c, s], [-s, c]])
    if n == 1:
        unit *= rng.uniform(0, 1.5)
    for city, seat in zip(cities, unit, strict=True):
        city.turn = _turn_towards_builder(rng, seat)
    want = math.exp(rng.uniform(math.log(MIN_GAP_MM), math.log(max(MIN_GAP_MM, 250 * compact))))
    lo, hi = 0.0, 3000.0  # the scale (mm) of the unit shape: too close at lo, far enough at hi
    for _ in range(30 if n > 1 else 0):
        mid = (lo + hi) / 2
        for city, seat in zip(cities, unit, strict=True):
            city.centre = seat * mid
        lo, hi = (lo, mid) if _closest_gap(cities) >= want else (mid, hi)
    scale = hi if n > 1 else 120.0
    for city, seat in zip(cities, unit, strict=True):
        city.centre = seat * scale
    return {
        "layout": shape,
        "aspect": round(aspect, 2),
        "table_turn": table_turn,
        "seat_scale_mm": round(scale),
    }


# --- the camera ---------------------------------------------------------------------------------


def _lens(rng, level, size) -> dict:
    """A phone lens for a whole table: mostly the main camera, sometimes the wide one."""
    W, H = size
    name = ("main", "wide")[rng.choice(2, p=((1.0, 0.0), (0.9, 0.1), (0.8, 0.2))[level])]
    (f_lo, f_hi), (k_lo, k_hi), _ = LENSES[name]
    f_eq = rng.uniform(f_lo, f_hi)
    f = f_eq / 43.27 * math.hypot(W, H)
    k1, k2 = rng.uniform(k_lo, k_hi), rng.uniform(-0.01, 0.01)
    rmax2 = ((W / 2) ** 2 + (H / 2) ** 2) / f**2
    margin = int(math.ceil(max(0.0, (k1 * rmax2 + k2 * rmax2**2)) * math.sqrt(rmax2) * f)) + 6
    return {"name": name, "f_eq": f_eq, "f": f, "bend": (k1, k2, margin)}


def on_plane(cam, pixels, z=THICK_MM) -> np.ndarray:
    """Where output pixels (N, 2) see the plane at height z: (N, 3) world points."""
    W, H = cam.size
    pd = (np.asarray(pixels, float) - ((W - 1) / 2, (H - 1) / 2)) / cam.f
    r2 = (pd**2).sum(axis=1, keepdims=True)
    rays = np.column_stack([pd * (1 + cam.k1 * r2 + cam.k2 * r2**2), np.ones(len(pd))]) @ cam.R
    return cam.pos + rays * ((z - cam.pos[2]) / rays[:, 2])[:, None]


def smallest_tile_px(cam, cities) -> float:
    """The shortest cell edge (px) of the cities in the photo."""
    lattice = np.stack([c.lattice() for c in cities])
    grid = cam.to_output(cam.project(lattice.reshape(-1, 3))[0]).reshape(lattice.shape[:3] + (2,))
    edges = np.concatenate([np.diff(grid, axis=1).reshape(-1, 2), np.diff(grid, axis=2).reshape(-1, 2)])
    return float(np.linalg.norm(edges, axis=1).min())


def _frame(cities, lens, pose, size, fill, off) -> Camera | None:
    """A camera in pose (tilt, azimuth, roll) seeing every city, their bounding box `fill` of the
    frame (less its EDGE) along its tighter side, shifted by off (2,) in [-1, 1] of the room left."""
    W, H = size
    pts = np.concatenate([c.corners3() for c in cities])
    room = np.array([W - 1, H - 1]) - 2 * EDGE * min(W, H)
    target = np.array([*pts[:, :2].mean(axis=0), THICK_MM])
    distance = lens["f"] * np.ptp(pts[:, :2], axis=0).max() / (fill * min(W, H))
    for _ in range(30):
        cam = Camera(lens["f"], *_pose(target, *pose, distance), size, *lens["bend"])
        out = cam.to_output(cam.project(pts)[0])
        lo, hi = out.min(axis=0), out.max(axis=0)
        grow = ((hi - lo) / room).max() / fill
        want = np.array([W - 1, H - 1]) / 2 + off * (room - (hi - lo) / grow) / 2
        here, there = on_plane(cam, [(lo + hi) / 2, want])
        if abs(grow - 1) < 1e-3 and np.abs((lo + hi) / 2 - want).max() < 0.5:
            break
        target += here - there
        distance *= grow
    inside = (lo >= EDGE * min(W, H) - 0.5).all() and (
        hi <= np.array([W - 1, H - 1]) - EDGE * min(W, H) + 0.5
    ).all()
    return cam if inside else None


def _aim(rng, cities, lens, size, top, off, max_tilt) -> tuple[tuple, Camera | None]:
    """A pose (tilt, azimuth, roll) and the closest camera in it that frames the cities with
    `top` fill. Most photographers turn the phone to fit the table best (of a few rolls)."""
    tilt, azimuth = math.radians(rng.uniform(0, max_tilt)), rng.uniform(0, 2 * math.pi)
    rolls = rng.uniform(0, 2 * math.pi, 6 if rng.random() < 0.6 else 1)
    best = ((tilt, azimuth, rolls[0]), None)
    for roll in rolls:
        cam = _frame(cities, lens, (tilt, azimuth, roll), size, top, off)
        if cam is not None and (best[1] is None or cam.pos[2] < best[1].pos[2]):
            best = ((tilt, azimuth, roll), cam)
    return best


def _camera(rng, level, cities, size, min_tile_px, room_for_cut, max_tilt) -> tuple[Camera | None, dict]:
    """A phone above the table framing every complete city, their tiles min_tile_px or more."""
    lens = _lens(rng, level, size)
    top = CUT_FILL if room_for_cut else MAX_FILL
    off = rng.uniform(-0.6, 0.6, 2)
    pose, tight = _aim(rng, cities, lens, size, top, off, max_tilt)
    info = {
        "lens": lens["name"],
        "focal_35mm": round(lens["f_eq"], 1),
        "k1": round(lens["bend"][0], 3),
        "aperture_mm": LENSES[lens["name"]][2],
        "tilt_deg": round(math.degrees(pose[0]), 1),
        "azimuth_deg": round(math.degrees(pose[1]), 1),
        "roll_deg": round(math.degrees(pose[2]), 1),
    }
    if tight is None or tight.pos[2] > HEIGHT_MM[1]:
        return None, info
    # the phone's height above the table sets how much of the frame the cities fill
    low, high = HEIGHT_MM[0], HEIGHT_MM[1] * min(1.0, lens["f_eq"] / 26)  # closer with a wide lens
    wanted = tight.pos[2] * rng.uniform(1, 1.25) if room_for_cut else rng.uniform(low, high)
    height = float(np.clip(wanted, low, high))
    fill, cam = top, tight
    for _ in range(2):  # their size in the frame goes about as one over the height
        fill = float(np.clip(fill * cam.pos[2] / height, MIN_FILL, top))
        cam = _frame(cities, lens, pose, size, fill, off)
        if cam is None:
            return None, info
    for _ in range(3):  # zoom in while the tiles come out too small
        tile_px = smallest_tile_px(cam, cities)
        if tile_px >= min_tile_px * 1.02:
            info.update(fill=round(fill, 3), height_mm=round(cam.pos[2]), min_tile_px=round(tile_px, 1))
            return cam, info
        if fill >= top:
            break
        fill = min(top, fill * min_tile_px * 1.04 / tile_px)
        cam = _frame(cities, lens, pose, size, fill, off)
        if cam is None:
            break
    return None, info


# --- cities cut by the frame ------------------------------------------------------------------


def _tiles_in_view(cam, city) -> tuple[int, int]:
    """How many of a city's tiles lie wholly inside the frame, and how many wholly outside it."""
    W, H = cam.size
    grid = cam.to_output(cam.project(city.lattice().reshape(-1, 3))[0]).reshape(SIZE + 1, SIZE + 1, 2)
    inside = outside = 0
    for piece in city.pieces:
        rows, cols = zip(*piece["cells"], strict=True)
        corners = grid[min(rows) : max(rows) + 2, min(cols) : max(cols) + 2].reshape(-1, 2)
        x, y = corners[:, 0], corners[:, 1]
        inside += bool(((x >= 0) & (x <= W - 1) & (y >= 0) & (y <= H - 1)).all())
        outside += bool((x < 0).all() or (x > W - 1).all() or (y < 0).all() or (y > H - 1).all())
    return inside, outside


def _cut_by_frame(rng, cam, city, others) -> bool:
    """Lay a city across the frame's edge, near the others: 2+ of its tiles in view, 2+ out,
    MIN_GAP_MM from the others. False when no such place was found."""
    W, H = cam.size
    near = max(np.linalg.norm(o.centre) + o.half for o in others) + city.half + 300
    for _ in range(60):
        side, t = rng.integers(4), rng.uniform(0.05, 0.95)
        edge = np.array(
            [(t * (W - 1), 0), (W - 1, t * (H - 1)), (t * (W - 1), H - 1), (0, t * (H - 1))][side]
        )
        inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side])
        at, further = on_plane(cam, [edge, edge + 40 * inward])
        into = (further - at)[:2] / np.linalg.norm((further - at)[:2])
        city.centre = at[:2] + into * rng.uniform(-0.7, 0.7) * city.half
        city.turn = _turn_towards_builder(rng, city.centre)
        if np.linalg.norm(city.centre) > near:
            continue
        inside, outside = _tiles_in_view(cam, city)
        if (
            inside >= 2
            and outside >= 2
            and all(_gap(city.square(), o.square()) >= MIN_GAP_MM for o in others)
        ):
            return True
    return False


# --- the table and things on it -----------------------------------------------------------------


def _table_edges(rng, level, cities, table_turn) -> tuple[float, np.ndarray]:
    """The table's turn and extent (u0, u1, v0, v1) in its frame (mm): far away, or some sides a
    player's elbow room beyond the cities."""
    angle = table_turn + rng.normal(0, 0.05)
    u, v = _rotated(*np.concatenate([c.square() for c in cities]).T, angle)
    reach = np.array([-u.min(), u.max(), -v.min(), v.max()])
    near = rng.random(4) < 0.5 if rng.random() < (0.3, 0.45, 0.6)[level] else np.zeros(4, bool)
    bounds = np.where(near, reach + rng.uniform(50, 450, 4), 5000.0) * np.array([-1, 1, -1, 1])
    return angle, bounds


def _clutter(rng, level, cam, faces, cities, edges) -> list:
    """Things between the cities (tile backs, loose tiles, cards, coins, pencils, cups), none
    over a city, on the table and in view."""
    count = 0 if rng.random() < 0.15 else int(rng.integers(2, 4 + len(cities) + 2 * level))
    clear = (0.6, 0.4, 0.25)[level] * TILE_MM
    W, H = cam.size
    hulls = []
    for city in cities:
        hull = _image_hull(cam, np.concatenate([b.outline() for b in city.tiles()]))
        hulls.append((hull - hull.mean(0)) * 1.03 + hull.mean(0))
    squares = [c.square().astype(np.float32).reshape(-1, 1, 2) for c in cities]
    spread = max(np.linalg.norm(c.centre) + c.half * 1.5 for c in cities) + 150
    placed, things = [], []
    for i in range(count):
        kind = THING_KINDS[rng.choice(len(THING_KINDS), p=(0.25, 0.15, 0.2, 0.15, 0.12, 0.13))]
        for _ in range(25):
            centre = rng.normal(0, 40, 2) if i == 0 and kind == "backs" else rng.uniform(-1, 1, 2) * spread
            parts, reach = _thing(rng, kind, tuple(centre), faces)
            point = (float(centre[0]), float(centre[1]))
            if max(cv2.pointPolygonTest(s, point, True) for s in squares) > -(clear + reach):
                continue
            if _on_table(centre[:1], centre[1:], *edges)[1][0] < reach:
                continue
            if any(np.hypot(*(centre - c)) < reach + r + 5 for c, r in placed):
                continue
            if not _inside(cam.to_output(cam.project([[*centre, 0]])[0])[0], W, H):
                continue
            hull = _image_hull(cam, np.concatenate([p.outline() for p in parts]))
            if any(_overlaps(hull, h) for h in hulls):
                continue
            placed.append((centre, reach))
            things += parts
            break
    return things


# --- a photo ----------------------------------------------------------------------------------


def seating_order(centres, table_centre, complete) -> tuple[list[int], float]:
    """The complete cities clockwise in the image (y down) around table_centre, from the one
    nearest straight down; also how much nearer (degrees) it is than the runner-up.

    centres: (N, 2) image points; complete: (N,) bool.
    """
    d = np.asarray(centres, float) - table_centre
    angle = np.arctan2(d[:, 1], d[:, 0])
    seated = [i for i in range(len(d)) if complete[i]]
    off_down = {i: abs((angle[i] - math.pi / 2 + math.pi) % (2 * math.pi) - math.pi) for i in seated}
    by_down = sorted(seated, key=off_down.get)
    first = by_down[0]
    margin = off_down[by_down[1]] - off_down[first] if len(seated) > 1 else math.pi
    return sorted(seated, key=lambda i: (angle[i] - angle[first]) % (2 * math.pi)), math.degrees(margin)


def _check(n_cities, family, tier, art, size, min_tile_px, cut):
    if not isinstance(n_cities, int | np.integer) or not 1 <= n_cities <= 7:
        raise ValueError(f"n_cities must be 1 to 7 (got {n_cities!r})")
    if family not in independent_photos.drawable_families() or tier not in TIERS or art not in ARTS:
        raise ValueError(f"unknown family, tier or art: {family!r}, {tier!r}, {art!r}")
    if len(size) != 2 or min(size) < 64 or not min_tile_px > 0 or cut not in (None, True, False):
        raise ValueError(
            f"size must be (w, h) of 64 px or more, min_tile_px > 0, cut None or a bool "
            f"(got {size!r}, {min_tile_px!r}, {cut!r})"
        )


def _lay_out(rng, tier, complete, extra, size, min_tile_px, forced_cut):
    """Seat the complete cities, frame them and cut the extra ones by the frame's edge (some
    tries, each more compact and less tilted). Returns the camera, the cut cities and the info."""
    level = TIERS[tier][2]
    for attempt in range(10):
        info = _seat_cities(rng, complete, level, 0.6**attempt)
        cut = extra if forced_cut or attempt < 5 else []
        max_tilt = min(TIERS[tier][1], MAX_TILT_DEG) * 0.8**attempt
        cam, camera_info = _camera(rng, level, complete, size, min_tile_px, bool(cut), max_tilt)
        if cam is None:
            continue
        placed = []
        for city in cut:
            if not _cut_by_frame(rng, cam, city, complete + placed):
                break
            placed.append(city)
        if len(placed) == len(cut):
            return cam, placed, {**info, **camera_info}
    raise ValueError(
        f"a {size[0]}x{size[1]} photo cannot hold {len(complete)} cities with tiles of {min_tile_px:g} px"
        + (" and cities cut by its edge" if forced_cut else "")
    )


def render_table(
    seed: int,
    n_cities: int,
    family: str,
    tier: str,
    art: str = "artwork",
    size=(4000, 3000),
    min_tile_px: float = 40.0,
    cut: bool | None = None,
) -> tuple[np.ndarray, dict]:
    """A phone photo of a game table with n_cities complete cities: (H, W, 3) uint8 RGB, truth.

    truth: {"cities": [{"grid": 4x4 upright names, "corners": (4, 2) TL TR BR BL of the upright
    city in the image, "complete": False for a city cut by the frame, "centre": (2,)}], "order":
    indices of the complete cities in seating order (see the module), "table_centre": (2,) the
    image of the table centre at the tiles' height, "family", "tier", "art", "scene": how it was
    made}. cut: whether one or two extra cities lie across the frame's edge (None: by chance).
    The same arguments give the same photo.
    """
    rng, level, faces, cam, cities, info = _laid_out(
        seed, n_cities, family, tier, art, size, min_tile_px, cut
    )
    edges = _table_edges(rng, level, cities, info.pop("table_turn"))
    things = _clutter(rng, level, cam, faces, cities, edges)
    image, photo_info = _photograph(rng, family, level, cam, info["lens"], cities, things, edges)
    n_complete = sum(city.complete for city in cities)
    info.update(
        photo_info,
        cities=n_complete,
        cut_cities=len(cities) - n_complete,
        closest_gap_mm=round(min(_closest_gap(cities), 1e4), 1),
        min_tile_px_asked=min_tile_px,
        table_edges=[bool(b < 5000) for b in np.abs(edges[1])],
        things=sorted({type(t).__name__ for t in things}),
    )
    return image, _truth(rng, cam, cities, family, tier, art, info)


def _laid_out(seed, n_cities, family, tier, art, size, min_tile_px, cut):
    """The cities seated and framed, before anything is drawn: the generator (to go on with),
    the tier's level, the tiles' faces, the camera, the cities (complete, then cut) and what
    was made."""
    _check(n_cities, family, tier, art, size, min_tile_px, cut)
    n_cities, size = int(n_cities), (int(size[0]), int(size[1]))
    rng = np.random.default_rng(
        [
            int(seed),
            n_cities,
            independent_photos.drawable_families().index(family),  # the 14's numbers stay as they were
            list(TIERS).index(tier),
            ARTS.index(art),
            *size,
            round(min_tile_px * 1000),
            (None, False, True).index(cut),
        ]
    )
    level = TIERS[tier][2]
    wants_cut = rng.random() < CUT_CHANCE if cut is None else cut
    faces = Faces(rng, art)
    tile_gloss = rng.uniform(0.008, 0.035) * (1.6 if art == "printed" else 1.0)
    cities = _draw_cities(
        rng, n_cities + (rng.integers(1, MAX_CUT + 1) if wants_cut else 0), faces, level, tile_gloss
    )
    complete, extra = cities[:n_cities], cities[n_cities:]
    cam, cut_cities, info = _lay_out(rng, tier, complete, extra, size, min_tile_px, cut is True)
    for city in cut_cities:
        city.complete = False
    return rng, level, faces, cam, complete + cut_cities, info


def table_layout(
    seed: int,
    n_cities: int,
    family: str,
    tier: str,
    art: str = "artwork",
    size: tuple[int, int] = (4000, 3000),
    min_tile_px: float = 40.0,
    cut: bool | None = None,
) -> dict:
    """Where render_table's cities lie in its photo, without drawing it (milliseconds, not
    seconds): {"corners": (N, 4, 2) TL TR BR BL of each complete city in the image, "order":
    their seating order (indices into corners), "margin_deg": how much nearer straight down
    the first seat is than the runner-up, "layout": ring, ellipse or rectangle}."""
    *_, cam, cities, info = _laid_out(seed, n_cities, family, tier, art, size, min_tile_px, cut)
    whole = [city for city in cities if city.complete]
    _, corners, _, order, margin = _in_photo(cam, whole)
    return {"corners": corners, "order": order, "margin_deg": margin, "layout": info["layout"]}


def _in_photo(cam, cities) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int], float]:
    """Where the cities lie in the photo: their centres (N, 2), corners (N, 4, 2) and the
    table centre (2,); the complete ones' seating order around it and its margin."""
    centres = cam.to_output(cam.project([[*c.centre, THICK_MM] for c in cities])[0])
    table_centre = cam.to_output(cam.project([[0.0, 0.0, THICK_MM]])[0])[0]
    order, margin = seating_order(centres, table_centre, [c.complete for c in cities])
    corners = np.array([cam.to_output(cam.project(c.corners3())[0]) for c in cities])
    return centres, corners, table_centre, order, margin


def _photograph(rng, family, level, cam, lens, cities, things, edges) -> tuple[np.ndarray, dict]:
    """The table, its cities and things through the single-city renderer's light, optics and phone."""
    W, H = cam.size
    canvas = Canvas(*cam.canvas_size)
    table = _table(rng, family, cam, canvas, level, 0.0, edges=edges, max_texels=max(MAX_TEX_PX, 0.6 * W * H))
    scene = [b for c in cities for b in c.tiles()] + things
    scene.sort(key=lambda t: -np.linalg.norm(_centre3(t) - cam.pos))
    for thing in scene:
        _draw(canvas, cam, thing)
    lighting = _lighting(rng, level, cam)
    focus_depth = float(cam.project(on_plane(cam, [((W - 1) / 2, (H - 1) / 2)]))[1][0])
    shadows = _shadows(
        canvas, cam, scene, lighting["lights"][lighting["key"]], table["ground"], cam.f / focus_depth
    )
    hand = _hand(rng, canvas.shape) if rng.random() < (0.05, 0.2, 0.35)[level] else None
    radiance = _shade(canvas, cam, table, lighting, shadows, hand, level)
    info = dict(lighting["info"], hand_shadow=hand is not None)
    linear = _optics(rng, radiance, table["depth"], cam, level, focus_depth, LENSES[lens][2], info)
    light_colour = lighting["ambient"] + sum(light.colour for light in lighting["lights"])
    return _phone(rng, linear, level, light_colour, info), info


def _truth(rng, cam, cities, family, tier, art, info) -> dict:
    """The cities (in a drawn order), their seating order and how the photo was made."""
    cities = [cities[i] for i in rng.permutation(len(cities))]
    centres, corners, table_centre, order, margin = _in_photo(cam, cities)
    info.update(order_margin_deg=round(margin, 1), tile_gap_mm=[round(c.gap, 2) for c in cities])
    return {
        "cities": [
            {
                "grid": city.grid,
                "corners": np.round(city_corners, 2).tolist(),
                "complete": city.complete,
                "centre": np.round(centre, 2).tolist(),
            }
            for city, centre, city_corners in zip(cities, centres, corners, strict=True)
        ],
        "order": order,
        "table_centre": np.round(table_centre, 2).tolist(),
        "family": family,
        "tier": tier,
        "art": art,
        "scene": info,
    }


def main(argv=None) -> int:
    """Write one table photo (JPEG or PNG) and its truth JSON beside it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cities", type=int, default=4)
    parser.add_argument(
        "--family",
        choices=FAMILIES + unseen_tables.FAMILIES,
        help="default: one of the 14 chosen by the seed (or one of bench/unseen_tables.py's)",
    )
    parser.add_argument("--tier", choices=list(TIERS), default="medium")
    parser.add_argument("--art", choices=ARTS, default="artwork")
    parser.add_argument("--size", type=int, nargs=2, default=(4000, 3000), metavar=("W", "H"))
    parser.add_argument("--min-tile-px", type=float, default=40.0)
    parser.add_argument("--cut", choices=("yes", "no", "maybe"), default="maybe")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    family = args.family or FAMILIES[args.seed % len(FAMILIES)]
    if family in unseen_tables.FAMILIES:
        unseen_tables.register()
    cut = {"yes": True, "no": False, "maybe": None}[args.cut]
    image, truth = render_table(
        args.seed, args.cities, family, args.tier, args.art, tuple(args.size), args.min_tile_px, cut
    )
    if not cv2.imwrite(str(args.out), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise OSError(f"could not write {args.out}")
    args.out.with_suffix(".json").write_text(json.dumps(truth, indent=1))
    cut_off = sum(not city["complete"] for city in truth["cities"])
    print(f"{args.out}: cities in seating order {truth['order']}, {cut_off} more cut by the frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
