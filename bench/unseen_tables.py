"""Table tops that no renderer of the project draws, for bench/independent.py --families unseen.

The independent renderer's 14 families have been looked at for weeks; these are drawn apart from
them and from the training renderer (no wood planks, cloth weaves, checks, plaids, stripes, square
floor tiles, marble, flowers, blobs, dots, newspaper, photo crops). Each painter has the interface
of independent_photos.PAINTERS: painter(rng, X, Y, texel) -> (h, w, 3) sRGB in [0, 1], where X
(1, w) and Y (h, 1) are the table-plane millimetres of the texture's texel centres (the city is
centred at the origin, tiles are 45 mm) and texel is the millimetres a texel spans.

    import unseen_tables
    unseen_tables.register()          # the renderer can now draw them
    image, truth = independent_photos.render(seed, "parquet", "hard")
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import independent_photos as photos  # noqa: E402
from independent_photos import _fbm, _lattice, _log_uniform, _motif_tiling, _pick, _rotated, rgb  # noqa: E402

FAMILIES = (
    "parquet",
    "chessboard",
    "rug",
    "cork",
    "baize",
    "concrete",
    "wicker",
    "hex-tiles",
    "map",
    "leather",
    "bamboo",
    "oilcloth",
    "cutting-mat",
    "kraft-paper",
    "steel",
)


# --- helpers ------------------------------------------------------------------------------------


def _shape(X, Y) -> tuple:
    return np.broadcast_shapes(np.shape(X), np.shape(Y))


def _fill(X, Y, colour) -> np.ndarray:
    return np.broadcast_to(np.asarray(colour, np.float32), _shape(X, Y) + (3,)).copy()


def _edge(d, texel) -> np.ndarray:
    """1 where the signed distance d (mm) is inside (> 0), 0 outside, soft over a texel."""
    return np.clip(d / max(texel, 1e-3) + 0.5, 0, 1).astype(np.float32)


def _mix(out, colour, alpha) -> None:
    """out (h, w, 3) towards colour ((3,) or (h, w, 3)) by alpha (h, w), in place."""
    out += (np.asarray(colour, np.float32) - out) * np.asarray(alpha, np.float32)[..., None]


def _jitter(rng, colour, spread=0.06) -> np.ndarray:
    """A colour (3,) varied in brightness and a little in hue."""
    c = np.asarray(colour, np.float32) * math.exp(rng.normal(0, spread))
    return np.clip(c * (1 + rng.normal(0, spread / 2, 3)), 0, 1).astype(np.float32)


def _hash(*ints) -> np.ndarray:
    """A non-negative integer per element from integer arrays (for per-piece randomness)."""
    h = np.zeros(np.broadcast_shapes(*(np.shape(i) for i in ints)), np.int64)
    for k, i in zip((73856093, 19349663, 83492791, 2654435761), ints, strict=False):
        h = h ^ (np.asarray(i).astype(np.int64) * k)
    return np.abs(h) % 1_000_003


def _frame(angle, at) -> tuple[float, float]:
    """The world centre of a frame turned by angle whose point `at` (frame mm) lies on the origin."""
    c, s = math.cos(angle), math.sin(angle)
    return -(at[0] * c - at[1] * s), -(at[0] * s + at[1] * c)


def _noise(rng, u, v, su, sv) -> np.ndarray:
    """Smooth value noise of about unit spread with features of su mm along u, sv mm along v.

    For shapes cut out of noise (coasts, stains) and for its slope: _lattice samples with
    cv2.remap, whose fixed-point weights make steps of 1/32 of a feature."""
    u, v = np.broadcast_arrays(np.asarray(u, np.float32), np.asarray(v, np.float32))
    grow = max(
        1.0, math.sqrt((float(u.max() - u.min()) / su + 2) * (float(v.max() - v.min()) / sv + 2) / 4e6)
    )
    a, b = u / (su * grow), v / (sv * grow)
    a0, b0 = math.floor(float(a.min())), math.floor(float(b.min()))
    a, b = a - a0, b - b0
    grid = rng.standard_normal((int(b.max()) + 3, int(a.max()) + 3)).astype(np.float32)
    ia, ib = a.astype(np.int64), b.astype(np.int64)
    fa, fb = a - ia, b - ib
    wa = fa * fa * fa * (fa * (fa * 6 - 15) + 10)
    wb = fb * fb * fb * (fb * (fb * 6 - 15) + 10)
    top = grid[ib, ia] + (grid[ib, ia + 1] - grid[ib, ia]) * wa
    bottom = grid[ib + 1, ia] + (grid[ib + 1, ia + 1] - grid[ib + 1, ia]) * wa
    out = top + (bottom - top) * wb
    return out / max(float(out.std()), 1e-3)


def _smooth_fbm(rng, u, v, size, texel, octaves=4, stretch=1.0) -> np.ndarray:
    """_fbm of _noise: fractal noise without _lattice's steps."""
    return _fbm(rng, u, v, size, texel, octaves, stretch, noise=_noise)


def _cells(rng, u, v, size, n=64):
    """Distances (mm) to the nearest and second nearest of points jittered one per size-mm cell,
    and the nearest point's id."""
    a, b = u / size, v / size
    ia, ib = np.floor(a), np.floor(b)
    fa, fb = a - ia, b - ib
    ia, ib = ia.astype(np.int64), ib.astype(np.int64)
    jit = rng.random((n, n, 2)).astype(np.float32)
    f1 = np.full(a.shape, 9.0, np.float32)
    f2 = f1.copy()
    ident = np.zeros(a.shape, np.int64)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            ci, cj = (ia + di) % n, (ib + dj) % n
            d = np.hypot(di + jit[ci, cj, 0] - fa, dj + jit[ci, cj, 1] - fb)
            nearer = d < f1
            f2 = np.where(nearer, f1, np.minimum(f2, d))
            f1 = np.where(nearer, d, f1)
            ident = np.where(nearer, ci * n + cj, ident)
    return f1 * size, f2 * size, ident


PLAIN = [
    (236, 234, 228),
    (200, 200, 196),
    (150, 150, 148),
    (90, 90, 92),
    (35, 35, 38),
    (215, 200, 175),
    (95, 70, 50),
    (150, 165, 140),
    (45, 55, 80),
    (170, 70, 55),
]


def _plain(rng, X, Y, texel) -> np.ndarray:
    """A plain painted or laminated table under something that does not cover it all."""
    out = _fill(X, Y, _jitter(rng, _pick(rng, PLAIN), 0.08))
    return (
        out
        * (1 + 0.015 * _fbm(rng, X, Y, 150.0, texel, 3) + 0.01 * _fbm(rng, X, Y, 3.0, texel, 2))[..., None]
    )


def _rings(rng, X, Y, texel, out, count, colour, spread=350.0, strength=(0.2, 0.5)) -> None:
    """Rings left by wet cups and glasses, in place."""
    for _ in range(count):
        cx, cy = rng.uniform(-spread, spread, 2)
        radius, width = rng.uniform(26, 48), rng.uniform(0.6, 2.5)
        dx, dy = X - cx, Y - cy
        r = np.sqrt(dx * dx + dy * dy)
        theta = np.arctan2(dy, dx)
        broken = np.clip(0.55 + 0.6 * np.sin(theta * rng.integers(1, 4) + rng.uniform(0, 6)), 0, 1)
        rim = np.exp(-(((r - radius) / max(width, texel)) ** 2)) * broken
        inside = np.clip((radius - r) / max(texel, 0.5), 0, 1) * rng.uniform(0, 0.3)
        _mix(out, colour, rng.uniform(*strength) * np.clip(rim + inside, 0, 1))


