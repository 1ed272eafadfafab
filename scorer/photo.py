"""A photo as the reader takes it: the file's bytes, decoded at the size the reading needs.

Decoding checks the header first (every format) and reserves its memory in a budget when
one is given, so a server decodes no more at once than it can hold.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .vision import geometry, light
from .vision.config import VisionConfig
from .vision.image_io import (
    DecodeBudget,
    decode_photo,
    encode_image,
    fit_within,
    is_large_jpeg,
    photo_size,
)

__all__ = ["DecodeBudget", "Photo", "cell_png", "open_photo"]


@dataclass
class Photo:
    """A decoded photo.

    image : (H, W, 3) uint8 RGB, upright as the phone showed it
    scale : pixels of the photo at full size per pixel of ``image`` (2 after a half-size
        decode, then ``data`` is kept so the full size can be decoded when it is needed)
    correction : ``image`` is the photo with its colours corrected so (``corrected``), not
        as taken; None as taken
    """

    image: np.ndarray
    scale: int = 1
    data: bytes | None = None
    decode_ms: float = 0.0
    correction: light.Correction | None = None

    @property
    def as_taken(self) -> bool:
        """The image has the photo's colours as taken, not corrected."""
        return self.correction is None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in full-size pixels."""
        return self.image.shape[1] * self.scale, self.image.shape[0] * self.scale

    def at_full_size(self, config: VisionConfig) -> Photo:
        """The same photo decoded at full size (itself when it already is)."""
        if self.scale == 1 or self.data is None:
            return self
        t0 = time.perf_counter()
        image = decode_photo(self.data, config)
        image = image if self.as_taken else self.correction(image)
        return Photo(image, 1, None, self.decode_ms + (time.perf_counter() - t0) * 1000,
                     self.correction)

    def corrected(self, correction: light.Correction) -> Photo:
        """The photo with its colours corrected (see ``light.Correction``)."""
        return Photo(correction(self.image), self.scale, self.data, self.decode_ms, correction)

    def jpeg(self, quality: int = 88) -> bytes:
        """The photo as a JPEG file, as decoded (for keeping it)."""
        return encode_image(self.image, ".jpg", quality)


def open_photo(data: bytes, config: VisionConfig, max_side: int | None = None,
               budget: DecodeBudget | None = None) -> Photo:
    """Decode a photo file's bytes (ImageError when they are not a photo this app reads).

    max_side : None reads for the best result: a large JPEG is decoded at half size (about
    half the time), the full size only if the city's cells turn out too small in it. Given,
    the photo is decoded as small as it can be (a JPEG directly at 1/2, 1/4 or 1/8 size) and
    shrunk to at most ``max_side`` pixels; that image is then the photo (a web upload).
    budget : the decoded size is reserved in it first (waits its turn, or is refused).
    """
    t0 = time.perf_counter()
    if max_side is not None:
        image = fit_within(decode_photo(data, config, max_side=max_side, budget=budget), max_side)
        return Photo(image, 1, None, (time.perf_counter() - t0) * 1000)
    image = decode_photo(data, config, reduce=2 if is_large_jpeg(data, config) else 1,
                         budget=budget)
    scale = round(max(photo_size(data, config)[1:]) / max(image.shape[:2]))  # (the budget may
    return Photo(image, scale, data if scale > 1 else None,  # ask for a smaller decode)
                 (time.perf_counter() - t0) * 1000)


def cell_png(warped_jpeg: bytes, row: int, col: int, config: VisionConfig) -> bytes | None:
    """One cell of a stored warped city, with a margin, as a PNG file (for a correction);
    None when the stored image cannot be decoded."""
    import cv2

    warped = cv2.imdecode(np.frombuffer(warped_jpeg, np.uint8), cv2.IMREAD_COLOR)
    if warped is None:
        return None
    x0, y0, x1, y1 = geometry.cell_box(len(warped), row, col, *config.correction_span, config)
    return cv2.imencode(".png", warped[max(y0, 0):y1, max(x0, 0):x1])[1].tobytes()
