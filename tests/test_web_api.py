"""Every API route through the Flask test client, errors included: never a 500."""

import io
import sys
from pathlib import Path

import pytest
from photos import CASES, EMPTY_TABLE, photo, truth
from PIL import Image

from web import create_app

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

GRID = [["shop"] * 4, ["factory", "house", "tavern-drink", "park"], ["office"] * 4, ["park"] * 4]


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, players=("Ann", "Ben", "Cy", "Dee"), **extra):
    response = client.post("/api/tables", json={"name": "Friday", "players": list(players), **extra})
    assert response.status_code == 201, response.json
    return response.json


def upload(client, table_id, city, data: bytes, name="city.jpg"):
    return client.post(f"/api/tables/{table_id}/cities/{city}/photo",
                       data={"photo": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


@pytest.mark.parametrize(
    "players, cities, variant",
    [(["Solo"], 3, "solo"), (["A", "B"], 4, "two-player"), (list("ABCDEFG"), 7, "standard")],
    ids=["solo", "two-player", "seven"],
)
def test_create_table_makes_one_city_per_seat(client, players, cities, variant):
    table = new_table(client, players)
    assert len(table["cities"]) == cities and table["scores"]["complete"] is False
    for i in range(cities):
        table = client.put(f"/api/tables/{table['id']}/cities/{i + 1}/grid", json={"grid": GRID}).json
    assert table["scores"]["variant"] == variant


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"players": []}, 400, "1 to 7 players"),
        ({"players": list("ABCDEFGH")}, 400, "1 to 7 players"),
        ({"players": ["A", "A", "B"]}, 400, "different"),
        ({"players": ["A"], "difficulty": 9}, 400, "1 to 7"),
        ({"players": "Ann"}, 400, "list of names"),
        ("not json", 400, "JSON object"),
        ({"players": ["Automartin"]}, 400, "Automartin is a solo opponent's name"),
        ({"players": [" automanon "]}, 400, "automanon is a solo opponent's name"),
        ({"players": ["Ann", " ann ", "Ben"]}, 400, "must be different"),
        ({"players": ["a", "a\u200b"]}, 400, "must be different"),
        ({"players": ["\u200b", "Ben"]}, 400, "empty"),
        ({"players": ["Ann", "", "Ben"]}, 400, "a player's name is empty"),
        ({"players": ["Ann", "  ", "Ben"]}, 400, "a player's name is empty"),
        ({"players": ["Ann", "Ben", "Cy"], "difficulty": 4}, 400, "difficulty is for a solo table only"),
        ({"players": ["Ann", "Ben"], "difficulty": 6}, 400, "difficulty is for a solo table only"),
        ({"players": ["Ann", "Ben", "Cy"], "name": "x" * 81}, 400, "at most 80 characters"),
        ({"players": ["Ann", "B" * 41]}, 400, "a player's name is at most 40 characters"),
    ],
    ids=["none", "eight", "same-name", "bad-difficulty", "not-a-list", "not-json", "automartin",
         "automanon", "same-but-case-and-spaces", "same-but-zero-width", "only-zero-width",
         "empty-name", "blank-name",
         "difficulty-for-three", "difficulty-for-two", "long-table-name", "long-player-name"],
)
def test_create_table_errors(client, body, status, message):
    response = client.post("/api/tables", json=body) if isinstance(body, dict) else client.post(
        "/api/tables", data=body)
    assert response.status_code == status and message in response.json["error"]


def test_list_rename_delete(client):
    table = new_table(client)
    assert [t["id"] for t in client.get("/api/tables").json["tables"]] == [table["id"]]
    renamed = client.patch(f"/api/tables/{table['id']}", json={"name": "Saturday"})
    assert renamed.json["name"] == "Saturday"
    assert client.patch(f"/api/tables/{table['id']}", json={"name": " "}).status_code == 400
    too_long = client.patch(f"/api/tables/{table['id']}", json={"name": "x" * 81})
    assert too_long.status_code == 400 and "at most 80 characters" in too_long.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json["name"] == "Saturday"  # kept as it was
    assert client.delete(f"/api/tables/{table['id']}").status_code == 204
    assert client.get(f"/api/tables/{table['id']}").status_code == 404
    assert client.get("/api/tables").json["tables"] == []
    assert client.delete(f"/api/tables/{table['id']}").status_code == 404
    # the undo: the table comes back whole, once
    restored = client.post(f"/api/tables/{table['id']}/restore")
    assert restored.status_code == 200 and restored.json["name"] == "Saturday"
    assert restored.json == client.get(f"/api/tables/{table['id']}").json
    again = client.post(f"/api/tables/{table['id']}/restore")
    assert again.status_code == 404 and "deleted in the last 10 minutes" in again.json["error"]


def test_a_retake_and_a_type_over_are_undone_with_their_corrections(client):
    table = new_table(client)
    url = f"/api/tables/{table['id']}/cities/2"
    first = upload(client, table["id"], 2, photo(CASES[0]).read_bytes()).json
    old = first["cities"][1]["grid"][0][0]
    corrected = client.put(f"{url}/cells/1/1", json={"building": "park" if old != "park" else "shop"})
    upload(client, table["id"], 2, photo(CASES[1]).read_bytes())  # a retake
    undone = client.post(f"{url}/restore")
    assert undone.status_code == 200 and undone.json["cities"] == corrected.json["cities"]
    assert undone.json["scores"] == corrected.json["scores"]
    client.put(f"{url}/grid", json={"grid": GRID})  # typed over
    assert client.post(f"{url}/restore").json["cities"] == corrected.json["cities"]
    assert client.get(f"{url}/photo.jpg").status_code == 200
    nothing = client.post(f"/api/tables/{table['id']}/cities/3/restore")
    assert nothing.status_code == 400 and nothing.json["error"] == "city 3 has nothing to put back"


