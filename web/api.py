"""The JSON API the page itself uses (described in web/openapi.yaml). Views stay thin."""

from __future__ import annotations

import io
import json
import zipfile

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_file

from scorer.city import BUILDINGS
from scorer.errors import DecodeBusy, GridNotFound, ScorerError, TableError
from scorer.table import MAX_PLAYERS, check_seating, cities_for, is_text

from . import service
from .store import DELETED_KEPT_S, Gone, PhotoChanged, TableChanged

bp = Blueprint("api", __name__, url_prefix="/api")

NAME_LONGEST = 80  # characters of a table's or a campaign's name (the pages' inputs say so too)
PLAYER_LONGEST = 40  # characters of a player's name


def _store():
    return current_app.extensions["store"]


def _table(table_id: str) -> dict:
    table = _store().get_table(table_id)
    if table is None:
        abort(404, description=f"no table {table_id[:40]}")
    return table


def _city_index(table: dict, city: int) -> int:
    if not 1 <= city <= len(table["cities"]):
        abort(404, description=f"table {table['id']} has cities 1 to {len(table['cities'])}")
    return city - 1


def _table_json(table_id: str) -> dict:
    table = _table(table_id)
    table["scores"] = service.scoreboard(table)
    service.name_builders(table)
    table["reading_now"] = _reading_now().of(table_id)
    return table


def _reading_now():
    return current_app.extensions["reading_now"]


@bp.errorhandler(ScorerError)
def scorer_error(error: ScorerError):
    status = 400 if isinstance(error, TableError) else 503 if isinstance(error, DecodeBusy) else 422
    return jsonify(error=str(error)), status


@bp.errorhandler(Gone)
def gone(error: Gone):
    """A table, city or campaign deleted while the request was on its way (another phone)."""
    return jsonify(error=f"{error}: it was deleted, or its link is wrong; nothing was changed"), 404


