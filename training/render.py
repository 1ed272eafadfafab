"""Render a finished city as a phone would photograph it at a real table, with exact truth.

``render_scene(layout, faces, rng, tier)`` lays the tiles out by hand (offsets, small turns,
gaps, cardboard edges and drop shadows) with clutter, sometimes beside a neighbouring city, on
a table top of any family (``training.tables``), then takes the picture: any in-plane rotation,
tilt, a city filling 10-100 % of the frame, uneven light, colour cast, glare, cast shadows,
blur, noise and JPEG. Seeded and deterministic. The "lamp" light model is held out of training.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorer.city import GAME_SUPPLY, SIZE
from scorer.duplex import domino_cells
from scorer.vision import geometry

from .tables import table_texture
from .tiles import FaceSet

TIERS = {  # tilt (deg), city size as a share of the frame's short side, effect strength
    "easy": {"tilt": 15, "fill": (0.55, 0.9), "effects": 0.3, "clutter": 2, "jitter": 0.01},
    "medium": {"tilt": 30, "fill": (0.4, 0.95), "effects": 0.6, "clutter": 5, "jitter": 0.02},
    "hard": {"tilt": 45, "fill": (0.3, 1.05), "effects": 1.0, "clutter": 9, "jitter": 0.03},
}


@dataclass
class Layout:
    """A legal finished city: upright grid and the two duplex tiles (index, first cell)."""

    grid: list[list[str]]
    duplex: list[tuple[int, tuple[int, int]]]


@dataclass
class Scene:
    """A rendered photo and its truth.

    image : (H, W, 3) uint8 RGB
    corners : (4, 2) float32, the upright city's TL TR BR BL in the image, (x, y)
    cells : (4, 4, 4, 2) float32, each cell's TL TR BR BL in the image
    """

    image: np.ndarray
    grid: list[list[str]]
    corners: np.ndarray
    cells: np.ndarray
    tier: str
    duplex: list[tuple[int, tuple[int, int]]]


def random_layout(faces: FaceSet, rng: np.random.Generator) -> Layout:
    """Two random duplex tiles on free dominoes, twelve singles drawn from the game's supply."""
    grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    duplex = []
    while len(duplex) < 2:
        index = int(rng.integers(len(faces.duplex)))
        _, halves, layout = faces.duplex[index]
        dominoes = [d for d in domino_cells(layout) if all(grid[r][c] is None for r, c in d)]
        (r0, c0), (r1, c1) = dominoes[int(rng.integers(len(dominoes)))]
        grid[r0][c0], grid[r1][c1] = halves
        duplex.append((index, (r0, c0)))
    bag = [b for b, n in GAME_SUPPLY.items() for _ in range(n - 8 if "tavern" not in b else 5)]
    picks = rng.choice(len(bag), size=12, replace=False)
    free = [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] is None]
    for (r, c), k in zip(free, picks, strict=True):
        grid[r][c] = bag[k]
    return Layout([list(row) for row in grid], duplex)


# --- the tiles on a flat plane -----------------------------------------------------------


def _paste(canvas, alpha, shadow, face, centre, angle, thickness, rng):
    """Paste a face (turned by ``angle`` deg) with its cardboard edge and a drop shadow.

    Works on the region around the tile only, so a scene costs little more than its tiles.
    """
    h, w = face.shape[:2]
    reach = int(np.hypot(w, h) / 2 + 4 * thickness[0] + 8)
    x0, y0 = int(centre[0]) - reach, int(centre[1]) - reach
    x1, y1 = x0 + 2 * reach, y0 + 2 * reach
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if cx0 >= cx1 or cy0 >= cy1:
        return
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - (w / 2, h / 2) - (cx0, cy0)
    size = (cx1 - cx0, cy1 - cy0)
    roi = (slice(cy0, cy1), slice(cx0, cx1))
    mask = cv2.warpAffine(np.ones((h, w), np.float32), m, size)
    edge = m.copy()
    edge[:, 2] += thickness
    edge_mask = cv2.warpAffine(np.ones((h, w), np.float32), edge, size)
    soft = cv2.GaussianBlur(edge_mask, (0, 0), max(1.0, thickness[0] * 3 + 1))
    shadow[roi] = np.maximum(shadow[roi], soft * rng.uniform(0.3, 0.55))
    edge_colour = np.array([rng.uniform(60, 110)] * 3) * (0.9, 0.85, 0.8)
    region = canvas[roi]
    region[:] = region * (1 - edge_mask[..., None]) + edge_colour * edge_mask[..., None]
    warped = cv2.warpAffine(face.astype(np.float32), m, size, flags=cv2.INTER_LINEAR)
    region[:] = region * (1 - mask[..., None]) + warped * mask[..., None]
    alpha[roi] = np.maximum(alpha[roi], np.maximum(mask, edge_mask))