def test_typed_cities_score_the_table_and_export(client):
    table = new_table(client, ("Ann", "Ben", "Cy"))
    for city in (1, 2, 3):
        table = client.put(f"/api/tables/{table['id']}/cities/{city}/grid", json={"grid": GRID}).json
    assert table["scores"]["complete"] and table["scores"]["winner"] == ["Ann", "Ben", "Cy"]
    raw = client.get(f"/api/tables/{table['id']}/export.csv").data
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark: spreadsheets read accents
    csv = raw.decode("utf-8-sig")
    assert csv.startswith("table,Friday") and "\ncity,builders,shops" in csv and "Ann & Ben" in csv
    exported = client.get(f"/api/tables/{table['id']}/export.json").json
    assert exported["scores"]["cities"][0]["scores"]["total"] > 0


@pytest.mark.parametrize(
    "url, body, status, message",
    [
        ("/api/tables/999", None, 404, "no table 999"),
        ("/api/tables/{id}/cities/9/grid", {"grid": GRID}, 404, "cities 1 to 4"),
        ("/api/tables/{id}/cities/1/grid", {"grid": [["shop"] * 4] * 3}, 400, "4 rows of 4"),
        ("/api/tables/{id}/cities/1/grid", {"grid": [["castle"] * 4] * 4}, 400, "unknown building"),
        ("/api/tables/{id}/cities/1/cells/1/1", {"building": "castle"}, 400, "unknown building"),
        ("/api/tables/{id}/cities/1/cells/5/1", {"building": "shop"}, 404, "rows and columns"),
        ("/api/tables/{id}/cities/1/corners", {"corners": [[0, 0]]}, 400, "four [x, y]"),
        ("/api/tables/{id}/cities/1/corners", {"corners": [[0, 0], [1, 0], [1, 1], [0, 1]]}, 400,
         "upload a photo"),
        ("/api/tables/{id}/cities/1/photo", None, 400, "multipart form field"),
        ("/api/tables/{id}/cities/1/photo.jpg", None, 404, "no photo"),
    ],
    ids=["unknown-table", "unknown-city", "short-grid", "bad-token", "bad-cell-token",
         "cell-out-of-grid", "three-corners", "corners-without-photo", "no-file", "no-image"],
)
def test_route_errors(client, url, body, status, message):
    table = new_table(client)
    url = url.format(id=table["id"])
    if url.endswith(".jpg") or url == "/api/tables/999":
        response = client.get(url)
    elif url.endswith("/photo") or url.endswith("/corners"):
        response = client.post(url, json=body) if body else client.post(url)
    else:
        response = client.put(url, json=body)
    assert response.status_code == status
    assert message in response.json["error"]


@pytest.mark.parametrize(
    "data, message",
    [(b"%PDF-1.4 not a photo", "not an image"), (b"\xff\xd8\xff\xe0" + b"\x00" * 50, "damaged"),
     (b"", "empty")],
    ids=["wrong-type", "corrupt", "empty"],
)
def test_bad_uploads_are_422_and_lose_nothing(client, data, message):
    table = new_table(client)
    client.put(f"/api/tables/{table['id']}/cities/1/grid", json={"grid": GRID})
    response = upload(client, table["id"], 1, data)
    assert response.status_code == 422 and message in response.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json["cities"][0]["grid"] == GRID


def test_upload_over_the_limit_is_413_with_a_message(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "MAX_CONTENT_LENGTH": 1000})
    client = app.test_client()
    table = new_table(client)
    response = upload(client, table["id"], 1, b"\xff" * 5000)
    assert response.status_code == 413 and "too large" in response.json["error"]


def test_photo_is_read_corrected_and_the_correction_kept(client):
    table = new_table(client)
    case = CASES[0]
    response = upload(client, table["id"], 2, photo(case).read_bytes())
    assert response.status_code == 200, response.json
    city = response.json["cities"][1]
    assert city["grid"] == truth(case)["grid"] and city["photo"]
    assert city["reading"]["warp"]["side"] > 0
    assert client.get(f"/api/tables/{table['id']}/cities/2/warped.jpg").status_code == 200
    old = city["grid"][0][0]
    new = "park" if old != "park" else "shop"
    fixed = client.put(f"/api/tables/{table['id']}/cities/2/cells/1/1", json={"building": new})
    assert fixed.json["cities"][1]["grid"][0][0] == new
    archive = client.get("/api/corrections/export.zip")
    assert archive.status_code == 200
    import zipfile

    names = zipfile.ZipFile(io.BytesIO(archive.data)).namelist()
    assert "labels.csv" in names and any(n.endswith(".png") for n in names)
    labels = zipfile.ZipFile(io.BytesIO(archive.data)).read("labels.csv").decode()
    assert f",{new},{old}," in labels


def test_photo_without_a_city_is_kept_for_tapped_corners(client):
    table = new_table(client)
    case = CASES[1]
    blank = io.BytesIO()
    Image.new("RGB", (640, 480), (120, 90, 60)).save(blank, "JPEG")
    response = upload(client, table["id"], 1, blank.getvalue())
    assert response.status_code == 422 and "no city found" in response.json["error"]
    assert client.get(f"/api/tables/{table['id']}/cities/1/photo.jpg").status_code == 200
    # the answer carries the table with the photo kept: the page needs not ask for it again
    assert response.json["table"] == client.get(f"/api/tables/{table['id']}").json
    assert response.json["table"]["cities"][0]["photo"]
    # now a real photo, read with the corners a player would tap
    upload(client, table["id"], 1, photo(case).read_bytes())
    corners = truth(case)["corners"]
    scale = 1.0  # fixtures are under the stored size, so tapped coordinates are photo pixels
    response = client.post(f"/api/tables/{table['id']}/cities/1/corners",
                           json={"corners": [[x * scale, y * scale] for x, y in corners]})
    assert response.status_code == 200
    assert response.json["cities"][0]["grid"] == truth(case)["grid"]


