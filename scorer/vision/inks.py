"""A printing's inks, learned from the cells the players labelled.

Another print run of the game shifts every tile's colours the same way: its inks. A turn of
the hues undoes some of that (``light.Correction``), but not a printing whose colours no
turn reaches. Every tile of a building carries one picture, so once the players have
labelled a city's cells, the colours of each cell can be set beside those of its
building's face in the printing the model knows (the artwork's faces, summed up in the
anchors file as ``face_colours``). The least-squares colour map from the one to the other,
an affine map of the three channels, is the printing's inks: applied to a new photo, its
tiles take the colours the model learned, and the shipped model reads them.

Each cell is summed up by the mean colours of a grid over its middle (``config.ink_grid``
squares a side, over ``config.ink_span`` of the cell, away from the frame and the gaps),
after the city's own grey balance (a lamp's colour is the light's, not the printing's).
A duplex half or a printed tavern with a picture of its own does not match its building's
face: the cells the map fits worst are left out and the map fitted again.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..city import SIZE
from .config import DEFAULT, AdaptConfig, VisionConfig
from .geometry import warp_size


def face_colours(face: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """The grid of mean colours (G * G, 3) float32 of one upright tile face (h, w, 3) uint8
    RGB (or of one cell of a warped city)."""
    h, w = face.shape[:2]
    lo, hi = config.ink_span
    middle = face[int(lo * h):int(np.ceil(hi * h)), int(lo * w):int(np.ceil(hi * w))]
    grid = config.ink_grid
    return cv2.resize(middle.astype(np.float32), (grid, grid),
                      interpolation=cv2.INTER_AREA).reshape(grid * grid, 3)


def cell_colours(upright: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """``face_colours`` of every cell (16, G * G, 3) float32, row-major, of an upright
    warped city (S, S, 3) uint8 RGB as taken, balanced grey over its sixteen cells (the
    squares' means scaled so that the city's three channels have the same mean). From
    one integral image: a few tenths of a millisecond a city."""
    _, pad = warp_size(config)
    cell, grid = config.cell_px, config.ink_grid
    city = upright[pad:pad + SIZE * cell, pad:pad + SIZE * cell]
    total = cv2.integral(city).astype(np.float64)  # (4 cell + 1, 4 cell + 1, 3)
    lo, hi = config.ink_span
    edges = np.round((lo + (hi - lo) * np.arange(grid + 1) / grid) * cell).astype(int)
    starts = (np.arange(SIZE)[:, None] * cell + edges[None, :]).ravel()  # (SIZE (G + 1),)
    at = starts.reshape(SIZE, grid + 1)
    y0, y1 = at[:, :-1].ravel(), at[:, 1:].ravel()  # (SIZE G,) the squares' rows, cell by cell
    sums = (total[y1][:, y1] - total[y0][:, y1] - total[y1][:, y0] + total[y0][:, y0])
    # (SIZE G, SIZE G, 3): rows (cell row, square row), columns (cell col, square col)
    sides = (y1 - y0).astype(np.float64)
    means = sums / (sides[:, None] * sides[None, :])[..., None]
    means = means.reshape(SIZE, grid, SIZE, grid, 3).transpose(0, 2, 1, 3, 4)
    means = means.reshape(SIZE * SIZE, grid * grid, 3)
    overall = city.reshape(-1, 3).mean(axis=0)
    return (means * (overall.mean() / np.maximum(overall, 1.0))).astype(np.float32)


def fit_inks(colours: np.ndarray, labels: np.ndarray, faces: np.ndarray,
             config: AdaptConfig) -> np.ndarray | None:
    """The affine colour map (4, 3) that takes the labelled cells' colours to their
    buildings' faces, or None when too few cells of too few buildings are labelled to
    tell a printing's inks from a few buildings' colours.

    colours : (N, G * G, 3) ``cell_colours`` of labelled cells; labels (N,) their building
    indices into faces (B, G * G, 3), ``face_colours`` of each building's face. Fitted by
    least squares ``config.inks_rounds`` times, each time without the samples fitted
    worst (all but ``config.inks_keep`` of them). The map takes [r, g, b, 255] rows to
    [r, g, b].
    """
    if len(labels) < config.inks_min_cells or \
            len(np.unique(labels)) < config.inks_min_buildings:
        return None
    taken = np.concatenate([colours.reshape(-1, 3), np.full((colours.size // 3, 1), 255.0)],
                           axis=1)
    wanted = faces[labels].reshape(-1, 3)
    keep = np.ones(len(taken), bool)
    for _ in range(config.inks_rounds):
        inks = _least_squares(taken[keep], wanted[keep])
        misfit = np.linalg.norm(taken @ inks - wanted, axis=1)
        keep = misfit <= np.quantile(misfit, config.inks_keep)
    return inks.astype(np.float32)


def _least_squares(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x minimising |a x - b| for a (N, 4), b (N, 3), by the normal equations (einsum, not
    BLAS: see ``adaptation._cosines``), a little ridge keeping them solvable."""
    gram = np.einsum("ni,nj->ij", a, a) + 1e-3 * np.eye(a.shape[1])
    return np.linalg.solve(gram, np.einsum("ni,nj->ij", a, b))


def apply_inks(image: np.ndarray, inks: np.ndarray) -> np.ndarray:
    """``image`` (H, W, 3) uint8 RGB through the colour map (4, 3) of ``fit_inks``."""
    matrix = np.concatenate([inks[:3].T, 255 * inks[3:].T], axis=1)  # (3, 4) for OpenCV
    return cv2.transform(image, matrix.astype(np.float32))  # (saturates to uint8)
