"""The three small ONNX models, each loaded once and checked against its metadata file.

``<name>.json`` is the contract with training: labels, input sizes, normalisation and the
sha256 of ``<name>.onnx``. They lie in the checkout's ``models/``, installed as ``scorer/models``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from ..errors import ModelError
from .geometry import icon_input, to_input


def _default_dir() -> Path:
    """``BTC_MODELS``, else the installed package's ``scorer/models`` (package data), else
    the checkout's ``models/``."""
    if os.environ.get("BTC_MODELS"):
        return Path(os.environ["BTC_MODELS"])
    here = Path(__file__).resolve().parents[1]
    installed = here / "models"
    return installed if installed.is_dir() else here.parent / "models"


MODEL_DIR = _default_dir()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class OnnxModel:
    """An onnxruntime session made once from ``<name>.onnx`` after checking ``<name>.json``."""

    def __init__(self, name: str, model_dir: Path | str | None = None):
        import onnxruntime as ort

        folder = Path(model_dir) if model_dir else _default_dir()
        onnx_path, meta_path = folder / f"{name}.onnx", folder / f"{name}.json"
        if not onnx_path.is_file() or not meta_path.is_file():
            raise ModelError(f"model {name} not found in {folder} (run `make train`)")
        self.meta = json.loads(meta_path.read_text())
        if sha256(onnx_path) != self.meta.get("sha256"):
            raise ModelError(f"{onnx_path} does not match the sha256 in {meta_path.name}")
        options = ort.SessionOptions()
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(onnx_path), options,
                                            providers=["CPUExecutionProvider"])

    def run(self, **inputs: np.ndarray) -> list[np.ndarray]:
        return self.session.run(None, {k: to_input(v) for k, v in inputs.items()})


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class IconReader(OnnxModel):
    """Reads the glyph in a tile's icon alone (``geometry.icon_input``): "icons" a tavern's
    kind, "badges" which building. The tile classifier also sees the badge's colour and the
    picture, which another printing of the game changes."""

    def __init__(self, model_dir=None, name: str = "icons"):
        super().__init__(name, model_dir)
        self.labels: list[str] = self.meta["labels"]

    def predict(self, corners: np.ndarray) -> np.ndarray:
        """corners (N, C, C, 3) uint8 RGB -> (N, K) probabilities of its labels."""
        (logits,) = self.session.run(None, {"corner": icon_input(corners)})
        return softmax(logits)


class TileClassifier(OnnxModel):
    """Reads cells: the building (nine kinds or "empty") and which way the tile is turned."""

    def __init__(self, model_dir=None):
        super().__init__("tiles", model_dir)
        self.labels: list[str] = self.meta["labels"]
        self.feature_size: int = self.session.get_outputs()[2].shape[1]
        # the features' parts: the tile view's, then the icon corner's
        self.feature_parts = tuple(self.meta.get("feature_parts", [self.feature_size]))

    def predict(self, tiles: np.ndarray, corners: np.ndarray):
        """tiles (N, T, T, 3) and corners (N, C, C, 3) uint8 RGB -> building (N, L),
        turn (N, 4) probabilities and the features (N, D) the building head reads.

        Turn k means the crop shows the upright tile turned k quarter turns anticlockwise.
        """
        building, turn, features = self.run(tile=tiles, corner=corners)
        return softmax(building), softmax(turn), features


class CityFinder(OnnxModel):
    """Segments the city (the 4x4 block of tiles) in a small square view of the photo."""

    def __init__(self, model_dir=None):
        super().__init__("city_finder", model_dir)

    def predict(self, views: np.ndarray) -> np.ndarray:
        """views (N, S, S, 3) uint8 RGB -> (N, S, S) probability that a pixel is in the city."""
        import cv2

        (logits,) = self.run(image=views)
        prob = 1 / (1 + np.exp(-logits[:, 0]))
        size = views.shape[1]
        return np.stack([cv2.resize(p, (size, size), interpolation=cv2.INTER_LINEAR) for p in prob])