def test_pages_render(client):
    table = new_table(client)
    assert b"New table" in client.get("/").data
    assert client.get(f"/tables/{table['id']}").status_code == 200
    assert client.get("/tables/12345").status_code == 404


def test_a_bug_is_a_plain_json_message_not_a_stack_trace(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path)})

    @app.get("/api/boom")
    def boom():
        raise RuntimeError("bug")

    response = app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert "tables are safe" in response.json["error"] and "Traceback" not in response.text


def test_concurrent_corrections_are_all_kept(app):
    from concurrent.futures import ThreadPoolExecutor

    client = app.test_client()
    table = new_table(client)
    client.put(f"/api/tables/{table['id']}/cities/1/grid", json={"grid": GRID})

    def correct(cell):
        row, col = divmod(cell, 4)
        return app.test_client().put(
            f"/api/tables/{table['id']}/cities/1/cells/{row + 1}/{col + 1}",
            json={"building": "tavern-bed"}).status_code

    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(correct, range(16))) == {200}
    grid = client.get(f"/api/tables/{table['id']}").json["cities"][0]["grid"]
    assert grid == [["tavern-bed"] * 4] * 4  # no correction lost to another


def test_correction_survives_an_unreadable_warped_image(app, client):
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    store = app.extensions["store"]
    store.image(table["id"], 0, "warped")[1].write_bytes(b"\xff\xd8 half a file")
    response = client.put(f"/api/tables/{table['id']}/cities/1/cells/1/1", json={"building": "shop"})
    assert response.status_code == 200
    assert store.corrections()[-1]["image"] is None


# --- every bad input a 4xx (the cases found by fuzzing, issue 13) ----------------------------

ID_ROUTES = [("GET", ""), ("PATCH", ""), ("DELETE", ""), ("POST", "/cities/1/photo"),
             ("POST", "/cities/1/corners"), ("PUT", "/cities/1/grid"),
             ("PUT", "/cities/1/cells/1/1"), ("GET", "/cities/1/photo.jpg"),
             ("GET", "/cities/1/warped.jpg"), ("GET", "/export.json"), ("GET", "/export.csv"),
             ("POST", "/restore"), ("POST", "/cities/1/restore")]
JSON_ROUTES = [("POST", "/api/tables"), ("PATCH", "/api/tables/{id}"),
               ("POST", "/api/tables/{id}/cities/1/corners"), ("PUT", "/api/tables/{id}/cities/1/grid"),
               ("PUT", "/api/tables/{id}/cities/1/cells/1/1")]


@pytest.mark.parametrize("method, route", ID_ROUTES, ids=[f"{m}{r}" for m, r in ID_ROUTES])
@pytest.mark.parametrize("table_id", [str(2 ** 63), str(2 ** 64), "-1", "a" * 300, "%ED%A0%80"],
                         ids=["2^63", "2^64", "negative", "long", "surrogate"])
def test_unknown_table_ids_are_404(client, method, route, table_id):
    response = client.open(f"/api/tables/{table_id}{route}", method=method, json={})
    assert response.status_code == 404 and "no table" in response.json["error"]


@pytest.mark.parametrize("path", ["/api", "/api/", "/api/nothing", "/api/tables/x/cities/\u0661"])
def test_an_api_path_that_is_none_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.is_json and response.json["error"]


@pytest.mark.parametrize("method, path", [("GET", "/api//tables"), ("POST", "/api//tables"),
                                          ("GET", "/api/tables//{id}"), ("GET", "/api//campaigns")])
def test_an_api_path_with_a_double_slash_is_a_json_404_not_a_redirect(client, method, path):
    table = new_table(client)
    response = client.open(path.format(id=table["id"]), method=method, json={"players": ["Ann"]})
    assert response.status_code == 404 and response.is_json and response.json["error"]
    assert "Location" not in response.headers
    assert client.get(f"/api/tables/{table['id']}").status_code == 200  # the right path answers
    page = client.get(f"/tables//{table['id']}")  # a page's address is still forgiven
    assert page.status_code == 308 and page.headers["Location"].endswith(f"/tables/{table['id']}")


@pytest.mark.parametrize("method, route", JSON_ROUTES, ids=[r for _, r in JSON_ROUTES])
@pytest.mark.parametrize("body", [b"[" * 60_000, b"{\"a\":" * 5000, b'{"name": NaN}',
                                  b'{"corners": Infinity}', b"\xff\xfe"],
                         ids=["nested-list", "nested-object", "nan", "infinity", "not-utf8"])
def test_malformed_json_is_400(client, method, route, body):
    table = new_table(client)
    response = client.open(route.format(id=table["id"]), method=method, data=body,
                           content_type="application/json")
    assert response.status_code == 400 and "JSON object" in response.json["error"]


def test_a_large_json_body_is_413(client):
    response = client.post("/api/tables", json={"players": ["A"], "name": "x" * 100_000})
    assert response.status_code == 413 and "JSON bodies up to" in response.json["error"]


@pytest.mark.parametrize(
    "body, message",
    [({"players": ["Ann", "\ud800", "Cy"]}, "not text"),
     ({"players": ["Ann", "Ben\x00", "Cy"]}, "not text"),
     ({"players": ["Ann", "Ben", "Cy"], "name": "\udfff"}, "not text"),
     ({"players": ["Ann", "Ben", "Cy"], "name": ["x"]}, "must be text"),
     *[({"players": ["Ann", "Ben", "Cy"], "name": name}, "must be text")
       for name in (0, False, [], {})],
     ({"players": ["A" * 41, "Ben", "Cy"]}, "at most 40"),
     ({"players": ["A"], "difficulty": True}, "1 to 7")],
    ids=["surrogate-player", "nul-player", "surrogate-name", "list-name", "zero-name",
         "false-name", "empty-list-name", "empty-object-name", "long-name",
         "bool-difficulty"])
