"""Pure array functions: city quadrilaterals, the warp, and the crops the classifier sees.

Training calls these same functions to make its crops, so inference sees what training saw.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import DEFAULT, VisionConfig

SIZE = 4


def order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Order four points clockwise (in image coordinates), starting nearest the top left.

    quad : (4, 2) float, (x, y)
    """
    quad = np.asarray(quad, np.float32)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def _line(points: np.ndarray) -> np.ndarray:
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([vy, -vx, vx * y0 - vy * x0])  # a x + b y + c = 0


def _meet(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Where two lines (a, b, c) meet, in homogeneous coordinates: their cross product,
    as ``np.cross`` gives it (the same arithmetic, without its overhead on 3-vectors)."""
    (a, b, c), (d, e, f) = first, second
    return np.array([b * f - c * e, c * d - a * f, a * e - b * d])


def quad_from_mask(mask: np.ndarray, min_area: float) -> np.ndarray | None:
    """The city's four corners from a binary mask, or None when no city-like region is found.

    mask : (H, W) bool.  Returns (4, 2) float32 clockwise from the top left, in mask pixels.
    The sides are lines fitted to the region's outline, so corners are sub-pixel.
    """
    quads = quads_from_mask(mask, min_area, 1)
    return quads[0] if quads else None


def quads_from_mask(mask: np.ndarray, min_area: float, limit: int) -> list[np.ndarray]:
    """Up to ``limit`` city-like regions of a binary mask, largest first, as corner quads.

    mask : (H, W) bool.  Each quad is (4, 2) float32 clockwise from the top left.
    """
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    contours = sorted(contours, key=cv2.contourArea, reverse=True)[:limit]
    return [_quad_of(c) for c in contours if cv2.contourArea(c) >= min_area * mask.size]


def _quad_of(contour: np.ndarray) -> np.ndarray:
    """A region's four corners: sides are lines fitted to its outline, (4, 2) float32."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for eps in np.linspace(0.01, 0.15, 29):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) <= 4:
            break
    if approx is None or len(approx) != 4:
        approx = cv2.boxPoints(cv2.minAreaRect(contour)).reshape(4, 1, 2)
    corners = order_clockwise(approx.reshape(4, 2))
    outline = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        side = b - a
        length = float(np.hypot(*side)) + 1e-6
        t = (outline - a) @ side / length**2
        rel = outline - a
        dist = np.abs(side[0] * rel[:, 1] - side[1] * rel[:, 0]) / length
        near = outline[(t > 0.15) & (t < 0.85) & (dist < max(2.0, 0.06 * length))]
        lines.append(_line(near) if len(near) >= 5 else _line(np.stack([a, b])))
    refined = []
    for k in range(4):
        p = _meet(lines[k - 1], lines[k])
        if abs(p[2]) < 1e-9:
            return corners
        refined.append(p[:2] / p[2])
    refined = np.array(refined, np.float32)
    if np.abs(refined - corners).max() > 0.25 * np.sqrt(cv2.contourArea(contour)):
        return corners
    return refined


def warp_size(config: VisionConfig = DEFAULT, cells: int = SIZE) -> tuple[int, int]:
    """(side, pad) of the warped city image: 4 cells (or ``cells``) plus a margin of pad
    pixels all round."""
    pad = int(np.ceil(config.cell_px * max(config.tile_margin, -config.corner_span[0])))
    return cells * config.cell_px + 2 * pad, pad


def rescale(points: np.ndarray, factor: float) -> np.ndarray:
    """Points (..., 2) in an image shrunk by ``factor`` -> the same points in the image
    ``factor`` times larger (pixel centres kept); float32."""
    return ((np.asarray(points) + 0.5) * factor - 0.5).astype(np.float32)


def work_copy(image: np.ndarray, config: VisionConfig = DEFAULT) -> tuple[int, np.ndarray]:
    """The image shrunk by the smallest integer factor that brings its long side within
    ``config.work_px``, where every look for a city works: (factor, the shrunk copy)."""
    factor = max(1, -(-max(image.shape[:2]) // config.work_px))
    return factor, shrink(image, factor)


def shrink(image: np.ndarray, factor: int) -> np.ndarray:
    """Area-average by an integer factor (OpenCV's fast path); drops the last odd pixels.

    A point p in the image is at (p + 0.5) / factor - 0.5 in the result.
    """
    if factor <= 1:
        return image
    h, w = image.shape[0] // factor, image.shape[1] // factor
    return cv2.resize(image[:h * factor, :w * factor], (w, h), interpolation=cv2.INTER_AREA)


def warp_quad(image: np.ndarray, corners: np.ndarray, target: np.ndarray, size: int) -> np.ndarray:
    """Warp the quadrilateral ``corners`` of the image onto ``target`` in a (size, size) view.

    corners, target : (4, 2) float32, (x, y).  A large photo is first cut to the region and
    shrunk by area averaging, so the warp never skips pixels (no aliasing at 12 MP).
    """
    return warp_quads(image, [(corners, target)], size)[0]


def warp_quads(image: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]],
               size: int) -> list[np.ndarray]:
    """``warp_quad`` of each (corners, target) pair, (4, 2) each, the photo cut and shrunk
    once for all: views of one city a little shifted, scaled or turned, where shrinking a
    large photo's region took most of each warp's time (9 ms of 10 for a city of 900 px)."""
    pairs = [(np.asarray(c, np.float32), np.asarray(t, np.float32)) for c, t in pairs]
    scale = max(_shrink_scale(corners, target) for corners, target in pairs)
    if scale < 0.75:
        image, pairs = _cut_and_shrunk(image, pairs, size, scale)
    return [cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, target), (size, size),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            for corners, target in pairs]


