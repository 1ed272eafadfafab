"""Tile faces for rendering: the real artwork (never committed) or tiles drawn here.

A face set maps each building to an upright RGB image (S, S, 3) uint8, gives each of the 24
duplex tiles as (image, halves, layout), and a tile back. Drawn tiles follow the game's visual
language: grey cobble border, a coloured building, the white type icon at the top left (a red
diamond with a white kind icon for taverns) and a light scoring strip at the bottom.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.city import BUILDINGS
from scorer.duplex import DUPLEX_TILES

ART = Path(__file__).resolve().parents[2] / "shared" / "tile-art"
WHITE = (255, 255, 255)


@dataclass
class FaceSet:
    """Upright tile faces; ``singles[building]`` (S, S, 3) RGB, duplex (image, halves, layout)."""

    name: str
    singles: dict[str, np.ndarray]
    duplex: list[tuple[np.ndarray, tuple[str, str], str]]
    back: np.ndarray


def _read_rgb(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(path)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def duplex_catalogue() -> list[dict]:
    """The 24 duplex tiles: file, layout and the building on each half (from the artwork)."""
    return json.loads((ART / "duplex.json").read_text())["duplex"]


def real_faces() -> FaceSet:
    """The game's own artwork from ../shared/tile-art (training and evaluation only)."""
    singles = {b: _read_rgb(ART / "singles" / f"{b}.png") for b in BUILDINGS}
    duplex = []
    for entry in duplex_catalogue():
        halves = (entry["left"], entry["right"]) if entry["layout"] == "horizontal" else (
            entry["top"], entry["bottom"])
        duplex.append((_read_rgb(ART / entry["file"]), halves, entry["layout"]))
    return FaceSet("real", singles, duplex, _read_rgb(ART / "back.png"))


# --- tiles drawn by the project ------------------------------------------------------------

BUILDING_COLOUR = {  # RGB roof / facade colours in the game's palette
    "shop": ((150, 110, 60), (235, 190, 50)),
    "factory": ((70, 70, 72), (165, 165, 168)),
    "office": ((80, 70, 60), (40, 95, 175)),
    "park": ((70, 130, 60), (70, 140, 200)),
    "house": ((120, 50, 35), (170, 75, 55)),
    "tavern": ((75, 45, 35), (200, 35, 35)),
}
ICON_BADGE = {  # badge colour behind the white icon
    "shop": (245, 175, 20), "factory": (95, 95, 98), "office": (30, 100, 180),
    "park": (30, 140, 60), "house": (165, 60, 40), "tavern": (200, 30, 40),
}


