"""One photo of the whole table through the API: cities read and seated, reordered, refused
without a change; a real SQLite file and the real models."""

import io
import json
import threading
import time
from pathlib import Path

import pytest
from photos import CASES, EMPTY_TABLE, photo, truth

from web import create_app, service

TABLES = Path(__file__).parent / "fixtures" / "tables"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("data"))})


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, players):
    response = client.post("/api/tables", json={"name": "Night", "players": list(players)})
    assert response.status_code == 201
    return response.json


def send(client, table_id, data: bytes):
    return client.post(f"/api/tables/{table_id}/photo", data={"photo": (io.BytesIO(data), "t.jpg")},
                       content_type="multipart/form-data")


def fixture(n: int) -> tuple[bytes, dict]:
    return (TABLES / f"table-{n}.jpg").read_bytes(), json.loads(
        (TABLES / f"table-{n}.json").read_text())


def test_a_whole_table_photo_reads_and_seats_every_city(client):
    data, truth = fixture(4)
    table = new_table(client, "ABCD")
    response = send(client, table["id"], data)
    assert response.status_code == 200, response.json
    body = response.json
    assert body["photo"]["seats"] == [0, 1, 2, 3]
    assert body["photo"]["notes"] == ["a city at the right edge is not complete: it was not read"]
    assert body["cities"][0]["reading"]["photo_notes"] == body["photo"]["notes"]
    assert [c["grid"] for c in body["cities"]] == truth["grids"]
    readings = [c["reading"] for c in body["cities"]]
    assert [r["in_photo"] for r in readings] == [1, 2, 3, 4]
    assert len({r["table_photo"] for r in readings}) == 1
    assert body["scores"]["complete"] and body["scores"]["unchecked"] == readings[0]["table_photo"]
    # every city shows the same stored photo, at full resolution for its small tiles
    first = client.get(f"/api/tables/{table['id']}/cities/1/photo.jpg").data
    assert first == client.get(f"/api/tables/{table['id']}/cities/4/photo.jpg").data
    assert readings[0]["photo_size"] == [1600, 1200]


def test_the_winner_waits_for_the_seating_to_be_checked_on_every_phone(client):
    data, _ = fixture(4)
    table = new_table(client, "ABCD")
    shot = send(client, table["id"], data).json["cities"][0]["reading"]["table_photo"]
    summary = {t["id"]: t["summary"] for t in client.get("/api/history").json["tables"]}
    assert summary[table["id"]] == {"complete": False, "known": 4, "cities": 4,
                                    "seating_unchecked": True}
    url = f"/api/tables/{table['id']}/seating"
    for body in ({"table_photo": "nope"}, {"table_photo": 7}, {}):
        refused = client.post(url, json=body)
        assert refused.status_code == 400 and "error" in refused.json
    assert client.get(f"/api/tables/{table['id']}").json["scores"]["unchecked"] == shot
    exported = client.get(f"/api/tables/{table['id']}/export.csv").data.decode()
    assert 'seating,"not checked yet: the seats, and so the ranks, may change"' in exported
    checked = client.post(url, json={"table_photo": shot})
    assert "seating," not in client.get(f"/api/tables/{table['id']}/export.csv").data.decode()
    assert checked.status_code == 200 and checked.json["scores"]["unchecked"] is None
    assert checked.json["scores"]["winner"]
    summary = {t["id"]: t["summary"] for t in client.get("/api/history").json["tables"]}
    assert summary[table["id"]]["complete"] and summary[table["id"]]["winner"]
    # seats changed after the check: to be checked again (every phone waits for it again)
    moved = client.put(f"/api/tables/{table['id']}/order", json={"order": [1, 0, 2, 3]})
    assert moved.json["scores"]["unchecked"] == shot
    assert client.post(url, json={"table_photo": shot}).json["scores"]["unchecked"] is None
    # reading a city again inside tapped corners keeps its photo's seating checked
    corners = checked.json["cities"][0]["reading"]["corners"]
    again = client.post(f"/api/tables/{table['id']}/cities/1/corners", json={"corners": corners})
    assert again.status_code == 200 and again.json["scores"]["unchecked"] is None


