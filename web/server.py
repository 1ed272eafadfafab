"""The app under waitress, with bounded resources.

A body larger than the upload limit is refused from its ``Content-Length`` before it is read
(as JSON, like every other error); idle or half-sent connections are closed after a while,
and enough of them can be open at once that a few slow clients never lock the others out.
"""

from __future__ import annotations

import json
import logging

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

IDLE_TIMEOUT_S = 30  # a connection that sends nothing for this long is closed
CONNECTION_LIMIT = 1000
HEADER_LIMIT = 64 * 1024


class JSONErrorTask(ErrorTask):
    """waitress's own refusals (too large, malformed request) as ``{"error": message}``."""

    messages = {413: "the file is too large: uploads are limited to {mb} MB",
                431: "the request headers are too large"}

    def execute(self):
        error = self.request.error
        limit = self.channel.server.adj.max_request_body_size
        message = self.messages.get(error.code, "bad request: {reason}").format(
            mb=limit // (1024 * 1024), reason=error.body)
        body = json.dumps({"error": message}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class Channel(HTTPChannel):
    error_task_class = JSONErrorTask


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, threads: int = 4):
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` to stop it)."""
    server = create_server(
        app, host=host, port=port, threads=threads,
        max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
        max_request_header_size=HEADER_LIMIT,
        channel_timeout=IDLE_TIMEOUT_S, cleanup_interval=5,
        connection_limit=CONNECTION_LIMIT, asyncore_use_poll=True,
        ident="btc-scorer")
    server.channel_class = Channel
    # requests wait for a thread while photos are read (seconds each): expected, not a warning
    # to log on every one (waitress's "Task queue depth is N")
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return server
