"""Decoding phone photos, and the plain errors for everything else."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scorer.errors import ImageError
from scorer.vision.image_io import decode_photo

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))


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


@pytest.mark.parametrize("size", [(100000, 1), (4000, 2), (1, 3000), (15, 400), (1300, 100)],
                         ids=["100000x1", "4000x2", "1x3000", "15x400", "13-to-1"])
def test_thin_images_are_refused_from_the_header(size):
    with pytest.raises(ImageError, match="too thin"):
        decode_photo(encode(Image.new("L", size), "PNG"))


def test_avif_decodes_whatever_its_name():
    image = Image.new("RGB", (64, 48), (20, 200, 30))
    decoded = decode_photo(encode(image, "AVIF", quality=90))
    assert decoded.shape == (48, 64, 3) and decoded[24, 32, 1] > 150


def test_damaged_heic_is_a_plain_error():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    data = encode(Image.effect_noise((512, 384), 60).convert("RGB"), "HEIF", quality=90)
    for cut in (3000, len(data) // 2, len(data) - 10):
        with pytest.raises(ImageError, match="damaged"):
            decode_photo(data[:cut])


def test_a_header_bomb_is_refused_before_decoding():
    from fuzz import jpeg_claiming

    with pytest.raises(ImageError, match="photos up to 50 MP"):
        decode_photo(jpeg_claiming(9000, 9000))


def test_large_jpegs_are_decoded_as_small_as_asked():
    data = encode(Image.new("RGB", (4000, 3000), (10, 20, 30)), "JPEG")
    assert decode_photo(data, max_side=2000).shape == (1500, 2000, 3)
    assert decode_photo(data, max_side=900).shape == (750, 1000, 3)
    assert decode_photo(data, max_side=5000).shape == (3000, 4000, 3)


def test_the_decoding_budget_refuses_a_photo_larger_than_itself():
    from scorer.vision.image_io import DecodeBudget

    data = encode(Image.new("RGB", (400, 300)), "PNG")
    with pytest.raises(ImageError, match="too large to decode here"):
        decode_photo(data, budget=DecodeBudget(400 * 300 * 3))
    assert decode_photo(data, budget=DecodeBudget(400 * 300 * 6)).shape == (300, 400, 3)


def test_a_jpeg_larger_than_the_whole_budget_is_decoded_smaller_to_fit_it():
    """A whole-table photo of 12 MP asked at up to 4000 px, with room for 3 MP: read at half
    size rather than refused (a PNG cannot be decoded smaller: it is refused)."""
    from scorer.vision.image_io import DecodeBudget

    budget = DecodeBudget(2000 * 1500 * 6)
    data = encode(Image.new("RGB", (4000, 3000), (10, 20, 30)), "JPEG")
    assert decode_photo(data, max_side=4000, budget=budget).shape == (1500, 2000, 3)
    assert decode_photo(data, budget=budget).shape == (1500, 2000, 3)
    with pytest.raises(ImageError, match="too large to decode here"):
        decode_photo(encode(Image.new("RGB", (4000, 3000)), "PNG"), budget=budget)


def test_the_decoding_budget_makes_photos_wait_their_turn():
    import threading

    from scorer.errors import DecodeBusy
    from scorer.vision.image_io import DecodeBudget

    budget = DecodeBudget(1000, wait_s=0.2)
    with budget.reserve(800):
        with pytest.raises(DecodeBusy):
            with budget.reserve(300):
                pass
        done = []
        waiting = threading.Thread(target=lambda: done.append(budget.reserve(300).__enter__()))
        budget.wait_s = 5
        waiting.start()
    waiting.join(2)
    assert done == [None]


def test_a_png_chunk_longer_than_the_file_is_refused_at_once():
    import time

    data = bytearray(encode(Image.new("RGB", (320, 240), (120, 80, 40)), "PNG"))
    data[33:37] = (4_076_864_212).to_bytes(4, "big")  # the IDAT length (OpenCV took 5-12 s)
    started = time.perf_counter()
    with pytest.raises(ImageError, match="damaged"):
        decode_photo(bytes(data))
    assert time.perf_counter() - started < 1