def _card(t: int, rng: np.random.Generator) -> np.ndarray:
    card = np.full((int(t * 1.4), t, 3), rng.uniform(200, 250), np.float32)
    card[: t // 3] = rng.uniform(40, 220, 3)
    for k in range(5):
        y = t // 2 + k * t // 8
        card[y:y + max(2, t // 40), t // 8:t - t // 8 - int(rng.integers(t // 3))] = 40
    return card


def lay_out_plane(layout: Layout, faces: FaceSet, t: int, tier: dict, rng, neighbour: bool = False):
    """Tiles placed by hand on a plane; returns canvas (RGB float), alpha, shadow, cell corners.

    The city's ideal square spans [pad, pad + 4t] in both axes of the plane. A neighbouring
    city, when asked for, lies beside it past a small gap, cut by the plane's edge.
    """
    pad = int(2.6 * t)
    n = 4 * t + 2 * pad
    canvas = np.zeros((n, n, 3), np.float32)
    alpha = np.zeros((n, n), np.float32)
    shadow = np.zeros((n, n), np.float32)
    thick = (rng.uniform(0.01, 0.03) * t,) * 2
    jit = tier["jitter"] * t

    def resized(face, cells_w, cells_h):
        return cv2.resize(face, (cells_w * t - 2, cells_h * t - 2), interpolation=cv2.INTER_AREA)

    # clutter first, away from the city
    for _ in range(int(rng.integers(0, tier["clutter"] + 1))):
        pick = rng.uniform()
        if pick < 0.4:
            face = resized(faces.back, 1, 1)
        elif pick < 0.75:
            face = resized(list(faces.singles.values())[int(rng.integers(9))], 1, 1)
        else:
            face = _card(t, rng)
        while True:
            x, y = rng.uniform(t * 0.5, n - t * 0.5, 2)
            if not (pad - 1.0 * t < x < pad + 5.0 * t and pad - 1.0 * t < y < pad + 5.0 * t):
                break
        _paste(canvas, alpha, shadow, face, (x, y), rng.uniform(0, 360), thick, rng)

    if neighbour:
        side = int(rng.integers(4))
        gap = rng.uniform(0.2, 1.2) * t
        origin = np.array([pad, pad], np.float32)
        origin[side % 2] += (4 * t + gap) * (1 if side < 2 else -1)
        singles = list(faces.singles.values())
        for r in range(SIZE):
            for c in range(SIZE):
                centre = origin + (np.array([c, r]) + 0.5) * t + rng.normal(0, jit, 2)
                if (centre > 0).all() and (centre < n).all():
                    face = resized(singles[int(rng.integers(len(singles)))], 1, 1)
                    _paste(canvas, alpha, shadow, np.rot90(face, int(rng.integers(4))), centre,
                           rng.normal(0, 2), thick, rng)

    cells = np.zeros((SIZE, SIZE, 4, 2), np.float32)
    covered = set()
    pieces = []
    for index, (r, c) in layout.duplex:
        face, _, kind = faces.duplex[index]
        w, h = (2, 1) if kind == "horizontal" else (1, 2)
        pieces.append((face, r, c, w, h))
        covered |= {(r, c), (r + h - 1, c + w - 1)}
    for r in range(SIZE):
        for c in range(SIZE):
            if (r, c) not in covered:
                pieces.append((faces.singles[layout.grid[r][c]], r, c, 1, 1))
    for face, r, c, w, h in pieces:
        angle = rng.normal(0, 1.2 * tier["jitter"] / 0.02)
        centre = np.array([pad + (c + w / 2) * t, pad + (r + h / 2) * t]) + rng.normal(0, jit, 2)
        _paste(canvas, alpha, shadow, resized(face, w, h), centre, angle, thick, rng)
        m = cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2]
        for dr in range(h):
            for dc in range(w):
                local = np.array([[dc, dr], [dc + 1, dr], [dc + 1, dr + 1], [dc, dr + 1]], np.float32)
                local = (local - (w / 2, h / 2)) * t
                cells[r + dr, c + dc] = local @ m.T + centre
    return canvas, alpha, shadow, cells, pad


# --- the camera and the light ------------------------------------------------------------


def camera_homography(pad: int, t: int, out_size, tier: dict, rng, fill=None) -> np.ndarray:
    """Homography from the plane to the photo: rotation, tilt, distance and framing.

    fill : (low, high) share of the frame's short side the city spans; the tier's by default.
    """
    w, h = out_size
    side = 4 * t
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32) - 0.5
    rot = rng.uniform(0, 2 * np.pi)
    tilt = np.radians(rng.uniform(0, tier["tilt"]))
    axis = rng.uniform(0, 2 * np.pi)
    pts = square @ np.array([[np.cos(rot), np.sin(rot)], [-np.sin(rot), np.cos(rot)]])
    p3 = np.c_[pts, np.zeros(4)]
    a = np.array([np.cos(axis), np.sin(axis), 0])  # tilt about an in-plane axis (Rodrigues)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    r3 = np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * k @ k
    p3 = p3 @ r3.T
    distance = rng.uniform(1.3, 2.2)
    proj = p3[:, :2] / (distance + p3[:, 2:3])
    span = (proj.max(0) - proj.min(0)).max()
    fill = rng.uniform(*(fill or tier["fill"]))
    proj = proj / span * fill * min(w, h)
    lo, hi = proj.min(0), proj.max(0)
    room = np.array([w, h]) - (hi - lo)
    offset = -lo + np.array([rng.uniform(min(0, r), max(0, r)) for r in room])
    quad = (proj + offset).astype(np.float32)
    src = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]],
                   np.float32)
    return cv2.getPerspectiveTransform(src, quad)


