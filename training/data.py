"""Seeded training and evaluation data made from rendered scenes.

Crops are cut with the reader's own functions (``scorer.vision.geometry``) through a slightly
wrong warp, as a real detection of a hand-built city gives. Scene ``i`` of seed ``s`` is
always the same scene, whichever process renders it.
"""

from __future__ import annotations

from functools import cache
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from scorer.city import BUILDINGS
from scorer.vision import geometry
from scorer.vision.config import DEFAULT

from .printings import reprint
from .render import far_and_shaken, random_layout, render_scene
from .tiles import drawn_faces, real_faces

LABELS = [*BUILDINGS, "empty"]
IGNORE = -100
SIZES = [(960, 720), (720, 960), (800, 600), (1024, 768), (768, 1024)]
FAR_SHARE = 0.35  # of the classifier's scenes, seen again from further away and shaken


@cache
def faces(kind: str):
    return real_faces() if kind == "real" else drawn_faces()


def scene_for(seed: int, index: int, art: str, tier: str | None = None, out_size=None,
              reprint_share: float = 0.5, **options):
    """Scene ``index`` of a seeded set; art 'real', 'drawn' or 'mixed' (70 % real).

    A share of the scenes show another printing of the game (``training.printings``);
    ``options`` go to ``render_scene`` (table family, light model, fill, neighbour).
    """
    rng = np.random.default_rng([seed, index])
    kind = art if art != "mixed" else ("real" if rng.uniform() < 0.7 else "drawn")
    tier = tier or ["easy", "medium", "hard"][int(rng.integers(3))]
    size = out_size or SIZES[int(rng.integers(len(SIZES)))]
    face_set = faces(kind)
    if rng.uniform() < reprint_share:
        face_set = reprint(face_set, rng)
    return render_scene(random_layout(face_set, rng), face_set, rng, tier, size, **options), rng


def _perturbed(corners: np.ndarray, rng, amount: float) -> np.ndarray:
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    shift = rng.normal(0, amount * 0.6 * cell, 2)
    return (corners + shift + rng.normal(0, amount * cell, (4, 2))).astype(np.float32)


def _empty_crops(image, city, rng, count):
    """Crops of table, clutter and tile backs around the city, cut like cells."""
    cell = np.linalg.norm(city[1] - city[0]) / 4
    h, w = image.shape[:2]
    tiles, corners = [], []
    for _ in range(count * 4):
        if len(tiles) == count:
            break
        centre = rng.uniform((0, 0), (w, h))
        if cv2.pointPolygonTest(city.reshape(-1, 1, 2), tuple(map(float, centre)), True) > -0.6 * cell:
            continue
        angle = rng.uniform(0, 2 * np.pi)
        d = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])
        quad = (np.array([[-0.5, -0.5], [3.5, -0.5], [3.5, 3.5], [-0.5, 3.5]]) * cell) @ d + centre
        warped = geometry.warp_city(image, quad.astype(np.float32))
        tiles.append(geometry.tile_crops(warped)[0])
        corners.append(geometry.corner_crops(warped)[0])
    return tiles, corners


def classifier_samples(job: tuple[int, int, str]) -> dict[str, np.ndarray]:
    """Crops of one scene: 16 upright (building + turn 0), 16 turned (turn only), empties.

    A share of the scenes are first seen from further away and shaken (tiles of 32-64 px,
    motion blur, washed-out glare), as a photo of a whole table often is.
    """
    seed, index, art = job
    scene, rng = scene_for(seed, index, art)
    image, city = scene.image, scene.corners
    if rng.uniform() < FAR_SHARE:
        image, city = far_and_shaken(image, city, rng)
    upright = _perturbed(city, rng, 0.035)
    k = int(rng.integers(1, 4))
    tiles, corners, building, turn = [], [], [], []
    for quarter in (0, k):
        warped = geometry.warp_city(image, np.roll(upright, -quarter, axis=0))
        tiles.append(geometry.tile_crops(warped))
        corners.append(geometry.corner_crops(warped))
        names = np.rot90(np.array(scene.grid), quarter).ravel()
        building += [LABELS.index(n) if quarter == 0 else IGNORE for n in names]
        turn += [quarter] * 16
    empty_t, empty_c = _empty_crops(image, city, rng, 4)
    # uint8 even when no empty crop was found: one float scene made the whole set float64
    # (eight times the memory: 7.7 GB for the full budget's crops)
    building += [LABELS.index("empty")] * len(empty_t)
    turn += [IGNORE] * len(empty_t)
    return {
        "tile": np.concatenate([*tiles, np.array(empty_t, np.uint8).reshape(-1, *tiles[0].shape[1:])]),
        "corner": np.concatenate([*corners, np.array(empty_c, np.uint8).reshape(-1, *corners[0].shape[1:])]),
        "building": np.array(building, np.int64),
        "turn": np.array(turn, np.int64),
    }


