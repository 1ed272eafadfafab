"""Bytes of the first load of a table page, photos left out, against a 400 KB budget.

    python bench/page_weight.py

Serves the app with Flask's test client over a temporary data folder, creates a 4-city table
with every city typed in, and adds up what a browser fetches on a first (uncached) load of
/tables/<id>: the HTML; every stylesheet, script, icon, manifest and image the HTML references;
the url()s in the CSS; the manifest's icons (counted to be safe: browsers fetch them lazily);
the ES modules each script imports, and theirs in turn; the building icons the table's scripts
draw for the typed cities and its picker; the service worker the page registers; and the
table's JSON. Sizes are as served (no compression). The service worker's later background
precache is not part of the first load.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from web import create_app  # noqa: E402

BUDGET = 400 * 1000
GRIDS = [
    [["shop"] * 4, ["factory", "house", "tavern-drink", "park"],
     ["office", "office", "tavern-music", "park"], ["house", "tavern-food", "tavern-bed", "factory"]],
    [["park"] * 4, ["house"] * 4, ["office"] * 4, ["shop"] * 4],
    [["factory"] * 4, ["tavern-drink", "tavern-food", "tavern-music", "tavern-bed"],
     ["house", "park", "shop", "office"], ["park"] * 4],
    [["office"] * 4, ["shop"] * 4, ["house", "house", "park", "park"], ["factory"] * 4],
]
HTML_REFS = re.compile(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="([^"]+)"', re.I)
CSS_URLS = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
JS_PATHS = re.compile(r'["\'`](/[\w./-]+\.(?:js|css|png|svg|jpg|webmanifest))["\'`]')
# static imports of an ES module: import ... from "./x.js", export ... from "./x.js", import "./x.js"
JS_IMPORTS = re.compile(r'^\s*(?:import|export)\b[^"\';]*?["\']([^"\']+\.js)["\']', re.M)


def fetch(client, url: str) -> bytes:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.get_data()


def main() -> int:
    with tempfile.TemporaryDirectory() as data:
        app = create_app({"DATA_DIR": data, "TESTING": True})
        client = app.test_client()
        made = client.post("/api/tables", json={"players": ["Ann", "Ben", "Cy", "Dee"]})
        table_id = made.get_json()["id"]
        for city, grid in enumerate(GRIDS, start=1):
            typed = client.put(f"/api/tables/{table_id}/cities/{city}/grid", json={"grid": grid})
            assert typed.status_code == 200, typed.get_data(as_text=True)

        page = f"/tables/{table_id}"
        html = fetch(client, page)
        sizes = {page: len(html)}
        todo = [u for u in HTML_REFS.findall(html.decode()) if u.startswith("/")]
        buildings = {b for grid in GRIDS for row in grid for b in row}
        while todo:
            url = todo.pop(0)
            if url in sizes:
                continue
            body = fetch(client, url)
            sizes[url] = len(body)
            text = body.decode("utf-8", "replace")
            if url.endswith(".css"):
                todo += [u for u in CSS_URLS.findall(text) if u.startswith("/")]
            elif url.endswith(".webmanifest"):  # counted too, though browsers fetch them lazily
                todo += [icon["src"] for icon in json.loads(text).get("icons", [])]
            elif url.endswith(".js") and url != "/sw.js":
                todo += JS_PATHS.findall(text)
                todo += [urljoin(url, spec) for spec in JS_IMPORTS.findall(text)]
                if "/static/icons/${" in text:  # icons drawn from the table's buildings
                    todo += [f"/static/icons/{b}.png" for b in sorted(buildings)]
        sizes[f"/api/tables/{table_id} (JSON)"] = len(fetch(client, f"/api/tables/{table_id}"))

    total = sum(sizes.values())
    width = max(map(len, sizes))
    for url, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"  {url:<{width}}  {size:>8,} B")
    verdict = "within" if total <= BUDGET else "OVER"
    print(f"first load of a 4-city typed-in table page, no photos: {total:,} bytes "
          f"({total / 1000:.1f} KB) in {len(sizes)} responses; budget {BUDGET / 1000:.0f} KB: "
          f"{verdict} ({100 * total / BUDGET:.0f} %)")
    return 0 if total <= BUDGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
