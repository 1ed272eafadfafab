"""The table-side web app: ``create_app`` (Flask app factory) and ``serve`` (waitress)."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from .service import LazyReader
from .store import Store

MAX_UPLOAD_MB = 25


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` may set DATA_DIR, MODEL_DIR, MAX_CONTENT_LENGTH."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR=os.environ.get("BTC_DATA", str(Path.cwd() / "data")),
        MODEL_DIR=None,
        MAX_CONTENT_LENGTH=MAX_UPLOAD_MB * 1024 * 1024,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["store"] = Store(app.config["DATA_DIR"])
    app.extensions["reader"] = LazyReader(app.config["MODEL_DIR"])

    from . import api, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        message = {
            413: f"the file is too large: uploads are limited to "
                 f"{app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB",
        }.get(error.code, error.description)
        if request.path.startswith("/api/") or error.code == 413:
            return jsonify(error=message), error.code
        return error

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        """A bug, not a user mistake: logged in full, answered with a plain message."""
        if isinstance(error, HTTPException):
            return http_error(error)
        app.logger.exception("unexpected error on %s", request.path)
        message = "something went wrong on the server; your tables are safe, please try again"
        if request.path.startswith("/api/"):
            return jsonify(error=message), 500
        return message, 500

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None,
          threads: int = 4) -> None:
    """Run the app with waitress, the production WSGI server (one model session per process)."""
    from waitress import serve as waitress_serve

    app = create_app({"DATA_DIR": data_dir} if data_dir else None)
    print(f"Between Two Cities scorer on http://{host}:{port}  (data in {app.config['DATA_DIR']})",
          flush=True)
    waitress_serve(app, host=host, port=port, threads=threads)
