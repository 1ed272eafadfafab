"""Independent photos of a finished city on a table, for bench/independent.py.

A second renderer, written apart from the training one so that the benchmark does not share its
blind spots. World units are millimetres: the table top is the plane z = 0, the city is centred
at the origin, row 0 to the north (+y), column 0 to the west (-x); tiles are 45 mm boxes 2 mm high.

    image, truth = render(seed, family, tier, art="artwork", size=(1600, 1200))

Stages: sample a legal city -> lay its tiles out by hand (gaps, offsets, turns) with things and
maybe a neighbour's city around it -> a phone camera (35 mm-equivalent focal length, 3D pose,
radial distortion) -> albedo, normals and gloss rasterised on an undistorted canvas -> lighting
(ceiling lamp, desk lamp, window, overcast, flash; shadows, a hand's shadow, reflections) ->
optics (defocus by depth, motion blur, distortion, colour fringes, vignetting) -> sensor and phone
pipeline (exposure, noise, white balance, tone curve, denoise, sharpening, JPEG).
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorer.city import BUILDINGS, GAME_SUPPLY, SIZE, TAVERN_KINDS
from scorer.duplex import DUPLEX_TILES, domino_cells

ART_DIR = Path(os.environ.get("BTC_TILE_ART", Path(__file__).resolve().parents[2] / "shared" / "tile-art"))

FAMILIES = (
    "gingham",
    "tartan",
    "stripes",
    "polka",
    "floral",
    "marble",
    "ceramic",
    "dark-wood",
    "light-wood",
    "linen",
    "newspaper",
    "glass",
    "collage",
    "terrazzo",
)
MORE_FAMILIES: list[str] = []  # families another module adds (bench/unseen_tables.py's register())
# city size (its mean side over the frame's short side), largest tilt in degrees, effects 0..2
TIERS = {"easy": ((0.55, 0.90), 15.0, 0), "medium": ((0.30, 0.90), 30.0, 1), "hard": ((0.12, 0.90), 45.0, 2)}
ARTS = ("artwork", "printed")

TILE_MM = 45.0
THICK_MM = 2.0
MIN_CELL_PX = 30.0
UP = np.array([0.0, 0.0, 1.0])


# --- colour -----------------------------------------------------------------------------------

_LIN_LUT = np.where(
    np.linspace(0, 1, 4096) <= 0.04045,
    np.linspace(0, 1, 4096) / 12.92,
    ((np.linspace(0, 1, 4096) + 0.055) / 1.055) ** 2.4,
).astype(np.float32)
_SRGB_LUT = np.where(
    np.linspace(0, 1, 4096) <= 0.0031308,
    np.linspace(0, 1, 4096) * 12.92,
    1.055 * np.linspace(0, 1, 4096) ** (1 / 2.4) - 0.055,
).astype(np.float32)


def to_linear(srgb: np.ndarray) -> np.ndarray:
    """sRGB in [0, 1] (any shape) -> linear light, float32."""
    return _LIN_LUT[np.clip(srgb * 4095 + 0.5, 0, 4095).astype(np.int32)]


def to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] (any shape) -> sRGB, float32."""
    return _SRGB_LUT[np.clip(linear * 4095 + 0.5, 0, 4095).astype(np.int32)]


def rgb(*components) -> np.ndarray:
    """An sRGB colour from 0..255 components: (3,) float32 in [0, 1]."""
    return np.array(components, np.float32) / 255


def _lobe(lam, mu, s1, s2):
    return np.exp(-0.5 * ((lam - mu) / np.where(lam < mu, s1, s2)) ** 2)


@functools.lru_cache(maxsize=256)
def _kelvin(t: int) -> tuple:
    lam = np.arange(380.0, 781.0, 5.0)
    planck = lam**-5.0 / np.expm1(1.4388e7 / (lam * t))
    planck /= planck.max()
    xyz = (
        np.array(
            [
                1.056 * _lobe(lam, 599.8, 37.9, 31.0)
                + 0.362 * _lobe(lam, 442.0, 16.0, 26.7)
                - 0.065 * _lobe(lam, 501.1, 20.4, 26.2),
                0.821 * _lobe(lam, 568.8, 46.9, 40.5) + 0.286 * _lobe(lam, 530.9, 16.3, 31.1),
                1.217 * _lobe(lam, 437.0, 11.8, 36.0) + 0.681 * _lobe(lam, 459.0, 26.0, 13.8),
            ]
        )
        @ planck
    )
    lin = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]) @ xyz
    return tuple(np.maximum(lin / lin.max(), 1e-4))


def kelvin(t: float) -> np.ndarray:
    """The colour of a black body at t kelvin relative to 6500 K, luminance 1: (3,) linear RGB."""
    c = np.array(_kelvin(int(round(t / 50) * 50))) / np.array(_kelvin(6500))
    return (c / (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])).astype(np.float32)


# --- the game's tiles -------------------------------------------------------------------------


def _read_rgb(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"tile art missing: {path} (see {ART_DIR / 'README.md'})")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


@functools.lru_cache(maxsize=1)
def load_art() -> dict:
    """The tile faces as uint8 RGB: {"singles": {name: (334, 334, 3)}, "back": (334, 334, 3),
    "duplex": {(layout, first, second): (334, 668, 3) or (668, 334, 3)}}."""
    singles = {name: _read_rgb(ART_DIR / "singles" / f"{name}.png") for name in BUILDINGS}
    meta = json.loads((ART_DIR / "duplex.json").read_text())["duplex"]
    duplex = {}
    for entry in meta:
        first, second = (
            (entry["left"], entry["right"])
            if entry["layout"] == "horizontal"
            else (entry["top"], entry["bottom"])
        )
        duplex[(entry["layout"], first, second)] = _read_rgb(ART_DIR / entry["file"])
    missing = set(DUPLEX_TILES) - set(duplex)
    if missing:
        raise ValueError(f"duplex.json lacks {sorted(missing)}")
    return {"singles": singles, "back": _read_rgb(ART_DIR / "back.png"), "duplex": duplex}


def singles_bag() -> list[str]:
    """The game's single tiles, one entry per tile (supply minus duplex halves)."""
    halves = {b: 0 for b in BUILDINGS}
    for _, first, second in DUPLEX_TILES:
        halves[first] += 1
        halves[second] += 1
    return [b for b in BUILDINGS for _ in range(GAME_SUPPLY[b] - halves[b])]


def sample_city(rng: np.random.Generator, supply: dict | None = None) -> tuple[list[list[str]], list[dict]]:
    """A legal upright city: two duplex tiles on free cell pairs, twelve singles from the bag.

    Returns the grid (4x4 names) and its pieces [{"cells": [(r, c), ...], "tile": key}], key
    ("single", name) or ("duplex", layout, first, second). supply: the tiles left in the box,
    {"duplex": [index into DUPLEX_TILES], "singles": [name]}, drawn from and left without the
    tiles used (for several cities of one table); None: the whole game's tiles.
    """
    grid = [[""] * SIZE for _ in range(SIZE)]
    pieces = []
    duplex = range(len(DUPLEX_TILES)) if supply is None else supply["duplex"]
    drawn = rng.choice(len(duplex), 2, replace=False)
    for index in drawn:
        layout, first, second = DUPLEX_TILES[duplex[index]]
        free = [pair for pair in domino_cells(layout) if all(not grid[r][c] for r, c in pair)]
        pair = free[rng.integers(len(free))]
        for (r, c), name in zip(pair, (first, second), strict=True):
            grid[r][c] = name
        pieces.append({"cells": list(pair), "tile": ("duplex", layout, first, second)})
    bag = singles_bag() if supply is None else supply["singles"]
    empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if not grid[r][c]]
    chosen = rng.choice(len(bag), len(empty), replace=False)
    for (r, c), i in zip(empty, chosen, strict=True):
        grid[r][c] = bag[i]
        pieces.append({"cells": [(r, c)], "tile": ("single", bag[i])})
    if supply is not None:
        used_duplex, used_singles = set(drawn.tolist()), set(chosen.tolist())
        supply["duplex"] = [d for k, d in enumerate(duplex) if k not in used_duplex]
        supply["singles"] = [b for k, b in enumerate(bag) if k not in used_singles]
    return grid, pieces


# --- the printed game: four tavern pictures of its own, and a print look ----------------------

PICTURE_BOX = (21, 21, 313, 279)  # x0, y0, x1, y1 of a face's picture inside frame and strip
DIAMOND_PAD = 2.5  # px of the white outline around the tavern diamond


def _tavern_diamond(face: np.ndarray) -> tuple[float, float, float]:
    """Centre x, y and half-diagonal of the red tavern diamond near the top-left of a face."""
    n = face.shape[0]
    lo, hi = int(0.08 * n), int(0.38 * n)
    box = face[lo:hi, lo:hi].astype(int)
    red = (box[..., 0] > 140) & (box[..., 1] < 90) & (box[..., 2] < 90)
    ys, xs = np.nonzero(red)
    top, left = ys.min(), xs.min()
    cx, cy = xs[ys == top].mean() + lo, ys[xs == left].mean() + lo
    return cx, cy, (cx - left - lo + cy - top - lo) / 2


def _diamond_alpha(n: int, cx: float, cy: float, half: float) -> np.ndarray:
    """(n, n) float32 coverage of the diamond |x - cx| + |y - cy| <= half, antialiased."""
    y, x = np.mgrid[0:n, 0:n].astype(np.float32)
    return np.clip(half - np.abs(x - cx) - np.abs(y - cy) + 0.5, 0, 1)


class _Sketch:
    """A picture drawn as layers of flat shapes with soft drop shadows, in fractions of its size.

    canvas: (h, w, 3) float32 sRGB, painted in place. Positions are fractions of the width (x)
    and height (y); sizes are fractions of the width.
    """

    def __init__(self, canvas: np.ndarray):
        self.canvas = canvas
        self.h, self.w = canvas.shape[:2]

    def _pt(self, x, y) -> tuple:
        return int(x * self.w), int(y * self.h)

    def _n(self, size) -> int:
        return max(1, int(size * self.w))

    def lay(self, draw, colour, shadow=0.0, offset=(5, 7), soft=5.0):
        """Paint colour (3,) or (h, w, 3) where draw(mask) paints 255, with a drop shadow."""
        mask = np.zeros((self.h, self.w), np.uint8)
        draw(mask)
        x, y, w, h = cv2.boundingRect(mask)
        if not w:
            return
        reach = int(abs(offset[0]) + abs(offset[1]) + 3 * soft + 2) if shadow else 0
        y0, x0 = max(0, y - reach), max(0, x - reach)
        y1, x1 = min(self.h, y + h + reach), min(self.w, x + w + reach)
        m, region = mask[y0:y1, x0:x1].astype(np.float32) / 255, self.canvas[y0:y1, x0:x1]
        if shadow:
            cast = cv2.GaussianBlur(np.roll(m, offset, axis=(0, 1)), (0, 0), soft)
            region *= 1 - shadow * cast[..., None]
        paint = np.asarray(colour, np.float32)
        region += ((paint[y0:y1, x0:x1] if paint.ndim == 3 else paint) - region) * m[..., None]

    def disc(self, x, y, r, colour, **kw):
        self.lay(lambda m: cv2.circle(m, self._pt(x, y), self._n(r), 255, -1, cv2.LINE_AA), colour, **kw)

    def ellipse(self, x, y, ax, ay, angle, colour, arc=(0, 360), **kw):
        self.lay(
            lambda m: cv2.ellipse(
                m, self._pt(x, y), (self._n(ax), self._n(ay)), angle, *arc, 255, -1, cv2.LINE_AA
            ),
            colour,
            **kw,
        )

    def box(self, x0, y0, x1, y1, colour, **kw):
        self.lay(lambda m: cv2.rectangle(m, self._pt(x0, y0), self._pt(x1, y1), 255, -1), colour, **kw)

    def poly(self, points, colour, **kw):
        pts = np.array([self._pt(x, y) for x, y in points], np.int32)
        self.lay(lambda m: cv2.fillPoly(m, [pts], 255, cv2.LINE_AA), colour, **kw)

    def path(self, points, width, colour, **kw):
        pts = np.array([self._pt(x, y) for x, y in points], np.int32)
        self.lay(lambda m: cv2.polylines(m, [pts], False, 255, self._n(width), cv2.LINE_AA), colour, **kw)

    def person(self, rng, x, y, size, facing):
        """A guest seen from above: shoulders, arms reaching forward (facing, rad), a head."""
        shirt = _pick(
            rng,
            [
                (150, 40, 40),
                (40, 70, 120),
                (90, 110, 60),
                (200, 180, 140),
                (110, 80, 120),
                (60, 60, 60),
                (180, 120, 50),
            ],
        )
        hair = _pick(
            rng, [(40, 28, 20), (90, 60, 30), (200, 170, 110), (30, 30, 30), (140, 70, 40), (180, 180, 175)]
        )
        fx, fy = math.cos(facing) * size, math.sin(facing) * size * self.w / self.h
        sx, sy = fy * self.h / self.w, fx * self.w / self.h  # sideways, in fractions of each axis
        angle = math.degrees(facing) + 90

        def body(m):
            for cx, cy, ax, ay, a in (
                (x, y, 0.5, 0.24, angle),
                (x + 0.25 * fx - 0.38 * sx, y + 0.25 * fy + 0.38 * sy, 0.1, 0.22, angle + 90),
                (x + 0.25 * fx + 0.38 * sx, y + 0.25 * fy - 0.38 * sy, 0.1, 0.22, angle + 90),
            ):
                cv2.ellipse(
                    m,
                    self._pt(cx, cy),
                    (self._n(ax * size), self._n(ay * size)),
                    a,
                    0,
                    360,
                    255,
                    -1,
                    cv2.LINE_AA,
                )

        self.lay(body, shirt * rng.uniform(0.85, 1.1), shadow=0.35)
        self.ellipse(x + 0.06 * fx, y + 0.06 * fy, 0.16 * size, 0.18 * size, angle, hair)


