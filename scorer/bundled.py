"""Where the models are: ``scorer/models`` once installed (package data), else the
checkout's ``models/`` (the reader's own default)."""

from __future__ import annotations

import os
from pathlib import Path


def model_dir(given: str | Path | None = None) -> Path | None:
    """``given``, else ``BTC_MODELS``, else the installed package's models; None for the
    checkout's ``models/``."""
    if given:
        return Path(given)
    if os.environ.get("BTC_MODELS"):
        return Path(os.environ["BTC_MODELS"])
    installed = Path(__file__).resolve().parent / "models"
    return installed if installed.is_dir() else None