class _Pen:
    """Draws in the millimetres of a frame turned by angle about centre on the table onto uint8
    masks of the texture (its texels at X (1, w), Y (h, 1)); anti-aliased, lines thinner than a
    texel fainter."""

    def __init__(self, X, Y, texel, angle=0.0, centre=(0.0, 0.0)):
        self.shape = _shape(X, Y)
        self.texel = texel
        self.x0, self.y0 = float(np.asarray(X).flat[0]), float(np.asarray(Y).flat[0])
        self.angle = angle
        self.cos, self.sin = math.cos(angle), math.sin(angle)
        self.centre = centre

    def mask(self) -> np.ndarray:
        return np.zeros(self.shape, np.uint8)

    def px(self, pts) -> np.ndarray:
        """Frame millimetres (..., 2) -> texture pixel coordinates (..., 2)."""
        pts = np.asarray(pts, np.float64)
        wx = self.centre[0] + pts[..., 0] * self.cos - pts[..., 1] * self.sin
        wy = self.centre[1] + pts[..., 0] * self.sin + pts[..., 1] * self.cos
        return np.stack([(wx - self.x0) / self.texel, (self.y0 - wy) / self.texel], -1)

    def _fixed(self, pts) -> np.ndarray:
        return np.round(np.clip(self.px(pts), -2e4, 2e4) * 16).astype(np.int32)

    def _thick(self, width, value) -> tuple[int, int]:
        t = width / self.texel
        return max(1, int(round(t))), int(round(255 * value * min(1.0, t)))

    def lines(self, mask, polylines, width, value=1.0, closed=False) -> None:
        thick, val = self._thick(width, value)
        if val and polylines:
            cv2.polylines(mask, [self._fixed(p) for p in polylines], closed, val, thick, cv2.LINE_AA, 4)

    def fill(self, mask, polygons, value=1.0) -> None:
        if polygons:
            cv2.fillPoly(mask, [self._fixed(p) for p in polygons], int(255 * value), cv2.LINE_AA, 4)

    def circle(self, mask, centre, radius, value=1.0, width=None) -> None:
        c = tuple(int(x) for x in self._fixed(centre))
        r = int(round(radius / self.texel * 16))
        if r < 8:
            return
        if width is None:
            cv2.circle(mask, c, r, int(255 * value), -1, cv2.LINE_AA, 4)
        else:
            thick, val = self._thick(width, value)
            cv2.circle(mask, c, r, val, thick, cv2.LINE_AA, 4)

    def text(
        self, mask, text, centre, height, angle=0.0, value=1.0, font=cv2.FONT_HERSHEY_SIMPLEX, weight=0.12
    ):
        """Text of cap height `height` mm centred at `centre`, its baseline turned by angle in the frame;
        too small to read, a faint bar where it would be."""
        h_px = height / self.texel
        if h_px < 1 or not text:
            return
        base_h = cv2.getTextSize("H", font, 1.0, 1)[0][1]
        if h_px < 5:
            tw = cv2.getTextSize(text, font, 1.0, 1)[0][0] / base_h * height
            c, s = math.cos(angle), math.sin(angle)
            box = np.array(
                [[-tw / 2, -height / 2], [tw / 2, -height / 2], [tw / 2, height / 2], [-tw / 2, height / 2]]
            )
            box = box @ np.array([[c, s], [-s, c]]) + np.asarray(centre)
            self.fill(mask, [box], value * 0.35)
            return
        scale = h_px / base_h
        thick = max(1, int(round(weight * h_px)))
        (tw, th), base = cv2.getTextSize(text, font, scale, thick)
        pad = thick + 2
        tmp = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
        cv2.putText(tmp, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
        centre_px = (pad + tw / 2, pad + th / 2)
        m = cv2.getRotationMatrix2D(centre_px, math.degrees(self.angle + angle), 1.0)
        m[:, 2] += self.px(centre) - np.array(centre_px)
        h, w = tmp.shape
        ends = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ m.T
        x0, y0 = np.floor(ends.min(0)).astype(int)
        x1, y1 = np.ceil(ends.max(0)).astype(int)
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.shape[1]), min(y1, self.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m[:, 2] -= (x0, y0)
        warped = cv2.warpAffine(tmp, m, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR)
        roi = mask[y0:y1, x0:x1]
        np.maximum(roi, (warped * value).astype(np.uint8), out=roi)


def _ink(out, mask, colour, strength=1.0) -> None:
    """Print colour over out where the uint8 mask says, in place."""
    _mix(out, colour, mask.astype(np.float32) * (strength / 255))


def _rect(cx, cy, hw, hh, angle=0.0) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    box = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return box @ np.array([[c, s], [-s, c]]) + (cx, cy)


def _rounded_rect(hw, hh, radius, n=12) -> np.ndarray:
    """A closed path (k, 2) around a rectangle of half sizes hw, hh with rounded corners."""
    radius = min(radius, hw, hh)
    pts = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        for t in np.radians(np.linspace(start, start + 90, n)):
            pts.append((sx * (hw - radius) + radius * math.cos(t), sy * (hh - radius) + radius * math.sin(t)))
    return np.array(pts)


def _walk(rng, start, steps, step, turn, heading=None) -> np.ndarray:
    """A smooth random walk (steps + 1, 2) mm."""
    heading = rng.uniform(0, 2 * np.pi) if heading is None else heading
    pts = [np.asarray(start, float)]
    spin = 0.0
    for _ in range(steps):
        spin = 0.7 * spin + rng.normal(0, turn)
        heading += spin
        pts.append(pts[-1] + step * np.array([math.cos(heading), math.sin(heading)]))
    return np.array(pts)


# --- parquet: herringbone, chevron and basket-weave blocks ------------------------------------

PARQUET = [
    ((205, 165, 115), (150, 108, 66)),  # oak
    ((226, 208, 176), (186, 162, 124)),  # white-washed oak
    ((122, 78, 48), (70, 43, 27)),  # walnut
    ((170, 110, 62), (116, 70, 36)),  # teak
    ((236, 216, 182), (204, 176, 132)),  # maple, birch
    ((98, 82, 70), (56, 46, 40)),  # fumed oak
    ((152, 82, 56), (100, 50, 34)),  # cherry, mahogany
    ((190, 175, 160), (140, 128, 118)),  # grey-limed oak
]


def _parquet(rng, X, Y, texel):
    angle = (
        rng.uniform(0, math.pi) if rng.random() < 0.6 else rng.choice([0, math.pi / 2]) + rng.normal(0, 0.03)
    )
    u, v = _rotated(X, Y, angle)
    width = _log_uniform(rng, 28, 95)
    k = int(rng.integers(3, 7))
    length = k * width
    style = rng.choice(3, p=(0.5, 0.3, 0.2))
    if style == 0:  # herringbone: blocks at right angles, ends against sides
        a = (u + v) / (math.sqrt(2) * width)
        b = (v - u) / (math.sqrt(2) * width)
        ia, ib = np.floor(a), np.floor(b)
        d = (ia - ib).astype(np.int64)
        dm, row = d % (2 * k), d // (2 * k)
        first = dm < k
        along = np.where(first, a - (ia - dm), b - (ib - (2 * k - 1 - dm))) * width
        across = np.where(first, b - ib, a - ia) * width
        block = np.where(first, _hash(ib, row, 1), _hash(ia, row, 2))
        edge = np.minimum(np.minimum(along, length - along), np.minimum(across, width - across))
    elif style == 1:  # chevron: mitred ends meeting on straight seams
        theta = rng.uniform(math.radians(30), math.radians(60))
        col = length * math.cos(theta)
        c = np.floor(u / col)
        x = u - c * col
        sign = np.where(c % 2 == 0, 1.0, -1.0)
        slanted = v - sign * math.tan(theta) * (x - col / 2)
        pitch = width / math.cos(theta)
        n = np.floor(slanted / pitch)
        along = x / math.cos(theta)
        across = (slanted - n * pitch) * math.cos(theta)
        block = _hash(c, n, 3)
        edge = np.minimum(np.minimum(x, col - x), np.minimum(across, width - across))
    else:  # basket weave: squares of k slats turning by a right angle square to square
        side = length
        i, j = np.floor(u / side), np.floor(v / side)
        fu, fv = u - i * side, v - j * side
        flat = (i + j) % 2 == 0
        along = np.where(flat, fu, fv)
        full = np.where(flat, fv, fu)
        slat = np.floor(full / width)
        across = full - slat * width
        block = _hash(i * 8 + slat, j, 4)
        edge = np.minimum(np.minimum(along, side - along), np.minimum(across, width - across))
    nb = 4096
    idx = block % nb
    tone = rng.normal(1, rng.uniform(0.04, 0.11), nb).astype(np.float32)[idx]
    L = along + rng.uniform(0, 1500, nb).astype(np.float32)[idx]
    A = across + rng.uniform(0, 1500, nb).astype(np.float32)[idx]
    spacing = rng.uniform(1.2, 5)
    ring = A + rng.uniform(2, 8) * _fbm(rng, L, A, 80.0, texel, 3, stretch=5)
    figure = (
        (0.5 + 0.5 * np.sin(2 * np.pi * ring / spacing)) ** rng.uniform(1.5, 4)
        if spacing > 2 * texel
        else 0.35
    )
    streak = 0.5 + 0.3 * _fbm(rng, L, A, 1.5, texel, 2, stretch=25)
    mix = np.clip(0.5 * figure + 0.5 * streak, 0, 1)[..., None]
    light, dark = (_jitter(rng, rgb(*c), 0.05) for c in PARQUET[rng.integers(len(PARQUET))])
    out = light + (dark - light) * mix
    if rng.random() < 0.3:  # two woods, block by block
        light2, dark2 = (_jitter(rng, rgb(*c), 0.05) for c in PARQUET[rng.integers(len(PARQUET))])
        other = (block // 7 % 2 == 1)[..., None]
        out = np.where(other, light2 + (dark2 - light2) * mix, out)
    out *= (tone * (1 + 0.04 * _fbm(rng, X, Y, 300.0, texel, 2)))[..., None]
    joint = _edge(rng.uniform(0.2, 0.6) - edge, texel)
    return out * (1 - rng.uniform(0.35, 0.7) * joint)[..., None]


# --- chessboard: a board with squares near a tile's size, or a checkered cloth --------------------

BOARDS = [
    ((232, 212, 170), (120, 78, 45), True),  # maple and walnut
    ((225, 195, 145), (160, 100, 55), True),
    ((240, 238, 230), (35, 35, 38), False),  # printed black and white
    ((236, 232, 205), (62, 118, 72), False),  # tournament vinyl
    ((238, 232, 215), (40, 75, 140), False),
    ((215, 45, 45), (30, 30, 32), False),  # draughts
    ((235, 230, 225), (150, 150, 150), False),
    ((242, 230, 200), (170, 60, 50), False),
]


def _chessboard(rng, X, Y, texel):
    light, dark, wooden = BOARDS[rng.integers(len(BOARDS))]
    light, dark = _jitter(rng, rgb(*light), 0.05), _jitter(rng, rgb(*dark), 0.08)
    square = _log_uniform(rng, 22, 75)
    angle = rng.uniform(0, math.pi) if rng.random() < 0.7 else rng.normal(0, 0.05)
    cloth = rng.random() < 0.3
    wooden = wooden and not cloth
    n = 8 if rng.random() < 0.8 else 10
    half = n * square / 2
    at = rng.uniform(-0.45, 0.45, 2) * half if not cloth else rng.uniform(0, square, 2)
    centre = _frame(angle, at)
    u, v = _rotated(X - centre[0], Y - centre[1], angle)
    # anti-aliased checker: the product of two soft signs
    cu = np.clip(np.sin(np.pi * u / square) * square / (np.pi * texel), -1, 1)
    cv = np.clip(np.sin(np.pi * v / square) * square / (np.pi * texel), -1, 1)
    checker = (0.5 + 0.5 * cu * cv)[..., None]
    out = dark + (light - dark) * checker
    if wooden:
        i, j = np.floor(u / square), np.floor(v / square)
        tone = rng.normal(1, 0.05, 997).astype(np.float32)[_hash(i, j) % 997]
        grain = 0.06 * _fbm(rng, u, v, 1.5, texel, 2, stretch=30) + 0.04 * _fbm(
            rng, u, v, 20.0, texel, 2, stretch=8
        )
        out *= (tone * (1 + grain))[..., None]
    else:
        out *= (1 + 0.02 * _fbm(rng, X, Y, 60.0, texel, 2))[..., None]
    if cloth:
        return out
    frame = rng.uniform(10, 45)
    box = np.maximum(np.abs(u), np.abs(v))
    rim = dark * 0.8 if wooden else light
    if wooden:
        rim = rim * (1 + 0.05 * _fbm(rng, u, v, 2.0, texel, 2, stretch=20))[..., None]
    out = np.where((box > half)[..., None], rim, out)
    pen = _Pen(X, Y, texel, angle, centre)
    marks = pen.mask()
    size = min(frame * 0.45, square * 0.35)
    for k in range(n):
        p = -half + (k + 0.5) * square
        for q in (-half - frame / 2, half + frame / 2):
            pen.text(marks, "abcdefghij"[k], (p, q), size)
            pen.text(marks, str(k + 1), (q, p), size)
    lines = pen.mask()
    pen.lines(lines, [_rect(0, 0, half, half)], rng.uniform(0.5, 2), closed=True)
    if rng.random() < 0.4:  # a folding board's hinge
        pen.lines(lines, [np.array([[0, -half - frame], [0, half + frame]])], 0.8)
    ink = light * 0.9 if wooden else dark
    _ink(out, marks, ink, rng.uniform(0.6, 1))
    _ink(out, lines, dark * 0.5, 0.7)
    outer = half + frame
    under = _plain(rng, X, Y, texel)
    under *= (1 - 0.35 * np.exp(-np.maximum(box - outer, 0) / 3))[..., None]  # a thin board's shadow
    out *= (1 - 0.45 * _edge(1.5 - np.abs(box - outer + 0.75), texel))[..., None]
    return np.where((box > outer)[..., None], under, out)


# --- an oriental rug used as a table cover ---------------------------------------------------

RUG_FIELDS = [
    (135, 28, 32),
    (150, 48, 36),
    (35, 42, 80),
    (28, 35, 60),
    (225, 210, 178),
    (165, 75, 45),
    (40, 85, 85),
    (115, 35, 55),
    (60, 40, 35),
]
RUG_ACCENTS = [
    (225, 212, 180),
    (35, 42, 80),
    (205, 155, 70),
    (75, 105, 65),
    (160, 30, 35),
    (215, 145, 125),
    (30, 25, 25),
    (105, 150, 170),
    (210, 120, 55),
    (140, 110, 150),
]


def _rug_motif(kind, x, y, R) -> np.ndarray:
    """Labels (0 none, 1 outer, 2 inner, 3 centre) of a motif of radius R at local x, y."""
    lab = np.zeros(np.shape(x), np.int8)
    r = np.hypot(x, y)
    if kind == 0:  # rosette
        theta = np.arctan2(y, x)
        lab[r < R * (0.55 + 0.45 * np.abs(np.cos(3 * theta)))] = 1
        lab[r < 0.45 * R] = 2
        lab[r < 0.18 * R] = 3
    elif kind == 1:  # stepped diamond
        d = np.abs(x) + np.abs(y)
        lab[d < R] = 1
        lab[d < 0.66 * R] = 2
        lab[d < 0.3 * R] = 3
    elif kind == 2:  # eight-pointed star
        lab[(np.maximum(np.abs(x), np.abs(y)) < 0.62 * R) | (np.abs(x) + np.abs(y) < 0.88 * R)] = 1
        lab[np.abs(x) + np.abs(y) < 0.45 * R] = 2
        lab[r < 0.15 * R] = 3
    elif kind == 3:  # boteh
        t = (y + R) / (2 * R)
        w = R * 0.7 * np.sin(np.pi * np.clip(t, 0, 1) ** 0.7)
        off = 0.6 * R * np.clip(t, 0, 1) ** 3
        inside = (t >= 0) & (t <= 1)
        lab[inside & (np.abs(x - off) < w)] = 1
        lab[inside & (np.abs(x - off) < 0.5 * w)] = 2
        lab[np.hypot(x, y + 0.45 * R) < 0.18 * R] = 3
    else:  # octagonal gul, quartered
        octagon = (np.maximum(np.abs(x), np.abs(y)) < 0.9 * R) & (np.abs(x) + np.abs(y) < 1.25 * R)
        inner = (np.maximum(np.abs(x), np.abs(y)) < 0.6 * R) & (np.abs(x) + np.abs(y) < 0.85 * R)
        lab[octagon] = 1
        lab[inner] = np.where(x[inner] * y[inner] > 0, 2, 3)
    return lab


def _rug(rng, X, Y, texel):
    A = rng.uniform(550, 1500)
    B = A * rng.uniform(0.55, 0.8)
    angle = rng.uniform(0, math.pi) if rng.random() < 0.5 else rng.normal(0, 0.08)
    centre = _frame(angle, (rng.uniform(-0.7, 0.7) * (A - 100), rng.uniform(-0.7, 0.7) * (B - 100)))
    u, v = _rotated(X - centre[0], Y - centre[1], angle)
    knot = rng.uniform(1.2, 2.8)
    if knot > 1.5 * texel:
        uq, vq = (np.floor(u / knot) + 0.5) * knot, (np.floor(v / knot) + 0.5) * knot
    else:
        uq, vq = u, v
    field = _jitter(rng, _pick(rng, RUG_FIELDS), 0.06)
    pool = [rgb(*c) for c in RUG_ACCENTS if np.abs(rgb(*c) - field).sum() > 0.35]
    acc = [_jitter(rng, pool[i], 0.06) for i in rng.choice(len(pool), 4, replace=False)]
    colours = np.array([field, acc[0], acc[1], acc[2]], np.float32)
    out = _fill(X, Y, field)
    guard, border = rng.uniform(8, 24), min(B * 0.3, rng.uniform(70, 220))
    inner = 2 * guard + border
    # the field: a lattice of motifs, a trellis, or a medallion over sparse motifs
    style = rng.integers(3)
    period = _log_uniform(rng, 35, 150) * (1.6 if style == 2 else 1)
    row = np.floor(vq / period)
    x = (uq + (row % 2) * period / 2) % period - period / 2
    y = vq % period - period / 2
    if style == 1:
        s = period / math.sqrt(2)
        a, b = (uq + vq) / math.sqrt(2), (vq - uq) / math.sqrt(2)
        xa, yb = a % s - s / 2, b % s - s / 2  # a diamond's own frame, turned back square
        x, y = (xa - yb) / math.sqrt(2), (xa + yb) / math.sqrt(2)
        trellis = np.minimum(np.abs(a % s - s / 2), np.abs(b % s - s / 2)) > s / 2 - max(knot, period * 0.04)
    lab = _rug_motif(int(rng.integers(5)), x, y, period * rng.uniform(0.3, 0.42))
    shift = (row.astype(np.int64) % 2) * int(rng.integers(0, 2))
    out = np.where((lab > 0)[..., None], colours[(lab + shift) % 4], out)
    if style != 1:  # small fillers between the motifs
        fx = (uq + ((row + 1) % 2) * period / 2) % period - period / 2
        fy = (vq + period / 2) % period - period / 2
        filler = _rug_motif(int(rng.integers(5)), fx, fy, period * rng.uniform(0.1, 0.18))
        out = np.where(
            (filler > 0)[..., None], np.array([field, acc[3], acc[0], acc[1]], np.float32)[filler], out
        )
    if style == 1:
        _mix(out, acc[3], trellis)
    if style == 2:
        rx, ry = (A - inner) * rng.uniform(0.35, 0.5), (B - inner) * rng.uniform(0.45, 0.6)
        rm = np.hypot(uq / rx, vq / ry)
        lobed = rm * (1 + 0.1 * np.cos(int(rng.integers(6, 13)) * np.arctan2(vq / ry, uq / rx)))
        rings = np.floor(lobed * rng.integers(3, 7)).astype(np.int64)
        med = np.array([acc[1], acc[0], field * 0.8, acc[2], acc[3]], np.float32)
        out = np.where((lobed < 1)[..., None], med[rings % 5], out)
        cu, cv = np.abs(uq) - (A - inner), np.abs(vq) - (B - inner)
        corner = np.hypot(cu / (0.35 * rx), cv / (0.35 * ry))
        out = np.where((corner < 1)[..., None], med[np.floor(corner * 3).astype(np.int64) % 5], out)
    # borders: guard stripe, main border with motifs and a vine, guard stripe
    du, dv = A - np.abs(uq), B - np.abs(vq)
    e = np.minimum(du, dv)
    t = np.where(du < dv, vq, uq)
    main = (e > guard) & (e < guard + border)
    guards = (e > 0) & ~main & (e < inner)
    ground = acc[0] if rng.random() < 0.5 else field * 0.7
    out = np.where(main[..., None], ground, out)
    s = e - guard - border / 2
    pb = border * rng.uniform(0.9, 1.6)
    blab = _rug_motif(int(rng.integers(5)), t % pb - pb / 2, s, border * 0.36)
    bcol = np.array([ground, acc[1], acc[2], acc[3]], np.float32)
    out = np.where((main & (blab > 0))[..., None], bcol[blab], out)
    vine = (
        main
        & (np.abs(s - 0.3 * border * np.sin(2 * np.pi * t / pb)) < max(knot, border * 0.03))
        & (blab == 0)
    )
    _mix(out, acc[2], vine)
    gs = np.where(e < guard, e, e - guard - border) - guard / 2
    zig = np.abs(gs - 0.3 * guard * (2 * np.abs((t / guard) % 2 - 1) - 1)) < max(knot, guard * 0.18)
    out = np.where(guards[..., None], np.where(zig[..., None], acc[3], acc[1] * 0.85), out)
    step = max(1, int(round(knot / texel)))  # a knot-wide dark outline round every shape
    change = np.zeros(out.shape[:2], bool)
    change[:-step] |= np.abs(out[:-step] - out[step:]).sum(-1) > 0.12
    change[:, :-step] |= np.abs(out[:, :-step] - out[:, step:]).sum(-1) > 0.12
    if rng.random() < 0.75:
        _mix(out, _jitter(rng, rgb(45, 32, 30), 0.1), change * rng.uniform(0.5, 0.85) * (e > 0))
    # pile: per knot tone, bands of the weaving (abrash), wear
    pile = 1 + 0.04 * _lattice(rng, uq, vq, knot * 1.1, knot * 1.1) if knot > 1.5 * texel else 1.0
    abrash = 1 + rng.uniform(0.02, 0.08) * _lattice(rng, u, v, 40, 3000)
    out *= (pile * abrash)[..., None]
    warp = _jitter(rng, rgb(228, 218, 192), 0.04)
    wear = np.clip((_smooth_fbm(rng, u, v, 100.0, texel, 4) - rng.uniform(1.2, 2.5)) * 0.3, 0, 0.12)
    _mix(out, warp, wear)
    if 0.35 / texel > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), 0.35 / texel)
    # fringe at the short ends, and the table beyond
    fringe = rng.uniform(30, 90) * (1 + 0.06 * _lattice(rng, u, v, 200, 5))
    threads = ((np.abs(u) - A < fringe) & (np.abs(v) < B - 5)).astype(np.float32)
    threads *= (0.5 + 0.5 * np.cos(2 * np.pi * v / rng.uniform(3, 5))) ** 0.5 if 4 > 2 * texel else 0.7
    under = _plain(rng, X, Y, texel)
    _mix(under, warp * (1 + 0.08 * _lattice(rng, u, v, 60, 2))[..., None], threads)
    on = _edge(np.minimum(A - np.abs(u), B - np.abs(v)), texel)
    under *= (1 - 0.3 * np.exp(-np.maximum(-np.minimum(A - np.abs(u), B - np.abs(v)), 0) / 4))[..., None]
    return under + (out - under) * on[..., None]