def lamp(img: np.ndarray, strength: float, rng) -> np.ndarray:
    """Held-out light model: a warm lamp with radial falloff and a dark vignette (float RGB)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c = rng.uniform(-0.3, 1.3, 2) * (w, h)
    falloff = 1 / (1 + ((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (rng.uniform(0.5, 1.5) * max(w, h)) ** 2)
    vignette = 1 - 0.35 * strength * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    warm = np.array([1.0, rng.uniform(0.75, 0.9), rng.uniform(0.45, 0.7)])
    return img * (falloff * vignette)[..., None] * warm * rng.uniform(1.0, 1.5)


def studio(img: np.ndarray, strength: float, rng) -> np.ndarray:
    """The training light model: gradient, colour cast, cast shadow and glare (float RGB)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = rng.uniform(-1, 1, 2)
    ramp = ((xx / w - 0.5) * d[0] + (yy / h - 0.5) * d[1])
    img = img * (1 + strength * 0.6 * ramp)[..., None]
    img = img * (1 + strength * rng.uniform(-0.12, 0.12, 3)) * rng.uniform(1 - 0.3 * strength, 1.1)
    if rng.uniform() < 0.6 * strength:  # cast shadow: a soft dark polygon
        poly = (rng.uniform(0, 1, (4, 2)) * (w, h)).astype(np.int32)
        m = np.zeros((h, w), np.float32)
        cv2.fillConvexPoly(m, cv2.convexHull(poly), 1.0)
        m = cv2.GaussianBlur(m, (0, 0), max(w, h) * 0.02)
        img = img * (1 - rng.uniform(0.25, 0.5) * m)[..., None]
    if rng.uniform() < 0.5 * strength:  # glare: a bright soft blob
        c = rng.uniform(0, 1, 2) * (w, h)
        img = glare(img, c, rng.uniform(0.04, 0.12) * max(w, h), rng.uniform(0.4, 0.85))
    return img


