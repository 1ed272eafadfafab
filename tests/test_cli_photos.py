"""`btc-scorer score` on photos: the JSON schema, mixed inputs, and one-line errors."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import independent
from photos import CASES, EMPTY_TABLE, photo, truth
from PIL import Image

from scorer.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_score_photos_json(capsys):
    cases = CASES[:3]
    args = ["score", "--json", "--players", "Ann,Ben,Cy", *(str(photo(c)) for c in cases)]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    for city, case in zip(result["cities"], cases, strict=True):
        assert set(city) >= {"photo", "grid", "confidence", "corners", "scores", "explanation",
                             "factory_rank", "timing_ms"}
        assert city["grid"] == truth(case)["grid"]
        assert city["timing_ms"]["total"] > 0
        assert len(city["corners"]) == 4
    assert result["winner"] and len(result["players"]) == 3


def test_a_typed_city_can_stand_in_for_a_photo(capsys):
    args = ["score", "--json", str(photo(CASES[0])), str(EXAMPLES / "cross.txt")]
    assert main(args) == 0
    cities = json.loads(capsys.readouterr().out)["cities"]
    assert cities[1]["scores"]["shops"] == 23 and cities[0]["grid"] == truth(CASES[0])["grid"]


def _png(size, mode="RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no city found"),
        (b"", "empty"),
        (b"just some words", "not an image"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 64, "damaged"),
        (_png((20000, 20000), "1"), "photos up to 50 MP"),
    ],
    ids=["empty-table", "zero-bytes", "not-an-image", "corrupt-jpeg", "20000x20000"],
)
def test_bad_photos_are_one_line_and_exit_2(tmp_path, content, message):
    path = EMPTY_TABLE if content is None else tmp_path / "city.jpg"
    if content is not None:
        path.write_bytes(content)
    run = subprocess.run([sys.executable, "-m", "scorer.cli", "score", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and message in run.stderr
    assert str(path) in run.stderr and "Traceback" not in run.stderr


def test_fuzzed_files_are_one_line_and_exit_2_with_no_library_noise(tmp_path, capfd):
    import random

    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    import fuzz

    rng, seeds = random.Random(5), fuzz.seeds()
    cases = [("thin", fuzz.thin_png(4000, 2), ".png"), ("wide", fuzz._png(100000, 1), ".png"),
             ("avif", fuzz.encoded("AVIF"), ".heic"), ("bomb", fuzz.jpeg_claiming(7000, 7000), ".jpg")]
    for _ in range(16):
        what, data = fuzz.upload_case(rng, seeds)
        cases.append((what, data, rng.choice([".jpg", ".heic", ".png", ""])))
    for k, (what, data, suffix) in enumerate(cases):
        path = tmp_path / f"city{k}{suffix}"
        path.write_bytes(data)
        code = main(["score", str(path)])
        out, err = capfd.readouterr()
        assert code in (0, 2), what
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("btc-scorer: error:"), (what, err)
        else:
            assert err == "" and out, (what, err)


def test_a_washed_out_city_says_to_retake_it_in_even_light(tmp_path, capsys):
    """An overexposed city on a tartan cloth (independent seed 785), where no cell reads
    surely: it is read, every doubtful cell to check, and the scoreboard says why."""
    image, _ = independent("independent_photos").render(78500003, "tartan", "hard", "artwork")
    path = tmp_path / "washed-out.jpg"
    Image.fromarray(image).save(path, quality=95)
    assert main(["score", "--json", str(path)]) == 0
    city = json.loads(capsys.readouterr().out)["cities"][0]
    assert city["hardly_sure"] is True and not city["small_tiles"]
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(read with low confidence)\n  hardly a cell reads surely: retake the photo in even light" in out


@pytest.mark.parametrize("width, small", [(100, True), (240, False)], ids=["14px", "36px"])
def test_tiles_too_small_to_be_sure_flag_every_cell(tmp_path, capsys, width, small):
    """Tiles of 12 to 18 px were seen misread with no doubt shown (this photo shrunk so): at
    14 px every cell is flagged and the scoreboard says why; at 36 px, no cell."""
    image = Image.open(photo("easy-00"))
    image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    path = tmp_path / "small.jpg"
    image.save(path, quality=92)
    assert main(["score", "--json", str(path)]) == 0
    city = json.loads(capsys.readouterr().out)["cities"][0]
    assert city["small_tiles"] is small and (city["tile_px"] < 20) is small
    assert city["hardly_sure"] is False  # (too small is said instead)
    assert len(city["uncertain"]) == (16 if small else 0)
    assert main(["score", str(path)]) == 0
    assert ("check: every cell (the tiles are only" in capsys.readouterr().out) is small
