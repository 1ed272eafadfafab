"""Decoding phone photos, and the plain errors for everything else."""

import io

import numpy as np
import pytest
from PIL import Image

from scorer.errors import ImageError
from scorer.vision.image_io import decode_photo


def encode(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def test_jpeg_exif_orientation_is_honoured():
    wide = Image.new("RGB", (60, 20), (200, 10, 10))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees when shown
    decoded = decode_photo(encode(wide, "JPEG", exif=exif))
    assert decoded.shape == (60, 20, 3)


@pytest.mark.parametrize("fmt", ["PNG", "WEBP", "JPEG"])
def test_common_formats_decode_to_rgb(fmt):
    image = Image.new("RGB", (32, 24), (10, 200, 30))
    decoded = decode_photo(encode(image, fmt, **({"lossless": True} if fmt == "WEBP" else {})))
    assert decoded.shape == (24, 32, 3)
    assert decoded[12, 16, 1] > 150 and decoded[12, 16, 0] < 60  # RGB order, not BGR


def test_heic_decodes():
    pillow_heif = pytest.importorskip("pillow_heif")
    if not pillow_heif.libheif_info().get("HEIF"):
        pytest.skip("this libheif build has no HEVC encoder to make a test file")
    pillow_heif.register_heif_opener()
    image = Image.new("RGB", (64, 48), (20, 30, 220))
    decoded = decode_photo(encode(image, "HEIF", quality=90))
    assert decoded.shape == (48, 64, 3) and decoded[24, 32, 2] > 150


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        (b"hello, this is a text file", "not an image"),
        (encode(Image.new("RGB", (40, 40)), "JPEG")[:200], "damaged"),
    ],
    ids=["zero-bytes", "not-an-image", "truncated-jpeg"],
)
def test_bad_files_get_plain_errors(data, message):
    with pytest.raises(ImageError, match=message):
        decode_photo(data)


def test_huge_image_is_refused_before_decoding():
    data = encode(Image.new("1", (20000, 20000)), "PNG")
    with pytest.raises(ImageError, match="photos up to 50 MP"):
        decode_photo(data)


def test_oversized_file_is_refused():
    with pytest.raises(ImageError, match="larger than"):
        decode_photo(np.zeros(41_000_000, np.uint8).tobytes())