def test_names_that_are_not_text_are_400(client, body, message):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and message in response.json["error"]
    assert client.get("/").status_code == 200


def test_rename_with_a_surrogate_is_400_and_the_page_still_renders(client):
    table = new_table(client)
    response = client.patch(f"/api/tables/{table['id']}", json={"name": "\ud83d"})
    assert response.status_code == 400
    assert client.get("/").status_code == 200


@pytest.mark.parametrize(
    "corners, message",
    [("[[0, 0], [1e400, 0], [1, 1], [0, 1]]", "four [x, y]"),
     (f"[[0, 0], [{10 ** 400}, 0], [1, 1], [0, 1]]", "four [x, y]"),
     ("[[0, 0], [true, 0], [1, 1], [0, 1]]", "four [x, y]"),
     ("[[-5000, -5000], [-4000, -5000], [-4000, -4000], [-5000, -4000]]", "inside its"),
     ("[[0, 0], [1e9, 0], [1e9, 1e9], [0, 1e9]]", "inside its"),
     ("[[10, 10], [10, 10], [10, 10], [10, 10]]", "too small"),
     ("[[0, 0], [100, 100], [200, 200], [300, 300]]", "too small")],
    ids=["1e400", "400-digits", "bool", "far-outside", "huge", "one-point", "a-line"])
def test_corners_that_cannot_be_a_city_are_400(client, corners, message):
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    before = client.get(f"/api/tables/{table['id']}").json["cities"][0]
    response = client.post(f"/api/tables/{table['id']}/cities/1/corners",
                           data=f'{{"corners": {corners}}}', content_type="application/json")
    assert response.status_code == 400 and message in response.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json["cities"][0] == before


def test_corners_tapped_on_the_table_are_refused_and_change_nothing(client):
    """Four taps with no tile inside them (on the table beside the city, say) would replace
    a reading with sixteen guesses: they are refused, and the city stays as it was."""
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    upload(client, table["id"], 1, EMPTY_TABLE.read_bytes())  # no city: kept for tapped corners
    before = client.get(f"/api/tables/{table['id']}").json
    width, height = Image.open(EMPTY_TABLE).size
    corners = [[width * x, height * y] for x, y in ((0.3, 0.3), (0.7, 0.3), (0.7, 0.7), (0.3, 0.7))]
    response = client.post(f"/api/tables/{table['id']}/cities/1/corners", json={"corners": corners})
    assert response.status_code == 422
    assert "no tile inside the four corners tapped" in response.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json == before


def test_a_city_read_inside_adjusted_corners_can_be_put_back(client):
    """Adjusting the corners of a city read is undone like a new photo: the reading before
    (grid, corners, warped image) comes back, and again, the adjusted one."""
    table = new_table(client)
    url = f"/api/tables/{table['id']}/cities/1"
    read = upload(client, table["id"], 1, photo(CASES[0]).read_bytes()).json["cities"][0]
    warped = client.get(f"{url}/warped.jpg").data
    corners = [[x + 30, y + 20] for x, y in truth(CASES[0])["corners"]]  # a cell's third off
    moved = client.post(f"{url}/corners", json={"corners": corners}).json["cities"][0]
    assert moved["reading"]["corners"] != read["reading"]["corners"]
    back = client.post(f"{url}/restore").json["cities"][0]
    assert back["grid"] == read["grid"] and back["reading"] == read["reading"]
    assert client.get(f"{url}/warped.jpg").data == warped
    again = client.post(f"{url}/restore").json["cities"][0]
    assert again["reading"] == moved["reading"]


def test_a_city_at_the_photos_edge_can_be_read_again_inside_its_corners(client):
    """The reader's corners of a city touching the frame may lie just beyond it; reading
    the photo again inside them (as rereading does) is no error."""
    table = new_table(client)
    city = upload(client, table["id"], 1, photo(CASES[0]).read_bytes()).json["cities"][0]
    width, _ = city["reading"]["photo_size"]
    corners = city["reading"]["corners"]
    right = max(range(4), key=lambda i: corners[i][0])
    corners[right][0] = width + 0.02 * width  # a corner 2 % of the width beyond the edge
    response = client.post(f"/api/tables/{table['id']}/cities/1/corners", json={"corners": corners})
    assert response.status_code == 200, response.json
    assert client.post(f"/api/tables/{table['id']}/cities/1/reread").status_code == 200


def _png(width, height) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (90, 60, 30)).save(out, "PNG")
    return out.getvalue()


def _heic(size=(512, 384)) -> bytes:
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    noise = Image.effect_noise(size, 60).convert("RGB")
    noise.save(out, "HEIF", quality=90)
    return out.getvalue()


def _avif() -> bytes:
    out = io.BytesIO()
    Image.effect_noise((320, 240), 60).convert("RGB").save(out, "AVIF")
    return out.getvalue()


def _files(app) -> set:
    return {p.name for p in app.extensions["store"].images.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    "make, message",
    [(lambda: _png(100000, 1), "too thin"), (lambda: _png(4000, 2), "too thin"),
     (lambda: _heic()[:3000], "damaged"), (lambda: __import__("fuzz").jpeg_claiming(9000, 9000),
                                            "photos up to 50 MP")],
    ids=["100000x1", "4000x2", "heic-cut-at-3000", "header-bomb"])
def test_a_failed_upload_changes_nothing(app, client, make, message):
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    before, files = client.get(f"/api/tables/{table['id']}").json, _files(app)
    response = upload(client, table["id"], 1, make())
    assert response.status_code == 422 and message in response.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json == before and _files(app) == files