def glare(img: np.ndarray, centre, spread: float, strength: float) -> np.ndarray:
    """A bright soft blob of light: (H, W, 3) float RGB washed toward white by ``strength``
    at ``centre`` (x, y), fading over ``spread`` pixels."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = np.exp(-(((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * spread * spread)))
    return img + (255 - img) * (strength * g)[..., None]


LIGHTS = {"studio": studio, "lamp": lamp}
HELD_OUT_LIGHTS = ("lamp",)


def light_and_lens(img: np.ndarray, strength: float, rng, light: str = "studio") -> np.ndarray:
    """The light model, then blur and sensor noise (float RGB in, uint8 out)."""
    h, w = img.shape[:2]
    img = LIGHTS[light](img, strength, rng)
    sigma = rng.uniform(0, 1.6 * strength) * min(w, h) / 700
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, 1 + 6 * strength, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def render_scene(layout: Layout, faces: FaceSet, rng: np.random.Generator, tier: str = "medium",
                 out_size: tuple[int, int] = (1024, 768), tile_px: int | None = None,
                 table: str | None = None, light: str = "studio", fill=None,
                 neighbour: bool = False) -> Scene:
    """A photo of ``layout`` and its truth; ``out_size`` (w, h) may be portrait or landscape.

    table : a family of ``training.tables`` (a random training family by default); fill :
    (low, high) city size as a share of the short side (the tier's by default).
    """
    settings = TIERS[tier]
    t = tile_px or int(max(out_size) / 4 * 0.75)
    canvas, alpha, shadow, cells, pad = lay_out_plane(layout, faces, t, settings, rng, neighbour)
    hmat = camera_homography(pad, t, out_size, settings, rng, fill)
    w, h = out_size
    table = table_texture(h, w, rng, table)
    warp = lambda a: cv2.warpPerspective(a, hmat, (w, h), flags=cv2.INTER_AREA)  # noqa: E731
    layer, a, s = warp(canvas), warp(alpha)[..., None], warp(shadow)[..., None]
    img = table * (1 - s) + 0 * s
    img = img * (1 - a) + layer * a
    img = light_and_lens(img, settings["effects"], rng, light)
    img = jpeg(img, int(rng.integers(70, 96)))
    to_img = lambda p: cv2.perspectiveTransform(p.reshape(-1, 1, 2), hmat).reshape(p.shape)  # noqa: E731
    side = 4 * t
    corners = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]],
                       np.float32)
    return Scene(img, layout.grid, to_img(corners), to_img(cells), tier, layout.duplex)


def far_and_shaken(image: np.ndarray, corners: np.ndarray, rng,
                   tile_px: tuple[float, float] = (32, 64)) -> tuple[np.ndarray, np.ndarray]:
    """The same photo taken from further away by a moving hand: tiles of ``tile_px`` pixels
    (never enlarged), blur along one direction, sometimes a tile washed out by glare, JPEG again.

    image : (H, W, 3) uint8 RGB.  corners : (4, 2) the city's corners in it.
    Returns the new image and the city's corners in it.
    """
    tile = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean() / 4
    scale = min(1.0, rng.uniform(*tile_px) / tile)
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners = geometry.rescale(corners, scale)
    tile *= scale
    img = image.astype(np.float32)
    length = rng.uniform(0, 0.08) * tile
    if length >= 1.5:  # motion blur: a line kernel at any angle
        n = int(np.ceil(length)) | 1
        kernel = np.zeros((n, n), np.float32)
        angle = rng.uniform(0, np.pi)
        d = (n - 1) / 2 * np.array([np.cos(angle), np.sin(angle)])
        c = (n - 1) / 2
        cv2.line(kernel, (round(c - d[0]), round(c - d[1])), (round(c + d[0]), round(c + d[1])), 1.0)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    if rng.uniform() < 0.3:  # glare that washes out a tile or two
        centre = corners.mean(0) + rng.uniform(-2, 2, 2) * tile
        img = glare(img, centre, rng.uniform(0.4, 1.2) * tile, rng.uniform(0.6, 0.95))
    return jpeg(np.clip(img, 0, 255).astype(np.uint8), int(rng.integers(60, 92))), corners
