"""`serve --lan`: the phones at the table reach the laptop by its LAN address, shown as a QR code."""

import socket
import threading

import pytest
from test_server import exchange

import web.lan
from scorer.cli import main
from web import create_app, serving_app
from web.server import make_server

LAN = "192.168.1.20"


class RoutedSocket:
    """A UDP socket whose route to the probe goes out through ``address`` (nothing is sent)."""

    address = LAN

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, target):
        if self.address is None:
            raise OSError("Network is unreachable")

    def getsockname(self):
        return (self.address, 40000)


class NoRoute(RoutedSocket):
    address = None


def test_the_lan_address_is_the_one_routed_to(monkeypatch):
    monkeypatch.setattr(socket, "socket", RoutedSocket)
    assert web.lan.lan_addresses() == [LAN]


def test_without_a_route_the_host_names_addresses_are_used(monkeypatch):
    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    monkeypatch.setattr(socket, "gethostbyname_ex",
                        lambda name: (name, [], ["127.0.1.1", "10.0.0.7", "169.254.3.4"]))
    assert web.lan.lan_addresses() == ["10.0.0.7"]  # loopback and link-local ones are left out


def test_no_address_at_all_is_one_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.0.1"]))
    assert main(["serve", "--lan", "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("btc-scorer: error: no LAN address found")


@pytest.fixture()
def lan_app(tmp_path, monkeypatch):
    monkeypatch.setattr(web.lan, "lan_addresses", lambda: [LAN])
    monkeypatch.delenv("BTC_HOSTS", raising=False)
    app, host = serving_app(port=8000, data_dir=str(tmp_path), lan=True)
    assert host == "0.0.0.0" and app.config["LAN_URL"] == f"http://{LAN}:8000"
    return app


def test_a_lan_server_answers_its_lan_address_and_refuses_other_names(lan_app):
    server = make_server(lan_app, "127.0.0.1", 0, threads=2)  # the app as served, on loopback
    threading.Thread(target=server.run, daemon=True).start()
    try:
        address = (server.effective_host, server.effective_port)
        for name in (f"{LAN}:8000", "localhost:8000"):
            status, _ = exchange(address, f"GET /api/tables HTTP/1.1\r\nHost: {name}\r\n"
                                          f"Connection: close\r\n\r\n".encode())
            assert status == 200, name
        status, body = exchange(address, b"GET / HTTP/1.1\r\nHost: rebound.example:8000\r\n"
                                         b"Connection: close\r\n\r\n")
        assert status == 421 and b"does not answer" in body
    finally:
        server.close()


def test_qr_codes_of_the_app_pages_only(lan_app):
    client = lan_app.test_client()
    table = client.post("/api/tables", json={"players": ["Ann", "Ben", "Cy"]}).json
    for path in ("/", f"/tables/{table['id']}"):
        response = client.get("/qr.svg", query_string={"path": path})
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"
        assert response.data.startswith(b"<svg") and f"http://{LAN}:8000{path}" in response.text
    for path in ("https://evil.example/", "//evil.example/", "/tables/nope", "/api/tables",
                 "/static/app.css", "any text", "/tables/x/../../api"):
        assert client.get("/qr.svg", query_string={"path": path}).status_code == 400, path


def test_the_pages_show_the_qr_code_only_when_serving_the_lan(lan_app, tmp_path):
    client = lan_app.test_client()
    table = client.post("/api/tables", json={"players": ["Ann", "Ben", "Cy"]}).json
    link = f"/tables/{table['id']}"
    assert 'src="/qr.svg?path=/"' in client.get("/").text
    page = client.get(link).text
    assert f'src="/qr.svg?path={link}"' in page and f"http://{LAN}:8000{link}" in page
    local = create_app({"DATA_DIR": str(tmp_path)}).test_client()
    assert "qr.svg" not in local.get("/").text and "qr.svg" not in local.get(link).text
    assert local.get("/qr.svg", query_string={"path": "/"}).status_code == 404
