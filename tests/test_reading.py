"""Golden photo cases: every committed fixture is read exactly, upright, with its corners."""

import numpy as np
import pytest
from photos import CASES, EMPTY_TABLE, photo, truth

from scorer.errors import GridNotFound
from scorer.vision.image_io import read_photo


@pytest.mark.parametrize("case", CASES)
def test_fixture_is_read_exactly(reader, case):
    expected = truth(case)
    reading = reader.read_file(str(photo(case)))
    assert reading.grid == expected["grid"]
    corners = np.array(expected["corners"])
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    # Upright corners (orientation included) land within a quarter of a cell of the ideal
    # square; hand-placed tiles on hard photos stray from it by up to about that much.
    assert np.abs(reading.corners - corners).max() < 0.25 * cell
    assert set(reading.timing_ms) == {"decode", "detect", "classify", "total"}
    assert np.array(reading.confidence).shape == (4, 4)


def test_warped_city_is_upright_and_square(reader):
    reading = reader.read_file(str(photo(CASES[0])))
    assert reading.warped.shape[0] == reading.warped.shape[1]
    assert len(reading.duplex) == 2


def test_given_corners_skip_detection(reader):
    case = CASES[0]
    corners = np.array(truth(case)["corners"])
    reading = reader.read(read_photo(str(photo(case))), corners=corners[[2, 3, 0, 1]])
    assert reading.grid == truth(case)["grid"]


def test_empty_table_says_what_to_try(reader):
    with pytest.raises(GridNotFound, match="closer, with less tilt"):
        reader.read_file(str(EMPTY_TABLE))


def _big_jpeg(tmp_path, image, name):
    import cv2

    path = tmp_path / name
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path)


def test_large_jpeg_is_read_from_a_half_size_decode(reader, tmp_path):
    import cv2

    case = CASES[3]
    small = read_photo(str(photo(case)))
    big = cv2.resize(small, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)  # 12 MP
    reading = reader.read_file(_big_jpeg(tmp_path, big, "big.jpg"))
    assert reading.grid == truth(case)["grid"]
    corners = (np.array(truth(case)["corners"]) + 0.5) * 4 - 0.5  # in the 12 MP photo
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    assert np.abs(reading.corners - corners).max() < 0.25 * cell


def test_small_city_in_a_large_jpeg_falls_back_to_full_size(tmp_path, monkeypatch):
    import dataclasses

    from scorer.reading import PhotoReader
    from scorer.vision import image_io
    from scorer.vision.config import DEFAULT

    # Half-size decoding from 1 MP here, so a 1.5 MP frame around a fixture is "large".
    reader = PhotoReader(config=dataclasses.replace(DEFAULT, reduced_decode_pixels=1_000_000))
    case = CASES[0]
    small = read_photo(str(photo(case)))
    h, w = small.shape[:2]
    frame = np.empty((h + 300, w + 400, 3), np.uint8)
    frame[:] = small[5, 5]  # table colour around the original photo
    frame[100:100 + h, 150:150 + w] = small
    decodes = []
    original = image_io.decode_photo

    def counting(data, config=DEFAULT, reduce=1):
        decodes.append(reduce)
        return original(data, config, reduce)

    monkeypatch.setattr("scorer.reading.decode_photo", counting)
    reading = reader.read_file(_big_jpeg(tmp_path, frame, "far.jpg"))
    assert decodes == [2, 1]  # half size first, then full size: the cells were too small
    assert reading.grid == truth(case)["grid"]
    corners = np.array(truth(case)["corners"]) + (150, 100)
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    assert np.abs(reading.corners - corners).max() < 0.25 * cell
