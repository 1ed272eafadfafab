"""The table-side web app: ``create_app`` (Flask app factory) and ``serve`` (waitress)."""

from __future__ import annotations

import errno
import os
from urllib.parse import urlsplit

from flask import Flask, abort, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from scorer.errors import ScorerError
from scorer.learned import data_folder
from scorer.photo import DecodeBudget

from .reading_now import ReadingNow
from .service import LazyReader
from .store import Store

MAX_UPLOAD_MB = 25
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # table links are secrets: never sent to other sites
    "Cross-Origin-Opener-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; "
                               "style-src 'self' 'unsafe-inline'; script-src 'self'; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                               "form-action 'self'",
}


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` may set any of the settings below.

    DATA_DIR, MODEL_DIR; MAX_CONTENT_LENGTH (uploads), MAX_JSON_BYTES, MAX_FORM_MEMORY_SIZE
    and MAX_FORM_PARTS (form fields); DECODE_BUDGET (bytes of photos decoded at once, by
    default 4 uploads' worth); HOST_MODE (a café serving many tables: no list of tables);
    SERVED_HOSTS (``Host`` names answered, None for any; not Flask's TRUSTED_HOSTS, whose
    check cannot name an IPv6 address such as ::1); LAN_URL (the address phones open, e.g.
    ``http://192.168.1.20:8000``: pages show a QR code of their link, None for none).
    """
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR=str(data_folder()),
        MODEL_DIR=None,
        MAX_CONTENT_LENGTH=MAX_UPLOAD_MB * 1024 * 1024,
        MAX_JSON_BYTES=64 * 1024,
        MAX_FORM_MEMORY_SIZE=256 * 1024,  # above the multipart parser's 64 KB chunks
        MAX_FORM_PARTS=8,
        DECODE_BUDGET=None,
        HOST_MODE=os.environ.get("BTC_HOST_MODE", "") not in ("", "0"),
        SERVED_HOSTS=None,
        LAN_URL=None,
    )
    if test_config:
        app.config.update(test_config)
    budget = app.config["DECODE_BUDGET"] or 4 * app.config["MAX_CONTENT_LENGTH"]
    app.extensions["store"] = Store(app.config["DATA_DIR"])
    app.extensions["reader"] = LazyReader(app.config["MODEL_DIR"], app.extensions["store"])
    app.extensions["decode_budget"] = DecodeBudget(budget)
    app.extensions["reading_now"] = ReadingNow()

    from . import api, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    _guard(app)
    _errors(app)
    return app


def _guard(app: Flask) -> None:
    """Only the expected host, no writes from other sites, and the browser's protections."""

    @app.before_request
    def same_site_only():
        trusted = app.config["SERVED_HOSTS"]
        host = _split(f"//{request.headers.get('Host', '')}")
        if host is None:
            return jsonify(error="the request's Host header is not a host name"), 400
        name = host.hostname or ""
        if trusted is not None and name not in trusted:
            return jsonify(error=f"this server does not answer for {name[:60]!r}"), 421
        if request.method in SAFE_METHODS:
            return None
        origin = request.headers.get("Origin")
        if origin is not None and getattr(_split(origin), "netloc", None) != request.headers.get("Host"):
            return jsonify(error="changes are accepted only from this app's own pages"), 403
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            return jsonify(error="changes are accepted only from this app's own pages"), 403
        return None

    @app.after_request
    def protect(response):
        response.headers.update(SECURITY_HEADERS)
        if _is_api():
            response.headers.setdefault("Cache-Control", "no-store")
        return response


def _is_api() -> bool:
    """Whether this request is the API's (answered in JSON), ``/api`` itself included."""
    return request.path == "/api" or request.path.startswith("/api/")


def _split(url: str):
    """``urlsplit(url)``, None when it is not a URL (an unclosed "[", say)."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _errors(app: Flask) -> None:
    @app.before_request
    def no_api_redirects():
        """Werkzeug answers a path it would correct ("/api//tables": slashes merged) with a
        redirect, which no error handler sees; the API answers such a path with its JSON 404
        instead (pages keep the redirect)."""
        if _is_api() and isinstance(request.routing_exception, RequestRedirect):
            abort(404)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        message = error.description
        if error.code == 413 and (request.content_length or 0) > app.config["MAX_CONTENT_LENGTH"]:
            message = (f"the file is too large: uploads are limited to "
                       f"{app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB")
        elif error.code == 413 and request.mimetype == "multipart/form-data":
            message = (f"the form is too large: send one photo as field 'photo' (at most "
                       f"{app.config['MAX_FORM_PARTS']} fields, text fields up to "
                       f"{app.config['MAX_FORM_MEMORY_SIZE'] // 1024} KB)")
        if _is_api() or error.code == 413:
            return jsonify(error=message), error.code
        return error

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        """A bug, not a user mistake: logged in full, answered with a plain message."""
        if isinstance(error, HTTPException):
            return http_error(error)
        app.logger.exception("unexpected error on %s", request.path)
        message = "something went wrong on the server; your tables are safe, please try again"
        if _is_api():
            return jsonify(error=message), 500
        return message, 500


def serve(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None,
          threads: int = 4, host_mode: bool = False, lan: bool = False) -> None:
    """Run the app with waitress, the production WSGI server (one model session per process)."""
    from .server import make_server

    app, host = serving_app(host, port, data_dir, host_mode, lan)
    try:
        server = make_server(app, host, port, threads)
    except (OSError, ValueError) as error:  # the port is taken, or the address is not ours
        reason = getattr(error, "strerror", None) or str(error).rstrip(".")
        advice = ("is the app running already? Choose another --port"
                  if getattr(error, "errno", None) == errno.EADDRINUSE
                  else "choose an address of this machine with --host, or another --port")
        raise ScorerError(f"cannot listen on {host} port {port} ({reason}): {advice}") from None
    print(f"Between Two Cities scorer on http://{host}:{port}  (data in {app.config['DATA_DIR']}"
          f"{', host mode' if app.config['HOST_MODE'] else ''})", flush=True)
    if app.config["LAN_URL"]:
        print(f"Open {app.config['LAN_URL']} on the phones at the table (same Wi-Fi as this "
              f"machine; here, http://localhost:{port} works too)", flush=True)
    server.run()


def serving_app(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None,
                host_mode: bool = False, lan: bool = False) -> tuple[Flask, str]:
    """The app ``serve`` runs, and the address it listens on.

    On a loopback address only loopback host names are answered (no DNS rebinding); on any
    other, the names in BTC_HOSTS (comma separated) when it is set. ``lan``: listen on every
    interface and answer for this machine's LAN addresses and loopback names (and BTC_HOSTS);
    the pages then show a QR code of their own link for the phones.
    """
    from .lan import lan_addresses

    config: dict = {"DATA_DIR": data_dir} if data_dir else {}
    if host_mode:
        config["HOST_MODE"] = True
    names = [n.strip() for n in os.environ.get("BTC_HOSTS", "").split(",") if n.strip()]
    if lan:
        addresses = lan_addresses()
        if not addresses:
            raise ScorerError("no LAN address found: connect this machine to the Wi-Fi the "
                              "phones use, or serve on --host ADDRESS with BTC_HOSTS set")
        host = "0.0.0.0"
        config["SERVED_HOSTS"] = [*addresses, *LOOPBACK_HOSTS, *names]
        config["LAN_URL"] = f"http://{addresses[0]}:{port}"
    elif names or host in LOOPBACK_HOSTS:
        config["SERVED_HOSTS"] = names or LOOPBACK_HOSTS
    return create_app(config), host
