"""Whole-table photos: every city found, read and seated, on photos from an independent renderer.

    python bench/whole_table.py [--tables 4] [--seed 901] [--size 2000x1500] [--workers 1]
                                [--speed 3] [--speed-tables FAMILY,...] [--json FILE]
                                [--families unseen|default|NAME,...]

Renders --tables photos for every count of cities 3..7 x tier with bench/independent_tables.py
(written apart from the training renderer; table families rotate over its FAMILIES, every
third photo of the printed tiles, some with extra cities cut by the frame's edge), reads each
with PhotoReader().read_all and prints, per count and per tier (and per family with
--families):

- found %: complete cities found (a city read whose centre is within a quarter of a city's
  side of the truth's),
- cut read: cities cut by the frame's edge that were read as complete (should be 0),
- false: cities read where the photo has none (a patch of a tiled table top, say; should be 0),
- false cut: cities reported cut by the frame's edge (or hidden) where the photo has none (a
  patch of a busy cloth at the edge, say; should be 0); cut said: cities cut by the edge
  that the answer reports,
- exact %: found cities whose 16 cells are all right, and the same with the true corners
  (what the classifier alone does at that size: the single-city benchmark's measure),
- seated %: photos whose complete cities were all found in the truth's seating order
  (clockwise, from the one nearest straight below the table's centre) and no false city read,
- around %: ... found in the truth's order around the table, from whichever city (when the
  first seat is a near tie, the player rotates the seats with one tap on the table page),
- rule %: photos whose seating the reader's rule (``search.seating``) gets right from the
  true corners of the complete cities: what "seated" would be were every city found where it
  lies (the rule estimates the table's middle from the cities; the truth knows it),
- smallest tile px of the photos.

Then --speed 12 MP photos of 6 cities (on the first --speed table families, or on those of
--speed-tables): reading and scoring vs the plain full decode of the same JPEG file, in one
run (median of 3 each).

--families picks the table families, as bench/independent.py's: the renderer's 14 by default
(the photos and results as without the option); "unseen" for the 15 of bench/unseen_tables.py,
which no renderer of the project drew before; or a comma list of names ("default" and "unseen"
stand for their sets). The photos rotate over them, and so do the 12 MP photos unless
--speed-tables names theirs (which may name unseen families too).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from independent import pick_families  # noqa: E402
from independent_photos import FAMILIES, TIERS  # noqa: E402
from independent_tables import render_table  # noqa: E402

from scorer.city import City  # noqa: E402
from scorer.errors import GridNotFound  # noqa: E402
from scorer.table import Table, score_table  # noqa: E402
from scorer.vision import search  # noqa: E402

COUNTS = (3, 4, 5, 6, 7)
_reader = None


def jobs(per_cell: int, seed: int, size: tuple[int, int],
         families: tuple[str, ...] = FAMILIES) -> list[dict]:
    out = []
    for n in COUNTS:
        for tier in TIERS:
            for _ in range(per_cell):
                k = len(out)
                out.append({"index": k, "seed": seed * 1000 + k, "cities": n, "tier": tier,
                            "family": families[k % len(families)],
                            "art": "printed" if k % 3 == 2 else "artwork", "size": list(size)})
    return out


def _start():
    global _reader
    from scorer.reading import PhotoReader

    cv2.setNumThreads(1)
    _reader = PhotoReader()


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR),
                        [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def measure(job: dict) -> dict:
    """Render one table photo, read it, and compare with the truth."""
    image, truth = render_table(job["seed"], job["cities"], job["family"], job["tier"],
                                job["art"], size=tuple(job["size"]))
    data = _jpeg(image)
    complete = [c for c in truth["cities"] if c["complete"]]
    cut = [c for c in truth["cities"] if not c["complete"]]
    t0 = time.perf_counter()
    try:
        found = _reader.read_all(data)
        readings, unread = found.cities, found.unread
    except GridNotFound:
        readings, unread = [], []
    read_ms = (time.perf_counter() - t0) * 1000
    matched, cut_read, false, exact, exact_true = [], 0, 0, 0, 0
    for reading in readings:
        centre = reading.corners.mean(0)
        near = [np.linalg.norm(centre - np.mean(c["corners"], 0)) /
                (np.linalg.norm(np.subtract(c["corners"][1], c["corners"][0])))
                for c in truth["cities"]]
        best = int(np.argmin(near))
        if near[best] > 0.25:
            false += 1
            continue
        city = truth["cities"][best]
        if not city["complete"]:
            cut_read += 1
            continue
        matched.append(best)
        exact += reading.grid == city["grid"]
        true_corners = np.array(city["corners"], np.float32)
        exact_true += _reader.read(reading.photo, true_corners).grid == city["grid"]
    def near(u, c):
        return search.inside(u.corners.mean(0), np.float32(c["corners"])) or search.inside(
            np.mean(c["corners"], 0), u.corners)
    false_cut = sum(not any(near(u, c) for c in truth["cities"]) for u in unread)
    cut_said = sum(any(near(u, c) for u in unread) for c in cut)
    order = list(truth["order"])
    seated = matched == order
    around = len(matched) == len(order) and any(matched == order[i:] + order[:i]
                                                 for i in range(len(order)))
    sides = [np.linalg.norm(np.subtract(c["corners"][1], c["corners"][0])) / 4 for c in complete]
    whole = [i for i, c in enumerate(truth["cities"]) if c["complete"]]
    rule = [whole[i] for i in search.seating(np.array(
        [truth["cities"][i]["corners"] for i in whole]))] == order
    return dict(job, complete=len(complete), cut=len(cut), found=len(set(matched)),
                cut_read=cut_read, false=false, false_cut=false_cut, cut_said=cut_said, exact=exact,
                exact_true=exact_true,
                seated=seated and not false, around=around and not false, rule=rule,
                min_tile_px=round(float(min(sides)), 1), read_ms=round(read_ms))


def summarise(rows: list[dict]) -> dict:
    complete = sum(r["complete"] for r in rows)
    found = sum(r["found"] for r in rows)
    return {"photos": len(rows), "cities": complete,
            "found_pct": 100 * found / complete if complete else None,
            "cut": sum(r["cut"] for r in rows), "cut_read": sum(r["cut_read"] for r in rows),
            "false": sum(r["false"] for r in rows),
            "false_cut": sum(r["false_cut"] for r in rows),
            "cut_said": sum(r["cut_said"] for r in rows),
            "exact_pct": 100 * sum(r["exact"] for r in rows) / found if found else None,
            "exact_true_pct": 100 * sum(r["exact_true"] for r in rows) / found if found else None,
            "seated_pct": 100 * sum(r["seated"] for r in rows) / len(rows),
            "around_pct": 100 * sum(r["around"] for r in rows) / len(rows),
            "rule_pct": 100 * sum(r["rule"] for r in rows) / len(rows),
            "min_tile_px": min(r["min_tile_px"] for r in rows),
            "read_ms": float(np.mean([r["read_ms"] for r in rows]))}


def read_times(rows: list[dict]) -> str:
    """How long a photo took to read: the median, the 90th percentile and the slowest, and
    the median by table family, slowest first (with several workers, each shares the
    machine's cores)."""
    ms = np.array([r["read_ms"] for r in rows], float)
    slowest = rows[int(np.argmax(ms))]
    families = {f: np.median([r["read_ms"] for r in rows if r["family"] == f])
                for f in {r["family"] for r in rows}}
    by_family = ", ".join(f"{f} {m / 1000:.1f}" for f, m in
                          sorted(families.items(), key=lambda item: -item[1]))
    return (f"read time a photo: median {np.median(ms) / 1000:.1f} s, 90 % within "
            f"{np.percentile(ms, 90) / 1000:.1f} s, slowest {ms.max() / 1000:.1f} s "
            f"({slowest['family']}, {slowest['cities']} cities); median by table family (s): "
            f"{by_family}")


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.1f}"


