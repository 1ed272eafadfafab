"""Photo to city: find the grid, warp it, turn it upright, read every cell, decode a legal city.

``PhotoReader`` holds the two ONNX sessions (made once) and runs the stages in order;
``read_table`` reads a table's photos (or typed-in .txt cities) and scores them together.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .city import BUILDINGS, SIZE, TAVERN_KINDS, City, building_type
from .errors import GridNotFound, ImageError, TableError
from .photo import DecodeBudget, Photo, open_photo
from .vision import appearance, geometry, inks, lattice, light, search
from .vision.adaptation import CELL_DTYPE, Adaptation, Anchors, Evidence, fit
from .vision.config import ADAPT, DEFAULT, AdaptConfig, VisionConfig
from .vision.constraints import decode_city
from .vision.image_io import encode_image, read_bytes
from .vision.models import CityFinder, IconReader, TileClassifier

ADVICE = "try again closer, with less tilt, and with the whole city in the frame"
NO_CITY = f"no city found in the photo; {ADVICE}"
LOG_FLOOR = 1e-3  # added to a cell's sureness before its log: one hopeless cell cannot
# outweigh all the others
NO_TILES_TAPPED = ("no tile inside the four corners tapped: tap the city's four outer corners, "
                   "or type the city in")


@dataclass
class Reading:
    """An upright city read from a photo, with what a caller keeps of it.

    corners : (4, 2) float32, the upright city's TL TR BR BL in the photo's full-size pixels
    warped : (S, S, 3) uint8 RGB, the city warped upright (with a margin, see ``warp``)
    photo : the decoded photo it was read from
    config : the reader's config (flags and the warp layout follow it)
    cells : (4, 4, D) float32, each upright cell's features: what learning from the
        players' labels needs (see adaptation)
    colours : (16, K + 1, 3) float32, each upright cell's colours as taken and its city's
        mean colour (``inks.cell_colours``):
        what learning the players' printing's inks needs
    looks : (16, A) float32, each upright cell's look as taken (``appearance.looks``): what
        learning the players' printing's pictures needs
    adapted : the reading used what was learned from the players' labels
    read_confidence : each cell's confidence as the tile model read it, before the buildings
        were weighed with their icons (``PhotoReader.by_icons``): what the reader's own
        choices go by (``doubted``), as they were tuned with it
    """

    grid: list[list[str]]
    confidence: list[list[float]]
    corners: np.ndarray
    warped: np.ndarray
    duplex: list[dict]
    photo: Photo
    cells: np.ndarray | None = None
    colours: np.ndarray | None = None
    looks: np.ndarray | None = None
    adapted: bool = False
    config: VisionConfig = DEFAULT
    read_confidence: list[list[float]] | None = None
    timing_ms: dict[str, float] = field(default_factory=dict)

    def uncertain(self) -> list[list[int]]:
        """Cells the model doubts."""
        return _below(self.confidence, self.config.low_confidence)

    def doubted(self) -> list[list[int]]:
        """Cells the tile model doubts, before the icons' weighing (``read_confidence``):
        whether to read the photo again with its colours corrected, or to refuse a table top
        of "tiles" of no building, is asked of it."""
        return _below(self.read_confidence or self.confidence, self.config.low_confidence)

    def tile_px(self) -> float:
        """A tile's mean width in the photo, in full-size pixels."""
        return float(np.linalg.norm(self.corners - np.roll(self.corners, 1, axis=0),
                                    axis=1).mean() / SIZE)

    def small_tiles(self) -> bool:
        """Tiles too small in the photo for the model to know its errors."""
        return self.tile_px() < self.config.min_sure_tile_px

    def hardly_sure(self) -> bool:
        """Fewer than ``config.min_sure_cells`` cells read surely (tiles of a fair size): a
        photo washed out or darkened by the light, or a printing the model never saw; a
        retake in even light, or teaching the reader the players' tiles, reads surely."""
        sure = SIZE * SIZE - len(self.uncertain())
        return not self.small_tiles() and sure < self.config.min_sure_cells

    def to_check(self) -> list[list[int]]:
        """Cells whose reading the player should check: those the model doubts, or every
        cell when the tiles are too small."""
        if self.small_tiles():
            return [[r, c] for r in range(SIZE) for c in range(SIZE)]
        return self.uncertain()

    def cells_bytes(self) -> bytes | None:
        """The cells to learn from, as the store keeps them: (16, D + 3 K + A) float16, each
        cell's features, then its colours and its look (when the reading has them)."""
        if self.cells is None:
            return None
        parts = [self.cells.reshape(SIZE * SIZE, -1)] + [
            part.reshape(SIZE * SIZE, -1) for part in (self.colours, self.looks) if part is not None]
        return np.concatenate(parts, axis=1).astype(CELL_DTYPE).tobytes()

    def warped_jpeg(self) -> bytes:
        """The upright warped city as a JPEG file."""
        return encode_image(self.warped, ".jpg")

    def to_json(self) -> dict:
        """The photo-specific part of a city's JSON (see README)."""
        side, pad = geometry.warp_size(self.config)
        return {
            "confidence": self.confidence,
            "corners": np.round(self.corners, 1).tolist(),
            "duplex": self.duplex,
            "uncertain": self.to_check(),
            "tile_px": round(self.tile_px(), 1),
            "small_tiles": self.small_tiles(),
            "hardly_sure": self.hardly_sure(),
            "photo_size": list(self.photo.size),
            "warp": {"side": side, "pad": pad},
            "adapted": self.adapted,
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
        }


def _below(confidence: list[list[float]], low: float) -> list[list[int]]:
    """[row, col] of the cells less than ``low`` sure."""
    return [[r, c] for r, row in enumerate(confidence) for c, p in enumerate(row) if p < low]


@dataclass
class _Look:
    """One corner estimate read: quad (4, 2) in pixels of the image looked at; quarter turns
    k; the warped city turned upright (S, S, 3); probs (4, 4, L) of the upright cells and
    their features (4, 4, D)."""

    quad: np.ndarray
    k: int
    upright: np.ndarray
    probs: np.ndarray
    cells: np.ndarray
    not_tiles: int  # cells that do not look like a tile
    emptiness: float  # summed "no tile" probability: a tie-break between estimates
    turn_lead: float = 0.0  # how clearly its cells voted for its turn k (``_read_voted``)


