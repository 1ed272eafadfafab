"""The CLI on typed-in cities: scoreboard, JSON schema, and one-line errors with exit code 2."""

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import named_pipe

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
        ("S S S S # caf\u00e9\n".encode("latin-1") * 4, "not UTF-8 text"),
        ("S S S S\n".encode("utf-16") * 4, "not UTF-8 text (it is UTF-16)"),
    ],
    ids=["wrong-row-length", "unknown-token", "15-cells", "empty-file", "binary-file", "latin-1",
         "utf-16"],
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
    assert "2 players build 4 cities, but 3 cities were given" in capsys.readouterr().err


def test_scoreboard_names_cells_to_check():
    from helpers import city

    from scorer.report import format_scoreboard
    from scorer.table import Table, score_table

    result = score_table(Table((city("S S S S / S S S S / S S S S / S S S S"),)))
    result["cities"][0]["uncertain"] = [[1, 2]]
    result["cities"][0]["confidence"] = [[1.0] * 4, [1.0, 1.0, 0.45, 1.0], [1.0] * 4, [1.0] * 4]
    assert "check: r2c3 (45% sure)" in format_scoreboard(result)


def one_line_error(capsys, args, message):
    """The CLI refuses ``args``: exit 2, nothing on stdout, one line naming the mistake."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("btc-scorer: error: ") and captured.err.count("\n") == 1
    assert message in captured.err


SOLO = TABLE  # three cities: You & Automartin, Automaville, Automanon & You


@pytest.mark.parametrize("name", ["Automartin", "Automanon", " automartin "])
def test_solo_player_may_not_take_an_automas_name(capsys, name):
    one_line_error(capsys, ["score-grid", *SOLO, "--players", name], "is a solo opponent's name")


@pytest.mark.parametrize("players", ["Ann,ann,Ben", "Ann, ann ,Ben", "Ann,Ben,ANN",
                                     "Ann,An\u200bn,Ben", "Ann,\uff21nn,Ben"])
def test_names_differing_by_case_or_spaces_are_one_player(capsys, players):
    """(invisible characters, and look-alike forms such as a full-width letter, too)"""
    one_line_error(capsys, ["score-grid", *TABLE, "--players", players], "must be different")


@pytest.mark.parametrize("players", ["Ann,,Ben", "Ann, ,Ben", "Ann,Ben,", ",Ann,Ben", ""])
def test_empty_player_name_is_refused(capsys, players):
    one_line_error(capsys, ["score-grid", *TABLE, "--players", players], "a name is empty")


def test_spaces_around_names_are_trimmed(capsys):
    assert main(["score-grid", *TABLE, "--players", " Ann , Ben,Cy ", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == ["Ben"]


@pytest.mark.parametrize("players", [["--players", "Ann,Ben,Cy"], []], ids=["three", "none"])
def test_difficulty_only_for_the_solo_game(capsys, players):
    args = ["score-grid", *TABLE, *players, "--difficulty", "4"]
    one_line_error(capsys, args, "--difficulty is for the solo game only")


def test_solo_difficulty_changes_automaville(capsys):
    assert main(["score-grid", *SOLO, "--players", "Ann", "--difficulty", "7", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["difficulty"] == 7 and result["cities"][1]["modifier"] == 6


def test_one_city_for_a_solo_game_is_counted_in_words(capsys):
    one_line_error(capsys, ["score-grid", TABLE[0], "--players", "Ann"],
                   "1 player builds 3 cities, but 1 city was given")


@pytest.mark.parametrize(
    "args, message",
    [
        (["score-grid"], "the following arguments are required: CITY.txt"),
        (["score-grid", *TABLE, "--colour"], "unrecognized arguments: --colour"),
        (["score-grid", *TABLE, "--players", "Ann", "--difficulty", "hard"], "invalid int value"),
        (["score"], "the following arguments are required: PHOTO"),
        (["tally"], "invalid choice: 'tally'"),
        ([], "the following arguments are required: command"),
    ],
    ids=["no-cities", "unknown-option", "difficulty-not-a-number", "no-photos",
         "unknown-command", "no-command"],
)
def test_argument_mistakes_are_one_line(capsys, args, message):
    one_line_error(capsys, args, message)


def test_argument_mistake_from_the_installed_command_is_one_line():
    run = subprocess.run([sys.executable, "-m", "scorer.cli", "score-grid"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("btc-scorer: error: ") and run.stderr.count("\n") == 1
    assert "usage:" not in run.stderr


def test_city_saved_with_a_byte_order_mark_is_read(tmp_path, capsys):
    path = tmp_path / "cross.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "cross.txt").read_bytes())
    assert main(["score-grid", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cities"][0]["scores"]["shops"] == 23


def test_city_the_game_cannot_build_is_scored_with_a_warning(tmp_path, capsys):
    path = tmp_path / "drinks.txt"
    path.write_text("Td Td Td Td\nTd Td Td Td\nS H S S\nS S S Tb\n")
    assert main(["score-grid", str(path)]) == 0
    captured = capsys.readouterr()
    assert "total" in captured.out
    assert captured.err == (f"btc-scorer: warning: city 1 ({path}): 8 tavern-drink buildings in "
                            "this city, but the game has only 7\n")


def test_cities_that_together_use_more_than_the_game_has_are_warned_about(tmp_path, capsys):
    path = tmp_path / "shops.txt"
    path.write_text("S S S S\n" * 3 + "S H O S\n")
    assert main(["score-grid", str(path), str(path), "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    message = "28 shop buildings in these cities together, but the game has only 24"
    assert result["warnings"] == [message]
    assert [c["warnings"] for c in result["cities"]] == [[], []]
    assert captured.err == f"btc-scorer: warning: {message}\n"


def test_a_city_the_game_can_build_has_no_warnings(capsys):
    assert main(["score-grid", *TABLE, "--players", "Ann,Ben,Cy", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert captured.err == "" and result["warnings"] == []
    assert all(c["warnings"] == [] for c in result["cities"])


def serve_mistake(*args: str) -> str:
    """Run ``btc-scorer serve`` as a process; it must stop at once with one line, exit 2."""
    run = subprocess.run([sys.executable, "-m", "scorer.cli", "serve", *args],
                         capture_output=True, text=True, check=False, timeout=60)
    assert run.returncode == 2 and run.stdout == "", run
    assert run.stderr.startswith("btc-scorer: error: ") and run.stderr.count("\n") == 1, run
    return run.stderr


def test_serve_on_a_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = serve_mistake("--port", str(port), "--data", str(tmp_path))
    assert f"cannot listen on 127.0.0.1 port {port}" in err and "running already" in err


def test_serve_with_a_data_folder_it_cannot_use_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    assert "cannot be used" in serve_mistake("--data", str(tmp_path / "a-file"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "btc.sqlite3").write_bytes(bytes(range(256)) * 16)
    assert "not a database" in serve_mistake("--data", str(tmp_path / "other"))
    assert (tmp_path / "other" / "btc.sqlite3").read_bytes() == bytes(range(256)) * 16


@pytest.mark.parametrize("args, message", [
    (["--port", "99999"], "--port is a whole number from 1 to 65535, not '99999'"),
    (["--port", "0"], "--port is a whole number from 1 to 65535"),
    (["--threads", "0"], "--threads is a whole number from 1 to 64, not '0'"),
], ids=["port-too-large", "port-zero", "no-threads"])
def test_serve_options_out_of_range_are_one_line(tmp_path, args, message):
    assert message in serve_mistake(*args, "--data", str(tmp_path))


@pytest.mark.parametrize("make", [lambda p: p.mkdir(), named_pipe], ids=["folder", "named-pipe"])
def test_a_city_file_that_is_no_file_is_refused_at_once(tmp_path, capsys, make):
    make(tmp_path / "city.txt")
    make(tmp_path / "city.jpg")
    one_line_error(capsys, ["score-grid", str(tmp_path / "city.txt")], "not a file")
    one_line_error(capsys, ["score", str(tmp_path / "city.jpg")], "city.jpg: not a file")


def test_a_player_name_with_control_characters_is_refused(capsys):
    one_line_error(capsys, ["score-grid", *TABLE, "--players", "Ann,B\x1b[2Jen,Cy"],
                   "a player's name contains characters that are not text")


def test_a_file_name_with_escape_sequences_is_shown_escaped(capsys):
    """A terminal acts on what it prints: a path's control bytes are written out."""
    one_line_error(capsys, ["score-grid", "\x1b]0;title\x07\x1b[2Jcity.txt"],
                   "\\x1b]0;title\\x07\\x1b[2Jcity.txt: cannot read file")


@pytest.mark.parametrize("name", ["B\x9b31men", "Ben\u2028Cy"], ids=["8-bit-escape", "line-separator"])
def test_a_player_name_with_8_bit_controls_or_separators_is_refused(capsys, name):
    one_line_error(capsys, ["score-grid", *TABLE, "--players", f"Ann,{name},Dee"],
                   "a player's name contains characters that are not text")


@pytest.mark.parametrize("command", [["score", "x.jpg"], ["serve"]])
def test_an_empty_data_folder_is_refused(capsys, command):
    one_line_error(capsys, [*command, "--data", ""], "--data names a folder: it cannot be empty")
