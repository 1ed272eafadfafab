"""The colour of a photo's light, taken out: what a warm lamp does to the tiles, undone."""

from __future__ import annotations

import numpy as np


def grey_world(image: np.ndarray) -> np.ndarray:
    """The photo white-balanced by the grey-world rule: each colour channel scaled so that
    the three have the same mean. image (H, W, 3) uint8 -> (H, W, 3) uint8.

    A desk lamp lights the table orange and the camera's white balance leaves much of it in
    the photo; the tiles' colours then lie where the classifier never saw them (the training
    renderer's light is a studio's). Balanced, they come back near their printed colours.
    """
    means = image.reshape(-1, 3).mean(axis=0)
    gains = means.mean() / np.maximum(means, 1.0)
    return np.clip(image * gains.astype(np.float32), 0, 255).astype(np.uint8)
