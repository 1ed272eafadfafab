"""A photo's colours corrected: what a warm lamp does to the tiles, and what a printing with
other inks does to them, undone."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .inks import apply_inks


@dataclass(frozen=True)
class Correction:
    """What a reading undoes of a photo's colours: ``gains`` (3,) on its colour channels
    (the colour of the light, see ``grey_world_gains``), then every hue turned by
    ``hue_turn`` degrees (a printing whose inks differ from those the classifier learned:
    its orange taverns read as the yellow shops of the printing the model knows), or the
    players' printing's ``inks`` (4, 3) learned from their cells (see ``vision.inks``)."""

    gains: np.ndarray
    hue_turn: float = 0.0
    inks: np.ndarray | None = None

    def __call__(self, image: np.ndarray) -> np.ndarray:
        """``image`` (H, W, 3) uint8 RGB corrected."""
        image = balanced(image, self.gains)
        if self.inks is not None:
            image = apply_inks(image, self.inks)
        return turned_hue(image, self.hue_turn)


def grey_world_gains(image: np.ndarray, region: np.ndarray | None = None,
                     level: float | None = None) -> np.ndarray:
    """Gains (3,) float32 that give the three colour channels of ``image`` (H, W, 3) uint8
    the same mean: over the whole photo, or over ``region`` (4, 2), a city's outline in the
    image's pixels. With ``level``, that mean is ``level`` (the photo's brightness undone
    too: see ``inks.levelled``), else the channels' mean as taken.

    A desk lamp lights the table orange and the camera's white balance leaves much of it in
    the photo; the tiles' colours then lie where the classifier never saw them (the training
    renderer's light is a studio's). A city's sixteen tiles of several buildings average
    near grey under white light, so the gains that make its own outline grey undo the lamp;
    those of the whole photo weigh the table's cloth instead (a red gingham turns the tiles
    blue).
    """
    means = None
    if region is not None:  # the pixels inside it, in its bounding box
        corners = np.round(region).astype(np.int32)
        x0, y0 = np.clip(corners.min(axis=0), 0, None)
        box = image[y0:corners[:, 1].max() + 1, x0:corners[:, 0].max() + 1]
        mask = np.zeros(box.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, corners - (x0, y0), 1)
        if mask.any():
            means = np.float64(cv2.mean(box, mask)[:3])  # (a tenth of numpy's time)
    if means is None:
        means = np.float64(cv2.mean(image)[:3])
    return ((level or means.mean()) / np.maximum(means, 1.0)).astype(np.float32)


def balanced(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (H, W, 3) uint8 with each colour channel scaled by ``gains`` (3,), clipped
    and cut to whole levels: one lookup table a channel (a tenth of the time of a float copy
    on a 12 MP photo)."""
    levels = np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)
    return cv2.LUT(image, np.clip(levels, 0, 255).astype(np.uint8)[:, None, :])


def turned_hue(image: np.ndarray, degrees: float) -> np.ndarray:
    """``image`` (H, W, 3) uint8 RGB with every colour's hue turned by ``degrees`` (to the
    nearest 2, OpenCV's hue step), its lightness and saturation kept."""
    return turned_hues(image, [degrees])[0]


def turned_hues(image: np.ndarray, turns) -> list[np.ndarray]:
    """``turned_hue`` of ``image`` by each of ``turns`` (degrees), converted to hues once."""
    steps = [int(round(degrees / 2)) % 180 for degrees in turns]
    if not any(steps):
        return [image for _ in steps]
    hue, saturation, value = cv2.split(cv2.cvtColor(image, cv2.COLOR_RGB2HSV))
    shades = np.arange(256)
    return [image if not step else cv2.cvtColor(cv2.merge(
        [cv2.LUT(hue, ((shades + step) % 180).astype(np.uint8)), saturation, value]),
        cv2.COLOR_HSV2RGB) for step in steps]  # (OpenCV's hues run 0..179)
