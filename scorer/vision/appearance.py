"""A printing's own pictures, learned from the cells the players labelled.

Every tile of a building carries one picture in a printing (the taverns may share one and
differ by the icon). The tile model's features are what it learned to tell the buildings
apart in the printing it was trained on; in another printing two buildings can read alike
to it (edition G's offices as its shops). The picture itself does not: a small, blurred
copy of a cell's middle, compared with those of the cells the players labelled, tells
which of their buildings it shows, in their printing, whatever the model makes of it.

A cell's look (``looks``) is its middle (``config.look_span`` of the cell, away from the
gaps and the neighbours) in ``look_px`` squares a side, in Lab, each channel less its mean,
of unit length: alike pictures have a look product near 1 whatever the light's strength,
unlike ones near 0 or below. ``vote`` compares the cells read with the players' cells: a cell whose
picture is clearly most like those of one building (``look_sure``, and ahead of the next
building by ``look_margin``) is read as that building as much as that is clear; the
tavern kinds count as one building (the icon tells the kind: the model's answer splits it).
A picture *plainly* like one building's (``look_plain``) may overrule a model sure of another.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import DEFAULT, AdaptConfig, VisionConfig


def look_values(config: VisionConfig = DEFAULT) -> int:
    """How many numbers a cell's look is: look_px² squares of three channels."""
    return 3 * config.look_px ** 2


def looks(tiles: np.ndarray, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Each cell's look (N, A) float32 from its tile crop (N, T, T, 3) uint8 RGB (the
    classifier's tile view: the cell and ``tile_margin`` of a cell all round)."""
    n, side = len(tiles), tiles.shape[1]
    if not n:
        return np.zeros((0, look_values(config)), np.float32)
    span = 1 + 2 * config.tile_margin  # the crop, in cells
    lo, hi = (int(round((edge + config.tile_margin) / span * side)) for edge in config.look_span)
    middle = np.ascontiguousarray(tiles[:, lo:hi, lo:hi]).reshape(n * (hi - lo), hi - lo, 3)
    px = config.look_px
    small = cv2.resize(middle, (px, n * px), interpolation=cv2.INTER_AREA)  # one strip
    lab = cv2.cvtColor(small.astype(np.float32) / 255, cv2.COLOR_RGB2LAB).reshape(n, px * px, 3)
    lab -= lab.mean(axis=1, keepdims=True)
    flat = lab.reshape(n, -1)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)


def vote(cells: np.ndarray, references: np.ndarray, groups: np.ndarray,
         config: AdaptConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which building group each cell's picture is most like, and how clearly.

    cells (N, A) and references (M, A): looks (``looks``); groups (M,) the references'
    building groups (int, the tavern kinds one group). Returns the group (N,) of the
    closest reference, the trust (N,) in [0, 1]: ramps from ``look_sure`` to
    ``look_sure_full`` of the closest's look product, times a ramp of its lead over the
    closest reference of another group from ``look_margin`` to ``look_margin_full``; and
    whether the picture is plainly that group's (N,) bool: ``look_plain`` alike and
    ``look_plain_margin`` ahead, enough to overrule a model sure of another building."""
    alike = cells @ references.T  # (N, M)
    best = alike.argmax(axis=1)
    near = alike[np.arange(len(cells)), best]
    other = np.where(groups[None, :] != groups[best][:, None], alike, -1.0).max(axis=1, initial=-1.0)
    trust = _ramp(near, config.look_sure, config.look_sure_full) * _ramp(
        near - other, config.look_margin, config.look_margin_full)
    plain = (near >= config.look_plain) & (near - other >= config.look_plain_margin)
    return groups[best], config.look_strength * trust, plain


def _ramp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.clip((x - lo) / (hi - lo), 0.0, 1.0)
