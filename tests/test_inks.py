"""A printing's inks learned from the cells the players labelled (scorer.vision.inks)."""

import dataclasses

import numpy as np
from helpers import lattice_searches
from photos import photo, truth
from test_learning import other_printing, turned_inks

from scorer.city import BUILDINGS
from scorer.learned import lessons_from_bytes, lessons_to_bytes
from scorer.reading import PhotoReader, _doubtfully_overturned
from scorer.vision.adaptation import CELL_DTYPE, Anchors
from scorer.vision.appearance import look_values
from scorer.vision.config import ADAPT, DEFAULT
from scorer.vision.geometry import warp_size
from scorer.vision.inks import apply_inks, cell_colours, face_colours, fit_inks, levelled, old_colour_values
from training.tiles import drawn_faces


def _lessons(reading, grid) -> list[tuple[bytes, str, bool]]:
    """Every cell of a reading labelled by a player with the truth ``grid``: its features and
    colours, not its look (the printing's pictures, ``vision.appearance``, would read the
    cells whatever their colours: what is tested here is the colours)."""
    cells = np.frombuffer(reading.cells_bytes(), CELL_DTYPE).reshape(16, -1)
    cells = cells[:, :-look_values()]
    return [(cells[i].tobytes(), grid[i // 4][i % 4], True) for i in range(16)]


def _reader_of_drawn_faces() -> PhotoReader:
    """A reader whose anchors' faces are the drawn tiles' (the fixtures' printing), from
    which the inks of another printing of them are learned."""
    reader = PhotoReader()
    reader._anchors = dataclasses.replace(Anchors.load(None), faces=np.stack(
        [face_colours(drawn_faces().singles[b]) for b in BUILDINGS]))
    return reader


def _printing() -> np.ndarray:
    """An affine colour map (4, 3) no turn of the hues undoes: red and blue swapped, less
    contrast, a green cast."""
    swap = np.float32([[0, 0, 0.8], [0, 0.8, 0], [0.8, 0, 0]])
    return np.vstack([swap, [[0.05, 0.1, 0.02]]]).astype(np.float32)


def test_the_inks_of_a_printing_are_learned_back_from_its_labelled_cells():
    """Cells of a printing (its colour map of the faces, a little noise, a fifth of them
    duplex halves unlike any face) give back the map that takes them to the faces."""
    rng = np.random.default_rng(1)
    faces = rng.uniform(30, 220, (len(BUILDINGS), 9, 3)).astype(np.float32)
    labels = rng.integers(0, len(BUILDINGS), 32)
    printed = _printing()
    colours = np.concatenate([faces[labels], np.full((32, 9, 1), 255.0)], axis=2) @ printed
    colours += rng.normal(0, 2, colours.shape)
    odd = rng.random(32) < 0.2
    colours[odd] = rng.uniform(0, 255, (odd.sum(), 9, 3))
    inks = fit_inks(colours, labels, faces, ADAPT)
    back = np.concatenate([colours, np.full((32, 9, 1), 255.0)], axis=2) @ inks
    assert np.abs(back[~odd] - faces[labels][~odd]).mean() < 4  # (the inks' noise: 2.5)


def test_too_few_labelled_cells_or_buildings_teach_no_inks():
    rng = np.random.default_rng(2)
    faces = rng.uniform(30, 220, (len(BUILDINGS), 9, 3)).astype(np.float32)
    labels = np.arange(20) % 3  # three buildings only: their colours, not a printing's inks
    assert fit_inks(faces[labels], labels, faces, ADAPT) is None
    assert fit_inks(faces[:8], np.arange(8), faces, ADAPT) is None  # eight cells
    assert fit_inks(faces[np.arange(20) % 9], np.arange(20) % 9, faces, ADAPT) is not None


def test_the_inks_map_every_pixel_as_fitted():
    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (5, 7, 3), dtype=np.uint8)
    inks = _printing()
    want = np.concatenate([image, np.full((5, 7, 1), 255.0)], axis=2) @ inks
    assert np.abs(apply_inks(image, inks).astype(float) - np.clip(want, 0, 255)).max() <= 1


def test_one_taught_city_of_a_new_printing_lets_the_shipped_model_read_another():
    """The fixture photos (drawn tiles) with red and blue swapped, which no turn of the
    hues undoes: the shipped model misreads many cells of hard-00. Taught one city
    (easy-02, every cell labelled) against the drawn faces (the printing the model knows
    here), the reader learns the printing's inks, chooses them for hard-00, and through
    them the shipped model alone, no look-alike, reads hard-00 right."""
    reader = _reader_of_drawn_faces()
    taught = reader.read_photo(other_printing("easy-02"))
    adaptation = reader.learn(_lessons(taught, truth("easy-02")["grid"]))
    assert adaptation.inks is not None

    reader.adaptation = None
    shipped = reader.read_photo(other_printing("hard-00"))
    right = truth("hard-00")["grid"]
    wrong = np.array(shipped.grid) != np.array(right)
    assert wrong.sum() >= 4
    reader.adaptation = adaptation
    correction, _ = reader._correction(shipped)
    assert correction.inks is not None
    reader.adaptation = None  # the shipped model alone, through the inks
    corrected = shipped.photo.corrected(correction)
    assert reader.read(corrected, shipped.corners).grid == right


def test_lessons_stored_without_colours_still_teach_the_look_alikes():
    """Cells stored before colours were kept (features alone) teach the look-alikes but
    no inks; mixed with cells that have colours, those teach the inks."""
    reader = PhotoReader()
    new = _lessons(reader.read_photo(other_printing("easy-02")), truth("easy-02")["grid"])
    width = reader.classifier.feature_size * 2  # bytes of float16 features
    old = [(cell[:width], building, player) for cell, building, player in new]
    before = reader.learn(old)
    assert before.cells == 16 and before.inks is None
    mixed = reader.learn(old + new)
    assert mixed.cells == 32 and mixed.inks is not None
    assert lessons_from_bytes(lessons_to_bytes(old), reader.classifier.feature_size) == old


def test_a_photo_of_the_players_printing_is_corrected_by_their_inks_however_sure_the_rest():
    """Taught one city of a printing whose hues are turned 100 degrees (beyond the turns the
    reader tries), the reader takes that printing's inks as the colour correction of another
    photo of it even where another correction reads surer (here: all of them, the inks' gain
    asked for being out of reach): a turn that reads a city surer can read a tavern's icon as
    another kind's (edition G of bench/adaptation.py). A photo of the printing the model knows
    is not matched to the players' printing and keeps the other corrections."""
    reader = _reader_of_drawn_faces()
    taught = reader.read_photo(turned_inks("easy-02", 100))
    reader.adaptation = reader.learn(_lessons(taught, truth("easy-02")["grid"]))
    assert reader.adaptation.inks is not None
    reader.config = dataclasses.replace(reader.config, inks_min_gain=1e9)
    theirs = reader.read_photo(turned_inks("hard-00", 100))
    assert reader._correction(theirs)[0].inks is not None
    own = reader.read_photo(photo("hard-00").read_bytes())
    assert reader._correction(own)[0].inks is None


def test_a_photo_of_the_players_printing_is_read_through_their_inks_from_its_first_look():
    """Once the players' printing's inks are learned, a photo of it is read through them
    from its first look, not searched as taken: as taken, it reads doubtfully wherever the
    city lies, and the search for a surer place took seconds before ``read`` took the
    reading through the inks anyway (editions H and J of bench/adaptation.py). A photo of
    the printing the model knows is read as before, as taken."""
    reader = _reader_of_drawn_faces()
    taught = reader.read_photo(other_printing("easy-02"))
    reader.adaptation = reader.learn(_lessons(taught, truth("easy-02")["grid"]))
    searched = lattice_searches(reader)
    for case in ("easy-00", "medium-01"):
        theirs = reader.read_photo(other_printing(case))
        assert theirs.grid == truth(case)["grid"]
        assert theirs.photo.as_taken  # (the cells kept as taken, as read keeps them)
        assert not searched, case
    own = reader.read_photo(photo("hard-00").read_bytes())
    assert own.grid == truth("hard-00")["grid"]
    assert reader._read_their_printing(own.photo, None, reader._first_looks(own.photo, None)) is None


def test_a_photo_of_the_players_printing_is_read_from_its_first_look_as_taken_doubts_flagged():
    """A photo of the players' printing whose first look as taken reads some cells
    doubtfully is read so, those cells flagged for the players unless their icons' glyphs
    firm them up, when the reading through their inks is no clearer: the two first looks
    have found the city, and searched as taken such photos took 8-24 s and could end misread
    (editions I, J and K of bench/adaptation.py, taught two photos). Here one taught photo,
    each cell with its look (the pictures), and the inks' reading made never clearer."""
    reader = _reader_of_drawn_faces()
    cells = np.frombuffer(reader.read_photo(other_printing("easy-02")).cells_bytes(),
                          CELL_DTYPE).reshape(16, -1)
    reader.adaptation = reader.learn([(cells[i].tobytes(), truth("easy-02")["grid"][i // 4][i % 4],
                                       True) for i in range(16)])
    reader.config = dataclasses.replace(reader.config, corrected_min_gain=1e9)
    searched = lattice_searches(reader)
    again = reader.read_photo(other_printing("easy-01"))
    assert again.grid == truth("easy-01")["grid"]
    assert again.doubted() and again.photo.as_taken
    assert not searched


def test_a_sure_reading_is_not_traded_for_one_that_overturns_a_cell_doubtfully():
    """A reading of every cell sure (a fixture read exactly) keeps its place against another
    that reads one of its cells as another building doubtfully (edition I of
    bench/adaptation.py, taught two photos: through the inks, clearly surer on the whole, a
    shop read 0.63 sure as a drink tavern); not against one sure of that cell, nor when it
    doubts a cell itself."""
    reading = PhotoReader().read_file(str(photo("easy-00")))
    assert reading.grid == truth("easy-00")["grid"] and not reading.uncertain()

    def with_cell(grid_of, building: str, confidence: float):
        grid = [row[:] for row in grid_of.grid]
        sureness = [row[:] for row in grid_of.confidence]
        grid[1][2], sureness[1][2] = building, confidence
        return dataclasses.replace(grid_of, grid=grid, confidence=sureness)

    other = "park" if reading.grid[1][2] != "park" else "shop"
    assert _doubtfully_overturned(reading, with_cell(reading, other, 0.63))
    assert not _doubtfully_overturned(reading, with_cell(reading, other, 0.95))
    assert not _doubtfully_overturned(reading, with_cell(reading, reading.grid[1][2], 0.63))
    doubting = with_cell(reading, reading.grid[1][2], 0.5)
    assert not _doubtfully_overturned(doubting, with_cell(reading, other, 0.63))


def test_a_citys_colours_are_levelled_whatever_the_photos_brightness():
    """Put on one grey level (``levelled``), a city's colours are the same in a photo taken
    darker (a dim room, a camera's other exposure): cities of two photos of one printing
    then teach one map. Balanced grey alone, their levels differed (89 and 137 on edition I of
    bench/adaptation.py, and a map fitted to both fitted neither)."""
    rng = np.random.default_rng(5)
    side, _ = warp_size(DEFAULT)
    upright = rng.integers(40, 220, (side, side, 3)).astype(np.uint8)
    darker = (upright * np.float32([0.55, 0.6, 0.5])).astype(np.uint8)  # and a cast
    bright, dim = cell_colours(upright), cell_colours(darker)
    assert bright.shape == (16, DEFAULT.ink_grid ** 2 + 1, 3)
    assert np.abs(levelled(bright) - levelled(dim)).max() < 3
    assert np.allclose(levelled(bright)[..., 0].mean(), DEFAULT.ink_level, rtol=0.05)


def test_colours_stored_before_they_could_be_levelled_teach_no_inks():
    """Cells stored with the older colours (the squares balanced grey, no city's mean) still
    teach their look-alikes and pictures, and no inks: their level is unknown."""
    reader = PhotoReader()
    new = _lessons(reader.read_photo(other_printing("easy-02")), truth("easy-02")["grid"])
    width = reader.classifier.feature_size
    old = [(np.frombuffer(cell, CELL_DTYPE)[:width + old_colour_values()].tobytes(), b, p)
           for cell, b, p in new]
    learned = reader.learn(old)
    assert learned.cells == 16 and learned.inks is None
    assert lessons_from_bytes(lessons_to_bytes(old), width) == old
    assert reader.learn(new).inks is not None
