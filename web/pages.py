"""The two HTML pages; everything dynamic on them goes through the JSON API."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from scorer.city import BUILDINGS

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    """The new-table form, and the past tables unless this server hosts many (host mode)."""
    host_mode = current_app.config["HOST_MODE"]
    tables = [] if host_mode else current_app.extensions["store"].list_tables()
    return render_template("index.html", tables=tables, host_mode=host_mode)


@bp.get("/tables/<table_id>")
def table(table_id: str):
    if current_app.extensions["store"].get_table(table_id) is None:
        abort(404, description="no such table: check the link")
    return render_template("table.html", table_id=table_id, buildings=BUILDINGS)
