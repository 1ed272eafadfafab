"""Other printings of the game: the same icons on illustrations the models never learn to trust.

A tile's type is its icon in the top-left corner; the picture behind it differs between
printings (the printed game gives each tavern its own picture, where the artwork in
../shared/tile-art gives the four one picture). ``reprint(faces, rng)`` returns a face set in
which some buildings keep their icon on a new illustration: another tile's picture, a real
photograph, or a scene drawn here (tables, a stage, a garden, beds, a bar). The icon itself
varies in size, position, colour, stroke and print texture. Picture and kind are unrelated,
so only the icon tells the kind.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorer.city import BUILDINGS

from .tables import photo_crop
from .tiles import FaceSet, _cobble, _icon, draw_face

DIAMOND = (0.243, 0.246, 0.13)  # the tavern icon in the artwork: centre x, y and half-diagonal


def diamond_mask(size: int, centre=DIAMOND[:2], half=DIAMOND[2]) -> np.ndarray:
    """(size, size) float32, 1 inside the tavern icon's diamond."""
    cx, cy, r = centre[0] * size, centre[1] * size, half * size
    pts = np.array([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]]) * 16
    mask = np.zeros((size, size), np.float32)
    cv2.fillConvexPoly(mask, pts.astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    return mask


def _scene(size: int, rng) -> np.ndarray:
    """A drawn illustration: a floor, then furniture, people, plants or beds in a palette."""
    img = np.zeros((size, size, 3), np.float32) + rng.uniform(30, 220, 3)
    palette = rng.uniform(20, 240, (5, 3))
    kind = rng.choice(["tables", "stage", "garden", "beds", "bar"])
    for _ in range(int(rng.integers(6, 30))):
        c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        s = int(rng.uniform(0.03, 0.2) * size)
        colour = tuple(float(x) for x in palette[int(rng.integers(5))])
        if kind in ("tables", "garden"):
            cv2.circle(img, c, s, colour, -1, cv2.LINE_AA)
            if kind == "tables":  # chairs round a table
                for a in np.linspace(0, 2 * np.pi, 5)[:-1]:
                    p = (int(c[0] + 1.4 * s * np.cos(a)), int(c[1] + 1.4 * s * np.sin(a)))
                    cv2.circle(img, p, max(2, s // 3), tuple(float(x) for x in palette[0]), -1)
        elif kind == "beds":
            cv2.rectangle(img, c, (c[0] + s, c[1] + 2 * s), colour, -1)
            cv2.rectangle(img, c, (c[0] + s, c[1] + s // 3), (235, 235, 230), -1)
        else:  # stage or bar: long counters and lights
            cv2.rectangle(img, c, (c[0] + 3 * s, c[1] + s // 2), colour, -1)
            cv2.circle(img, (c[0], c[1] - s), max(2, s // 4), (250, 240, 180), -1)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))


def _without_icon(face: np.ndarray) -> np.ndarray:
    """The face with its icon corner painted over from around it: (S, S, 3) float32."""
    size = face.shape[0]
    small = cv2.resize(face, (size // 4, size // 4), interpolation=cv2.INTER_AREA)
    hole = np.zeros(small.shape[:2], np.uint8)
    a, b = int(0.06 * size / 4), int(0.44 * size / 4)
    hole[a:b, a:b] = 1
    filled = cv2.resize(cv2.inpaint(small, hole, 3, cv2.INPAINT_TELEA), (size, size))
    out = face.astype(np.float32)
    a, b = int(0.06 * size), int(0.44 * size)
    out[a:b, a:b] = filled[a:b, a:b]
    return out


def illustration(faces: FaceSet, size: int, rng) -> np.ndarray:
    """A picture for a tile face: (size, size, 3) float32 RGB, from any of the sources."""
    pick = rng.uniform()
    if pick < 0.3:  # another tile's picture (its icon corner is covered later)
        other = faces.singles[BUILDINGS[int(rng.integers(len(BUILDINGS)))]]
        if rng.uniform() < 0.3:  # or half of a duplex
            face, _, layout = faces.duplex[int(rng.integers(len(faces.duplex)))]
            other = face[:, :face.shape[1] // 2] if layout == "horizontal" else face[:face.shape[0] // 2]
        return _without_icon(cv2.resize(other, (size, size), interpolation=cv2.INTER_AREA))
    if pick < 0.45:
        return draw_face(BUILDINGS[int(rng.integers(len(BUILDINGS)))], size,
                         seed=int(rng.integers(1 << 30)), icon=False).astype(np.float32)
    if pick < 0.7:
        return photo_crop(rng, size)
    return _scene(size, rng)


def _frame(picture: np.ndarray, rng) -> np.ndarray:
    """Most printed tiles have a cobbled border and a light scoring strip at the bottom."""
    size = picture.shape[0]
    if rng.uniform() < 0.3:
        return picture
    border = _cobble((size, size), rng, base=rng.uniform(110, 180, 3)).astype(np.float32)
    b = int(size * rng.uniform(0.04, 0.08))
    border[b:size - b, b:size - b] = cv2.resize(picture, (size - 2 * b, size - 2 * b))
    strip = int(size * rng.uniform(0.08, 0.14))
    border[size - b - strip:size - b, b:size - b] = rng.uniform(150, 230)
    return border


def _restyle_icon(face: np.ndarray, mask: np.ndarray, rng) -> np.ndarray:
    """Other ink inside ``mask``: badge hue, saturation and value, thicker or thinner strokes.

    face : (S, S, 3) float32 RGB; mask : (S, S) float32, the icon's area.
    """
    hsv = cv2.cvtColor(np.clip(face, 0, 255).astype(np.uint8), cv2.COLOR_RGB2HSV).astype(np.float32)
    inside = mask > 0.5
    white = inside & (hsv[..., 1] < 70) & (hsv[..., 2] > 170)
    hsv[..., 0] = (hsv[..., 0] + rng.uniform(-8, 8)) % 180
    hsv[..., 1] *= rng.uniform(0.7, 1.15)
    hsv[..., 2] *= rng.uniform(0.75, 1.1)
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
    badge = np.median(out[inside & ~white], axis=0)
    step = int(rng.integers(-1, 2)) * max(1, face.shape[0] // 320)
    if step:
        kernel = np.ones((abs(step) * 2 + 1,) * 2, np.uint8)
        morph = cv2.dilate if step > 0 else cv2.erode
        grown = morph(white.astype(np.uint8), kernel).astype(bool) & inside
        out[white & ~grown] = badge
        white = grown
    out[white] = rng.uniform(225, 255)
    return out


def reprinted_face(building: str, faces: FaceSet, size: int, rng, real_icon) -> np.ndarray:
    """A face of ``building`` with its icon on a new illustration: (size, size, 3) uint8 RGB.

    real_icon : the artwork's face of this tavern (its diamond is cut out and moved), or None
    to draw the icon in the project's own style.
    """
    face = _frame(illustration(faces, size, rng), rng)
    scale = rng.uniform(0.8, 1.25)
    centre = np.array(DIAMOND[:2]) * rng.uniform(0.85, 1.2, 2)
    if real_icon is not None:
        src = cv2.resize(real_icon, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
        m = cv2.getRotationMatrix2D(tuple(np.array(DIAMOND[:2]) * size), rng.normal(0, 2), scale)
        m[:, 2] += (centre - np.array(DIAMOND[:2])) * size
        mask = diamond_mask(size)
        icon = cv2.warpAffine(_restyle_icon(src, mask, rng), m, (size, size))
        mask = cv2.warpAffine(mask, m, (size, size))[..., None]
        face = face * (1 - mask) + icon * mask
    else:
        s = int(size / 4 * scale)
        x, y = (centre * size - s / 2).astype(int)
        canvas = face.astype(np.uint8).copy()
        _icon(canvas, building, int(x), int(y), s)
        face = canvas.astype(np.float32)
    if rng.uniform() < 0.5:  # print texture: paper grain and a soft halftone
        yy, xx = np.mgrid[0:size, 0:size]
        period = rng.uniform(2.5, 5)
        dots = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
        face = face + (dots * rng.uniform(3, 12) + rng.normal(0, 4, (size, size)))[..., None]
    return np.clip(face, 0, 255).astype(np.uint8)


def reprint(faces: FaceSet, rng, share: float = 0.5) -> FaceSet:
    """A printing in which each tavern (and, for drawn art, any building with ``share``)
    has its own new illustration; duplex halves of those buildings are reprinted too."""
    size = next(iter(faces.singles.values())).shape[0]
    singles = dict(faces.singles)
    for building in BUILDINGS:
        tavern = building.startswith("tavern")
        if rng.uniform() < (0.85 if tavern else share * (faces.name == "drawn")):
            real_icon = faces.singles[building] if tavern and faces.name == "real" else None
            singles[building] = reprinted_face(building, faces, size, rng, real_icon)
    duplex = []
    for face, halves, layout in faces.duplex:
        if any(singles[h] is not faces.singles[h] for h in halves):
            parts = [face[:, :size], face[:, size:]] if layout == "horizontal" else [
                face[:size], face[size:]]
            parts = [singles[h] if singles[h] is not faces.singles[h] else p
                     for h, p in zip(halves, parts, strict=True)]
            face = np.concatenate(parts, axis=1 if layout == "horizontal" else 0)
        duplex.append((face, halves, layout))
    return FaceSet(f"{faces.name}-reprint", singles, duplex, faces.back)
