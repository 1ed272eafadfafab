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
    reader = PhotoReader(tmp_path)  # checks sha256 and loads the three sessions
    tiles = np.zeros((16, 64, 64, 3), np.uint8)
    probs, turns, _ = reader.classifier.predict(tiles, np.zeros((16, 48, 48, 3), np.uint8))
    assert probs.shape == (16, 10) and turns.shape == (16, 4)
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-5)
    icons = json.loads((tmp_path / "icons.json").read_text())
    assert icons["recipe"]["budget"] == train.BUDGETS["tiny"] and icons["sha256"]


def test_recoloured_icons_keep_their_glyph_in_place_and_stay_uint8():
    """The icon reader's training colours: another hue does not move the glyph (the
    whiteness it reads stays alike) and the crops stay uint8."""
    from training.train import recoloured

    corners = np.full((8, 48, 48, 3), (200, 30, 40), np.uint8)
    corners[:, 16:32, 20:28] = 250  # a white glyph on a red badge
    out = recoloured(corners, np.random.default_rng(3))
    assert out.dtype == np.uint8 and out.shape == corners.shape
    ink = geometry.icon_input(out)[:, 0]
    assert (ink[:, 20:28, 22:26].mean(axis=(1, 2)) > ink[:, 2:10, 2:10].mean(axis=(1, 2)) + 1).all()


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


def test_a_photo_seen_from_further_keeps_the_city_under_its_corners():
    """far_and_shaken shrinks the photo to tiles of 32-64 px and moves the corners with it:
    the city warped from the new corners looks like the city warped from the old ones, and
    unlike the same city warped half a cell aside."""
    from training.data import scene_for
    from training.render import far_and_shaken

    scene, rng = scene_for(11, 2, "drawn", tier="easy", out_size=(960, 720))
    image, corners = far_and_shaken(scene.image, scene.corners, rng)
    tile = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean() / 4
    assert 31 < tile < 65 and image.shape[1] < 960
    before = geometry.warp_city(scene.image, scene.corners).astype(float)
    after = geometry.warp_city(image, corners).astype(float)
    aside = geometry.warp_city(image, corners + np.float32([tile / 2, 0])).astype(float)
    assert np.abs(after - before).mean() < 0.6 * np.abs(aside - before).mean()


def test_crops_stay_uint8_when_a_scene_shows_no_table_around_its_city(monkeypatch):
    """A city filling the frame leaves no room for crops of the table ("empty" cells); its
    crops must stay uint8, or the whole training set stacked with them turns float64."""
    from training import data

    monkeypatch.setattr(data, "_empty_crops", lambda *args: ([], []))
    samples = data.classifier_samples((3, 5, "drawn"))
    assert samples["tile"].dtype == np.uint8 and samples["corner"].dtype == np.uint8
    assert len(samples["tile"]) == 32 and (samples["building"] != data.IGNORE).sum() == 16


def test_the_exported_tile_model_read_back_for_fine_tuning_reads_as_onnxruntime_does():
    """training.finetune starts from the shipped tiles.onnx: read back into torch (batch
    norm folded), it gives the same buildings, turns and features."""
    from scorer.vision.models import MODEL_DIR, TileClassifier
    from training.finetune import load_exported
    from training.train import to_tensor

    rng = np.random.default_rng(0)
    tiles = rng.integers(0, 256, (6, 64, 64, 3), dtype=np.uint8)
    corners = rng.integers(0, 256, (6, 48, 48, 3), dtype=np.uint8)
    with torch.no_grad():
        building, turn, features = load_exported(MODEL_DIR / "tiles.onnx").eval()(
            to_tensor(tiles), to_tensor(corners))
    logits, turn_logits, shipped = TileClassifier().run(tile=tiles, corner=corners)
    assert np.allclose(building.numpy(), logits, atol=1e-4)
    assert np.allclose(turn.numpy(), turn_logits, atol=1e-4)
    assert np.allclose(features.numpy(), shipped, atol=1e-4)


def test_harder_crops_are_changed_only_where_drawn_and_stay_uint8():
    from training.finetune import harder

    rng = np.random.default_rng(1)
    tiles = rng.integers(40, 200, (40, 64, 64, 3), dtype=np.uint8)
    corners = rng.integers(40, 200, (40, 48, 48, 3), dtype=np.uint8)
    none_t, none_c = harder(tiles, corners, np.random.default_rng(2), 0.0)
    assert np.array_equal(none_t, tiles) and np.array_equal(none_c, corners)
    all_t, all_c = harder(tiles, corners, np.random.default_rng(2), 1.0)
    assert all_t.dtype == np.uint8 and all_c.dtype == np.uint8
    assert (np.abs(all_c.astype(int) - corners).mean(axis=(1, 2, 3)) > 1).all()


def test_fine_tuning_a_copy_of_the_shipped_models_writes_a_model_the_reader_loads(tmp_path):
    import shutil

    from scorer.reading import PhotoReader
    from scorer.vision.models import MODEL_DIR
    from training import finetune

    for path in MODEL_DIR.iterdir():
        if path.suffix in (".onnx", ".json", ".npz"):
            shutil.copy(path, tmp_path)
    assert finetune.main(["--models", str(tmp_path), "--budget", "tiny", "--processes", "1"]) == 0
    meta = json.loads((tmp_path / "tiles.json").read_text())
    assert meta["fine_tune"]["steps"] == finetune.BUDGETS["tiny"]["steps"]
    assert meta["sha256"] != json.loads((MODEL_DIR / "tiles.json").read_text())["sha256"]
    assert PhotoReader(tmp_path).classifier.predict(
        np.zeros((2, 64, 64, 3), np.uint8), np.zeros((2, 48, 48, 3), np.uint8))[0].shape == (2, 10)
