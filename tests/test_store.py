"""The SQLite store and its files: atomic city changes, clean-up, deletion, migration."""

import json
import sqlite3
import threading

import pytest

from scorer.errors import TableError
from web.store import PhotoChanged, Store

GRID = [["shop"] * 4] * 4
CELLS = bytes(16 * 4)  # a reading's cells to learn from, 16 equal parts


def files(store: Store) -> set[str]:
    return {p.name for p in store.images.rglob("*") if p.is_file()}


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def test_table_keys_cannot_be_guessed(store):
    keys = {store.create_table("t", ["A", "B", "C"], 4, 3) for _ in range(20)}
    assert len(keys) == 20
    assert all(len(k) == 16 and k.replace("-", "").replace("_", "").isalnum() for k in keys)
    assert store.get_table("1") is None


def test_a_new_reading_replaces_every_file_of_the_city(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"n": 1})
    first = files(store)
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"n": 2})
    assert len(files(store)) == 4 and first < files(store)  # new names, old ones set aside
    store.keep_reading(key, 0, b"photo-3", b"warped-3", GRID, {"n": 3})
    assert len(files(store)) == 4 and not first & files(store)  # one undo kept, not more
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-3"
    assert store.image(key, 0, "warped")[1].read_bytes() == b"warped-3"
    assert store.get_table(key)["cities"][0]["reading"] == {"n": 3}


def test_a_reading_of_a_replaced_photo_changes_nothing(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"n": 1})
    old_name = store.image(key, 0, "photo")[0]
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"n": 2})
    before = files(store)
    with pytest.raises(PhotoChanged):
        store.keep_reading(key, 0, None, b"warped-of-1", GRID, {"n": 3}, photo_read=old_name)
    assert files(store) == before and store.get_table(key)["cities"][0]["reading"] == {"n": 2}


def test_an_unread_photo_keeps_the_grid_and_marks_the_city(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"n": 1})
    store.keep_unread_photo(key, 0, b"photo-2")
    city = store.get_table(key)["cities"][0]
    assert city["grid"] == GRID and city["reading"] == {"n": 1, "unread": True}
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-2"
    assert store.image(key, 0, "warped")[1].read_bytes() == b"warped-1"


def test_failed_retakes_in_a_row_leave_the_photo_read_before_to_an_undo(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"n": 1})
    first = store.get_table(key)["cities"][0]
    store.keep_unread_photo(key, 0, b"photo-2")
    store.keep_unread_photo(key, 0, b"photo-3")
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-3"
    assert len(files(store)) == 3  # the photo read, its warped city, the latest failed photo
    store.restore_city(key, 0)
    assert store.get_table(key)["cities"][0] == first
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-1"
    store.restore_city(key, 0)  # redone: the latest failed photo again
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-3"


def test_typing_a_city_in_sets_its_photos_aside_until_typed_again(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 1, b"photo", b"warped", GRID, {"n": 1})
    store.type_city(key, 1, GRID)
    assert len(files(store)) == 2 and store.image(key, 1, "photo") is None  # for an undo
    assert store.get_table(key)["cities"][1] == {"index": 1, "grid": GRID, "counts": None,
                                                 "reading": None, "photo": False}
    store.type_city(key, 1, GRID)
    assert files(store) == set()


def test_a_retake_and_a_type_over_can_be_put_back_and_redone(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"model_grid": GRID}, cells=CELLS)
    store.set_cell(key, 0, 0, 0, "park", b"cell")
    first = store.get_table(key)["cities"][0]
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"model_grid": GRID}, cells=CELLS)
    assert store.get_table(key)["cities"][0]["grid"][0][0] == "shop"  # the retake's reading
    store.restore_city(key, 0)
    assert store.get_table(key)["cities"][0] == first  # with the player's correction
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-1"
    store.restore_city(key, 0)  # again: redone
    assert store.image(key, 0, "photo")[1].read_bytes() == b"photo-2"
    store.restore_city(key, 0)
    store.type_city(key, 0, [[None] * 4] * 4)  # typed over
    store.restore_city(key, 0)
    assert store.get_table(key)["cities"][0] == first
    assert len(files(store)) == 3  # one undo kept: the retake's files went with the type-over
    with pytest.raises(TableError, match="nothing to put back"):
        store.restore_city(key, 1)


def test_a_set_aside_city_moves_with_its_seat(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"n": 1})
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"n": 2})
    store.reorder(key, [1, 2, 0])  # seat 3 gets the city that was at seat 1
    store.restore_city(key, 2)
    assert store.get_table(key)["cities"][2]["reading"] == {"n": 1}