# --- cork -----------------------------------------------------------------------------------

CORKS = [(198, 152, 102), (182, 132, 86), (212, 172, 122), (152, 106, 66), (122, 86, 56), (190, 160, 125)]


def _cork(rng, X, Y, texel):
    base = _jitter(rng, _pick(rng, CORKS), 0.06)
    grain = _log_uniform(rng, 0.8, 4.5)
    tone = np.ones(_shape(X, Y), np.float32)
    if grain > 1.5 * texel:
        n = _lattice(rng, X, Y, grain, grain)
        if grain * 0.5 > 1.5 * texel:
            n = n + 0.5 * _lattice(rng, X, Y, grain * 0.5, grain * 0.5)
        tone = 1 + rng.uniform(0.06, 0.12) * np.clip(np.round(n * 1.3), -2, 2)  # chips of a few shades
        if grain * 0.7 > 1.5 * texel:
            tone = np.where(_lattice(rng, X, Y, grain * 0.7, grain * 0.7) > 2.1, 0.55, tone)  # dark pores
    else:
        tone = tone + 0.04 * _lattice(rng, X, Y, 2 * texel, 2 * texel)
    tone = tone * (1 + 0.05 * _fbm(rng, X, Y, 200.0, texel, 3))
    out = base * tone[..., None]
    if rng.random() < 0.4:  # cork tiles, each its own shade
        size = rng.choice([150.0, 300.0, 305.0])
        u, v = _rotated(X, Y, rng.uniform(0, math.pi))
        i, j = np.floor(u / size), np.floor(v / size)
        out *= rng.normal(1, 0.07, 997).astype(np.float32)[_hash(i, j) % 997][..., None]
        seam = np.minimum(np.abs(u - np.round(u / size) * size), np.abs(v - np.round(v / size) * size))
        out *= (1 - 0.4 * _edge(0.4 - seam, texel))[..., None]
    _rings(rng, X, Y, texel, out, int(rng.integers(0, 4)), rgb(90, 55, 30))
    if rng.random() < 0.5:  # pin holes
        holes = _lattice(rng, X, Y, max(1.0, 1.5 * texel), max(1.0, 1.5 * texel)) > 3.2
        out *= np.where(holes, 0.5, 1.0).astype(np.float32)[..., None]
    return out


# --- baize: a felt card table with a printed layout -----------------------------------------

FELTS = [
    (32, 102, 62),
    (22, 78, 48),
    (36, 66, 122),
    (128, 26, 36),
    (92, 22, 42),
    (72, 72, 76),
    (62, 32, 92),
    (26, 26, 28),
    (22, 96, 96),
]
INKS = [(226, 190, 92), (242, 240, 230), (240, 214, 92), (210, 210, 200)]
RED_NUMBERS = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def _suit(pen, mask, kind, cx, cy, size) -> None:
    t = np.linspace(0, 2 * np.pi, 60)
    heart = np.stack(
        [16 * np.sin(t) ** 3, 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)], 1
    )
    heart = heart / 34 * size
    if kind == 0:
        pen.fill(mask, [heart + (cx, cy)])
    elif kind == 1:
        pen.fill(
            mask,
            [
                np.array(
                    [[cx, cy + size / 2], [cx + size * 0.35, cy], [cx, cy - size / 2], [cx - size * 0.35, cy]]
                )
            ],
        )
    elif kind == 2:
        pen.fill(mask, [heart * (1, -1) + (cx, cy + size * 0.1)])
        pen.fill(
            mask,
            [
                np.array(
                    [
                        [cx, cy - 0.1 * size],
                        [cx + 0.18 * size, cy - 0.5 * size],
                        [cx - 0.18 * size, cy - 0.5 * size],
                    ]
                )
            ],
        )
    else:
        for dx, dy in ((0, 0.2), (-0.22, -0.08), (0.22, -0.08)):
            pen.circle(mask, (cx + dx * size, cy + dy * size), 0.2 * size)
        pen.fill(
            mask,
            [np.array([[cx, cy], [cx + 0.16 * size, cy - 0.5 * size], [cx - 0.16 * size, cy - 0.5 * size]])],
        )


def _arc_text(pen, mask, text, cx, cy, radius, height, mid=1.5 * math.pi) -> None:
    """Text along the lower part of a circle, letters upright towards its centre."""
    step = height * 0.95 / radius
    for i, ch in enumerate(text):
        a = mid + (i - (len(text) - 1) / 2) * step
        pen.text(mask, ch, (cx + radius * math.cos(a), cy + radius * math.sin(a)), height, a - 1.5 * math.pi)


