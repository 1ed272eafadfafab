"""Other printings: the icon stays, the picture changes, and nothing else is relabelled."""

import numpy as np
import pytest

pytest.importorskip("skimage", reason="printings use the [train] extra")

from training import printings  # noqa: E402
from training.tiles import ART, drawn_faces, real_faces  # noqa: E402

needs_art = pytest.mark.skipif(not (ART / "singles").is_dir(), reason="../shared/tile-art missing")


def _icon_box(face):
    s = face.shape[0]
    return face[int(0.05 * s):int(0.45 * s), int(0.05 * s):int(0.45 * s)]


@needs_art
def test_reprinted_taverns_keep_their_icon_on_a_new_picture():
    faces = real_faces()
    changed = 0
    for seed in range(6):
        other = printings.reprint(faces, np.random.default_rng(seed))
        assert set(other.singles) == set(faces.singles)
        for kind in ("tavern-drink", "tavern-food", "tavern-music", "tavern-bed"):
            new, old = other.singles[kind].astype(float), faces.singles[kind].astype(float)
            assert new.shape == old.shape
            if np.abs(new - old).mean() > 10:  # reprinted: a new picture ...
                changed += 1
                red = new[..., 0] - new[..., 1:].mean(-1)
                assert (red[:new.shape[0] // 2, :new.shape[1] // 2] > 60).mean() > 0.02  # ... its badge
    assert changed >= 12  # most taverns of most printings get a picture of their own


@needs_art
def test_same_seed_same_printing_and_duplex_halves_follow_the_singles():
    faces = real_faces()
    a = printings.reprint(faces, np.random.default_rng(3))
    b = printings.reprint(faces, np.random.default_rng(3))
    for name in a.singles:
        assert np.array_equal(a.singles[name], b.singles[name])
    size = faces.singles["shop"].shape[0]
    for face, halves, layout in a.duplex:
        parts = [face[:, :size], face[:, size:]] if layout == "horizontal" else [face[:size], face[size:]]
        for half, part in zip(halves, parts, strict=True):
            if a.singles[half] is not faces.singles[half]:
                assert np.array_equal(part, a.singles[half])


def test_drawn_tiles_are_reprinted_with_their_drawn_icon():
    faces = drawn_faces(96)
    other = printings.reprint(faces, np.random.default_rng(1), share=1.0)
    for name in ("shop", "factory", "office", "park", "house"):  # share 1: all of them
        face = other.singles[name]
        assert face.shape == (96, 96, 3) and face.dtype == np.uint8
        assert np.abs(face.astype(float) - faces.singles[name]).mean() > 5
        assert (_icon_box(face) > 235).all(-1).mean() > 0.02  # the white icon is drawn on it


def test_diamond_mask_covers_the_artworks_tavern_icon():
    mask = printings.diamond_mask(334)
    assert 0.02 < mask.mean() < 0.05
    assert mask[int(0.246 * 334), int(0.243 * 334)] == 1 and mask[300, 300] == 0