def table(title: str, groups: dict) -> str:
    lines = [f"\n{title}", f"{'':10}{'photos':>7}{'cities':>8}{'found %':>9}{'cut':>5}"
             f"{'cut said':>9}{'cut read':>10}{'false':>7}{'false cut':>11}{'exact %':>9}"
             f"{'true corners':>14}"
             f"{'seated %':>10}{'around %':>10}{'rule %':>8}"
             f"{'min tile':>10}{'read ms':>9}"]
    for name, s in groups.items():
        lines.append(f"{name:10}{s['photos']:7d}{s['cities']:8d}{_fmt(s['found_pct']):>9}"
                     f"{s['cut']:5d}{s['cut_said']:9d}{s['cut_read']:10d}{s['false']:7d}"
                     f"{s['false_cut']:11d}"
                     f"{_fmt(s['exact_pct']):>9}"
                     f"{_fmt(s['exact_true_pct']):>14}{_fmt(s['seated_pct']):>10}"
                     f"{_fmt(s['around_pct']):>10}{_fmt(s['rule_pct']):>8}"
                     f"{s['min_tile_px']:10.0f}{s['read_ms']:9.0f}")
    return "\n".join(lines)


def speed(families: list[str], seed: int) -> list[dict]:
    """Reading and scoring a 12 MP JPEG of 6 cities on each table family vs its plain full
    decode, same run."""
    from scorer.reading import PhotoReader

    reader = PhotoReader()
    rows = []
    for k, family in enumerate(families):
        image, truth = render_table(seed + k, 6, family, "medium", size=(4000, 3000), cut=False)
        with tempfile.NamedTemporaryFile(suffix=".jpg") as handle:
            handle.write(_jpeg(image))
            handle.flush()
            data = Path(handle.name).read_bytes()
            decode, read = [], []
            reader.read_all(data)  # warm up
            for _ in range(3):
                t0 = time.perf_counter()
                cv2.imread(handle.name, cv2.IMREAD_COLOR)
                decode.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                found = reader.read_all(data)
                score_table(Table(tuple(City.from_rows(c.grid) for c in found.cities)))
                read.append(time.perf_counter() - t0)
        rows.append({"decode_ms": 1000 * np.median(decode), "read_ms": 1000 * np.median(read),
                     "cities": len(found.cities)})
        print(f"  12 MP, 6 cities ({family}): decode "
              f"{rows[-1]['decode_ms']:.0f} ms, read + score {rows[-1]['read_ms']:.0f} ms = "
              f"{rows[-1]['read_ms'] / rows[-1]['decode_ms']:.2f}x, {len(found.cities)} found")
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4,
                        help="photos per count x tier (0: only the 12 MP photos' speed)")
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--size", default="2000x1500")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--speed", type=int, default=3,
                        help="12 MP photos timed, on the first this many table families")
    parser.add_argument("--speed-tables", metavar="FAMILY,...",
                        help="the table families of the 12 MP photos instead, e.g. light-wood,linen")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--families",
        help='table families: "default" (the 14 of independent_photos), "unseen" '
        "(bench/unseen_tables.py) or a comma list of names")
    args = parser.parse_args(argv)
    try:
        chosen = pick_families(args.families)
    except ValueError as error:
        parser.error(f"--families: {error}")
    try:
        families = list(pick_families(args.speed_tables)) if args.speed_tables else [
            chosen[k % len(chosen)] for k in range(args.speed)]
    except ValueError as error:
        parser.error(f"--speed-tables: {error} (families: {', '.join(FAMILIES)}, "
                     f"or unseen ones: see --families)")
    size = tuple(int(v) for v in args.size.split("x"))
    todo = jobs(args.tables, args.seed, size, chosen)
    print(f"Whole-table photos (bench/independent_tables.py), seed {args.seed}: {len(todo)} "
          f"photos of {COUNTS[0]}-{COUNTS[-1]} cities, {size[0]}x{size[1]}, tiles >= 40 px; "
          f"families rotate over {len(chosen)}; every third photo printed tiles", flush=True)
    if args.families:
        print(f"families ({len(chosen)}): {' '.join(chosen)}", flush=True)
    by_count, by_tier, by_family, results = {}, {}, {}, []
    if todo:  # (--tables 0: the 12 MP photos' speed alone)
        t0 = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(args.workers, _start) as pool:
            results = sorted(pool.imap_unordered(measure, todo), key=lambda r: r["index"])
        by_count = {f"{n} cities": summarise([r for r in results if r["cities"] == n])
                    for n in COUNTS}
        by_tier = {t: summarise([r for r in results if r["tier"] == t]) for t in TIERS}
        by_tier["all"] = summarise(results)
        print(table("by number of cities", by_count))
        print(table("by tier", by_tier))
        if args.families:
            by_family = {f: summarise(mine) for f in chosen
                         if (mine := [r for r in results if r["family"] == f])}
            print(table("by table family", by_family))
        print(f"\n{len(results)} photos in {time.perf_counter() - t0:.0f} s")
        print(read_times(results))
    timed = speed(families, args.seed * 7) if families else []
    if args.json:
        figures = {"by_count": by_count, "by_tier": by_tier}
        if args.families:  # (without the option, the file is as it was)
            figures.update(families=list(chosen), by_family=by_family)
        args.json.write_text(json.dumps({**figures, "speed": timed, "photos": results}, indent=1))


if __name__ == "__main__":
    main()
