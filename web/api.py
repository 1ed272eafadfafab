"""The JSON API the page itself uses (described in web/openapi.yaml). Views stay thin."""

from __future__ import annotations

import io
import json
import zipfile

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_file

from scorer.city import BUILDINGS
from scorer.errors import GridNotFound, ScorerError, TableError
from scorer.table import check_seating, cities_for

from . import service

bp = Blueprint("api", __name__, url_prefix="/api")


def _store():
    return current_app.extensions["store"]


def _table(table_id: int) -> dict:
    table = _store().get_table(table_id)
    if table is None:
        abort(404, description=f"no table {table_id}")
    return table


def _city_index(table: dict, city: int) -> int:
    if not 1 <= city <= len(table["cities"]):
        abort(404, description=f"table {table['id']} has cities 1 to {len(table['cities'])}")
    return city - 1


def _table_json(table_id: int) -> dict:
    table = _table(table_id)
    table["scores"] = service.scoreboard(table)
    return table


@bp.errorhandler(ScorerError)
def scorer_error(error: ScorerError):
    return jsonify(error=str(error)), 422 if not isinstance(error, TableError) else 400


def _body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, description="send a JSON object")
    return body


@bp.get("/tables")
def list_tables():
    return jsonify(tables=_store().list_tables())


@bp.post("/tables")
def create_table():
    body = _body()
    players = body.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TableError("players must be a list of names")
    players = [p.strip() for p in players if p.strip()]
    if not 1 <= len(players) <= 7:
        raise TableError("a table has 1 to 7 players")
    difficulty = body.get("difficulty", 4)
    if not isinstance(difficulty, int):
        raise TableError("the solo difficulty level is 1 to 7")
    name = str(body.get("name") or "Game night").strip()[:80]
    check_seating(tuple(players), difficulty)
    count = cities_for(len(players))
    table_id = _store().create_table(name, players, difficulty, count)
    return jsonify(_table_json(table_id)), 201


@bp.get("/tables/<int:table_id>")
def get_table(table_id: int):
    return jsonify(_table_json(table_id))


@bp.patch("/tables/<int:table_id>")
def rename_table(table_id: int):
    _table(table_id)
    name = str(_body().get("name", "")).strip()[:80]
    if not name:
        raise TableError("a table needs a name")
    _store().rename_table(table_id, name)
    return jsonify(_table_json(table_id))


@bp.delete("/tables/<int:table_id>")
def delete_table(table_id: int):
    _table(table_id)
    _store().delete_table(table_id)
    return "", 204


@bp.post("/tables/<int:table_id>/cities/<int:city>/photo")
def add_photo(table_id: int, city: int):
    """Upload a city photo (multipart field ``photo``); it is kept even if it cannot be read."""
    table = _table(table_id)
    index = _city_index(table, city)
    upload = request.files.get("photo")
    if upload is None:
        raise TableError("send the photo as multipart form field 'photo'")
    image = service.store_photo(_store(), table_id, index, upload.read())
    try:
        service.read_stored_photo(_store(), current_app.extensions["reader"].get(), table_id,
                                  index, image)
    except GridNotFound:
        service.mark_unread(_store(), table, index)
        raise
    return jsonify(_table_json(table_id))


@bp.post("/tables/<int:table_id>/cities/<int:city>/corners")
def read_with_corners(table_id: int, city: int):
    """Read the stored photo again with the four city corners the player tapped."""
    table = _table(table_id)
    index = _city_index(table, city)
    corners = _body().get("corners")
    if not (isinstance(corners, list) and len(corners) == 4 and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) for v in p)
            for p in corners)):
        raise TableError("corners are four [x, y] points on the photo")
    image = service.load_photo(_store(), table_id, index)
    if image is None:
        raise TableError("upload a photo of this city first")
    service.read_stored_photo(_store(), current_app.extensions["reader"].get(), table_id, index,
                              image, corners)
    return jsonify(_table_json(table_id))


@bp.put("/tables/<int:table_id>/cities/<int:city>/grid")
def type_city(table_id: int, city: int):
    """Type a city in (cells may be null while it is being entered)."""
    table = _table(table_id)
    index = _city_index(table, city)
    grid = service.check_grid(_body().get("grid"))
    _store().save_city(table_id, index, grid, reading={}, photo=False)
    return jsonify(_table_json(table_id))


@bp.put("/tables/<int:table_id>/cities/<int:city>/cells/<int:row>/<int:col>")
def correct_cell(table_id: int, city: int, row: int, col: int):
    table = _table(table_id)
    index = _city_index(table, city)
    if not (1 <= row <= 4 and 1 <= col <= 4):
        abort(404, description="rows and columns are 1 to 4")
    building = _body().get("building")
    if building not in BUILDINGS:
        raise TableError(f"unknown building {building!r}; use one of {', '.join(BUILDINGS)}")
    service.correct_cell(_store(), table, index, row - 1, col - 1, building)
    return jsonify(_table_json(table_id))


@bp.get("/tables/<int:table_id>/cities/<int:city>/<any(photo, warped):kind>.jpg")
def city_image(table_id: int, city: int, kind: str):
    table = _table(table_id)
    index = _city_index(table, city)
    path = _store().image_path(table_id, f"city{index}-{kind}.jpg")
    if not path.is_file():
        abort(404, description="no photo for this city")
    return send_file(path, mimetype="image/jpeg", max_age=0)


@bp.get("/tables/<int:table_id>/export.json")
def export_json(table_id: int):
    table = _table_json(table_id)
    return Response(json.dumps(table, indent=2), mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=table-{table_id}.json"})


@bp.get("/tables/<int:table_id>/export.csv")
def export_csv(table_id: int):
    table = _table_json(table_id)
    return Response(service.export_csv(table, table["scores"]), mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=table-{table_id}.csv"})


@bp.get("/corrections/export.zip")
def export_corrections():
    """Every correction as a labelled dataset: labels.csv and the cell images."""
    store = _store()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        lines = ["image,building,model_guess,table,city,row,col"]
        for c in store.corrections():
            if c["image"] and (store.folder / c["image"]).is_file():
                archive.write(store.folder / c["image"], c["image"].split("/")[-1])
            name = c["image"].split("/")[-1] if c["image"] else ""
            lines.append(f"{name},{c['building']},{c['guess'] or ''},{c['table_id']},"
                         f"{c['city'] + 1},{c['row'] + 1},{c['col'] + 1}")
        archive.writestr("labels.csv", "\n".join(lines) + "\n")
    buffer.seek(0)
    return send_file(buffer, mimetype="application/zip", as_attachment=True,
                     download_name="corrections.zip")
