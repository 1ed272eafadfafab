"""Where the lattice of a city's tiles lies near a rough outline of it (pure array functions).

A city is a 4x4 block of square tiles, and the gaps and cardboard edges between them repeat
once a cell across it, whatever the tiles show and whatever cloth lies around them. An outline
found some other way (a region standing out from the table, see ``search.standouts``) may be
a cell off, too large or turned a little; warped square, the brightness edges across it
still repeat, and the period and phase of that repeat bring the cells near the tiles (within
half a cell: the tiles' own pictures repeat once a cell too). The reader then chooses between
the block found and those a cell away by reading them, and centres the one it keeps.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import geometry
from .config import VisionConfig
from .geometry import SIZE


def squared(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A square as large as the region ``quad`` (4, 2) and centred on it, turned to the edges
    inside it: (4, 2) float32 clockwise, in ``image``'s pixels.

    A city's tile edges and gaps run two ways a quarter turn apart, so the direction that
    the brightness edges inside the region share (their angle taken four times over, a
    quarter turn being no turn) is the city's, whatever outline the region has.
    """
    corners = np.int32(np.round(quad))
    h, w = image.shape[:2]  # the region's box, a pixel wider for the edges at its border
    x0, y0 = np.clip(corners.min(0) - 1, 0, (w, h))
    x1, y1 = np.clip(corners.max(0) + 2, 0, (w, h))
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_RGB2GRAY).astype(np.float32)
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inside, corners - (x0, y0), 1)
    inside = inside.astype(bool)
    dx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)[inside]
    dy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)[inside]
    turn = float(np.angle((np.hypot(dx, dy) * np.exp(4j * np.arctan2(dy, dx))).sum())) / 4
    half = np.sqrt(max(cv2.contourArea(np.float32(quad)), 1.0)) / 2
    centre = np.float32(quad).mean(0)
    square = geometry.square(0, 2 * half) + (centre - half)
    return geometry.order_clockwise(geometry.turned(square, turn, centre))


def blocks_near(image: np.ndarray, quad: np.ndarray, config: VisionConfig) -> list[np.ndarray]:
    """``blocks`` around a square as large as the region ``quad`` (4, 2), turned to the edges
    inside it (``squared``): a region of any outline put on its tiles' lattice."""
    return blocks(image, squared(image, quad), config)


def blocks(image: np.ndarray, quad: np.ndarray, config: VisionConfig) -> list[np.ndarray]:
    """4x4-cell blocks on the tile lattice near ``quad`` (4, 2), in ``image``'s pixels: the
    block nearest the outline's centre, then the eight a cell away from it. Each (4, 2)
    float32, clockwise.

    The outline is warped square with a cell of margin all round, turned a little each way
    (``snap_turns``, degrees); the turn whose edges repeat most strongly gives the lattice:
    along each side, the period (a cell, between ``snap_periods`` times the outline's) and
    the phase of the summed edge strength across it.
    """
    quad = geometry.order_clockwise(quad)
    px = config.snap_px
    side = (SIZE + 2) * px
    target = geometry.square(px, SIZE * px)
    centre = quad.mean(0)
    inner = slice(px * 3 // 2, side - px * 3 // 2)  # across the middle of the city
    at = np.arange(side, dtype=np.float32)
    periods = np.arange(config.snap_periods[0] * px, config.snap_periods[1] * px, px / 96)
    waves = np.exp(-2j * np.pi * at[None] / periods[:, None])  # (periods, side)
    best = None
    for turn in config.snap_turns:
        to_view = cv2.getPerspectiveTransform(geometry.turned(quad, np.deg2rad(turn), centre),
                                              target)
        view = cv2.warpPerspective(image, to_view, (side, side), flags=cv2.INTER_AREA)
        grey = cv2.cvtColor(view, cv2.COLOR_RGB2GRAY).astype(np.float32)
        edges = (np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0))[inner].sum(0),
                 np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))[:, inner].sum(1))
        strength, lattice = 0.0, []
        for profile in edges:
            waves_seen = np.einsum("ps,s->p", waves, profile - profile.mean())  # not BLAS:
            # its worker threads keep spinning after a product and slow the models run next
            k = int(np.argmax(np.abs(waves_seen)))
            period, wave = periods[k], waves_seen[k]
            strength += float(abs(wave))
            phase = (-np.angle(wave) / (2 * np.pi)) % 1 * period  # an edge at phase + n period
            lattice.append((phase + np.round((side / 2 - 2 * period - phase) / period) * period,
                            period))
        if best is None or strength > best[0]:
            best = (strength, lattice, np.linalg.inv(to_view))
    _, ((x0, wide), (y0, high)), back = best
    shifts = [(0, 0)] + [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    return [geometry.apply_matrix(np.float32([[x, y], [x + SIZE * wide, y],
                                              [x + SIZE * wide, y + SIZE * high],
                                              [x, y + SIZE * high]]), back)
            for x, y in ((x0 + dx * wide, y0 + dy * high) for dx, dy in shifts)]
