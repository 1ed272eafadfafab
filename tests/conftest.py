import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def reader():
    """One PhotoReader (two ONNX sessions) for the whole test run, as in the app."""
    from scorer.reading import PhotoReader

    return PhotoReader()