def _icon(img: np.ndarray, building: str, x: int, y: int, s: int) -> None:
    """Draw the white type icon in a badge of side ``s`` with top-left corner (x, y)."""
    kind = building.split("-")[-1]
    badge = ICON_BADGE["tavern" if building.startswith("tavern") else building]
    c = (x + s // 2, y + s // 2)
    t = max(2, s // 14)
    if building.startswith("tavern"):
        pts = np.array([[c[0], y], [x + s, c[1]], [c[0], y + s], [x, c[1]]], np.int32)
        cv2.fillConvexPoly(img, pts, badge, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, WHITE, t, cv2.LINE_AA)
        u = s // 5
        if kind == "drink":  # beer mug
            cv2.rectangle(img, (c[0] - u, c[1] - u), (c[0] + u // 2, c[1] + u + u // 2), WHITE, -1)
            cv2.ellipse(img, (c[0] + u // 2, c[1] + u // 4), (u // 2, u // 2), 0, -90, 90, WHITE, t)
        elif kind == "food":  # fork and knife
            cv2.line(img, (c[0] - u // 2, c[1] - u), (c[0] - u // 2, c[1] + u + u // 2), WHITE, t)
            for dx in (-u, 0):
                cv2.line(img, (c[0] - u // 2 + dx // 2 + u // 4, c[1] - u),
                         (c[0] - u // 2 + dx // 2 + u // 4, c[1] - u // 3), WHITE, max(1, t // 2))
            cv2.ellipse(img, (c[0] + u // 2, c[1] - u // 3), (u // 4, u), 0, 0, 360, WHITE, -1)
            cv2.line(img, (c[0] + u // 2, c[1]), (c[0] + u // 2, c[1] + u + u // 2), WHITE, t)
        elif kind == "music":  # music note
            cv2.circle(img, (c[0] - u // 2, c[1] + u), u // 2, WHITE, -1)
            cv2.line(img, (c[0], c[1] + u), (c[0], c[1] - u), WHITE, t)
            cv2.line(img, (c[0], c[1] - u), (c[0] + u, c[1] - u // 2), WHITE, t + 1)
        else:  # bed
            cv2.rectangle(img, (c[0] - u - u // 2, c[1] - u), (c[0] - u, c[1] + u), WHITE, -1)
            cv2.rectangle(img, (c[0] - u, c[1]), (c[0] + u + u // 2, c[1] + u // 2), WHITE, -1)
            cv2.circle(img, (c[0] - u // 3, c[1] - u // 4), u // 3, WHITE, -1)
        return
    cv2.rectangle(img, (x, y), (x + s, y + s), badge, -1)
    cv2.rectangle(img, (x, y), (x + s, y + s), WHITE, max(1, t // 2))
    u = s // 4
    if building == "factory":  # gear
        for a in range(0, 360, 45):
            p = (int(c[0] + 1.45 * u * np.cos(np.radians(a))), int(c[1] + 1.45 * u * np.sin(np.radians(a))))
            cv2.circle(img, p, max(2, u // 3), WHITE, -1)
        cv2.circle(img, c, int(1.3 * u), WHITE, -1)
        cv2.circle(img, c, u // 2, badge, -1)
    elif building == "house":
        roof = np.array([[c[0], c[1] - u - u // 2], [c[0] + u + u // 2, c[1]], [c[0] - u - u // 2, c[1]]])
        cv2.fillConvexPoly(img, roof.astype(np.int32), WHITE)
        cv2.rectangle(img, (c[0] - u, c[1]), (c[0] + u, c[1] + u + u // 2), WHITE, -1)
        cv2.rectangle(img, (c[0] - u // 4, c[1] + u // 2), (c[0] + u // 4, c[1] + u + u // 2), badge, -1)
    elif building == "office":  # pen nib
        nib = np.array([[c[0] - u - u // 2, c[1] + u + u // 2], [c[0] - u // 2, c[1] - u // 2],
                        [c[0] + u + u // 2, c[1] - u - u // 2], [c[0] + u // 2, c[1] + u // 2]])
        cv2.fillConvexPoly(img, nib.astype(np.int32), WHITE)
        cv2.line(img, tuple(nib[0]), (c[0], c[1]), badge, max(1, t // 2))
    elif building == "park":  # tree
        cv2.circle(img, (c[0], c[1] - u // 2), u, WHITE, -1)
        cv2.rectangle(img, (c[0] - u // 5, c[1]), (c[0] + u // 5, c[1] + u + u // 2), WHITE, -1)
    elif building == "shop":  # gift box
        cv2.rectangle(img, (c[0] - u, c[1] - u // 2), (c[0] + u, c[1] + u + u // 2), WHITE, -1)
        cv2.line(img, (c[0], c[1] - u // 2), (c[0], c[1] + u + u // 2), badge, t)
        cv2.line(img, (c[0] - u, c[1] + u // 3), (c[0] + u, c[1] + u // 3), badge, t)
        cv2.circle(img, (c[0] - u // 3, c[1] - u + u // 4), u // 3, WHITE, t)
        cv2.circle(img, (c[0] + u // 3, c[1] - u + u // 4), u // 3, WHITE, t)


def _cobble(size: tuple[int, int], rng: np.random.Generator, base=(150, 145, 140)) -> np.ndarray:
    h, w = size
    noise = rng.normal(0, 14, (h // 6 + 1, w // 6 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_NEAREST)
    img = np.clip(np.array(base, np.float32) + noise[..., None], 0, 255)
    return img.astype(np.uint8)


def draw_face(building: str, size: int = 334, seed: int = 0, icon: bool = True) -> np.ndarray:
    """One tile face drawn in the game's style: (size, size, 3) uint8 RGB, upright."""
    rng = np.random.default_rng(seed)
    img = _cobble((size, size), rng)
    b = size // 16
    kind = "tavern" if building.startswith("tavern") else building
    roof, facade = BUILDING_COLOUR[kind]
    cv2.rectangle(img, (b, b), (size - b, size - b), (95, 110, 70), -1)  # lawn
    if kind == "park":
        cv2.ellipse(img, (size // 2, size // 2), (size // 4, size // 6), 20, 0, 360, facade, -1)
        for _ in range(9):
            p = (int(rng.integers(b * 2, size - b * 2)), int(rng.integers(b * 2, size - b * 4)))
            cv2.circle(img, p, size // 14, roof, -1)
    else:
        top, bottom = size // 6, size - size // 4
        cv2.rectangle(img, (b * 2, top), (size - b * 2, (top + bottom) // 2), roof, -1)
        cv2.rectangle(img, (b * 2, (top + bottom) // 2), (size - b * 2, bottom), facade, -1)
        for k in range(6):  # windows
            x = b * 3 + k * (size - b * 6) // 6
            cv2.rectangle(img, (x, (top + bottom) // 2 + b), (x + b, bottom - b), (40, 40, 45), -1)
    strip_top = size - size // 8
    cv2.rectangle(img, (b, strip_top), (size - b, size - b), (185, 180, 172), -1)
    for k in range(5):  # the score key: small dark marks
        x = b * 3 + k * (size - b * 6) // 5
        cv2.putText(img, str([2, 5, 10, 16, 4][k]), (x, size - b - 3), cv2.FONT_HERSHEY_SIMPLEX,
                    size / 700, (250, 250, 250), max(1, size // 200), cv2.LINE_AA)
    if icon:
        _icon(img, building, b + size // 24, b + size // 24, size // 4)
    return img


def drawn_faces(size: int = 334) -> FaceSet:
    """The project's own tiles: what committed fixtures are rendered from."""
    singles = {b: draw_face(b, size, seed=i) for i, b in enumerate(BUILDINGS)}
    duplex = []
    for i, (layout, *halves) in enumerate(DUPLEX_TILES):
        horizontal = layout == "horizontal"
        parts = [draw_face(h, size, seed=100 + 2 * i + k) for k, h in enumerate(halves)]
        duplex.append((np.concatenate(parts, axis=1 if horizontal else 0), tuple(halves), layout))
    back = np.full((size, size, 3), (70, 25, 55), np.uint8)
    c = size // 2
    for r in range(size // 8, size // 2, size // 10):
        pts = np.array([[c, c - r], [c + r, c], [c, c + r], [c - r, c]], np.int32)
        cv2.polylines(back, [pts], True, (235, 195, 70), max(2, size // 40), cv2.LINE_AA)
    return FaceSet("drawn", singles, duplex, back)