def test_cities_can_be_seated_in_another_order_with_their_corrections(client):
    data, truth = fixture(2)
    table = new_table(client, ["Ann", "Ben", "Cy", "Dee"])
    first = send(client, table["id"], data).json
    assert first["photo"]["seats"] == [0, 1]
    url = f"/api/tables/{table['id']}"
    client.put(f"{url}/cities/1/cells/1/1", json={"building": "park"})
    moved = client.put(f"{url}/order", json={"order": [2, 1, 0, 3]})
    assert moved.status_code == 200
    cities = moved.json["cities"]
    assert cities[2]["grid"][0][0] == "park" and cities[1]["grid"] == truth["grids"][1]
    assert cities[0]["grid"] is None and cities[2]["reading"]["chosen"] == [[0, 0]]
    assert client.get(f"{url}/cities/3/photo.jpg").status_code == 200
    assert client.get(f"{url}/cities/1/photo.jpg").status_code == 404
    # a second photo of the other cities fills the seats still empty
    data, _ = fixture(2)
    again = send(client, table["id"], data).json
    assert again["photo"]["seats"] == [0, 3]


@pytest.mark.parametrize("order, message", [
    ([0, 1, 2], "each seat number 0 to 3 once"), ([0, 0, 1, 2], "once"),
    ("0123", "once"), ([0, 1, 2, True], "once")])
def test_a_bad_order_is_refused_and_changes_nothing(client, order, message):
    table = new_table(client, "ABCD")
    client.put(f"/api/tables/{table['id']}/cities/1/grid", json={"grid": [["shop"] * 4] * 4})
    response = client.put(f"/api/tables/{table['id']}/order", json={"order": order})
    assert response.status_code == 400 and message in response.json["error"]
    after = client.get(f"/api/tables/{table['id']}").json
    assert after["cities"][0]["grid"] == [["shop"] * 4] * 4


def test_a_seating_chosen_on_a_table_changed_since_is_refused_and_changes_nothing(client):
    """Phone B still shows the table as it was when phone A moved the cities: B's seating,
    chosen on what B saw (``seen``), is refused with the table as it is now."""
    table = new_table(client, "ABCD")
    url = f"/api/tables/{table['id']}"
    client.put(f"{url}/cities/1/grid", json={"grid": [["shop"] * 4] * 4})
    seen_by_b = client.get(url).json["updated"]
    by_a = client.put(f"{url}/order", json={"order": [1, 0, 2, 3], "seen": seen_by_b})
    assert by_a.status_code == 200 and by_a.json["cities"][1]["grid"] == [["shop"] * 4] * 4
    by_b = client.put(f"{url}/order", json={"order": [1, 0, 2, 3], "seen": seen_by_b})
    assert by_b.status_code == 409 and "changed on another phone" in by_b.json["error"]
    assert by_b.json["table"]["cities"][1]["grid"] == [["shop"] * 4] * 4
    assert client.get(url).json == {**by_a.json, "reading_now": []}
    bad = client.put(f"{url}/order", json={"order": [1, 0, 2, 3], "seen": "yesterday"})
    assert bad.status_code == 400 and "a number" in bad.json["error"]


def test_more_cities_than_seats_is_refused_and_changes_nothing(client):
    data, _ = fixture(4)
    table = new_table(client, "ABC")
    response = send(client, table["id"], data)
    assert response.status_code == 400
    assert "shows 4 complete cities, but this table has 3" in response.json["error"]
    after = client.get(f"/api/tables/{table['id']}").json
    assert all(c["grid"] is None and not c["photo"] for c in after["cities"])


def test_too_few_free_seats_is_refused(client):
    data, _ = fixture(2)
    table = new_table(client, "ABC")
    for city in (1, 2):
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid",
                   json={"grid": [["shop"] * 4] * 4})
    response = send(client, table["id"], data)
    assert response.status_code == 400 and "only 1 of this table's cities is still" in \
        response.json["error"]
    client.put(f"/api/tables/{table['id']}/cities/3/grid", json={"grid": [["shop"] * 4] * 4})
    response = send(client, table["id"], data)  # every seat read: not "only 0 ... still to read"
    assert response.status_code == 400 and "every city of this table is read already" in \
        response.json["error"]


