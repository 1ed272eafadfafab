"""Learning a player's own copy of the game from their corrections, on art no model has seen.

    python bench/adaptation.py [--edition B] [--test-photos 50] [--known-photos 50] [--seed 4242]
                               [--workers 2] [--try strength=8,kernel_width=0.3 ...]

Photos come from the independent renderer (bench/independent_photos.py), easy and medium
tiers, on ordinary tables (light wood, dark wood, linen), 1600x1200 JPEG (every third upright).

The held-out art family, "edition B", is a new printing made here from the artwork's faces
(../shared/tile-art, read only): every face's hue turned by +30 degrees, its saturation cut to
80 %, its contrast to 85 % with a warm cast, and a redrawn frame (the 21 px border of each tile
painted over in slate blue); the icons and the scoring strip stay where they were. The shipped
model reads it clearly worse than the artwork it was trained on (see the k = 0 row).
"Edition C" (--edition C: hue -40 degrees, more saturated, a cool cast, a wider brown frame) and
"edition D" (--edition D: hue +75 degrees, a dark green frame) are the development printings:
AdaptConfig is tuned on them. B was the figure until changes were tried on it too; "edition E"
(--edition E: red and blue swapped, which no turn of the hues undoes, a cream frame), made on
2026-12-02, was held out until the printing's inks learned from the players' cells were
developed on it (2026-12-04); "edition F" (--edition F: hue +150 degrees, beyond the turns the
reader tries, mid-tones darkened by a gamma of 1.3, a dark red frame), made before that, was
measured once with them and is development since; "edition G" (--edition G: hue -100
degrees, more saturated, a warm cast, mid-tones lightened by a gamma of 0.8, a teal frame) was
held out until the printing's pictures learned from the players' cells were developed on it
(2026-12-06); "edition H" (--edition H: hue -160 degrees, more saturated, a green cast, a
gamma of 1.1, a grey frame), made before that, is held out: nothing was tuned on it.
"Edition I" (--edition I: hue +110 degrees, less saturated, a gamma of 0.9, a violet frame),
made before the players' inks were made the colour correction of a photo of their printing
(2026-12-06, thirty-first session; developed on G), was measured once with that change and
looked at cell by cell since: development. "Edition J" (--edition J: hue -70 degrees, a
gamma of 1.05, an olive frame), made after that change, is held out. "Edition K" (--edition K:
hue +50 degrees, less contrast, a gamma of 1.15, a red frame), made in the thirty-fourth
session and held out then, was looked at cell by cell in the thirty-fifth: development.

A player teaches with k = 1, 2 and 5 photos of edition B, one after the other: each is read
with what was learned so far, every wrong cell is corrected (a lesson of the player's choice),
the cells read right are accepted (lessons of an accepted reading), and reader.learn runs on
all lessons so far. When the reader turned the city, the truth is turned to match; when it
found the city elsewhere, the photo is read again with the true corners (the player taps them).
After 0 (the shipped model), 1, 2 and 5 teaching photos it prints, on --test-photos other
photos of edition B and --known-photos photos of the original artwork (the "no drop" check):

- exact %: photos whose 16 cells are all right, as read (a refusal or a turned city is wrong),
- cells %: cells right over all photos (a refused photo has none right),
- refused / turned: photos refused with GridNotFound / read the wrong way up.

Also the median time of reader.learn after 1, 2 and 5 photos and of reading one photo with
and without the adaptation. Goal: >= 99 % exact on edition B after 2 photos, no drop on the
artwork, learning < 200 ms on 2 cores. --try KEY=VALUE,... (repeatable) runs the same teaching
with another AdaptConfig (scorer/vision/config.py) for comparison. Seeded and reproducible.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass, fields, replace
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import independent_photos as photos  # noqa: E402
from independent import corner_error  # noqa: E402

from scorer.errors import GridNotFound, LearningRefused  # noqa: E402
from scorer.vision.config import ADAPT, AdaptConfig  # noqa: E402

FAMILIES = ("light-wood", "dark-wood", "linen")
TIERS = ("easy", "medium")
SIZE = (1600, 1200)
STEPS = (1, 2, 5)  # teaching photos after which the test photos are read
FACE_PX = 334


@dataclass(frozen=True)
class Edition:
    """A printing made from the artwork's faces: hue turned, saturation and contrast scaled,
    a colour cast (sRGB 0..255 added after the contrast), each tile's border of frame_px
    painted over in frame_rgb."""

    hue_deg: float
    saturation: float
    contrast: float
    cast: tuple[float, float, float]
    frame_rgb: tuple[float, float, float]
    frame_px: int
    swap_red_blue: bool = False  # inks no turn of the hues undoes (the reader tries turns)
    gamma: float = 1.0  # mid-tones darkened (> 1) as a heavier ink does, after the rest

    def describe(self) -> str:
        return (f"hue {self.hue_deg:+g} deg, saturation x{self.saturation}, contrast "
                f"x{self.contrast}, cast {self.cast}, frame {self.frame_px} px {self.frame_rgb}"
                + (", red and blue swapped" if self.swap_red_blue else "")
                + (f", gamma {self.gamma}" if self.gamma != 1 else ""))


EDITIONS = {
    "B": Edition(30.0, 0.8, 0.85, (10.0, 4.0, -8.0), (70.0, 80.0, 100.0), 21),  # measured
    "C": Edition(-40.0, 1.15, 0.9, (-6.0, 2.0, 10.0), (95.0, 60.0, 40.0), 26),  # development
    "D": Edition(75.0, 0.9, 0.95, (0.0, -4.0, 6.0), (40.0, 90.0, 60.0), 18),  # development
    "E": Edition(0.0, 0.9, 0.9, (0.0, 6.0, 0.0), (200.0, 190.0, 160.0), 20, True),  # held out
    # (made 2026-12-02, after changes were tried on B; measured once, then the printing's inks
    # learned from the players' cells were developed on it: development since 2026-12-04)
    "F": Edition(150.0, 0.85, 0.9, (-6.0, 0.0, 8.0), (60.0, 40.0, 40.0), 22, False, 1.3),
    # (made 2026-12-04 before the printing's inks were learned, measured once with them; then
    # the inks with a turn of the hues on top were developed on it: development since)
    "G": Edition(-100.0, 1.1, 0.95, (12.0, 0.0, -10.0), (30.0, 110.0, 110.0), 24, False, 0.8),
    # (made 2026-12-04 before the inks with a turn on top: held out until the printing's
    # pictures, learned from the players' cells, were developed on it: development since
    # 2026-12-06)
    "H": Edition(-160.0, 1.2, 0.9, (-8.0, 8.0, 4.0), (150.0, 150.0, 150.0), 16, False, 1.1),
    # (made 2026-12-06 before the printing's pictures were measured on it: held out)
    "I": Edition(110.0, 0.9, 0.9, (6.0, -6.0, 0.0), (120.0, 90.0, 150.0), 20, False, 0.9),
    # (made 2026-12-06, thirty-first session, before the players' inks were made the
    # correction of a photo of their printing: held out until measured with it, looked at
    # cell by cell since: development)
    "J": Edition(-70.0, 0.95, 0.9, (-4.0, 6.0, -6.0), (90.0, 120.0, 60.0), 22, False, 1.05),
    # (made 2026-12-06, thirty-first session, after the inks change, measured once with it
    # and once with a try of the pictures overruling sure readings: held out)
    "K": Edition(50.0, 1.0, 0.85, (0.0, 4.0, -6.0), (170.0, 60.0, 60.0), 18, False, 1.15),
    # (made 2026-12-06, thirty-fourth session, after the first look as taken was kept when it
    # reads surely, measured with the code before and after that change; its cells looked at
    # in the thirty-fifth session: development)
}
EDITION = "B"


# --- the held-out art family ------------------------------------------------------------------


def new_edition(face: np.ndarray, edition: Edition) -> np.ndarray:
    """A face (h, w, 3) uint8 RGB of the artwork as ``edition`` prints it."""
    hsv = cv2.cvtColor(face, cv2.COLOR_RGB2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + edition.hue_deg / 2) % 180  # OpenCV hue runs 0..180
    hsv[..., 1] *= edition.saturation
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
    if edition.swap_red_blue:
        out = out[..., ::-1]
    out = 128 + (out - 128) * edition.contrast + np.float32(edition.cast)
    if edition.gamma != 1:
        out = 255 * (np.clip(out, 0, 255) / 255) ** edition.gamma
    border = np.ones((FACE_PX, FACE_PX), bool)
    inner = slice(edition.frame_px, -edition.frame_px)
    border[inner, inner] = False
    for y in range(0, face.shape[0], FACE_PX):  # each tile of a duplex face has its own frame
        for x in range(0, face.shape[1], FACE_PX):
            tile = out[y : y + FACE_PX, x : x + FACE_PX]
            tile[border] = 0.3 * tile[border] + 0.7 * np.float32(edition.frame_rgb)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=128)
def _edition_face(name: str, key) -> np.ndarray:
    """Linear float32 face of a tile key in an edition (the renderer's _artwork_face, new art)."""
    image = new_edition(photos.artwork_image(key), EDITIONS[name])
    return photos.to_linear(image.astype(np.float32) / 255)


_ARTWORK_FACE = photos._artwork_face


# --- photos -----------------------------------------------------------------------------------


def jobs(seed: int, teach: int, test: int, known: int, edition: str = EDITION) -> dict[str, list[dict]]:
    """The photos to make: teaching and test photos of the edition, test photos of the artwork."""
    out = {}
    for group, count, printing, base in (
        ("teach", teach, edition, 0),
        ("test", test, edition, 10_000),
        ("known", known, None, 20_000),
    ):
        out[group] = [
            {
                "seed": seed * 100_000 + base + i,
                "family": FAMILIES[i % len(FAMILIES)],
                "tier": TIERS[(i // len(FAMILIES)) % len(TIERS)],
                "size": SIZE if i % 3 != 2 else SIZE[::-1],
                "edition": printing,
            }
            for i in range(count)
        ]
    return out


def render(job: dict) -> tuple[np.ndarray, dict]:
    """One photo and its truth; an edition's faces stand in for the artwork when asked for."""
    name = job["edition"]
    photos._artwork_face = functools.partial(_edition_face, name) if name else _ARTWORK_FACE
    return photos.render(job["seed"], job["family"], job["tier"], "artwork", tuple(job["size"]))


def render_all(todo: list[dict], workers: int) -> list[tuple[np.ndarray, dict]]:
    if workers <= 1:
        return [render(job) for job in todo]
    with multiprocessing.get_context("spawn").Pool(workers, cv2.setNumThreads, (1,)) as pool:
        return pool.map(render, todo, chunksize=2)


# --- teaching and testing ---------------------------------------------------------------------


def cells_of(reading) -> list[bytes]:
    blob = reading.cells_bytes()
    n = len(blob) // 16
    return [blob[i * n : (i + 1) * n] for i in range(16)]


def lessons_of(reader, image: np.ndarray, truth: dict) -> tuple[list, int]:
    """A player's lessons from one teaching photo and how many cells they corrected."""
    try:
        reading = reader.read(image)
        err, roll = corner_error(reading.corners, truth["corners"])
    except GridNotFound:
        err = np.inf
    if err > 0.5:  # not this city, or none: the player taps its corners
        reading = reader.read(image, np.asarray(truth["corners"], np.float32))
        err, roll = corner_error(reading.corners, truth["corners"])
    want = np.rot90(np.array(truth["grid"]), roll).ravel().tolist()  # the truth as read
    got = [b for row in reading.grid for b in row]
    lessons = [
        (cell, w, True) if g != w else (cell, g, False)
        for cell, g, w in zip(cells_of(reading), got, want, strict=True)
    ]
    return lessons, sum(g != w for g, w in zip(got, want, strict=True))


def test(reader, shots: list[tuple[np.ndarray, dict]]) -> dict:
    """Read every photo: exact %, cells %, refused, turned, median read ms."""
    exact = cells = refused = turned = 0
    times = []
    for image, truth in shots:
        t0 = time.perf_counter()
        try:
            reading = reader.read(image)
        except GridNotFound:
            refused += 1
            continue
        finally:
            times.append(time.perf_counter() - t0)
        pairs = [
            (g, w) for grow, wrow in zip(reading.grid, truth["grid"], strict=True)
            for g, w in zip(grow, wrow, strict=True)
        ]
        exact += reading.grid == truth["grid"]
        cells += sum(g == w for g, w in pairs)
        turned += corner_error(reading.corners, truth["corners"])[1] != 0
    n = len(shots)
    return {
        "exact": 100 * exact / n,
        "cells": 100 * cells / (16 * n),
        "refused": refused,
        "turned": turned,
        "read_ms": 1000 * statistics.median(times),
    }


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def teach_and_test(reader, teaching, tests, known, config: AdaptConfig, repeat: int) -> list[dict]:
    """Rows for k = 0 and each of STEPS teaching photos, taught one after the other."""
    reader.adaptation = None
    rows = [{"k": 0, "corrected": 0, "new": test(reader, tests), "known": test(reader, known)}]
    lessons, corrected, notes = [], 0, []
    for k, (image, truth) in enumerate(teaching, start=1):
        more, wrong = lessons_of(reader, image, truth)
        lessons += more
        corrected += wrong
        try:
            adaptation = reader.learn(lessons, config=config)
        except LearningRefused as error:
            notes.append(f"photo {k}: refused ({error})")
        else:
            if adaptation is not None and adaptation.doubtful:
                notes.append(f"photo {k}: {adaptation.doubtful} label(s) left out as doubtful")
        if k in STEPS:
            learn_ms = median_ms(functools.partial(_learn_quietly, reader, lessons, config), repeat)
            rows.append(
                {
                    "k": k,
                    "corrected": corrected,
                    "lessons": len(lessons),
                    "learn_ms": learn_ms,
                    "new": test(reader, tests),
                    "known": test(reader, known),
                }
            )
    rows[-1]["notes"] = notes
    reader.adaptation = None
    return rows


def _learn_quietly(reader, lessons, config) -> None:
    try:
        reader.learn(lessons, config=config)
    except LearningRefused:
        pass


# --- report -----------------------------------------------------------------------------------


def table(title: str, rows: list[dict], edition: str) -> str:
    name = f"edition {edition}"
    lines = [
        f"\n{title}",
        f"{'k photos':>9}{'corrected':>10}{'learn ms':>9} | {name}: {'exact %':>7}{'cells %':>9}"
        f"{'refused':>8}{'turned':>7} | artwork: {'exact %':>7}{'cells %':>9}{'refused':>8}{'turned':>7}",
    ]
    for row in rows:
        learn = f"{row['learn_ms']:.1f}" if "learn_ms" in row else "-"
        new, old = row["new"], row["known"]
        lines.append(
            f"{row['k']:9d}{row['corrected']:10d}{learn:>9} | {'':11}{new['exact']:7.1f}{new['cells']:9.2f}"
            f"{new['refused']:8d}{new['turned']:7d} | {'':9}{old['exact']:7.1f}{old['cells']:9.2f}"
            f"{old['refused']:8d}{old['turned']:7d}"
        )
    before, after = rows[0], rows[-1]
    lines.append(
        f"read ms per photo (median), shipped -> adapted: {name} {before['new']['read_ms']:.0f} -> "
        f"{after['new']['read_ms']:.0f}, artwork {before['known']['read_ms']:.0f} -> "
        f"{after['known']['read_ms']:.0f}"
    )
    two = next(r for r in rows if r["k"] == 2)
    verdict = [
        f"exact after 2 photos {two['new']['exact']:.1f} % (goal >= 99)",
        f"artwork {rows[0]['known']['exact']:.1f} -> {min(r['known']['exact'] for r in rows):.1f} % at worst"
        " (goal: no drop)",
        f"learn {max(r['learn_ms'] for r in rows[1:]):.1f} ms at most (goal < 200)",
    ]
    lines.append("goals: " + "; ".join(verdict))
    lines += [f"note: {n}" for n in after.get("notes", [])]
    return "\n".join(lines)


def parse_config(text: str) -> AdaptConfig:
    """AdaptConfig from "key=value,key=value" (types follow the defaults)."""
    kinds = {f.name: type(getattr(ADAPT, f.name)) for f in fields(AdaptConfig)}
    changes = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key.strip() not in kinds:
            raise SystemExit(f"--try: no AdaptConfig field {key.strip()!r} (fields: {', '.join(kinds)})")
        kind = kinds[key.strip()]
        changes[key.strip()] = value.strip().lower() in ("1", "true", "yes") if kind is bool \
            else kind(value)
    return replace(ADAPT, **changes)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--test-photos", type=int, default=50, help="edition photos read after teaching")
    parser.add_argument("--known-photos", type=int, default=50, help="artwork photos (the no-drop check)")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--edition", choices=sorted(EDITIONS), default=EDITION,
                        help="B: the measured printing; C: the development one (tune on C)")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering the photos")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of each learn")
    parser.add_argument(
        "--try", dest="tries", action="append", default=[], metavar="KEY=VALUE,...",
        help="also teach with this AdaptConfig (repeatable), e.g. strength=8,kernel_width=0.3",
    )
    args = parser.parse_args(argv)
    from scorer.reading import PhotoReader
    from scorer.vision.models import MODEL_DIR

    configs = [("shipped AdaptConfig", ADAPT)] + [(f"--try {t}", parse_config(t)) for t in args.tries]
    models = ", ".join(
        f"{p.name} {hashlib.sha256(p.read_bytes()).hexdigest()[:10]}"
        for p in sorted(Path(MODEL_DIR).glob("*.onnx"))
    )
    print(
        f"Adaptation to held-out art, seed {args.seed}: edition {args.edition} = the artwork with "
        f"{EDITIONS[args.edition].describe()}"
    )
    print(
        f"photos: {max(STEPS)} teaching + {args.test_photos} test of edition {args.edition}, "
        f"{args.known_photos} of the artwork; tables {' '.join(FAMILIES)}; tiers {' '.join(TIERS)}; "
        f"{SIZE[0]}x{SIZE[1]} (every third upright); models: {models}; {os.cpu_count()} cores",
        flush=True,
    )
    t0 = time.perf_counter()
    todo = jobs(args.seed, max(STEPS), args.test_photos, args.known_photos, args.edition)
    shots = render_all([job for group in todo.values() for job in group], args.workers)
    teaching = shots[: max(STEPS)]
    tests = shots[max(STEPS) : max(STEPS) + args.test_photos]
    known = shots[max(STEPS) + args.test_photos :]
    print(f"rendered {len(shots)} photos in {time.perf_counter() - t0:.0f} s", flush=True)
    reader = PhotoReader()
    test(reader, shots[:2])  # warm up the sessions
    for name, config in configs:
        t1 = time.perf_counter()
        rows = teach_and_test(reader, teaching, tests, known, config, args.repeat)
        print(table(f"{name} ({time.perf_counter() - t1:.0f} s)", rows, args.edition), flush=True)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