def _shrink_scale(corners: np.ndarray, target: np.ndarray) -> float:
    """How much a warp of ``corners`` onto ``target`` shrinks the photo, with room to spare
    (1.5 times the target's longest side over the quad's): below 0.75 the photo is shrunk
    first."""
    edge = max(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))
    target_edge = max(np.linalg.norm(target - np.roll(target, 1, axis=0), axis=1))
    return 1.5 * target_edge / max(edge, 1.0)


def _cut_and_shrunk(image: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]], size: int,
                    scale: float) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The part of the image that warps of (corners, target) pairs show, shrunk by ``scale``
    (< 1), and the pairs with their corners in it; the image as it is when that part lies
    wholly off it (the warp then shows its edge pixels, repeated)."""
    h, w = image.shape[:2]
    points = np.concatenate([corners for corners, _ in pairs])
    grow = (points.max(0) - points.min(0)) * 0.35 + 4
    lo, hi = points.min(0) - grow, points.max(0) + grow
    for corners, target in pairs:
        seen = _seen_box(corners, target, size)  # a view reaching further than that margin
        if seen is not None:
            lo, hi = np.minimum(lo, seen[0]), np.maximum(hi, seen[1])
    x0, y0 = np.maximum(lo, 0).astype(int)
    x1, y1 = np.minimum(hi, (w, h)).astype(int)
    if x1 <= x0 or y1 <= y0:
        return image, pairs
    step = max(1, min(int(1 / scale), x1 - x0, y1 - y0))
    image = shrink(image[y0:y1, x0:x1], step)  # a fast integer step first
    ratio = np.float32([1 / step, 1 / step])
    rest = scale * step
    if rest < 0.75:  # then area averaging on what is left, now small
        dims = (max(1, round(image.shape[1] * rest)), max(1, round(image.shape[0] * rest)))
        ratio = ratio * (dims[0] / image.shape[1], dims[1] / image.shape[0])
        image = cv2.resize(image, dims, interpolation=cv2.INTER_AREA)
    return image, [(np.float32((corners - (x0, y0) + 0.5) * ratio - 0.5), target)
                   for corners, target in pairs]


def _seen_box(corners: np.ndarray, target: np.ndarray, size: int) -> np.ndarray | None:
    """The box (2, 2) (top-left, bottom-right) of the image that a (size, size) view warping
    ``corners`` onto ``target`` shows, with a pixel to spare; None when the view reaches past
    the horizon (then no box holds it)."""
    to_image = cv2.getPerspectiveTransform(np.asarray(target, np.float32), corners)
    view = np.float64([[0, 0, 1], [size, 0, 1], [size, size, 1], [0, size, 1]])
    mapped = view @ to_image.T
    if (mapped[:, 2] <= 0).any():
        return None
    points = mapped[:, :2] / mapped[:, 2:]
    return np.array([points.min(0) - 1, points.max(0) + 1])


def turned(points: np.ndarray, angle: float, about) -> np.ndarray:
    """Points (N, 2) turned by ``angle`` radians about the point ``about`` (2,), clockwise as
    seen in an image (y down): (N, 2) float32."""
    c, s = np.cos(angle), np.sin(angle)
    about = np.asarray(about, np.float64)
    return np.float32((np.asarray(points, np.float64) - about) @ np.array([[c, s], [-s, c]])
                      + about)


_CLOCKWISE = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


def turned_back(image: np.ndarray, k: int) -> np.ndarray:
    """An image (H, W, C) that shows its subject turned k quarter turns anticlockwise,
    turned back upright: ``np.rot90(image, -k)``, contiguous, in a fifth of the time (it runs
    on every warped city that lies turned)."""
    k %= 4
    return cv2.rotate(image, _CLOCKWISE[k]) if k else np.ascontiguousarray(image)


def square(offset: float, side: float) -> np.ndarray:
    """(4, 2) float32 corners TL TR BR BL of an axis-aligned square."""
    return np.array([[offset, offset], [offset + side, offset], [offset + side, offset + side],
                     [offset, offset + side]], np.float32)


def warp_city(image: np.ndarray, corners: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Warp the city to a square of 4x4 cells of ``cell_px``, with a margin around it.

    image : (H, W, 3) uint8.  corners : (4, 2) float32, TL TR BR BL of the city in the image.
    Returns (S, S, 3) uint8 with S from :func:`warp_size`.
    """
    side, pad = warp_size(config)
    return warp_quad(image, corners, square(pad, SIZE * config.cell_px), side)