def test_avif_named_heic_is_read(client):
    table = new_table(client)
    response = upload(client, table["id"], 1, _avif(), name="city.heic")
    assert response.status_code == 422  # decoded and looked at: noise, not a city
    assert "city" in response.json["error"] and "damaged" not in response.json["error"]


def test_a_photo_without_a_city_keeps_the_grid_and_asks_for_corners(app, client):
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    before = client.get(f"/api/tables/{table['id']}").json["cities"][0]
    warped = client.get(f"/api/tables/{table['id']}/cities/1/warped.jpg").data
    response = upload(client, table["id"], 1, EMPTY_TABLE.read_bytes())
    assert response.status_code == 422
    city = client.get(f"/api/tables/{table['id']}").json["cities"][0]
    assert city["grid"] == before["grid"] and city["reading"]["unread"] is True
    assert client.get(f"/api/tables/{table['id']}/cities/1/warped.jpg").data == warped
    assert len(_files(app)) == 3  # the old photo is set aside for an undo


def test_concurrent_uploads_to_one_city_leave_one_whole_city(app):
    from concurrent.futures import ThreadPoolExecutor

    import cv2
    import numpy as np

    client = app.test_client()
    table = new_table(client)
    cases = CASES[:4]

    def send(case):
        return upload(app.test_client(), table["id"], 1, photo(case).read_bytes()).status_code

    with ThreadPoolExecutor(4) as pool:
        assert set(pool.map(send, cases)) == {200}
    city = client.get(f"/api/tables/{table['id']}").json["cities"][0]
    stored = cv2.imdecode(np.frombuffer(client.get(
        f"/api/tables/{table['id']}/cities/1/photo.jpg").data, np.uint8), cv2.IMREAD_COLOR)

    def distance(case):
        original = cv2.imread(str(photo(case)))
        return np.abs(original.astype(int) - stored).mean() if original.shape == stored.shape \
            else np.inf

    kept = min(cases, key=distance)
    assert city["grid"] == truth(kept)["grid"]
    assert np.abs(np.array(city["reading"]["corners"]) - truth(kept)["corners"]).max() < 20
    assert len(_files(app)) == 4  # and the one before, set aside for an undo


def test_deleting_a_table_removes_its_photos_and_corrections(app, client):
    table = new_table(client)
    upload(client, table["id"], 1, photo(CASES[0]).read_bytes())
    client.put(f"/api/tables/{table['id']}/cities/1/cells/1/1", json={"building": "park"})
    assert len(_files(app)) == 3
    client.delete(f"/api/tables/{table['id']}")
    assert len(_files(app)) == 3  # kept a while for an undo
    app.extensions["store"].purge(0)
    assert _files(app) == set() and app.extensions["store"].corrections() == []


# --- bounded forms, people at the table only ----------------------------------------------

def test_a_large_text_field_is_413_with_a_form_message(client):
    table = new_table(client)
    response = client.post(f"/api/tables/{table['id']}/cities/1/photo", content_type="multipart/form-data",
                           data={"note": "x" * 1_000_000, "photo": (io.BytesIO(b"x"), "c.jpg")})
    assert response.status_code == 413 and "form is too large" in response.json["error"]


def test_many_form_fields_are_413_with_a_form_message(client):
    table = new_table(client)
    fields = {f"f{k}": "x" for k in range(1500)}
    response = client.post(f"/api/tables/{table['id']}/cities/1/photo",
                           content_type="multipart/form-data", data=fields)
    assert response.status_code == 413 and "form is too large" in response.json["error"]


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}],
                         ids=["other-origin", "null-origin", "cross-site"])
def test_writes_from_other_sites_are_refused(client, headers):
    response = client.post("/api/tables", json={"players": ["A", "B", "C"]}, headers=headers)
    assert response.status_code == 403 and "own pages" in response.json["error"]
    table = new_table(client)
    response = client.post(f"/api/tables/{table['id']}/cities/1/photo", headers=headers,
                    content_type="multipart/form-data", data={"photo": (io.BytesIO(b"x"), "c.jpg")})
    assert response.status_code == 403
    assert client.get("/api/tables", headers=headers).status_code == 200  # reading is fine


def test_writes_from_the_app_itself_are_accepted(client):
    response = client.post("/api/tables", json={"players": ["A", "B", "C"]},
                           headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 201


def test_security_headers_on_every_answer(client):
    for url in ("/", "/api/tables", "/static/app.css", "/api/tables/nope"):
        headers = client.get(url).headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"


def test_unknown_host_names_are_refused(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "SERVED_HOSTS": ["localhost", "127.0.0.1", "::1"]})
    client = app.test_client()
    assert client.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200
    response = client.get("/api/tables", headers={"Host": "attacker.example"})
    assert response.status_code == 421 and "does not answer" in response.json["error"]


@pytest.mark.parametrize("host, origin, status", [
    ("[", None, 400), ("[::1", None, 400),
    ("127.0.0.1:8000", "http://[", 403), ("127.0.0.1:8000", "http://[::1", 403)])
def test_a_host_or_origin_that_is_not_a_url_is_refused(tmp_path, host, origin, status):
    client = create_app({"DATA_DIR": str(tmp_path)}).test_client()
    headers = {"Host": host, **({"Origin": origin} if origin else {})}
    response = client.post("/api/tables", json={"players": ["Ann", "Ben"]}, headers=headers)
    assert response.status_code == status and "error" in response.json
    assert client.get("/api/tables", headers={"Host": "127.0.0.1:8000"}).json["tables"] == []


