"""End to end in Debian's chromium (headless, driven by Playwright): a 4-player table from photos.

Serves the real app with waitress on a free loopback port, uploads fixture photos, corrects a
cell, checks the scoreboard and winner, reloads, and saves phone and laptop screenshots to
docs/screenshots/ (the README shows them).
"""

import re
import shutil
import threading
from pathlib import Path

import pytest
from photos import CASES, photo, truth

from scorer.city import City
from scorer.table import Table, score_table
from web import create_app

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).parent.parent / "docs" / "screenshots"
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from web.server import make_server

    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("data")),
                      "TRUSTED_HOSTS": ["127.0.0.1"]})
    server = make_server(app, "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


def expect(locator):
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


def watch_policy(page) -> list[str]:
    """Messages of anything the page's Content-Security-Policy blocked (none expected)."""
    blocked = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text
            else None)
    return blocked


def cell_labels(page, city: int) -> list[list[str]]:
    spans = page.locator(f'.city[data-city="{city}"] .cell span').all_inner_texts()
    return [spans[r * 4:(r + 1) * 4] for r in range(4)]


SHORT = {"shop": "S", "factory": "F", "office": "O", "park": "P", "house": "H",
         "tavern-drink": "Td", "tavern-food": "Tf", "tavern-music": "Tm", "tavern-bed": "Tb"}


