"""The committed models match their metadata, and the classifier reads fixture cells."""

import json
import shutil

import numpy as np
import onnxruntime as ort
import pytest
from photos import CASES, photo, truth

from scorer.city import BUILDINGS
from scorer.errors import ModelError
from scorer.vision import geometry
from scorer.vision.config import DEFAULT
from scorer.vision.image_io import read_photo
from scorer.vision.models import MODEL_DIR, TileClassifier, sha256


@pytest.mark.parametrize("name", ["tiles", "city_finder"])
def test_metadata_matches_the_onnx_file(name):
    meta = json.loads((MODEL_DIR / f"{name}.json").read_text())
    onnx_path = MODEL_DIR / f"{name}.onnx"
    assert meta["sha256"] == sha256(onnx_path)
    assert onnx_path.stat().st_size < 2_000_000
    assert meta["parameters"] < 1_000_000
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    for model_input in session.get_inputs():
        assert model_input.shape[1:] == meta["inputs"][model_input.name]


def test_tile_metadata_matches_the_reader_config():
    meta = json.loads((MODEL_DIR / "tiles.json").read_text())
    assert meta["labels"] == [*BUILDINGS, "empty"]
    assert meta["crop"] == {"cell_px": DEFAULT.cell_px, "tile_margin": DEFAULT.tile_margin,
                            "corner_span": list(DEFAULT.corner_span)}
    assert meta["accuracy_held_out_crops"]["building"] > 0.98


def test_classifier_reads_fixture_cells_from_their_true_corners():
    classifier = TileClassifier()
    for case in CASES[::5]:
        expected = truth(case)
        warped = geometry.warp_city(read_photo(str(photo(case))), np.array(expected["corners"]))
        probs, turns, _ = classifier.predict(geometry.tile_crops(warped), geometry.corner_crops(warped))
        labels = [classifier.labels[i] for i in probs.argmax(1)]
        assert labels == [b for row in expected["grid"] for b in row], case
        assert (turns.argmax(1) == 0).mean() > 0.8


def test_a_tampered_model_is_refused(tmp_path):
    for name in ("tiles.onnx", "tiles.json"):
        shutil.copy(MODEL_DIR / name, tmp_path / name)
    with open(tmp_path / "tiles.onnx", "ab") as handle:
        handle.write(b"\0")
    with pytest.raises(ModelError, match="does not match the sha256"):
        TileClassifier(tmp_path)
    with pytest.raises(ModelError, match="not found"):
        TileClassifier(tmp_path / "missing")


def test_reading_a_photo_never_imports_torch():
    import subprocess
    import sys

    code = (
        "import sys; from scorer.reading import read_table;"
        f"read_table([{str(photo(CASES[0]))!r}]);"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