def test_host_mode_lists_no_tables(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_MODE": True})
    client = app.test_client()
    table = new_table(client)
    assert client.get("/api/tables").status_code == 404
    assert client.get("/api/corrections/export.zip").status_code == 404
    page = client.get("/").data.decode()
    assert table["id"] not in page and "Friday" not in page and "own link" in page
    assert client.get(f"/tables/{table['id']}").status_code == 200


def test_table_links_cannot_be_guessed(client):
    ids = {new_table(client)["id"] for _ in range(5)}
    assert len(ids) == 5 and all(len(i) == 16 for i in ids)
    assert client.get("/api/tables/1").status_code == 404


def test_csv_cells_are_never_formulas(client):
    table = new_table(client, ("=cmd|' /C calc'!A0", "+Ben", "@Cy"))
    for city in (1, 2, 3):
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid", json={"grid": GRID})
    rows = client.get(f"/api/tables/{table['id']}/export.csv").data.decode("utf-8-sig").splitlines()
    import csv as csv_module

    cells = [cell for row in csv_module.reader(rows) for cell in row]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)
    assert "'=cmd|' /C calc'!A0 & +Ben" in cells and "'+Ben" in cells


def test_stored_values_never_take_a_page_down(app, client):
    import sqlite3

    table = new_table(client)
    with sqlite3.connect(app.extensions["store"].path) as db:
        db.execute("UPDATE tables SET name = CAST(? AS TEXT), players = ?",
                   (b"\xed\xa0\x80<script>", '["\\ud800", 5, "Cy", "Dee"]'))
        db.execute("UPDATE cities SET grid = ? WHERE idx = 0", ('[["castle"]]',))
        db.execute("UPDATE cities SET grid = '{' WHERE idx = 1")
    for url in ("/", f"/tables/{table['id']}", f"/api/tables/{table['id']}", "/api/tables",
                f"/api/tables/{table['id']}/export.csv", f"/api/tables/{table['id']}/export.json"):
        assert client.get(url).status_code == 200, url
    assert b"<script>" not in client.get("/").data


def test_the_web_layer_has_no_vision_code():
    """Photos reach the web layer as bytes and leave it as bytes: scorer.photo and the reader
    decode, warp and crop."""
    import re

    for path in (Path(__file__).parent.parent / "web").glob("*.py"):
        imports = re.findall(r"^\s*(?:from|import) (\S+)", path.read_text(), re.M)
        assert not [m for m in imports if m.startswith(("scorer.vision", "cv2", "numpy"))], path


def test_solo_table_keeps_its_difficulty(client):
    table = new_table(client, ["Ann"], difficulty=6)
    assert table["difficulty"] == 6 and len(table["cities"]) == 3


DRINKS = [["tavern-drink"] * 4, ["tavern-drink"] * 4, ["shop", "house", "shop", "shop"],
          ["shop", "shop", "shop", "tavern-bed"]]


def test_city_beyond_the_games_supply_is_scored_with_a_warning(client):
    table = new_table(client, ["Ann", "Ben", "Cy"])
    url = f"/api/tables/{table['id']}/cities"
    response = client.put(f"{url}/1/grid", json={"grid": DRINKS})
    assert response.status_code == 200
    scores = response.json["scores"]
    assert scores["cities"][0]["warnings"] == [
        "8 tavern-drink buildings in this city, but the game has only 7"]
    assert scores["cities"][0]["scores"]["total"] > 0 and scores["warnings"] == []
    for city in (2, 3):
        scores = client.put(f"{url}/{city}/grid", json={"grid": GRID}).json["scores"]
    assert scores["complete"] and scores["winner"]
    assert [c["warnings"] for c in scores["cities"]] == [
        ["8 tavern-drink buildings in this city, but the game has only 7"], [], []]


def test_cities_beyond_the_games_supply_together_are_warned_about(client):
    table = new_table(client, ["Ann", "Ben", "Cy"])
    url = f"/api/tables/{table['id']}/cities"
    client.put(f"{url}/1/grid", json={"grid": [["shop"] * 4] * 4})
    scores = client.put(f"{url}/2/grid", json={"grid": [["shop"] * 4] * 4}).json["scores"]
    assert not scores["complete"]
    assert scores["warnings"] == [
        "32 shop buildings in these cities together, but the game has only 24"]
    scores = client.put(f"{url}/3/grid", json={"grid": GRID}).json["scores"]
    assert scores["complete"]
    assert scores["warnings"] == [
        "36 shop buildings in these cities together, but the game has only 24"]


# --- history of the tables, players' statistics, the CSV's header and players -----------------

HOUSES = [["house"] * 4, ["house"] * 4, ["shop", "tavern-food", "tavern-drink", "office"],
          ["park"] * 4]  # 53 points beside GRID and LOW
LOW = [["park"] * 4, ["park"] * 4, ["house"] * 4, ["factory"] * 4]  # 37 points beside them


def typed_table(client, name, players, grids):
    table = client.post("/api/tables", json={"name": name, "players": list(players)}).json
    for city, grid in enumerate(grids, 1):
        assert client.put(f"/api/tables/{table['id']}/cities/{city}/grid",
                          json={"grid": grid}).status_code == 200
    return table["id"]


def three_nights(client):
    """Monday: a three-way shared win at 48; Tuesday: Ben wins 47, Dee and ann 37 (Dee ahead
    on the higher city); Wednesday: 3 of 4 cities typed in."""
    return (typed_table(client, "Monday", ("Ann", "Ben", "Cy"), [GRID] * 3),
            typed_table(client, "Tuesday", (" ann ", "Ben", "Dee"), [GRID, HOUSES, LOW]),
            typed_table(client, "Wednesday", ("Ann", "Ben", "Cy", "Dee"), [GRID] * 3))