def finder_samples(job: tuple[int, int, str]) -> dict[str, np.ndarray]:
    """Three finder views of one small scene: the whole photo, a closer second look, and a
    look warped square around a rough guess of the corners.

    Cities span 10-100 % of the frame, some beside a neighbouring city; the second look's
    box is as rough as a first look at a small city gives; the warped look is the reader's
    rectified look (see ``PhotoReader._rectified_look``) at a guess off by up to about a cell.
    """
    seed, index, art = job
    rng = np.random.default_rng([seed, index, 1])
    size = [(480, 360), (360, 480), (432, 432), (512, 384)][int(rng.integers(4))]
    fill = (0.1, 0.4) if rng.uniform() < 0.35 else None
    scene, rng = scene_for(seed, index, art, out_size=size, fill=fill,
                           neighbour=bool(rng.uniform() < 0.3))
    px = DEFAULT.finder_px
    views, masks = [], []
    centre = scene.corners.mean(0) + rng.normal(0, 0.05, 2) * np.ptp(scene.corners, 0)
    half = np.ptp(scene.corners, 0).max() / 2 * DEFAULT.refine_expand * rng.uniform(0.92, 1.5)
    for box in (None, np.array([centre - half, centre + half])):
        view, back = geometry.finder_view(scene.image, box, px)
        views.append(view)
        masks.append(_city_mask(geometry.apply_matrix(scene.corners, np.linalg.inv(back))))
    offset = px * (1 - 1 / DEFAULT.refine_expand) / 2
    target = geometry.square(offset, px - 2 * offset)
    guess = _rough_guess(scene.corners, rng)
    views.append(geometry.warp_quad(scene.image, guess, target, px))
    to_view = cv2.getPerspectiveTransform(guess, target)
    masks.append(_city_mask(geometry.apply_matrix(scene.corners, to_view)))
    return {"view": np.stack(views), "mask": np.stack(masks)}


def _rough_guess(corners: np.ndarray, rng) -> np.ndarray:
    """The city's corners (4, 2) as a rough first estimate has them: scaled, shifted and each
    corner moved, by up to about a cell; float32."""
    cell = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean() / 4
    centre = corners.mean(0)
    guess = centre + (corners - centre) * rng.uniform(0.85, 1.2)
    guess = guess + rng.normal(0, 0.2, 2) * cell + rng.normal(0, 0.2, (4, 2)) * cell
    return guess.astype(np.float32)


def _city_mask(quad: np.ndarray) -> np.ndarray:
    """The finder's target for a city at ``quad`` (4, 2) in view pixels: (px/2, px/2) uint8."""
    px = DEFAULT.finder_px
    mask = np.zeros((px // 2, px // 2), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad + 0.5) / 2 * 16 - 8).astype(np.int32), 1,
                       lineType=cv2.LINE_8, shift=4)
    return mask


CACHE = Path(__file__).resolve().parent / "data"
VERSION = 3  # of the samples above: a change to them must not reuse an old cache


def build(kind: str, seed: int, count: int, art: str = "mixed", processes: int = 2,
          use_cache: bool = True) -> dict:
    """Render ``count`` scenes in parallel and stack their samples (cached in training/data)."""
    cache = CACHE / f"{kind}-v{VERSION}-{art}-{seed}-{count}.npz"
    if use_cache and cache.is_file():
        return dict(np.load(cache))
    work = classifier_samples if kind == "classifier" else finder_samples
    jobs = [(seed, i, art) for i in range(count)]
    with Pool(processes) as pool:
        parts = pool.map(work, jobs, chunksize=8)
    samples = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    if use_cache:
        CACHE.mkdir(exist_ok=True)
        np.savez(cache, **samples)
    return samples

