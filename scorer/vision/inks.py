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
squares a side, over ``config.ink_span`` of the cell, away from the frame and the gaps), kept
as taken with its city's mean colour. The map is fitted, and applied, to colours put on one
grey level (``levelled``): each channel scaled so that the city's mean is
``config.ink_level``. That undoes the lamp's colour (the light's, not the printing's) and the
photo's brightness: cities of two photos, each only balanced grey, lay on levels 89 and 137
(edition I), and a map fitted to both fitted neither. A duplex half or a printed tavern with
a picture of its own does not match its building's face: the cells the map fits worst are
left out and the map fitted again.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..city import SIZE
from .config import DEFAULT, AdaptConfig, VisionConfig
from .geometry import warp_size


def colour_values(config: VisionConfig = DEFAULT) -> int:
    """How many numbers a cell's colours are: G * G squares and its city's mean, of three
    channels."""
    return 3 * (config.ink_grid ** 2 + 1)


def old_colour_values(config: VisionConfig = DEFAULT) -> int:
    """How many numbers a cell's colours were when stored before 2026-12-06: its squares
    balanced grey, on its photo's own level (no city's mean to level them by: such cells
    teach no inks)."""
    return 3 * config.ink_grid ** 2


def face_colours(face: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """The grid of mean colours (G * G, 3) float32 of one upright square tile face
    (s, s, 3) uint8 RGB."""
    return _grid_means(cv2.integral(face), 1, face.shape[0] / 1, config)[0].astype(np.float32)


def cell_colours(upright: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Every cell's colours (16, G * G + 1, 3) float32, row-major, of an upright warped city
    (S, S, 3) uint8 RGB as taken: its ``face_colours``, then the city's mean colour over its
    sixteen cells (the same for all; see ``levelled``). From one integral image."""
    _, pad = warp_size(config)
    side = SIZE * config.cell_px
    total = cv2.integral(upright[pad:pad + side, pad:pad + side])  # (side + 1, side + 1, 3)
    overall = total[-1, -1] / side ** 2  # (3,) the city's mean colour
    means = _grid_means(total, SIZE, config.cell_px, config)
    city = np.broadcast_to(overall, (len(means), 1, 3))
    return np.concatenate([means, city], axis=1).astype(np.float32)


def levelled(colours: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Cells' colours (N, G * G + 1, 3) (``cell_colours``) put on one grey level: each
    square's channels scaled so that its city's mean is ``config.ink_level`` in each, as
    ``light.grey_world_gains(..., level)`` does to a photo. Returns (N, G * G, 3)."""
    return colours[:, :-1] * (config.ink_level / np.maximum(colours[:, -1:], 1.0))


def _grid_means(total: np.ndarray, cells: int, cell: float, config: VisionConfig) -> np.ndarray:
    """The mean colours (cells², G * G, 3) float64 of each cell's grid of squares (G a side,
    over ``config.ink_span`` of the cell), row-major, of a square of cells x cells cells
    of ``cell`` pixels, from its integral image ``total`` (cv2.integral: (n + 1, n + 1, 3))."""
    grid, (lo, hi) = config.ink_grid, config.ink_span
    edges = np.round((np.arange(cells)[:, None] + lo + (hi - lo) * np.arange(grid + 1) / grid)
                     * cell).astype(int)  # (cells, G + 1) each cell's squares' edges
    a, b = edges[:, :-1].ravel(), edges[:, 1:].ravel()  # (cells G,) starts and ends
    total = total.astype(np.float64)
    sums = total[b][:, b] - total[a][:, b] - total[b][:, a] + total[a][:, a]
    # (cells G, cells G, 3): rows (cell row, square row), columns (cell col, square col)
    means = sums / ((b - a)[:, None] * (b - a)[None, :])[..., None]
    return means.reshape(cells, grid, cells, grid, 3).transpose(0, 2, 1, 3, 4).reshape(
        cells * cells, grid * grid, 3)


def fit_inks(colours: np.ndarray, labels: np.ndarray, faces: np.ndarray,
             config: AdaptConfig) -> np.ndarray | None:
    """The affine colour map (4, 3) that takes the labelled cells' colours to their
    buildings' faces, or None when too few cells of too few buildings are labelled to
    tell a printing's inks from a few buildings' colours.

    colours : (N, G * G, 3) ``levelled`` colours of labelled cells; labels (N,) their building
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