@dataclass
class _FirstLooks:
    """A photo's first corner estimates looked at (``PhotoReader._first_looks``): the photo
    to read them in (at full size when the city's cells are too small in a half-size
    decode), the looks (``_looks_tried``, best first), how many cells unlike tiles mean no
    city, and the milliseconds they took."""

    photo: Photo
    looks: list[_Look]
    no_city: int
    ms: float


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Two corner estimates (4, 2), in either labelling, within a third of a cell everywhere."""
    return min(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).max()
               for k in range(4)) < _cell(a) / 3


class PhotoReader:
    """Reads cities from photos with models created once per process."""

    def __init__(self, model_dir=None, config: VisionConfig = DEFAULT,
                 adaptation: Adaptation | None = None):
        self.config = config
        self.finder = CityFinder(model_dir)
        self.classifier = TileClassifier(model_dir)
        self.icons = IconReader(model_dir)  # a tavern's kind
        self.badges = IconReader(model_dir, "badges")  # which building
        self.adaptation = adaptation  # what was learned from the players' labels, if any
        self.model_dir = model_dir
        self._anchors = None

    # --- stages ---------------------------------------------------------------------------

    def find_city(self, image: np.ndarray) -> np.ndarray:
        """The city's corners, clockwise from the top left of the photo: (4, 2) float32."""
        quad = next(self.city_candidates(image), None)
        if quad is None:
            raise GridNotFound(NO_CITY)
        return quad

    def city_candidates(self, image: np.ndarray, aimed: bool = True) -> Iterator[np.ndarray]:
        """Corner estimates, most likely first, each (4, 2) float32 clockwise from the top left.

        Each hypothesis of where the city lies (see ``_hypotheses``) is then looked at warped
        square, where perspective no longer squeezes the far side, to centre the corners on
        the tiles. The estimates are made only when asked for, i.e. while none can be read.
        ``aimed``: a photo the player took of their city; without it, a crop of a table
        photo around one region, where only the finder's estimates are tried, in the order
        its windows lie (see ``table_reading._read_around``).
        """
        factor, small = geometry.work_copy(image, self.config)  # every look works on one
        tried, seen = [], {}  # shrunk copy
        for quad, max_shift in self._hypotheses(small, aimed):
            quad = self._squared_up(small, quad, max_shift, seen)
            if all(np.abs(quad - t).max() > 0.5 for t in tried):
                tried.append(quad)
                yield geometry.rescale(quad, factor)

    def _squared_up(self, image: np.ndarray, quad: np.ndarray, max_shift: float,
                    seen: dict | None = None) -> np.ndarray:
        """An estimate (4, 2) centred on the tiles by the finder's looks at it warped square
        (``config.rectified_looks``), each moving it at most ``max_shift`` cells (``seen``:
        see ``rectified_looks``)."""
        for _ in range(self.config.rectified_looks):
            quad = self._rectified_look(image, quad, max_shift, seen)
        return quad

    def _nearer_the_middle(self, image: np.ndarray, look: _Look) -> _Look | None:
        """A whole city nearer the photo's middle than the one ``look`` shows, when the middle
        lies outside it, else None. A photo aimed at a city shows it about its middle
        (within a fifth of the shorter side on the independent renderer's photos); a
        neighbour's city whole in view, larger for lying nearer the camera, can be the only
        one the finder's look at the whole photo sees. The regions nearer the middle than
        ``look`` of the windows (``_window_search``) and of windows about the middle sized by
        ``look`` (``config.middle_window_cities``: a small city in a busy cloth shows in no
        window of half the photo) are read in turn, each place once (a region whose outline
        shows cells unlike tiles is also put on its tiles' lattice, and the look with more
        tiles kept: on a busy cloth the finder's outline of a small city can lie half off
        it); the first whose sixteen cells look like tiles once centred on them (and,
        doubtful, searched on its lattice: on a tiled table top a block a row off the city
        looks like tiles too), and that reads as a city at all (``config.min_sure_cells``
        read surely as buildings: not a block of a busy cloth), is that city."""
        cfg = self.config
        height, width = image.shape[:2]
        middle = np.float32([width, height]) / 2
        if search.inside(middle, look.quad):
            return None
        off = np.linalg.norm(look.quad.mean(0) - middle)
        factor, small = geometry.work_copy(image, cfg)
        # the city aimed at is about as large as the one read: windows twice its size about
        # the middle, overlapping by half, show it whole at a size the finder sees well
        side = cfg.middle_window_cities * float(np.ptp(look.quad, axis=0).max()) / factor
        centres = [middle / factor + side / 2 * np.float32([dx, dy])
                   for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        closer = self._whole_regions(small, [np.stack([c - side / 2, c + side / 2])
                                             for c in centres])
        regions = _nearest_the_middle(self._window_search(small, aimed=False) + closer, small)
        tried = []
        for region in regions[:cfg.max_candidates]:
            if np.linalg.norm(region.mean(0) * factor - middle) >= off:
                break  # the regions come nearest the middle first (no finder looks past it)
            quad = geometry.rescale(self._squared_up(
                small, self._closer_look(small, region, cfg.refine_expand), cfg.refine_max_shift),
                factor)
            if search.inside(quad.mean(0), look.quad) or any(
                    _same_place(quad, old) for old in tried):
                continue  # the city read, or a place read before, seen again
            tried.append(quad)
            found = self.look(image, quad)
            if found.not_tiles:  # outlined off its tiles? the block on their lattice too
                placed = self.look(image, lattice.blocks_near(image, quad, cfg)[0])
                found = min(found, placed, key=lambda seen: seen.not_tiles)
            if SIZE * SIZE - found.not_tiles < cfg.centre_min_tiles:
                continue  # hardly a tile there, even on its tiles' lattice: the table
            found = self.search_lattice(image, self.centre_on_tiles(image, found))
            if not found.not_tiles and self.sure_cells(found) >= cfg.min_sure_cells:
                return found
        return None

    def _hypotheses(self, image: np.ndarray,
                    aimed: bool = True) -> Iterator[tuple[np.ndarray, float]]:
        """Where the city may be, most likely first, and how far the square looks may move it.

        The largest region of a look at the whole photo, seen closer; the same with the square
        looks free to move it, or not used; that region as the whole photo's look outlined it
        (a closer look on a busy cloth can lose a city the first look had); the city placed
        by what it is rather than by the finder's outline (``_on_tiles``: a cloth the finder
        never saw can hide the city or blur its outline); the other regions; the largest
        seen from further back (a first guess cut short); then closer searches in
        overlapping windows, for a city small in the frame, in a photo ``aimed`` at a city
        the regions nearest its middle first (a neighbour's city may lie whole in view too,
        but the player aimed at their own). Quads are in pixels of ``image``.
        """
        cfg = self.config
        view, back = geometry.finder_view(image, None, cfg.finder_px)
        regions = [geometry.apply_matrix(q, back) for q in self._segment(view, cfg.finder_min_area)]
        if regions:
            first = self._closer_look(image, regions[0], cfg.refine_expand)
            yield first, cfg.refine_max_shift
            yield first, np.inf
            yield first, 0.0
            yield regions[0], np.inf
        for block in self._on_tiles(image, regions[:1]) if aimed else []:
            yield block, 0.0  # not moved by the finder's looks: they may be what misled it
        for region in regions[1:]:
            yield self._closer_look(image, region, cfg.refine_expand), cfg.refine_max_shift
        if regions:
            yield self._closer_look(image, regions[0], cfg.wide_expand), cfg.refine_max_shift
        for region in self._window_search(image, aimed):
            yield self._closer_look(image, region, cfg.refine_expand), cfg.refine_max_shift

    def _on_tiles(self, image: np.ndarray, regions: list[np.ndarray]) -> Iterator[np.ndarray]:
        """Where the city lies by what a city is: a square block of tiles whose edges and
        gaps repeat once a cell. The finder's ``regions`` and the regions that stand out
        from the table (``search.standing_out``, largest first), each made a square turned
        to the edges inside it (``lattice.squared``: a round blob of the finder's has no
        sides to follow) and put on its tiles' lattice (``lattice.blocks``). Quads (4, 2)
        in ``image``'s pixels.

        A city's tiles stand out from any cloth, but their gaps and plain parts may not:
        the spots standing out are first closed over a few spots, then over more
        (``config.standout_closes``: a column of plain tiles that does not stand out from a
        black-and-white cloth leaves the city two strips, neither square). Last,
        squares in the photo's middle (``config.frame_city_shares`` of its shorter side), each
        only where the block found shows a few cells like tiles (``centre_min_tiles``): a
        city filling the frame, turned, can leave the finder nothing to see and stand out
        from nothing (the table around it is mostly the city); a city aimed at, seen
        through a wide lens tilted over a checked cloth whose checks grow toward the camera,
        can stand out from nothing either. Then a square as small as a city aimed at may
        be (``config.frame_small_city_share``), only where its block also shows a few
        cells read surely (``min_sure_cells``): a city that small on newspapers lay three
        cells and more from every other estimate, and a checked cloth's lattice fits a
        block that small (its cells look like tiles, none reads surely)."""
        cfg = self.config
        mask = search.standing_out(image, cfg).astype(np.uint8)
        standing = []
        for size in cfg.standout_closes:
            closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
            standing += [region.quad for region in search.standouts(
                closed.astype(bool), image.shape[1], cfg)[:cfg.standout_regions]
                if not any(_same_place(region.quad, old) for old in standing)]
        for quad in regions + standing:
            yield lattice.blocks_near(image, quad, cfg)[0]
        # the photo's middle: only a block with a few cells like tiles (without a city,
        # the search from a block of none can end on a "city" of noise)
        short, middle = min(image.shape[:2]), np.float32(image.shape[1::-1]) / 2
        squares = [(share, 0) for share in cfg.frame_city_shares]
        for share, sure in squares + [(cfg.frame_small_city_share, cfg.min_sure_cells)]:
            side = share * short
            block = lattice.blocks_near(image, geometry.square(0, side) + middle - side / 2,
                                        cfg)[0]
            seen = self.look(image, block)
            if (SIZE * SIZE - seen.not_tiles >= cfg.centre_min_tiles
                    and self.sure_cells(seen) >= sure):
                yield block

    def _window_search(self, image: np.ndarray, aimed: bool = True) -> list[np.ndarray]:
        """Regions found in overlapping square windows of the photo, whole ones only: with
        ``aimed``, the nearest the photo's middle first, else window by window.

        All windows go through the finder in one batch. Quads are in pixels of ``image``.
        """
        cfg = self.config
        h, w = image.shape[:2]
        side = cfg.window_share * max(h, w)
        found = self._whole_regions(image, [
            np.array([[x, y], [x + side, y + side]])
            for y in np.linspace(0, max(h - side, 0), cfg.window_steps)
            for x in np.linspace(0, max(w - side, 0), cfg.window_steps)])
        return _nearest_the_middle(found, image) if aimed else found

    def _whole_regions(self, image: np.ndarray, boxes: list[np.ndarray]) -> list[np.ndarray]:
        """The regions the finder sees whole in square windows ``boxes`` (2, 2) of the photo
        (a region cut by its window is not whole), window by window; all windows go through
        the finder in one batch. Quads (4, 2) in pixels of ``image``."""
        cfg = self.config
        views, backs = zip(*(geometry.finder_view(image, box, cfg.finder_px) for box in boxes),
                           strict=True)
        masks = self.finder.predict(np.stack(views)) > cfg.finder_threshold
        found = []
        for mask, back in zip(masks, backs, strict=True):
            inner = mask.copy()
            inner[[0, -1]] = inner[:, [0, -1]] = False  # a region cut by the window is not whole
            for quad in geometry.quads_from_mask(inner, cfg.finder_min_area * 4, 1):
                if (quad > 1).all() and (quad < len(mask) - 2).all():
                    found.append(geometry.apply_matrix(quad, back))
        return found

    def _closer_look(self, image: np.ndarray, quad: np.ndarray, expand: float) -> np.ndarray:
        """The finder again on a box ``expand`` times the quad's size around it: (4, 2)."""
        return self.closer_looks(image, [quad], expand)[0]

    def closer_looks(self, image: np.ndarray, quads: list[np.ndarray],
                     expand: float) -> list[np.ndarray]:
        """``_closer_look`` at several quads, the finder running once for all of them."""
        boxes = [np.array([q.mean(0) - h, q.mean(0) + h]) for q in quads
                 for h in [(q.max(0) - q.min(0)).max() / 2 * expand]]
        views, backs = zip(*(geometry.finder_view(image, b, self.config.finder_px)
                             for b in boxes), strict=True)
        return [geometry.order_clockwise(geometry.apply_matrix(found[0], back) if found else q)
                for found, back, q in zip(self._segments(views, self.config.look_min_area),
                                          backs, quads, strict=True)]

    def _segment(self, view: np.ndarray, min_area: float) -> list[np.ndarray]:
        """City-like regions of one finder view, largest first, in view pixels."""
        return self._segments([view], min_area)[0]

    def _segments(self, views: list[np.ndarray], min_area: float) -> list[list[np.ndarray]]:
        """``_segment`` of several views, the finder running once for all of them."""
        cfg = self.config
        masks = self.finder.predict(np.stack(views)) > cfg.finder_threshold
        return [geometry.quads_from_mask(m, min_area, cfg.finder_regions) for m in masks]

    def _rectified_look(self, image: np.ndarray, quad: np.ndarray, max_shift: float,
                        seen: dict | None = None) -> np.ndarray:
        """Refine corners on a view where the current quad is warped to a centred square.

        A corner may move by at most ``max_shift`` cells, else the quad is kept.
        """
        return self.rectified_looks(image, [quad], max_shift, seen)[0]

    def rectified_looks(self, image: np.ndarray, quads: list[np.ndarray], max_shift: float,
                        seen: dict | None = None) -> list[np.ndarray]:
        """``_rectified_look`` at several quads, the finder running once for all of them.
        ``seen`` (quad's bytes -> what the finder found there, for this one ``image``) spares
        looking at a quad again: an estimate is squared up with several ``max_shift`` from
        the same quad."""
        seen = {} if seen is None else seen
        new = {key: np.float32(quad) for quad in quads
               if (key := np.float32(quad).tobytes()) not in seen}
        if new:
            size = self.config.finder_px
            offset = size * (1 - 1 / self.config.refine_expand) / 2
            target = geometry.square(offset, size - 2 * offset)
            views = [geometry.warp_quad(image, q, target, size) for q in new.values()]
            for (key, quad), found in zip(new.items(), self._segments(
                    views, self.config.rectified_min_area), strict=True):
                to_image = cv2.getPerspectiveTransform(target, quad)
                seen[key] = geometry.order_clockwise(
                    geometry.apply_matrix(found[0], to_image)) if found else None
        refined = []
        for quad in quads:
            better = seen[np.float32(quad).tobytes()]
            if better is None:
                refined.append(quad)
                continue
            # keep the labelling of the corners: the one nearest the old top-left stays first
            start = int(np.argmin(np.linalg.norm(better - quad[0], axis=1)))
            better = np.roll(better, -start, axis=0)
            cell = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean() / 4
            # a refinement only nudges; a big jump may mean the view misled it
            far = np.linalg.norm(better - quad, axis=1).max() > max_shift * cell
            refined.append(quad if far else better)
        return refined

    def read_cells(self, warped: np.ndarray):
        """Which way is up, the city turned upright and its building probabilities.

        warped : (S, S, 3) uint8.  Returns quarter turns k, upright (S, S, 3), probs
        (4, 4, L) over the classifier's labels (with what was learned, if anything) and
        cells (4, 4, D): the features the model's building head read.
        """
        return self.read_cities_cells([warped])[0]

    def _classify(self, cities: list[np.ndarray], cells: int = SIZE):
        """The classifier on every cell of warped cities (N, S, S, 3): building (16 N, L),
        turn (16 N, 4) and features (16 N, D), row-major city by city (of warps of ``cells``
        x ``cells``: cells² a warp)."""
        return self.classifier.predict(*self._crops(cities, cells))

    def _crops(self, cities: list[np.ndarray], cells: int = SIZE,
               only: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """What the classifier reads of every cell of warped cities (N, S, S, 3), or ``only``
        of these row-major cells of each: the cell with its margin (n N, T, T, 3) and its icon
        corner (n N, C, C, 3)."""
        return geometry.cities_crops(cities, self.config, cells, only)

    def _buildings(self, upright: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Building probabilities (16 N, L), with what was learned, and features (16 N, D)
        of the cells of upright warped cities."""
        return self._buildings_of(*self._crops(upright))

    def _buildings_of(self, tiles: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Building probabilities (N, L), with what was learned, and features (N, D) of cells
        from their crops (``_crops``)."""
        probs, _, features = self.classifier.predict(tiles, corners)
        return self._adapted(probs, features)

    def _adapted(self, probs: np.ndarray, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Building probabilities (N, L) with what was learned from the players' labels, if
        anything (their pictures aside: see ``reading_of``), and the features (N, D) they
        were read from."""
        if self.adaptation is not None:
            probs = self.adaptation.adjust(probs, features)
        return probs, features

    def read_cities_cells(self, warped: list[np.ndarray], upright: bool = False) -> list[tuple]:
        """``read_cells`` of several warped cities, the classifier running once for all, and
        again for those that lie turned (not when the cities are known to be ``upright``)."""
        return self._read_voted(warped, upright)[0]

    def _read_voted(self, warped: list[np.ndarray], upright: bool = False) -> tuple[list, np.ndarray]:
        """``read_cities_cells`` and, for each city (N,), how clearly its cells voted for its
        turn: the lead of the turn chosen over the next, in log chances summed over its cells
        (0 for cities known to be ``upright``: no vote)."""
        n = SIZE * SIZE
        ks, lead = [0] * len(warped), np.zeros(len(warped))
        if upright:
            probs, features = self._buildings(warped)
        else:
            read = self._classify(warped)
            turns = np.log(np.clip(read[1], 1e-9, 1)).reshape(len(warped), n, -1).sum(axis=1)
            ks = [int(k) for k in np.argmax(turns, axis=1)]
            ranked = np.sort(turns, axis=1)
            lead = ranked[:, -1] - ranked[:, -2]
            probs, features = self._upright_buildings(warped, ks, read)
        ups = [geometry.turned_back(w, k) for w, k in zip(warped, ks, strict=True)]
        return [(k, up, probs[i * n:(i + 1) * n].reshape(4, 4, -1),
                 features[i * n:(i + 1) * n].astype(np.float32).reshape(4, 4, -1))
                for i, (k, up) in enumerate(zip(ks, ups, strict=True))], lead

    def _upright_buildings(self, warped: list[np.ndarray], ks: list[int],
                           read: tuple) -> tuple[np.ndarray, np.ndarray]:
        """``_buildings`` of warped cities turned upright by ``ks`` quarter turns, given what
        the classifier ``read`` of them as they lie (``_classify``): a city already upright
        is not read again (most looks at a city being centred are)."""
        n = SIZE * SIZE
        probs, _, features = (part.reshape(len(warped), n, -1).copy() for part in read)
        turned = [i for i, k in enumerate(ks) if k]
        if turned:
            again, _, again_features = self._classify(
                [geometry.turned_back(warped[i], ks[i]) for i in turned])
            probs[turned] = again.reshape(len(turned), n, -1)
            features[turned] = again_features.reshape(len(turned), n, -1)
        return self._adapted(probs.reshape(len(warped) * n, -1),
                             features.reshape(len(warped) * n, -1))

    def look(self, image: np.ndarray, quad: np.ndarray) -> _Look:
        """Warp one corner estimate square, turn it upright and read its cells."""
        return self.looks(image, [quad])[0]

    def looks(self, image: np.ndarray, quads: list[np.ndarray], upright: bool = False) -> list[_Look]:
        """``look`` at several corner estimates, the classifier running twice for all; with
        ``upright``, each quad's first corner is the city's top left (no turn is read)."""
        return self._looks_of(quads, [geometry.warp_city(image, q, self.config) for q in quads],
                              upright)

    def _looks_of(self, quads: list[np.ndarray], warps: list[np.ndarray],
                  upright: bool = False) -> list[_Look]:
        """``looks`` at quads already warped (``warps``, (S, S, 3) each)."""
        read, leads = self._read_voted(warps, upright)
        empty_at = self.classifier.labels.index("empty")
        return [_Look(q, k, up, probs, cells, int(self._unlike_tiles(probs).sum()),
                      float(probs[..., empty_at].sum()), float(lead))
                for q, (k, up, probs, cells), lead in zip(quads, read, leads, strict=True)]

    def _unlike_tiles(self, probs: np.ndarray) -> np.ndarray:
        """Which cells do not look like a tile: probs (..., L) -> bool (...)."""
        return probs[..., self.classifier.labels.index("empty")] > self.config.empty_limit

    def _shares(self, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each building's share of a cell's building probability (..., 9), in BUILDINGS'
        order, and the chance that the cell is a tile at all (...), from probs (..., L)."""
        labels = self.classifier.labels
        building = probs[..., [labels.index(b) for b in BUILDINGS]]
        return (building / building.sum(axis=-1, keepdims=True),
                1 - probs[..., labels.index("empty")])

    def sureness(self, probs: np.ndarray) -> np.ndarray:
        """How sure each cell's reading is, before the rules pick a legal city: the likeliest
        building's share times the chance that it is a tile at all. probs (..., L) -> (...)."""
        shares, tile = self._shares(probs)
        return shares.max(axis=-1) * tile

    def _log_sureness(self, probs: np.ndarray) -> np.ndarray:
        """``sureness`` in log units, floored so that one hopeless cell cannot outweigh all:
        what centring and framing add up over cells. probs (..., L) -> (...)."""
        return np.log(self.sureness(probs) + LOG_FLOOR)

    def centre_on_tiles(self, image: np.ndarray, look: _Look) -> _Look:
        """A doubtful look with its corners moved to where its cells read most surely.

        Corners half a cell off leave every cell a sliver of its neighbour, which is enough
        to misread a building on a busy cloth. A look with several cells unlike tiles is
        first framed again (``_reframed``), then nudged (``_nudged_look``). When it still
        does not read surely, the same city a quarter, half and three quarters round is
        nudged too, and one that then reads every cell surely is taken: the turn was voted
        by cells that may have shown half of two tiles, and which way a city is nudged
        depends on which way up its cells are read. (Not when its cells voted for its turn
        clearly, ``config.turn_vote_sure``: of such cities in hard single photos and whole
        tables, none was turned, and the turns took a third of the time spent centring.)
        Else the city is kept the way it was voted, or turned where it lies when that reads
        more surely. (A turn that reads only more cells surely is no proof: on a table
        without a city, or in a printing the model never saw, some turn does.) ``image`` is
        the one the look's quad is in.
        """
        if self._reads_surely(look):
            return look
        framed = self._reframed(image, look)
        best = self._nudged_look(image, framed)
        if self._reads_surely(best) or framed.turn_lead >= self.config.turn_vote_sure:
            return best  # (sixteen cells that agree this clearly on the turn are not turned)
        turned = self._turned(image, framed)
        for other in turned:
            nudged = self._nudged_look(image, other, upright=True)
            if self._reads_surely(nudged):
                return nudged
        where_it_lies = turned if best is framed else self._turned(image, best)
        return max([best, *where_it_lies], key=self._total)

    def _turned(self, image: np.ndarray, look: _Look) -> list[_Look]:
        """The look's city a quarter, half and three quarters round, where it lies (each
        read with its first corner as its top left, no turn voted)."""
        upright = np.roll(look.quad, look.k, axis=0)
        quads = [np.roll(upright, q, axis=0) for q in (1, 2, 3)]
        return self._looks_of(quads, geometry.warp_cities(image, quads, self.config), upright=True)

    def _nudged_look(self, image: np.ndarray, look: _Look, upright: bool = False) -> _Look:
        """The look moved, a step at a time (``config.centre_steps``, in cells, coarse
        first), while the city as a whole reads more surely: each step reads every cell
        again shifted a step each way, moves the cells that read clearly more surely shifted
        and fits the corners to them (``_nudged``). With ``upright``, the look's turn is
        kept rather than voted again."""
        best = look
        for step in self.config.centre_steps:
            quad = self._nudged(image, np.roll(best.quad, best.k, axis=0), step)
            if quad is None:
                continue
            moved = self.looks(image, [quad], upright)[0]
            if self._total(moved) > self._total(best):
                best = moved
        return best

    def _total(self, look: _Look) -> float:
        """How surely a look reads as a whole: the sum of its cells' log sureness."""
        return float(self._log_sureness(look.probs).sum())

    def _reframed(self, image: np.ndarray, look: _Look) -> _Look:
        """A look framed again when several of its cells do not look like tiles.

        A busy cloth can pull a side of the city's outline a cell in or out, or the whole
        outline a cell aside, and then some cells show cloth or half of two tiles; on a
        steeply tilted photo the outline's perspective can be wrong, a side a cell too short
        or too long. Each round tries every side moved in or out and the whole outline
        shifted (``config.reframe_moves`` cells) or turned (``config.reframe_turns``), and
        each side shortened or lengthened (``config.reframe_keystones``), all read in one
        batch from one warp of the city with a wide margin, and keeps the best while the
        city reads more surely. Another perspective is taken only where it shows no more
        cells unlike tiles: on a busy cloth, some read more surely by taking in the cloth.
        """
        cfg = self.config
        cells = geometry.square(0, SIZE)
        framings, perspectives = _framings(cfg)
        reach = max(abs(m) for m in cfg.reframe_moves) + 2 * cfg.tile_margin  # in cells
        side, offset = round((SIZE + 2 * reach) * cfg.cell_px), reach * cfg.cell_px
        best = look
        for _ in range(cfg.reframe_rounds):
            if best.not_tiles < cfg.reframe_not_tiles:
                break
            upright = np.roll(best.quad, best.k, axis=0).astype(np.float32)
            wide = geometry.warp_quad(image, upright, geometry.square(offset, SIZE * cfg.cell_px),
                                      side)
            views = [geometry.warp_city(wide, offset + f * cfg.cell_px, cfg) for f in framings]
            probs, _ = self._buildings(views)
            sure = self._log_sureness(probs).reshape(len(framings), -1).sum(axis=1)
            unlike = self._unlike_tiles(probs).reshape(len(framings), -1).sum(axis=1)
            sure[perspectives:][unlike[perspectives:] > unlike[0]] = -np.inf
            chosen = int(np.argmax(sure))
            if chosen == 0:
                break
            to_image = cv2.getPerspectiveTransform(cells, upright)
            better = self.look(image, geometry.apply_matrix(framings[chosen], to_image))
            if self._total(better) <= self._total(best):
                break
            best = better
        return best

    def _lattice_search(self, image: np.ndarray, look: _Look,
                        scales: tuple[float, ...] | None = None) -> np.ndarray:
        """Corners (4, 2) of the 4x4 block of cells that reads most surely on the look's
        lattice, extended all round: where the city lies when its outline is a cell or more
        off, or outlines a 2x2 block of tiles (or a region twice the city's size).

        The lattice's cells are the outline's (``scales`` times as large, by default
        ``config.lattice_scales``), ``config.lattice_cells`` of them each way around its
        centre, on whole and half-cell steps.
        """
        cfg = self.config
        n = cfg.lattice_cells
        upright = np.roll(look.quad, look.k, axis=0).astype(np.float32)
        to_image = cv2.getPerspectiveTransform(geometry.square(0, SIZE), upright)
        side, pad = geometry.warp_size(cfg, n)
        origins, views = [], []
        for scale in scales or cfg.lattice_scales:
            for dy, dx in itertools.product((0, 0.5), repeat=2):
                origin = SIZE / 2 - n * scale / 2 + scale * np.array([dx, dy], np.float32)
                target = geometry.square(pad, SIZE * cfg.cell_px / scale)
                target -= origin / scale * cfg.cell_px  # the lattice's first cell at pad
                views.append(geometry.warp_quad(image, upright, target, side))
                origins.append((origin, scale))
        sure = self._lattice_sureness(views, n)
        total = np.pad(sure.cumsum(1).cumsum(2), ((0, 0), (1, 0), (1, 0)))
        w = SIZE  # the sum of each 4x4 window, by its top-left cell: (views, n - 3, n - 3)
        sums = total[:, w:, w:] - total[:, :-w, w:] - total[:, w:, :-w] + total[:, :-w, :-w]
        view, row, col = np.unravel_index(int(np.argmax(sums)), sums.shape)
        origin, scale = origins[view % len(origins)]
        top_left = origin + scale * np.array([col, row], np.float32)
        return geometry.apply_matrix(geometry.square(0, SIZE * scale) + top_left, to_image)

    def _lattice_sureness(self, views: list[np.ndarray], cells: int) -> np.ndarray:
        """Log sureness (N, cells, cells) of every cell of N warps of cells x cells, read as
        they lie; then (when the cells' turns vote for another way up: the outline's own may
        be wrong) the same read that way up, after them: (2 N, cells, cells)."""
        probs, turns, _ = self._classify(views, cells)
        sure = self._log_sureness(probs).reshape(len(views), cells, cells)
        certain = turns.max(axis=1) > self.config.lattice_turn_sure  # cloth votes no turn surely
        k = int(np.argmax(np.bincount(turns[certain].argmax(axis=1), minlength=4)))
        if not k:
            return sure
        # a warp is square and its cells a square lattice: turned, each cell is one
        probs, _, _ = self._classify([geometry.turned_back(v, k) for v in views], cells)
        turned = self._log_sureness(probs).reshape(len(views), cells, cells)
        return np.concatenate([sure, np.rot90(turned, k, axes=(1, 2))])

    def _nudged(self, image: np.ndarray, upright: np.ndarray, step: float) -> np.ndarray | None:
        """Upright corners (4, 2) moved so that each cell sits where, among nine shifts of
        ``step`` cells (and none), it reads most surely; None when no shift helps a cell.

        One warp with a wider margin serves every shift: a shift of the corners is a shift
        of the view in the warped city.
        """
        cfg = self.config
        side, pad = geometry.warp_size(cfg)
        extra = int(np.ceil(step * cfg.cell_px))
        wide = geometry.warp_quad(image, upright, geometry.square(pad + extra, SIZE * cfg.cell_px),
                                  side + 2 * extra)
        shifts = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        views = []
        for dx, dy in shifts:
            x, y = extra + round(dx * step * cfg.cell_px), extra + round(dy * step * cfg.cell_px)
            views.append(wide[y:y + side, x:x + side])
        stay = shifts.index((0, 0))
        sure = np.repeat(self._log_sureness(self._buildings([views[stay]])[0])[None],
                         len(shifts), axis=0)  # (shifts, 16): a cell not read shifted stays
        # a cell this sure as it is cannot read clearly surer shifted: log sureness is at
        # most log(1 + LOG_FLOOR); the others are read shifted (most cells of a doubtful
        # city are sure: 144 cells read became about 30). With what was learned, a cell
        # reads as its city's others do (a printing is told by all sixteen): all are read.
        movable = np.flatnonzero(sure[stay] < np.log(1 + LOG_FLOOR) - cfg.centre_min_gain
                                 if self.adaptation is None else np.ones(SIZE * SIZE, bool))
        if not movable.size:
            return None
        moves = [i for i in range(len(shifts)) if i != stay]
        probs, _ = self._buildings_of(*self._crops([views[i] for i in moves], only=movable))
        sure[np.ix_(moves, movable)] = self._log_sureness(probs).reshape(len(moves), -1)
        choice = np.where(sure.max(0) - sure[stay] > cfg.centre_min_gain, sure.argmax(0), stay)
        if (choice == stay).all():
            return None
        centres = np.array([(c + 0.5, r + 0.5) for r in range(SIZE) for c in range(SIZE)],
                           np.float32)
        moved = centres + step * np.array(shifts, np.float32)[choice]
        fit, _ = cv2.findHomography(centres, moved, 0)
        if fit is None:
            return None
        cells = geometry.square(0, SIZE)
        to_image = cv2.getPerspectiveTransform(cells, upright.astype(np.float32))
        return geometry.apply_matrix(geometry.apply_matrix(cells, fit), to_image)

    def decode(self, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[dict]]:
        """The most likely legal city from cell probabilities (4, 4, L).

        Returns building indices (4, 4) into BUILDINGS, their confidence (4, 4) and the
        duplex pairs. A cell unlike a tile is doubtful whatever building it resembles most.
        """
        building, tile = self._shares(probs)
        chosen, duplex = decode_city(building)
        confidence = np.take_along_axis(building, chosen[..., None], axis=-1)[..., 0]
        return chosen, confidence * tile, duplex

    def learn(self, lessons: list[tuple[bytes, str, bool]],
              config: AdaptConfig = ADAPT) -> Adaptation | None:
        """Learn the players' tiles from labelled cells and read with it from now on.

        lessons : (cell bytes as ``Reading.cells_bytes`` gives them, building, a player's own
        choice?).  Returns the adaptation (None: nothing to learn, the shipped model alone).
        Only the latest ``config.max_cells`` are used. Raises LearningRefused, keeping the
        previous adaptation, when the update would read the built-in anchor cells worse than
        the shipped model.
        """
        if self._anchors is None:
            self._anchors = Anchors.load(self.model_dir)
        lessons = lessons[-config.max_cells:]
        evidence = Evidence.from_lessons(lessons, config, self.classifier.feature_size)
        adaptation = fit(evidence, self._anchors, self.classifier.labels,
                         self.classifier.feature_parts, config)
        self.adaptation = adaptation
        return adaptation

    # --- the whole reading ----------------------------------------------------------------

    def read_photo(self, data: bytes, corners: np.ndarray | None = None,
                   max_side: int | None = None, budget: DecodeBudget | None = None) -> Reading:
        """Read a photo file's bytes: the one entry point for photos (CLI and web).

        Decoding checks the header first and follows ``max_side`` and ``budget`` (see
        ``scorer.photo.open_photo``); ImageError when the bytes are not a photo this app reads.
        """
        return self.read(open_photo(data, self.config, max_side, budget), corners)

    def read_all(self, data: bytes, max_side: int | None = None,
                 budget: DecodeBudget | None = None):
        """Every complete city of a photo file's bytes (a whole table, or a single city),
        in the order proposed around the table: a ``table_reading.PhotoReading``."""
        from .table_reading import read_cities

        return read_cities(self, open_photo(data, self.config, max_side, budget))

    def shows_more_cities(self, reading: Reading) -> bool:
        """Whether the photo of a city read on its own shows more cities than that one
        (``table_reading.shows_more_cities``)."""
        from .table_reading import shows_more_cities

        return shows_more_cities(self, reading)

    def read_file(self, path: str) -> Reading:
        """Read a photo file from disk."""
        return self.read_photo(read_bytes(path, self.config))

    def read(self, photo: Photo | np.ndarray, corners: np.ndarray | None = None,
             centred: int | None = None, first_sight: bool = False,
             first: _FirstLooks | None = None) -> Reading:
        """Read a decoded photo; ``corners`` (4, 2) in full-size pixels skip detection
        (``first``: the photo's first looks, ``_first_looks``, when taken already).

        Corner estimates are tried in turn until one shows sixteen tiles. When none does, the
        best is kept with its doubtful cells flagged (low confidence) and its corners for the
        player to adjust; only a photo that shows no city at all is refused (GridNotFound):
        hardly a cell like a tile wherever the reader looked, or hardly a cell that reads
        surely as a building (``config.min_sure_cells``: a patterned table top can look like
        tiles) in a block that does not end where the table begins (``_edged``: a printing
        the model never saw, or a city washed out by the light, can read unsurely
        throughout and is still read). That is asked once the estimates
        are centred, and again at the end: a table without a city, searched on its lattice
        of tiles too, took seconds more to be refused.
        A doubtful reading centres up to ``centred`` estimates on their tiles
        (``config.centre_candidates`` by default; then, when none reads surely, the first
        over the photo's middle: see ``_centred_best``). Corners the player tapped are centred on
        their tiles too (a finger is not exact), and refused only when no cell inside them
        looks like a tile (a tap on the table: the city read before is kept).
        A photo where no estimate shows a single cell like a tile is refused before any
        centring (``config.no_city_at_once``: there is nothing to centre on, and centring and
        searching a photo with no city takes seconds); with ``first_sight``, one whose
        estimates show no city (``config.no_city_cells``) is refused so (a table photo seen
        whole: its cities are looked for closer instead).

        Once the players' printing's inks are learned, a photo of it is read through them
        from its first look (``_read_their_printing``), not searched as taken first.
        A reading with doubtful cells is read again from the photo with its colours corrected
        (``_correction``; searched again, or where it lies: ``_corrected_where_it_lies``):
        under a warm lamp, or in a printing with other inks, the tiles' colours lie where the
        classifier never saw them, and on a busy cloth the city's outline can be lost. The
        corrected reading is kept, with the photo as taken, when it is clearly surer
        (``config.corrected_min_gain``, see ``_sureness``) and lies in the same place (its
        centre inside the first reading's outline).
        """
        photo = photo if isinstance(photo, Photo) else Photo(photo)
        t0 = time.perf_counter()
        first = first or self._first_looks(photo, corners)
        theirs = self._read_their_printing(photo, corners, first)
        if theirs is not None:
            theirs.timing_ms["total"] = photo.decode_ms + (time.perf_counter() - t0) * 1000
            return theirs
        reading = self._read_as_lit(photo, corners, centred, first_sight, first)
        if not reading.doubted():
            return reading
        correction, _ = self._correction(reading)
        corrected = None  # (a city whose corners were tapped is searched again where tapped)
        if corners is None:
            corrected = self._corrected_where_it_lies(reading, correction, aimed=True)
        if corrected is None:  # (see there when the corrected photo is searched)
            try:
                corrected = self._read_as_lit(photo.corrected(correction), corners, centred,
                                              first_sight)
            except GridNotFound:
                return reading
        kept = self._surer_corrected(reading, corrected, photo)
        kept.timing_ms["total"] = photo.decode_ms + (time.perf_counter() - t0) * 1000
        return kept

    def corrected_city(self, reading: Reading) -> Reading:
        """One city of a table photo (``reading``), when doubtful, read again where it lies
        in the photo with its colours corrected (``_correction``); kept as ``read`` keeps a
        single photo's corrected reading, else ``reading``."""
        if not reading.doubted():
            return reading
        correction, surer = self._correction(reading)
        if not surer:  # read again where it lies only: no surer there, no surer at all
            return reading
        kept = self._surer_corrected(reading, self._corrected_where_it_lies(reading, correction),
                                     reading.photo)
        kept.timing_ms = reading.timing_ms
        return kept

    @property
    def _badges_pick(self) -> bool:
        """Whether the badges pick between a reading as taken and one with its colours
        corrected (``_badges_side``): once the players taught their printing, unless
        ``AdaptConfig.badges_pick`` says not."""
        return self.adaptation is not None and bool(self.adaptation.config.badges_pick)

    def _badges_side(self, reading: Reading, other: Reading) -> int:
        """Of the cells that two readings of one city, in one place and turned alike (as
        taken, and with its colours corrected), read as different buildings (a tavern's kind
        aside), how many more the badges' glyphs (``badges``, on ``reading``'s cells) read as
        ``other``'s building than as ``reading``'s: > 0 they side with ``other``.

        Once the players taught their printing, the tile model's sureness picks between the
        two readings less well than the glyph, which a printing does not change: editions I
        and J taught two photos, 4 of 200 test photos kept the reading whose shop the badge
        read as a shop 0.7-0.9 sure against a factory or a tavern, and the other read it so."""
        if not np.allclose(reading.corners, other.corners, atol=_cell(reading.corners) / 2):
            return 0  # (another place, or turned another way: cell by cell, other tiles)
        names = list(zip(*(sum(r.grid, []) for r in (reading, other)), strict=True))
        badged = set(self.badges.labels)  # (an empty cell has no badge)
        differ = np.flatnonzero([building_type(a) != building_type(b) and {a, b} <= badged
                                 for a, b in names])
        if not len(differ):
            return 0
        glyphs = self.badges.predict(geometry.corner_crops(reading.warped, self.config,
                                                           only=differ))
        types = np.array([building_type(label) for label in self.badges.labels])
        side = 0
        for glyph, (a, b) in zip(glyphs, [names[i] for i in differ], strict=True):
            side += int(np.sign(glyph[types == building_type(b)].sum()
                                - glyph[types == building_type(a)].sum()))
        return side

    def _corrected_where_it_lies(self, reading: Reading, correction: light.Correction,
                                 aimed: bool = False) -> Reading | None:
        """The city of a ``reading`` read again where it lies, in its photo with the colours
        corrected (``correction``), centred on its tiles there. ``aimed`` (a photo of one
        city, ``read``): centred from the first corner estimate found there in the corrected
        photo, or None when a cell of its outline, so corrected, does not look like a tile,
        or every cell reads surely: the corrected photo is then searched.

        A photo of a printing the model never saw reads doubtfully wherever its city lies,
        so its first reading was centred and searched on the lattice of tiles. Where that
        ended on sixteen tiles still doubtful once corrected, a second search of the
        corrected photo centred every estimate again, for as long again, and ended in the
        same place. Its first estimate in the corrected colours, centred, is what it found:
        centred from where the first reading lies instead, the corners came out up to a
        fifth of a cell farther off, and a player who taught the reader one such photo got
        its cells' pictures so (edition H after one photo: 90 -> 65 % exact). Corrected
        colours that read surely are searched again (the search is short then); on a busy
        cloth the search may find corners that the first reading missed."""
        photo = reading.photo.corrected(correction)
        look = self.look(photo.image, geometry.rescale(reading.corners, 1 / photo.scale))
        if aimed:
            if look.not_tiles or self._reads_surely(look):
                return None
            photo, look = self._first_estimate_inside(photo, reading.corners) or (photo, look)
        return self.reading_of(self.centre_on_tiles(photo.image, look), photo)

    def _first_estimate_inside(self, photo: Photo,
                               corners: np.ndarray) -> tuple[Photo, _Look] | None:
        """The best of the photo's first corner estimates (``_first_looks``) whose centre
        lies inside ``corners`` (4, 2, in full-size pixels), with the photo it is in; None
        when none does."""
        try:
            first = self._first_looks(photo, None)
        except GridNotFound:
            return None
        quad = geometry.rescale(corners, 1 / first.photo.scale)
        return next(((first.photo, look) for look in first.looks
                     if search.inside(look.quad.mean(0), quad)), None)

    def _surer_corrected(self, reading: Reading, corrected: Reading, photo: Photo,
                         as_taken: _Look | None = None) -> Reading:
        """The ``corrected`` reading of a ``photo`` (as taken) when it is clearly surer than
        its ``reading`` as taken (``config.corrected_min_gain``) and lies in the same place,
        with the photo as taken; else ``reading``. ``as_taken``: the upright look at the photo
        as taken where ``corrected`` lies, when taken already."""
        # the colours change, not where the city lies: a corrected reading elsewhere is the
        # search ending on a block of the cloth
        if not search.inside(corrected.corners.mean(0), reading.corners):
            return reading

        def clearly_surer(other: Reading) -> bool:
            return _sureness(other) - _sureness(reading) >= self.config.corrected_min_gain

        if self.adaptation is None and not clearly_surer(corrected):
            return reading  # (no cells to read as taken for a reading not kept)
        taken = photo if corrected.photo.scale == photo.scale else photo.at_full_size(self.config)
        # what is learned from its cells is their look as taken, as every photo is read first
        as_taken = as_taken or self.looks(
            taken.image, [geometry.rescale(corrected.corners, 1 / taken.scale)], upright=True)[0]
        looks = appearance.looks(geometry.tile_crops(as_taken.upright, self.config), self.config)
        if self.adaptation is not None:
            # the players taught their tiles as taken: the look-alikes of each cell are
            # found by its look as taken, the model's own answer from the corrected one
            raw = self.classifier.predict(*self._crops([corrected.warped]))[0]
            features = as_taken.cells.reshape(SIZE * SIZE, -1)
            probs = self.adaptation.by_pictures(self.adaptation.adjust(raw, features), features,
                                                looks)
            if corrected.photo.correction.inks is not None:
                # through the players' printing's inks the tiles have the colours the model
                # learned: a cell it reads surely so is its own (by its colours as taken, a
                # building no taught city showed looks like a taught one of another)
                sure = self.sureness(raw) >= self.config.low_confidence
                probs[sure] = raw[sure]
            corrected = replace(corrected, **self._decoded_by_icons(
                corrected.warped, probs.reshape(SIZE, SIZE, -1), features))
        badges = self._badges_side(reading, corrected) if self._badges_pick else 0
        if badges < 0 or (badges == 0 and not clearly_surer(corrected)):
            return reading
        corrected.photo, corrected.cells = taken, as_taken.cells
        corrected.colours = inks.cell_colours(as_taken.upright, self.config)
        corrected.looks = looks
        return corrected

    def _correction(self, reading: Reading) -> tuple[light.Correction, bool]:
        """The colour correction that best undoes a lamp's colour and a printing's inks in
        the photo of a ``reading``, and whether the city it found reads surer so than as
        taken. Of the gains that make grey on average the whole photo or the city's outline
        (``light.grey_world_gains``; neither suits every cloth and printing), those under
        which that city reads surest; with every hue turned too (by one of
        ``config.hue_turns``, the gains or none) when that reads clearly surer still
        (``config.hue_turn_min_gain``): another printing's inks shift every tile's colours,
        but on the printing the model knows a turn only fits the photo's noise. Once the
        players' printing's inks are learned (``vision.inks``), they are taken, after the
        outline's gains, in a photo of their printing (``_players_printing``), and in any
        other when they read surer still (``config.inks_min_gain``): a photo of the
        printing the model knows reads worse through them."""
        cfg = self.config
        image, scale = reading.photo.image, reading.photo.scale
        quad = geometry.rescale(reading.corners, 1 / scale)
        gains = [np.ones(3, np.float32), light.grey_world_gains(image),
                 light.grey_world_gains(image, quad)]
        turns = (0, *cfg.hue_turns)
        candidates = [light.Correction(g, turn) for turn in turns for g in gains]
        warped = geometry.warp_city(image, quad, cfg)
        looks = [light.turned_hues(light.balanced(warped, g), turns) for g in gains]
        views = [looks[j][i] for i in range(len(turns)) for j in range(len(gains))]
        learned = self.adaptation.inks if self.adaptation is not None else None
        if learned is not None:
            candidates.append(self._through_inks(image, quad))
            views.append(candidates[-1](warped))
        read = self.read_cities_cells(views, upright=True)
        sure = [self._log_sureness(probs).sum() for _, _, probs, _ in read]
        best = 1 + int(np.argmax(sure[1:len(gains)]))  # (the first: as taken)
        turned = len(gains) + int(np.argmax(sure[len(gains):len(gains) * len(turns)])) \
            if cfg.hue_turns else best
        if sure[turned] - sure[best] >= cfg.hue_turn_min_gain:
            best = turned
        if learned is not None and (sure[-1] - sure[best] >= cfg.inks_min_gain
                                    or self._players_printing(*read[0][2:])):
            best = len(candidates) - 1
        return candidates[best], bool(sure[best] > sure[0])

    def _through_inks(self, image: np.ndarray, quad: np.ndarray) -> light.Correction:
        """The correction through the players' printing's inks of a photo (``image``) of a
        city outlined by ``quad`` (4, 2): its colours put on the grey level the inks were
        fitted on (``inks.levelled``), then the inks."""
        gains = light.grey_world_gains(image, quad, self.config.ink_level)
        return light.Correction(gains, inks=self.adaptation.inks)

    def _players_printing(self, probs: np.ndarray, features: np.ndarray) -> bool:
        """Whether a city's cells as taken (probs (4, 4, L) and features (4, 4, D)) show the
        players' printing (``Adaptation.printings``): its inks, fitted to undo exactly that
        printing, are then its colour correction, however sure the other corrections read (a
        turn of the hues that reads a city surer can read a tavern's icon as another kind's)."""
        return bool(self.adaptation.printings(probs.reshape(SIZE * SIZE, -1),
                                              features.reshape(SIZE * SIZE, -1))[0] > 0)

    def _read_their_printing(self, photo: Photo, corners: np.ndarray | None,
                             first: _FirstLooks) -> Reading | None:
        """``read`` of a photo of the players' printing, once its inks are learned, from its
        first look, without a search: the reading through the inks where that look lies, or
        that first look as taken when the reading through the inks is not clearly surer
        (``_surer_corrected``, as ``read`` keeps a corrected reading) or overturns it only
        doubtfully (``_doubtfully_overturned``), its doubtful cells flagged for the players.
        None (``read`` goes on as before) when the photo's first look is not of their
        printing (``_players_printing``), lies off the photo's middle (a neighbour's city,
        maybe: see ``_nearer_the_middle``), or when a cell of it, as taken or through the
        inks, does not look like a tile.

        As taken, a photo of a printing with other inks reads doubtfully wherever the city
        lies, and the search for where it reads surely took seconds (edition H, taught two
        photos: 2.1 s, then 0.06 s through the inks) before ``read`` took the reading through
        the inks anyway (``_correction`` takes them in a photo of their printing); a search as
        taken only moved the city to where its doubtful cells read surer as another building
        (editions I, J and K, taught two photos: 17 of 60 test photos searched for 8-24 s,
        one ending misread, none mended). A first look of sixteen cells like tiles has
        found where the city lies: a cell still doubtful there doubts its building, which
        the players' cells and pictures and the icons tell (``reading_of``), not its place.
        Finding the city again through the inks and nudging it a fraction of a cell
        (``_nudged_look``) took two thirds of the time and mended no photo (editions I and J,
        taught two photos, 30 test photos each: median 533 and 413 ms, then 212 and 171 ms,
        the same photos exact); the reading as taken, which the one through the inks mostly
        replaces, is not steadied (``reading_of``). Where the first look lies upright, it is
        the look as taken that the reading through the inks is weighed with (the same warp).
        (The first look's warp with its colours corrected, instead of a warp of the corrected
        photo, was faster still, 151 and 127 ms, but read a shop as a tavern 0.58 sure in
        one of 40 photos of edition H taught through the web API: a colour map commutes
        with a warp but for rounding and saturation.)
        """
        seen, look = first.photo, first.looks[0]
        if self.adaptation is None or self.adaptation.inks is None or look.not_tiles or \
                not self._players_printing(look.probs, look.cells):
            return None
        middle = np.float32(seen.image.shape[1::-1]) / 2
        if corners is None and not search.inside(middle, look.quad):
            return None
        t0 = time.perf_counter()
        through = seen.corrected(self._through_inks(seen.image, look.quad))
        best = self.look(through.image, look.quad)
        if best.not_tiles:
            return None
        as_taken = self.reading_of(look, seen, steady=False)
        kept = self._surer_corrected(as_taken, self.reading_of(best, through), seen,
                                     look if look.k == best.k == 0 else None)
        if _doubtfully_overturned(as_taken, kept) and not (
                self._badges_pick and self._badges_side(as_taken, kept) > 0):
            kept = as_taken
        kept.timing_ms = {"decode": photo.decode_ms, "detect": first.ms,
                          "classify": (time.perf_counter() - t0) * 1000}
        return kept

    def _first_looks(self, photo: Photo, corners: np.ndarray | None) -> _FirstLooks:
        """The looks at a photo's first corner estimates (or at the corners given);
        GridNotFound without an estimate."""
        t0 = time.perf_counter()
        if corners is None:
            quads, no_city = self.city_candidates(photo.image), self.config.no_city_cells
        else:
            tapped = geometry.order_clockwise(np.asarray(corners, np.float32))
            quads, no_city = iter([geometry.rescale(tapped, 1 / photo.scale)]), SIZE * SIZE
        first = next(quads, None)
        if first is None:
            raise GridNotFound(NO_CITY, photo)
        photo, quads = self._sharp_enough(photo, first, quads)
        looks = self._looks_tried(photo.image, quads)
        return _FirstLooks(photo, looks, no_city, (time.perf_counter() - t0) * 1000)

    def _read_as_lit(self, photo: Photo, corners: np.ndarray | None = None,
                     centred: int | None = None, first_sight: bool = False,
                     first: _FirstLooks | None = None) -> Reading:
        """``read`` of the photo's colours as they are (``first``: its first looks, when
        taken already)."""
        first = first or self._first_looks(photo, corners)
        photo, looks, no_city = first.photo, first.looks, first.no_city
        t1 = time.perf_counter()
        at_once = no_city if first_sight else self.config.no_city_at_once
        if corners is None and looks[0].not_tiles >= at_once:  # no estimate worth centring
            raise GridNotFound(NO_CITY, photo)
        if corners is None:
            best, tried = self._centred_best(photo.image, looks,
                                             centred or self.config.centre_candidates,
                                             aimed=centred is None)  # (not a table photo's)
            if self._no_city_read(photo.image, best, self.sure_cells(best)):
                raise GridNotFound(NO_CITY, photo)  # centred, still no city: not searched on
            best = self.search_lattice(photo.image, best, tried)  # (the table's lattice)
        else:  # a tap lands a quarter of a cell off as easily as not
            best = self.centre_on_tiles(photo.image, looks[0])
        if corners is None:  # a neighbour's city read, not the one aimed at?
            best = self._nearer_the_middle(photo.image, best) or best
        if best.not_tiles >= no_city:
            raise GridNotFound(NO_CITY if corners is None else NO_TILES_TAPPED, photo)
        t2 = time.perf_counter()
        reading = self.reading_of(best, photo)
        if corners is None and self._no_city_read(photo.image, best,
                                                  SIZE * SIZE - len(reading.doubted())):
            raise GridNotFound(NO_CITY, photo)  # a patterned table: "tiles" of no building
        reading.timing_ms = {"decode": photo.decode_ms, "detect": first.ms,
                             "classify": (t2 - t1) * 1000, "total": photo.decode_ms + first.ms
                             + (time.perf_counter() - t1) * 1000}
        return reading

    def _no_city_read(self, image: np.ndarray, look: _Look, sure: int) -> bool:
        """Whether a look with ``sure`` cells read surely shows no city: fewer than
        ``config.min_sure_cells`` read surely and no edge (``_edged``): a patterned table top,
        "tiles" of no building."""
        return sure < self.config.min_sure_cells and not self._edged(image, look)

    def _edged(self, image: np.ndarray, look: _Look) -> bool:
        """Whether a look shows a block of tiles with an edge: at most
        ``config.edged_city_unlike`` of its cells unlike tiles, and at most
        ``config.edged_city_ring`` of the 20 cells around it (its lattice one cell further
        each way) like tiles or out of the photo. A city washed out by the light can read
        no cell surely, yet it ends where the table begins; a cloth that looks like tiles
        goes on past the block, and a block reaching past the frame shows no edge there.
        Whether a cell shows a tile is the model's own reading, as for the cells around it:
        what the players taught (``Adaptation``) reads their buildings, and read a cell of
        the washed-out city unlike a tile once four cities were learned.
        """
        cfg = self.config
        cells = SIZE + 2
        side, pad = geometry.warp_size(cfg, cells)
        view = geometry.warp_quad(image, look.quad, geometry.square(
            pad + cfg.cell_px, SIZE * cfg.cell_px), side)
        probs, _, _ = self._classify([view], cells)
        unlike = self._unlike_tiles(probs).reshape(cells, cells)
        ring = np.ones((cells, cells), bool)
        ring[1:-1, 1:-1] = False  # the 20 cells around the block
        if unlike[~ring].sum() > cfg.edged_city_unlike:
            return False
        centres = np.float32([(col - 0.5, row - 0.5) for row in range(cells)
                              for col in range(cells)])  # in the block's cells
        to_image = cv2.getPerspectiveTransform(geometry.square(0, SIZE), look.quad)
        x, y = geometry.apply_matrix(centres, to_image).T.reshape(2, cells, cells)
        height, width = image.shape[:2]
        edge = unlike & (x >= 0) & (y >= 0) & (x <= width - 1) & (y <= height - 1)
        return int((ring & ~edge).sum()) <= cfg.edged_city_ring  # like tiles, or off the photo

    def reading_of(self, look: _Look, photo: Photo, steady: bool = True) -> Reading:
        """The legal city decoded from a look at ``photo`` (its quad in the image's pixels),
        its doubtful cells looked at again (``steadied``) and, once the players' pictures
        are learned, read by them (``Adaptation.by_pictures``: the city's place and colours
        are found without them, as before they were learned). Its buildings are
        weighed with their icons' glyphs last (``by_icons``). Not ``steady``: its doubtful
        cells as they are (a reading weighed against a surer one: ``_read_their_printing``)."""
        look = self.steadied(photo.image, look) if steady else look
        pictures = self.adaptation is not None and self.adaptation.looks is not None
        looks = appearance.looks(geometry.tile_crops(look.upright, self.config), self.config) \
            if photo.as_taken or pictures else None
        probs = look.probs
        if pictures:
            probs = self.adaptation.by_pictures(
                probs.reshape(SIZE * SIZE, -1), look.cells.reshape(SIZE * SIZE, -1),
                looks).reshape(probs.shape)
        return Reading(
            **self._decoded_by_icons(look.upright, probs, look.cells),
            corners=geometry.rescale(np.roll(look.quad, look.k, axis=0), photo.scale),
            warped=look.upright,
            photo=photo,
            cells=look.cells,
            colours=inks.cell_colours(look.upright, self.config) if photo.as_taken else None,
            looks=looks if photo.as_taken else None,
            adapted=self.adaptation is not None,
            config=self.config,
        )

    def steadied(self, image: np.ndarray, look: _Look) -> _Look:
        """The look with each doubtful cell's tavern kind read over the city seen again a
        little shifted and scaled (``config.steady_shifts``, ``steady_scales``): the cell's
        chance of being a tavern stays, and splits between the kinds as they are read over
        all views.

        A small, blurred tile's icon lies on few pixels, and which of them the classifier
        sees decides a tavern's kind: on hard photos, one view of a food tavern may read as
        drink where the views around it do not. Which building a tile shows is left to the
        one view: averaged over the views too, a printing the model never saw read worse.
        A tavern read surely but its kind less so (``config.steady_kind_sure``) is looked at
        again too: a food tavern read as bed, 0.82 sure, was one. Other cells that read
        surely stay as they are."""
        doubtful = ((self.sureness(look.probs) < self.config.low_confidence)
                    | self._kind_doubtful(look.probs))
        if not doubtful.any():
            return look
        upright = np.roll(look.quad, look.k, axis=0)
        centre = upright.mean(0)
        cell = np.linalg.norm(upright - np.roll(upright, 1, axis=0), axis=1).mean() / SIZE
        cfg = self.config
        quads = [upright + np.float32([dx, dy]) * cell for dx in cfg.steady_shifts
                 for dy in cfg.steady_shifts if dx or dy]
        quads += [(upright - centre) * scale + centre for scale in cfg.steady_scales]
        which = np.flatnonzero(doubtful)  # row-major, in the upright city
        read, _ = self._buildings_of(*self._crops(geometry.warp_cities(image, quads, cfg),
                                                  only=which))
        probs = look.probs.reshape(SIZE * SIZE, -1).copy()
        tavern = [self.classifier.labels.index(kind) for kind in TAVERN_KINDS]
        kinds = np.ix_(which, tavern)  # each doubtful cell's tavern kinds
        split = probs[kinds] + read.reshape(len(quads), len(which), -1)[..., tavern].sum(0)
        probs[kinds] = probs[kinds].sum(1, keepdims=True) * split / split.sum(1, keepdims=True)
        return replace(look, probs=probs.reshape(look.probs.shape))

    def by_icons(self, upright: np.ndarray, probs: np.ndarray,
                 features: np.ndarray | None = None) -> np.ndarray:
        """Cell probabilities (4, 4, L) of an upright warped city (S, S, 3) weighed with what
        each icon's glyph alone reads: which building (``badges``, the taverns as one; the
        tile model's chance times the glyph's plus a floor (``_glyph_floor``, given the
        cells' features (4, 4, D) when they are known), for cells at least
        ``config.icon_min_building`` likely a building), then a tavern's kind (``icons``; the
        product of both chances, for cells at least ``config.icon_min_tavern`` likely a
        tavern). Each keeps the cell's chance of being what it splits.

        The tile model reads the picture too, which another printing changes: a printed
        tavern's own illustration, a shop drawn darker, a green or violet badge sway it,
        where the glyph, white on any colour, stays. The floor keeps a badge misread (a small
        or blurred icon) from ruling a building out alone. A kind is the glyph's fine
        strokes, which a reader of the four kinds alone tells apart better on small tiles
        (the badge reader's kinds misread 4 more cities of 300 in whole tables). Only the
        city as read is weighed so: the search that places it keeps the tile model's
        sureness, which it was tuned with (a classifier changed throughout broke it, see the
        README)."""
        cfg = self.config
        corners = geometry.corner_crops(upright, cfg)
        probs = probs.reshape(SIZE * SIZE, -1)
        probs = self._weighed(probs, self.badges, corners, cfg.icon_min_building,
                              self._glyph_floor(probs, features))
        probs = self._weighed(probs, self.icons, corners, cfg.icon_min_tavern)
        return probs.reshape(SIZE, SIZE, -1)

    def _glyph_floor(self, probs: np.ndarray, features: np.ndarray | None) -> float:
        """What a building's glyph chance is raised by before it weighs the tile model's
        (``by_icons``): ``config.icon_floor``, so that a badge misread alone rules nothing
        out; once the players have taught their printing, ``AdaptConfig.icon_floor`` in a
        photo not plainly of the model's own printing (``Adaptation.printings``, from the
        cells' probs (16, L) and features): a new printing's pictures, which the tile model
        reads, mislead it (edition I's shops read surely as factories), and the glyph, white
        on any badge, is the part that stays."""
        if self.adaptation is None or features is None:
            return self.config.icon_floor
        printing = self.adaptation.printings(probs, features.reshape(SIZE * SIZE, -1))
        return self.adaptation.config.icon_floor if printing[0] >= 0 else self.config.icon_floor

    def _weighed(self, probs: np.ndarray, icons: IconReader, corners: np.ndarray,
                 least: float, floor: float = 0.0) -> np.ndarray:
        """Cell probabilities (16, L) with the labels an icon reader reads weighed with what
        it reads of the cells' icon corners (16, C, C, 3): times its chance plus ``floor``,
        for cells at least ``least`` likely one of its labels, that chance kept. A reader of
        every building weighs the taverns as one: their kinds are the kinds' reader's."""
        out = probs.copy()
        at = [self.classifier.labels.index(label) for label in icons.labels]
        share = out[:, at].sum(axis=1)
        which = np.flatnonzero(share >= least)
        if len(which):
            read = icons.predict(corners[which])
            taverns = [i for i, label in enumerate(icons.labels) if label in TAVERN_KINDS]
            if len(taverns) < len(at):
                read[:, taverns] = read[:, taverns].sum(axis=1, keepdims=True)
            both = out[np.ix_(which, at)] * (read + floor)
            both *= share[which, None] / np.maximum(both.sum(axis=1, keepdims=True), 1e-12)
            out[np.ix_(which, at)] = both
        return out

    def _decoded_by_icons(self, upright: np.ndarray, probs: np.ndarray,
                          features: np.ndarray) -> dict:
        """``_decoded`` of cell probabilities (4, 4, L) weighed with the icons of the upright
        warped city (S, S, 3) (``by_icons``, given the cells' features (4, 4, D) or
        (16, D)), with the confidence the tile model read them
        with (``Reading.read_confidence``: a colour correction is asked for and judged by it;
        a glyph, white on any badge, reads alike under either colours, and a correction that
        only firms what the icons tell is no better a reading of the city)."""
        return {**self._decoded(self.by_icons(upright, probs, features)),
                "read_confidence": self._decoded(probs)["confidence"]}

    def _kind_doubtful(self, probs: np.ndarray) -> np.ndarray:
        """Which cells read likeliest as a tavern, of a kind less than
        ``config.steady_kind_sure`` sure among the four: probs (..., L) -> bool (...)."""
        shares, _ = self._shares(probs)
        kinds = shares[..., [BUILDINGS.index(kind) for kind in TAVERN_KINDS]]
        tavern = kinds.sum(-1) >= shares.max(-1)  # (the taverns together, not one kind)
        return tavern & (kinds.max(-1) < self.config.steady_kind_sure * kinds.sum(-1))

    def _sharp_enough(self, photo: Photo, first: np.ndarray, rest: Iterator[np.ndarray]):
        """The photo at full size when the city's cells are too small in a half-size decode.

        Returns the photo to read and the corner estimates (``first`` then ``rest``) in its
        pixels.
        """
        edge = min(np.linalg.norm(first - np.roll(first, 1, axis=0), axis=1)) / 4
        if photo.scale == 1 or edge >= self.config.cell_px:
            return photo, itertools.chain([first], rest)
        full = photo.at_full_size(self.config)
        lift = photo.scale / full.scale
        return full, (geometry.rescale(q, lift) for q in itertools.chain([first], rest))

    def _best_look(self, image: np.ndarray, quads: Iterator[np.ndarray]) -> _Look | None:
        """The first estimate whose sixteen cells all look like tiles, else the one with the
        fewest that do not (after at most ``max_candidates``)."""
        return next(iter(self._looks_tried(image, quads)), None)

    def _looks_tried(self, image: np.ndarray, quads: Iterator[np.ndarray]) -> list[_Look]:
        """Looks at the estimates until one shows sixteen tiles (at most ``max_candidates``),
        those with the fewest cells unlike tiles first."""
        looks = []
        for quad in itertools.islice(quads, self.config.max_candidates):
            looks.append(self.look(image, quad))
            if not looks[-1].not_tiles:
                break
        return sorted(looks, key=lambda look: (look.not_tiles, look.emptiness))

    def _centred_best(self, image: np.ndarray, looks: list[_Look], count: int,
                      aimed: bool = False) -> tuple[_Look, list[np.ndarray]]:
        """The look that reads most surely once centred on its tiles, of the first ``count``
        looks (best first, each in another place), stopping at one that reads surely; and
        the outlines centred (quads (4, 2)). With ``aimed`` (a photo of one city), when
        none reads surely, the first look over the photo's middle is centred too.

        On a busy cloth the estimate that shows the most tiles is not always the one nearest
        the city: another, centred, can read every cell surely where the first cannot. A
        player aims at their city: on a newspaper, whose columns look like tiles, the
        outline over the photo's middle, 1.8 cells off and all 16 cells unlike tiles, was
        ranked fifth and never centred, and centred it reads every cell surely.
        """
        centred, tried = [], []

        def untried(look: _Look) -> bool:
            return not any(_same_place(look.quad, quad) for quad in tried)

        def centre(look: _Look) -> bool:  # whether it then reads surely
            tried.append(look.quad)
            centred.append(self.centre_on_tiles(image, look))
            return self._reads_surely(centred[-1])

        sure = False
        for look in looks:
            if len(tried) == count or sure:
                break
            sure = untried(look) and centre(look)
        if aimed and not sure:
            middle = np.float32(image.shape[1::-1]) / 2
            over = [look for look in looks if search.inside(middle, look.quad) and untried(look)]
            if over:
                centre(over[0])
        return max(centred, key=self._total), tried

    def search_lattice(self, image: np.ndarray, best: _Look, tried=(),
                       scales: tuple[float, ...] | None = None) -> _Look:
        """A doubtful look, or the city found on its lattice of tiles (``_on_lattice``) when
        that reads more surely, again from what was found (``config.lattice_rounds``);
        outlines ``tried`` (quads (4, 2)), and those found, are not looked at again. The
        lattice's ``scales`` are those of ``_lattice_search``."""
        tried = list(tried)
        for _ in range(self.config.lattice_rounds):
            if self._reads_surely(best):
                break
            tried.append(best.quad)
            quads = [q for q in self._on_lattice(image, best, scales)
                     if not any(_same_place(q, old) for old in tried)]
            if not quads:  # the lattice shows the city where it was already looked at
                break
            found = max((self.centre_on_tiles(image, self.look(image, quad)) for quad in quads),
                        key=self._total)
            if self._total(found) <= self._total(best):
                break
            best = found
        return best

    def _on_lattice(self, image: np.ndarray, look: _Look,
                    scales: tuple[float, ...] | None = None) -> list[np.ndarray]:
        """Where the city lies on the look's lattice of tiles (``_lattice_search``), and the
        same outlined again by the finder's looks at it warped square, free to move: the
        lattice keeps the look's perspective, which may be wrong."""
        quad = self._lattice_search(image, look, scales)
        if not np.isfinite(quad).all():  # a degenerate outline has no lattice
            return []
        outlined = quad
        for _ in range(self.config.rectified_looks):
            outlined = self._rectified_look(image, outlined, np.inf)
        return [quad, outlined]

    def _decoded(self, probs: np.ndarray) -> dict:
        """A Reading's grid, confidence and duplex pairs from cell probabilities (4, 4, L)
        (``decode``)."""
        chosen, confidence, duplex = self.decode(probs)
        return {"grid": [[BUILDINGS[i] for i in row] for row in chosen],
                "confidence": np.round(confidence, 4).tolist(), "duplex": duplex}

    def _reads_surely(self, look: _Look) -> bool:
        """Every cell of the look reads at least ``low_confidence`` surely."""
        return self.sure_cells(look) == SIZE * SIZE

    def sure_cells(self, look: _Look) -> int:
        """How many of the look's cells read at least ``low_confidence`` surely."""
        return int((self.sureness(look.probs) >= self.config.low_confidence).sum())


def _nearest_the_middle(quads: list[np.ndarray], image: np.ndarray) -> list[np.ndarray]:
    """Quads (4, 2) in ``image``'s pixels, those whose centre lies nearest its middle first."""
    middle = np.float32(image.shape[1::-1]) / 2
    return sorted(quads, key=lambda quad: float(np.linalg.norm(quad.mean(0) - middle)))


@functools.lru_cache(maxsize=4)
def _framings(config: VisionConfig) -> tuple[tuple[np.ndarray, ...], int]:
    """The framings that ``PhotoReader._reframed`` tries, each the corners (4, 2) of the
    city's 4x4 cells in the cells of its outline as it is (the first, unchanged), and the
    index from which they change its perspective. Made once per config."""
    cells = geometry.square(0, SIZE)
    framings = [cells]
    for move in config.reframe_moves:
        for corners, axis, sign in (([0, 1], 1, -1), ([1, 2], 0, 1), ([2, 3], 1, 1),
                                    ([0, 3], 0, -1), ([0, 1, 2, 3], 0, 1),
                                    ([0, 1, 2, 3], 1, 1)):
            framing = cells.copy()  # a side moved out by ``move``, or all shifted
            framing[corners, axis] += sign * move
            framings.append(framing)
    for degrees in config.reframe_turns:
        for turn in (np.radians(degrees), -np.radians(degrees)):
            turned = geometry.turned(cells - SIZE / 2, turn, (0, 0))  # about the middle
            fit = 1 / (abs(np.cos(turn)) + abs(np.sin(turn)))  # inside the outline
            framings += [np.float32(turned * k + SIZE / 2) for k in (1, fit)]
    perspectives = len(framings)  # the framings from here on change the perspective
    for move in config.reframe_keystones:  # a side shortened at both ends (or lengthened)
        for (a, b), axis in (([0, 1], 0), ([1, 2], 1), ([2, 3], 0), ([3, 0], 1)):
            framing = cells.copy()
            inward = np.sign(framing[b, axis] - framing[a, axis])  # from a towards b
            framing[a, axis] += inward * move
            framing[b, axis] -= inward * move
            framings.append(framing)
    return tuple(framings), perspectives


def _cell(corners: np.ndarray) -> float:
    """A cell's mean side (pixels) of a city with these corners (4, 2)."""
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean() / SIZE)


def _doubtfully_overturned(reading: Reading, other: Reading) -> bool:
    """Whether ``reading`` reads every cell surely and ``other`` reads one of them as
    another building, doubtfully (``Reading.uncertain``): a sum of sureness clearly higher
    is no reason to trade a sure cell for a doubt (edition I, taught two photos: two test
    photos read right and surely as taken lost a shop, or two taverns' kinds, so)."""
    if reading.uncertain():
        return False
    return any(reading.grid[r][c] != other.grid[r][c] for r, c in other.uncertain())


def _sureness(reading: Reading) -> float:
    """How surely a reading reads as a whole: the sum of its cells' log confidence, floored
    (``LOG_FLOOR``) as the search's own ``PhotoReader._log_sureness``, as the tile model read
    them (``Reading.read_confidence``) when known."""
    confidence = reading.read_confidence or reading.confidence
    return float(np.log(np.asarray(confidence) + LOG_FLOOR).sum())


def read_table(sources: list[str], players: tuple[str, ...] = (), difficulty: int = 4,
               model_dir=None, learned: Adaptation | None = None) -> dict:
    """Read every photo (or .txt city) and score their cities as one table, with what was
    learned from the players (``learned``), if given.

    A photo may show several cities: they join the table in the order proposed for them
    (clockwise around the table), each with its corners in that photo. Cities a photo shows
    cut by its edge are not read; the result's warnings say so.
    """
    from .notation import read_city_file
    from .table import Table, score_table
    reader = None
    cities, extras, notes, found = [], [], [], []
    for source in sources:
        if Path(source).suffix.lower() in (".txt", ".city"):
            cities.append(read_city_file(source))
            extras.append({"photo": source})
            continue
        reader = reader or PhotoReader(model_dir, adaptation=learned)
        data = read_bytes(source, reader.config)  # its errors name the file
        try:
            photo = reader.read_all(data)
        except (GridNotFound, ImageError) as error:
            raise type(error)(f"{source}: {error}") from None
        for number, reading in enumerate(photo.cities, start=1):
            cities.append(City.from_rows(reading.grid))
            extras.append({"photo": source, **reading.to_json(),
                           **({"in_photo": number} if len(photo.cities) > 1 else {})})
        notes += [f"{source}: {note}" for note in photo.notes()]
        found.append(f"{len(photo.cities)} in {source}")
    try:
        result = score_table(Table(tuple(cities), players, difficulty))
    except TableError as error:
        if len(cities) == len(sources):
            raise
        raise TableError(f"{error} (cities found: {', '.join(found)})") from None
    for city, extra in zip(result["cities"], extras, strict=True):
        city.update(extra)
    result["warnings"] = result.get("warnings", []) + notes
    return result
