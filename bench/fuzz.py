"""Fuzz the web app with mutated uploads and malformed API calls: never a 500, never a hang.

    python bench/fuzz.py [--uploads 2000] [--calls 1000] [--seed 7]

Runs the app under waitress on loopback (real SQLite file, real models) and reports the
cases run, the answers by status, any 5xx (with the case that caused it), the slowest
answer and the server's memory. ``tests/test_fuzz.py`` runs a few hundred of the same
cases through Flask's test client on every test run.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import struct
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = sorted((ROOT / "tests" / "fixtures" / "photos").glob("*.jpg"))
NAMES = ["Ann", "", " ", "\u00e9", "\ud800", "\x00", "=cmd|' /C calc'!A0", "<b>x</b>",
         "a" * 200, "\U0001f600", 7, None, [], {}, True]
NUMBERS = [0, -1, 1.5, 1e400, -1e400, 10 ** 400, 2 ** 63, 2 ** 64, "1", None, True, [1]]
BUILDING = ["shop", "castle", "", None, 3, ["shop"], "\ud800"]
IDS = ["999", str(2 ** 63), str(2 ** 64), "-1", "0", "%00", "..", "%2e%2e", "a" * 300,
       "%F0%9F%98%80", "%ED%A0%80", "1e3", "%20"]


def _png(width: int, height: int, pixels: bytes | None = None) -> bytes:
    """A grey PNG of any claimed size (``pixels`` None: the data of a 1x1 image)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = pixels if pixels is not None else b"\x00" * (1 + width)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                                 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def thin_png(width: int, height: int) -> bytes:
    return _png(width, height, b"".join(b"\x00" + b"\x80" * width for _ in range(height)))


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small real JPEG whose header claims another size (a header bomb)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (16, 16), (90, 60, 30)).save(out, "JPEG")
    data = bytearray(out.getvalue())
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def encoded(fmt: str, size=(320, 240)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    image = Image.new("RGB", size, (120, 80, 40))
    if fmt == "HEIF":
        import pillow_heif

        pillow_heif.register_heif_opener()
    image.save(out, fmt)
    return out.getvalue()


def seeds() -> list[bytes]:
    """Valid files to mutate: fixture photos and one image in each format."""
    found = [p.read_bytes() for p in PHOTOS[:4]]
    for fmt in ("PNG", "WEBP", "HEIF", "AVIF"):
        try:
            found.append(encoded(fmt))
        except (OSError, KeyError, ValueError, ImportError):
            continue
    return found


def upload_case(rng: random.Random, base: list[bytes]) -> tuple[str, bytes]:
    """(what, file bytes): a mutated, cut, forged or odd image."""
    kind = rng.randrange(10)
    data = bytearray(rng.choice(base))
    if kind == 0:
        cut = rng.randrange(len(data))
        return f"cut at {cut}", bytes(data[:cut])
    if kind == 1:
        for _ in range(rng.randint(1, 30)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return "flipped bytes", bytes(data)
    if kind == 2:
        at = rng.randrange(len(data))
        return f"inserted at {at}", bytes(data[:at] + rng.randbytes(rng.randint(1, 500)) + data[at:])
    if kind == 3:
        w, h = rng.choice([(7000, 7000), (65535, 65535), (20000, 1), (1, 20000), (9000, 5000)])
        return f"JPEG claiming {w}x{h}", jpeg_claiming(w, h)
    if kind == 4:
        w, h = rng.choice([(100000, 1), (4000, 2), (1, 3000), (2, 2), (1, 1), (15, 400),
                           (600, 40)])
        return f"PNG {w}x{h}", thin_png(w, h) if w * h < 10 ** 6 else _png(w, h)
    if kind == 5:
        return "random bytes", rng.randbytes(rng.randint(0, 3000))
    if kind == 6:
        head = data[:rng.randint(12, 64)]
        return "header only", bytes(head) + rng.randbytes(rng.randint(0, 200))
    if kind == 7:
        cut = rng.randrange(min(len(data), 4000))
        return f"start cut at {cut}", bytes(data[:cut])
    if kind == 8:
        return "a valid photo", bytes(data)
    return "empty", b""


def api_case(rng: random.Random) -> tuple[str, str, object]:
    """(method, path with {t} for a real table id, JSON body or raw bytes)."""
    city, cell = rng.choice(["1", "9", "0", str(2 ** 63), "-1"]), rng.choice(["1", "5", "0"])
    table = "{t}" if rng.random() < 0.7 else rng.choice(IDS)
    corner = [rng.choice(NUMBERS), rng.choice(NUMBERS)]
    bodies = [
        {"players": [rng.choice(NAMES) for _ in range(rng.randint(0, 9))],
         "name": rng.choice(NAMES), "difficulty": rng.choice(NUMBERS)},
        {"name": rng.choice(NAMES)},
        {"grid": rng.choice([[["shop"] * 4] * 4, [[rng.choice(BUILDING)] * 4] * 4, [[]], "x",
                             None])},
        {"building": rng.choice(BUILDING)},
        {"order": rng.choice([[2, 1, 0], [0, 1], [0, 0, 1], [1.5, 0, 2], "012", None,
                              [True, 0, 2], [2 ** 70, 0, 1], [-1, 0, 1]])},
        {"corners": rng.choice([[corner] * 4, [[0, 0], [1e9, 0], [1e9, 1e9], [0, 1e9]],
                                [[-5000, -5000], [-4000, -5000], [-4000, -4000], [-5000, -4000]],
                                [[1, 1]] * 4, "x", [[0, 0]] * 3])},
        b"[" * rng.randint(1000, 100000) + b"]" * rng.randint(0, 10),
        b'{"name": NaN}', b'{"corners": Infinity}', b'{"name": "\\ud800"}',
        b"\xff\xfe not utf-8", rng.randbytes(rng.randint(0, 300)),
    ]
    body = rng.choice(bodies)
    route = rng.choice([
        ("POST", "/api/tables"), ("GET", f"/api/tables/{table}"),
        ("PATCH", f"/api/tables/{table}"), ("DELETE", f"/api/tables/{table}"),
        ("PUT", f"/api/tables/{table}/cities/{city}/grid"),
        ("PUT", f"/api/tables/{table}/cities/{city}/cells/{cell}/{cell}"),
        ("POST", f"/api/tables/{table}/cities/{city}/corners"),
        ("GET", f"/api/tables/{table}/cities/{city}/photo.jpg"),
        ("GET", f"/api/tables/{table}/export.csv"), ("GET", f"/api/tables/{table}/export.json"),
        ("PUT", f"/api/tables/{table}/order"),
        ("GET", f"/tables/{table}"), ("GET", "/"),
    ])
    return route[0], route[1], body


def run(send, uploads: int, calls: int, seed: int) -> dict:
    """Run the cases through ``send(method, path, body=..., photo=...) -> (status, bytes)``."""
    rng = random.Random(seed)
    base = seeds()
    statuses, failures, slowest, times = Counter(), [], (0.0, ""), []
    status, reply = send("POST", "/api/tables", body={"players": ["Ann", "Ben", "Cy"]})
    table = json.loads(reply)["id"]
    cases = [("upload", k) for k in range(uploads)] + [("api", k) for k in range(calls)]
    rng.shuffle(cases)
    for kind, _ in cases:
        t0 = time.perf_counter()
        if kind == "upload":
            what, data = upload_case(rng, base)
            city = rng.randint(1, 3)
            whole = rng.random() < 0.2  # a photo of the whole table
            path = f"/api/tables/{table}/photo" if whole else \
                f"/api/tables/{table}/cities/{city}/photo"
            status, reply = send("POST", path, photo=data)
            case = f"upload {what} ({len(data)} bytes) to {'the table' if whole else city}"
        else:
            method, path, body = api_case(rng)
            path = path.format(t=table)
            status, reply = send(method, path, body=body)
            case = f"{method} {path[:80]} {str(body)[:80]!r}"
            if method == "DELETE" and status == 204:
                status, reply = send("POST", "/api/tables", body={"players": ["Ann", "Ben", "Cy"]})
                table = json.loads(reply)["id"]
        took = time.perf_counter() - t0
        slowest = max(slowest, (took, case))
        times.append(took)
        statuses[status] += 1
        if status >= 500:
            failures.append((status, case, reply[:200]))
    for path in ("/", f"/tables/{table}", f"/api/tables/{table}"):
        status, reply = send("GET", path)
        statuses[status] += 1
        if status != 200:
            failures.append((status, f"GET {path} after the fuzz", reply[:200]))
    times.sort()
    return {"cases": len(cases), "statuses": dict(sorted(statuses.items())),
            "failures": failures, "slowest": slowest, "p99": times[int(0.99 * len(times))]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uploads", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from web_load import request, rss_mb, running_server

    with running_server() as (base, server):
        result = run(lambda method, path, body=None, photo=None: request(
            base, method, path, body=body, photo=photo), args.uploads, args.calls, args.seed)
        memory = rss_mb(server.pid)
    print(f"fuzz: {result['cases']} cases ({args.uploads} uploads, {args.calls} API calls, "
          f"seed {args.seed}): answers {result['statuses']}; 5xx: {len(result['failures'])}; "
          f"p99 {result['p99']:.2f} s, slowest {result['slowest'][0]:.2f} s "
          f"({result['slowest'][1][:80]}); "
          f"server memory {memory:.0f} MB")
    for failure in result["failures"][:10]:
        print("  failure:", *failure)
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
