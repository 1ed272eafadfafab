"""Learning a printing from a player's corrections, measured through the web API.

    python bench/adaptation_web.py [--edition J] [--teach 2] [--test-photos 40] [--seed 4343]

A player whose copy of the game the model never saw (one of bench/adaptation.py's editions)
uses the app as anyone would, on a fresh data folder (a real SQLite file, the real models,
through Flask's test client): they photograph a city (POST .../photo), tap its corners where
the reader found it elsewhere or turned (POST .../corners), correct every misread cell (PUT
.../cells/R/C: the reader learns in that request) and confirm the city (POST .../accept).
After --teach such photos they photograph --test-photos other cities of their copy, each on a
table of its own (with --as-played, seven to a table: a table whose seven cities are known
teaches its cells read surely too, as in play). The same test photos are first read on
another fresh folder (nothing learned, but from complete tables with --as-played).

Photos: the independent renderer (bench/independent_photos.py), easy and medium tiers on
light wood, dark wood and linen, 1600x1200 JPEG (every third upright), as bench/adaptation.py
makes them, from other seeds. It prints the exact-city rate before and after teaching (a
refused or turned city is wrong), the cells the player corrected, and the median time of an
upload request and of a correction request, against the photo's plain decode (same files).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import adaptation  # noqa: E402
from independent import corner_error  # noqa: E402

from web import create_app  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def jpeg(image: np.ndarray) -> bytes:
    """A rendered photo (RGB) as the phone's JPEG file."""
    return cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                        [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


class Player:
    """One player's session with the app on its own data folder."""

    def __init__(self, folder: str):
        app = create_app({"TESTING": True, "DATA_DIR": folder})
        self.client = app.test_client()
        self.upload_ms: list[float] = []
        self.correct_ms: list[float] = []

    def new_table(self) -> str:
        return self.client.post("/api/tables", json={"players": PLAYERS}).json["id"]

    def photograph(self, table: str, seat: int, data: bytes) -> dict | None:
        """The city read from an uploaded photo, or None when it was refused."""
        t0 = time.perf_counter()
        response = self.client.post(f"/api/tables/{table}/cities/{seat}/photo",
                                    data={"photo": (io.BytesIO(data), "city.jpg")},
                                    content_type="multipart/form-data")
        self.upload_ms.append((time.perf_counter() - t0) * 1000)
        if response.status_code not in (200, 422):
            raise SystemExit(f"upload: {response.status_code} {response.json}")
        city = response.json.get("table", response.json)["cities"][seat - 1]
        return city if response.status_code == 200 else None

    def teach(self, table: str, seat: int, data: bytes, truth: dict) -> int:
        """Photograph a city, tap its corners if it was not found there, correct every
        misread cell (as shown: a city read turned is corrected turned) and accept the city:
        the cells corrected."""
        city = self.photograph(table, seat, data)
        if city is None or corner_error(city["reading"]["corners"], truth["corners"])[0] > 0.5:
            response = self.client.post(f"/api/tables/{table}/cities/{seat}/corners",
                                        json={"corners": truth["corners"]})
            city = response.json["cities"][seat - 1]
        roll = corner_error(city["reading"]["corners"], truth["corners"])[1]
        want = np.rot90(np.array(truth["grid"]), roll).tolist()  # the truth as shown
        wrong = [(r, c) for r in range(4) for c in range(4) if city["grid"][r][c] != want[r][c]]
        for r, c in wrong:
            t0 = time.perf_counter()
            self.client.put(f"/api/tables/{table}/cities/{seat}/cells/{r + 1}/{c + 1}",
                            json={"building": want[r][c]})
            self.correct_ms.append((time.perf_counter() - t0) * 1000)
        self.client.post(f"/api/tables/{table}/cities/{seat}/accept")
        return len(wrong)

    def exact(self, shots: list[tuple[bytes, dict]], seats: int = 1) -> int:
        """How many of the photos' cities read exactly, ``seats`` to a table of seven: a
        table whose seven cities are known teaches its cells read surely (its scoreboard was
        seen), so one city a table reads them all with what was taught alone."""
        exact, table = 0, None
        for i, (data, truth) in enumerate(shots):
            if i % seats == 0:
                table = self.new_table()
            city = self.photograph(table, i % seats + 1, data)
            exact += city is not None and city["grid"] == truth["grid"]
        return exact


def decode_ms(shots: list[tuple[bytes, dict]]) -> float:
    """The median plain full decode of the photos' files."""
    times = []
    for data, _ in shots:
        t0 = time.perf_counter()
        cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", choices=sorted(adaptation.EDITIONS), default="J")
    parser.add_argument("--teach", type=int, default=2, help="photos the player teaches with")
    parser.add_argument("--test-photos", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4343)
    parser.add_argument("--workers", type=int, default=2, help="processes rendering the photos")
    parser.add_argument("--as-played", action="store_true",
                        help="seven test photos to a table: complete tables teach too")
    args = parser.parse_args(argv)
    jobs = adaptation.jobs(args.seed, args.teach, args.test_photos, 0, args.edition)
    teaching = [(jpeg(image), truth)
                for image, truth in adaptation.render_all(jobs["teach"], args.workers)]
    tests = [(jpeg(image), truth)
             for image, truth in adaptation.render_all(jobs["test"], args.workers)]
    with tempfile.TemporaryDirectory() as fresh, tempfile.TemporaryDirectory() as taught:
        seats = len(PLAYERS) if args.as_played else 1
        before = Player(fresh).exact(tests, seats)
        player = Player(taught)
        table = player.new_table()
        corrected = [player.teach(table, seat, data, truth)
                     for seat, (data, truth) in enumerate(teaching, start=1)]
        player.upload_ms.clear()
        after = player.exact(tests, seats)
        learning = player.client.get("/api/learning").json
    n = len(tests)
    decode = decode_ms(tests)
    upload = statistics.median(player.upload_ms)
    print(f"edition {args.edition} through the web API (seed {args.seed}), {n} test photos, "
          + ("seven to a table" if args.as_played else "each on a table of its own"))
    print(f"  exact before teaching: {before}/{n} ({100 * before / n:.1f} %)")
    print(f"  taught {args.teach} photos, cells corrected {corrected}, "
          f"learned from {learning.get('cells')} cells")
    print(f"  exact after: {after}/{n} ({100 * after / n:.1f} %)")
    print(f"  upload request, median: {upload:.0f} ms against a {decode:.1f} ms decode "
          f"({upload / decode:.1f}x)")
    if player.correct_ms:
        print(f"  correction request (the reader learns in it), median: "
              f"{statistics.median(player.correct_ms):.0f} ms")


if __name__ == "__main__":
    main()