def test_history_gives_each_tables_winner_and_scores(client):
    monday, tuesday, wednesday = three_nights(client)
    tables = client.get("/api/history").json["tables"]
    assert [t["id"] for t in tables] == [wednesday, tuesday, monday]
    assert [t["name"] for t in tables] == ["Wednesday", "Tuesday", "Monday"]
    assert all(isinstance(t["created"], float) and "cities" not in t for t in tables)
    assert tables[0]["players"] == ["Ann", "Ben", "Cy", "Dee"]
    assert tables[0]["summary"] == {"complete": False, "known": 3, "cities": 4}
    assert tables[1]["summary"] == {
        "complete": True, "cities": 3, "winner": ["Ben"],
        "scores": [{"name": "Ben", "final": 47, "rank": 1}, {"name": "Dee", "final": 37, "rank": 2},
                   {"name": "ann", "final": 37, "rank": 3}]}
    assert tables[2]["summary"]["winner"] == ["Ann", "Ben", "Cy"]
    assert [s["rank"] for s in tables[2]["summary"]["scores"]] == [1, 1, 1]
    # an empty table is 0 of its cities
    empty = new_table(client)["id"]
    assert client.get("/api/history").json["tables"][0]["summary"] == {
        "complete": False, "known": 0, "cities": 4}
    assert client.get(f"/api/tables/{empty}").status_code == 200


def test_stats_per_player_over_complete_tables(client):
    three_nights(client)
    players = client.get("/api/stats").json["players"]
    assert players == [
        {"name": "Ben", "games": 2, "wins": 2, "average": 47.5, "best": 48, "best_city": 53},
        {"name": "ann", "games": 2, "wins": 1, "average": 42.5, "best": 48, "best_city": 48},
        {"name": "Cy", "games": 1, "wins": 1, "average": 48.0, "best": 48, "best_city": 48},
        {"name": "Dee", "games": 1, "wins": 0, "average": 37.0, "best": 37, "best_city": 53}]


def test_stats_count_the_solo_player_not_the_automas(client):
    table = client.post("/api/tables", json={"players": ["Me"]}).json
    for city in (1, 2, 3):
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid", json={"grid": GRID})
    scores = client.get(f"/api/tables/{table['id']}").json["scores"]
    me = next(p for p in scores["players"] if p["name"] == "Me")
    assert client.get("/api/stats").json["players"] == [
        {"name": "Me", "games": 1, "wins": int("Me" in scores["winner"]),
         "average": float(me["final"]), "best": me["final"], "best_city": max(me["city_totals"])}]
    summary = client.get("/api/history").json["tables"][0]["summary"]
    assert {s["name"] for s in summary["scores"]} == {"Me", "Automartin", "Automanon"}


def test_stats_leave_a_two_player_final_out_of_the_average(client):
    """A two-player final is the sum of two cities: averaged with lower cities, it would
    double a player's average. It counts as a game and a win."""
    table = client.post("/api/tables", json={"players": ["Ann", "Ben"]}).json
    for city in (1, 2, 3, 4):
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid", json={"grid": GRID})
    two = client.get("/api/stats").json["players"]
    assert [(p["games"], p["average"], p["best"]) for p in two] == [(1, None, None)] * 2
    three = client.post("/api/tables", json={"players": ["Ann", "Cy", "Dee"]}).json
    for city in (1, 2, 3):
        client.put(f"/api/tables/{three['id']}/cities/{city}/grid", json={"grid": GRID})
    ann = next(p for p in client.get("/api/stats").json["players"] if p["name"] == "Ann")
    final = next(p["final"] for p in client.get(f"/api/tables/{three['id']}").json["scores"][
        "players"] if p["name"] == "Ann")
    assert (ann["games"], ann["average"], ann["best"]) == (2, float(final), final)


def test_history_and_stats_survive_stored_values_the_scorer_refuses(app, client):
    import sqlite3

    typed_table(client, "Monday", ("Ann", "Ben", "Cy"), [GRID] * 3)
    with sqlite3.connect(app.extensions["store"].path) as db:
        db.execute("UPDATE tables SET players = ?", ('["Ann", "ann", "Cy"]',))
    assert client.get("/api/history").json["tables"][0]["summary"]["complete"] is False
    assert client.get("/api/stats").json["players"] == []


def test_host_mode_shares_no_history_or_stats(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "HOST_MODE": True})
    client = app.test_client()
    typed_table(client, "Monday", ("Ann", "Ben", "Cy"), [GRID] * 3)
    for url in ("/api/history", "/api/stats"):
        response = client.get(url)
        assert response.status_code == 404
        assert "does not list its tables" in response.json["error"]
    page = client.get("/").data.decode()
    assert "Monday" not in page and 'id="stats"' not in page and 'id="history"' not in page


def test_csv_has_the_name_date_each_players_cities_and_tiebreaks(client):
    import csv as csv_module
    import time

    table_id = typed_table(client, "Tuesday", ("ann", "Ben", "Dee"), [GRID, HOUSES, LOW])
    created = client.get(f"/api/tables/{table_id}").json["created"]
    rows = list(csv_module.reader(
        client.get(f"/api/tables/{table_id}/export.csv").data.decode("utf-8-sig").splitlines()))
    assert rows[0] == ["table", "Tuesday"]
    assert rows[1] == ["date", time.strftime("%Y-%m-%d %H:%M", time.localtime(created))]
    assert rows[2] == ["players", "ann · Ben · Dee"]
    header = rows.index(["rank", "player", "final", "first city", "first city score",
                         "second city", "second city score", "winner"])
    assert rows[header + 1:header + 4] == [["1", "Ben", "47", "1", "47", "2", "53", "yes"],
                                           ["2", "Dee", "37", "2", "53", "3", "37", ""],
                                           ["3", "ann", "37", "1", "47", "3", "37", ""]]
    assert rows[header + 4:] == [
        ["tiebreak", "Dee ahead of ann: both 37 points, higher city score 53 vs 47"]]