@bp.errorhandler(PhotoChanged)
def photo_changed(error: PhotoChanged):
    return jsonify(error=f"{error}; the newer photo is kept"), 409


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _body() -> dict:
    """The request's JSON object (small, no NaN or Infinity, not nested too deep)."""
    limit = current_app.config["MAX_JSON_BYTES"]
    if (request.content_length or 0) > limit:
        abort(413, description=f"the request is too large: JSON bodies up to {limit // 1024} KB")
    try:
        body = json.loads(request.get_data(cache=True) or b"null",
                          parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        abort(400, description="send a JSON object")
    return body


def _given(value, default: str):
    """A name as sent, or ``default`` when none was (null, or blank): a name that
    is not text (0, false, a list) is refused by ``_text``, not replaced."""
    return default if value is None or (isinstance(value, str) and not value.strip()) else value


def _text(value, what: str, longest: int) -> str:
    """A name from JSON: a string of printable characters (surrogates and controls refused)."""
    if not isinstance(value, str):
        raise TableError(f"{what} must be text")
    if not is_text(value):
        raise TableError(f"{what} contains characters that are not text")
    value = " ".join(value.split())
    if len(value) > longest:
        raise TableError(f"{what} is at most {longest} characters")
    return value


@bp.get("/tables")
def list_tables():
    if current_app.config["HOST_MODE"]:
        abort(404, description="this server does not list its tables: open yours by its link")
    return jsonify(tables=_store().list_tables())


@bp.post("/tables")
def create_table():
    body = _body()
    players = body.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TableError("players must be a list of names")
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise TableError(f"a table has 1 to {MAX_PLAYERS} players")
    players = [_text(p, "a player's name", PLAYER_LONGEST) for p in players]
    if "difficulty" in body and len(players) != 1:
        raise TableError("difficulty is for a solo table only (one player)")
    difficulty = body.get("difficulty", 4)
    if not isinstance(difficulty, int) or isinstance(difficulty, bool):
        raise TableError("the solo difficulty level is 1 to 7")
    name = _text(_given(body.get("name"), "Game night"), "the table's name", NAME_LONGEST)
    check_seating(tuple(players), difficulty)
    count = cities_for(len(players))
    table_id = _store().create_table(name, players, difficulty, count)
    return jsonify(_table_json(table_id)), 201


@bp.get("/tables/<table_id>")
def get_table(table_id: str):
    return jsonify(_table_json(table_id))


@bp.patch("/tables/<table_id>")
def rename_table(table_id: str):
    _table(table_id)
    name = _text(_body().get("name", ""), "the table's name", NAME_LONGEST)
    if not name:
        raise TableError("a table needs a name")
    _store().rename_table(table_id, name)
    return jsonify(_table_json(table_id))


@bp.delete("/tables/<table_id>")
def delete_table(table_id: str):
    if not _store().delete_table(table_id):
        abort(404, description=f"no table {table_id[:40]}")
    return "", 204


@bp.post("/tables/<table_id>/restore")
def restore_table(table_id: str):
    """Bring back a table deleted moments ago (the undo of a delete)."""
    if not _store().restore_table(table_id):
        abort(404, description=f"no table {table_id[:40]} deleted in the last "
                               f"{DELETED_KEPT_S // 60} minutes")
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/cities/<int:city>/restore")
def restore_city(table_id: str, city: int):
    """Put a city back as it was before its latest photo or typing over, with its photo,
    reading and corrections (the undo of a retake or a type-over; again, to redo)."""
    table = _table(table_id)
    index = _city_index(table, city)
    _store().restore_city(table_id, index)
    service.learn(_store(), current_app.extensions["reader"])
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/cities/<int:city>/photo")
def add_photo(table_id: str, city: int):
    """Upload a city photo (multipart field ``photo``); it is kept even if it cannot be read
    (no city found: 422 with the table, the city marked unread for tapped corners)."""
    table = _table(table_id)
    index = _city_index(table, city)
    upload = request.files.get("photo")
    if upload is None:
        raise TableError("send the photo as multipart form field 'photo'")
    reader = current_app.extensions["reader"]
    try:
        with _reading_now().reading(table_id, city):
            service.add_photo(_store(), reader.get(), current_app.extensions["decode_budget"],
                              table, index, upload.read())
    except GridNotFound as refusal:
        return jsonify(error=str(refusal), table=_table_json(table_id)), 422
    service.learn(_store(), reader)
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/photo")
def add_table_photo(table_id: str):
    """Upload one photo of the whole table (multipart field ``photo``): every complete city
    in it is read and seated; nothing changes when it cannot be."""
    table = _table(table_id)
    upload = request.files.get("photo")
    if upload is None:
        raise TableError("send the photo as multipart form field 'photo'")
    reader = current_app.extensions["reader"]
    with _reading_now().reading(table_id):
        placed = service.add_table_photo(_store(), reader.get(),
                                         current_app.extensions["decode_budget"], table,
                                         upload.read())
    service.learn(_store(), reader)
    return jsonify({**_table_json(table_id), "photo": placed})


@bp.put("/tables/<table_id>/order")
def reorder(table_id: str):
    """Seat the cities in another order: ``{"order": [...]}``, seat i gets the city that was
    at seat ``order[i]`` (0-based), with its photo, reading and corrections. With ``"seen"``
    (the table's ``updated`` the order was chosen on), a table changed since on another
    phone is not reordered: 409 with the table as it is now."""
    table = _table(table_id)
    body = _body()
    try:
        service.reorder(_store(), table, body.get("order"), body.get("seen"))
    except TableChanged as changed:
        return jsonify(error=str(changed), table=_table_json(table_id)), 409
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/seating")
def seating_is_right(table_id: str):
    """The players say the seats a whole-table photo gave are right: ``{"table_photo": ...}``
    (its cities' reading.table_photo). The winner is named once no seating waits."""
    table = _table(table_id)
    service.seating_is_right(_store(), table, _body().get("table_photo"))
    service.learn(_store(), current_app.extensions["reader"])  # a complete table now teaches
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/cities/<int:city>/corners")
def read_with_corners(table_id: str, city: int):
    """Read the stored photo again with the four city corners the player tapped."""
    table = _table(table_id)
    index = _city_index(table, city)
    corners = _body().get("corners")
    service.check_corners(corners)  # their shape now, their place once the photo is decoded
    reader = current_app.extensions["reader"]
    service.read_with_corners(_store(), reader.get(), current_app.extensions["decode_budget"],
                              table, index, corners)
    service.learn(_store(), reader)
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/cities/<int:city>/reread")
def read_again(table_id: str, city: int):
    """Read the stored photo again, inside the same corners, with what was learned since;
    the cells the player chose keep the player's choice."""
    table = _table(table_id)
    index = _city_index(table, city)
    reader = current_app.extensions["reader"]
    service.read_again(_store(), reader.get(), current_app.extensions["decode_budget"], table,
                       index)
    return jsonify(_table_json(table_id))


@bp.post("/tables/<table_id>/cities/<int:city>/accept")
def accept_city(table_id: str, city: int):
    """The player says this city's reading is right: the reader learns its tiles."""
    table = _table(table_id)
    index = _city_index(table, city)
    _store().accept_city(table_id, index)
    service.learn(_store(), current_app.extensions["reader"])
    return jsonify(_table_json(table_id))


@bp.put("/tables/<table_id>/cities/<int:city>/grid")
def type_city(table_id: str, city: int):
    """Type a city in (cells may be null while it is being entered)."""
    table = _table(table_id)
    index = _city_index(table, city)
    grid = service.check_grid(_body().get("grid"))
    _store().type_city(table_id, index, grid)
    service.learn(_store(), current_app.extensions["reader"])
    return jsonify(_table_json(table_id))


@bp.put("/tables/<table_id>/cities/<int:city>/counts")
def type_counts(table_id: str, city: int):
    """Solo beginner mode: Automaville's tiles sorted by type, as counts (scored maximally)."""
    table = _table(table_id)
    index = _city_index(table, city)
    counts = service.check_counts(table, index, _body().get("counts"))
    _store().type_counts(table_id, index, counts)
    service.learn(_store(), current_app.extensions["reader"])  # a complete table now teaches
    return jsonify(_table_json(table_id))


@bp.put("/tables/<table_id>/cities/<int:city>/cells/<int:row>/<int:col>")
def correct_cell(table_id: str, city: int, row: int, col: int):
    table = _table(table_id)
    index = _city_index(table, city)
    if not (1 <= row <= 4 and 1 <= col <= 4):
        abort(404, description="rows and columns are 1 to 4")
    building = _body().get("building")
    if not isinstance(building, str) or building not in BUILDINGS:
        raise TableError(f"unknown building {str(building)[:40]!r}; use one of "
                         f"{', '.join(BUILDINGS)}")
    reader = current_app.extensions["reader"]
    service.correct_cell(_store(), reader, table, index, row - 1, col - 1, building)
    service.learn(_store(), reader)
    return jsonify(_table_json(table_id))


@bp.get("/tables/<table_id>/cities/<int:city>/<any(photo, warped):kind>.jpg")
def city_image(table_id: str, city: int, kind: str):
    table = _table(table_id)
    index = _city_index(table, city)
    found = _store().image(table_id, index, kind)
    if found is None or not found[1].is_file():
        abort(404, description="no photo for this city")
    return send_file(found[1], mimetype="image/jpeg", max_age=0)


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id: str):
    table = _table_json(table_id)
    return Response(json.dumps(table, indent=2), mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=table-{table_id}.json"})


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str):
    table = _table_json(table_id)
    return Response(service.export_csv(table, table["scores"]), mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=table-{table_id}.csv"})


@bp.get("/corrections/export.zip")
def export_corrections():
    """Every correction as a labelled dataset: labels.csv and the cell images."""
    if current_app.config["HOST_MODE"]:
        abort(404, description="this server does not share its tables' corrections")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        lines = ["image,building,model_guess,table,city,row,col"]
        for c in _store().corrections():
            name = c["image"] if c["path"] else ""
            if name:
                archive.write(c["path"], name)
            lines.append(f"{name},{c['building']},{c['model_guess']},{c['table']},"
                         f"{c['city'] + 1},{c['row'] + 1},{c['col'] + 1}")
        archive.writestr("labels.csv", "\n".join(lines) + "\n")
    buffer.seek(0)
    return send_file(buffer, mimetype="application/zip", as_attachment=True,
                     download_name="corrections.zip")


# --- what the reader learned from the players ------------------------------------------------

def _shared_learning():
    if current_app.config["HOST_MODE"]:
        abort(404, description="this server does not share what it learned from its tables")


@bp.get("/learning")
def learning():
    """How many cells the reader learned from, per building, and whether it uses them."""
    return jsonify(current_app.extensions["reader"].learning())


@bp.delete("/learning")
def forget():
    """Forget everything learned: the shipped model reads the next photo."""
    _shared_learning()
    _store().forget_lessons()
    return jsonify(service.learn(_store(), current_app.extensions["reader"]))


@bp.get("/learning/export.npz")
def export_learning():
    """What was learned, as a file to import on another machine."""
    _shared_learning()
    return send_file(io.BytesIO(service.export_lessons(_store())),
                     mimetype="application/octet-stream", as_attachment=True,
                     download_name="btc-learned-tiles.npz")


@bp.post("/learning/import")
def import_learning():
    """Add the lessons of an exported file (multipart field ``file``) to what is learned."""
    _shared_learning()
    upload = request.files.get("file")
    if upload is None:
        raise TableError("send the exported file as multipart form field 'file'")
    reader = current_app.extensions["reader"]
    imported = service.import_lessons(_store(), reader, upload.read())
    return jsonify({**reader.learning(), "imported": imported})


# --- history of the tables, and the players' statistics (not in host mode) ------------------

def _shared_history():
    if current_app.config["HOST_MODE"]:
        abort(404, description="this server does not list its tables: open yours by its link")


@bp.get("/history")
def table_history():
    """Every table, most recently changed first, with its winner and final scores once
    complete, else how many of its cities are known."""
    _shared_history()
    return jsonify(tables=service.history(_store()))


@bp.get("/stats")
def player_stats():
    """Per player over the complete tables: games, wins, average and best final score, best
    city score; most games first, then most wins."""
    _shared_history()
    return jsonify(players=service.player_stats(_store()))


# --- solo campaigns (French rulebook, "Jeu en campagne"; rules in scorer/campaign.py) -------

def _campaign(campaign_id: str) -> dict:
    campaign = _store().get_campaign(campaign_id)
    if campaign is None:
        abort(404, description=f"no campaign {campaign_id[:40]}")
    return campaign


def _campaign_json(campaign_id: str) -> dict:
    from .campaigns import campaign_json

    return campaign_json(_store(), _campaign(campaign_id),
                         candidates=not current_app.config["HOST_MODE"])


@bp.get("/campaigns")
def list_campaigns():
    """Every campaign (standings so far) and the best finished ones."""
    from .campaigns import best, campaign_json

    if current_app.config["HOST_MODE"]:
        abort(404, description="this server does not list its campaigns: open yours by its link")
    store = _store()
    return jsonify(campaigns=[campaign_json(store, c) for c in store.list_campaigns()],
                   best=best(store))


@bp.post("/campaigns")
def create_campaign():
    from scorer.campaign import check_settings

    body = _body()
    length, difficulty, mode = body.get("length", 3), body.get("difficulty", 4), body.get("mode")
    check_settings(length, difficulty, mode)
    name = _text(_given(body.get("name"), "Campaign"), "the campaign's name", NAME_LONGEST)
    campaign_id = _store().create_campaign(name, length, difficulty, mode)
    return jsonify(_campaign_json(campaign_id)), 201


@bp.get("/campaigns/<campaign_id>")
def get_campaign(campaign_id: str):
    return jsonify(_campaign_json(campaign_id))


@bp.delete("/campaigns/<campaign_id>")
def delete_campaign(campaign_id: str):
    if not _store().delete_campaign(campaign_id):
        abort(404, description=f"no campaign {campaign_id[:40]}")
    return "", 204


@bp.post("/campaigns/<campaign_id>/games")
def add_campaign_game(campaign_id: str):
    """The next game: a finished solo table of this app (its id or link) and the chosen type."""
    from .campaigns import add_game

    body = _body()
    add_game(_store(), _campaign(campaign_id), body.get("table"), body.get("type"))
    return jsonify(_campaign_json(campaign_id)), 201


@bp.delete("/campaigns/<campaign_id>/games/<int:game>")
def remove_campaign_game(campaign_id: str, game: int):
    """Take a game out (added by mistake); the later games move up."""
    campaign = _campaign(campaign_id)
    if not 1 <= game <= len(campaign["games"]):
        abort(404, description=f"campaign {campaign_id[:40]} has no game {game}")
    _store().remove_campaign_game(campaign_id, game - 1)
    return jsonify(_campaign_json(campaign_id))
