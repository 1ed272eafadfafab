"""The two HTML pages (everything dynamic on them goes through the JSON API), and their QR codes."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory
from werkzeug.exceptions import HTTPException

from scorer.city import BUILDINGS, GAME_SUPPLY, TAVERN_KINDS, TILES
from scorer.notation import SHORT
from scorer.rules import CATEGORIES
from scorer.table import DIFFICULTY_MODIFIER, MAX_PLAYERS

from .api import NAME_LONGEST

# The shape of each building's badge (drawn in app.css, the notation's letters inside), so that
# buildings are told apart without colour: each kind its own shape, the taverns one shape between
# them (their letters differ: Td, Tf, Tm, Tb).
BADGE_SHAPES = {"shop": "square", "factory": "hexagon", "office": "circle", "park": "triangle",
                "house": "pentagon", **{kind: "diamond" for kind in TAVERN_KINDS}}

# what the table page needs to know of the game, from the rules engine
GAME_WORDS = {"buildings": BUILDINGS, "short": SHORT, "categories": CATEGORIES,
              "supply": GAME_SUPPLY, "tiles": TILES,
              "shapes": {b: BADGE_SHAPES[b] for b in BUILDINGS}}

bp = Blueprint("pages", __name__)


@bp.context_processor
def page_context():
    """``lan_url``: the address the phones open when serving the LAN (``serve --lan``), else
    None; ``difficulty_modifiers``: the solo levels and Automaville's modifier at each;
    ``name_longest``: the most characters of a table's or campaign's name."""
    return {"lan_url": current_app.config["LAN_URL"], "difficulty_modifiers": DIFFICULTY_MODIFIER,
            "name_longest": NAME_LONGEST}


@bp.get("/")
def index():
    """The new-table form, and the past tables unless this server hosts many (host mode)."""
    host_mode = current_app.config["HOST_MODE"]
    tables = [] if host_mode else current_app.extensions["store"].list_tables()
    return render_template("index.html", tables=tables, host_mode=host_mode,
                           max_players=MAX_PLAYERS)


@bp.get("/tables/<table_id>")
def table(table_id: str):
    if current_app.extensions["store"].get_table(table_id) is None:
        abort(404, description="no such table: check the link")
    return render_template("table.html", table_id=table_id, buildings=BUILDINGS, game=GAME_WORDS)


@bp.get("/campaigns")
def campaigns():
    """Start a solo campaign; the campaigns so far and the best finished ones."""
    return render_template("campaign.html", campaign_id=None,
                           host_mode=current_app.config["HOST_MODE"])


@bp.get("/campaigns/<campaign_id>")
def campaign(campaign_id: str):
    if current_app.extensions["store"].get_campaign(campaign_id) is None:
        abort(404, description="no such campaign: check the link")
    return render_template("campaign.html", campaign_id=campaign_id,
                           host_mode=current_app.config["HOST_MODE"])


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the root so that its scope is the whole app (pages kept for
    offline viewing); always checked afresh, so an updated app replaces it at once."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: the app can be installed on a phone's home screen."""
    return send_from_directory(current_app.static_folder, "manifest.webmanifest",
                               mimetype="application/manifest+json", max_age=0)


@bp.get("/qr.svg")
def qr():
    """A QR code of one of this app's pages at its LAN address, ``?path=/tables/<id>``; only
    when serving the LAN, and only for the pages (no other text, no other site)."""
    from .lan import qr_svg

    base, path = current_app.config["LAN_URL"], request.args.get("path", "/")
    if not base:
        abort(404, description="QR codes are shown only when serving the LAN (serve --lan)")
    try:
        endpoint, args = current_app.url_map.bind("localhost").match(path, method="GET")
    except HTTPException:
        endpoint, args = None, {}
    page = endpoint == "pages.index" or (
        endpoint == "pages.table"
        and current_app.extensions["store"].get_table(args["table_id"]) is not None)
    if not page:
        abort(400, description="path: give the path of one of this app's pages, e.g. /tables/ID")
    return Response(qr_svg(base + path), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})
