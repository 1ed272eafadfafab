"""The app under waitress: big bodies refused from their headers, idle clients locking no one out."""

import json
import socket
import threading
import time

import pytest

from web import create_app
from web.server import make_server


@pytest.fixture(scope="module")
def address(tmp_path_factory):
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    server = make_server(app, "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_host, server.effective_port
    server.close()


def exchange(address, head: bytes, timeout=10) -> tuple[int, bytes]:
    """Send ``head`` (no body follows) and read the whole answer: (status, body)."""
    with socket.create_connection(address, timeout=timeout) as s:
        s.sendall(head)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    status = int(reply.split(b" ", 2)[1])
    return status, reply.split(b"\r\n\r\n", 1)[1]


def test_a_body_over_the_limit_is_refused_from_its_headers(address):
    head = (b"POST /api/tables/x/cities/1/photo HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: multipart/form-data; boundary=b\r\n"
            b"Content-Length: 300000000\r\n\r\n")
    started = time.perf_counter()
    status, body = exchange(address, head)  # answered without one byte of the body
    assert status == 413 and "limited to 25 MB" in json.loads(body)["error"]
    assert time.perf_counter() - started < 2


def test_malformed_requests_get_json_errors(address):
    status, body = exchange(address, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n")
    assert status == 400 and "bad request" in json.loads(body)["error"]


def test_idle_half_sent_connections_lock_no_one_out(address):
    idle = []
    for _ in range(150):
        s = socket.create_connection(address)
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
        idle.append(s)
    try:
        started = time.perf_counter()
        status, body = exchange(address, b"GET /api/tables HTTP/1.1\r\nHost: localhost\r\n"
                                         b"Connection: close\r\n\r\n")
        assert status == 200 and time.perf_counter() - started < 2
    finally:
        for s in idle:
            s.close()