def test_photos_sent_at_once_from_two_phones_take_different_seats(app, client):
    """Two phones photograph half a table each at the same moment: each request saw every
    seat free, but the seats are taken as the cities are kept, so neither overwrites the
    other (both calls get the table as it was before either photo)."""
    data, truth = fixture(2)
    table = new_table(client, "ABCD")
    store, budget = app.extensions["store"], app.extensions["decode_budget"]
    reader = app.extensions["reader"].get()
    seen_by_both = store.get_table(table["id"])
    first = service.add_table_photo(store, reader, budget, seen_by_both, data)
    second = service.add_table_photo(store, reader, budget, seen_by_both, data)
    assert (first["seats"], second["seats"]) == ([0, 1], [2, 3])
    after = client.get(f"/api/tables/{table['id']}").json
    assert [c["grid"] for c in after["cities"]] == truth["grids"] * 2
    third = send(client, table["id"], data)  # no seat is left for a third
    assert third.status_code == 400 and "every city of this table is read already" in \
        third.json["error"]
    assert client.get(f"/api/tables/{table['id']}").json["cities"] == after["cities"]


def test_every_phone_sees_a_photo_being_read(app, client):
    """While a whole-table photo is read (seconds), the table says so to whoever asks (a
    reload, another phone), and says nothing once its cities are in."""
    data, _ = fixture(7)
    table = new_table(client, "ABCDEFG")
    sent = {}
    upload = threading.Thread(target=lambda: sent.update(answer=send(app.test_client(),
                                                                     table["id"], data)))
    upload.start()
    seen, deadline = [], time.monotonic() + 30
    while upload.is_alive() and not seen and time.monotonic() < deadline:
        seen = client.get(f"/api/tables/{table['id']}").json["reading_now"]
        time.sleep(0.02)
    upload.join()
    assert [r["what"] for r in seen] == ["the whole table"]
    assert sent["answer"].status_code == 200 and sent["answer"].json["reading_now"] == []
    after = client.get(f"/api/tables/{table['id']}").json
    assert after["reading_now"] == [] and all(c["photo"] for c in after["cities"])


def test_a_photo_without_a_city_is_refused_and_changes_nothing(client):
    table = new_table(client, "ABCD")
    response = send(client, table["id"], EMPTY_TABLE.read_bytes())
    assert response.status_code == 422
    assert "no complete city found in the photo; photograph the table from above" in \
        response.json["error"]
    assert not any(c["photo"] for c in client.get(f"/api/tables/{table['id']}").json["cities"])


def test_a_single_city_photo_takes_the_first_free_seat(client):
    table = new_table(client, "ABCD")
    client.put(f"/api/tables/{table['id']}/cities/1/grid", json={"grid": [["shop"] * 4] * 4})
    response = send(client, table["id"], photo("easy-01").read_bytes())
    assert response.status_code == 200 and response.json["photo"]["seats"] == [1]


def test_cities_read_again_stay_part_of_their_table_photo(client):
    data, truth = fixture(4)
    table = new_table(client, "ABCD")
    first = send(client, table["id"], data).json["cities"][2]["reading"]
    url = f"/api/tables/{table['id']}/cities/3"
    again = client.post(f"{url}/corners", json={"corners": first["corners"]})
    assert again.status_code == 200, again.json
    reading = again.json["cities"][2]["reading"]
    assert again.json["cities"][2]["grid"] == truth["grids"][2]
    assert {k: reading[k] for k in ("table_photo", "in_photo", "photo_notes")} == {
        k: first[k] for k in ("table_photo", "in_photo", "photo_notes")}
    assert reading["photo_size"] == [1600, 1200]
    assert client.post(f"{url}/reread").json["cities"][2]["reading"]["in_photo"] == 3


def send_for_city(client, table_id, city: int, data: bytes):
    return client.post(f"/api/tables/{table_id}/cities/{city}/photo",
                       data={"photo": (io.BytesIO(data), "t.jpg")},
                       content_type="multipart/form-data")


