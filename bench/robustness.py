"""The server under abuse, on loopback: figures for the README's "Server robustness".

    python bench/robustness.py [--rounds 60] [--kills 15] [--bomb-seconds 20] [--idle 300]

1. Torn cities: 4 different photos uploaded at once to one city, ``--rounds`` times; a city
   is torn when its photo, grid and corners do not all come from one of them.
2. ``kill -9`` during an upload, ``--kills`` times: after a restart the city must be whole,
   and be the killed upload's only if that upload was acknowledged.
3. Header bombs: 8 clients sending 632-byte JPEGs that claim 7000x7000, while another client
   reads the table; the server's peak memory and that client's slowest answer.
4. Idle connections: ``--idle`` half-sent requests held open, then one ordinary request.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz import jpeg_claiming  # noqa: E402
from web_load import free_port, request, rss_mb, running_server, start_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "photos"
CASES = sorted(p.stem for p in FIXTURES.glob("*-0*.json"))[:4]


def truth(case: str) -> dict:
    return json.loads((FIXTURES / f"{case}.json").read_text())


def photo(case: str) -> bytes:
    return (FIXTURES / f"{case}.jpg").read_bytes()


def whole_city(base: str, table: str) -> str | None:
    """The case the city's photo, grid and corners all come from, or None if torn."""
    status, reply = request(base, "GET", f"/api/tables/{table}/cities/1/photo.jpg")
    if status != 200:
        return None
    stored = cv2.imdecode(np.frombuffer(reply, np.uint8), cv2.IMREAD_COLOR).astype(int)

    def distance(case):
        original = cv2.imread(str(FIXTURES / f"{case}.jpg"))
        return np.abs(original - stored).mean() if original.shape == stored.shape else np.inf

    kept = min(CASES, key=distance)
    city = json.loads(request(base, "GET", f"/api/tables/{table}")[1])["cities"][0]
    corners = np.array(city["reading"]["corners"]) if city["reading"] else None
    if city["grid"] != truth(kept)["grid"] or corners is None \
            or np.abs(corners - truth(kept)["corners"]).max() > 20:
        return None
    status, _ = request(base, "GET", f"/api/tables/{table}/cities/1/warped.jpg")
    return kept if status == 200 else None


def new_table(base: str) -> str:
    return json.loads(request(base, "POST", "/api/tables", {"players": ["A", "B", "C"]})[1])["id"]


def torn_under_concurrent_uploads(rounds: int) -> str:
    with running_server() as (base, _):
        table, torn, errors = new_table(base), 0, 0
        with ThreadPoolExecutor(4) as pool:
            for _ in range(rounds):
                sent = [pool.submit(request, base, "POST", f"/api/tables/{table}/cities/1/photo",
                                    photo=photo(c)) for c in CASES]
                errors += sum(f.result()[0] != 200 for f in sent)
                torn += whole_city(base, table) is None
    return f"torn cities under 4 concurrent uploads: {torn} of {rounds} rounds ({errors} errors)"


def torn_under_kill(kills: int, seed: int = 1) -> str:
    rng, data, port = random.Random(seed), tempfile.mkdtemp(), free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port, data, threads=4)
    table = new_table(base)
    request(base, "POST", f"/api/tables/{table}/cities/1/photo", photo=photo(CASES[0]))
    torn = wrong = killed_mid = 0
    last = CASES[0]
    try:
        for k in range(kills):
            case = CASES[(k + 1) % len(CASES)]
            answer = {}

            def send(case=case, answer=answer):
                try:
                    answer["status"] = request(base, "POST", f"/api/tables/{table}/cities/1/photo",
                                               photo=photo(case), timeout=10)[0]
                except OSError:
                    answer["status"] = None

            sender = threading.Thread(target=send)
            sender.start()
            time.sleep(rng.uniform(0.0, 0.4))
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            sender.join()
            killed_mid += answer["status"] is None
            server = start_server(port, data, threads=4)
            kept = whole_city(base, table)
            if kept is None:
                torn += 1
            elif answer["status"] == 200 and kept != case or kept not in (case, last):
                wrong += 1
            last = kept or last
    finally:
        server.terminate()
        server.wait()
    return (f"kill -9 during an upload: {kills} rounds ({killed_mid} killed before the answer), "
            f"torn cities {torn}, acknowledged uploads lost {wrong}")


def header_bombs(seconds: float, clients: int = 8) -> str:
    bomb = jpeg_claiming(7000, 7000)
    with running_server() as (base, server):
        table = new_table(base)
        request(base, "POST", f"/api/tables/{table}/cities/2/photo", photo=photo(CASES[0]))
        before = rss_mb(server.pid)  # with the models loaded
        stop, answers, slowest = time.perf_counter() + seconds, [], [0.0]

        def attacker():
            while time.perf_counter() < stop:
                answers.append(request(base, "POST", f"/api/tables/{table}/cities/1/photo",
                                       photo=bomb)[0])

        def reader():
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                request(base, "GET", f"/api/tables/{table}")
                slowest[0] = max(slowest[0], time.perf_counter() - t0)
                time.sleep(0.05)

        threads = [threading.Thread(target=attacker) for _ in range(clients)]
        threads.append(threading.Thread(target=reader))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        peak = peak_mb(server.pid)
    statuses = {s: answers.count(s) for s in sorted(set(answers))}
    return (f"header bombs ({len(bomb)}-byte JPEG claiming 7000x7000), {clients} clients for "
            f"{seconds:.0f} s: {len(answers)} uploads, answers {statuses}; server memory "
            f"{before:.0f} MB before, peak {peak:.0f} MB; slowest table read {slowest[0]:.2f} s")


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def idle_connections(count: int) -> str:
    with running_server() as (base, _):
        address = ("127.0.0.1", int(base.rsplit(":", 1)[1]))
        idle = []
        for _ in range(count):
            s = socket.create_connection(address)
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99\r\n\r\n{")
            idle.append(s)
        t0 = time.perf_counter()
        status, _ = request(base, "GET", "/api/tables", timeout=60)
        took = time.perf_counter() - t0
        for s in idle:
            s.close()
    return f"{count} idle half-sent connections: an ordinary request answered {status} in " \
           f"{1000 * took:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--kills", type=int, default=15)
    parser.add_argument("--bomb-seconds", type=float, default=20)
    parser.add_argument("--idle", type=int, default=300)
    args = parser.parse_args()
    for line in (torn_under_concurrent_uploads(args.rounds), torn_under_kill(args.kills),
                 header_bombs(args.bomb_seconds), idle_connections(args.idle)):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