def warp_cities(image: np.ndarray, quads: list[np.ndarray],
                config: VisionConfig = DEFAULT) -> list[np.ndarray]:
    """``warp_city`` of several outlines (4, 2) of one city, a little shifted, scaled or
    turned: the photo cut and shrunk once for all (``warp_quads``)."""
    side, pad = warp_size(config)
    target = square(pad, SIZE * config.cell_px)
    return warp_quads(image, [(quad, target) for quad in quads], side)


def cell_box(warped_side: int, row: int, col: int, lo: float, hi: float,
             config: VisionConfig = DEFAULT) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of cell (row, col) from ``lo`` to ``hi`` in cell units."""
    _, pad = warp_size(config)
    cell = config.cell_px
    x0, y0 = pad + (col + lo) * cell, pad + (row + lo) * cell
    x1, y1 = pad + (col + hi) * cell, pad + (row + hi) * cell
    return int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))


def tile_crops(warped: np.ndarray, config: VisionConfig = DEFAULT, cells: int = SIZE,
               only: np.ndarray | None = None) -> np.ndarray:
    """Every cell with a margin of its neighbours: (16, T, T, 3) uint8, row-major (of a
    warp of ``cells`` x ``cells``: (cells², T, T, 3); ``only`` these row-major cells)."""
    return _crops([warped], config, cells, only, _tile_span(config), config.tile_input)


def corner_crops(warped: np.ndarray, config: VisionConfig = DEFAULT, cells: int = SIZE,
                 only: np.ndarray | None = None) -> np.ndarray:
    """A sharper look at each cell's top-left corner, where the icon is: (16, C, C, 3) uint8
    (of a warp of ``cells`` x ``cells``: (cells², C, C, 3); ``only`` these row-major cells)."""
    return _crops([warped], config, cells, only, config.corner_span, config.corner_input)


def cities_crops(warps: list[np.ndarray], config: VisionConfig = DEFAULT, cells: int = SIZE,
                 only: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``tile_crops`` and ``corner_crops`` of N warped cities at once, city by city:
    (n N, T, T, 3) and (n N, C, C, 3) uint8, n the cells of each (``cells``², or ``only``)."""
    return (_crops(warps, config, cells, only, _tile_span(config), config.tile_input),
            _crops(warps, config, cells, only, config.corner_span, config.corner_input))