def test_a_whole_table_photo_sent_for_one_city_says_it_shows_more(client):
    """Sent on one city's card, a photo of four cities is read as that city, says it shows
    more, and the photo of the whole table sent next takes that city's seat too (a 6-player
    table: its four cities go to seats 1-4, not 2-5)."""
    data, truth = fixture(4)
    table = new_table(client, "ABCDEF")
    response = send_for_city(client, table["id"], 1, data)
    assert response.status_code == 200, response.json
    assert response.json["cities"][0]["reading"]["more_cities"] is True
    whole = send(client, table["id"], data)
    assert whole.status_code == 200, whole.json
    assert whole.json["photo"]["seats"] == [0, 1, 2, 3]
    assert [c["grid"] for c in whole.json["cities"][:4]] == truth["grids"]
    assert all("more_cities" not in c["reading"] for c in whole.json["cities"][:4])


@pytest.mark.parametrize("name", ["easy-01", "hard-00"])
def test_a_photo_of_one_city_does_not_say_it_shows_more(client, name):
    table = new_table(client, "AB")
    response = send_for_city(client, table["id"], 2, photo(name).read_bytes())
    assert response.status_code == 200, response.json
    assert "more_cities" not in response.json["cities"][1]["reading"]


@pytest.mark.parametrize("name", ["2", "side-by-side", "7"])
def test_photos_of_several_cities_sent_for_one_say_so(client, name):
    """Two cities a tenth of a city apart may be read as one city as long as two: that
    says so too."""
    table = new_table(client, "AB")
    response = send_for_city(client, table["id"], 1, (TABLES / f"table-{name}.jpg").read_bytes())
    assert response.status_code == 200, response.json
    assert response.json["cities"][0]["reading"]["more_cities"] is True


def test_a_new_photo_of_a_city_read_with_tapped_corners_leaves_its_table_photo(client):
    """A city of a whole-table photo, photographed again on its own where no city is found
    (out of focus: no cell reads surely), then read inside tapped corners: its reading now
    comes from that photo, so it is no longer one of the whole-table photo's cities (whose
    seating check would vouch for it)."""
    import cv2

    data, _ = fixture(4)
    table = new_table(client, "ABCD")
    shot = send(client, table["id"], data).json["cities"][2]["reading"]["table_photo"]
    blurred = cv2.GaussianBlur(cv2.imread(str(photo(CASES[0]))), (0, 0), 16)
    refused = send_for_city(client, table["id"], 3, cv2.imencode(".jpg", blurred)[1].tobytes())
    assert refused.status_code == 422
    url = f"/api/tables/{table['id']}/cities/3"
    read = client.post(f"{url}/corners", json={"corners": truth(CASES[0])["corners"]})
    assert read.status_code == 200, read.json
    reading = read.json["cities"][2]["reading"]
    assert "table_photo" not in reading and "in_photo" not in reading
    assert [c["reading"].get("table_photo") for c in read.json["cities"]] == [shot, shot, None, shot]


def test_a_city_read_from_a_photo_of_several_is_learned_only_once_a_player_accepts_it(client):
    """Which of the photo's cities was read, only a player can say: the table's scoreboard
    does not vouch for it, as it does for a photo of one city."""
    table = new_table(client, "ABC")
    before = client.get("/api/learning").json["cells"]
    sent = send_for_city(client, table["id"], 1, (TABLES / "table-pair.jpg").read_bytes())
    assert sent.json["cities"][0]["reading"]["more_cities"] is True
    for city in (2, 3):  # typed in: the table is complete, its scoreboard seen
        client.put(f"/api/tables/{table['id']}/cities/{city}/grid",
                   json={"grid": [["shop"] * 4] * 4})
    assert client.get(f"/api/tables/{table['id']}").json["scores"]["complete"]
    assert client.get("/api/learning").json["cells"] == before
    assert client.post(f"/api/tables/{table['id']}/cities/1/accept").status_code == 200
    assert client.get("/api/learning").json["cells"] == before + 16
