"""The web app under a real server (waitress) on loopback: a whole table, then a load run.

    python bench/web_load.py [--clients 8] [--seconds 30]

1. Uploads 7 fixture photos to a 7-player table as the page does, one after another, and
   reports the time from the first upload to a complete scoreboard.
2. Runs N concurrent clients for S seconds (reading the table, correcting cells, uploading a
   photo now and then) and reports requests, errors, latency and the server's memory.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = sorted((ROOT / "tests" / "fixtures" / "photos").glob("*-0*.jpg"))[:7]
BUILDINGS = ["shop", "factory", "office", "park", "house"]


def request(base, method, path, body=None, photo=None, timeout=60):
    """(status, reply bytes); ``body`` is JSON (or raw bytes sent as JSON), ``photo`` a file."""
    headers, data = {}, None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if photo is not None:
        boundary = uuid.uuid4().hex
        data = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
                f"filename=\"c.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() + photo + \
            f"\r\n--{boundary}--\r\n".encode()
        headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: str, threads: int = 8) -> subprocess.Popen:
    """``btc-scorer serve`` in a child process, answering once this returns."""
    server = subprocess.Popen([sys.executable, "-m", "scorer.cli", "serve", "--port", str(port),
                               "--data", data, "--threads", str(threads)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


@contextmanager
def running_server(threads: int = 8):
    """(base URL, server process) of a fresh server on a free port with an empty data folder."""
    port, data = free_port(), tempfile.mkdtemp()
    server = start_server(port, data, threads)
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.terminate()
        server.wait()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    with running_server() as (base, server):
        photos = [p.read_bytes() for p in PHOTOS]
        _, body = request(base, "POST", "/api/tables", {"players": list("ABCDEFG")})
        table = json.loads(body)["id"]
        start = time.perf_counter()
        for i, photo in enumerate(photos):
            status, body = request(base, "POST", f"/api/tables/{table}/cities/{i + 1}/photo",
                                   photo=photo)
        complete = json.loads(body)["scores"]["complete"]
        whole = time.perf_counter() - start
        print(f"7 photos ({sum(map(len, photos)) / 1e6:.1f} MB) to scoreboard: {whole:.2f} s "
              f"({1000 * whole / 7:.0f} ms per photo), complete={complete}")

        rss_before = rss_mb(server.pid)
        latencies, errors, lock = [], [], threading.Lock()
        stop = time.perf_counter() + args.seconds

        def client(k: int):
            n = 0
            while time.perf_counter() < stop:
                n += 1
                if n % 10 == 0:
                    call = ("POST", f"/api/tables/{table}/cities/{k % 7 + 1}/photo", None,
                            photos[k % 7])
                elif n % 3 == 0:
                    call = ("PUT", f"/api/tables/{table}/cities/{k % 7 + 1}/cells/{n % 4 + 1}/1",
                            {"building": BUILDINGS[n % 5]}, None)
                else:
                    call = ("GET", f"/api/tables/{table}", None, None)
                t0 = time.perf_counter()
                status, reply = request(base, *call[:2], body=call[2], photo=call[3])
                with lock:
                    latencies.append(time.perf_counter() - t0)
                    if status >= 400:
                        errors.append((status, call[0], call[1], reply[:200]))

        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ms = sorted(1000 * x for x in latencies)
        print(f"load: {args.clients} clients x {args.seconds:.0f} s: {len(ms)} requests "
              f"({len(ms) / args.seconds:.0f}/s), errors {len(errors)}, "
              f"median {statistics.median(ms):.0f} ms, "
              f"p95 {ms[int(0.95 * len(ms))]:.0f} ms, max {ms[-1]:.0f} ms")
        for error in errors[:5]:
            print("  error:", *error)
        print(f"server memory (RSS): {rss_before:.0f} MB before the load, "
              f"{rss_mb(server.pid):.0f} MB after; {os.cpu_count()} cores")
        return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
