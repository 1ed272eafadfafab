"""The reader on photos from an independent renderer (bench/independent_photos.py).

    python bench/independent.py [--per-cell 5] [--empty 1] [--seed 777] [--workers 2] [--save DIR]
                                [--json FILE] [--models DIR] [--families unseen|default|NAME,...]

Renders --per-cell photos for every table family x tier with the game's artwork, plus a
"printed" set (taverns with pictures of their own, a print look) of half as many per family x
tier, reads each with PhotoReader().read and prints, per family and per tier:

- exact %: photos whose 16 cells are all right (a refusal counts as wrong),
- cells %: cells right, over the photos that were read,
- tavern kind %: over truth tavern cells read as some tavern, those read as the right kind,
- refused: photos refused with GridNotFound,
- corner err: mean distance of the four corners from the truth, in cells, with the reader's
  corners turned to match best (photos read), and turned: photos read with the wrong way up.

The same overall by tier, and by the room's light (ceiling, desk lamp, window, overcast,
mixed: the independent renderer's own lights; a warm desk lamp is the hardest).

Then --empty photos per family x tier made the same way without a city (nor a neighbour's: the
table and what lies on it), which should be refused: how many were, and those read as a city.

--families picks the table families: the renderer's 14 by default; "unseen" for the 15 of
bench/unseen_tables.py, which no renderer of the project drew before (herringbone parquet, a
chessboard, an oriental rug, cork, a card table's baize, concrete and slate, wicker and cane,
hexagonal tiles, a printed map, leather, a bamboo mat, oilcloth, a cutting mat, paper with crayon
drawings, metal); or a comma list of names ("default" and "unseen" stand for their sets).

The photo of a row can be made again with render(seed, family, tier, art, size) from the
saved JSON (after unseen_tables.register() for an unseen family). The tile artwork is read
from ../shared/tile-art (BTC_TILE_ART overrides it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import unseen_tables  # noqa: E402
from independent_photos import FAMILIES, TIERS, render  # noqa: E402

from scorer.errors import GridNotFound  # noqa: E402

SIZE = (1600, 1200)
_reader = None
_save = None


def pick_families(spec: str | None) -> tuple[str, ...]:
    """The families a --families value names: None or "default" the renderer's 14, "unseen" those of
    bench/unseen_tables.py (registered with the renderer), or a comma list of names and sets."""
    chosen = []
    for name in (spec or "default").split(","):
        name = name.strip()
        group = {"default": FAMILIES, "unseen": unseen_tables.FAMILIES}.get(name, (name,))
        for family in group:
            if family not in FAMILIES + unseen_tables.FAMILIES:
                raise ValueError(f"unknown table family {family!r}")
            if family not in chosen:
                chosen.append(family)
    if any(f in unseen_tables.FAMILIES for f in chosen):
        unseen_tables.register()
    return tuple(chosen)


def jobs(per_cell: int, seed: int, empty: int = 0, families: tuple[str, ...] = FAMILIES) -> list[dict]:
    """Every photo to make: artwork over families x tiers, then the printed set (half as many),
    then ``empty`` photos per family x tier without a city."""
    out = []
    for art, count in (("artwork", per_cell), ("printed", max(1, per_cell // 2))):
        for family in families:
            for tier in TIERS:
                for i in range(count):
                    size = SIZE if i % 3 != 2 else SIZE[::-1]  # every third photo upright
                    out.append(
                        {
                            "index": len(out),
                            "seed": seed * 100_000 + i,
                            "family": family,
                            "tier": tier,
                            "art": art,
                            "size": list(size),
                        }
                    )
    for family in families:
        for tier in TIERS:
            for i in range(empty):
                out.append({"index": len(out), "seed": seed * 100_000 + 50_000 + i, "family": family,
                            "tier": tier, "art": "artwork", "size": list(SIZE), "city": False})
    return out


def _start(save_dir, model_dir):
    global _reader, _save
    from scorer.reading import PhotoReader

    cv2.setNumThreads(1)
    _reader, _save = PhotoReader(model_dir), save_dir


def corner_error(found, truth) -> tuple[float, int]:
    """Mean corner distance in cells with the found corners rolled to fit best, and that roll."""
    found, truth = np.asarray(found, float), np.asarray(truth, float)
    cell = np.linalg.norm(truth - np.roll(truth, 1, axis=0), axis=1).mean() / 4
    errors = [np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).mean() / cell for k in range(4)]
    best = int(np.argmin(errors))
    return float(errors[best]), best


def measure(job: dict) -> dict:
    """Render one photo, read it, and score the reading."""
    t0 = time.perf_counter()
    image, truth = render(job["seed"], job["family"], job["tier"], job["art"], tuple(job["size"]),
                          job.get("city", True))
    t1 = time.perf_counter()
    result = dict(job, render_ms=round((t1 - t0) * 1000), read=False, exact=False)
    try:
        reading = _reader.read(image)
    except GridNotFound as error:
        result["refusal"] = str(error)
    else:
        result.update(read=True, **_scored(reading, truth))
    result["read_ms"] = round((time.perf_counter() - t1) * 1000)
    result["truth"] = truth
    if _save is not None:
        name = f"{job['index']:04d}-{job['art']}-{job['family']}-{job['tier']}"
        cv2.imwrite(
            str(_save / f"{name}.jpg"), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95]
        )
        (_save / f"{name}.json").write_text(json.dumps(result, indent=1))
    return result


def _scored(reading, truth: dict) -> dict:
    """How a reading compares with the truth (of a photo without a city: what was read)."""
    if truth["grid"] is None:
        return {"grid": reading.grid, "corners": np.round(reading.corners, 2).tolist()}
    grid, want = reading.grid, truth["grid"]
    pairs = [(g, w) for grow, wrow in zip(grid, want, strict=True) for g, w in zip(grow, wrow, strict=True)]
    taverns = [(g, w) for g, w in pairs if w.startswith("tavern-") and g.startswith("tavern-")]
    err, roll = corner_error(reading.corners, truth["corners"])
    return {
        "exact": grid == want,
        "cells_right": sum(g == w for g, w in pairs),
        "taverns": len(taverns),
        "taverns_right": sum(g == w for g, w in taverns),
        "corner_err": round(err, 4),
        "turned": roll != 0,
        "grid": grid,
        "corners": np.round(reading.corners, 2).tolist(),
    }


def summarise(results: list[dict]) -> dict:
    """Figures of a group of photo results."""
    read = [r for r in results if r["read"]]
    taverns = sum(r["taverns"] for r in read)
    return {
        "photos": len(results),
        "exact_pct": 100 * sum(r["exact"] for r in results) / len(results),
        "cells_pct": 100 * sum(r["cells_right"] for r in read) / (16 * len(read)) if read else None,
        "tavern_kind_pct": 100 * sum(r["taverns_right"] for r in read) / taverns if taverns else None,
        "tavern_cells": taverns,
        "refused": len(results) - len(read),
        "corner_err_cells": float(np.mean([r["corner_err"] for r in read])) if read else None,
        "turned": sum(r["turned"] for r in read),
    }


def _fmt(value, digits=1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(title: str, rows: dict) -> str:
    lines = [
        f"\n{title}",
        f"{'':14}{'photos':>7}{'exact %':>9}{'cells %':>9}{'tavern kind %':>15}{'refused':>9}"
        f"{'corner err':>12}{'turned':>8}",
    ]
    for name, s in rows.items():
        tavern = f"{_fmt(s['tavern_kind_pct'])} ({s['tavern_cells']})"
        lines.append(
            f"{name:14}{s['photos']:7d}{s['exact_pct']:9.1f}{_fmt(s['cells_pct']):>9}{tavern:>15}"
            f"{s['refused']:9d}{_fmt(s['corner_err_cells'], 3):>12}{s['turned']:8d}"
        )
    return "\n".join(lines)


def _models(model_dir=None) -> str:
    from scorer.vision.models import MODEL_DIR

    return ", ".join(
        f"{p.name} {hashlib.sha256(p.read_bytes()).hexdigest()[:10]}"
        for p in sorted(Path(model_dir or MODEL_DIR).glob("*.onnx"))
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-cell", type=int, default=5, help="artwork photos per family x tier")
    parser.add_argument("--empty", type=int, default=1, help="photos without a city per family x tier")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=2, help="processes rendering and reading")
    parser.add_argument("--save", type=Path, help="write every photo (JPEG) and its truth and reading (JSON)")
    parser.add_argument("--json", type=Path, help="write the figures and every photo's result")
    parser.add_argument("--models", type=Path, help="models to measure (default: the shipped ones)")
    parser.add_argument(
        "--families",
        help='table families: "default" (the 14 of independent_photos), "unseen" (bench/unseen_tables.py) '
        "or a comma list of names",
    )
    args = parser.parse_args(argv)
    try:
        chosen = pick_families(args.families)
    except ValueError as error:
        parser.error(str(error))
    todo = jobs(args.per_cell, args.seed, args.empty, chosen)
    counts = defaultdict(int)
    for job in todo:
        counts[job["art"] if job.get("city", True) else "empty"] += 1
    print(
        f"Independent photos (bench/independent_photos.py), seed {args.seed}: {len(todo)} photos = "
        f"{counts['artwork']} artwork ({args.per_cell} per family x tier) + {counts['printed']} printed "
        f"({max(1, args.per_cell // 2)} per family x tier) + {counts['empty']} without a city "
        f"({args.empty} per family x tier)"
    )
    print(f"families ({len(chosen)}): {' '.join(chosen)}")
    print(
        "tiers: "
        + "; ".join(
            f"{t} city {lo:.0%}-{hi:.0%} of the short side, tilt <= {tilt:g} deg"
            for t, ((lo, hi), tilt, _) in TIERS.items()
        )
    )
    print(f"photos {SIZE[0]}x{SIZE[1]} (every third upright), JPEG; models: {_models(args.models)}")
    print(f"{args.workers} worker process(es)", flush=True)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    results = []
    with multiprocessing.get_context("fork").Pool(args.workers, _start, (args.save, args.models)) as pool:
        for k, result in enumerate(pool.imap_unordered(measure, todo), 1):
            results.append(result)
            if k % 50 == 0:
                print(
                    f"  {k}/{len(todo)} photos, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True
                )
    wall = time.perf_counter() - t0
    results.sort(key=lambda r: r["index"])
    empty = [r for r in results if not r.get("city", True)]
    results = [r for r in results if r.get("city", True)]
    figures = {}
    for art in ("artwork", "printed"):
        mine = [r for r in results if r["art"] == art]
        by_family = {f: summarise([r for r in mine if r["family"] == f]) for f in chosen}
        by_tier = {t: summarise([r for r in mine if r["tier"] == t]) for t in TIERS}
        by_tier["all"] = summarise(mine)
        figures[art] = {"family": by_family, "tier": by_tier}
        print(table(f"{art}, by family", by_family))
        print(table(f"{art}, by tier", by_tier))
    overall = {t: summarise([r for r in results if r["tier"] == t]) for t in TIERS}
    overall["all"] = summarise(results)
    figures["overall"] = overall
    print(table("overall (artwork + printed), by tier", overall))
    lights = sorted({r["truth"]["scene"]["lighting"] for r in results})
    by_light = {light: summarise([r for r in results if r["truth"]["scene"]["lighting"] == light])
                for light in lights}
    figures["light"] = by_light
    print(table("overall, by the room's light", by_light))
    if empty:
        misread = [f"{r['family']} {r['tier']} (index {r['index']})" for r in empty if r["read"]]
        print(f"\nwithout a city: {len(empty) - len(misread)} of {len(empty)} refused; read as a city: "
              f"{', '.join(misread) or 'none'}")
        figures["without_city"] = {"photos": len(empty), "refused": len(empty) - len(misread)}
    render_ms = np.mean([r["render_ms"] for r in results])
    read_ms = np.mean([r["read_ms"] for r in results])
    print(
        f"\n{len(results)} photos in {wall:.0f} s with {args.workers} worker(s): "
        f"render {render_ms:.0f} ms, read {read_ms:.0f} ms a photo (mean)"
    )
    if args.json:
        meta = {
            "seed": args.seed,
            "per_cell": args.per_cell,
            "size": SIZE,
            "families": chosen,
            "tiers": {t: {"city": v[0], "tilt": v[1]} for t, v in TIERS.items()},
            "wall_s": round(wall, 1),
            "render_ms": round(float(render_ms)),
            "read_ms": round(float(read_ms)),
            "models": _models(args.models),
        }
        everything = {"meta": meta, "figures": figures, "photos": results + empty}
        args.json.write_text(json.dumps(everything, indent=1))


if __name__ == "__main__":
    main()