def _tile_span(config: VisionConfig) -> tuple[float, float]:
    """A tile crop's part of its cell, in cell units: the cell and a margin all round."""
    return -config.tile_margin, 1 + config.tile_margin


def _crops(warps: list[np.ndarray], config: VisionConfig, cells: int, only: np.ndarray | None,
           span: tuple[float, float], side: int) -> np.ndarray:
    """Each cell's part from ``span[0]`` to ``span[1]`` (in cell units), shrunk to ``side``.

    The parts, all of one size, are stacked into one tall image and shrunk at once: each
    part's rows fall on its own ``side`` rows, so the pixels are those of shrinking the parts
    one by one, in about two thirds of the time for a batch of cities (this runs on every
    cell the reader looks at)."""
    parts = []
    for warped in warps:
        for at in range(cells * cells) if only is None else only:
            x0, y0, x1, y1 = cell_box(len(warped), at // cells, at % cells, *span, config)
            parts.append(warped[y0:y1, x0:x1])
    if len({part.shape for part in parts}) > 1:  # boxes rounded to different sizes
        return np.stack([cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA)
                         for part in parts])
    tall = cv2.resize(np.concatenate(parts), (side, side * len(parts)),
                      interpolation=cv2.INTER_AREA)
    return tall.reshape(len(parts), side, side, *parts[0].shape[2:])


def to_input(batch: np.ndarray) -> np.ndarray:
    """uint8 (N, H, W, 3) RGB -> float32 (N, 3, H, W) centred and scaled, as the models expect:
    (x / 255 - 0.5) / 0.25, in two passes over the batch (it runs on every crop read)."""
    out = np.empty((batch.shape[0], batch.shape[3], *batch.shape[1:3]), np.float32)
    np.multiply(batch.transpose(0, 3, 1, 2), np.float32(4 / 255), out=out, casting="unsafe")
    out -= 2
    return out


def icon_input(corners: np.ndarray) -> np.ndarray:
    """uint8 (N, C, C, 3) RGB icon corners -> float32 (N, 1, C, C): the ink's whiteness (the
    darkest of the three channels: high for white, low for any saturated colour, whatever its
    hue), standardised crop by crop, so a badge printed in another colour or lit by another
    lamp shows the same glyph."""
    ink = corners.min(axis=3).astype(np.float32)
    ink -= ink.mean(axis=(1, 2), keepdims=True)
    ink /= ink.std(axis=(1, 2), keepdims=True) + np.float32(8)
    return ink[:, None]


def finder_view(image: np.ndarray, box: np.ndarray | None, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A square view for the city finder and the matrix back to image coordinates.

    box : (2, 2) float (x0, y0), (x1, y1) region of the image (may reach outside it, which
    reads as black), or None for the whole image.
    Returns view (size, size, 3) uint8 and (3, 3) matrix from view pixels to image pixels.
    """
    h, w = image.shape[:2]
    if box is None:
        x0, y0, x1, y1 = 0, 0, w, h
    else:
        (x0, y0), (x1, y1) = np.round(box).astype(int)
        x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)  # a degenerate box is one pixel
    region = image[max(y0, 0):min(y1, h), max(x0, 0):min(x1, w)]
    region = cv2.copyMakeBorder(region, max(-y0, 0), max(y1 - h, 0), max(-x0, 0), max(x1 - w, 0),
                                cv2.BORDER_CONSTANT, value=(0, 0, 0))
    view = cv2.resize(region, (size, size), interpolation=cv2.INTER_AREA)
    sx, sy = (x1 - x0) / size, (y1 - y0) / size
    back = np.array([[sx, 0, x0 + 0.5 * sx - 0.5], [0, sy, y0 + 0.5 * sy - 0.5], [0, 0, 1]])
    return view, back


def apply_matrix(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a (3, 3) matrix."""
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                    matrix).reshape(-1, 2).astype(np.float32)
