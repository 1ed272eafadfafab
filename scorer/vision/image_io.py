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


def decode_photo(data: bytes, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Decode an encoded photo to (H, W, 3) uint8 RGB, upright as the phone showed it."""
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
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)  # applies EXIF
    if image is None:
        raise ImageError(f"the {kind} file is damaged and cannot be decoded")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def read_photo(path: str, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Read and decode a photo file; see :func:`decode_photo`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(config.max_bytes + 1)
    except OSError as error:
        raise ImageError(f"cannot read {path} ({error.strerror})") from None
    return decode_photo(data, config)