def _baize(rng, X, Y, texel):
    felt = _jitter(rng, _pick(rng, FELTS), 0.08)
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.6 else rng.normal(0, 0.05)
    u, v = _rotated(X, Y, angle)
    fuzz = 0.05 * _fbm(rng, X, Y, 1.0, texel, 2) + 0.03 * _fbm(rng, X, Y, 60.0, texel, 3)
    fuzz += 0.012 * _fbm(rng, u, v, 4.0, texel, 2, stretch=6)  # brushed one way
    out = felt * (1 + fuzz)[..., None]
    ink = _jitter(rng, _pick(rng, INKS), 0.04)
    layout = rng.choice(4, p=(0.3, 0.25, 0.25, 0.2))
    line = rng.uniform(1.5, 5)
    if layout == 0:  # blackjack
        rc = rng.uniform(700, 950)
        at = (rng.uniform(-400, 400), rc - rng.uniform(250, 760))
    elif layout == 1:  # poker
        lr, rr = rng.uniform(450, 900), rng.uniform(250, 450)
        at = (rng.uniform(-lr, lr), rng.uniform(-rr, rr))
    elif layout == 2:  # roulette
        cw = rng.uniform(45, 68)
        ch = cw * rng.uniform(1.1, 1.45)
        at = (rng.uniform(-6.5, 6.5) * cw, rng.uniform(-2.8, 1.6) * ch)
    else:  # a card table's border and suits
        hw, hh = rng.uniform(350, 700), rng.uniform(280, 500)
        at = (rng.uniform(-hw, hw), rng.uniform(-hh, hh))
    pen = _Pen(X, Y, texel, angle, _frame(angle, at))
    m = pen.mask()
    red, black = pen.mask(), pen.mask()
    if layout == 0:
        r = rc - rng.uniform(80, 140)
        band = rng.uniform(45, 75)
        tt = np.linspace(3.5, 5.93, 200)
        arc = np.stack([np.cos(tt), np.sin(tt)], 1)
        pen.lines(m, [arc * r + (0, rc), arc * (r - band) + (0, rc)], line)
        _arc_text(pen, m, "INSURANCE PAYS 2 TO 1", 0, rc, r - band / 2 - band * 0.18, band * 0.36)
        _arc_text(pen, m, "BLACKJACK PAYS 3 TO 2", 0, rc, r - band - 55, rng.uniform(22, 34))
        _arc_text(
            pen, m, "DEALER MUST DRAW TO 16 AND STAND ON ALL 17S", 0, rc, r - band - 95, rng.uniform(12, 18)
        )
        spots, rs = int(rng.integers(5, 8)), rc - rng.uniform(560, 700)
        size = rng.uniform(32, 48)
        for a in np.linspace(3.75, 5.67, spots):
            p = (rs * math.cos(a), rc + rs * math.sin(a))
            if rng.random() < 0.5:
                pen.circle(m, p, size, width=line)
            else:
                pen.lines(m, [_rect(*p, size * 0.8, size, a - 1.5 * math.pi)], line, closed=True)
    elif layout == 1:
        t = np.linspace(-np.pi / 2, np.pi / 2, 60)
        track = np.concatenate(
            [
                np.stack([lr + rr * np.cos(t), rr * np.sin(t)], 1),
                np.stack([-lr - rr * np.cos(t), -rr * np.sin(t)], 1),
            ]
        )
        pen.lines(m, [track], line, closed=True)
        if rng.random() < 0.5:
            pen.lines(m, [track * ((lr + rr - 12) / (lr + rr), (rr - 12) / rr)], line * 0.6, closed=True)
        cw = rng.uniform(55, 70)
        for k in range(5):
            pen.lines(m, [_rect((k - 2) * cw * 1.15, -rr * 0.15, cw / 2, cw * 0.7)], line * 0.6, closed=True)
        words = ["TEXAS HOLD'EM", "POKER", "CASINO", "ROYAL CLUB", "NO LIMIT"]
        pen.text(m, words[rng.integers(len(words))], (0, rr * 0.45), rng.uniform(30, 70), weight=0.15)
    elif layout == 2:
        grid = []
        for c in range(13):
            grid.append(np.array([[(c - 6) * cw, -1.5 * ch], [(c - 6) * cw, 1.5 * ch]]))
        for r in range(4):
            grid.append(np.array([[-6 * cw, (r - 1.5) * ch], [7 * cw, (r - 1.5) * ch]]))
        grid.append(np.array([[-6 * cw, 1.5 * ch], [-7.2 * cw, 0], [-6 * cw, -1.5 * ch]]))  # the zero
        for r, q in ((0, -1.5 * ch - 0.8 * cw), (1, -1.5 * ch - 1.6 * cw)):
            grid.append(np.array([[-6 * cw, q], [6 * cw, q]]))
            step = 4 if r == 0 else 2
            for c in range(0, 13, step):
                grid.append(np.array([[(c - 6) * cw, q], [(c - 6) * cw, q + 0.8 * cw]]))
        pen.lines(m, grid, line)
        th = min(cw, ch) * rng.uniform(0.3, 0.42)
        ovals = rng.random() < 0.5
        for c in range(12):
            for r in range(3):
                num = 3 * c + 3 - r
                p = ((c - 5.5) * cw, (1 - r) * ch)
                which = red if num in RED_NUMBERS else black
                if ovals:
                    pen.circle(which, p, th * 0.95)
                    pen.text(m, str(num), p, th, 0.5 * math.pi, weight=0.14)
                else:
                    pen.text(which, str(num), p, th, 0.5 * math.pi, weight=0.14)
        pen.text(m, "0", (-6.6 * cw, 0), th, 0.5 * math.pi, weight=0.14)
        for c, word in enumerate(["1st 12", "2nd 12", "3rd 12"]):
            pen.text(m, word, ((c * 4 - 4) * cw, -1.5 * ch - 0.4 * cw), cw * 0.28)
        for c, word in enumerate(["1-18", "EVEN", "", "", "ODD", "19-36"]):
            pen.text(m, word, ((c * 2 - 5) * cw, -1.5 * ch - 1.2 * cw), cw * 0.26)
        for c, which in ((-1, red), (1, black)):
            q = -1.5 * ch - 1.2 * cw
            pen.fill(
                which,
                [
                    np.array(
                        [
                            [c * cw - 0.6 * cw, q],
                            [c * cw, q + 0.3 * cw],
                            [c * cw + 0.6 * cw, q],
                            [c * cw, q - 0.3 * cw],
                        ]
                    )
                ],
            )
    else:
        path = _rounded_rect(hw, hh, rng.uniform(20, 200))
        pen.lines(m, [path], line, closed=True)
        if rng.random() < 0.6:
            gap = rng.uniform(6, 16)
            pen.lines(m, [_rounded_rect(hw - gap, hh - gap, 100)], line * 0.5, closed=True)
        size = rng.uniform(30, 70)
        for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
            _suit(
                pen,
                red if k in (0, 1) and rng.random() < 0.7 else m,
                k,
                sx * (hw - 2 * size),
                sy * (hh - 2 * size),
                size,
            )
    strength = rng.uniform(0.7, 0.95)
    for mask, colour in ((red, rgb(190, 30, 35)), (black, rgb(25, 25, 28)), (m, ink)):
        if 0.3 / texel > 0.3:
            mask = cv2.GaussianBlur(mask, (0, 0), 0.3 / texel)  # ink soaks into the felt
        _ink(out, mask, colour, strength)
    return out


# --- concrete and slate ------------------------------------------------------------------------


