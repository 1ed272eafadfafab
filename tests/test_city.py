"""The City type, and the promise that the rules engine imports no image code."""

import subprocess
import sys

import pytest

from scorer.city import City, neighbours


def test_rules_import_only_the_standard_library():
    code = (
        "import sys, scorer.rules, scorer.table, scorer.notation, scorer.report, scorer.cli;"
        "bad = {'numpy', 'cv2', 'onnxruntime', 'PIL'} & set(sys.modules);"
        "print(sorted(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_city_rejects_wrong_shape_and_unknown_buildings():
    with pytest.raises(ValueError, match="4x4"):
        City.from_rows([["shop"] * 4] * 3)
    with pytest.raises(ValueError, match="unknown building"):
        City.from_rows([["shop"] * 4] * 3 + [["shop", "castle", "shop", "shop"]])


def test_type_counts_merge_tavern_kinds():
    city = City.from_rows([["tavern-drink", "tavern-bed", "shop", "shop"]] + [["house"] * 4] * 3)
    assert city.type_counts() == {
        "shop": 2, "factory": 0, "tavern": 2, "office": 0, "park": 0, "house": 12}


def test_neighbours_stay_inside_the_grid():
    assert sorted(neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert len(list(neighbours((1, 2)))) == 4