def _painted_noise(rng, shape, scale, amp) -> np.ndarray:
    """(h, w, 1) multiplicative painterly grain around 1."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.2)
    return (1 + amp * big + amp * 0.6 * fine)[..., None]


def _planks(rng, shape, width, base, horizontal=True) -> np.ndarray:
    """A floor of wooden planks `width` px wide: (h, w, 3) float32 sRGB."""
    h, w = shape if horizontal else shape[::-1]
    out = np.empty((h, w, 3), np.float32)
    grain = cv2.resize(rng.standard_normal((64, 8)).astype(np.float32), (w, 64))
    for k, start in enumerate(range(0, h, width)):
        out[start : start + width] = base * rng.uniform(0.8, 1.15) * (1 + 0.08 * grain[(k * 7) % 64])[:, None]
        out[start : start + 2] *= 0.55
    return out if horizontal else np.ascontiguousarray(out.transpose(1, 0, 2))


def _pub(rng, h, w):
    """tavern-drink: a pub from above, planks, an L-shaped bar with stools, tables with guests."""
    sk = _Sketch(_planks(rng, (h, w), int(h / 9), rgb(120, 78, 44)))
    sk.poly(
        [(0.18, 0), (1, 0), (1, 0.62), (0.84, 0.62), (0.84, 0.17), (0.18, 0.17)], rgb(70, 40, 22), shadow=0.5
    )
    for i in range(9):
        sk.disc(0.22 + 0.065 * i, 0.06, 0.017, _pick(rng, [(40, 110, 50), (120, 60, 20), (200, 200, 190)]))
    for i in range(6):
        sk.disc(0.25 + 0.1 * i, 0.22, 0.025, rgb(40, 25, 15), shadow=0.3)
        sk.disc(0.79, 0.2 + 0.07 * i, 0.025, rgb(40, 25, 15), shadow=0.3)
    for x, y in ((0.22, 0.45), (0.52, 0.42), (0.3, 0.78), (0.66, 0.8)):
        r = rng.uniform(0.07, 0.09)
        for k in range(rng.integers(2, 5)):
            a = k * math.pi / 2 + rng.uniform(-0.3, 0.3)
            sk.person(rng, x + 1.5 * r * math.cos(a), y + 1.5 * r * math.sin(a) * w / h, 0.1, a + math.pi)
        sk.disc(x, y, r, rgb(95, 55, 28), shadow=0.45)
        for _ in range(3):
            a = rng.uniform(0, 2 * math.pi)
            sk.disc(
                x + 0.5 * r * math.cos(a), y + 0.5 * r * math.sin(a) * w / h, 0.18 * r, rgb(235, 225, 200)
            )
    for k in range(3):
        sk.disc(0.07, 0.3 + 0.13 * k, 0.055, rgb(110, 70, 35), shadow=0.4)
    return sk.canvas


def _garden(rng, h, w):
    """tavern-food: a garden restaurant, lawn, a gravel path, parasols over tables, hedges."""
    sk = _Sketch(np.broadcast_to(rgb(86, 128, 52), (h, w, 3)) * _painted_noise(rng, (h, w), 18, 0.12))
    sk.path(
        [(0, 0.7), (0.3, 0.55), (0.6, 0.62), (1, 0.4)],
        0.1,
        rgb(206, 190, 150) * _painted_noise(rng, (h, w), 3, 0.08),
    )
    for k in range(26):
        x, y = (
            (rng.uniform(0, 1), rng.uniform(0, 0.08)) if k % 2 else (rng.uniform(0, 0.06), rng.uniform(0, 1))
        )
        sk.disc(x, y, rng.uniform(0.04, 0.07), rgb(40, 82, 34) * rng.uniform(0.8, 1.2), shadow=0.4)
    cloth = (rgb(200, 40, 40), rgb(40, 80, 160), rgb(230, 180, 40))
    white = rgb(240, 236, 225)
    for k, (x, y) in enumerate(((0.3, 0.3), (0.68, 0.22), (0.5, 0.82), (0.85, 0.7))):
        r = rng.uniform(0.12, 0.15)
        for a in (30, 150, 270):
            sk.disc(
                x + 1.05 * r * math.cos(math.radians(a)),
                y + 1.05 * r * math.sin(math.radians(a)) * w / h,
                0.18 * r,
                rgb(245, 245, 240),
                shadow=0.3,
            )
        px = int(r * w)
        for s in range(8):
            shade = 0.85 + 0.15 * math.cos(math.radians(s * 45 - 135))
            sk.ellipse(
                x,
                y,
                r,
                r,
                0,
                (cloth[k % 3] if s % 2 else white) * shade,
                arc=(s * 45, s * 45 + 45),
                shadow=0.5 if s == 0 else 0.0,
                offset=(int(px * 0.3), int(px * 0.4)),
                soft=px * 0.2,
            )
    return sk.canvas


def _stage(rng, h, w):
    """tavern-music: a hall with a wooden stage, instruments, spotlights and an audience."""
    sk = _Sketch(np.broadcast_to(rgb(52, 36, 70), (h, w, 3)) * _painted_noise(rng, (h, w), 10, 0.1))
    boards = _planks(rng, (h, w), int(h / 14), rgb(170, 120, 70), horizontal=False)
    sk.ellipse(0.5, 0, 0.55, 0.5 * h / w, 0, boards, arc=(0, 180), shadow=0.6)
    sk.box(0.12, 0.05, 0.34, 0.3, rgb(20, 20, 24), shadow=0.5)
    sk.box(0.12, 0.27, 0.34, 0.3, rgb(235, 235, 230))
    for x, y, r, colour in (
        (0.55, 0.14, 0.07, (230, 230, 225)),
        (0.66, 0.1, 0.05, (200, 40, 40)),
        (0.47, 0.08, 0.045, (200, 40, 40)),
        (0.72, 0.22, 0.05, (215, 175, 60)),
        (0.44, 0.25, 0.045, (215, 175, 60)),
    ):
        sk.disc(x, y, r, rgb(*colour), shadow=0.4)
    for x in (0.3, 0.55, 0.8):
        spot = np.zeros((h, w), np.float32)
        cv2.ellipse(spot, (int(w * x), int(h * 0.3)), (int(w * 0.12), int(h * 0.09)), 0, 0, 360, 1.0, -1)
        sk.canvas += cv2.GaussianBlur(spot, (0, 0), w * 0.03)[..., None] * rgb(255, 210, 120) * 0.55
    for row in range(4):
        for k in range(9):
            x = 0.07 + 0.11 * k + 0.05 * (row % 2) + rng.uniform(-0.01, 0.01)
            sk.person(rng, x, 0.6 + 0.12 * row, 0.09, -math.pi / 2 + rng.uniform(-0.3, 0.3))
    return np.clip(sk.canvas, 0, 1)


def _inn(rng, h, w):
    """tavern-bed: an inn with its roof off, a row of rooms with beds, rugs and a corridor."""
    sk = _Sketch(np.broadcast_to(rgb(196, 170, 128), (h, w, 3)) * _painted_noise(rng, (h, w), 6, 0.06))
    sk.box(0, 0.78, 1, 0.9, rgb(150, 40, 36))
    wood = rgb(80, 55, 40)
    for k in range(4):
        x0, x1 = k / 4, (k + 1) / 4
        sk.box(x0 + 0.04, 0.42, x1 - 0.04, 0.66, _pick(rng, [(120, 60, 50), (60, 90, 120), (150, 120, 60)]))
        b0, b1 = x0 + 0.05, x1 - 0.05
        sk.box(b0, 0.05, b1, 0.5, rgb(90, 55, 30), shadow=0.5)
        blanket = _pick(rng, [(60, 100, 160), (70, 130, 70), (170, 50, 50), (200, 160, 60), (120, 80, 140)])
        sk.box(b0 + 0.006, 0.16, b1 - 0.006, 0.48, blanket * _painted_noise(rng, (h, w), 4, 0.1))
        sk.box(b0 + 0.006, 0.15, b1 - 0.006, 0.2, rgb(240, 238, 230))
        sk.ellipse((b0 + b1) / 2, 0.1, (b1 - b0) / 2 - 0.01, 0.035 * h / w, 0, rgb(250, 250, 245), shadow=0.3)
        glow = np.zeros((h, w), np.float32)
        cv2.circle(glow, (int((b1 + x1) / 2 * w), int(0.08 * h)), 4, 1.0, -1, cv2.LINE_AA)
        sk.canvas += cv2.GaussianBlur(glow, (0, 0), 6)[..., None] * rgb(255, 200, 90) * 1.5
        if k:
            sk.box(x0 - 0.005, 0, x0 + 0.005, 0.74, wood, shadow=0.5)
    sk.box(0, 0.74, 1, 0.76, wood, shadow=0.5)
    return np.clip(sk.canvas, 0, 1)


TAVERN_PICTURES = {"tavern-drink": _pub, "tavern-food": _garden, "tavern-music": _stage, "tavern-bed": _inn}


@functools.lru_cache(maxsize=4)
def printed_tavern(kind: str) -> np.ndarray:
    """The printed game's face of a tavern kind: (334, 334, 3) uint8 RGB.

    The frame and scoring strip of the artwork, a picture of its own drawn here, and the kind's
    icon cut (as a diamond) from the artwork's face.
    """
    face = load_art()["singles"][kind]
    x0, y0, x1, y1 = PICTURE_BOX
    rng = np.random.default_rng(TAVERN_KINDS.index(kind) + 4242)
    up = 2
    picture = TAVERN_PICTURES[kind](rng, (y1 - y0) * up, (x1 - x0) * up)
    picture = np.clip(picture * _painted_noise(rng, picture.shape[:2], 6 * up, 0.05), 0, 1)
    ramp = np.minimum.outer(*(np.minimum(np.arange(n), np.arange(n)[::-1]) for n in picture.shape[:2]))
    picture *= (1 - 0.35 * np.exp(-ramp / (8.0 * up)))[..., None]  # shade where the frame meets it
    picture = cv2.GaussianBlur(picture, (0, 0), 0.8 * up)
    picture = cv2.resize(picture, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    out = face.astype(np.float32) / 255
    edge = np.ones((y1 - y0, x1 - x0), np.float32)
    edge[:, :2] = edge[:, -2:] = 0.5
    edge[:2] = edge[-2:] = 0.5
    region = out[y0:y1, x0:x1]
    region += (picture - region) * edge[..., None]
    cx, cy, half = _tavern_diamond(face)
    alpha = _diamond_alpha(face.shape[0], cx, cy, half + DIAMOND_PAD)
    out += (face.astype(np.float32) / 255 - out) * alpha[..., None]
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)


def print_run(rng):
    """One print run of the game: a function making a face (h, w, 3) uint8 look printed ->
    (h, w, 3) float32 sRGB, with this run's ink colours, black level, halftone and paper grain."""
    mix = np.eye(3, dtype=np.float32) + rng.uniform(-0.05, 0.05, (3, 3)).astype(np.float32)
    mix /= mix.sum(axis=1, keepdims=True)
    gamma = rng.uniform(0.9, 1.12, 3).astype(np.float32)
    saturation = rng.uniform(0.82, 1.1)
    black = rng.uniform(0.02, 0.07)
    paper = np.array([1.0, rng.uniform(0.97, 1.0), rng.uniform(0.92, 0.99)], np.float32)
    period = rng.uniform(3.0, 5.0)
    strength = rng.uniform(0.02, 0.05)
    grain_seed = int(rng.integers(2**31))

    @functools.lru_cache(maxsize=4)
    def screen(h: int, w: int) -> np.ndarray:
        """Halftone dots of the three inks at their screen angles and the paper's grain: (h, w, 4)."""
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        out = np.empty((h, w, 4), np.float32)
        for ch, angle in enumerate((15, 75, 45)):
            a = math.radians(angle)
            u, v = x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)
            out[..., ch] = np.cos(2 * math.pi * u / period) * np.cos(2 * math.pi * v / period)
        noise = np.random.default_rng([grain_seed, h, w]).standard_normal((h, w)).astype(np.float32)
        out[..., 3] = cv2.GaussianBlur(noise, (0, 0), 0.8)
        return out

    def look(face: np.ndarray) -> np.ndarray:
        f = np.clip((face.astype(np.float32) / 255) @ mix.T, 0, 1) ** gamma
        grey = f.mean(axis=2, keepdims=True)
        f = np.clip(grey + (f - grey) * saturation, 0, 1)
        dots = screen(*f.shape[:2])
        f *= 1 + strength * dots[..., :3] * (1 - f)
        f = (black + (1 - black) * np.clip(f, 0, 1)) * paper * (1 + 0.025 * dots[..., 3:])
        return np.clip(f, 0, 1)

    return look


# --- procedural helpers for tables and things ---------------------------------------------------


def _rotated(X, Y, angle):
    """World coordinates turned by angle: u along, v across; both (h, w) float32."""
    c, s = math.cos(angle), math.sin(angle)
    u, v = X * c + Y * s, -X * s + Y * c
    return u.astype(np.float32), v.astype(np.float32)


def _lattice(rng, u, v, su, sv) -> np.ndarray:
    """Smooth noise of about unit spread at world coordinates u, v ((h, w) mm), features su x sv mm."""
    u, v = np.broadcast_arrays(u, v)
    span = max(float(u.max() - u.min()) / su, 1.0) * max(float(v.max() - v.min()) / sv, 1.0)
    grow = max(1.0, math.sqrt(span / 4e6))
    a = np.ascontiguousarray(u / (su * grow), dtype=np.float32)
    b = np.ascontiguousarray(v / (sv * grow), dtype=np.float32)
    a0, b0 = float(a.min()), float(b.min())
    grid = rng.standard_normal((int(b.max() - b0) + 4, int(a.max() - a0) + 4)).astype(np.float32)
    out = cv2.remap(grid, a - a0 + 1, b - b0 + 1, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)
    return out / max(float(out.std()), 1e-3)


def _fbm(rng, u, v, size, texel, octaves=4, stretch=1.0, noise=None) -> np.ndarray:
    """Fractal noise from feature size `size` (mm) down, skipping octaves finer than two texels;
    each octave `noise(rng, u, v, su, sv)` (default _lattice)."""
    total = np.zeros(np.broadcast_shapes(np.shape(u), np.shape(v)), np.float32)
    norm, amp = 0.0, 1.0
    for i in range(octaves):
        s = size / 2**i
        if min(s, s * stretch) < 2 * texel:
            break
        total += amp * (noise or _lattice)(rng, u, v, s * stretch, s)
        norm += amp * amp
        amp *= 0.55
    return total / math.sqrt(norm) if norm else total


def _stripes(u, period, duty, blur) -> np.ndarray:
    """1 on stripes of width duty * period centred on multiples of period, soft over blur mm."""
    d = np.abs((u / period + 0.5) % 1.0 - 0.5) * period
    return np.clip((duty * period / 2 - d) / blur + 0.5, 0, 1)


def _bands(u, widths, colours) -> np.ndarray:
    """Colour (h, w, 3) of repeating bands of the given widths (mm) along u."""
    edges = np.cumsum(widths)
    idx = np.searchsorted(edges, u % edges[-1], side="right")
    return np.asarray(colours, np.float32)[np.minimum(idx, len(colours) - 1)]


def _pick(rng, palette) -> np.ndarray:
    return rgb(*palette[rng.integers(len(palette))])


def _log_uniform(rng, lo, hi) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _cloth(rng, X, Y, texel, angle, folds=True) -> np.ndarray:
    """Multiplier (h, w, 1) of a woven cloth: threads, mottling and soft folds lit from one side."""
    u, v = _rotated(X, Y, angle)
    out = 1 + 0.03 * _fbm(rng, X, Y, 30.0, texel, 4)
    thread = rng.uniform(0.35, 0.9)
    if thread > 3 * texel:
        out *= 1 + 0.06 * np.cos(2 * np.pi * u / thread) * np.cos(2 * np.pi * v / thread)
    if folds:
        height = _fbm(rng, u, v, rng.uniform(50, 160), max(texel, 2.0), 3, stretch=rng.uniform(1.5, 4))
        slope = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) + cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3)
        out *= 1 + rng.uniform(0.03, 0.1) * np.clip(slope / max(float(slope.std()), 1e-4), -3, 3)
    return out[..., None]


