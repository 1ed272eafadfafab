"""Decoding what phones produce: JPEG (EXIF orientation honoured), PNG, WebP, HEIC."""

from __future__ import annotations

import io

import cv2
import numpy as np

from ..errors import ImageError
from .config import DEFAULT, VisionConfig

HEIC_BRANDS = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1")


def _is_heic(data: bytes) -> bool:
    return data[4:8] == b"ftyp" and data[8:12] in HEIC_BRANDS


def _format(data: bytes) -> str | None:
    """The image format from its first bytes, or None for anything else."""
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if _is_heic(data):
        return "HEIC"
    return None


def _image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header alone, without decoding pixels; None if unreadable."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.size
    except Image.DecompressionBombError:
        return (1 << 20, 1 << 20)
    except Exception:  # noqa: BLE001 - PIL raises many types for damaged headers
        return None


def _decode_heic(data: bytes) -> np.ndarray:
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(ImageOps.exif_transpose(im).convert("RGB"))


def decode_photo(data: bytes, config: VisionConfig = DEFAULT, reduce: int = 1) -> np.ndarray:
    """Decode an encoded photo to (H, W, 3) uint8 RGB, upright as the phone showed it.

    reduce : 2 decodes a JPEG at half size with OpenCV's reduced decoding (about half the
    time of a full decode); other formats are always decoded at full size.
    """
    if not data:
        raise ImageError("the file is empty")
    if len(data) > config.max_bytes:
        raise ImageError(f"the file is larger than {config.max_bytes // 1_000_000} MB")
    kind = _format(data)
    if kind is None:
        raise ImageError("not an image this app can read (use JPEG, PNG, WebP or HEIC)")
    if kind == "HEIC":
        import pillow_heif

        pillow_heif.register_heif_opener()
    size = _image_size(data)
    if size is None:
        raise ImageError(f"the {kind} file is damaged and cannot be decoded")
    if size[0] * size[1] > config.max_pixels:
        shown = f"{size[0]}x{size[1]}" if size[0] < 1 << 20 else "far too large"
        raise ImageError(
            f"the image is {shown}; photos up to {config.max_pixels // 1_000_000} MP are accepted"
        )
    if kind == "HEIC":
        return _decode_heic(data)
    flag = cv2.IMREAD_REDUCED_COLOR_2 if reduce == 2 and kind == "JPEG" else cv2.IMREAD_COLOR
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)  # applies EXIF orientation
    if image is None:
        raise ImageError(f"the {kind} file is damaged and cannot be decoded")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def read_bytes(path: str, config: VisionConfig = DEFAULT) -> bytes:
    """A photo file's bytes (at most one byte over the limit, so the limit can be told)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(config.max_bytes + 1)
    except OSError as error:
        raise ImageError(f"cannot read {path} ({error.strerror})") from None


def read_photo(path: str, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Read and decode a photo file at full size; see :func:`decode_photo`."""
    return decode_photo(read_bytes(path, config), config)


def is_large_jpeg(data: bytes, config: VisionConfig = DEFAULT) -> bool:
    """A JPEG big enough that decoding it at half size is worth trying first."""
    size = _image_size(data) if _format(data) == "JPEG" else None
    return size is not None and size[0] * size[1] >= config.reduced_decode_pixels