def test_csv_of_a_solo_table_names_automaville_and_its_difficulty(client):
    import csv as csv_module

    table = client.post("/api/tables", json={"players": ["Me"], "difficulty": 6}).json
    for city in (1, 2, 3):
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid", json={"grid": GRID})
    rows = list(csv_module.reader(client.get(
        f"/api/tables/{table['id']}/export.csv").data.decode("utf-8-sig").splitlines()))
    assert rows[3] == ["difficulty", "6 (Automaville +4)"]
    header = rows.index(["city", "builders", "shops", "factories", "taverns", "offices",
                         "parks", "houses", "total", "grid"])
    me, automaville, _ = rows[header + 1:header + 4]
    assert automaville[1] == "Automaville (Automartin & Automanon)"
    assert int(automaville[8]) == int(me[8]) + 4  # the same tiles, and the difficulty's +4


def test_csv_of_an_unfinished_table_has_every_city_with_its_builders(client):
    import csv as csv_module

    for players, builders in ((("Ann", "Ben", "Cy"), ["Ann & Ben", "Ben & Cy", "Cy & Ann"]),
                              (("Ann", "Ben"), ["Ann", "Ann", "Ben", "Ben"])):
        table_id = typed_table(client, "Unfinished", players, [GRID])
        rows = list(csv_module.reader(
            client.get(f"/api/tables/{table_id}/export.csv").data.decode("utf-8-sig").splitlines()))
        header = rows.index(["city", "builders", "shops", "factories", "taverns", "offices",
                             "parks", "houses", "total", "grid"])
        cities = rows[header + 1:header + 1 + len(builders)]
        assert [row[:2] for row in cities] == [[str(i + 1), b] for i, b in enumerate(builders)]
        assert cities[0][8] != "" and all(row[2:] == [""] * 8 for row in cities[1:])


def test_csv_header_and_tiebreaks_are_never_formulas(client):
    import csv as csv_module

    table_id = typed_table(client, "=HYPERLINK(\"x\")", ("+Ann", "-Ben", "@Cy"), [GRID] * 3)
    rows = list(csv_module.reader(
        client.get(f"/api/tables/{table_id}/export.csv").data.decode("utf-8-sig").splitlines()))
    cells = [cell for row in rows for cell in row]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)
    assert rows[0] == ["table", "'=HYPERLINK(\"x\")"]
    assert ["tiebreak", "'+Ann and -Ben stay tied on every tiebreaker"] in rows


def test_csv_starts_with_a_byte_order_mark_and_keeps_accents(client):
    table_id = typed_table(client, "Café", ("Zoë", "Ånne", "Ben"), [GRID] * 3)
    answer = client.get(f"/api/tables/{table_id}/export.csv")
    assert answer.mimetype == "text/csv" and answer.mimetype_params.get("charset") == "utf-8"
    assert answer.data.startswith("\ufefftable,Café".encode())
    assert "Zoë · Ånne · Ben" in answer.data.decode("utf-8-sig")


def test_service_worker_and_manifest_are_served_for_the_whole_app(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in worker.headers["Cache-Control"]
    assert b'addEventListener("fetch"' in worker.data
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    info = manifest.json
    assert info["start_url"] == "/" and info["display"] == "standalone"
    assert info["theme_color"] == "#1f6f4a" and info["short_name"]
    for icon in info["icons"]:
        assert client.get(icon["src"]).status_code == 200
    page = client.get("/").data.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page and "/static/offline.js" in page


def test_a_city_being_typed_in_has_a_running_score(client):
    table = new_table(client)
    url = f"/api/tables/{table['id']}/cities/2"
    for col in (0, 1):
        answer = client.put(f"{url}/cells/1/{col + 1}", json={"building": "shop"}).json
    so_far = answer["scores"]["so_far"]
    assert so_far[0] is None and so_far[2] is None
    assert so_far[1] == {"scores": {"shops": 5, "factories": 0, "taverns": 0, "offices": 0,
                                    "parks": 0, "houses": 0, "total": 5}, "tiles": 2,
                         "warnings": []}


def test_a_city_being_typed_in_warns_of_buildings_beyond_the_supply_at_once(client):
    table = new_table(client)
    url = f"/api/tables/{table['id']}/cities/1/grid"
    grid = [["tavern-drink"] * 4, ["tavern-drink"] * 4, [None] * 4, [None] * 4]
    so_far = client.put(url, json={"grid": grid}).json["scores"]["so_far"][0]
    assert so_far["tiles"] == 8
    assert so_far["warnings"] == ["8 tavern-drink buildings in this city, but the game has only 7"]
    grid[1][3] = "park"
    assert client.put(url, json={"grid": grid}).json["scores"]["so_far"][0]["warnings"] == []


def test_a_table_deleted_while_its_photo_is_read_answers_404(app, client, monkeypatch):
    """Another phone deletes the table while a city's photo is being read: the reading
    finds no table to keep it in, and says so (404), not a server error."""
    from scorer.reading import PhotoReader

    read_photo, tables = PhotoReader.read_photo, []

    def deleted_meanwhile(self, *args, **kwargs):
        app.extensions["store"].delete_table(tables[-1]["id"])
        return read_photo(self, *args, **kwargs)

    monkeypatch.setattr(PhotoReader, "read_photo", deleted_meanwhile)
    for data in (photo(CASES[0]).read_bytes(), EMPTY_TABLE.read_bytes()):  # a city; no city
        tables.append(new_table(client))
        response = upload(client, tables[-1]["id"], 1, data)
        assert response.status_code == 404, response.json
        assert "it was deleted" in response.json["error"]
        assert client.get(f"/api/tables/{tables[-1]['id']}").status_code == 404