CLOTH = [
    (200, 30, 40),
    (30, 60, 150),
    (20, 110, 60),
    (25, 25, 30),
    (230, 190, 40),
    (230, 120, 150),
    (120, 170, 220),
    (150, 40, 90),
    (240, 130, 40),
    (90, 140, 60),
]
TARTAN = [
    (20, 30, 70),
    (20, 70, 40),
    (170, 30, 35),
    (25, 25, 25),
    (220, 190, 60),
    (235, 235, 225),
    (90, 130, 190),
    (110, 70, 40),
    (130, 130, 130),
    (100, 20, 30),
]
PASTEL = [
    (245, 240, 225),
    (225, 235, 245),
    (240, 225, 225),
    (230, 240, 225),
    (30, 40, 70),
    (20, 20, 24),
    (250, 250, 250),
    (235, 225, 200),
]


def _gingham(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi) if rng.random() < 0.6 else rng.normal(0, 0.05)
    u, v = _rotated(X, Y, angle)
    period = _log_uniform(rng, 4, 40)
    blur = max(texel, 0.04 * period)
    m = (_stripes(u, period, 0.5, blur) + _stripes(v, period, 0.5, blur)) / 2
    m = m ** rng.uniform(0.7, 1.5)
    base = rgb(246, 243, 236) * rng.uniform(0.9, 1.0)
    out = base + (_pick(rng, CLOTH) - base) * m[..., None]
    return out * _cloth(rng, X, Y, texel, angle)


