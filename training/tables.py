"""Table tops for rendered photos: many families, each drawn from a wide parameter space.

A table is any surface, so the finder must learn what a city is rather than which tables it
has seen. Each family is a function of the surface's own coordinates (u, v), which a random
homography maps to the photo, so periodic cloths shrink with distance like real ones.

``HELD_OUT`` families are never drawn in training; the benchmark renders them to measure
generalisation to table tops of a kind the models never saw.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

HELD_OUT = ("dots", "newspaper")


def _colour(rng, lo=20, hi=235) -> np.ndarray:
    return rng.uniform(lo, hi, 3)


def _noise(u, v, rng, scale: float, octaves: int = 3) -> np.ndarray:
    """Smooth value noise in -1..1 over the surface coordinates, (h, w) float32."""
    h, w = u.shape
    total = np.zeros((h, w), np.float32)
    for k in range(octaves):
        cells = max(2, int(2 ** k * max(w, h) / scale))
        grid = cv2.resize(rng.normal(0, 1, (cells, cells)).astype(np.float32), (w, h),
                          interpolation=cv2.INTER_CUBIC)
        total += grid / 2 ** k
    return np.clip(total / 1.5, -1, 1)


def wood(u, v, rng):
    base = np.array([rng.uniform(60, 200), rng.uniform(40, 130), rng.uniform(20, 80)])
    grain = np.sin(u / rng.uniform(2, 14) + rng.uniform(2, 6) * _noise(u, v, rng, 300)) * 0.5 + 0.5
    planks = (np.floor(v / rng.uniform(60, 260)) % 2)[..., None] * rng.uniform(-15, 15)
    return base * (0.72 + 0.35 * grain[..., None]) + planks


def cloth(u, v, rng):
    weave = (np.sin(u * rng.uniform(0.8, 2.2)) * np.sin(v * rng.uniform(0.8, 2.2)))[..., None]
    return _colour(rng) + weave * rng.uniform(3, 12) + 10 * _noise(u, v, rng, 200)[..., None]


def laminate(u, v, rng):
    base = np.full(3, rng.uniform(140, 240)) + rng.uniform(-25, 25, 3)
    return base + 8 * _noise(u, v, rng, 150)[..., None]


def checks(u, v, rng):
    """Gingham and check: two crossing bands of one colour over another, any period."""
    period = rng.uniform(4, 90)
    duty = rng.uniform(0.3, 0.7)
    a, b = _colour(rng), _colour(rng)
    bu = ((u / period) % 1 < duty).astype(np.float32)
    bv = ((v / period * rng.choice([1, 1, 1.5])) % 1 < duty).astype(np.float32)
    mix = (bu + bv)[..., None] / 2  # 0, 1/2, 1: the gingham's three tones
    return a * (1 - mix) + b * mix + 4 * _noise(u, v, rng, 60)[..., None]


def plaid(u, v, rng):
    """Tartan: stripes of several widths and colours both ways, blended."""
    img = np.zeros(u.shape + (3,), np.float32) + _colour(rng)
    for coord in (u, v):
        period = rng.uniform(30, 200)
        for _ in range(int(rng.integers(2, 5))):
            start, width = rng.uniform(0, 1), rng.uniform(0.03, 0.3)
            band = (((coord / period) - start) % 1 < width).astype(np.float32)[..., None]
            img = img * (1 - 0.5 * band) + _colour(rng) * 0.5 * band
    return img


def stripes(u, v, rng):
    period = rng.uniform(5, 120)
    band = ((u / period) % 1 < rng.uniform(0.2, 0.8)).astype(np.float32)[..., None]
    return _colour(rng) * (1 - band) + _colour(rng) * band


def floor_tiles(u, v, rng):
    """Ceramic tiles with grout lines: a lattice of squares, some the size of game tiles."""
    size = rng.uniform(15, 160)
    grout = rng.uniform(1, 6)
    line = (((u % size) < grout) | ((v % size) < grout)).astype(np.float32)[..., None]
    cell = (np.floor(u / size) + np.floor(v / size)) % 2
    face = _colour(rng) + (cell[..., None] * rng.uniform(-30, 30))
    face = face + 12 * _noise(u, v, rng, 80)[..., None]
    return face * (1 - line) + _colour(rng, 40, 220) * line


def marble(u, v, rng):
    veins = np.abs(np.sin(u / rng.uniform(20, 80) + 5 * _noise(u, v, rng, 250, 4)))
    base = _colour(rng, 120, 245)
    return base - (1 - veins[..., None]) ** 6 * rng.uniform(60, 160)


def floral(u, v, rng):
    """A printed cloth: the same small motif (petals round a centre) on a lattice."""
    img = np.zeros(u.shape + (3,), np.float32) + _colour(rng)
    period = rng.uniform(20, 120)
    fu, fv = (u / period) % 1 - 0.5, (v / period) % 1 - 0.5
    r, a = np.hypot(fu, fv), np.arctan2(fv, fu)
    petals = r < rng.uniform(0.2, 0.4) * (0.6 + 0.4 * np.cos(int(rng.integers(3, 8)) * a))
    img[petals] = _colour(rng)
    img[r < 0.08] = _colour(rng)
    return img


def blobs(u, v, rng):
    """A busy collage: many random shapes in random colours at many scales."""
    h, w = u.shape
    img = np.zeros((h, w, 3), np.float32) + _colour(rng)
    for _ in range(int(rng.integers(20, 120))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        s = int(rng.uniform(3, max(4, max(w, h) / 6)))
        colour = tuple(float(x) for x in _colour(rng))
        if rng.uniform() < 0.5:
            cv2.circle(img, c, s, colour, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(img, c, (c[0] + s, c[1] + int(rng.uniform(3, s + 4))), colour, -1)
    return img


def dots(u, v, rng):
    period = rng.uniform(8, 80)
    fu, fv = (u / period) % 1 - 0.5, (v / period) % 1 - 0.5
    dot = (np.hypot(fu, fv) < rng.uniform(0.1, 0.4)).astype(np.float32)[..., None]
    return _colour(rng) * (1 - dot) + _colour(rng) * dot


def newspaper(u, v, rng):
    """Columns of grey print lines on paper, with a few pictures."""
    paper = np.full(3, rng.uniform(200, 245)) - rng.uniform(0, 20, 3)
    line_h = rng.uniform(4, 14)
    words = (np.sin(u / rng.uniform(2, 5)) > -0.2) & ((v % line_h) < line_h * 0.55)
    column = (u % rng.uniform(120, 300)) < rng.uniform(100, 110)
    ink = (words & column).astype(np.float32)[..., None] * rng.uniform(0.3, 0.7)
    return paper * (1 - ink) + 30 * ink


@cache
def _photos() -> list[np.ndarray]:
    """Real photographs that scikit-image ships (training-only dependency), RGB uint8."""
    from skimage import data

    names = ["astronaut", "brick", "camera", "chelsea", "coffee", "coins", "grass", "gravel",
             "hubble_deep_field", "immunohistochemistry", "moon", "page", "rocket", "text",
             "retina", "cell", "clock"]
    photos = []
    for name in names:
        image = getattr(data, name)()
        if image.ndim == 2:
            image = np.repeat(image[..., None], 3, axis=2)
        photos.append(np.ascontiguousarray(image[..., :3]))
    return photos


def photo_crop(rng, size: int) -> np.ndarray:
    """A random piece of a real photograph, (size, size, 3) float32, colours jittered."""
    image = _photos()[int(rng.integers(len(_photos())))]
    h, w = image.shape[:2]
    side = int(rng.uniform(0.3, 1.0) * min(h, w))
    y, x = int(rng.integers(0, h - side + 1)), int(rng.integers(0, w - side + 1))
    crop = cv2.resize(image[y:y + side, x:x + side], (size, size), interpolation=cv2.INTER_AREA)
    crop = crop.astype(np.float32) * rng.uniform(0.6, 1.3, 3)
    return np.clip(crop, 0, 255)


def photo(u, v, rng):
    """A real photograph as the table top, tiled and mirrored over the surface."""
    tile = photo_crop(rng, int(rng.uniform(120, 600)))
    size = tile.shape[0]
    iu = np.abs(((u / size) % 2) - 1) * (size - 1)  # mirrored repeat
    iv = np.abs(((v / size) % 2) - 1) * (size - 1)
    return cv2.remap(tile, iu.astype(np.float32), iv.astype(np.float32), cv2.INTER_LINEAR)


FAMILIES = {f.__name__: f for f in (wood, cloth, laminate, checks, plaid, stripes, floor_tiles,
                                     marble, floral, blobs, dots, newspaper, photo)}
TRAINING = tuple(name for name in FAMILIES if name not in HELD_OUT)


def table_texture(h: int, w: int, rng: np.random.Generator, family: str | None = None) -> np.ndarray:
    """A table top seen in perspective: (h, w, 3) float32 RGB in 0..255.

    ``family`` defaults to one of the training families, drawn at random.
    """
    family = family or TRAINING[int(rng.integers(len(TRAINING)))]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # the surface's coordinates: a random scale, turn and mild perspective of the pixels
    angle, scale = rng.uniform(0, np.pi), rng.uniform(0.5, 2.0)
    tilt = rng.uniform(-0.6, 0.6, 2) / max(h, w)
    depth = 1 + tilt[0] * (xx - w / 2) + tilt[1] * (yy - h / 2)
    u = (xx * np.cos(angle) + yy * np.sin(angle)) / depth / scale
    v = (-xx * np.sin(angle) + yy * np.cos(angle)) / depth / scale
    tex = FAMILIES[family](u, v, rng)
    return np.clip(tex, 0, 255).astype(np.float32)
