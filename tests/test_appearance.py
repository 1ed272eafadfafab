"""A printing's pictures learned from the cells the players labelled (scorer.vision.appearance).

"Another printing" is a fixture photo (drawn tiles) with red and blue swapped: no turn of
the hues undoes it, and the shipped model reads its shops as offices.
"""

import dataclasses

import numpy as np
import pytest
from photos import photo, truth
from test_learning import other_printing

from scorer.city import TAVERN_KINDS
from scorer.reading import PhotoReader
from scorer.vision import appearance, geometry
from scorer.vision.adaptation import CELL_DTYPE
from scorer.vision.config import ADAPT, DEFAULT


@pytest.fixture(scope="module")
def reader():
    return PhotoReader()


def _group(building: str) -> str:
    return "tavern" if building in TAVERN_KINDS else building


def test_a_cells_look_keeps_its_picture_whatever_the_light_and_tells_buildings_apart(reader):
    """The same cells darkened look the same; each cell looks more like another cell of its
    building (the taverns one) than like any cell of another building."""
    reading = reader.read_file(str(photo("easy-00")))
    tiles = geometry.tile_crops(reading.warped)
    looks = appearance.looks(tiles)
    assert looks.shape == (16, appearance.look_values())
    darker = appearance.looks((tiles * 0.6).astype(np.uint8))
    assert np.einsum("nd,nd->n", looks, darker).min() > 0.99
    groups = [_group(b) for row in truth("easy-00")["grid"] for b in row]
    alike = looks @ looks.T
    for i, group in enumerate(groups):
        same = [alike[i, j] for j in range(16) if j != i and groups[j] == group]
        other = [alike[i, j] for j in range(16) if groups[j] != group]
        if same:
            assert max(same) > max(other), (i, group)


def test_the_vote_is_as_clear_as_the_pictures():
    """A cell like one building's pictures only is voted so, fully, and plainly; one as
    like two buildings, or like none, is not trusted."""
    references = np.eye(3, 8, dtype=np.float32)  # three pictures, of buildings 0, 1 and 1
    groups = np.array([0, 1, 1])
    cells = np.stack([references[0], (references[0] + references[1]) / np.sqrt(2),
                      np.eye(8, dtype=np.float32)[5], references[2]])
    group, trust, plain = appearance.vote(cells, references, groups, ADAPT)
    assert group[0] == 0 and trust[0] == pytest.approx(ADAPT.look_strength)
    assert trust[1] == 0 and trust[2] == 0
    assert group[3] == 1 and trust[3] == pytest.approx(ADAPT.look_strength)
    assert plain.tolist() == [True, False, False, True]  # (alike 1, ahead by 1: plainly)


PICTURES_ALONE = dataclasses.replace(ADAPT, icon_floor=DEFAULT.icon_floor, badges_pick=False)


def _lessons(reader, data: bytes, grid, pictures: bool) -> list[tuple[bytes, str, bool]]:
    """Every cell of a photo labelled by the players (the misread ones corrected), with or
    without the cells' looks (as stored before the pictures were learned)."""
    reading = reader.read_photo(data)
    cells = np.frombuffer(reading.cells_bytes(), CELL_DTYPE).reshape(16, -1)
    if not pictures:
        cells = cells[:, :-appearance.look_values()]
    return [(cells[i].tobytes(), grid[i // 4][i % 4], reading.grid[i // 4][i % 4] != grid[i // 4][i % 4])
            for i in range(16)]


def test_a_printings_pictures_teach_the_buildings_its_colours_hide(reader):
    """Taught one city of another printing (easy-00), the reader reads a second city of it
    (easy-02) with less than half the cells wrong it has without the cells' looks (as cells
    were stored before), several of its shops read as offices there; and none wrong that was
    right without them. The printing's inks and the badges' say are left out: learned from
    that city, the inks now read easy-02 exactly on their own (see tests/test_inks.py), and
    so do the badges (``AdaptConfig.icon_floor``, ``badges_pick``: see test_learning.py);
    what is tested here is what the pictures alone teach."""
    right = truth("easy-02")["grid"]
    try:
        wrong = {}
        for pictures in (False, True):
            reader.learn(_lessons(reader, other_printing("easy-00"), truth("easy-00")["grid"],
                                  pictures), config=PICTURES_ALONE)
            assert (reader.adaptation.looks is not None) is pictures
            reader.adaptation = dataclasses.replace(reader.adaptation, inks=None)
            read = reader.read_photo(other_printing("easy-02")).grid
            wrong[pictures] = {(r, c) for r in range(4) for c in range(4) if read[r][c] != right[r][c]}
            if not pictures:
                assert sum(right[r][c] == "shop" and read[r][c] == "office"
                           for r, c in wrong[False]) >= 2
        assert len(wrong[False]) >= 6
        assert wrong[True] <= wrong[False] and len(wrong[True]) <= len(wrong[False]) // 2
    finally:
        reader.adaptation = None


def test_a_picture_plainly_like_the_players_building_overrules_a_model_sure_of_another(reader):
    """Another printing (red and blue swapped), taught one city (medium-00): at the corners
    where a second city of it (easy-03) is read, the shipped model reads a food tavern surely
    as a factory. Its picture is plainly the taught taverns' (``look_plain``), in a photo
    matched to the players' printing, so it is read as a tavern, its kind from the icon;
    a picture less plainly theirs leaves a sure cell to the model, as before."""
    try:
        reader.learn(_lessons(reader, other_printing("medium-00"), truth("medium-00")["grid"], True))
        reading = reader.read_photo(other_printing("easy-03"))
        taken = geometry.warp_city(reading.photo.image, reading.corners / reading.photo.scale)
        _, _, probs, features = reader.read_cities_cells([taken], upright=True)[0]
        probs, features = probs.reshape(16, -1), features.reshape(16, -1)
        looks = appearance.looks(geometry.tile_crops(taken))
        labels = reader.classifier.labels
        cell = [r * 4 + c for r, row in enumerate(truth("easy-03")["grid"])
                for c, building in enumerate(row) if building == "tavern-food"]
        sure_factory = [i for i in cell if labels[probs[i].argmax()] == "factory"
                        and probs[i].max() >= ADAPT.gate_sure]
        assert sure_factory, "the premise: the model reads a food tavern surely as a factory"
        assert (reader.adaptation.printings(probs, features) == 1).all()
        read = reader.adaptation.by_pictures(probs, features, looks)
        assert all(labels[read[i].argmax()] in TAVERN_KINDS for i in sure_factory)
        strict = dataclasses.replace(reader.adaptation, config=dataclasses.replace(
            ADAPT, look_plain=1.01))
        read = strict.by_pictures(probs, features, looks)
        assert all(labels[read[i].argmax()] == "factory" for i in sure_factory)
    finally:
        reader.adaptation = None