def _concrete(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    if rng.random() < 0.65:  # cast or polished concrete
        grey = rng.uniform(105, 205)
        base = np.clip(rgb(grey, grey * rng.uniform(0.98, 1.01), grey * rng.uniform(0.94, 1.01)), 0, 1)
        tone = (
            1
            + rng.uniform(0.04, 0.1) * _fbm(rng, X, Y, rng.uniform(150, 500), texel, 4)
            + 0.04 * _fbm(rng, u, v, rng.uniform(20, 60), texel, 3, stretch=rng.uniform(1, 4))
            + 0.03 * _fbm(rng, X, Y, 1.0, texel, 2)
        )
        out = base * tone[..., None]
        if texel < 0.8:  # pin holes in the surface
            pits = _lattice(rng, X, Y, 1.5, 1.5) > rng.uniform(2.3, 2.9)
            out *= np.where(pits, 0.6, 1.0).astype(np.float32)[..., None]
        bugs = _lattice(rng, X, Y, 5.0, 5.0) > rng.uniform(3.0, 3.6)  # air bubbles
        out *= np.where(bugs, 0.55, 1.0).astype(np.float32)[..., None]
        wet = np.clip(_smooth_fbm(rng, X, Y, rng.uniform(40, 160), texel, 5) - rng.uniform(0.8, 2.0), 0, 0.5)
        out *= (1 - rng.uniform(0.1, 0.35) * wet)[..., None]  # oil and water stains soaked in
    else:  # slate: dark cleft stone
        base = _jitter(
            rng, _pick(rng, [(62, 66, 72), (52, 58, 54), (72, 62, 68), (46, 50, 58), (86, 86, 80)]), 0.08
        )
        cleft = _fbm(rng, u, v, rng.uniform(20, 60), texel, 4, stretch=rng.uniform(3, 8))
        steps = np.floor(cleft * rng.uniform(2, 4)) / 3
        tone = 1 + 0.08 * steps + 0.04 * _fbm(rng, X, Y, 2.0, texel, 2)
        out = base * tone[..., None]
        rust = np.clip(_smooth_fbm(rng, X, Y, 80.0, texel, 4) - rng.uniform(1.8, 3), 0, 0.3)
        _mix(out, rgb(125, 98, 72), rust)
        if rng.random() < 0.5:  # slate tiles
            size = rng.uniform(250, 600)
            i, j = np.floor(u / size), np.floor(v / size)
            out *= rng.normal(1, 0.06, 997).astype(np.float32)[_hash(i, j) % 997][..., None]
            seam = np.minimum(np.abs(u - np.round(u / size) * size), np.abs(v - np.round(v / size) * size))
            out *= (1 - 0.5 * _edge(rng.uniform(1, 4) - seam, texel))[..., None]
    pen = _Pen(X, Y, texel)
    cracks = pen.mask()
    for _ in range(int(rng.integers(0, 4))):
        start = rng.uniform(-500, 500, 2)
        path = _walk(rng, start, int(rng.integers(15, 60)), rng.uniform(3, 8), 0.05)
        pen.lines(cracks, [path + rng.normal(0, 0.8, path.shape)], rng.uniform(0.15, 0.6))
    _ink(out, cracks, rgb(30, 30, 30), rng.uniform(0.4, 0.8))
    _rings(rng, X, Y, texel, out, int(rng.integers(0, 4)), rgb(70, 50, 35), strength=(0.1, 0.35))
    return out


# --- wicker: basket weave, cane webbing, seagrass --------------------------------------------

WICKER = [
    (205, 165, 105),
    (186, 140, 86),
    (150, 105, 60),
    (112, 76, 46),
    (226, 216, 196),
    (236, 233, 226),
    (62, 52, 46),
    (32, 32, 32),
]


def _wicker(rng, X, Y, texel):
    colour = _jitter(rng, _pick(rng, WICKER), 0.06)
    hole = _jitter(rng, rgb(28, 22, 18), 0.2)
    angle = rng.uniform(0, math.pi) if rng.random() < 0.5 else rng.normal(0, 0.05)
    u, v = _rotated(X, Y, angle)
    style = rng.choice(3, p=(0.4, 0.35, 0.25))
    if style == 1:  # cane webbing: pairs of strands both ways, diagonals, octagonal holes
        period = rng.uniform(9, 18)
        strand = period * rng.uniform(0.1, 0.16)
        sep = strand * rng.uniform(1.0, 1.3)
        out = _fill(X, Y, hole) * (1 + 0.1 * _fbm(rng, X, Y, 40.0, texel, 2))[..., None]

        def band(w, centre):
            d = np.abs((w - centre) / period - np.round((w - centre) / period)) * period
            return _edge(strand / 2 - d, texel), np.clip(1 - (d / (strand / 2)) ** 2, 0, 1)

        layers = []
        for w in (v, u):  # horizontal pairs under vertical pairs
            for off in (-sep / 2, sep / 2):
                layers.append(band(w, off))
        for w in ((u + v) / math.sqrt(2), (u - v) / math.sqrt(2)):
            d = (
                np.abs(w / (period / math.sqrt(2)) - np.round(w / (period / math.sqrt(2))) - 0.5)
                * period
                / math.sqrt(2)
            )
            layers.append((_edge(strand * 0.45 - d, texel), np.clip(1 - (d / (strand * 0.45)) ** 2, 0, 1)))
        streaks = 1 + 0.06 * _fbm(rng, u + v, u - v, 3.0, texel, 2, stretch=10)
        for alpha, profile in layers:
            shade = (0.72 + 0.35 * profile) * streaks
            _mix(out, colour * shade[..., None], alpha)
        return out
    width = _log_uniform(rng, 5, 25) if style == 0 else rng.uniform(7, 16)
    gap = width * rng.uniform(0.04, 0.22)
    over = int(rng.integers(1, 3))
    i, j = np.floor(u / width), np.floor(v / width)
    fu, fv = u / width - i, v / width - j
    half_gap = gap / 2 / width
    vert = _edge((0.5 - half_gap - np.abs(fu - 0.5)) * width, texel)  # strand along v, column i
    horiz = _edge((0.5 - half_gap - np.abs(fv - 0.5)) * width, texel)
    v_on_top = ((i + j) % (2 * over)) < over
    tone_v = rng.normal(1, 0.06, 997).astype(np.float32)[_hash(i, 0) % 997]
    tone_h = rng.normal(1, 0.06, 997).astype(np.float32)[_hash(j, 1) % 997]
    power = 0.5 if style == 0 else 1.2  # flat strips or round cords
    prof_v = np.clip(np.sin(np.pi * fu), 0, 1) ** power
    prof_h = np.clip(np.sin(np.pi * fv), 0, 1) ** power
    along_v = 0.85 + 0.15 * np.sin(np.pi * ((j + v_on_top) % 2 + fv) / 2) ** 2  # rising over, dipping under
    along_h = 0.85 + 0.15 * np.sin(np.pi * ((i + ~v_on_top) % 2 + fu) / 2) ** 2
    fib_v = 1 + 0.08 * _fbm(rng, v, u, 2.0, texel, 2, stretch=15)
    fib_h = 1 + 0.08 * _fbm(rng, u, v, 2.0, texel, 2, stretch=15)
    if style == 2:  # twisted cords: diagonal ridges
        pitch = width * rng.uniform(0.5, 0.9)
        if pitch > 3 * texel:
            fib_v = fib_v * (0.85 + 0.15 * np.cos(2 * np.pi * (v + fu * width) / pitch))
            fib_h = fib_h * (0.85 + 0.15 * np.cos(2 * np.pi * (u + fv * width) / pitch))
    shade_v = (0.6 + 0.45 * prof_v) * along_v * tone_v * fib_v
    shade_h = (0.6 + 0.45 * prof_h) * along_h * tone_h * fib_h
    out = _fill(X, Y, hole)
    under_v, under_h = vert * ~v_on_top, horiz * v_on_top
    _mix(out, colour * (0.75 * shade_v)[..., None], under_v)
    _mix(out, colour * (0.75 * shade_h)[..., None], under_h)
    _mix(out, colour * shade_v[..., None], vert * v_on_top)
    _mix(out, colour * shade_h[..., None], horiz * ~v_on_top)
    return out


# --- hexagonal tiles ------------------------------------------------------------------------

HEX_GLAZES = [
    (240, 238, 232),
    (30, 30, 32),
    (150, 150, 150),
    (185, 95, 62),
    (60, 110, 100),
    (38, 55, 100),
    (215, 170, 60),
    (225, 165, 160),
    (150, 170, 140),
    (232, 222, 200),
    (100, 150, 190),
]


def _hex_tiles(rng, X, Y, texel):
    size = _log_uniform(rng, 18, 220)  # across the flats
    grout = float(np.clip(rng.uniform(1, 4) * (size / 60) ** 0.3, 1, 6))
    u, v = _rotated(X, Y, rng.uniform(0, math.pi / 3))
    R = size / math.sqrt(3)
    q = (2 / 3) * u / R
    r = (-u / 3 + math.sqrt(3) / 3 * v) / R
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    lx = u - R * 1.5 * rq
    ly = v - R * math.sqrt(3) * (rr + rq / 2)
    c30 = math.sqrt(3) / 2
    edge = size / 2 - np.maximum(np.abs(ly), np.maximum(np.abs(c30 * lx + ly / 2), np.abs(c30 * lx - ly / 2)))
    ident = _hash(rq, rr) % 997
    n = int(rng.integers(1, 5))
    glazes = np.array([_jitter(rng, _pick(rng, HEX_GLAZES), 0.05) for _ in range(n)], np.float32)
    scheme = rng.choice(3, p=(0.5, 0.3, 0.2))
    if scheme == 0:  # a random mix
        which = rng.integers(0, n, 997)[ident] if n > 1 else np.zeros(ident.shape, np.int64)
    elif scheme == 1:  # rosettes: one colour ringed by another
        which = (((rq.astype(np.int64) - rr.astype(np.int64)) % 3) == 0).astype(np.int64) % n
    else:  # the three-colour tiling
        which = (rq.astype(np.int64) - rr.astype(np.int64)) % 3 % n
    tone = rng.normal(1, rng.uniform(0.02, 0.08), 997).astype(np.float32)[ident]
    out = glazes[which] * tone[..., None]
    out *= (1 + rng.uniform(0.01, 0.05) * _fbm(rng, X, Y, size * 0.4, texel, 3))[..., None]
    out *= (1 - 0.12 * np.exp(-np.maximum(edge - grout / 2, 0) / max(1.0, size * 0.02)))[..., None]
    mortar = _jitter(
        rng, _pick(rng, [(210, 208, 200), (240, 238, 232), (90, 90, 92), (170, 150, 120), (40, 40, 40)]), 0.05
    )
    joint = _edge(grout / 2 - edge, texel)
    _mix(out, mortar * (1 + 0.08 * _fbm(rng, X, Y, 4.0, texel, 2))[..., None], joint)
    return out


# --- a printed map spread on the table ---------------------------------------------------------

SYLLABLES = (
    "ar ber ca den el for gan hol in kel lin mor nes or pen ros sal ton ul ven wick ham ford ley by".split()
)


def _name(rng) -> str:
    return "".join(rng.choice(SYLLABLES, int(rng.integers(2, 4)))).capitalize()


def _map(rng, X, Y, texel):
    W, H = rng.uniform(500, 1000), rng.uniform(400, 800)
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.6 else rng.normal(0, 0.1)
    at = (rng.uniform(-0.45, 0.45) * W, rng.uniform(-0.45, 0.45) * H)
    centre = _frame(angle, at)
    u, v = _rotated(X - centre[0], Y - centre[1], angle)
    style = rng.choice(4, p=(0.35, 0.25, 0.2, 0.2))  # road, topographic, sea chart, antique
    scale = rng.uniform(150, 600)
    elev = _smooth_fbm(rng, u, v, scale, texel, 6) + rng.uniform(-0.9, 0.9)
    gy, gx = np.gradient(elev)
    grad = np.hypot(gx, gy) / texel + 1e-6
    land = _edge(elev / grad, texel)

    def isolines(step, width):
        d = np.abs(elev / step - np.round(elev / step)) * step / grad
        return _edge(width / 2 - d, texel)

    paper = _jitter(
        rng, rgb(*[(246, 244, 236), (240, 236, 222), (238, 236, 230), (226, 206, 162)][style]), 0.03
    )
    if style == 0:
        water, ground = rgb(172, 208, 234), rgb(242, 238, 222)
        out = water + (ground - water) * land[..., None]
        _mix(
            out, rgb(200, 225, 180), np.clip((_smooth_fbm(rng, u, v, 60.0, texel, 3) - 1.2) * 3, 0, 1) * land
        )
    elif style == 1:
        ramp = np.array(
            [
                rgb(175, 205, 160),
                rgb(215, 225, 170),
                rgb(230, 210, 160),
                rgb(205, 170, 130),
                rgb(240, 240, 240),
            ]
        )
        band = np.clip(np.floor(elev / 0.35), 0, 4).astype(np.int64)
        out = np.where((land > 0.5)[..., None], ramp[band], rgb(170, 205, 230))
        _mix(out, rgb(150, 100, 60), 0.7 * isolines(0.07, rng.uniform(0.15, 0.35)) * land)
    elif style == 2:
        out = np.where((land > 0.5)[..., None], rgb(235, 215, 150), rgb(238, 242, 244))
        out = out + (rgb(190, 215, 235) - out) * ((elev > -0.25) & (land < 0.5))[..., None]
        _mix(out, rgb(90, 120, 160), 0.6 * isolines(0.25, 0.25) * (1 - land))
    else:
        out = paper * (1 - 0.06 * land)[..., None]
        for k in range(1, 6):  # engraved water-lines along the coast
            d = np.abs(elev + 0.03 * k) / grad
            _mix(out, rgb(90, 70, 50), 0.5 * _edge(0.15 - d, texel) * (1 - land))
    coast = _edge(rng.uniform(0.15, 0.35) - np.abs(elev) / grad, texel)
    _mix(out, rgb(40, 60, 90) if style != 3 else rgb(70, 50, 35), 0.9 * coast)
    pen = _Pen(X, Y, texel, angle, centre)
    blue, casing, road, black = pen.mask(), pen.mask(), pen.mask(), pen.mask()
    graticule = rng.uniform(60, 160)
    grid = [np.array([[p, -H / 2], [p, H / 2]]) for p in np.arange(-W / 2, W / 2, graticule)[1:]]
    grid += [np.array([[-W / 2, q], [W / 2, q]]) for q in np.arange(-H / 2, H / 2, graticule)[1:]]
    pen.lines(blue, grid, 0.2, 0.7)
    lo, hi = (-W / 2 + 15, -H / 2 + 15), (W / 2 - 15, H / 2 - 15)
    towns = rng.uniform(lo, hi, (int(rng.integers(8, 40)), 2))
    if style in (0, 1, 3):
        for _ in range(int(rng.integers(2, 8))):  # rivers
            pen.lines(
                blue, [_walk(rng, rng.uniform(lo, hi), 40, rng.uniform(5, 12), 0.15)], rng.uniform(0.3, 1.2)
            )
        major, minor = [], []
        for k, a in enumerate(towns):  # each town to its nearest one or two, winding
            near = np.argsort(np.linalg.norm(towns - a, axis=1))[1 : int(rng.integers(2, 4))]
            for b in towns[near]:
                n = int(np.linalg.norm(b - a) / 4) + 3
                t = np.linspace(0, 1, n)[:, None]
                side = np.array([-(b - a)[1], (b - a)[0]]) / (np.linalg.norm(b - a) + 1e-6)
                bend = np.sin(np.pi * t) * rng.normal(0, 0.15) * np.linalg.norm(b - a)
                wobble = np.cumsum(rng.normal(0, 0.8, (n, 2)), 0) * np.sin(np.pi * t)
                (major if k % 3 == 0 else minor).append(a + (b - a) * t + bend * side + wobble)
        width = rng.uniform(0.6, 1.8)
        pen.lines(casing, major, width + 0.5)
        pen.lines(road, major, width)
        pen.lines(casing, minor, width * 0.5 + 0.3)
        pen.lines(road, minor, width * 0.5, 0.8)
        dry = (land > 0.5).astype(np.uint8)  # roads stop at the shore
        casing *= dry
        road *= dry
    for p in towns:
        pen.circle(black, p, rng.uniform(0.8, 2.2))
        pen.text(black, _name(rng), p + (0, rng.uniform(3, 6)), rng.uniform(1.6, 4.5), weight=0.1)
    for _ in range(int(rng.integers(1, 4))):  # big spaced region and sea names
        word = " ".join(_name(rng).upper())
        pen.text(
            blue if rng.random() < 0.5 else black,
            word,
            rng.uniform(lo, hi),
            rng.uniform(5, 12),
            rng.normal(0, 0.3),
            font=cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC,
        )
    pen.lines(
        black, [_rect(0, 0, W / 2 - 10, H / 2 - 10), _rect(0, 0, W / 2 - 14, H / 2 - 14)], 0.4, closed=True
    )
    bar = [
        np.array([[-W / 2 + 30 + 10 * k, -H / 2 + 25], [-W / 2 + 38 + 10 * k, -H / 2 + 25]])
        for k in range(0, 8, 2)
    ]
    pen.lines(black, bar, 1.5)
    if style == 2:
        for _ in range(int(rng.integers(40, 150))):  # soundings
            pen.text(
                black, str(int(rng.integers(2, 90))), rng.uniform(lo, hi), rng.uniform(1.5, 2.5), weight=0.08
            )
    _ink(out, blue, rgb(60, 110, 170) if style != 3 else rgb(90, 70, 50), 0.85)
    _ink(out, casing, rgb(80, 80, 80), 0.9)
    _ink(
        out,
        road,
        _pick(rng, [(220, 50, 40), (245, 200, 60), (250, 250, 245), (235, 130, 40)])
        if style != 3
        else rgb(120, 60, 40),
        1.0,
    )
    _ink(out, black, rgb(25, 25, 28) if style != 3 else rgb(60, 40, 30), 0.9)
    if style == 3:  # an old map: stained and browned towards the edges
        _mix(
            out,
            rgb(170, 130, 80),
            np.clip(
                0.15 * _smooth_fbm(rng, u, v, 80.0, texel, 3)
                + 0.25 * np.maximum(np.abs(u) / W, np.abs(v) / H) * 2
                - 0.3,
                0,
                0.4,
            ),
        )
    outside = (np.abs(u) > W / 2 - 8) | (np.abs(v) > H / 2 - 8)
    out = np.where(outside[..., None], paper, out)
    nx, ny = int(rng.integers(2, 7)), int(rng.integers(2, 5))
    crease = np.ones(u.shape, np.float32)
    for k in range(1, nx):
        d = (u - (-W / 2 + W * k / nx)) / 3.0
        crease += rng.choice([-1, 1]) * 0.12 * d * np.exp(-d * d)
    for k in range(1, ny):
        d = (v - (-H / 2 + H * k / ny)) / 3.0
        crease += rng.choice([-1, 1]) * 0.12 * d * np.exp(-d * d)
    panel = rng.normal(1, 0.03, 997).astype(np.float32)[
        _hash(np.floor((u / W + 0.5) * nx), np.floor((v / H + 0.5) * ny)) % 997
    ]
    out *= (crease * panel)[..., None]
    under = _plain(rng, X, Y, texel)
    d_out = np.maximum(np.abs(u) - W / 2, np.abs(v) - H / 2)
    under *= (1 - 0.25 * np.exp(-np.maximum(d_out, 0) / 3))[..., None]
    on = _edge(-d_out, texel)
    return under + (out - under) * on[..., None]


# --- leather: a desk top, a blotter or a mat --------------------------------------------------

LEATHERS = [
    (152, 92, 46),
    (96, 56, 33),
    (70, 41, 28),
    (96, 26, 29),
    (31, 29, 29),
    (36, 62, 46),
    (36, 41, 62),
    (178, 132, 86),
    (120, 110, 100),
]


def _leather(rng, X, Y, texel):
    colour = _jitter(rng, _pick(rng, LEATHERS), 0.07)
    grain = _log_uniform(rng, 0.5, 2.8)
    if grain > 1.5 * texel:
        f1, f2, _ = _cells(rng, X, Y, grain)
        valley = np.clip((f2 - f1) / (0.3 * grain), 0, 1)
        tone = 0.82 + 0.18 * valley**0.5 - 0.06 * (f1 / grain) ** 2
    else:
        tone = 0.95 + 0.02 * _lattice(rng, X, Y, 2 * texel, 2 * texel)
    tone = tone * (1 + rng.uniform(0.02, 0.05) * _fbm(rng, X, Y, 60.0, texel, 3))
    out = colour * tone[..., None]
    _mix(
        out, np.minimum(colour * 1.3, 1), np.clip(_smooth_fbm(rng, X, Y, 120.0, texel, 3) - 1.5, 0, 0.5) * 0.4
    )  # worn
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.normal(0, 0.06)
    hw, hh = rng.uniform(250, 600), rng.uniform(180, 350)
    centre = _frame(angle, (rng.uniform(-0.6, 0.6) * hw, rng.uniform(-0.6, 0.6) * hh))
    pen = _Pen(X, Y, texel, angle, centre)
    scratches = pen.mask()
    for _ in range(int(rng.integers(0, 30))):
        p = rng.uniform((-hw, -hh), (hw, hh))
        a = rng.uniform(0, 2 * np.pi)
        pen.lines(
            scratches,
            [np.array([p, p + rng.uniform(5, 40) * np.array([math.cos(a), math.sin(a)])])],
            0.2,
            0.6,
        )
    _ink(out, scratches, np.minimum(colour * 1.5, 1), 0.5)
    u, v = _rotated(X - centre[0], Y - centre[1], angle)
    if rng.random() < 0.5:  # a leather-topped desk: tooled border, a lacquered surround
        tool = pen.mask()
        inset = rng.uniform(8, 20)
        pen.lines(tool, [_rect(0, 0, hw - inset, hh - inset)], rng.uniform(0.8, 2), closed=True)
        if rng.random() < 0.7:
            step = rng.uniform(6, 14)
            dots = [
                np.array([[x, y]])
                for x in np.arange(-hw + inset + 8, hw - inset - 8, step)
                for y in (-hh + inset + 6, hh - inset - 6)
            ]
            dots += [
                np.array([[x, y]])
                for y in np.arange(-hh + inset + 8, hh - inset - 8, step)
                for x in (-hw + inset + 6, hw - inset - 6)
            ]
            for d in dots:
                pen.lines(
                    tool,
                    [np.array([d[0] + (-2, 0), d[0] + (0, 2), d[0] + (2, 0), d[0] + (0, -2)])],
                    0.8,
                    closed=True,
                )
        gold = rng.random() < 0.6
        worn = np.clip(1.2 + 0.6 * _lattice(rng, X, Y, 30, 30), 0, 1) if gold else 1.0
        _mix(out, rgb(200, 160, 80) if gold else colour * 0.6, tool.astype(np.float32) / 255 * worn * 0.85)
        surround = _jitter(rng, _pick(rng, [(40, 25, 18), (70, 40, 25), (25, 25, 25), (110, 70, 40)]), 0.08)
        surround = surround * (1 + 0.02 * _fbm(rng, X, Y, 100.0, texel, 2))[..., None]
        inside = _edge(np.minimum(hw - np.abs(u), hh - np.abs(v)), texel)
        return surround + (out - surround) * inside[..., None]
    stitch = pen.mask()  # a desk mat with a stitched edge
    radius = rng.uniform(5, 40)
    inset = rng.uniform(5, 11)
    path = _rounded_rect(hw - inset, hh - inset, max(radius - inset, 1), 24)
    seg = np.linalg.norm(np.diff(np.vstack([path, path[:1]]), axis=0), axis=1)
    length, pitch = float(seg.sum()), rng.uniform(3, 6)
    at = np.concatenate([[0], np.cumsum(seg)])
    closed = np.vstack([path, path[:1]])
    xs = np.interp(np.arange(0, length, pitch / 2), at, closed[:, 0])
    ys = np.interp(np.arange(0, length, pitch / 2), at, closed[:, 1])
    dashes = [
        np.array([[xs[k], ys[k]], [xs[k + 1], ys[k + 1]]]) * 0.97
        + 0.03 * np.array([[xs[k + 1], ys[k + 1]], [xs[k], ys[k]]])
        for k in range(0, len(xs) - 1, 2)
    ]
    pen.lines(stitch, dashes, rng.uniform(0.6, 1.1))
    thread = _jitter(
        rng, _pick(rng, [(235, 225, 200), (220, 120, 40), (190, 150, 90), (30, 30, 30), (150, 30, 30)]), 0.05
    )
    _ink(out, stitch, thread, 0.95)
    d = np.minimum(hw - np.abs(u), hh - np.abs(v))
    corner = np.hypot(np.maximum(np.abs(u) - hw + radius, 0), np.maximum(np.abs(v) - hh + radius, 0))
    d = np.where((np.abs(u) > hw - radius) & (np.abs(v) > hh - radius), radius - corner, d)
    out *= (1 - 0.25 * np.exp(-np.maximum(d, 0) / 1.5))[..., None]  # the cut edge, darker
    under = _plain(rng, X, Y, texel)
    under *= (1 - 0.35 * np.exp(-np.maximum(-d, 0) / 3))[..., None]
    return under + (out - under) * _edge(d, texel)[..., None]


# --- a bamboo slat mat ---------------------------------------------------------------------


def _bamboo(rng, X, Y, texel):
    slat = _log_uniform(rng, 4, 18)
    gap = rng.uniform(0.2, 1.2)
    colour = _jitter(
        rng,
        _pick(
            rng,
            [
                (215, 188, 128),
                (232, 208, 152),
                (162, 112, 62),
                (96, 66, 40),
                (36, 31, 29),
                (182, 176, 112),
                (120, 50, 38),
            ],
        ),
        0.05,
    )
    angle = (
        rng.uniform(0, math.pi) if rng.random() < 0.6 else rng.normal(0, 0.05) + rng.choice([0, math.pi / 2])
    )
    finite = rng.random() < 0.5
    hw, hh = (rng.uniform(150, 230), rng.uniform(150, 230)) if finite else (1e5, 1e5)
    centre = _frame(angle, rng.uniform(-0.5, 0.5, 2) * (min(hw, 400), min(hh, 400)))
    u, v = _rotated(X - centre[0], Y - centre[1], angle)  # slats along u
    k = np.floor(v / slat)
    fv = v / slat - k
    ident = _hash(k) % 997
    tone = rng.normal(1, 0.06, 997).astype(np.float32)[ident]
    out = _fill(X, Y, colour)
    if rng.random() < 0.3:  # two-tone stripes of slats
        second = _jitter(rng, _pick(rng, [(96, 66, 40), (232, 208, 152), (36, 31, 29), (162, 112, 62)]), 0.05)
        period = int(rng.integers(2, 8))
        out = np.where(((k // period) % 2 == 1)[..., None], second, out)
    offset = rng.uniform(0, 2000, 997).astype(np.float32)[ident]
    profile = 0.78 + 0.25 * np.clip(np.sin(np.pi * fv), 0, 1) ** rng.uniform(0.3, 0.8)
    fibres = 1 + 0.07 * _fbm(rng, u + offset, v, 2.0, texel, 2, stretch=30)
    spacing = rng.uniform(150, 350)
    node = np.abs((u + offset) % spacing - spacing / 2)
    nodes = 1 - 0.12 * np.exp(-((node / 1.5) ** 2)) + 0.06 * np.exp(-(((node - 2) / 1.0) ** 2))
    out *= (tone * profile * fibres * nodes)[..., None]
    gaps = _edge(gap / 2 - np.minimum(fv, 1 - fv) * slat, texel)
    out *= (1 - 0.75 * gaps)[..., None]
    thread = _jitter(
        rng, _pick(rng, [(235, 230, 215), (200, 180, 140), (30, 30, 30), (150, 40, 40), (120, 90, 60)]), 0.05
    )
    rows = rng.uniform(40, 160)
    tw = rng.uniform(0.6, 1.5)
    row = np.floor(u / rows + 0.5)
    du = u - row * rows
    for off in (-tw * 0.8, tw * 0.8):
        visible = ((k + row + (off > 0)) % 2 == 0).astype(np.float32)
        _mix(
            out,
            thread * (0.85 + 0.15 * visible)[..., None],
            _edge(tw / 2 - np.abs(du - off), texel) * (0.4 + 0.6 * visible),
        )
    if not finite:
        return out
    d = np.minimum(hw - np.abs(u), hh - np.abs(v))
    if rng.random() < 0.4:  # cloth tape over both ends
        tape = _jitter(rng, _pick(rng, [(40, 40, 40), (150, 40, 40), (60, 80, 60), (200, 190, 170)]), 0.05)
        _mix(
            out,
            tape * (1 + 0.03 * _fbm(rng, u, v, 2.0, texel, 2))[..., None],
            _edge(12 - (hw - np.abs(u)), texel),
        )
    under = _plain(rng, X, Y, texel)
    under *= (1 - 0.4 * np.exp(-np.maximum(-d, 0) / 3))[..., None]
    return under + (out - under) * _edge(d, texel)[..., None]


# --- oilcloth: wipe-clean PVC printed with fruit or retro shapes -----------------------------


def _fruit(draw, rng, x, y, s, palette):
    kind = rng.integers(5)
    leaf = (60, 130, 50)
    a = rng.uniform(0, 360)
    if kind == 0:  # lemon
        draw("ellipse", (x, y), (s, s * 0.7), a, (235, 205, 40))
        draw("ellipse", (x - s * 0.3, y - s * 0.25), (s * 0.3, s * 0.15), a, (250, 235, 140))
        draw("ellipse", (x + s * 0.9, y - s * 0.6), (s * 0.5, s * 0.22), a + 40, leaf)
    elif kind == 1:  # cherries
        for dx in (-0.35, 0.35):
            draw("line", (x + dx * s, y), (x, y - 1.3 * s), 0, (100, 60, 30))
            draw("circle", (x + dx * s, y), s * 0.38, 0, (200, 25, 40))
            draw("circle", (x + dx * s - s * 0.1, y - s * 0.12), s * 0.1, 0, (245, 150, 150))
        draw("ellipse", (x + 0.4 * s, y - 1.3 * s), (s * 0.45, s * 0.18), 20, leaf)
    elif kind == 2:  # orange slice
        draw("circle", (x, y), s, 0, (240, 140, 30))
        draw("circle", (x, y), s * 0.85, 0, (250, 220, 170))
        draw("circle", (x, y), s * 0.78, 0, (245, 160, 50))
        for k in range(8):
            t = math.radians(a + 45 * k)
            draw("line", (x, y), (x + 0.78 * s * math.cos(t), y + 0.78 * s * math.sin(t)), 0, (250, 220, 170))
    elif kind == 3:  # strawberry
        draw("ellipse", (x, y), (s * 0.7, s), 0, (215, 35, 45))
        draw("ellipse", (x, y - s * 0.3), (s * 0.75, s * 0.6), 0, (215, 35, 45))
        for _ in range(8):
            draw(
                "circle",
                (x + rng.uniform(-0.4, 0.4) * s, y + rng.uniform(-0.5, 0.6) * s),
                s * 0.06,
                0,
                (250, 230, 120),
            )
        draw("ellipse", (x, y - s * 0.85), (s * 0.5, s * 0.15), 0, leaf)
    else:  # apple
        colour = palette[rng.integers(len(palette))]
        draw("circle", (x - s * 0.3, y), s * 0.7, 0, colour)
        draw("circle", (x + s * 0.3, y), s * 0.7, 0, colour)
        draw("line", (x, y - s * 0.5), (x + s * 0.1, y - s * 1.1), 0, (100, 60, 30))
        draw("ellipse", (x + s * 0.4, y - s * 1.0), (s * 0.35, s * 0.14), 30, leaf)


def _retro(draw, rng, x, y, s, palette):
    colour = palette[rng.integers(len(palette))]
    kind = rng.integers(5)
    a = rng.uniform(0, 360)
    if kind == 0:
        draw("circle", (x, y), s, 0, colour)
        draw("circle", (x, y), s * 0.6, 0, palette[rng.integers(len(palette))])
    elif kind == 1:  # boomerang
        draw("arc", (x, y), (s, s * 0.6), a, colour)
    elif kind == 2:  # starburst
        for k in range(12):
            t = math.radians(a + 30 * k)
            draw("line", (x, y), (x + s * math.cos(t), y + s * math.sin(t)), 0, colour)
        draw("circle", (x, y), s * 0.15, 0, colour)
    elif kind == 3:
        t = np.radians(a + np.array([90, 210, 330]))
        draw("poly", np.stack([x + s * np.cos(t), y + s * np.sin(t)], 1), None, 0, colour)
    else:
        draw("ellipse", (x, y), (s, s * 0.45), a, colour)
        draw("ellipse", (x, y), (s * 0.7, s * 0.2), a, palette[rng.integers(len(palette))])


def _oilcloth(rng, X, Y, texel):
    m_mm = rng.uniform(110, 360)
    n = int(min(768, m_mm / texel))
    fruit = rng.random() < 0.55
    if fruit:
        background = _pick(
            rng,
            [
                (250, 250, 245),
                (245, 235, 200),
                (250, 225, 90),
                (200, 40, 45),
                (60, 110, 190),
                (170, 220, 200),
                (30, 30, 35),
            ],
        )
        palette = [(200, 30, 40), (140, 190, 60), (230, 180, 40)]
    else:
        background = _pick(rng, [(240, 232, 210), (245, 245, 240), (60, 60, 62), (175, 215, 210)])
        palette = [
            (60, 170, 170),
            (222, 170, 50),
            (235, 110, 90),
            (120, 130, 60),
            (50, 50, 55),
            (245, 240, 230),
        ]
        palette = [palette[i] for i in rng.choice(len(palette), 4, replace=False)]
    background = _jitter(rng, background, 0.04)
    if n < 24:
        return _fill(X, Y, background)
    s2 = n * 2  # drawn at twice the size, then shrunk
    motif = np.empty((s2, s2, 3), np.uint8)
    motif[:] = np.clip(background * 255, 0, 255).astype(np.uint8)
    px = s2 / m_mm

    def draw(kind, p, size, a, colour):
        c = tuple(int(x) for x in colour)
        for ox in (-s2, 0, s2):
            for oy in (-s2, 0, s2):
                if kind == "poly":
                    cv2.fillPoly(
                        motif, [np.round((p * px + (ox, oy)) * 16).astype(np.int32)], c, cv2.LINE_AA, 4
                    )
                    continue
                q = (int((p[0] * px + ox) * 16), int((p[1] * px + oy) * 16))
                if kind == "circle":
                    cv2.circle(motif, q, int(size * px * 16), c, -1, cv2.LINE_AA, 4)
                elif kind == "ellipse":
                    cv2.ellipse(
                        motif,
                        q,
                        (int(size[0] * px * 16), int(size[1] * px * 16)),
                        a,
                        0,
                        360,
                        c,
                        -1,
                        cv2.LINE_AA,
                        4,
                    )
                elif kind == "arc":
                    cv2.ellipse(
                        motif,
                        q,
                        (int(size[0] * px * 16), int(size[1] * px * 16)),
                        a,
                        0,
                        200,
                        c,
                        max(1, int(size[1] * px * 0.4)),
                        cv2.LINE_AA,
                        4,
                    )
                else:
                    e = (int((size[0] * px + ox) * 16), int((size[1] * px + oy) * 16))
                    cv2.line(motif, q, e, c, max(1, int(px * 1.2)), cv2.LINE_AA, 4)

    count = int(rng.integers(4, 14)) if fruit else int(rng.integers(10, 30))
    size = m_mm * (rng.uniform(0.05, 0.12) if fruit else rng.uniform(0.04, 0.08))
    for _ in range(count):
        x, y = rng.uniform(0, m_mm, 2)
        (_fruit if fruit else _retro)(draw, rng, x, y, size * rng.uniform(0.8, 1.3), palette)
    motif = cv2.resize(motif, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    angle = rng.uniform(0, math.pi) if rng.random() < 0.5 else rng.normal(0, 0.05)
    out = _motif_tiling(motif, X, Y, m_mm / n, angle, rng.random() < 0.5)
    u, v = _rotated(X, Y, angle)
    fold = rng.uniform(250, 500)  # creases from the packet
    crease = np.ones(u.shape, np.float32)
    for w in (u, v):
        d = (w - np.round(w / fold) * fold) / rng.uniform(2, 5)
        crease += 0.08 * d * np.exp(-d * d)
    wrinkles = 1 + 0.03 * _fbm(rng, u, v, 80.0, texel, 3, stretch=3)
    return out * (crease * wrinkles)[..., None]


# --- a self-healing cutting mat --------------------------------------------------------------

MATS = [
    (40, 110, 75),
    (25, 85, 65),
    (36, 70, 122),
    (75, 78, 82),
    (30, 32, 34),
    (205, 85, 125),
    (110, 80, 150),
    (225, 228, 222),
]


def _cutting_mat(rng, X, Y, texel):
    base = _jitter(rng, _pick(rng, MATS), 0.05)
    light = base.mean() > 0.6
    ink = (
        rgb(40, 40, 40)
        if light
        else _jitter(rng, _pick(rng, [(235, 240, 230), (240, 230, 120), (200, 230, 210)]), 0.03)
    )
    hw, hh = [(225, 150), (300, 225), (450, 300), (600, 450)][rng.integers(4)]
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.6 else rng.normal(0, 0.06)
    centre = _frame(angle, rng.uniform(-0.6, 0.6, 2) * (hw, hh))
    u, v = _rotated(X - centre[0], Y - centre[1], angle)
    out = (
        base
        * (1 + 0.03 * _fbm(rng, X, Y, 80.0, texel, 3) + 0.015 * _fbm(rng, X, Y, 1.0, texel, 2))[..., None]
    )
    pen = _Pen(X, Y, texel, angle, centre)
    fine, bold, text = pen.mask(), pen.mask(), pen.mask()
    unit = 10.0 if rng.random() < 0.7 else 25.4
    major = 5 if unit == 10.0 else 4
    margin = rng.uniform(10, 18)
    iw, ih = hw - margin, hh - margin
    nx, ny = int(iw * 2 // unit), int(ih * 2 // unit)
    x0, y0 = -nx * unit / 2, -ny * unit / 2
    w = rng.uniform(0.15, 0.35)
    for i in range(nx + 1):
        x = x0 + i * unit
        pen.lines(
            bold if i % major == 0 else fine,
            [np.array([[x, y0], [x, -y0]])],
            w * (2 if i % major == 0 else 1),
        )
        pen.lines(fine, [np.array([[x, -y0], [x, -y0 + 5]])], w)
        if i % (2 if unit == 10.0 else 1) == 0:
            pen.text(text, str(i), (x, -y0 + 8), rng.uniform(2.5, 4))
    for j in range(ny + 1):
        y = y0 + j * unit
        pen.lines(
            bold if j % major == 0 else fine,
            [np.array([[x0, y], [-x0, y]])],
            w * (2 if j % major == 0 else 1),
        )
        if j % (2 if unit == 10.0 else 1) == 0:
            pen.text(text, str(j), (x0 - 7, y), rng.uniform(2.5, 4))
    ticks = [
        np.array([[x0 + t, y0], [x0 + t, y0 - (3 if t % 5 else 5)]]) for t in range(0, int(nx * unit) + 1)
    ]
    pen.lines(fine, ticks, w * 0.8)
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):  # angle guides from the corners
        for deg in (30, 45, 60):
            t = math.radians(deg)
            reach = min(-x0, -y0) * 1.2
            corner = np.array([sx * -x0, sy * -y0])
            end = corner - reach * np.array([sx * math.cos(t), sy * math.sin(t)])
            pen.lines(fine, [np.array([corner, end])], w, 0.7)
    if rng.random() < 0.5:
        pen.circle(fine, (0, 0), rng.uniform(40, 100), width=w)
    _ink(out, fine, ink, 0.75)
    _ink(out, bold, ink, 0.9)
    _ink(out, text, ink, 0.9)
    cuts = pen.mask()
    for _ in range(int(rng.integers(0, 120))):
        p = rng.uniform((-hw, -hh), (hw, hh))
        a = rng.choice([0, math.pi / 2, rng.uniform(0, math.pi)])
        pen.lines(
            cuts, [np.array([p, p + rng.uniform(10, 150) * np.array([math.cos(a), math.sin(a)])])], 0.25, 0.5
        )
    _ink(out, cuts, np.minimum(base * 1.5 + 0.1, 1), 0.6)
    d = np.minimum(hw - np.abs(u), hh - np.abs(v))
    out *= (1 - 0.3 * np.exp(-np.maximum(d, 0) / 1.2))[..., None]
    under = _plain(rng, X, Y, texel)
    under *= (1 - 0.4 * np.exp(-np.maximum(-d, 0) / 3))[..., None]
    return under + (out - under) * _edge(d, texel)[..., None]


# --- paper over the table with a child's crayon drawings ---------------------------------------

CRAYONS = [
    (210, 40, 40),
    (40, 70, 190),
    (40, 150, 60),
    (240, 200, 30),
    (240, 130, 30),
    (120, 50, 160),
    (35, 35, 35),
    (120, 70, 30),
    (240, 120, 170),
    (80, 170, 230),
]


def _doodle(rng, x, y, s) -> list[np.ndarray]:
    """Polylines (mm) of one thing a child draws, about s mm across, at x, y."""
    kind = rng.integers(10)
    c = np.array([x, y])
    t = np.linspace(0, 2 * np.pi, 40)
    ring = np.stack([np.cos(t), np.sin(t)], 1)

    def wob(p):  # a child's hand: slow wobbles, no jitter
        t = np.linspace(0, 2 * np.pi, len(p))[:, None]
        return p + s * 0.03 * np.sin(t * rng.integers(1, 4, 2) + rng.uniform(0, 6, 2))

    if kind == 0:  # scribble
        return [_walk(rng, c, int(rng.integers(20, 60)), s * 0.08, 0.6)]
    if kind == 1:  # hatching, back and forth
        n = int(rng.integers(6, 20))
        a = rng.uniform(0, np.pi)
        d = np.array([math.cos(a), math.sin(a)]) * s / 2
        e = np.array([-d[1], d[0]]) / (s / 2) * s / n
        pts = [c - d + e * k if k % 2 == 0 else c + d + e * k for k in range(n)]
        return [wob(np.array(pts))]
    if kind == 2:  # sun
        r = s * 0.25
        rays = [np.array([c + ring[k] * r * 1.3, c + ring[k] * r * 2]) for k in range(0, 40, 5)]
        return [wob(c + ring * r)] + rays
    if kind == 3:  # house
        h = s * 0.5
        body = np.array([[-h, -h], [h, -h], [h, h * 0.6], [-h, h * 0.6], [-h, -h]]) + c
        roof = np.array([[-h * 1.2, h * 0.6], [0, h * 1.5], [h * 1.2, h * 0.6]]) + c
        door = np.array([[-h * 0.2, -h], [-h * 0.2, -h * 0.2], [h * 0.2, -h * 0.2], [h * 0.2, -h]]) + c
        return [wob(body), wob(roof), wob(door)]
    if kind == 4:  # flower
        petals = [
            wob(c + (0, s * 0.2) + ring * s * 0.1 + s * 0.15 * np.array([math.cos(a), math.sin(a)]))
            for a in np.linspace(0, 2 * np.pi, 6)[:-1]
        ]
        return petals + [wob(np.array([c + (0, s * 0.1), c - (0, s * 0.5)]))]
    if kind == 5:  # person
        h = s * 0.5
        return [
            wob(c + (0, h * 0.7) + ring * h * 0.2),
            np.array([c + (0, h * 0.5), c - (0, h * 0.3)]),
            np.array([c - (h * 0.4, h), c - (0, h * 0.3), c + (h * 0.4, -h)]),
            np.array([c + (-h * 0.5, h * 0.2), c + (h * 0.5, h * 0.2)]),
        ]
    if kind == 6:  # heart
        heart = np.stack(
            [16 * np.sin(t) ** 3, 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)], 1
        )
        return [wob(c + heart / 34 * s)]
    if kind == 7:  # spiral
        tt = np.linspace(0, 6 * np.pi, 120)
        return [wob(c + np.stack([np.cos(tt), np.sin(tt)], 1) * (tt / tt[-1] * s / 2)[:, None])]
    if kind == 8:  # noughts and crosses
        h = s / 2
        lines = [
            np.array([[-h / 3, -h], [-h / 3, h]]),
            np.array([[h / 3, -h], [h / 3, h]]),
            np.array([[-h, -h / 3], [h, -h / 3]]),
            np.array([[-h, h / 3], [h, h / 3]]),
        ]
        lines = [wob(p + c) for p in lines]
        for _ in range(int(rng.integers(2, 7))):
            cell = c + (rng.integers(-1, 2, 2) * 2 * h / 3)
            if rng.random() < 0.5:
                lines.append(wob(cell + ring * h * 0.22))
            else:
                lines += [
                    np.array([cell - h * 0.2, cell + h * 0.2]),
                    np.array([cell + (-h * 0.2, h * 0.2), cell + (h * 0.2, -h * 0.2)]),
                ]
        return lines
    return [wob(c + ring * s * rng.uniform(0.2, 0.4) * (1, rng.uniform(0.5, 1)))]  # a balloon or a face


def _kraft_paper(rng, X, Y, texel):
    paper = _jitter(
        rng,
        _pick(
            rng,
            [
                (188, 148, 102),
                (202, 166, 120),
                (168, 128, 88),
                (242, 240, 232),
                (236, 232, 220),
                (245, 238, 200),
            ],
        ),
        0.04,
    )
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    height = _smooth_fbm(rng, u, v, rng.uniform(60, 160), max(texel, 2.0), 3, stretch=rng.uniform(1, 1.5))
    slope = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) + cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3)
    crinkle = 1 + rng.uniform(0.008, 0.025) * np.clip(slope / max(float(slope.std()), 1e-4), -3, 3)
    tooth = _lattice(rng, X, Y, 0.5, 0.5) if texel < 0.35 else np.zeros(_shape(X, Y), np.float32)
    fibres = 1 + 0.025 * _fbm(rng, u, v, 1.5, texel, 2, stretch=3) + 0.02 * tooth
    out = paper * (crinkle * fibres)[..., None]
    pen = _Pen(X, Y, texel)
    colours = [
        _jitter(rng, rgb(*CRAYONS[i]), 0.04)
        for i in rng.choice(len(CRAYONS), int(rng.integers(2, 7)), replace=False)
    ]
    masks = [pen.mask() for _ in colours]
    for _ in range(int(rng.integers(3, 30))):
        k = rng.integers(len(colours))
        s = _log_uniform(rng, 40, 250)
        x, y = rng.uniform(-450, 450, 2)
        pen.lines(masks[k], _doodle(rng, x, y, s), rng.uniform(1.5, 6))
    if rng.random() < 0.3:
        word = ["MUM", "DAD", "LOVE", "DOG", "CAT", "HAPPY", "ZOE", "MAX", "SUN"][rng.integers(9)]
        pen.text(
            masks[0], word, rng.uniform(-300, 300, 2), rng.uniform(20, 45), rng.normal(0, 0.3), weight=0.15
        )
    wax = np.clip(0.65 + 0.5 * tooth, 0, 1)
    for mask, colour in zip(masks, colours, strict=True):
        _mix(out, colour, mask.astype(np.float32) / 255 * wax * 0.85)
    if rng.random() < 0.5:  # a strip off a roll: its edge, the table beyond
        w = rng.uniform(220, 500)
        off = rng.uniform(-0.7, 0.7) * w
        d = w - np.abs(v - off)
        under = _plain(rng, X, Y, texel)
        under *= (1 - 0.3 * np.exp(-np.maximum(-d, 0) / 2))[..., None]
        out = under + (out - under) * _edge(d, texel)[..., None]
    return out


# --- metal: brushed steel, a zinc bistro top, galvanised spangle ---------------------------------


def _steel(rng, X, Y, texel):
    angle = rng.uniform(0, math.pi)
    u, v = _rotated(X, Y, angle)
    kind = rng.choice(3, p=(0.5, 0.3, 0.2))
    if kind == 0:  # brushed stainless
        grey = rng.uniform(150, 200)
        out = _fill(X, Y, rgb(grey * 0.98, grey, grey * rng.uniform(1.0, 1.05)))
        fine = max(0.5, 2 * texel)
        tone = 1 + 0.03 * _fbm(rng, u, v, fine, texel, 2, stretch=80) * (1 if fine < 1.2 else 0.4)
        tone += 0.012 * _fbm(rng, u, v, 10.0, texel, 2, stretch=30) + 0.025 * _fbm(rng, X, Y, 150.0, texel, 2)
        out *= tone[..., None]
    elif kind == 1:  # zinc: dull, blotched with oxide and wear
        out = _fill(X, Y, _jitter(rng, rgb(148, 150, 150), 0.06))
        mottle = rng.uniform(0.03, 0.07) * _fbm(rng, X, Y, rng.uniform(30, 100), texel, 4)
        out *= (1 + mottle + 0.02 * _fbm(rng, X, Y, 2.0, texel, 2))[..., None]
        _mix(out, rgb(190, 192, 190), np.clip(_fbm(rng, X, Y, 15.0, texel, 3) - 1.8, 0, 0.3))
    else:  # galvanised: crystal spangles
        size = rng.uniform(5, 25)
        _, _, ident = _cells(rng, X, Y, size)
        tone = rng.uniform(0.82, 1.1, 4096).astype(np.float32)[ident % 4096]
        out = (
            _fill(X, Y, _jitter(rng, rgb(165, 170, 172), 0.05))
            * (tone * (1 + 0.02 * _fbm(rng, X, Y, 3.0, texel, 2)))[..., None]
        )
    pen = _Pen(X, Y, texel)
    light, dark = pen.mask(), pen.mask()
    for _ in range(int(rng.integers(10, 120))):
        p = rng.uniform(-500, 500, 2)
        a = rng.uniform(0, np.pi)
        seg = np.array([p, p + rng.uniform(5, 120) * np.array([math.cos(a), math.sin(a)])])
        pen.lines(light if rng.random() < 0.6 else dark, [seg], rng.uniform(0.1, 0.3), 0.7)
    _ink(out, light, rgb(230, 232, 235), 0.4)
    _ink(out, dark, rgb(70, 72, 75), 0.35)
    smudge = np.clip(_fbm(rng, X, Y, rng.uniform(20, 60), texel, 3) - 1.2, 0, 0.6)  # fingerprints, wiping
    out *= (1 - 0.05 * smudge)[..., None]
    _rings(rng, X, Y, texel, out, int(rng.integers(0, 3)), rgb(110, 110, 105), strength=(0.1, 0.3))
    return out


PAINTERS = {
    "parquet": _parquet,
    "chessboard": _chessboard,
    "rug": _rug,
    "cork": _cork,
    "baize": _baize,
    "concrete": _concrete,
    "wicker": _wicker,
    "hex-tiles": _hex_tiles,
    "map": _map,
    "leather": _leather,
    "bamboo": _bamboo,
    "oilcloth": _oilcloth,
    "cutting-mat": _cutting_mat,
    "kraft-paper": _kraft_paper,
    "steel": _steel,
}
# specular reflectance and Blinn-Phong exponent of each table
SHEEN = {
    "parquet": (0.03, 40),
    "chessboard": (0.02, 30),
    "rug": (0.0, 8),
    "cork": (0.0, 8),
    "baize": (0.0, 8),
    "concrete": (0.02, 20),
    "wicker": (0.01, 15),
    "hex-tiles": (0.05, 90),
    "map": (0.004, 10),
    "leather": (0.02, 15),
    "bamboo": (0.015, 20),
    "oilcloth": (0.05, 60),
    "cutting-mat": (0.006, 12),
    "kraft-paper": (0.003, 10),
    "steel": (0.07, 35),
}


def register() -> None:
    """Let independent_photos.render draw these families too (the defaults stay as they are)."""
    photos.PAINTERS.update(PAINTERS)
    photos.SHEEN.update(SHEEN)
    photos.MORE_FAMILIES.extend(f for f in FAMILIES if f not in photos.MORE_FAMILIES)
