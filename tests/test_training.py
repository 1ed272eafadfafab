"""The training recipe runs end to end on a tiny budget and writes loadable models."""

import json

import numpy as np
import pytest

from scorer.vision import geometry

torch = pytest.importorskip("torch", reason="training needs the [train] extra")


def test_tiny_recipe_writes_models_the_reader_can_load(tmp_path):
    from scorer.reading import PhotoReader
    from training import train

    assert train.main(["--budget", "tiny", "--out", str(tmp_path), "--processes", "1"]) == 0
    meta = json.loads((tmp_path / "tiles.json").read_text())
    assert meta["recipe"]["budget"] == train.BUDGETS["tiny"] and meta["sha256"]
    reader = PhotoReader(tmp_path)  # checks sha256 and loads both sessions
    tiles = np.zeros((16, 64, 64, 3), np.uint8)
    probs, turns, _ = reader.classifier.predict(tiles, np.zeros((16, 48, 48, 3), np.uint8))
    assert probs.shape == (16, 10) and turns.shape == (16, 4)


def test_preprocessing_parity_between_training_and_inference():
    from training.train import to_tensor

    batch = np.random.default_rng(0).integers(0, 256, (3, 8, 8, 3), dtype=np.uint8)
    assert np.array_equal(to_tensor(batch).numpy(), geometry.to_input(batch))


def test_renderer_is_deterministic():
    from training.data import scene_for

    a, _ = scene_for(3, 5, "drawn", out_size=(320, 240))
    b, _ = scene_for(3, 5, "drawn", out_size=(320, 240))
    assert np.array_equal(a.image, b.image) and a.grid == b.grid
    assert np.allclose(a.corners, b.corners)
