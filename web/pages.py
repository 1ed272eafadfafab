"""The two HTML pages; everything dynamic on them goes through the JSON API."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from scorer.city import BUILDINGS

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", tables=current_app.extensions["store"].list_tables())


@bp.get("/tables/<int:table_id>")
def table(table_id: int):
    if current_app.extensions["store"].get_table(table_id) is None:
        abort(404, description=f"no table {table_id}")
    return render_template("table.html", table_id=table_id, buildings=BUILDINGS)
