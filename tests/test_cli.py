"""The CLI on typed-in cities: scoreboard, JSON schema, and one-line errors with exit code 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"
TABLE = [str(EXAMPLES / n) for n in ("ann-ben.txt", "ben-cy.txt", "cy-ann.txt")]


def test_scoreboard_lists_categories_players_and_winner(capsys):
    assert main(["score-grid", *TABLE, "--players", "Ann,Ben,Cy"]) == 0
    out = capsys.readouterr().out
    order = [out.index(c) for c in ("shops", "factories", "taverns", "offices", "parks", "houses")]
    assert order == sorted(order)
    assert "City 1 (Ann & Ben)" in out and "Winner: Ben" in out
    assert "most factories" in out


def test_json_schema(capsys):
    assert main(["score-grid", *TABLE, "--players", "Ann,Ben,Cy", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    city = result["cities"][0]
    assert set(city) >= {"grid", "scores", "explanation", "factory_rank"}
    assert list(city["scores"]) == [
        "shops", "factories", "taverns", "offices", "parks", "houses", "total"]
    assert city["scores"]["total"] == sum(list(city["scores"].values())[:6])
    assert result["winner"] == ["Ben"]
    assert [p["name"] for p in result["players"]] == ["Ben", "Ann", "Cy"]


def test_rulebook_cross_from_the_examples_folder(capsys):
    assert main(["score-grid", str(EXAMPLES / "cross.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cities"][0]["scores"]["shops"] == 23


@pytest.mark.parametrize(
    "content, message",
    [
        (b"S S S\nS S S S\nS S S S\nS S S S\n", "line 1: 3 buildings"),
        (b"S S S S\nS Q S S\nS S S S\nS S S S\n", "line 2, column 2: unknown building 'Q'"),
        (b"S S S S S S S S S S S S S S S\n", "15 buildings"),
        (b"", "0 rows found"),
        (b"\x00\x01\x02\xff\xd8\xff", "not a text file"),
    ],
    ids=["wrong-row-length", "unknown-token", "15-cells", "empty-file", "binary-file"],
)
def test_malformed_city_is_one_line_exit_2(tmp_path, content, message):
    path = tmp_path / "city.txt"
    path.write_bytes(content)
    run = subprocess.run(
        [sys.executable, "-m", "scorer.cli", "score-grid", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and message in run.stderr
    assert "Traceback" not in run.stderr


def test_wrong_number_of_cities_for_players(capsys):
    assert main(["score-grid", *TABLE, "--players", "Ann,Ben"]) == 2
    assert "2 player(s) build 4 cities" in capsys.readouterr().err


def test_scoreboard_names_cells_to_check():
    from helpers import city

    from scorer.report import format_scoreboard
    from scorer.table import Table, score_table

    result = score_table(Table((city("S S S S / S S S S / S S S S / S S S S"),)))
    result["cities"][0]["uncertain"] = [[1, 2]]
    result["cities"][0]["confidence"] = [[1.0] * 4, [1.0, 1.0, 0.45, 1.0], [1.0] * 4, [1.0] * 4]
    assert "check: r2c3 (45% sure)" in format_scoreboard(result)
