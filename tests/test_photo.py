"""scorer.photo: bytes to a photo at the size the reading needs."""

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image

from scorer.errors import ImageError
from scorer.photo import DecodeBudget, open_photo
from scorer.vision import light
from scorer.vision.config import DEFAULT


def jpeg(size) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 120, 40)).save(out, "JPEG")
    return out.getvalue()


def test_a_small_photo_is_decoded_whole():
    photo = open_photo(jpeg((800, 600)), DEFAULT)
    assert photo.scale == 1 and photo.image.shape == (600, 800, 3) and photo.data is None
    assert photo.size == (800, 600) and photo.decode_ms > 0


def test_a_large_jpeg_is_decoded_at_half_size_until_the_full_size_is_asked_for():
    config = dataclasses.replace(DEFAULT, reduced_decode_pixels=1_000_000)
    photo = open_photo(jpeg((1600, 1200)), config)
    assert photo.scale == 2 and photo.image.shape == (600, 800, 3) and photo.size == (1600, 1200)
    full = photo.at_full_size(config)
    assert full.scale == 1 and full.image.shape == (1200, 1600, 3)
    assert full.at_full_size(config) is full


def test_an_upload_is_decoded_small_and_kept_at_most_max_side():
    photo = open_photo(jpeg((4000, 3000)), DEFAULT, max_side=2000)
    assert photo.scale == 1 and photo.image.shape == (1500, 2000, 3)
    png = io.BytesIO()
    Image.new("RGB", (3000, 1000)).save(png, "PNG")
    assert open_photo(png.getvalue(), DEFAULT, max_side=2000).image.shape == (667, 2000, 3)


def test_the_photo_as_jpeg_is_what_was_decoded():
    photo = open_photo(jpeg((320, 240)), DEFAULT)
    again = open_photo(photo.jpeg(), DEFAULT)
    assert again.image.shape == photo.image.shape
    assert np.abs(again.image.astype(int) - photo.image).mean() < 3


def test_the_budget_is_used_for_decoding():
    with pytest.raises(ImageError, match="too large to decode here"):
        open_photo(jpeg((4000, 3000)), DEFAULT, max_side=2000, budget=DecodeBudget(1000))


def test_a_photo_decoded_smaller_for_the_budget_knows_its_scale():
    photo = open_photo(jpeg((4000, 3000)), DEFAULT, budget=DecodeBudget(1000 * 750 * 6))
    assert photo.image.shape == (750, 1000, 3) and photo.scale == 4
    assert photo.size == (4000, 3000)


def test_a_photo_white_balanced_stays_balanced_at_full_size():
    """The grey-world balance of an orange photo (a lamp's) is grey, at half size and at the
    full size decoded later; the photo as taken is left as it was."""
    config = dataclasses.replace(DEFAULT, reduced_decode_pixels=1_000_000)
    photo = open_photo(jpeg((1600, 1200)), config)
    balanced = photo.corrected(light.Correction(light.grey_world_gains(photo.image)))
    assert not balanced.as_taken and photo.as_taken
    assert np.ptp(photo.image.reshape(-1, 3).mean(0)) > 100  # (200, 120, 40): orange
    for image in (balanced.image, balanced.at_full_size(config).image):
        assert np.ptp(image.reshape(-1, 3).mean(0)) < 3
    assert not balanced.at_full_size(config).as_taken and balanced.size == photo.size


def test_a_city_s_own_grey_balance_ignores_the_cloth_around_it():
    """Under an orange light, a grey square on a red cloth: the gains that make the square's
    outline grey on average make it grey; those of the whole photo turn it blue."""
    image = np.zeros((100, 100, 3), np.uint8)
    image[:] = (220, 60, 40)  # the red cloth, lit orange
    image[30:70, 30:70] = (180, 140, 90)  # grey tiles, lit orange
    square = np.float32([[30, 30], [69, 30], [69, 69], [30, 69]])
    own = light.balanced(image, light.grey_world_gains(image, square))[50, 50]
    whole = light.balanced(image, light.grey_world_gains(image))[50, 50]
    assert np.ptp(own) <= 2
    assert whole[2] > whole[0] + 50
