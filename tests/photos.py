"""The committed photo fixtures (rendered from the project's own drawn tiles)."""

import json
from pathlib import Path

FOLDER = Path(__file__).parent / "fixtures" / "photos"
CASES = sorted(p.stem for p in FOLDER.glob("*.json"))
EMPTY_TABLE = FOLDER / "no-city-empty-table.jpg"


def photo(case: str) -> Path:
    return FOLDER / f"{case}.jpg"


def truth(case: str) -> dict:
    return json.loads((FOLDER / f"{case}.json").read_text())