def test_four_player_table_from_photos(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 360, "height": 780}, device_scale_factor=2)
    blocked = watch_policy(page)
    page.goto(server)
    page.fill("textarea[name=players]", ", ".join(PLAYERS))
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/*")

    cases = CASES[:4]
    page.set_input_files("#all-photos", [str(photo(c)) for c in cases])
    page.wait_for_selector(".winner", timeout=60_000)
    assert page.locator(".grid-wrap.photo").count() == 4
    grids = [truth(c)["grid"] for c in cases]
    for i, grid in enumerate(grids):
        assert cell_labels(page, i + 1) == [[SHORT[b] for b in row] for row in grid]
    page.locator('.city[data-city="1"]').screenshot(path=str(SHOTS / "phone-city.png"))

    # Correct a cell with the picker: city 1, row 1, column 1 becomes a park (or a shop).
    new = "park" if grids[0][0][0] != "park" else "shop"
    page.click('.city[data-city="1"] .cell[data-row="1"][data-col="1"]')
    page.click(f'#picker .pick[data-building="{new}"]')
    expect(page.locator('.city[data-city="1"] .cell span').first).to_have_text(SHORT[new])
    grids[0][0][0] = new
    expected = score_table(Table(tuple(City.from_rows(g) for g in grids), tuple(PLAYERS)))
    winner = " and ".join(expected["winner"])
    assert page.inner_text(".winner") == f"Winner: {winner}"
    totals = page.locator(".scores .sum td").all_inner_texts()
    assert totals == [str(c["scores"]["total"]) for c in expected["cities"]]

    # Tapping a score shows its explanation on the city.
    page.click('.score[data-category="shops"][data-city="1"]')
    assert page.inner_text('.city[data-city="1"] .why').startswith("Shops")
    page.locator("#scoreboard-card").screenshot(path=str(SHOTS / "phone-scoreboard.png"))

    # Everything is kept: reload, and the table is listed on the front page.
    page.reload()
    page.wait_for_selector(".winner")
    assert cell_labels(page, 1)[0][0] == SHORT[new]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(SHOTS / "laptop-table.jpg"), full_page=True, type="jpeg", quality=70)
    page.goto(server)
    assert page.locator(".tables li").count() == 1
    assert blocked == []
    page.close()


def test_type_a_city_in_by_tapping(server, browser):
    page = browser.new_page(viewport={"width": 360, "height": 780})
    page.goto(server)
    page.fill("textarea[name=players]", "Solo")
    page.select_option("select[name=difficulty]", "6")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/*")
    page.click('.city[data-city="2"] >> text=Type in')
    for r in range(1, 5):
        for c in range(1, 5):
            page.click(f'.city[data-city="2"] .cell[data-row="{r}"][data-col="{c}"]')
            page.click('#picker .pick[data-building="shop"]')
            cell = f'.city[data-city="2"] .cell[data-row="{r}"][data-col="{c}"] span'
            expect(page.locator(cell)).to_have_text("S")
    assert page.inner_text('.city[data-city="2"] .total') == "64 points"
    page.close()


def test_corners_of_a_read_city_can_be_adjusted(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server)
    page.fill("textarea[name=players]", "Ann, Ben, Cy")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/*")
    case = CASES[5]
    page.set_input_files('.city[data-city="1"] input[type=file]:not([capture])', str(photo(case)))
    page.wait_for_selector('.city[data-city="1"] .grid-wrap.photo', timeout=60_000)
    page.click('.city[data-city="1"] >> text=Adjust corners')
    image = page.locator('.city[data-city="1"] .corner-wrap img')
    image.wait_for()
    page.wait_for_function("""document.querySelector('.corner-wrap img').naturalWidth > 0""")
    natural = image.evaluate("i => [i.naturalWidth, i.naturalHeight]")
    image.scroll_into_view_if_needed()
    box = image.bounding_box()
    with page.expect_response(lambda r: r.url.endswith("/corners")) as answer:
        for x, y in truth(case)["corners"]:  # the player taps the four corners
            page.mouse.click(box["x"] + (x + 0.5) / natural[0] * box["width"],
                             box["y"] + (y + 0.5) / natural[1] * box["height"])
    assert answer.value.ok
    page.wait_for_selector('.city[data-city="1"] .grid-wrap.photo')
    assert cell_labels(page, 1) == [[SHORT[b] for b in row] for row in truth(case)["grid"]]
    assert page.locator('.city[data-city="1"] .corner-wrap').count() == 0
    page.close()


def test_reader_learns_from_a_corrected_and_accepted_city(server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    blocked = watch_policy(page)
    assert page.request.delete(f"{server}/api/learning").ok  # start from nothing learned
    page.goto(server)
    expect(page.locator("#learning-summary")).to_have_text(
        "Nothing learned yet: photos are read with the shipped model.")
    page.fill("textarea[name=players]", "Ann, Ben, Cy")
    page.click("button[type=submit]")
    page.wait_for_url("**/tables/*")
    case = CASES[6]
    page.set_input_files('.city[data-city="1"] input[type=file]:not([capture])', str(photo(case)))
    city = page.locator('.city[data-city="1"]')
    city.locator(".grid-wrap.photo").wait_for(timeout=60_000)
    assert city.locator(".cell.corrected").count() == 0
    expect(city.locator("button.accept")).to_have_text("Reading is right")

    # Correct one cell: it is marked as corrected, visibly and for screen readers.
    read = truth(case)["grid"][0][1]
    new = "park" if read != "park" else "shop"
    page.click('.city[data-city="1"] .cell[data-row="1"][data-col="2"]')
    page.click(f'#picker .pick[data-building="{new}"]')
    cell = city.locator('.cell[data-row="1"][data-col="2"]')
    expect(cell).to_have_class(re.compile(r"\bcorrected\b"))
    expect(cell).to_have_attribute("aria-label", re.compile(r"corrected \(read as "))
    assert city.locator(".cell.corrected").count() == 1

    # The player says the reading is right: the reader learns this city's tiles.
    city.locator("button.accept").click()
    expect(city.locator(".learned-note")).to_have_text("Learned from this city")
    assert city.locator("button.accept").count() == 0
    assert city.locator(".card-error").inner_text() == ""

    # With something learned the city can be read again; the player's choice is kept.
    again = city.locator("button.reread")
    expect(again).to_have_text("Read again")
    with page.expect_response(lambda r: r.url.endswith("/reread")) as answer:
        again.click()
    assert answer.value.ok
    expect(city.locator(".learned-note")).to_have_text("Learned from this city")
    expect(cell.locator("span")).to_have_text(SHORT[new])

    # The home page says what was learned, per building, and can forget it.
    page.goto(server)
    summary = page.locator("#learning-summary")
    expect(summary).to_have_text(re.compile(r"^Learned from \d+ cells?"))
    assert int(re.search(r"\d+", summary.inner_text()).group()) > 0
    counts = page.locator("#learning-counts li")
    assert counts.count() > 0
    assert re.fullmatch(r"[A-Z][a-z]+( tavern)?: \d+", counts.first.inner_text())
    expect(page.locator("#export-learning")).to_have_attribute("href", "/api/learning/export.npz")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#forget-learning")
    expect(summary).to_have_text("Nothing learned yet: photos are read with the shipped model.")
    assert counts.count() == 0
    assert page.request.get(f"{server}/api/learning").json()["cells"] == 0
    assert blocked == []
    page.close()


def test_solo_automaville_typed_as_counts(server, browser):
    page = browser.new_page(viewport={"width": 360, "height": 780})
    blocked = watch_policy(page)
    created = page.request.post(f"{server}/api/tables", data={"players": ["Me"]},
                                headers={"Origin": server})
    page.goto(f"{server}/tables/{created.json()['id']}")
    card = page.locator('.city[data-city="2"]')
    assert page.locator('.city[data-city="1"] .type-counts').count() == 0
    card.get_by_role("button", name="Type counts").click()
    card.get_by_label("Drink tavern").fill("8")
    card.get_by_role("button", name="Score counts").click()
    expect(card.locator(".card-error")).to_contain_text("the game has only 7")
    card.get_by_label("Drink tavern").fill("1")
    for label, n in (("Shop", "6"), ("Music tavern", "1"), ("Food tavern", "2"), ("Park", "3")):
        card.get_by_label(label).fill(n)
    card.get_by_role("button", name="Score counts").click()
    expect(card.locator(".counts-summary")).to_have_text(
        "Tiles sorted by type: Shop 6, Drink tavern 1, Food tavern 2, Music tavern 1, Park 3")
    expect(card.locator(".total")).to_have_text("41 points")
    page.click('.score[data-category="parks"][data-city="2"]')
    assert card.locator(".why").inner_text() == "Parks 10: 3 as separate pairs (8 for a pair + 2 for one)"
    assert blocked == []
    page.close()
