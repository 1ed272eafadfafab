"""Decoding what phones produce: JPEG (EXIF orientation honoured), PNG, WebP, HEIC, AVIF.

Every format's size is read from its header before any pixel is decoded; an image is refused
when it is too large, too thin to hold a city, or would not fit the decoding budget.
"""

from __future__ import annotations

import io
import threading
from contextlib import contextmanager, nullcontext

import cv2
import numpy as np

from ..errors import DecodeBusy, ImageError
from ..files import UnreadableFile, read_file
from .config import DEFAULT, VisionConfig

HEIC_BRANDS = (b"heic", b"heix", b"hevc", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1")
AVIF_BRANDS = (b"avif", b"avis")
# TODO(reader merge): move into VisionConfig with the other thresholds
BYTES_PER_PIXEL = 6  # decoded RGB plus one working copy (colour conversion)
REDUCTIONS = (8, 4, 2)  # JPEG sizes libjpeg can decode directly


class DecodeBudget:
    """The memory all photos being decoded at once may take (bytes), shared by threads.

    A photo reserves its decoded size before decoding and waits while others use the budget;
    one larger than the whole budget is refused at once.
    """

    def __init__(self, limit_bytes: int, wait_s: float = 30.0):
        self.limit = limit_bytes
        self.wait_s = wait_s
        self._used = 0
        self._free = threading.Condition()

    @contextmanager
    def reserve(self, nbytes: int):
        if nbytes > self.limit:
            raise ImageError(f"the image is too large to decode here (the limit is "
                             f"{self.limit // BYTES_PER_PIXEL // 1_000_000} MP): take it at a "
                             "lower resolution, or send it as a JPEG")
        with self._free:
            if not self._free.wait_for(lambda: self._used + nbytes <= self.limit, self.wait_s):
                raise DecodeBusy("the server is busy reading other photos; try again")
            self._used += nbytes
        try:
            yield
        finally:
            with self._free:
                self._used -= nbytes
                self._free.notify_all()


def _format(data: bytes) -> str | None:
    """The image format from its first bytes, or None for anything else."""
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[4:8] == b"ftyp" and data[8:12] in AVIF_BRANDS:
        return "AVIF"
    if data[4:8] == b"ftyp" and data[8:12] in HEIC_BRANDS:
        return "HEIC"
    return None


def _chunks_fit(data: bytes) -> bool:
    """Every PNG chunk lies inside the file (OpenCV spends seconds on a forged length)."""
    at = 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        if data[at + 4:at + 8] == b"IEND":
            return True
        at += 12 + length
    return at <= len(data)


def _open(data: bytes):
    """A PIL image of ``data`` with only its header read (HEIC through pillow-heif)."""
    from PIL import Image

    if _format(data) == "HEIC":
        import pillow_heif

        pillow_heif.register_heif_opener()
    return Image.open(io.BytesIO(data))


def photo_size(data: bytes, config: VisionConfig = DEFAULT) -> tuple[str, int, int]:
    """(format, width, height) from the header alone; ImageError for anything unreadable,
    too large or too thin (as stored: EXIF orientation is applied later)."""
    from PIL import Image

    if not data:
        raise ImageError("the file is empty")
    if len(data) > config.max_bytes:
        raise ImageError(f"the file is larger than {config.max_bytes // 1_000_000} MB")
    kind = _format(data)
    if kind is None:
        raise ImageError("not an image this app can read (use JPEG, PNG, WebP, HEIC or AVIF)")
    try:
        with _open(data) as im:
            width, height = im.size
    except Image.DecompressionBombError:
        width = height = 1 << 20
    except Exception:  # noqa: BLE001 - PIL raises many types for damaged headers
        raise ImageError(f"the {kind} file is damaged and cannot be decoded") from None
    if width * height > config.max_pixels:
        shown = f"{width}x{height}" if width < 1 << 20 else "far too large"
        raise ImageError(
            f"the image is {shown}; photos up to {config.max_pixels // 1_000_000} MP are accepted")
    if (min(width, height) < config.min_side
            or max(width, height) > config.max_aspect * min(width, height)):
        raise ImageError(f"the image is {width}x{height}, too thin to show a city; "
                         "send a photo of the whole city")
    return kind, width, height


def reduction(size: tuple[int, int], kind: str, max_side: int | None) -> int:
    """The factor a JPEG can be decoded smaller by and keep ``max_side`` px on its long side."""
    if kind != "JPEG" or max_side is None:
        return 1
    return next((r for r in REDUCTIONS if max(size) // r >= max_side), 1)


def decode_photo(data: bytes, config: VisionConfig = DEFAULT, reduce: int = 1,
                 max_side: int | None = None, budget: DecodeBudget | None = None) -> np.ndarray:
    """Decode an encoded photo to (H, W, 3) uint8 RGB, upright as the phone showed it.

    reduce : 2 decodes a JPEG at half size with OpenCV's reduced decoding (about half the
    time of a full decode); other formats are always decoded at full size.
    max_side : decode a JPEG as small as libjpeg can while keeping this many pixels on its
    long side (overrides ``reduce``).
    budget : the decoded size is reserved in it first (waits, or refuses a photo too large;
    a JPEG too large for the whole budget is decoded smaller, at 1/2, 1/4 or 1/8 size).
    """
    kind, width, height = photo_size(data, config)
    if max_side is not None:
        reduce = reduction((width, height), kind, max_side)
    reduce = reduce if kind == "JPEG" and reduce in REDUCTIONS else 1
    if kind == "JPEG" and budget is not None:  # too large for the budget: decoded smaller
        reduce = next((r for r in (1, *REDUCTIONS[::-1]) if r >= reduce and
                       _cost(width, height, r) <= budget.limit), reduce)
    with budget.reserve(_cost(width, height, reduce)) if budget is not None else nullcontext():
        if kind in ("HEIC", "AVIF"):
            return _decode_pil(data, kind)
        if kind == "PNG" and not _chunks_fit(data):
            raise ImageError("the PNG file is damaged and cannot be decoded")
        flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                8: cv2.IMREAD_REDUCED_COLOR_8}[reduce]
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)  # applies EXIF orientation
        if image is None:
            raise ImageError(f"the {kind} file is damaged and cannot be decoded")
        return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def _cost(width: int, height: int, reduce: int) -> int:
    """Bytes that decoding a photo of this size, reduced so, takes."""
    return -(-width // reduce) * -(-height // reduce) * BYTES_PER_PIXEL


def _decode_pil(data: bytes, kind: str) -> np.ndarray:
    from PIL import ImageOps

    try:
        with _open(data) as im:
            return np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
    except Exception:  # noqa: BLE001 - libheif and libavif fail in many ways on damaged files
        raise ImageError(f"the {kind} file is damaged and cannot be decoded") from None


def read_bytes(path: str, config: VisionConfig = DEFAULT) -> bytes:
    """A photo file's bytes (at most one byte over the limit, so the limit can be told);
    ImageError, naming the file, for a file that cannot be read."""
    try:
        return read_file(path, config.max_bytes)
    except UnreadableFile as error:
        raise ImageError(str(error)) from None


def read_photo(path: str, config: VisionConfig = DEFAULT) -> np.ndarray:
    """Read and decode a photo file at full size; see :func:`decode_photo`."""
    return decode_photo(read_bytes(path, config), config)


def is_large_jpeg(data: bytes, config: VisionConfig = DEFAULT) -> bool:
    """A JPEG big enough that decoding it at half size is worth trying first."""
    if _format(data) != "JPEG":
        return False
    try:
        _, width, height = photo_size(data, config)
    except ImageError:
        return False
    return width * height >= config.reduced_decode_pixels


def fit_within(image: np.ndarray, side: int) -> np.ndarray:
    """The image shrunk by area averaging so its long side is at most ``side`` pixels.

    image : (H, W, 3) uint8.  Returned unchanged when it already fits.
    """
    scale = side / max(image.shape[:2])
    if scale >= 1:
        return image
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def encode_image(image: np.ndarray, kind: str = ".jpg", quality: int = 88) -> bytes:
    """(H, W, 3) uint8 RGB -> the bytes of a JPEG (``.jpg``) or PNG (``.png``) file."""
    ok, data = cv2.imencode(kind, cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                            [cv2.IMWRITE_JPEG_QUALITY, quality] if kind == ".jpg" else [])
    if not ok:
        raise ImageError(f"the image could not be encoded as {kind}")
    return data.tobytes()
