"""Pick the most likely legal city from per-cell probabilities.

A finished city holds exactly two duplex tiles (two adjacent cells printed on one piece,
one of the 24 known pairs) and never more of a building than the game contains.
"""

from __future__ import annotations

import numpy as np

from ..city import BUILDINGS, GAME_SUPPLY, SIZE
from ..duplex import DUPLEX_TILES, domino_cells

INDEX = {b: i for i, b in enumerate(BUILDINGS)}


def _candidates(logp: np.ndarray, best: np.ndarray) -> list[tuple[float, tuple, int]]:
    """(loss versus the free argmax, cells, tile) for every duplex tile on every domino."""
    out = []
    for tile, (layout, first, second) in enumerate(DUPLEX_TILES):
        for a, b in domino_cells(layout):
            loss = logp[a][INDEX[first]] + logp[b][INDEX[second]] - best[a] - best[b]
            out.append((float(loss), (a, b), tile))
    return out


def decode_city(probs: np.ndarray) -> tuple[np.ndarray, list[dict]]:
    """Most likely legal grid.

    probs : (4, 4, 9) float, per-cell probabilities over BUILDINGS (rows upright).
    Returns labels (4, 4) int indices into BUILDINGS and the two duplex tiles used
    (``{"cells": [[r, c], [r, c]], "tile": i}``).
    """
    logp = np.log(np.clip(probs, 1e-9, 1.0))
    best = logp.max(axis=-1)
    labels = logp.argmax(axis=-1)
    cands = sorted(_candidates(logp, best), key=lambda c: -c[0])[:60]
    chosen, top = None, -np.inf
    for i, (loss1, cells1, tile1) in enumerate(cands):
        for loss2, cells2, tile2 in cands[i + 1:]:
            if tile1 != tile2 and not set(cells1) & set(cells2) and loss1 + loss2 > top:
                top, chosen = loss1 + loss2, ((cells1, tile1), (cells2, tile2))
    duplex = []
    fixed = set()
    for cells, tile in chosen or ():
        _, first, second = DUPLEX_TILES[tile]
        labels[cells[0]], labels[cells[1]] = INDEX[first], INDEX[second]
        fixed |= set(cells)
        duplex.append({"cells": [list(c) for c in cells], "tile": tile})
    _respect_supply(labels, logp, fixed)
    return labels, duplex


def _respect_supply(labels: np.ndarray, logp: np.ndarray, fixed: set) -> None:
    """Move the least likely excess cells of an over-supplied building to their next best."""
    for _ in range(SIZE * SIZE):
        counts = np.bincount(labels.ravel(), minlength=len(BUILDINGS))
        over = [i for i, b in enumerate(BUILDINGS) if counts[i] > GAME_SUPPLY[b]]
        if not over:
            return
        cells = [c for c in zip(*np.nonzero(labels == over[0]), strict=True) if c not in fixed]
        worst = min(cells, key=lambda c: logp[c][over[0]])
        order = np.argsort(-logp[worst])
        labels[worst] = next(k for k in order if counts[k] < GAME_SUPPLY[BUILDINGS[k]])