def _tartan(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    n = rng.integers(3, 7)
    colours = [_pick(rng, TARTAN) for _ in range(n)]
    widths = list(rng.choice([1.5, 3, 6, 10, 16, 24], n) * rng.uniform(0.6, 1.4))
    colours += colours[-2:0:-1]
    widths += widths[-2:0:-1]
    warp, weft = _bands(u, widths, colours), _bands(v, widths, colours)
    twill = 0.5
    thread = rng.uniform(0.6, 1.2)
    if thread > 2 * texel:
        twill = 0.5 + 0.35 * np.sign(np.sin(2 * np.pi * (u + v) / (2 * thread)))[..., None]
    return (warp * twill + weft * (1 - twill)) * _cloth(rng, X, Y, texel, angle)


def _stripe_cloth(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, _ = _rotated(X, Y, angle)
    n = rng.integers(2, 5)
    colours = [_pick(rng, CLOTH + PASTEL) for _ in range(n)]
    widths = [_log_uniform(rng, 2, 60) for _ in range(n)]
    return _bands(u, widths, colours) * _cloth(rng, X, Y, texel, angle, folds=rng.random() < 0.7)


def _polka(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    r = _log_uniform(rng, 1.5, 12)
    period = r * rng.uniform(2.6, 5)
    row_gap = period * (math.sqrt(3) / 2 if rng.random() < 0.6 else 1.0)
    row = np.floor(v / row_gap + 0.5)
    shift = (row % 2) * period / 2 if row_gap < period else 0
    du = ((u - shift) / period + 0.5) % 1 - 0.5
    dv = v / row_gap - row
    d = np.hypot(du * period, dv * row_gap)
    dot = np.clip((r - d) / max(texel, 0.3) + 0.5, 0, 1)[..., None]
    base, ink = _pick(rng, PASTEL + CLOTH), _pick(rng, CLOTH + PASTEL)
    return (base + (ink - base) * dot) * _cloth(rng, X, Y, texel, angle)


def _motif_tiling(motif, X, Y, texel_motif, angle, half_drop) -> np.ndarray:
    """A square motif (m, m, 3) of texel_motif mm per pixel repeated over the plane."""
    u, v = _rotated(X, Y, angle)
    m = motif.shape[0] * texel_motif
    if half_drop:
        u = u + np.floor(v / m) * (m / 2)
    mx = (u / texel_motif).astype(np.float32)
    my = (v / texel_motif).astype(np.float32)
    n = motif.shape[0]
    mx, my = mx % n, my % n
    return cv2.remap(motif, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)


def _teardrop(cx, cy, size, angle, bend) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 60)
    x, y = np.cos(t), np.sin(t) * np.sin(t / 2) ** 2
    y = y + bend * (x + 1) ** 2 / 4
    c, s = math.cos(angle), math.sin(angle)
    return np.stack([cx + size * (x * c - y * s), cy + size * (x * s + y * c)], 1)


def _floral(rng, X, Y, texel):
    m_mm = rng.uniform(40, 140)
    n = int(min(512, m_mm / texel))
    background = _pick(rng, PASTEL)
    if n < 12:
        return np.broadcast_to(background, np.broadcast_shapes(X.shape, Y.shape) + (3,)).copy()
    motif = np.empty((n * 2, n * 2, 3), np.float32)
    motif[:] = background
    s = n * 2
    paisley = rng.random() < 0.4
    inks = [_pick(rng, CLOTH) for _ in range(3)]
    leaf = rgb(*rng.choice([(60, 110, 50), (40, 80, 60), (110, 140, 70)]))
    for _ in range(rng.integers(2, 6)):
        cx, cy, size = rng.uniform(0, s), rng.uniform(0, s), s * rng.uniform(0.1, 0.22)
        for ox in (-s, 0, s):
            for oy in (-s, 0, s):
                x, y = cx + ox, cy + oy
                if paisley:
                    outer = _teardrop(x, y, size * 1.4, rng.uniform(0, 2 * np.pi), rng.uniform(-0.6, 0.6))
                    cv2.fillPoly(
                        motif, [np.round(outer * 4).astype(np.int32)], inks[0].tolist(), cv2.LINE_AA, 4
                    )
                    inner = (outer - (x, y)) * 0.6 + (x, y)
                    cv2.fillPoly(
                        motif, [np.round(inner * 4).astype(np.int32)], inks[1].tolist(), cv2.LINE_AA, 4
                    )
                    cv2.circle(
                        motif, (int(x), int(y)), max(1, int(size * 0.25)), inks[2].tolist(), -1, cv2.LINE_AA
                    )
                    continue
                for _ in range(2):
                    a = rng.uniform(0, 360)
                    cv2.ellipse(
                        motif,
                        (
                            int(x + 1.3 * size * math.cos(math.radians(a))),
                            int(y + 1.3 * size * math.sin(math.radians(a))),
                        ),
                        (max(1, int(size * 0.6)), max(1, int(size * 0.25))),
                        a,
                        0,
                        360,
                        leaf.tolist(),
                        -1,
                        cv2.LINE_AA,
                    )
                petals = int(rng.integers(5, 9))
                for k in range(petals):
                    a = 360 * k / petals
                    cv2.ellipse(
                        motif,
                        (
                            int(x + 0.55 * size * math.cos(math.radians(a))),
                            int(y + 0.55 * size * math.sin(math.radians(a))),
                        ),
                        (max(1, int(size * 0.5)), max(1, int(size * 0.26))),
                        a,
                        0,
                        360,
                        inks[k % 2].tolist(),
                        -1,
                        cv2.LINE_AA,
                    )
                cv2.circle(
                    motif, (int(x), int(y)), max(1, int(size * 0.25)), inks[2].tolist(), -1, cv2.LINE_AA
                )
    motif = cv2.resize(motif, (n, n), interpolation=cv2.INTER_AREA)
    angle = rng.uniform(0, math.pi)
    return _motif_tiling(motif, X, Y, m_mm / n, angle, True) * _cloth(rng, X, Y, texel, angle)


MARBLES = [
    ((236, 234, 230), (110, 118, 130)),
    ((25, 25, 28), (225, 225, 220)),
    ((40, 75, 60), (200, 210, 200)),
    ((222, 195, 185), (150, 100, 95)),
    ((232, 218, 190), (165, 135, 100)),
    ((200, 200, 205), (60, 60, 70)),
]


def _marble(rng, X, Y, texel):
    base, vein = (rgb(*c) for c in MARBLES[rng.integers(len(MARBLES))])
    out = np.broadcast_to(base, np.broadcast_shapes(X.shape, Y.shape) + (3,)).copy()
    out *= (1 + 0.06 * _fbm(rng, X, Y, 300.0, texel, 4))[..., None]
    for strength, width in ((rng.uniform(0.6, 1.0), 40), (rng.uniform(0.2, 0.45), 12)):
        scale = rng.uniform(250, 900)
        u, _ = _rotated(X, Y, rng.uniform(0, math.pi))
        turb = _fbm(rng, X, Y, scale * rng.uniform(0.3, 0.8), texel, 5)
        t = np.sin(2 * np.pi * (u / scale + rng.uniform(0.1, 0.3) * turb))
        line = (1 - np.abs(t)) ** (width * rng.uniform(0.6, 1.5)) * strength
        line *= np.clip(0.6 + 0.6 * _fbm(rng, X, Y, scale * 0.5, texel, 2), 0, 1)  # veins fade in and out
        out += (vein - out) * np.clip(line, 0, 1)[..., None]
    return out


def _ceramic(rng, X, Y, texel):
    size = rng.uniform(44, 70) if rng.random() < 0.35 else rng.uniform(80, 300)
    grout = rng.uniform(1.5, 8)
    angle = rng.uniform(0, math.pi / 2) if rng.random() < 0.5 else rng.normal(0, 0.03)
    u, v = _rotated(X, Y, angle)
    fi, fj = np.floor(u / size), np.floor(v / size)
    fu, fv = u / size - fi, v / size - fj
    i, j = fi.astype(np.int32), fj.astype(np.int32)
    edge = np.minimum(np.minimum(fu, 1 - fu), np.minimum(fv, 1 - fv)) * size
    joint = np.clip((grout / 2 - edge) / max(texel, 0.3) + 0.5, 0, 1)[..., None]
    tones = rng.normal(1, rng.uniform(0.02, 0.08), (64, 64)).astype(np.float32)
    tone = tones[i % 64, j % 64][..., None]
    glaze = [
        (235, 232, 225),
        (190, 90, 60),
        (40, 70, 130),
        (25, 25, 28),
        (120, 160, 150),
        (215, 195, 150),
        (150, 150, 150),
        (90, 130, 80),
    ]
    one, two = _pick(rng, glaze), _pick(rng, glaze)
    style = rng.integers(3)
    if style == 0:
        colour = one * tone
    elif style == 1:
        colour = np.where(((i + j) % 2 == 0)[..., None], one, two) * tone
    else:
        d = np.hypot(fu - 0.5, fv - 0.5)
        ring = ((d < 0.32) & (d > 0.2)) | (np.abs(fu - 0.5) + np.abs(fv - 0.5) < 0.12)
        colour = np.where(ring[..., None], two, one) * tone
    colour *= (1 + 0.03 * _fbm(rng, X, Y, 20.0, texel, 3))[..., None]
    mortar = _pick(rng, [(200, 198, 190), (240, 238, 232), (90, 90, 92), (170, 150, 120)])
    return colour + (mortar * (1 + 0.1 * _fbm(rng, X, Y, 5.0, texel, 2))[..., None] - colour) * joint


DARK_WOODS = [
    ((92, 60, 40), (50, 30, 20)),
    ((115, 48, 32), (65, 25, 18)),
    ((58, 40, 32), (30, 20, 16)),
    ((45, 38, 34), (22, 18, 16)),
    ((120, 80, 45), (70, 45, 25)),
]
LIGHT_WOODS = [
    ((205, 165, 115), (160, 115, 70)),
    ((228, 190, 135), (185, 135, 80)),
    ((232, 210, 175), (200, 170, 130)),
    ((220, 185, 140), (175, 135, 95)),
    ((215, 195, 160), (170, 145, 110)),
]


def _wood(rng, X, Y, texel, palette, knots):
    light, dark = (rgb(*c) for c in palette[rng.integers(len(palette))])
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    width = rng.uniform(70, 220)
    plank = np.floor(v / width).astype(np.int32)
    k = plank % 32
    pith = rng.uniform(-3, 3, 32).astype(np.float32) * width
    slope = rng.normal(0, 0.02, 32).astype(np.float32)
    shift = rng.uniform(0, 5000, 32).astype(np.float32)
    tones = rng.normal(1, 0.07, 32).astype(np.float32)
    spacing = rng.uniform(1.5, 6)
    rings = np.abs(v - pith[k] + slope[k] * u) + 6 * _fbm(rng, u, v, 150.0, texel, 3, stretch=8)
    knot = np.zeros_like(rings)
    for _ in range(int(rng.integers(3, 10)) if knots else 0):
        ku, kv = rng.uniform(u.min(), u.max()), rng.uniform(v.min(), v.max())
        size = rng.uniform(4, 12)
        d2 = ((u - ku) / (size * 2.5)) ** 2 + ((v - kv) / size) ** 2
        rings += 14 * size * np.exp(-d2) / (1 + d2)
        knot = np.maximum(knot, np.clip(2 - 4 * d2, 0, 1))
    grain = (0.5 + 0.5 * np.sin(2 * np.pi * rings / spacing)) ** rng.uniform(1.5, 4)
    streak = 0.5 + 0.25 * _fbm(rng, u, v, 3.0, texel, 2, stretch=40)
    mix = np.clip(0.55 * grain + 0.45 * streak if spacing > 2 * texel else 0.3 + 0.4 * streak, 0, 1)
    out = light + (dark - light) * np.maximum(mix, knot)[..., None]
    out *= (tones[k] * (1 + 0.05 * _fbm(rng, u, v, 400.0, texel, 2, stretch=6)) * (1 - 0.4 * knot))[..., None]
    seam = np.abs(v / width - np.round(v / width)) * width
    length = rng.uniform(600, 2000)
    joint_at = (u + shift[k]) % length
    line = np.minimum(seam, np.minimum(joint_at, length - joint_at))
    gap = np.clip((0.6 - line) / max(texel, 0.3) + 0.5, 0, 1)[..., None]
    return out * (1 - 0.6 * gap)


def _dark_wood(rng, X, Y, texel):
    return _wood(rng, X, Y, texel, DARK_WOODS, knots=False)


def _light_wood(rng, X, Y, texel):
    return _wood(rng, X, Y, texel, LIGHT_WOODS, knots=True)


def _linen(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    if rng.random() < 0.5:  # felt: fibres, no weave
        base = _pick(
            rng, [(40, 90, 55), (50, 60, 90), (120, 30, 35), (95, 95, 98), (60, 60, 62), (150, 130, 100)]
        )
        fibres = 0.06 * _fbm(rng, X, Y, 1.5, texel * 0.5, 3) + 0.05 * _fbm(rng, X, Y, 40.0, texel, 3)
        return base * (1 + fibres)[..., None]
    base = _pick(
        rng,
        [
            (215, 200, 175),
            (190, 190, 185),
            (235, 232, 222),
            (160, 175, 150),
            (120, 130, 150),
            (200, 170, 150),
        ],
    )
    slubs = 0.025 * (_fbm(rng, u, v, 1.5, texel, 2, stretch=20) + _fbm(rng, v, u, 1.5, texel, 2, stretch=20))
    return base * (1 + slubs)[..., None] * _cloth(rng, X, Y, texel, angle)


WORDS = (
    "the city park house shop office factory tavern game board tiles score players round build "
    "market news weather council report local sport night music food drink open street new old "
    "school river bridge tower stone plan vote price week day year".split()
)


def _page(rng, w_mm, h_mm, texel) -> np.ndarray:
    """A newspaper page (h, w, 3) float32 sRGB at texel mm per pixel: columns of text, headlines, photos."""
    w, h = max(8, int(w_mm / texel)), max(8, int(h_mm / texel))
    paper = np.array([232, 228, 214]) * rng.uniform(0.9, 1.02)
    page = np.empty((h, w, 3), np.uint8)
    page[:] = paper
    ink = np.array([35, 35, 38])
    px = 1 / texel
    margin = 12 * px
    cols = int(rng.integers(4, 7))
    col_w = (w - 2 * margin) / cols
    line = rng.uniform(3.2, 3.9) * px
    y_top = margin
    if rng.random() < 0.6:  # masthead
        cv2.rectangle(
            page,
            (int(margin), int(margin + 28 * px)),
            (int(w - margin), int(margin + 29 * px)),
            ink.tolist(),
            -1,
        )
        scale = 22 * px / 22
        cv2.putText(
            page,
            "THE DAILY " + rng.choice(WORDS).upper(),
            (int(margin), int(margin + 22 * px)),
            cv2.FONT_HERSHEY_TRIPLEX,
            scale,
            ink.tolist(),
            max(1, int(2 * px)),
            cv2.LINE_AA,
        )
        y_top += 34 * px
    for c in range(cols):
        x0 = margin + c * col_w + 1.5 * px
        x1 = x0 + col_w - 3 * px
        y = y_top
        if c:
            cv2.line(
                page,
                (int(x0 - 1.5 * px), int(y_top)),
                (int(x0 - 1.5 * px), int(h - margin)),
                (ink * 1.5).tolist(),
                1,
            )
        while y < h - margin - line:
            block = rng.random()
            if block < 0.15:  # headline
                size = rng.uniform(5, 9) * px
                for _ in range(int(rng.integers(1, 3))):
                    if size >= 6:
                        text = " ".join(rng.choice(WORDS, 3)).capitalize()
                        cv2.putText(
                            page,
                            text,
                            (int(x0), int(y + size)),
                            cv2.FONT_HERSHEY_DUPLEX,
                            size / 22,
                            ink.tolist(),
                            max(1, int(size / 9)),
                            cv2.LINE_AA,
                        )
                    else:
                        cv2.rectangle(
                            page,
                            (int(x0), int(y + size * 0.2)),
                            (int(x1 * rng.uniform(0.7, 1)), int(y + size)),
                            (ink * 1.3).tolist(),
                            -1,
                        )
                    y += size * 1.3
            elif block < 0.25:  # photo
                ph = int(rng.uniform(25, 70) * px)
                pw = int(x1 - x0)
                if ph > 2 and pw > 2:
                    blobs = cv2.resize(
                        rng.random((4, 4)).astype(np.float32), (pw, ph), interpolation=cv2.INTER_CUBIC
                    )
                    photo = (np.clip(0.2 + 0.6 * blobs, 0, 1)[..., None] * paper).astype(np.uint8)
                    y0 = int(y)
                    page[y0 : y0 + ph, int(x0) : int(x0) + pw] = photo[: max(0, min(ph, h - y0))]
                y += ph + 2 * line
            else:  # paragraph
                for _ in range(int(rng.integers(4, 25))):
                    if y > h - margin - line:
                        break
                    end = x1 if rng.random() > 0.12 else x0 + (x1 - x0) * rng.uniform(0.2, 0.9)
                    if line >= 7:
                        text, x = "", x0
                        while True:
                            word = rng.choice(WORDS)
                            if x + (len(text) + len(word) + 1) * line * 0.42 > end:
                                break
                            text += word + " "
                        cv2.putText(
                            page,
                            text,
                            (int(x0), int(y + line * 0.75)),
                            cv2.FONT_HERSHEY_SIMPLEX,
                            line * 0.6 / 22,
                            ink.tolist(),
                            1,
                            cv2.LINE_AA,
                        )
                    else:
                        x = x0
                        while x < end:
                            wl = rng.uniform(4, 14) * px
                            cv2.rectangle(
                                page,
                                (int(x), int(y + line * 0.3)),
                                (int(min(x + wl, end)), int(y + line * 0.75)),
                                (paper * 0.6).tolist(),
                                -1,
                            )
                            x += wl + 1.5 * px
                    y += line
                y += line
    fold = np.exp(-(((np.arange(w) - w / 2) / (3 * px)) ** 2)).astype(np.float32)
    return page.astype(np.float32) / 255 * (1 - 0.08 * fold)[None, :, None]


def _newspaper(rng, X, Y, texel):
    under = _pick(rng, [(150, 110, 70), (200, 200, 195), (90, 60, 40), (225, 220, 210)])
    out = np.broadcast_to(under, np.broadcast_shapes(X.shape, Y.shape) + (3,)).copy()
    out *= (1 + 0.04 * _fbm(rng, X, Y, 50.0, texel, 3))[..., None]
    x0, y1 = float(X.min()) - texel / 2, float(Y.max()) + texel / 2
    pw, ph = (380, 580) if rng.random() < 0.6 else (290, 400)
    for k in range(int(rng.integers(2, 5))):
        page = _page(rng, pw, ph, texel)
        cx, cy = rng.uniform(-120, 120, 2) if k == 0 else rng.uniform(-500, 500, 2)
        a = rng.uniform(0, 2 * math.pi) if k else rng.normal(0, 0.5)
        c, s = math.cos(a), math.sin(a)
        # page pixel -> world -> texture pixel, as one affine map
        pxw = np.array(
            [
                [c * texel, s * texel, cx - c * pw / 2 - s * ph / 2],
                [s * texel, -c * texel, cy - s * pw / 2 + c * ph / 2],
            ]
        )
        tex = np.array([[1 / texel, 0, -x0 / texel - 0.5], [0, -1 / texel, y1 / texel - 0.5]])
        m = tex[:, :2] @ pxw[:, :2]
        t = tex[:, :2] @ pxw[:, 2] + tex[:, 2]
        affine = np.column_stack([m, t]).astype(np.float32)
        size = (out.shape[1], out.shape[0])
        warped = cv2.warpAffine(page, affine, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(np.ones(page.shape[:2], np.float32), affine, size, flags=cv2.INTER_LINEAR)
        shadow = cv2.GaussianBlur(alpha, (0, 0), max(0.5, 1.5 / texel))
        out *= (1 - 0.25 * shadow * (1 - alpha))[..., None]
        out += (warped - out) * alpha[..., None]
    return out


def _collage(rng, X, Y, texel):
    h, w = np.broadcast_shapes(X.shape, Y.shape)
    out = np.empty((h, w, 3), np.float32)
    out[:] = _pick(rng, CLOTH + PASTEL)
    out *= (1 + 0.15 * _fbm(rng, X, Y, 200.0, texel, 3))[..., None]
    px = 1 / texel
    area = w * h * texel * texel
    for _ in range(int(min(450, area / 45**2))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        size = _log_uniform(rng, 8, 160) * px
        colour = rng.random(3).astype(np.float32)
        colour = colour + (colour.mean() - colour) * rng.uniform(0, 0.6)
        kind = rng.choice(5, p=(0.35, 0.15, 0.2, 0.15, 0.15))
        if kind == 0:  # a photo: a blurry picture of blobs with a border
            pw, ph = int(size * rng.uniform(0.6, 1.4)) + 2, int(size * rng.uniform(0.6, 1.4)) + 2
            light = cv2.resize(rng.random((6, 6)).astype(np.float32), (pw, ph), interpolation=cv2.INTER_CUBIC)
            tint = cv2.resize(
                rng.random((3, 3, 3)).astype(np.float32), (pw, ph), interpolation=cv2.INTER_CUBIC
            )
            pic = np.clip((0.25 + 0.75 * light[..., None]) * (0.5 * colour + 0.3 * tint + 0.2), 0, 1)
            pic[: max(1, ph // 20)] = pic[-max(1, ph // 20) :] = 0.95
            y0, x0 = int(cy), int(cx)
            y1, x1 = min(h, y0 + ph), min(w, x0 + pw)
            out[y0:y1, x0:x1] = pic[: y1 - y0, : x1 - x0]
        elif kind == 1:
            cv2.circle(out, (int(cx), int(cy)), int(size / 2), colour.tolist(), -1, cv2.LINE_AA)
        elif kind == 2:
            box = cv2.boxPoints(((cx, cy), (size, size * rng.uniform(0.3, 1.5)), rng.uniform(0, 180)))
            cv2.fillPoly(out, [np.round(box * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, 4)
        elif kind == 3:
            pts = np.array([cx, cy]) + rng.uniform(-size, size, (int(rng.integers(3, 7)), 2))
            cv2.fillPoly(out, [np.round(pts * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, 4)
        else:
            word, scale, thick = rng.choice(WORDS).upper(), size / 40, max(1, int(size / 25))
            (tw, th), base = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
            x0, y0 = int(cx), int(cy) - th - thick
            x1, y1 = min(w, x0 + tw + 2 * thick), min(h, int(cy) + base + thick)
            if x1 > x0 + 1 and y1 > y0 + 1 and y0 >= 0:
                mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.putText(
                    mask, word, (0, int(cy) - y0), cv2.FONT_HERSHEY_DUPLEX, scale, 255, thick, cv2.LINE_AA
                )
                region = out[y0:y1, x0:x1]
                region += (colour - region) * (mask.astype(np.float32) / 255)[..., None]
    return out


def _terrazzo(rng, X, Y, texel):
    m_mm = rng.uniform(150, 260)
    n = int(min(1024, max(16, m_mm / texel)))
    tm = m_mm / n
    motif = np.empty((n, n, 3), np.float32)
    motif[:] = _pick(rng, [(215, 212, 205), (235, 225, 215), (180, 180, 178), (225, 205, 195), (90, 92, 95)])
    chips = [
        _pick(
            rng,
            [
                (250, 250, 245),
                (30, 30, 30),
                (190, 90, 60),
                (80, 120, 90),
                (140, 140, 140),
                (210, 170, 80),
                (160, 60, 60),
                (70, 90, 140),
            ],
        )
        for _ in range(int(rng.integers(2, 5)))
    ]
    count = int(m_mm**2 * rng.uniform(0.002, 0.006))
    for _ in range(count):
        size = _log_uniform(rng, 1.5, 14) / tm
        c = np.array([rng.uniform(0, n), rng.uniform(0, n)])
        k = int(rng.integers(4, 8))
        a = np.sort(rng.uniform(0, 2 * np.pi, k))
        pts = np.stack([np.cos(a), np.sin(a)], 1) * size * rng.uniform(0.5, 1, (k, 1)) + c
        colour = chips[rng.integers(len(chips))] * rng.uniform(0.85, 1.1)
        for ox in (-n, 0, n):
            for oy in (-n, 0, n):
                cv2.fillPoly(
                    motif, [np.round((pts + (ox, oy)) * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, 4
                )
    out = _motif_tiling(motif, X, Y, tm, rng.uniform(0, math.pi), False)
    return out * (1 + 0.03 * _fbm(rng, X, Y, 30.0, texel, 3))[..., None]


PAINTERS = {
    "gingham": _gingham,
    "tartan": _tartan,
    "stripes": _stripe_cloth,
    "polka": _polka,
    "floral": _floral,
    "marble": _marble,
    "ceramic": _ceramic,
    "dark-wood": _dark_wood,
    "light-wood": _light_wood,
    "linen": _linen,
    "newspaper": _newspaper,
    "collage": _collage,
    "terrazzo": _terrazzo,
}
UNDER_GLASS = (
    "newspaper",
    "floral",
    "tartan",
    "collage",
    "light-wood",
    "dark-wood",
    "linen",
    "polka",
    "marble",
)
# specular reflectance and Blinn-Phong exponent of each table
SHEEN = {
    "gingham": (0.0, 8),
    "tartan": (0.0, 8),
    "stripes": (0.003, 10),
    "polka": (0.003, 10),
    "floral": (0.003, 10),
    "marble": (0.05, 120),
    "ceramic": (0.05, 90),
    "dark-wood": (0.035, 40),
    "light-wood": (0.025, 30),
    "linen": (0.0, 8),
    "newspaper": (0.006, 12),
    "glass": (0.08, 400),
    "collage": (0.02, 30),
    "terrazzo": (0.04, 80),
}


# --- things on the table ----------------------------------------------------------------------


def _u8(colour) -> tuple:
    return tuple(int(c) for c in np.clip(np.asarray(colour) * 255, 0, 255))


def _card_face(rng) -> np.ndarray:
    """A playing card, 63 x 88 mm at 4 px/mm: (352, 252, 3) float32 sRGB."""
    h, w = 352, 252
    card = np.full((h, w, 3), 245, np.uint8)
    ink = _pick(rng, CLOTH + TARTAN)
    if rng.random() < 0.5:  # a back: a frame and a lattice
        cv2.rectangle(card, (10, 10), (w - 11, h - 11), _u8(ink), -1)
        for k in range(-h, w, 18):
            cv2.line(card, (k, 10), (k + h, h - 10), _u8(ink * 0.6), 3, cv2.LINE_AA)
            cv2.line(card, (k + h, 10), (k, h - 10), _u8(ink * 0.6), 3, cv2.LINE_AA)
        cv2.rectangle(card, (10, 10), (w - 11, h - 11), _u8(rgb(240, 230, 200)), 4)
        card[:10] = card[-10:] = 245
        card[:, :10] = card[:, -10:] = 245
    else:  # a face: title, a picture of shapes, text
        cv2.rectangle(card, (14, 14), (w - 15, 50), _u8(ink), -1)
        cv2.putText(
            card,
            rng.choice(WORDS).upper(),
            (24, 42),
            cv2.FONT_HERSHEY_DUPLEX,
            0.8,
            (250, 250, 250),
            2,
            cv2.LINE_AA,
        )
        cv2.rectangle(card, (14, 60), (w - 15, 230), _u8(_pick(rng, PASTEL)), -1)
        for _ in range(6):
            cv2.circle(
                card,
                (int(rng.uniform(20, w - 20)), int(rng.uniform(70, 220))),
                int(rng.uniform(8, 40)),
                _u8(rng.random(3)),
                -1,
                cv2.LINE_AA,
            )
        for k in range(6):
            cv2.line(card, (20, 250 + 14 * k), (int(rng.uniform(120, w - 20)), 250 + 14 * k), (90, 90, 90), 3)
    return card.astype(np.float32) / 255


def _coin_face(rng, metal) -> np.ndarray:
    """The top of a coin with a relief: (96, 96, 3) float32 sRGB."""
    y, x = (np.mgrid[0:96, 0:96].astype(np.float32) - 47.5) / 48
    r = np.hypot(x, y)
    relief = cv2.GaussianBlur(rng.standard_normal((96, 96)).astype(np.float32), (0, 0), 3) * 4
    shade = 0.8 + 0.2 * np.clip(relief, -1, 1) * (r < 0.75) - 0.25 * ((r > 0.8) & (r < 0.86))
    return (metal * shade[..., None]).astype(np.float32)


def _pencil_face(rng) -> np.ndarray:
    """A pencil from above, 7 x 176 mm at 4 px/mm, point to the south: (704, 28, 4) float32 sRGB + alpha."""
    h, w = 704, 28
    face = np.zeros((h, w, 4), np.float32)
    paint = _pick(rng, [(240, 200, 40), (200, 40, 40), (40, 120, 60), (30, 60, 140), (30, 30, 30)])
    facets = np.array([0.75] * 9 + [1.0] * 10 + [0.85] * 9, np.float32)
    face[:, :, :3] = paint * facets[None, :, None]
    face[:, :, 3] = 1
    face[:24, :, :3] = rgb(230, 120, 130)  # eraser
    face[24:48, :, :3] = rgb(190, 190, 185) * facets[:, None]  # ferrule
    tip = np.arange(72, dtype=np.float32)[::-1] / 72  # width left along the sharpened end
    cone = np.abs(np.arange(w) - (w - 1) / 2)[None, :] <= tip[:, None] * w / 2
    face[h - 72 :, :, :3] = rgb(215, 175, 130) * facets[None, :, None]
    face[h - 20 :, :, :3] = rgb(50, 50, 55)
    face[h - 72 :, :, 3] = cone
    return face


CARDBOARD = rgb(120, 108, 92)
PAPER_EDGE = rgb(225, 222, 212)


@dataclass
class Box:
    """A box lying on the table whose top shows a picture (a tile, a card, a pencil).

    centre (x, y) mm; angle: turn counter-clockwise (rad); w, h: size along its own x and y (mm);
    face: (fh, fw, 3 or 4) float32 linear RGB(A), row 0 along the box's +y edge; z0: height of its
    bottom; side / edge: linear RGB of its cut side and of the side's top rim; radius: corner
    radius (mm); gloss, shiny: specular reflectance and exponent; normal: (3,) of its top.
    """

    centre: tuple
    angle: float
    w: float
    h: float
    face: np.ndarray
    z0: float = 0.0
    height: float = THICK_MM
    side: np.ndarray = field(default_factory=lambda: to_linear(CARDBOARD))
    edge: np.ndarray = field(default_factory=lambda: to_linear(PAPER_EDGE))
    radius: float = 1.2
    gloss: float = 0.03
    shiny: float = 40.0
    normal: np.ndarray = field(default_factory=UP.copy)
    bevel: bool = True

    def corners(self, z: float) -> np.ndarray:
        """(4, 3) corners NW NE SE SW (of the box's own frame) at height z."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        local = np.array([[-self.w, self.h], [self.w, self.h], [self.w, -self.h], [-self.w, -self.h]]) / 2
        xy = local @ np.array([[c, s], [-s, c]]) + self.centre
        return np.column_stack([xy, np.full(4, z)])

    def outline(self) -> np.ndarray:
        return np.concatenate([self.corners(self.z0), self.corners(self.z0 + self.height)])


@dataclass
class Cylinder:
    """A coin or a cup standing on the table.

    top: (n, n, 3) float32 linear picture of the square around its top; body: (3,) linear RGB of
    its side; liquid: (colour (3,) linear, depth below the rim mm, rim width mm) for a cup.
    """

    centre: tuple
    radius: float
    height: float
    top: np.ndarray
    body: np.ndarray
    gloss: float = 0.05
    shiny: float = 60.0
    liquid: tuple | None = None
    z0: float = 0.0

    def ring(self, z: float, n: int = 40) -> np.ndarray:
        a = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return np.column_stack(
            [
                self.centre[0] + self.radius * np.cos(a),
                self.centre[1] + self.radius * np.sin(a),
                np.full(n, z),
            ]
        )

    def outline(self) -> np.ndarray:
        return np.concatenate([self.ring(self.z0), self.ring(self.z0 + self.height)])


# --- camera -----------------------------------------------------------------------------------


@dataclass
class Camera:
    """A phone camera: a pinhole seeing an undistorted canvas, and a lens bending it into the output.

    f: focal length (px); R: (3, 3) rows are the camera's x (right), y (down), z (forward) in
    world terms; pos: (3,) its centre (mm); size: output (W, H); an output pixel at normalised
    radius r sees the canvas at r (1 + k1 r^2 + k2 r^4); margin: canvas border around the output (px).
    """

    f: float
    R: np.ndarray
    pos: np.ndarray
    size: tuple
    k1: float = 0.0
    k2: float = 0.0
    margin: int = 0

    @property
    def principal(self) -> tuple:
        """The optical centre in canvas pixels."""
        return (self.size[0] - 1) / 2 + self.margin, (self.size[1] - 1) / 2 + self.margin

    @property
    def canvas_size(self) -> tuple:
        return self.size[0] + 2 * self.margin, self.size[1] + 2 * self.margin

    def project(self, points) -> tuple[np.ndarray, np.ndarray]:
        """World points (N, 3) -> canvas pixels (N, 2) and depths along the view (N,)."""
        pc = (np.asarray(points, np.float64) - self.pos) @ self.R.T
        z = pc[:, 2]
        return self.f * pc[:, :2] / np.maximum(z, 1e-6)[:, None] + self.principal, z

    def to_output(self, uv) -> np.ndarray:
        """Canvas pixels (N, 2) -> output pixels (N, 2), through the lens distortion."""
        pu = (np.asarray(uv, np.float64) - self.principal) / self.f
        pd = pu.copy()
        for _ in range(40):
            r2 = (pd**2).sum(axis=1, keepdims=True)
            pd = pu / (1 + self.k1 * r2 + self.k2 * r2**2)
        return pd * self.f + np.subtract(self.principal, self.margin)

    def rays(self, z: float):
        """Where each canvas pixel's ray meets the plane at height z: X, Y, depth (H, W) float32,
        and hit (H, W) bool (the ray goes down to it)."""
        w, h = self.canvas_size
        cx, cy = self.principal
        a = ((np.arange(w, dtype=np.float32) - cx) / self.f)[None, :]
        b = ((np.arange(h, dtype=np.float32) - cy) / self.f)[:, None]
        R = self.R.astype(np.float32)
        dx = R[0, 0] * a + R[1, 0] * b + R[2, 0]
        dy = R[0, 1] * a + R[1, 1] * b + R[2, 1]
        dz = R[0, 2] * a + R[1, 2] * b + R[2, 2]
        hit = dz < -1e-4
        t = np.where(hit, (z - float(self.pos[2])) / np.where(hit, dz, -1), np.float32(1e7))
        return float(self.pos[0]) + t * dx, float(self.pos[1]) + t * dy, t, hit


def _pose(target, tilt, azimuth, roll, distance):
    """Rotation and position of a camera `distance` mm from target, tilted from straight down."""
    back = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
    x = np.array([-math.sin(azimuth), math.cos(azimuth), 0.0])
    z = -back
    y = np.cross(z, x)
    c, s = math.cos(roll), math.sin(roll)
    return np.stack([c * x + s * y, -s * x + c * y, z]), np.asarray(target, float) + distance * back


LENSES = {  # 35 mm-equivalent focal range, residual k1 range, aperture diameter (mm)
    "main": ((24, 28), (-0.03, 0.03), 3.5),
    "tele": ((45, 55), (-0.015, 0.015), 3.0),
    "wide": ((13, 16), (-0.02, 0.09), 1.2),
}


def _fit(corners, lattice, pose, frac, off, f, size, lens_bend) -> tuple[Camera, float] | None:
    """Move the camera along its line of sight (and its aim towards the city) until the city is
    frac of the short side, inside the frame and no cell edge is under MIN_CELL_PX. Returns the
    camera and the city's size, or None when this pose cannot do it."""
    tilt, azimuth, roll, off_dir = pose
    W, H = size
    short = min(W, H)
    side = float(np.linalg.norm(corners[1] - corners[0]))
    edge = 0.02 * short
    too_small = too_big = None  # sizes known to give cells under MIN_CELL_PX, or not to fit
    for _ in range(100):
        shift = off * (1 - frac) * side * 0.7
        target = (shift * math.cos(off_dir), shift * math.sin(off_dir), corners[0, 2])
        distance = f * side / (frac * short)
        for _ in range(6):
            cam = Camera(f, *_pose(target, tilt, azimuth, roll, distance), size, *lens_bend)
            out = cam.to_output(cam.project(corners)[0])
            sides = np.linalg.norm(out - np.roll(out, 1, axis=0), axis=1)
            distance *= sides.mean() / (frac * short)
        cam = Camera(f, *_pose(target, tilt, azimuth, roll, distance), size, *lens_bend)
        out = cam.to_output(cam.project(corners)[0])
        inside = ((out >= edge) & (out <= np.array([W - 1, H - 1]) - edge)).all()
        grid = cam.to_output(cam.project(lattice.reshape(-1, 3))[0]).reshape(SIZE + 1, SIZE + 1, 2)
        cell_edges = np.concatenate(
            [np.diff(grid, axis=0).reshape(-1, 2), np.diff(grid, axis=1).reshape(-1, 2)]
        )
        big_enough = np.linalg.norm(cell_edges, axis=1).min() >= MIN_CELL_PX * 1.02
        if inside and big_enough:
            sides = np.linalg.norm(out - np.roll(out, 1, axis=0), axis=1)
            return cam, float(sides.mean() / short)
        if not big_enough:
            too_small = frac
            frac = frac * 1.05 if too_big is None else (frac + too_big) / 2
        elif off > 0.05:
            off *= 0.6
        else:
            off, too_big = 0.0, frac
            frac = frac * 0.97 if too_small is None else (frac + too_small) / 2
        if too_small is not None and too_big is not None and too_big - too_small < 1e-3:
            return None
    return None


def _camera(rng, tier, size, corners) -> tuple[Camera, dict]:
    """A phone camera seeing the whole city (corners (4, 3)) at the tier's size and tilt."""
    (lo, hi), max_tilt, level = TIERS[tier]
    W, H = size
    lens = ("main", "tele", "wide")[rng.choice(3, p=(0.8, 0.2, 0.0) if level == 0 else (0.72, 0.18, 0.1))]
    (f_lo, f_hi), (k_lo, k_hi), aperture = LENSES[lens]
    f_eq = rng.uniform(f_lo, f_hi)
    f = f_eq / 43.27 * math.hypot(W, H)
    k1, k2 = rng.uniform(k_lo, k_hi), rng.uniform(-0.01, 0.01)
    rmax2 = ((W / 2) ** 2 + (H / 2) ** 2) / f**2
    margin = int(math.ceil(max(0.0, (k1 * rmax2 + k2 * rmax2**2)) * math.sqrt(rmax2) * f)) + 6
    t = np.linspace(0, 1, SIZE + 1)[:, None, None]  # the city's lattice of cell corners (5, 5, 3)
    lattice = corners[0] + t.transpose(1, 0, 2) * (corners[1] - corners[0]) + t * (corners[3] - corners[0])
    for attempt in range(12):  # a small photo may need a gentler view than the first drawn
        tilt = math.radians(rng.uniform(0, max_tilt * 0.8 ** max(0, attempt - 3)))
        pose = (
            tilt,
            rng.uniform(0, 2 * math.pi),
            math.radians(rng.normal(0, 3)),
            rng.uniform(0, 2 * math.pi),
        )
        fitted = _fit(
            corners, lattice, pose, rng.uniform(lo, hi), rng.uniform(0, 1), f, size, (k1, k2, margin)
        )
        if fitted is not None:
            break
    else:
        raise ValueError(f"a {W}x{H} photo cannot hold the whole city with cells of {MIN_CELL_PX:g} px")
    cam, frac = fitted
    info = {
        "lens": lens,
        "focal_35mm": round(f_eq, 1),
        "tilt_deg": round(math.degrees(tilt), 1),
        "city_frac": round(frac, 3),
        "k1": round(k1, 3),
        "aperture_mm": aperture,
    }
    return cam, info


# --- the canvas: albedo and what lighting needs -------------------------------------------------


class Canvas:
    """The undistorted picture being drawn, per pixel of the camera's canvas (H, W).

    albedo (H, W, 3) linear RGB; normal (H, W, 3); gloss, shiny (H, W) specular reflectance and
    exponent; layer (H, W) uint8: 0 the table, 1 things a few mm high, 2 tall things.
    """

    def __init__(self, w: int, h: int):
        self.albedo = np.zeros((h, w, 3), np.float32)
        self.normal = np.zeros((h, w, 3), np.float32)
        self.normal[..., 2] = 1
        self.gloss = np.zeros((h, w), np.float32)
        self.shiny = np.full((h, w), 10, np.float32)
        self.layer = np.zeros((h, w), np.uint8)
        self.pictures = {}  # faces made ready to warp, by (face id, size, corner, scale)

    @property
    def shape(self) -> tuple:
        return self.layer.shape

    def roi(self, pts) -> tuple | None:
        """Integer box (x0, y0, x1, y1) around canvas points (N, 2), clipped; None if off the canvas."""
        h, w = self.shape
        x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        return None if x1 <= x0 or y1 <= y0 else (x0, y0, x1, y1)

    def paint(self, roi, alpha, colour, normal, gloss, shiny, layer):
        """Lay colour ((3,) or (h, w, 3) linear) with coverage alpha (h, w) over the box roi."""
        x0, y0, x1, y1 = roi
        sl = (slice(y0, y1), slice(x0, x1))
        a = alpha[..., None]
        self.albedo[sl] += (np.asarray(colour, np.float32) - self.albedo[sl]) * a
        self.normal[sl] += (np.asarray(normal, np.float32) - self.normal[sl]) * a
        self.gloss[sl] += (gloss - self.gloss[sl]) * alpha
        self.shiny[sl] += (shiny - self.shiny[sl]) * alpha
        self.layer[sl][alpha > 0.5] = layer


def _poly_alpha(pts, roi) -> np.ndarray:
    """Antialiased coverage (h, w) float32 of the polygon pts (N, 2) inside roi."""
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((np.asarray(pts) - (x0, y0)) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255


def _paint_poly(canvas, pts, colour, normal, gloss, shiny, layer):
    roi = canvas.roi(np.asarray(pts))
    if roi is not None:
        canvas.paint(roi, _poly_alpha(pts, roi), colour, normal, gloss, shiny, layer)


def _paint_picture(canvas, picture, quad, normal, gloss, shiny, layer):
    """Warp an RGBA picture (h, w, 4) linear onto the canvas quad (4, 2) (its TL TR BR BL)."""
    roi = canvas.roi(quad)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    h, w = picture.shape[:2]
    src = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(
        picture, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    canvas.paint(roi, warped[..., 3], warped[..., :3], normal, gloss, shiny, layer)


def _rounded_picture(face, w_mm, radius, bevel, scale) -> np.ndarray:
    """A face (fh, fw, 3|4) shrunk by scale with rounded corners and a worn rim: (h, w, 4) float32."""
    fh, fw = face.shape[:2]
    if scale < 1:
        face = cv2.resize(
            face, (max(2, round(fw * scale)), max(2, round(fh * scale))), interpolation=cv2.INTER_AREA
        )
    h, w = face.shape[:2]
    ppm = w / w_mm
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r = max(radius * ppm, 0.5)
    dx = np.maximum(np.abs(x - (w - 1) / 2) - (w / 2 - r), 0)
    dy = np.maximum(np.abs(y - (h - 1) / 2) - (h / 2 - r), 0)
    alpha = np.clip(r - np.hypot(dx, dy) + 0.5, 0, 1)
    out = np.empty((h, w, 4), np.float32)
    out[..., :3] = face[..., :3]
    out[..., 3] = alpha * face[..., 3] if face.shape[2] == 4 else alpha
    if bevel:
        rim = np.minimum(np.minimum(x + 0.5, w - 0.5 - x), np.minimum(y + 0.5, h - 0.5 - y)) / ppm
        out[..., :3] *= (1 - 0.3 * np.clip(1 - rim / 0.5, 0, 1))[..., None]
    return out


def _draw_box(canvas, cam, box):
    top3, bot3 = box.corners(box.z0 + box.height), box.corners(box.z0)
    (top, zt), (bot, zb) = cam.project(top3), cam.project(bot3)
    if min(zt.min(), zb.min()) < 20 or canvas.roi(np.concatenate([top, bot])) is None:
        return
    layer = 1 if box.z0 + box.height < 20 else 2
    if box.height > 0.5:
        rim = bot + (top - bot) * 0.8
        for i in range(4):
            j = (i + 1) % 4
            n = np.cross(UP, bot3[j] - bot3[i])
            n /= np.linalg.norm(n)
            if np.dot(n, cam.pos - (bot3[i] + bot3[j]) / 2) <= 0:
                continue
            _paint_poly(canvas, [bot[i], bot[j], rim[j], rim[i]], box.side, n, 0.0, 5, layer)
            _paint_poly(canvas, [rim[i], rim[j], top[j], top[i]], box.edge, n, 0.02, 10, layer)
    fh, fw = box.face.shape[:2]
    sx = max(np.linalg.norm(top[1] - top[0]), np.linalg.norm(top[2] - top[3])) / fw
    sy = max(np.linalg.norm(top[3] - top[0]), np.linalg.norm(top[2] - top[1])) / fh
    scale = min(1.0, math.ceil(24 * max(sx, sy)) / 16)  # 1.5 x what the photo needs, in steps
    key = (id(box.face), box.w, box.h, box.radius, box.bevel, scale)
    if key not in canvas.pictures:
        canvas.pictures[key] = _rounded_picture(box.face, box.w, box.radius, box.bevel, scale)
    picture = canvas.pictures[key]
    _paint_picture(canvas, picture, top, box.normal, box.gloss, box.shiny, layer)


def _draw_cylinder(canvas, cam, cyl):
    n = 40
    bot3, top3 = cyl.ring(cyl.z0, n), cyl.ring(cyl.z0 + cyl.height, n)
    (bot, zb), (top, zt) = cam.project(bot3), cam.project(top3)
    if min(zb.min(), zt.min()) < 20 or canvas.roi(np.concatenate([bot, top])) is None:
        return
    layer = 1 if cyl.height < 20 else 2
    a = np.linspace(0, 2 * np.pi, n, endpoint=False) + np.pi / n
    for i in range(n):
        j = (i + 1) % n
        normal = np.array([math.cos(a[i]), math.sin(a[i]), 0.0])
        if np.dot(normal, cam.pos - (bot3[i] + top3[j]) / 2) > 0:
            _paint_poly(
                canvas, [bot[i], bot[j], top[j], top[i]], cyl.body, normal, cyl.gloss, cyl.shiny, layer
            )
    z = cyl.z0 + cyl.height
    r = cyl.radius
    square = np.array([[-r, r, z], [r, r, z], [r, -r, z], [-r, -r, z]]) + (*cyl.centre, 0)
    quad = cam.project(square)[0]
    _paint_picture(canvas, _disc_picture(cyl.top), quad, UP, cyl.gloss, cyl.shiny, layer)
    if cyl.liquid is not None:
        colour, depth, rim = cyl.liquid
        inner = Cylinder(cyl.centre, r - rim, 0, cyl.top, cyl.body)
        opening = cam.project(inner.ring(z, 64))[0]
        surface = cam.project(inner.ring(z - depth, 64))[0]
        roi = canvas.roi(opening)
        if roi is not None:
            canvas.paint(
                roi, _poly_alpha(opening, roi) * _poly_alpha(surface, roi), colour, UP, 0.06, 300, layer
            )


def _disc_picture(top) -> np.ndarray:
    n = top.shape[0]
    y, x = np.mgrid[0:n, 0:n].astype(np.float32) - (n - 1) / 2
    out = np.empty((n, n, 4), np.float32)
    out[..., :3] = top
    out[..., 3] = np.clip(n / 2 - np.hypot(x, y) + 0.5, 0, 1)
    return out


def _draw(canvas, cam, thing):
    if isinstance(thing, Box):
        _draw_box(canvas, cam, thing)
    else:
        _draw_cylinder(canvas, cam, thing)


# --- the scene --------------------------------------------------------------------------------


def artwork_image(key) -> np.ndarray:
    """The artwork's sRGB uint8 picture of a tile key: ("back",), ("single", name) or a
    duplex key."""
    art = load_art()
    if key == ("back",):
        return art["back"]
    return art["singles"][key[1]] if key[0] == "single" else art["duplex"][key[1:]]


@functools.lru_cache(maxsize=64)
def _artwork_face(key) -> np.ndarray:
    return to_linear(artwork_image(key).astype(np.float32) / 255)


def _printed_face(key) -> np.ndarray:
    """The printed game's face of a tile key as uint8 RGB: taverns (also duplex halves) redrawn."""
    art = load_art()
    if key == ("back",):
        return art["back"]
    if key[0] == "single":
        return printed_tavern(key[1]) if key[1] in TAVERN_KINDS else art["singles"][key[1]]
    face = art["duplex"][key[1:]].copy()
    n = face.shape[0] if key[1] == "horizontal" else face.shape[1]
    for k, name in enumerate(key[2:]):
        if name in TAVERN_KINDS:
            half = (
                (slice(None), slice(k * n, (k + 1) * n))
                if key[1] == "horizontal"
                else (slice(k * n, (k + 1) * n),)
            )
            face[half] = printed_tavern(name)
    return face


class Faces(dict):
    """Linear float32 faces of tile keys as this photo shows them, made when first asked for."""

    def __init__(self, rng, art):
        super().__init__()
        self.look = print_run(rng) if art == "printed" else None

    def __missing__(self, key):
        face = _artwork_face(key) if self.look is None else to_linear(self.look(_printed_face(key)))
        self[key] = face
        return face


def _tile_normal(rng, level) -> np.ndarray:
    n = np.array([*rng.normal(0, (0.006, 0.01, 0.016)[level], 2), 1.0])
    return n / np.linalg.norm(n)


def _city_boxes(rng, pieces, faces, level, gloss, centre=(0.0, 0.0), turn=0.0) -> tuple[list[Box], float]:
    """Tiles of a city laid by hand around centre, turned by `turn` (rad); also the gap (mm)."""
    gap = rng.uniform(*((0.3, 1.5), (0.2, 2.5), (0.2, 3.5))[level])
    pitch = TILE_MM + gap
    jitter = min((0.3, 0.6, 1.0)[level], 0.2 + 0.3 * gap)
    spin = min((0.5, 1.0, 2.0)[level], math.degrees(gap * 0.5 / (TILE_MM / 2)) + 0.2)
    drift_x, drift_y = rng.normal(0, jitter, SIZE), rng.normal(0, jitter, SIZE)
    radius = rng.uniform(0.8, 2.0)  # of the corners, cut by one die
    c, s = math.cos(turn), math.sin(turn)
    boxes = []
    for piece in pieces:
        cells = np.array(piece["cells"], float)
        x = ((cells[:, 1] - 1.5) * pitch).mean() + drift_x[int(cells[0, 0])] + rng.normal(0, jitter)
        y = ((1.5 - cells[:, 0]) * pitch).mean() + drift_y[int(cells[0, 1])] + rng.normal(0, jitter)
        w, h = TILE_MM, TILE_MM
        if piece["tile"][0] == "duplex":
            w, h = (2 * TILE_MM, TILE_MM) if piece["tile"][1] == "horizontal" else (TILE_MM, 2 * TILE_MM)
        boxes.append(
            Box(
                (centre[0] + c * x - s * y, centre[1] + s * x + c * y),
                turn + math.radians(rng.normal(0, spin)),
                w,
                h,
                faces[piece["tile"]],
                normal=_tile_normal(rng, level),
                gloss=gloss * rng.uniform(0.7, 1.3),
                radius=radius,
            )
        )
    return boxes, gap


def _image_hull(cam, points) -> np.ndarray:
    """Convex hull (K, 2) float32 of world points (N, 3) on the canvas."""
    return cv2.convexHull(cam.project(points)[0].astype(np.float32)).reshape(-1, 2)


def _overlaps(poly_a, poly_b) -> bool:
    area, _ = cv2.intersectConvexConvex(poly_a.astype(np.float32), poly_b.astype(np.float32))
    return area > 0


def _neighbour(rng, cam, level, faces, gloss, city_quad) -> list[Box]:
    """A neighbour's city beside ours, partly in view (or nothing if it cannot be)."""
    _, pieces = sample_city(rng)
    turn = rng.uniform(0, 2 * math.pi)
    reach = 2 * TILE_MM * math.sqrt(2) + 4
    w, h = cam.size
    for _ in range(12):
        direction = rng.uniform(0, 2 * math.pi)
        distance = 2 * TILE_MM * 2 + rng.uniform(25, 250) + reach - 2 * TILE_MM
        centre = (distance * math.cos(direction), distance * math.sin(direction))
        boxes, _ = _city_boxes(rng, pieces, faces, level, gloss, centre, turn)
        seen = [b for b in boxes if _inside(cam.to_output(cam.project([[*b.centre, 0]])[0])[0], w, h)]
        hull = _image_hull(cam, np.concatenate([b.outline() for b in boxes]))
        if seen and not _overlaps(hull, city_quad):
            return boxes
    return []


def _inside(p, w, h, edge=0.0) -> bool:
    return edge <= p[0] <= w - 1 - edge and edge <= p[1] <= h - 1 - edge


def _cup(rng, centre) -> list:
    glaze = to_linear(
        _pick(
            rng,
            [(240, 240, 235), (30, 60, 130), (180, 40, 40), (30, 30, 30), (230, 200, 80), (120, 160, 130)],
        )
    )
    r = rng.uniform(36, 45)
    top = np.empty((64, 64, 3), np.float32)
    top[:] = glaze * 1.1
    cv2.circle(top, (32, 32), int(32 * (r - 4) / r), (glaze * 0.75).tolist(), -1, cv2.LINE_AA)
    drink = to_linear(_pick(rng, [(55, 32, 20), (140, 75, 30), (165, 115, 75), (200, 200, 190)]))
    height = rng.uniform(80, 100)
    cup = Cylinder(
        centre, r, height, top, glaze, gloss=0.06, shiny=80, liquid=(drink, rng.uniform(10, 25), 4.0)
    )
    a = rng.uniform(0, 2 * math.pi)
    handle = Box(
        (centre[0] + (r + 8) * math.cos(a), centre[1] + (r + 8) * math.sin(a)),
        a,
        24,
        10,
        np.broadcast_to(glaze, (8, 16, 3)).copy(),
        z0=height * 0.25,
        height=height * 0.5,
        side=glaze * 0.8,
        edge=glaze,
        radius=4,
        gloss=0.06,
        shiny=80,
        bevel=False,
    )
    return [cup, handle]


def _thing(rng, kind, centre, art_faces) -> tuple[list, float]:
    """One thing on the table at centre: its parts and its reach (mm from centre)."""
    angle = rng.uniform(0, 2 * math.pi)
    if kind == "backs":
        parts = []
        for k in range(int(rng.integers(1, 6))):
            xy = (centre[0] + rng.normal(0, 1.5), centre[1] + rng.normal(0, 1.5))
            parts.append(
                Box(
                    xy,
                    angle + rng.normal(0, 0.08),
                    TILE_MM,
                    TILE_MM,
                    art_faces[("back",)],
                    z0=k * THICK_MM,
                    gloss=0.03,
                )
            )
        return parts, TILE_MM * 0.75
    if kind == "tile":
        name = BUILDINGS[rng.integers(len(BUILDINGS))]
        return [Box(centre, angle, TILE_MM, TILE_MM, art_faces[("single", name)], gloss=0.03)], TILE_MM * 0.75
    if kind == "card":
        parts = []
        face = to_linear(_card_face(rng))
        for k in range(int(rng.integers(1, 4))):
            parts.append(
                Box(
                    centre,
                    angle + k * rng.uniform(0.1, 0.4),
                    63,
                    88,
                    face,
                    z0=k * 0.35,
                    height=0.35,
                    side=rgb(235, 235, 230),
                    edge=rgb(235, 235, 230),
                    radius=3,
                    gloss=0.04,
                    bevel=False,
                )
            )
        return parts, 56.0
    if kind == "coin":
        metal = _pick(rng, [(200, 140, 90), (190, 190, 195), (215, 180, 90)])
        r = rng.uniform(9, 14)
        return [
            Cylinder(
                centre,
                r,
                2.0,
                to_linear(_coin_face(rng, metal)),
                to_linear(metal) * 0.7,
                gloss=0.15,
                shiny=30,
            )
        ], r
    if kind == "pencil":
        face = _pencil_face(rng)
        face[..., :3] = to_linear(face[..., :3])
        return [
            Box(
                centre,
                angle,
                7,
                176,
                face,
                height=7,
                side=to_linear(face[300, 3, :3]) * 0.6,
                edge=to_linear(face[300, 14, :3]),
                radius=0.5,
                gloss=0.05,
                bevel=False,
            )
        ], 90.0
    return _cup(rng, centre), 60.0


THING_KINDS = ("backs", "tile", "card", "coin", "pencil", "cup")


def _things(rng, level, cam, art_faces, half, taken, city_quad) -> list:
    """A few things on the table around the city (half: its half side, mm), none over it."""
    count = 0 if rng.random() < 0.35 else int(rng.integers(1, (3, 5, 7)[level]))
    clear = (0.6, 0.4, 0.25)[level] * TILE_MM
    w, h = cam.size
    placed, things = list(taken), []
    for _ in range(count):
        kind = THING_KINDS[rng.choice(len(THING_KINDS), p=(0.25, 0.15, 0.2, 0.15, 0.12, 0.13))]
        for _ in range(25):
            centre = rng.uniform(-3.2, 3.2, 2) * half
            parts, reach = _thing(rng, kind, tuple(centre), art_faces)
            if max(abs(centre[0]), abs(centre[1])) < half + clear + reach:
                continue
            if any(np.hypot(*(centre - c)) < reach + r + 5 for c, r in placed):
                continue
            if not _inside(cam.to_output(cam.project([[*centre, 0]])[0])[0], w, h):
                continue
            if _overlaps(_image_hull(cam, np.concatenate([p.outline() for p in parts])), city_quad):
                continue
            placed.append((centre, reach))
            things += parts
            break
    return things


# --- the table --------------------------------------------------------------------------------

MAX_TEX_PX = 1.2e6  # texels of a table's texture at most
FAR_MM = 1500.0  # the texture covers the table this far around the city; beyond, it repeats
FLOOR_Z = -740.0


def _footprint(X, Y, hit, step=8) -> np.ndarray:
    """Millimetres of plane under each canvas pixel along its longer axis: (H, W) float32."""
    xs, ys = X[::step, ::step], Y[::step, ::step]
    across = np.hypot(np.gradient(xs, axis=1), np.gradient(ys, axis=1)) / step
    down = np.hypot(np.gradient(xs, axis=0), np.gradient(ys, axis=0)) / step
    fp = np.where(hit[::step, ::step], np.maximum(across, down), 1e4).astype(np.float32)
    return cv2.resize(fp, (X.shape[1], X.shape[0]), interpolation=cv2.INTER_LINEAR)


def _paint_plane(rng, painter, X, Y, use, max_texels=MAX_TEX_PX) -> np.ndarray:
    """A painter's texture seen at plane coordinates X, Y (H, W) where use: (H, W, 3) linear.

    The texture is made once at the finest footprint needed (at most max_texels texels), then
    sampled from a pyramid at each pixel's footprint (trilinear), so fine patterns blur instead
    of aliasing with distance.
    """
    out = np.zeros(X.shape + (3,), np.float32)
    fp = _footprint(X, Y, use)
    near = use & (np.abs(X) < FAR_MM) & (np.abs(Y) < FAR_MM)
    if not near.any():
        near = use
        if not near.any():
            return out
    xs, ys = X[near], Y[near]
    x0, x1, y0, y1 = float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())
    texel = max(
        1.5 * float(np.percentile(fp[::4, ::4][near[::4, ::4]], 1)) if near[::4, ::4].any() else 0.1,
        math.sqrt((x1 - x0 + 1) * (y1 - y0 + 1) / max_texels),
        0.08,
    )
    x0, x1, y0, y1 = x0 - 4 * texel, x1 + 4 * texel, y0 - 4 * texel, y1 + 4 * texel
    w, h = int(math.ceil((x1 - x0) / texel)), int(math.ceil((y1 - y0) / texel))
    Xt = (x0 + texel * (np.arange(w) + 0.5))[None, :].astype(np.float32)
    Yt = (y1 - texel * (np.arange(h) + 0.5))[:, None].astype(np.float32)
    pyramid = [to_linear(np.clip(painter(rng, Xt, Yt, texel), 0, 1))]
    while min(pyramid[-1].shape[:2]) > 16:
        pyramid.append(cv2.pyrDown(pyramid[-1]))
    tx, ty = (X - x0) / texel - 0.5, (y1 - Y) / texel - 0.5
    level = np.clip(np.log2(np.maximum(fp / texel, 1e-3)), 0, len(pyramid) - 1)
    for k, tex in enumerate(pyramid):
        weight = np.clip(1 - np.abs(level - k), 0, 1) * use
        rows = np.nonzero(weight.max(axis=1) > 0)[0]
        if not len(rows):
            continue
        r0, r1 = rows[0], rows[-1] + 1
        scale = 0.5**k
        sample = cv2.remap(
            tex,
            np.clip((tx[r0:r1] + 0.5) * scale - 0.5, -1e5, 1e5),
            np.clip((ty[r0:r1] + 0.5) * scale - 0.5, -1e5, 1e5),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REFLECT_101,
        )
        out[r0:r1] += sample * weight[r0:r1, :, None]
    return out


def _table_edges(rng, level, half) -> tuple[float, np.ndarray]:
    """The table's turn and its extent (u0, u1, v0, v1) in its own frame (mm); usually far away."""
    bounds = np.array([-5000.0, 5000.0, -5000.0, 5000.0])
    if rng.random() < (0.05, 0.15, 0.3)[level]:
        side = rng.integers(4)
        bounds[side] = (1 if side % 2 else -1) * (half * 1.45 + rng.uniform(40, 400))
    return rng.normal(0, 0.2), bounds


def _on_table(X, Y, angle, bounds) -> tuple[np.ndarray, np.ndarray]:
    """Whether plane points are on the table, and their distance to its edge (mm)."""
    u, v = _rotated(X, Y, angle)
    d = np.minimum(np.minimum(u - bounds[0], bounds[1] - u), np.minimum(v - bounds[2], bounds[3] - v))
    return d > 0, d


def _table(rng, family, cam, canvas, level, half, edges=None, max_texels=MAX_TEX_PX) -> dict:
    """Paint the table, the floor beyond it and a wall into the canvas.

    edges: the table's (turn, extent) as _table_edges gives them, or None to draw them here;
    max_texels: the most texels of its texture. Returns X, Y (H, W): where each pixel's ray meets
    the plane z = 0, depth (H, W): the distance along the view to what the pixel sees, and ground
    (the height shadows fall on).
    """
    X, Y, depth, hit = cam.rays(0.0)
    angle, bounds = _table_edges(rng, level, half) if edges is None else edges
    inside, to_edge = _on_table(X, Y, angle, bounds)
    on = hit & inside
    ground = 0.0
    if family == "glass":
        ground = -rng.uniform(8, 40)
        Xu, Yu, depth_u, hit_u = cam.rays(ground)
        under = UNDER_GLASS[rng.integers(len(UNDER_GLASS))]
        albedo = _paint_plane(rng, PAINTERS[under], Xu, Yu, on & hit_u, max_texels)
        albedo *= np.array(
            [rng.uniform(0.86, 0.95), rng.uniform(0.93, 0.99), rng.uniform(0.9, 0.97)], np.float32
        )
        specks = _lattice(rng, X, Y, 0.8, 0.8)
        albedo += (0.12 * np.clip(specks - 2.6, 0, 1) + 0.01 * np.clip(_lattice(rng, X, Y, 60, 60), 0, 2))[
            ..., None
        ]
        depth = np.where(on, depth_u, depth)
    else:
        albedo = _paint_plane(rng, PAINTERS[family], X, Y, on, max_texels)
    gloss, shiny = SHEEN[family]
    canvas.gloss[:] = gloss * rng.uniform(0.6, 1.4)
    canvas.shiny[:] = shiny
    if not on.all():  # the table's edge, the floor beyond it, a wall far away
        albedo *= np.where(on & (to_edge < 4), 0.55, 1.0).astype(np.float32)[..., None]
        Xf, Yf, depth_f, hit_f = cam.rays(FLOOR_Z)
        floor = ~on & hit_f & (depth_f < 6000)
        floor_colour = to_linear(_pick(rng, [(120, 90, 60), (90, 90, 95), (150, 130, 110), (60, 45, 35)]))
        shade = (0.3 + 0.05 * _lattice(rng, Xf, Yf, 150, 40))[..., None]
        albedo = np.where(floor[..., None], floor_colour * shade, albedo)
        albedo = np.where((~on & ~floor)[..., None], to_linear(rgb(200, 190, 170)) * 0.25, albedo)
        depth = np.where(on, depth, np.where(floor, depth_f, np.float32(6000)))
        canvas.gloss[~on] = 0
    canvas.albedo[:] = albedo
    return {"X": np.clip(X, -1e5, 1e5), "Y": np.clip(Y, -1e5, 1e5), "depth": depth, "ground": ground}


# --- light ------------------------------------------------------------------------------------


@dataclass
class Light:
    """A light: colour (3,) linear, scaled so that its luminance is what it gives the city centre;
    pos (3,) mm (far away for daylight through a window); spot: (axis (3,), cos inner, cos outer)
    of a lamp shade; ramp: change of strength per metre towards the window; size: source width
    over distance (for soft shadows)."""

    colour: np.ndarray
    pos: np.ndarray
    spot: tuple | None = None
    ramp: float = 0.0
    size: float = 0.1


def _lighting(rng, level, cam) -> dict:
    """The room's lights: {"lights", "ambient" (3,), "key" (index of the shadow caster),
    "window": (direction (3,), cos inner, cos outer, colour) for reflections or None, "info"}."""
    kinds = ("ceiling", "lamp", "window", "overcast", "mixed")
    p = ((0.4, 0.1, 0.3, 0.2, 0.0), (0.3, 0.2, 0.3, 0.12, 0.08), (0.22, 0.3, 0.25, 0.08, 0.15))[level]
    kind = kinds[rng.choice(5, p=p)]

    def lamp(strength):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(150, 700)
        pos = np.array([r * math.cos(a), r * math.sin(a), rng.uniform((550, 400, 300)[level], 900)])
        aim = np.array([*rng.normal(0, 150, 2), 0.0]) - pos
        outer = math.radians(rng.uniform(30, 60))
        spot = (aim / np.linalg.norm(aim), math.cos(outer * rng.uniform(0.3, 0.7)), math.cos(outer))
        return Light(kelvin(rng.uniform(2400, 3300)) * strength, pos, spot=spot, size=0.1)

    def daylight(elevation, strength, ramp):
        a, e = rng.uniform(0, 2 * math.pi), math.radians(elevation)
        direction = np.array([math.cos(a) * math.cos(e), math.sin(a) * math.cos(e), math.sin(e)])
        return Light(kelvin(rng.uniform(5200, 7500)) * strength, direction * 1e6, ramp=ramp, size=0.15)

    window = None
    if kind == "ceiling":
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0, 1500)
        lights = [
            Light(
                kelvin(rng.uniform(2700, 4500)),
                np.array([r * math.cos(a), r * math.sin(a), rng.uniform(1200, 2200)]),
                size=0.15,
            )
        ]
        ambient = kelvin(rng.uniform(3500, 6000)) * rng.uniform(0.25, 0.6)
    elif kind == "lamp":
        lights = [lamp(1.0)]
        ambient = kelvin(rng.uniform(3000, 6500)) * rng.uniform(0.05, 0.3) * (1 - 0.15 * level)
    elif kind == "overcast":
        lights = [daylight(rng.uniform(55, 85), 0.35, rng.uniform(0, 0.3))]
        ambient = kelvin(rng.uniform(6000, 7500)) * 0.8
    else:
        lights = [daylight(rng.uniform(15, 55), 1.0, rng.uniform(0.2, 1.0) * (1 + level))]
        ambient = kelvin(rng.uniform(7000, 10000)) * rng.uniform(0.3, 0.7)
        if kind == "mixed":
            lights.append(lamp(rng.uniform(0.4, 0.9)))
    if kind in ("window", "overcast", "mixed") or rng.random() < 0.5:
        sun = lights[0].pos / np.linalg.norm(lights[0].pos) if kind != "lamp" and kind != "ceiling" else None
        if sun is None:
            e, a = math.radians(rng.uniform(15, 50)), rng.uniform(0, 2 * math.pi)
            sun = np.array([math.cos(a) * math.cos(e), math.sin(a) * math.cos(e), math.sin(e)])
        radius = math.radians(rng.uniform(8, 22))
        bright = rng.uniform(1, 5) if kind in ("window", "overcast", "mixed") else rng.uniform(0.5, 2.5)
        window = (sun, math.cos(radius * 0.6), math.cos(radius), kelvin(rng.uniform(6000, 8000)) * bright)
    flash = rng.random() < (0.1, 0.2, 0.35)[level]
    if flash:
        if rng.random() < 0.3:  # a dark room: the flash does most of the work
            lights = [
                Light(light.colour * 0.25, light.pos, light.spot, light.ramp, light.size) for light in lights
            ]
            ambient = ambient * 0.25
        lights.append(Light(kelvin(5500) * rng.uniform(0.4, 1.5), cam.pos + rng.normal(0, 8, 3), size=0.01))
    info = {"lighting": kind, "flash": bool(flash), "reflection": window is not None}
    return {
        "lights": lights,
        "ambient": np.asarray(ambient, np.float32),
        "key": 0,
        "window": window,
        "info": info,
    }


def _shadows(canvas, cam, things, light, ground, ppm) -> dict:
    """Soft masks (H, W) float32 in [0, 1]: shadows of low things ("low", falling on the table),
    of tall things ("high", falling on everything lower) from the key light, and the ambient
    occlusion around everything's foot ("ao")."""
    h, w = canvas.shape
    masks = {name: np.zeros((h, w), np.uint8) for name in ("low", "high", "ao")}
    for thing in things:
        pts = thing.outline()
        t = (light.pos[2] - ground) / np.maximum(light.pos[2] - pts[:, 2], 1e-3)
        cast = light.pos + (pts - light.pos) * t[:, None]
        for name, shape in (("high" if pts[:, 2].max() > 20 else "low", cast), ("ao", pts)):
            flat = shape.copy()
            flat[:, 2] = ground
            hull = cv2.convexHull(flat[:, :2].astype(np.float32)).reshape(-1, 2)
            poly = cam.project(np.column_stack([hull, np.full(len(hull), ground)]))[0]
            cv2.fillPoly(masks[name], [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    soft = {
        "low": ppm * (0.4 + 2 * light.size),
        "high": ppm * (2 + 60 * light.size),
        "ao": ppm * (2.0 + abs(ground) * 0.4),
    }
    return {name: _blur(m.astype(np.float32) / 255, max(0.6, soft[name])) for name, m in masks.items()}


def _hand(rng, shape) -> np.ndarray:
    """The photographer's shadow reaching in from one side: (H, W) float32 in [0, 1]."""
    h, w = shape
    short = min(h, w)
    mask = np.zeros((h, w), np.uint8)
    side = rng.integers(4)
    t = rng.uniform(0.2, 0.8)
    depth = rng.uniform(0.1, 0.4) * short
    edge_pt = {0: (t * w, 0), 1: (w, t * h), 2: (t * w, h), 3: (0, t * h)}[side]
    inward = {0: (0, 1), 1: (-1, 0), 2: (0, -1), 3: (1, 0)}[side]
    tip = (edge_pt[0] + inward[0] * depth, edge_pt[1] + inward[1] * depth)
    cv2.line(
        mask,
        (int(edge_pt[0]), int(edge_pt[1])),
        (int(tip[0]), int(tip[1])),
        255,
        int(rng.uniform(0.12, 0.22) * short),
    )
    axes = (int(rng.uniform(0.08, 0.16) * short), int(rng.uniform(0.1, 0.2) * short))
    cv2.ellipse(mask, (int(tip[0]), int(tip[1])), axes, rng.uniform(0, 180), 0, 360, 255, -1)
    return _blur(mask.astype(np.float32) / 255, rng.uniform(0.03, 0.08) * short)


def _shade(canvas, cam, table, lighting, shadows, hand, level) -> np.ndarray:
    """Radiance (H, W, 3) linear: diffuse light, Blinn-Phong highlights and a window's reflection."""
    nx, ny, nz = (np.ascontiguousarray(canvas.normal[..., k]) for k in range(3))
    inv = 1 / np.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx * inv, ny * inv, nz * inv
    X, Y = table["X"], table["Y"]
    px, py, pz = (float(c) for c in cam.pos)
    vx, vy = px - X, py - Y
    inv = 1 / np.sqrt(vx * vx + vy * vy + pz * pz)
    vx, vy, vz = vx * inv, vy * inv, pz * inv
    low = canvas.layer == 0
    ao = 1 - np.clip(shadows["ao"] * low * (0.35 + 0.1 * level), 0, 0.9)
    occluded = (1 - 0.55 * shadows["low"] * low) * (1 - 0.6 * shadows["high"] * (canvas.layer < 2))
    if hand is not None:
        occluded *= 1 - hand
        ao *= 1 - 0.3 * hand
    sky = ao * (0.6 + 0.4 * nz)
    diffuse = [sky * float(c) for c in lighting["ambient"]]  # per colour channel, (H, W) each
    specular = np.zeros(canvas.shape, np.float32)
    # below this cosine between normal and half vector a highlight is under 1e-3 of its peak
    visible = np.where(canvas.gloss > 0, np.exp(-6.9 / canvas.shiny), np.float32(2))
    for i, light in enumerate(lighting["lights"]):
        lpx, lpy, lpz = (float(c) for c in light.pos)
        if lpz > 1e5:  # daylight: one direction, a ramp across the table
            lx, ly, lz = (float(c) for c in light.pos / np.linalg.norm(light.pos))
            flat = max(math.hypot(lx, ly), 1e-3)
            strength = np.clip(1 + (light.ramp / flat / 1000) * (X * lx + Y * ly), 0.25, 3) / max(lz, 0.2)
        else:
            lx, ly = lpx - X, lpy - Y
            d2 = lx * lx + ly * ly + lpz * lpz
            inv = 1 / np.sqrt(d2)
            lx, ly, lz = lx * inv, ly * inv, lpz * inv
            d0 = float(np.linalg.norm(light.pos))  # 1 / d^2 falloff, normalised to 1 at the city centre
            strength = (d0**3 / max(lpz, 1.0)) / d2
            if light.spot is not None:
                axis, cos_in, cos_out = light.spot
                cos_a = -(lx * float(axis[0]) + ly * float(axis[1]) + lz * float(axis[2]))
                strength *= np.clip((cos_a - cos_out) / (cos_in - cos_out), 0, 1) ** 2
        lit = strength * np.clip(nx * lx + ny * ly + nz * lz, 0, None)
        if i == lighting["key"]:
            lit *= occluded
        for channel, c in zip(diffuse, light.colour, strict=True):
            channel += lit * float(c)
        hx, hy, hz = lx + vx, ly + vy, lz + vz
        ndh = (nx * hx + ny * hy + nz * hz) / np.sqrt(hx * hx + hy * hy + hz * hz)
        near = ndh > visible
        shiny = canvas.shiny[near]
        specular[near] += (
            (shiny + 2) * np.exp(shiny * np.log(ndh[near])) * lit[near] * float(light.colour.mean() / 8)
        )
    specular *= canvas.gloss * (1 + 0.3 * level)
    sheen = [specular] * 3
    if lighting["window"] is not None:
        w, cos_in, cos_out, colour = lighting["window"]
        ndv = 2 * (nx * vx + ny * vy + nz * vz)
        along = (ndv * nx - vx) * float(w[0]) + (ndv * ny - vy) * float(w[1]) + (ndv * nz - vz) * float(w[2])
        seen = np.clip((along - cos_out) / (cos_in - cos_out), 0, 1) * canvas.gloss
        sheen = [specular + seen * float(c) for c in colour]
    radiance = canvas.albedo * cv2.merge(diffuse)
    radiance += cv2.merge(sheen)
    return radiance


def _blur(image, sigma) -> np.ndarray:
    """Gaussian blur; a large one is done on a shrunk copy (much faster, the same look)."""
    if sigma <= 3:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    h, w = image.shape[:2]
    k = sigma / 2
    small = cv2.resize(image, (max(1, round(w / k)), max(1, round(h / k))), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), 1.8), (w, h), interpolation=cv2.INTER_LINEAR)


# --- optics, sensor and the phone's pipeline -------------------------------------------------


def _motion_kernel(length, angle) -> np.ndarray:
    """A normalised line kernel of the given length (px) and angle (rad), splatted bilinearly."""
    size = 2 * int(math.ceil(length / 2)) + 3
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    for t in np.linspace(-0.5, 0.5, int(length * 4) + 2):
        x, y = c + t * length * math.cos(angle), c + t * length * math.sin(angle)
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        kernel[y0, x0] += (1 - fx) * (1 - fy)
        kernel[y0, x0 + 1] += fx * (1 - fy)
        kernel[y0 + 1, x0] += (1 - fx) * fy
        kernel[y0 + 1, x0 + 1] += fx * fy
    return kernel / kernel.sum()


def _optics(rng, radiance, depth, cam, level, focus_depth, aperture, info) -> np.ndarray:
    """Canvas radiance -> output-size linear image: defocus by depth, lens softness, hand shake,
    distortion with lateral colour fringes, vignetting: (H, W, 3) float32."""
    zf = focus_depth
    if rng.random() < (0.0, 0.05, 0.15)[level]:  # focused on something else
        zf *= math.exp(rng.uniform(-0.4, 0.4))
    coc = aperture * cam.f * np.abs(1 / zf - 1 / depth)
    lens = rng.uniform(0.35, 0.75)
    sigma = np.sqrt((coc / 4) ** 2 + lens**2).clip(0, 10)
    levels = [lens] + [s for s in (1.5, 3.0, 6.0, 10.0) if s > lens]
    top = float(sigma.max())
    image = cv2.GaussianBlur(radiance, (0, 0), lens)
    for lo, hi in zip(levels, levels[1:], strict=False):
        if lo >= top:
            break
        weight = np.clip((sigma - lo) / (hi - lo), 0, 1)
        image += (_blur(radiance, hi) - image) * weight[..., None]
    short = min(cam.size)
    shake = 0.0
    if rng.random() < (0.3, 0.45, 0.6)[level]:
        shake = rng.uniform(0, (1.5, 3.5, 7.0)[level]) * short / 1200
        if shake > 0.5:
            image = cv2.filter2D(image, -1, _motion_kernel(shake, rng.uniform(0, math.pi)))
    w, h = cam.size
    cx, cy = (w - 1) / 2, (h - 1) / 2
    a = ((np.arange(w, dtype=np.float32) - cx) / cam.f)[None, :]
    b = ((np.arange(h, dtype=np.float32) - cy) / cam.f)[:, None]
    r2 = a * a + b * b
    bend = 1 + cam.k1 * r2 + cam.k2 * r2 * r2
    fringe = rng.uniform(0, (0.0004, 0.0008, 0.0015)[level])
    channels = []
    for k, scale in enumerate((1 + fringe, 1.0, 1 - fringe)):
        mx = (a * bend * scale * cam.f + cx + cam.margin).astype(np.float32)
        my = (b * bend * scale * cam.f + cy + cam.margin).astype(np.float32)
        channels.append(
            cv2.remap(
                np.ascontiguousarray(image[..., k]), mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        )
    out = np.stack(channels, axis=2)
    out /= (1 + rng.uniform(*((0.1, 0.4), (0.15, 0.6), (0.2, 0.9))[level]) * r2)[..., None]
    info.update(motion_px=round(shake, 2), defocus_px=round(float(np.median(coc)), 2))
    return out


def _tone_curve(contrast):
    """The phone's tone curve as a function of linear light (any shape) -> sRGB in [0, 1]: a soft
    shoulder above 0.8, the sRGB transfer and an S-curve of the given contrast."""
    x = np.linspace(0, 4, 8192, dtype=np.float32)
    shoulder = np.where(x > 0.8, 0.8 + 0.2 * np.tanh((x - 0.8) / 0.2), x)
    s = to_srgb(shoulder)
    table = (s + contrast * s * (1 - s) * (2 * s - 1)).astype(np.float32)
    return lambda v: table[np.clip(v * 2047.75, 0, 8191).astype(np.int32)]


@functools.lru_cache(maxsize=4)
def _noise_bank(h: int, w: int) -> np.ndarray:
    """A fixed field of sensor noise, correlated over neighbours as demosaicing leaves it:
    (h + 256, w + 256, 3) float32 of unit spread; each photo takes a crop at its own offset."""
    noise = np.random.default_rng(1234).standard_normal((h + 256, w + 256, 3), dtype=np.float32)
    return cv2.GaussianBlur(noise, (0, 0), 0.6) * 1.6


def _phone(rng, linear, level, light_colour, info) -> np.ndarray:
    """Sensor and phone pipeline: exposure, noise, white balance, tone curve, denoise, sharpening,
    JPEG. linear (H, W, 3) float32 -> (H, W, 3) uint8 RGB."""
    h, w = linear.shape[:2]
    luminance = linear[::4, ::4] @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    hs, ws = luminance.shape
    centre = np.exp(
        -((np.arange(hs)[:, None] / hs - 0.5) ** 2 + (np.arange(ws)[None, :] / ws - 0.5) ** 2) / 0.1
    )
    key = math.exp(float((np.log(luminance + 1e-4) * centre).sum() / centre.sum()))  # centre-weighted
    ev = rng.normal(0, (0.25, 0.4, 0.6)[level])
    gain = min(0.2 * 2**ev / key, 1.4 * 2 ** max(ev, 0) / float(np.percentile(luminance, 99.5)))
    x = linear * gain
    shot = rng.uniform(*((0.0002, 0.001), (0.0005, 0.003), (0.001, 0.008))[level])
    read = rng.uniform(*((0.001, 0.003), (0.002, 0.006), (0.003, 0.012))[level])
    dy, dx = rng.integers(0, 256, 2)
    x += _noise_bank(h, w)[dy : dy + h, dx : dx + w] * np.sqrt(shot * np.clip(x, 0, None) + read * read)
    adapt = rng.uniform(*((0.8, 1.0), (0.65, 1.0), (0.5, 1.0))[level])
    guess = (1 - adapt) + adapt * light_colour / (light_colour @ np.array([0.2126, 0.7152, 0.0722]))
    guess = guess * (1 + rng.normal(0, (0.02, 0.04, 0.06)[level], 3))
    x *= (1 / guess).astype(np.float32)
    s = _tone_curve(rng.uniform(0, 0.6))(x)
    ycc = cv2.cvtColor((s * 255 + 0.5).astype(np.uint8), cv2.COLOR_RGB2YCrCb).astype(np.float32)
    chroma = cv2.GaussianBlur(ycc[..., 1:], (0, 0), rng.uniform(0.8, 2.0))
    ycc[..., 1:] = 128 + (chroma - 128) * rng.uniform(0.95, 1.2)  # denoised, a little more saturated
    luma = ycc[..., 0]
    if shot > 0.002:
        luma = cv2.GaussianBlur(luma, (0, 0), 0.6)
    amount = rng.uniform(0.2, 0.9)
    ycc[..., 0] = luma + amount * (luma - cv2.GaussianBlur(luma, (0, 0), rng.uniform(0.8, 1.6)))
    image = cv2.cvtColor(np.clip(ycc, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2RGB)
    quality = int(rng.integers(*((75, 97), (65, 94), (45, 92))[level]))
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality]
    )
    info.update(jpeg_quality=quality, ev=round(ev, 2), white_balance=round(adapt, 2))
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


# --- a photo ----------------------------------------------------------------------------------


def _centre3(thing) -> np.ndarray:
    return np.array([*thing.centre, thing.z0 + thing.height / 2])


def drawable_families() -> tuple[str, ...]:
    """The table families render can draw now: the 14, then those another module registered
    (bench/unseen_tables.py's register()), numbered so for the photos' seeds."""
    return FAMILIES + tuple(MORE_FAMILIES)


def render(
    seed: int, family: str, tier: str, art: str = "artwork", size=(1600, 1200), with_city: bool = True
) -> tuple[np.ndarray, dict]:
    """A phone photo of a legal city on a table: (H, W, 3) uint8 RGB and its truth.

    truth: {"grid": 4x4 upright building names, "corners": [[x, y]] x4, the upright city's outer
    corners TL TR BR BL in the image, "family", "tier", "art", "scene": how it was made}.
    The same arguments give the same photo. Without ``with_city``, the same photo with neither
    the city nor a neighbour's in it (the table and what lies on it, aimed where the city
    was); its truth's grid and corners are None.
    """
    families = drawable_families()
    if family not in families or tier not in TIERS or art not in ARTS:
        raise ValueError(f"unknown family, tier or art: {family!r}, {tier!r}, {art!r}")
    rng = np.random.default_rng([int(seed), families.index(family), list(TIERS).index(tier), ARTS.index(art)])
    level = TIERS[tier][2]
    grid, pieces = sample_city(rng)
    faces = Faces(rng, art)
    tile_gloss = rng.uniform(0.008, 0.035) * (1.6 if art == "printed" else 1.0)
    city, gap = _city_boxes(rng, pieces, faces, level, tile_gloss)
    half = 2 * (TILE_MM + gap) - gap / 2
    corners3 = np.array(
        [[-half, half, THICK_MM], [half, half, THICK_MM], [half, -half, THICK_MM], [-half, -half, THICK_MM]]
    )
    cam, info = _camera(rng, tier, size, corners3)
    city_quad = cam.project(corners3)[0]
    city_quad = ((city_quad - city_quad.mean(0)) * 1.03 + city_quad.mean(0)).astype(np.float32)
    things, taken = [], [(np.zeros(2), 0.0)]
    if rng.random() < (0.1, 0.25, 0.35)[level]:
        neighbour = _neighbour(rng, cam, level, faces, tile_gloss, city_quad)
        if neighbour and with_city:
            things += neighbour
            taken.append((np.mean([b.centre for b in neighbour], axis=0), 2 * TILE_MM * math.sqrt(2) + 10))
    things += _things(rng, level, cam, faces, half, taken, city_quad)
    canvas = Canvas(*cam.canvas_size)
    table = _table(rng, family, cam, canvas, level, half)
    scene = sorted((city if with_city else []) + things, key=lambda t: -np.linalg.norm(_centre3(t) - cam.pos))
    for thing in scene:
        _draw(canvas, cam, thing)
    lighting = _lighting(rng, level, cam)
    focus_depth = float(cam.project([[0.0, 0.0, THICK_MM]])[1][0])
    ppm = cam.f / focus_depth
    shadows = _shadows(canvas, cam, scene, lighting["lights"][lighting["key"]], table["ground"], ppm)
    hand = _hand(rng, canvas.shape) if rng.random() < (0.05, 0.2, 0.35)[level] else None
    radiance = _shade(canvas, cam, table, lighting, shadows, hand, level)
    linear = _optics(rng, radiance, table["depth"], cam, level, focus_depth, LENSES[info["lens"]][2], info)
    light_colour = lighting["ambient"] + sum(light.colour for light in lighting["lights"])
    image = _phone(rng, linear, level, light_colour, info)
    corners = cam.to_output(cam.project(corners3)[0])
    info.update(
        lighting["info"],
        hand_shadow=hand is not None,
        gap_mm=round(gap, 2),
        neighbour=len(taken) > 1,
        things=sorted({type(t).__name__ for t in things}),
    )
    truth = {
        "grid": grid if with_city else None,
        "corners": np.round(corners, 2).tolist() if with_city else None,
        "family": family,
        "tier": tier,
        "art": art,
        "scene": info,
    }
    return image, truth