def test_deleting_a_table_removes_its_files_and_corrections(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    other = store.create_table("u", ["A", "B", "C"], 4, 3)
    for k in (key, other):
        store.keep_reading(k, 0, b"photo", b"warped", GRID, {"model_grid": GRID}, cells=CELLS)
        store.set_cell(k, 0, 0, 0, "park", b"cell image")
    assert store.delete_table(key) and not store.delete_table(key)
    assert store.get_table(key) is None and [t["id"] for t in store.list_tables()] == [other]
    assert [c["table"] for c in store.corrections()] == [other]
    store.purge(0)  # once kept for an undo long enough
    assert len(files(store)) == 3 and store.get_table(other)["cities"][0]["photo"]
    assert store.lessons() == [(bytes(4), "park", True), (bytes(4), "park", True)]


def test_a_table_deleted_moments_ago_comes_back_whole(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo", b"warped", GRID, {"model_grid": GRID}, cells=CELLS)
    store.set_cell(key, 0, 0, 0, "park", b"cell image")
    before = store.get_table(key)
    assert store.delete_table(key) and not store.restore_table("unknown")
    assert store.restore_table(key) and not store.restore_table(key)
    assert store.get_table(key) == before and len(files(store)) == 3
    store.delete_table(key)
    store.purge(0)
    assert not store.restore_table(key) and files(store) == set()


def test_a_cell_keeps_the_players_latest_choice_and_forgets_an_undone_one(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo", b"warped", GRID, {"model_grid": GRID}, cells=CELLS)
    store.set_cell(key, 0, 0, 0, "park", b"1")
    store.set_cell(key, 0, 0, 0, "house", b"2")
    assert [(c["guess"], c["model_guess"], c["building"]) for c in store.corrections()] == [
        ("park", "shop", "house")]
    store.set_cell(key, 0, 0, 0, "shop", b"3")  # what the model read: undone
    assert store.corrections() == [] and store.lessons() == [] and files(store) == {
        n for n in files(store) if "cell" not in n}
    store.set_cell(key, 0, 1, 1, "shop", b"4")  # what it shows already: confirmed
    assert store.lessons() == [(bytes(4), "shop", True)]
    store.type_city(key, 1, GRID)
    store.set_cell(key, 1, 0, 0, "park")  # a typed-in city teaches nothing
    assert len(store.corrections()) == 1 and len(store.lessons()) == 1


def test_a_choice_teaches_while_its_reading_is_the_citys(store):
    """A new photo replaces the player's choices in the old reading, as the page warns: they
    teach no more (a wrong tap there is gone with it); putting the old photo back brings them
    back, and they stay in the corrections dataset throughout."""
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo-1", b"warped-1", GRID, {"model_grid": GRID}, cells=CELLS)
    store.set_cell(key, 0, 0, 0, "park", b"cell")
    assert store.lessons() == [(bytes(4), "park", True)]
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"model_grid": GRID}, cells=CELLS)
    assert store.lessons() == [] and len(store.corrections()) == 1
    store.restore_city(key, 0)
    assert store.lessons() == [(bytes(4), "park", True)]
    store.type_city(key, 0, GRID)  # typed over: replaced too
    assert store.lessons() == []


def test_accepted_readings_and_complete_tables_teach_their_other_cells(store):
    key = store.create_table("t", ["A", "B"], 4, 3)
    store.keep_reading(key, 0, b"photo", b"warped", GRID, {"model_grid": GRID}, cells=CELLS)
    store.set_cell(key, 0, 0, 0, "park")
    assert len(store.lessons()) == 1
    store.accept_city(key, 0)
    assert sorted(b for _, b, _ in store.lessons()) == ["park"] + ["shop"] * 15
    store.keep_reading(key, 0, b"photo-2", b"warped-2", GRID, {"model_grid": GRID}, cells=CELLS)
    store.forget_lessons()
    store.restore_city(key, 0)  # the accepted reading, put back: it teaches nothing now
    assert store.lessons() == [] and len(store.corrections()) == 1


def test_a_complete_table_does_not_teach_the_doubtful_cells_nobody_checked(store):
    key = store.create_table("t", ["A", "B"], 4, 2)
    doubtful = {"model_grid": GRID, "uncertain": [[0, 1], [2, 3]]}
    store.keep_reading(key, 0, b"photo", b"warped", GRID, doubtful, cells=CELLS)
    store.type_city(key, 1, GRID)  # the table is complete: its scoreboard is used
    assert len(store.lessons()) == 14  # the two flagged cells are left out
    store.set_cell(key, 0, 0, 1, "shop")  # a player confirms one: it teaches, as chosen
    assert sorted(p for _, _, p in store.lessons()) == [False] * 14 + [True]
    store.accept_city(key, 0)  # "Reading is right": the player vouches for every cell
    assert len(store.lessons()) == 16


def test_a_complete_table_teaches_once_its_seating_is_checked(store):
    """Cities of a whole-table photo whose seating nobody checked yet: the players have not
    looked at the scoreboard (it names no winner), so the table vouches for nothing yet."""
    key = store.create_table("t", ["A", "B"], 4, 2)
    seated = {"model_grid": GRID, "table_photo": "shot", "seating_checked": False}
    store.keep_reading(key, 0, b"photo", b"warped", GRID, seated, cells=CELLS)
    store.type_city(key, 1, GRID)
    assert store.lessons() == []
    store.seating_is_right(key, "shot")
    assert len(store.lessons()) == 16


def test_concurrent_readings_leave_one_whole_city(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)

    def read(n):
        store.keep_reading(key, 0, f"photo-{n}".encode(), f"warped-{n}".encode(),
                           [[f"g{n}"] * 4] * 4, {"n": n})

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    city = store.get_table(key)["cities"][0]
    n = city["reading"]["n"]
    assert city["grid"][0][0] == f"g{n}"
    assert store.image(key, 0, "photo")[1].read_bytes() == f"photo-{n}".encode()
    assert store.image(key, 0, "warped")[1].read_bytes() == f"warped-{n}".encode()
    assert len(files(store)) == 4  # and the one before it, set aside for an undo


def test_files_left_by_a_killed_request_are_swept_at_start(tmp_path):
    store = Store(tmp_path)
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    store.keep_reading(key, 0, b"photo", b"warped", GRID, {})
    folder = store.image(key, 0, "photo")[1].parent
    (folder / "city1-photo-0123456789ab.jpg").write_bytes(b"never committed")
    (store.images / "999").mkdir()
    Store(tmp_path, orphan_grace_s=0)
    assert len(files(store)) == 2 and not (store.images / "999").exists()


def test_a_version_1_data_folder_is_migrated(tmp_path):
    db = sqlite3.connect(tmp_path / "btc.sqlite3")
    db.executescript("""
        CREATE TABLE tables (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
            players TEXT NOT NULL, difficulty INTEGER NOT NULL DEFAULT 4, created REAL NOT NULL,
            updated REAL NOT NULL);
        CREATE TABLE cities (table_id INTEGER NOT NULL, idx INTEGER NOT NULL, grid TEXT,
            reading TEXT, photo INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, idx));
        CREATE TABLE corrections (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,
            city INTEGER NOT NULL, row INTEGER NOT NULL, col INTEGER NOT NULL, guess TEXT,
            building TEXT NOT NULL, image TEXT, created REAL NOT NULL);
        INSERT INTO tables VALUES (1, 'old', '["A","B","C"]', 4, 0, 0);
        INSERT INTO cities VALUES (1, 0, NULL, NULL, 1), (1, 1, NULL, NULL, 0), (1, 2, NULL, NULL, 0);
        INSERT INTO corrections VALUES (1, 1, 0, 0, 0, 'shop', 'park', 'images/1/cell-1.png', 0);
    """)
    db.close()
    folder = tmp_path / "images" / "1"
    folder.mkdir(parents=True)
    for name in ("city0-photo.jpg", "city0-warped.jpg", "cell-1.png"):
        (folder / name).write_bytes(name.encode())
    store = Store(tmp_path, orphan_grace_s=0)
    (table,) = store.list_tables()
    assert len(table["id"]) == 16 and store.get_table(table["id"])["cities"][0]["photo"]
    assert store.image(table["id"], 0, "warped")[1].read_bytes() == b"city0-warped.jpg"
    assert store.corrections()[0]["path"].read_bytes() == b"cell-1.png"
    assert Store(tmp_path).list_tables() == [table]  # a second start changes nothing


def test_a_stored_name_that_cannot_be_encoded_is_shown_replaced(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE tables SET players = ? WHERE key = ?",
                   (json.dumps(["\ud800x", "B", "C"]), key))
    assert store.get_table(key)["players"][0] == "\ufffdx"


def test_damaged_text_in_the_file_is_read_replaced(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE tables SET name = CAST(? AS TEXT) WHERE key = ?", (b"\xed\xa0\x80!", key))
    assert store.get_table(key)["name"].endswith("!")


def test_damaged_json_in_the_file_reads_as_nothing(store):
    key = store.create_table("t", ["A", "B", "C"], 4, 3)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE tables SET players = ? WHERE key = ?", ('["A", ', key))
        db.execute("UPDATE cities SET grid = '[[1, 2]]', reading = '{' WHERE idx = 0")
    table = store.get_table(key)
    assert table["players"] == [] and table["cities"][0]["reading"] is None


def test_counts_and_a_grid_replace_each_other(store):
    key = store.create_table("t", ["A"], 4, 3)
    store.keep_reading(key, 1, b"photo", b"warped", GRID, {"n": 1})
    store.type_counts(key, 1, {"shop": 6})
    city = store.get_table(key)["cities"][1]
    assert city["counts"] == {"shop": 6} and city["grid"] is None and not city["photo"]
    store.type_counts(key, 1, {"shop": 6})
    assert files(store) == set()
    store.set_cell(key, 1, 0, 0, "park")
    assert store.get_table(key)["cities"][1]["counts"] is None
    store.type_counts(key, 1, {"park": 3})
    store.keep_reading(key, 1, b"photo", b"warped", GRID, {"n": 1})
    assert store.get_table(key)["cities"][1]["counts"] is None
