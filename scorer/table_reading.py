"""One photo, every city in it: find each complete city, read it, propose where it sits.

``read_cities(reader, photo)`` is the entry point for a photo that may show several cities
(the CLI's photos, the web app's whole-table photo). A photo of one city is read as before
(``PhotoReader.read``), unless windows sized for that city show another beside it. Otherwise
the finder looks at the photo window by window (``vision.search``), then again with windows
sized for the cities read at first sight; a region that stands out from the table around it
(``search.standouts``: a busy cloth can hide a city from the finder) is read on the lattice
of its tiles (``vision.lattice``). Each candidate is centred on its tiles as a single
photo's city is (one with several cells unlike tiles first put on its tiles' lattice, which
costs a tenth as much on a busy cloth) and kept only when its sixteen cells look like tiles
(a region as long as two cities is also read half by half; one whose reading fails, on the
lattice of the tiles inside it; one looked at before any city was read, with no city's size
to go by, again once one is). Last, what stands out once the cities found are taken out of
it is looked at the same way: a city joined to others, or to a lamp's glare, stands out
alone only then. The cities found are ordered clockwise around the table.
Cities cut by the frame's edge, or that cannot be made out (once two more regions over one
have been looked at too), are reported with their outline, never read.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .city import SIZE
from .errors import GridNotFound
from .photo import Photo
from .reading import NO_CITY, PhotoReader, Reading
from .vision import geometry, lattice, search


@dataclass
class Unread:
    """A city seen but not read: corners (4, 2) float32 in full-size pixels, and why."""

    corners: np.ndarray
    why: str

    def to_json(self) -> dict:
        return {"corners": np.round(self.corners, 1).tolist(), "why": self.why}


@dataclass
class PhotoReading:
    """Every complete city of one photo, in the proposed seating order, and those not read."""

    photo: Photo
    cities: list[Reading]
    unread: list[Unread]
    timing_ms: dict[str, float]

    def notes(self) -> list[str]:
        """What a player should know about the cities that were not read, one line each."""
        return [f"a city {u.why}: it was not read" for u in self.unread]


def read_cities(reader: PhotoReader, photo: Photo | np.ndarray) -> PhotoReading:
    """Every complete city in a decoded photo (GridNotFound when there is none)."""
    photo = photo if isinstance(photo, Photo) else Photo(photo)
    t0 = time.perf_counter()
    cfg = reader.config
    factor, small, padded, pad = _shrunk(photo, cfg)
    region, single = _one_region(reader, small), None
    first = _first_sight(reader, photo, region, factor)
    if first is not None:
        try:
            single = _single(reader, photo, [], t0, first_sight=True, first=first)
        except GridNotFound:  # the one region may be a table of cities on a busy cloth,
            pass  # seen whole: the windows below look closer (and failing them, a full read)
        else:
            city = geometry.rescale(single.cities[0].corners, 1 / (factor * photo.scale))
            if search.area(city) >= cfg.one_city_match * search.area(region) and \
                    search.squareness(city) >= cfg.table_min_squareness and \
                    not _beside(reader, padded, pad, city):
                return single  # the one region was one city: a single city's photo
    stands_out = search.standing_out(small, cfg)  # spots unlike the table around them
    candidates = _candidates(reader, photo, factor, padded, pad, stands_out)
    if candidates is None:
        return single or _single(reader, photo, [], t0)
    seen, todo = candidates
    height, width = seen.image.shape[:2]
    found, unread, searches = [], [], cfg.table_max_searches
    halves = []  # where two cities side by side, seen as one region, would lie
    again = []  # regions whose search read a neighbour: searched again, passing over it
    unclear = []  # cities seen that could not be made out (yet: a region inside may read)
    blind = []  # regions looked at before any city was read (no city's size to go by)
    sized = _sized_again(reader, seen.image, blind, found)  # (looked at again, late)
    besides = _standing_besides(reader, seen, small, stands_out, found)  # (looked at last)
    for n, (quad, at_edge, look, placed) in enumerate(itertools.chain(todo, halves, again,
                                                                     sized, besides)):
        largest = max((search.area(lk.quad) for lk in found), default=0.0)
        if n < len(todo) and not at_edge and _two_cities(quad, largest, cfg):  # not a half
            halves += [(half, False, None, False) for half in _halves(quad)
                       if search.within(half.mean(0)[None], width, height, 0)]
        if any(search.inside(quad.mean(0), q) for q in [lk.quad for lk in found] +
               [u.quad for u in unread if not placed]):
            continue  # a city already read or reported (a region standing out whole may
            # be a city that the finder saw joined to the cloth, reaching the frame's edge)
        if search.area(quad) < cfg.table_min_size * largest:
            continue  # too small to be a city beside those found: clutter
        if at_edge and search.squareness(quad) < cfg.table_min_squareness:
            continue  # a city beside its own mirror image, seen whole in another window
        unclear_here = [u for u in unclear if search.inside(quad.mean(0), u.quad)]
        if any(u.tried >= cfg.unclear_retries for u in unclear_here):
            continue  # a city that could not be made out, looked at again enough
        for u in unclear_here:
            u.tried += 1
        if not found and n < len(todo) and not at_edge:
            blind.append(quad)
        look = look or reader.look(seen.image, _centred(reader, seen.image, [quad])[0])
        retry, searched = n >= len(todo) + len(halves), False
        # a region put on its tiles' lattice, most cells like tiles, is centred on them, not
        # searched around (the search takes the finder's estimates, which missed it)
        on_tiles = placed and look.not_tiles <= SIZE * SIZE - cfg.unclear_min_tiles
        if placed and not on_tiles and not at_edge:  # its lattice doubtful: the region's
            # own outline centred on its tiles first (a lattice's period can come out long)
            own = reader.centre_on_tiles(seen.image, reader.look(seen.image, quad))
            if not own.not_tiles and search.inside(own.quad.mean(0), quad) and not _read_before(
                    own, found, cfg):
                look, on_tiles = own, True
        if look.not_tiles and (searches or retry) and not on_tiles:  # corners off: search
            searches -= not retry  # around it as in a single photo (again: not counted)
            size = float(np.median([_extent(lk.quad) for lk in found])) if found else 0.0
            before = look
            look = _read_around(reader, seen.image, quad, size,
                                [lk.quad for lk in found] if retry else [])
            if not at_edge and (look is None or look.not_tiles > before.not_tiles) and (
                    before.not_tiles <= SIZE * SIZE - cfg.unclear_min_tiles):
                # the search went astray from a look showing most of a city's tiles: that
                # look is taken when, centred on them, it shows a whole city over the region
                centred = _centred_on_tiles(reader, seen.image, before, found)
                if centred is not None and not centred.not_tiles and search.inside(
                        quad.mean(0), centred.quad):
                    look = centred
            searched = n < len(todo)
        # the search read a neighbour (this time, or the first time: searched again passing
        # over it, it read no whole city): the region's own tiles may be a city beside it
        on_lattice = (searched and look is not None and _read_before(look, found, cfg)) or (
            retry and (look is None or bool(look.not_tiles)))
        if on_lattice and not at_edge:
            look = _on_its_lattice(reader, seen.image, quad, found, centre=retry)
        if look is None or _read_before(look, found, cfg):
            continue  # nothing there, or a city already read
        if not at_edge:  # (one cut by the frame's edge never reads whole: centring it
            # would cost seconds)
            look = _centred_on_tiles(reader, seen.image, look, found)
            if look is not None and not on_lattice and (
                    0 < look.not_tiles <= SIZE * SIZE - cfg.unclear_min_tiles):
                # most cells like tiles, not all: the lattice inside the region, if whole
                other = _on_its_lattice(reader, seen.image, quad, found)
                if other is not None:
                    other = _centred_on_tiles(reader, seen.image, other, found)
                if other is not None and not other.not_tiles:
                    look = other
            if look is None or (on_lattice and look.not_tiles):
                continue  # a city already read, or no city found on the lattice either
        if _outsized(look.quad, found, cfg):
            continue  # a block of a tiled table top, read as a city with cells of a tile each
        if search.within(look.quad, width, height, cfg.table_edge_margin * width) and (
                look.not_tiles == 0):
            found.append(look)
            unclear = [u for u in unclear if not search.inside(u.quad.mean(0), look.quad)]
            unread = [u for u in unread if not search.inside(look.quad.mean(0), u.quad)]
            searches += searched  # the searches that find a city are not counted
            if searched and not search.inside(quad.mean(0), look.quad):  # a neighbour's
                again.append((quad, at_edge, None, False))
        elif at_edge:  # a city cut by the frame's edge is reported, never read
            if search.area(quad) >= cfg.cut_min_size * largest and _stands_out(
                    quad, [lk.quad for lk in found], stands_out, width, cfg):
                unread.append(_Seen(quad, f"at the {search.side_of(quad, (width, height))} is not complete"))
        elif SIZE * SIZE - look.not_tiles >= cfg.unclear_min_tiles and not any(
                search.inside(look.quad.mean(0), u.quad) for u in unclear):
            unclear.append(_Seen(look.quad, "could not be made out (is it partly hidden?)"))
    unread += unclear  # those no region over them read whole
    if len(found) <= 1:
        if single is not None:  # the city read first, and what was seen beside it
            return PhotoReading(single.photo, single.cities, _reported(unread, seen),
                                single.timing_ms)
        return _single(reader, photo, _reported(unread, seen), t0)
    readings = []
    for look in found:
        reading = reader.reading_of(reader.centre_on_tiles(seen.image, look), seen)
        if SIZE * SIZE - len(reading.doubted()) >= cfg.min_sure_cells:
            readings.append(reader.corrected_city(reading))  # (a refusal is not retried)
        else:  # a tiled table top, say: tile-like cells, none that reads as a building
            unread.append(_Seen(look.quad, "could not be made out (no building on it reads surely)"))
    readings, unsure = _as_surely_as_the_others(readings, cfg)
    unread += [_Seen(geometry.rescale(r.corners, 1 / seen.scale), "could not be made out (its "
                     "buildings read far less surely than the other cities')") for r in unsure]
    if not readings:
        raise GridNotFound(NO_CITY, seen)
    order = search.seating(np.array([r.corners for r in readings]))
    took = (time.perf_counter() - t0) * 1000
    return PhotoReading(seen, [readings[i] for i in order], _reported(unread, seen),
                        {"decode": seen.decode_ms, "read": took, "total": seen.decode_ms + took})


def _as_surely_as_the_others(readings: list[Reading], config) -> tuple[list, list]:
    """The readings of one photo whose cells read surely (``Reading.doubted``) at least
    ``table_sure_share`` as often as the median of them, and the others. The cities of one
    table share the camera, the light and the printing: on a 12 MP photo of tartan, a patch
    of the cloth read as a seventh city with 3 cells read surely, the six cities 15 and 16."""
    sure = [SIZE * SIZE - len(r.doubted()) for r in readings]
    least = config.table_sure_share * float(np.median(sure)) if sure else 0.0
    return ([r for r, n in zip(readings, sure, strict=True) if n >= least],
            [r for r, n in zip(readings, sure, strict=True) if n < least])


def _centred_on_tiles(reader: PhotoReader, image: np.ndarray, look, found: list):
    """A look with some cells unlike tiles moved onto its tiles (several of them: first put
    on its tiles' lattice, kept when all its cells then look like tiles; its corners a little
    off: centred; a cell or more: the lattice searched), None when it then lies over a city
    read before."""
    cfg = reader.config
    if 0 < look.not_tiles <= SIZE * SIZE - cfg.centre_min_tiles:
        if look.not_tiles >= cfg.reframe_not_tiles:  # first put on its tiles' lattice: a
            # tenth of the cost of framing it again, kept when all its cells look like tiles
            placed = _likeliest_block(reader, image, lattice.blocks_near(image, look.quad, cfg),
                                      lambda first: not first.not_tiles)
            if not placed.not_tiles and not _read_before(placed, found, cfg):
                look = placed
        look = reader.centre_on_tiles(image, look)
        if 0 < look.not_tiles <= SIZE * SIZE - cfg.unclear_min_tiles:
            look = reader.search_lattice(image, look, scales=_lattice_scales(look, found, cfg))
            if _read_before(look, found, cfg):
                return None
    return look


def _lattice_scales(look, found: list, config) -> tuple[float, ...] | None:
    """The lattice scales (``config.lattice_scales``) worth searching around a look, given the
    cities read before: those within ``table_lattice_reach`` times of the scale that makes
    its cells theirs (None, all of them, before any city is read). On a busy cloth the
    lattice search reads about a thousand cells a scale."""
    if not found:
        return None
    ratio = np.sqrt(_median_area([lk.quad for lk in found]) / search.area(look.quad))
    reach = np.log(config.table_lattice_reach)
    return tuple(s for s in config.lattice_scales if abs(np.log(s / ratio)) <= reach) or None


def _on_its_lattice(reader: PhotoReader, image: np.ndarray, quad: np.ndarray, found: list,
                    centre: bool = False):
    """Another hypothesis for a region the size of a city whose reading failed (the search
    around it read a neighbour, or some cells stay unlike tiles): the tiles' lattice inside
    it. A square as large as the cities read, turned to the edges inside the region
    (``lattice.squared``), and the blocks a cell off it (``lattice.blocks``): the one with the
    most cells like tiles, then the surest; with ``centre`` (a region searched again), when
    none shows most of a city's tiles as it lies, the first of the likeliest few that does
    once centred on its tiles with its centre still inside the region (a city turned over a
    newspaper left the square two cells off it, and every block a cell or more; centring a
    block of a busy cloth can carry it off the region onto the cloth between cities; each
    centring costs about as much as framing a city again, hence only on a retry). None
    without a city read (no size to go by), for a smaller region, or when that block is
    hardly a city: half its cells unlike tiles, too few reading surely as a building (a tiled
    table top), cut by the frame's edge or over a city read before."""
    cfg = reader.config
    if not found or _extent(quad) < cfg.table_likely_size * float(
            np.median([_extent(lk.quad) for lk in found])):
        return None
    square = _city_square(image, quad, _median_area([lk.quad for lk in found]))
    looks = reader.looks(image, lattice.blocks(image, square, cfg))
    best = _likeliest_city(reader, looks)
    if centre and best.not_tiles > SIZE * SIZE - cfg.unclear_min_tiles:
        likeliest = sorted(looks, key=lambda look: look.not_tiles)[:cfg.lattice_centred_blocks]
        centred = (reader.centre_on_tiles(image, look) for look in likeliest
                   if look.not_tiles < SIZE * SIZE and search.inside(look.quad.mean(0), quad))
        best = next((look for look in centred if not look.not_tiles
                     and search.inside(look.quad.mean(0), quad)
                     and not _read_before(look, found, cfg)), best)
    h, w = image.shape[:2]
    if best.not_tiles > SIZE * SIZE - cfg.unclear_min_tiles or \
            reader.sure_cells(best) < cfg.min_sure_cells \
            or _read_before(best, found, cfg) or not search.within(
                best.quad, w, h, cfg.table_edge_margin * w):
        return None
    return best


def _sized_again(reader: PhotoReader, image: np.ndarray, blind: list[np.ndarray],
                 found: list):
    """The regions looked at before any city was read (``blind``, quads (4, 2), filled in
    while searching), with no city's size to go by, put on their tiles' lattice as large as
    the cities read since (``_on_its_lattice``), once the other regions have been looked at.
    Yields them as ``_candidates`` gives its regions (quad, at the edge, the look, placed),
    those about as large as a city only (under ``table_pair_area`` times its area: a larger
    one holds several, which windows sized for the cities look at) and not over one read.

    On a 12 MP photo of seven cities on a collage, the first region looked at was a city
    and a card beside it; the search around it outlined both, fourteen cells unlike tiles,
    and the city was missed without a word. Searched again, it is outlined so again; on
    its lattice, at the cities' size, it reads."""
    for quad in blind:
        cities = [look.quad for look in found]
        if not cities or search.area(quad) >= reader.config.table_pair_area * _median_area(
                cities) or any(search.inside(quad.mean(0), q) for q in cities):
            continue
        look = _on_its_lattice(reader, image, quad, found)
        if look is not None:
            yield quad, False, look, True


def _city_square(image: np.ndarray, quad: np.ndarray, area: float) -> np.ndarray:
    """A square of a city's ``area`` (pixels²) centred on a region (quad (4, 2)) and turned to
    the edges inside it (``lattice.squared``): where to look for a city's lattice of tiles in a
    region of another size."""
    square = lattice.squared(image, quad)
    centre = square.mean(0)
    return (square - centre) * np.sqrt(area / max(search.area(square), 1.0)) + centre


def _stands_out(quad: np.ndarray, cities: list[np.ndarray], mask: np.ndarray, width: int,
                config) -> bool:
    """Whether a region cut by the frame's edge stands out from the table over its part in
    the photo about as much as the cities read do (``mask`` (h, w) from
    ``search.standing_out``; quads (4, 2) in the pixels of the image read, ``width`` wide).

    On a busy cloth, a patch at the photo's edge beside its own mirror image (the windows
    look over the photo padded with it) can look like a city to the finder, but it is the
    table. How much a city stands out depends on the cloth, hence the comparison with the
    cities of the same photo."""
    def share(q: np.ndarray) -> float:
        return search.share_inside(mask, geometry.rescale(q, mask.shape[1] / width))

    usual = float(np.median([share(q) for q in cities])) if cities else 1.0
    return share(quad) >= max(config.cut_min_standing * usual, config.cut_least_standing)


def _read_before(look, found: list, config) -> bool:
    """Whether a look lies over a city read before (looks' quads (4, 2) overlap)."""
    return any(search.overlap(look.quad, f.quad) > config.table_max_overlap for f in found)


@dataclass
class _Seen:
    """A city seen but not read, while searching: quad (4, 2) in the image read."""

    quad: np.ndarray
    why: str
    tried: int = 0  # regions inside it looked at since


def _reported(unread: list[_Seen], photo: Photo) -> list[Unread]:
    return [Unread(geometry.rescale(u.quad, photo.scale), u.why) for u in unread]


def _first_looks(reader: PhotoReader, seen: Photo, candidates: list[search.Candidate],
                 to_image, typical: float | None, read: list[np.ndarray] = (),
                 known: dict | None = None) -> dict:
    """A first look at every candidate the size of a city (``typical``, in the candidates'
    pixels): candidate id -> look. The outermost first (those inside no larger one), all at
    once (the models run a few times for all of them), then the others, but not those that
    lie inside a city read then or ``read`` before (quads (4, 2) in ``seen``'s pixels): a
    smaller window shows a part of a city as a region of its own, and on a 12 MP photo of
    six cities on light wood, 17 such parts were looked at beside the 5 cities. The looks
    ``known`` already (candidate id -> look, in ``seen``) are not taken again."""
    known = known or {}

    def looks_at(chosen: list[search.Candidate]) -> dict:
        return {id(c): known[id(c)] for c in chosen if id(c) in known} | _looks_at(
            reader, seen, [c for c in chosen if id(c) not in known], to_image)

    likely = [c for c in candidates if typical and _city_sized(c, typical, reader.config)]
    outer = [c for c in likely if not any(
        _extent(o.quad) > _extent(c.quad) and search.inside(c.quad.mean(0), o.quad)
        for o in likely)]
    looks = looks_at([c for c in outer if not _inside_any(c, to_image, read)])
    read = [*read, *(look.quad for look in looks.values() if not look.not_tiles)]
    inner = [c for c in likely if id(c) not in looks and not _inside_any(c, to_image, read)]
    return looks | looks_at(inner)


def _inside_any(candidate: search.Candidate, to_image, quads: list[np.ndarray]) -> bool:
    """Whether a candidate's middle lies inside one of these quads (4, 2) of the image."""
    middle = to_image(candidate.quad).mean(0)
    return any(search.inside(middle, q) for q in quads)


def _looks_at(reader: PhotoReader, seen: Photo, candidates: list[search.Candidate],
              to_image) -> dict:
    """Candidates centred on their tiles and looked at, all at once: candidate id -> look."""
    if not candidates:
        return {}
    quads = _centred(reader, seen.image, [to_image(c.quad) for c in candidates])
    looks = reader.looks(seen.image, quads)
    return {id(c): look for c, look in zip(candidates, looks, strict=True)}


def _centred(reader: PhotoReader, image: np.ndarray, quads: list[np.ndarray]) -> list:
    """Candidates' corners centred on their tiles, as a single photo's first estimate is:
    a closer look, then looks at it warped square. Each (4, 2) in ``image``'s pixels."""
    cfg = reader.config
    quads = reader.closer_looks(image, quads, cfg.refine_expand)
    for _ in range(cfg.rectified_looks):
        quads = reader.rectified_looks(image, quads, cfg.refine_max_shift)
    return quads


def _outsized(quad: np.ndarray, found: list, config) -> bool:
    """Whether a city read (quad (4, 2)) is far larger than the cities read before: the
    cities of one photo lie on one table, and differ in size only by the camera's tilt."""
    sides = [np.sqrt(search.area(look.quad)) for look in found]
    return bool(sides) and np.sqrt(search.area(quad)) > config.table_max_size * np.median(sides)


def _extent(quad: np.ndarray) -> float:
    """The larger side of a quad's bounding box (4, 2), in pixels."""
    return float((quad.max(0) - quad.min(0)).max())


def _read_around(reader: PhotoReader, image: np.ndarray, quad: np.ndarray, typical: float,
                 read: list[np.ndarray]):
    """Read the city near ``quad`` as a single photo of it: the reader's own search on a
    crop around it, at least ``typical`` (a city's extent in this photo) times the crop
    share across, passing over the cities ``read`` before (quads (4, 2)). Only the finder's
    estimates are tried: on a busy cloth, a block of the cloth's own lattice beside a city
    can look like tiles (on the tartan of the speed test, one was read as a seventh city).
    The crop is not a photo aimed at one city, so its windows' regions come window by
    window, not the nearest its middle first (that lost a city on the dev seed 903).
    Returns the best look (its quad in ``image``'s pixels), None if none."""
    cfg = reader.config
    centre = quad.mean(0)
    half = max(_extent(quad), typical) / 2 * cfg.table_crop_expand
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(centre - half), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + half), (w, h)).astype(int)
    crop = image[y0:y1, x0:x1]
    new = (q for q in reader.city_candidates(crop, aimed=False) if not any(
        search.overlap(q + np.float32([x0, y0]), old) > cfg.table_max_overlap for old in read))
    best = reader._best_look(crop, itertools.islice(new, cfg.table_max_looks))
    if best is not None:
        best.quad = best.quad + np.float32([x0, y0])
    return best


def shows_more_cities(reader: PhotoReader, reading: Reading) -> bool:
    """Whether the photo of a city read on its own (``PhotoReader.read``) shows more than
    that city: another whole city beside it, or two side by side read as one (an outline
    as long as two cities, each half of it a city). A player who sent a photo of the whole
    table for one city is told so. Regions of a busy cloth and a neighbour's city partly in
    view are not counted: each region as large as a city, found in windows sized for the
    city read, counts only once its sixteen cells look like tiles at first sight."""
    cfg, photo = reader.config, reading.photo
    factor, _, padded, pad = _shrunk(photo, cfg)
    city = geometry.rescale(reading.corners, 1 / (factor * photo.scale))
    two_long = search.squareness(city) < cfg.table_min_squareness
    if two_long:
        others = _halves(city)
    else:
        regions = _look_over(reader, padded, pad, [cfg.table_window_cities * _extent(city)])
        others = [c.quad for c in _one_per_city(_cities_beside(regions, city, cfg), cfg)]
        others = others[:cfg.more_cities_looks]
    if not others:
        return False
    quads = _centred(reader, photo.image, [geometry.rescale(q, factor) for q in others])
    whole = [look.not_tiles == 0 for look in reader.looks(photo.image, quads)]
    return all(whole) if two_long else any(whole)


def _shrunk(photo: Photo, config) -> tuple[int, np.ndarray, np.ndarray, int]:
    """The photo shrunk as every look works on it: (factor, the shrunk copy, that copy padded
    by its mirror image, the pad in pixels)."""
    factor, small = geometry.work_copy(photo.image, config)
    pad = int(config.table_pad * max(small.shape[:2]))
    return factor, small, cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_REFLECT), pad


def _first_sight(reader: PhotoReader, photo: Photo, region: np.ndarray | None, factor: int):
    """The photo's first looks (``PhotoReader._first_looks``) when the finder sees one large
    region in it (``region``, quad (4, 2) in the pixels of the copy ``factor`` times
    smaller) and they may be of one city filling it; None when they show none, or a whole
    city (every cell like a tile: placed within a fraction of a cell) covering less than
    ``one_city_match`` of the region. That region is then several cities seen as one, and
    the city is not read as a single photo's (centring it and reading it again with its
    colours corrected, to be dropped for the smaller share: on a busy printed map, 35,000 of
    the 50,000 cells a photo of five cities read)."""
    if region is None:
        return None
    try:
        first = reader._first_looks(photo, None)
    except GridNotFound:
        return None
    look = first.looks[0]
    city = geometry.rescale(look.quad, first.photo.scale / (factor * photo.scale))
    if not look.not_tiles and search.area(city) < reader.config.one_city_match * search.area(region):
        return None
    return first


def _single(reader: PhotoReader, photo: Photo, unread: list[Unread], t0: float,
            first_sight: bool = False, first=None) -> PhotoReading:
    """A photo of one city (or none: GridNotFound), read the way single photos are, but
    with one estimate centred: a table photo seen as one city has many doubtful estimates,
    and each centring of a 12 MP photo costs seconds. With ``first_sight``, refused at once
    when no estimate shows a city before centring (``PhotoReader.read``; ``first``: the
    photo's first looks, when ``_first_sight`` took them)."""
    try:
        reading = reader.read(photo, centred=1, first_sight=first_sight, first=first)
    except GridNotFound as refusal:
        if not unread:
            raise
        cut = "; ".join(f"a city {u.why}" for u in unread)
        raise GridNotFound(f"{NO_CITY}; {cut}", refusal.photo) from None
    took = (time.perf_counter() - t0) * 1000
    return PhotoReading(reading.photo, [reading], unread,
                        {"decode": reading.photo.decode_ms, "read": took,
                         "total": reading.photo.decode_ms + took})


def _beside(reader: PhotoReader, padded: np.ndarray, pad: int, city: np.ndarray) -> bool:
    """Whether windows sized for this city (quad (4, 2) in the unpadded photo's pixels) show
    another city the whole photo's look missed: a region as large beside it, or one holding
    it and another."""
    cfg = reader.config
    regions = _look_over(reader, padded, pad, [cfg.table_window_cities * _extent(city)])
    return bool(_cities_beside(regions, city, cfg)) or any(
        not c.at_edge and c.area >= cfg.table_pair_area * search.area(city) for c in regions)


def _cities_beside(regions: list[search.Candidate], city: np.ndarray,
                   config) -> list[search.Candidate]:
    """The regions whole, square and about as large as ``city`` (quad (4, 2)) that lie
    beside it (their middle outside it)."""
    extent = _extent(city)
    return [c for c in regions
            if _city_sized(c, extent, config) and not search.inside(c.quad.mean(0), city)]


def _city_sized(candidate: search.Candidate, extent: float, config) -> bool:
    """Whether a region is whole, square and about as large as a city of ``extent`` pixels
    (the larger side of its bounding box, in the region's pixels)."""
    return (not candidate.at_edge and search.squareness(candidate.quad) >=
            config.table_min_squareness and _extent(candidate.quad) >=
            config.table_likely_size * extent)


def _two_cities(quad: np.ndarray, largest: float, config) -> bool:
    """Whether a whole region (quad (4, 2)) may be two cities side by side: about twice as
    long as wide and larger than any city read so far (``largest``, an area), or longer
    (the finder may see only part of each of two cities close together)."""
    return (config.table_pair_squareness <= search.squareness(quad) <
            config.table_min_squareness and (
                search.area(quad) >= config.table_pair_area * largest or
                search.length(quad) >= config.table_pair_length * np.sqrt(largest)))


def _one_region(reader: PhotoReader, small: np.ndarray) -> np.ndarray | None:
    """The one large region the finder sees in the whole photo, with no whole region as
    large beside it (a single city's photo, or several cities seen as one), else None.
    Returns its quad (4, 2) in ``small``'s pixels."""
    cfg = reader.config
    view, back = geometry.finder_view(small, None, cfg.finder_px)
    mask = reader.finder.predict(view[None])[0] > cfg.finder_threshold
    regions = geometry.quads_from_mask(mask, cfg.finder_min_area, cfg.table_regions)
    if not regions:
        return None
    areas = [search.area(q) / mask.size for q in regions]
    if areas[0] < cfg.one_city_share:
        return None
    whole = [a for a, q in zip(areas[1:], regions[1:], strict=True)
             if (q > 2).all() and (q < len(mask) - 3).all()]
    if any(a >= cfg.one_city_rival * areas[0] for a in whole):
        return None
    return geometry.apply_matrix(regions[0], back)


def _candidates(reader: PhotoReader, photo: Photo, factor: int, padded: np.ndarray, pad: int,
                stands_out: np.ndarray):
    """Where cities may lie, one region per city, the square ones first, those cut by the
    frame's edge last; None when neither the finder nor the table shows anything city-like.

    Large windows first (the whole photo, its halves, its quarters: the quarters only when
    a region the others show does not read as a whole city at first sight, or the cities
    are smaller than a quarter window holds whole, ``_regions``); the cities read at first
    sight among what they show give a city's size in this photo (failing that, the size
    most regions share); then windows sized to hold one city whole, wherever it lies, look
    again (unless the first were as large).
    Regions standing out from the table that hold no city read at first sight come last,
    read on their tiles' lattice (a city on a cloth the finder never saw). Regions too small
    for a city of cells of ``table_min_cell_px`` in the photo as taken are not looked at (in
    noise the finder sees a thousand specks), nor are windows sized for them. ``padded`` is the
    photo shrunk by ``factor``, padded by ``pad`` pixels of its mirror image; ``stands_out``
    its spots unlike the table around them (``search.standing_out``). Returns the photo to
    read them in and (quad (4, 2) in its pixels, at_edge, a first look or None, placed: that look
    is of a region standing out, put on its tiles' lattice) for each region.
    """
    cfg = reader.config
    long_side = max(padded.shape[:2]) - 2 * pad  # of the photo shrunk by ``factor``
    first = [share * long_side for share in cfg.table_window_shares]
    found = _look_over(reader, padded, pad, first[:-1])
    trial = {}  # what the try without the smallest windows decoded and looked at
    if found:  # the smallest windows are looked over only when needed
        quick = _regions(reader, photo, factor, padded, pad, stands_out, found, first[:-1],
                         smallest=first[-1], earlier=trial)
        if quick is not None:
            return quick
    found += _look_over(reader, padded, pad, first[-1:])
    return _regions(reader, photo, factor, padded, pad, stands_out, found, first, earlier=trial)


def _regions(reader: PhotoReader, photo: Photo, factor: int, padded: np.ndarray, pad: int,
             stands_out: np.ndarray, found: list[search.Candidate], first: list[float],
             smallest: float | None = None, earlier: dict | None = None):
    """``_candidates`` from the regions ``found`` in windows of the sides ``first``. With
    ``smallest`` (the side of smaller windows not looked over yet), None unless every region
    looked at first read as a whole city and windows sized for them are no smaller: those
    windows are needed to give a city's size when the larger ones do not, for cities smaller
    still, and where a region reads as part of a city only (on a 12 MP photo of six cities
    on light wood, they were 63 of the first 77 windows); then
    ``earlier`` keeps the photo decoded and the looks taken, for the next call to reuse."""
    earlier = {} if earlier is None else earlier
    cfg = reader.config
    long_side = max(padded.shape[:2]) - 2 * pad  # of the photo shrunk by ``factor``
    small = padded[pad:len(padded) - pad, pad:padded.shape[1] - pad]
    standing = search.standouts(stands_out, small.shape[1], cfg, cfg.standout_opens)  # what
    # the finder misses on a cloth it never saw
    if not found + standing:
        return None
    found = _one_per_city(found, cfg)
    typical = search.typical_extent(found, cfg)
    before = earlier.get("seen")  # the full-size decode of a try before, if it made one
    seen, to_image = _sharp_enough(photo, found or standing, typical, factor, cfg,
                                   None if before is photo else before)
    known = earlier.get("looks") if before is seen else None
    scale = _extent(to_image(np.float32([[0, 0], [1, 1]])))  # its pixels per one of small's
    least = _least_extent(cfg, factor * photo.scale)
    quick = _first_looks(reader, seen, _large_enough(found, least), to_image, typical,
                         known=known)
    read = [_extent(look.quad) for look in quick.values() if not look.not_tiles]
    if read:  # the size of the cities read at first sight, in ``small``'s pixels
        typical = float(np.median(read)) / scale
    window = cfg.table_window_cities * typical if typical else cfg.table_small_window * long_side
    window = max(window, cfg.table_window_cities * least)  # (not windows sized for specks)
    clean = bool(read) and all(not look.not_tiles for look in quick.values())
    if smallest is not None and not (clean and window >= smallest):
        earlier.update(seen=seen, looks=quick)
        return None
    first_cities = [look.quad for look in quick.values() if not look.not_tiles]
    if not _looked_over(window, first, cfg):
        keep = _beside_cities(stands_out, first_cities, to_image, small.shape[1], typical,
                              cfg) if clean else None
        found = _one_per_city(found + _look_over(reader, padded, pad, [window], keep), cfg)
    found = _large_enough(found, least)  # (the specks only told the windows' size)
    quick |= _first_looks(reader, seen, [c for c in found if id(c) not in quick], to_image,
                          typical, first_cities, known)
    cities = [look.quad for look in quick.values() if not look.not_tiles]  # read at first sight
    standing = [c for c in _large_enough(standing, least)
                if not any(search.inside(to_image(c.quad).mean(0), q) for q in cities)]
    area = _median_area(cities) / scale ** 2 if cities else 0.0
    # (a city's, in ``small``'s pixels)
    lattices = [_lattice_of(reader, small, c.quad, to_image, area) for c in standing]
    quick |= dict(zip([id(c) for c in standing], _likeliest_blocks(reader, seen.image, lattices),
                      strict=True))
    standing = [c for c in standing if not _clutter(quick[id(c)], cfg)]
    return seen, [(to_image(c.quad), c.at_edge, quick.get(id(c)), False) for c in found] + [
        (to_image(c.quad), c.at_edge, quick[id(c)], True) for c in standing]


def _beside_cities(stands_out: np.ndarray, cities: list[np.ndarray], to_image, width: int,
                   typical: float, config) -> Callable[[np.ndarray], bool]:
    """Whether a window (box (2, 2) in the shrunk copy's pixels, ``width`` wide, which
    ``to_image`` maps to the image read) holds at least ``table_left_share`` of a city's area
    (``typical``, an extent in those pixels) of what stands out from the table (``stands_out``
    (h, w) bool, ``search.standing_out``) outside the cities read (quads (4, 2) in the image
    read), each grown by ``table_read_margin`` about its centre (its drop shadow stands out
    too).

    When the first windows read every region they showed as a whole city, a city they
    missed still differs from the table around it (the cities of three photos of seed 901
    that only windows sized for the cities found stood out over 93 % of their area or more,
    two of them joined as one region), while a window of plain table, or of cities read
    only, holds no city more: on a 12 MP photo of six cities on light wood, 23 of the 48
    windows sized for the cities."""
    h, w = stands_out.shape
    scale = w / width  # mask pixels per pixel of the shrunk copy
    total = cv2.integral(_without(stands_out, cities, to_image, width, config))  # (h + 1,
    # w + 1): the spots left in any box in four lookups
    least = config.table_left_share * (typical * scale) ** 2

    def holds(box: np.ndarray) -> bool:
        (x0, y0), (x1, y1) = np.clip(np.round(box * scale).astype(int), 0, [w, h])
        return total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0] >= least

    return holds


def _standing_besides(reader: PhotoReader, seen: Photo, small: np.ndarray,
                      stands_out: np.ndarray, found: list):
    """What stands out from the table (``stands_out``, of ``small``, the shrunk copy of
    ``seen``) once the cities ``found`` (looks, filled in while searching) are taken out of
    it, each region put on its tiles' lattice at the cities' size (``_lattice_of``): a city
    joined to another city, or to a lamp's glare beside them, stands out as one region with
    it, and alone only then. Yields, as ``_candidates`` gives its regions (quad (4, 2) in
    ``seen``'s pixels, at the edge, the look, placed), the ``table_besides_looks`` likeliest
    of those that then show most of a city's tiles, a few read surely as buildings (a lamp's
    glare shows tiles of no building), once the other regions have been looked at."""
    cfg = reader.config
    if not found:
        return
    scale = seen.image.shape[1] / small.shape[1]

    def to_image(quad: np.ndarray) -> np.ndarray:
        return geometry.rescale(quad, scale)

    cities = [look.quad for look in found]
    left = _without(stands_out, cities, to_image, small.shape[1], cfg)
    least = _least_extent(cfg, scale * seen.scale)
    area = _median_area(cities) / scale ** 2
    regions = [c for c in _large_enough(search.standouts(left, small.shape[1], cfg,
                                                         cfg.standout_opens), least)
               if search.area(c.quad) >= cfg.table_besides_least * area]  # (not the specks
    # left around the cities taken out: each is read on nine blocks)
    looks = _likeliest_blocks(reader, seen.image,
                              [_lattice_of(reader, small, c.quad, to_image, area, parts=True)
                               for c in regions])
    sure = [reader.sure_cells(look) for look in looks]
    likely = sorted((look.not_tiles, -sure[i], i) for i, look in enumerate(looks)
                    if SIZE * SIZE - look.not_tiles >= cfg.unclear_min_tiles
                    and sure[i] >= cfg.min_sure_cells)
    for *_, i in likely[:cfg.table_besides_looks]:  # (on a newspaper, many columns are left)
        yield to_image(regions[i].quad), False, looks[i], True


def _without(stands_out: np.ndarray, cities: list[np.ndarray], to_image, width: int,
             config) -> np.ndarray:
    """What stands out from the table (``stands_out`` (h, w) bool, ``search.standing_out``
    of the shrunk copy, ``width`` wide, which ``to_image`` maps to the image read) outside
    the cities read (quads (4, 2) in the image read), each grown by ``table_read_margin``
    about its centre (its drop shadow stands out too): (h, w) uint8, 1 where it stands out."""
    to_mask = stands_out.shape[1] / width / _extent(to_image(np.float32([[0, 0], [1, 1]])))
    left = stands_out.astype(np.uint8)
    for quad in cities:
        centre = quad.mean(0)
        grown = (quad - centre) * config.table_read_margin + centre
        cv2.fillConvexPoly(left, np.int32(np.round(grown * to_mask)), 0)
    return left


def _median_area(quads: list[np.ndarray]) -> float:
    """A city's area in this photo: the median of the cities read (quads (4, 2)), in their
    pixels squared (the cities of one photo differ in size only by the camera's tilt)."""
    return float(np.median([search.area(q) for q in quads]))


def _least_extent(config, full_size_per_pixel: float) -> float:
    """The least extent of a city (cells of ``table_min_cell_px`` in the photo as taken), in
    the pixels of an image ``full_size_per_pixel`` times smaller than the photo as taken."""
    return SIZE * config.table_min_cell_px / full_size_per_pixel


def _large_enough(regions: list[search.Candidate], least: float) -> list[search.Candidate]:
    """The regions whose extent (``_extent``) is at least ``least``: in a photo of noise, or
    of clutter, the finder sees a thousand specks, each of which would be looked at."""
    return [c for c in regions if _extent(c.quad) >= least]


def _lattice_of(reader: PhotoReader, small: np.ndarray, quad: np.ndarray, to_image,
                city_area: float = 0.0, parts: bool = False) -> tuple[list[np.ndarray], Callable]:
    """Where to read a region standing out from the table (quad (4, 2) in ``small``'s pixels)
    on the lattice of tiles near its outline (``vision.lattice``), for ``_likeliest_blocks``:
    the blocks (in the image's pixels, by ``to_image``) and when the first is enough. Its
    block is enough when all its cells look like tiles; when some do not, the best of it and
    those a cell away (the most cells like tiles, then the surest: a row of busy cloth may
    look like tiles, but does not read surely as buildings). Clutter (a mug, a card: hardly a
    cell like a tile) is not looked at further. A region much larger than a city
    (``city_area``, in ``small``'s pixels: a city and the table's edge beside it, say), or
    with ``parts`` much smaller (part of a city, the rest under a lamp's glare: looked at once
    the cities found are taken out of what stands out; looked at so before, a region beside a
    city on marble lost that city), is looked at as large as a city, and all nine blocks are
    read: the city may lie off its middle."""
    cfg = reader.config
    least = cfg.table_part_area * city_area if parts else 0.0
    off = bool(city_area) and not least <= search.area(quad) < cfg.table_pair_area * city_area
    if off:
        quad = _city_square(small, quad, city_area)
    quads = [to_image(q) for q in lattice.blocks(small, quad, cfg)]
    return quads, lambda first: not first.not_tiles or (_clutter(first, cfg) and not off)


def _likeliest_block(reader: PhotoReader, image: np.ndarray, blocks: list[np.ndarray], enough):
    """Of blocks on a lattice of tiles (quads (4, 2), the nearest the outline first): the
    first one's look when ``enough(look)`` says so, else ``_likeliest_city`` of all (the
    other eight are read only then)."""
    return _likeliest_blocks(reader, image, [(blocks, enough)])[0]


def _likeliest_blocks(reader: PhotoReader, image: np.ndarray,
                      lattices: list[tuple[list[np.ndarray], Callable]]) -> list:
    """``_likeliest_block`` of several lattices (blocks, enough), the first blocks of all
    read at once (the classifier's runs cost the same for one city as for a few)."""
    firsts = reader.looks(image, [blocks[0] for blocks, _ in lattices]) if lattices else []
    return [first if enough(first) else
            _likeliest_city(reader, [first, *reader.looks(image, blocks[1:])])
            for first, (blocks, enough) in zip(firsts, lattices, strict=True)]


def _likeliest_city(reader: PhotoReader, looks: list):
    """Of blocks on a lattice of tiles, the one with the most cells like tiles, then the
    surest (a row of busy cloth may look like tiles, but does not read surely as buildings)."""
    return min(looks, key=lambda look: (look.not_tiles, -reader._total(look)))


def _clutter(look, config) -> bool:
    """Whether a region standing out from the table, read on its lattice, is clutter (a mug,
    a card): hardly a cell of it looks like a tile, so nothing around it is searched."""
    return SIZE * SIZE - look.not_tiles < config.centre_min_tiles


def _halves(quad: np.ndarray) -> list[np.ndarray]:
    """A quad (4, 2) cut in two across its longer sides: where two cities side by side,
    seen as one region, each lie."""
    a, b, c, d = np.asarray(quad, np.float32)
    if np.linalg.norm(b - a) + np.linalg.norm(d - c) >= np.linalg.norm(c - b) + np.linalg.norm(a - d):
        ab, dc = (a + b) / 2, (d + c) / 2
        return [np.stack([a, ab, dc, d]), np.stack([ab, b, c, dc])]
    bc, ad = (b + c) / 2, (a + d) / 2
    return [np.stack([a, b, bc, ad]), np.stack([ad, bc, c, d])]


def _one_per_city(found: list[search.Candidate], config) -> list[search.Candidate]:
    """One region per city seen in several windows (the largest), the square ones first,
    those cut by the frame's edge last."""
    kept = []
    for candidate in sorted(found, key=lambda c: (c.at_edge, -c.area)):  # whole regions first
        if not any(search.inside(candidate.quad.mean(0), k.quad) and
                   candidate.area > 0.5 * k.area for k in kept):  # not seen in another window
            kept.append(candidate)
    return sorted(kept, key=lambda c: (c.at_edge, search.squareness(c.quad) <
                                       config.table_min_squareness, -c.area))


def _look_over(reader: PhotoReader, padded: np.ndarray, pad: int, sides: list[float],
               keep: Callable[[np.ndarray], bool] | None = None) -> list[search.Candidate]:
    """The finder over windows of these sides (pixels), overlapping by half (only those
    that ``keep`` says hold something to look at, given the box (2, 2) in the unpadded
    photo's pixels): the regions each window shows whole, in the unpadded photo's pixels."""
    cfg = reader.config
    h, w = padded.shape[:2]
    boxes = [b for side in sides for b in search.window_boxes(h, w, side)
             if keep is None or keep(b - pad)]
    if not boxes:
        return []
    views, backs = zip(*(geometry.finder_view(padded, b, cfg.finder_px) for b in boxes),
                       strict=True)
    masks = reader.finder.predict(np.stack(views)) > cfg.finder_threshold
    return search.candidates(masks, boxes, list(backs), (w, h), pad, cfg)


def _looked_over(window: float, sides: list[float], config) -> bool:
    """Whether windows of one of these sides, looked over already, are as good as windows of
    ``window`` pixels: about as large (``config.table_window_reuse``), and at least twice a
    city's size (``window`` being ``table_window_cities`` times it), so that each city lies
    whole in one of them as they overlap by half."""
    city = window / config.table_window_cities
    return any(2 * city <= side and abs(side - window) <= config.table_window_reuse * window
               for side in sides)


def _sharp_enough(photo: Photo, candidates: list[search.Candidate], typical: float | None,
                  factor: int, config, full: Photo | None = None):
    """The photo to read the cities in (at full size when a city's cells are too small in a
    half-size decode: ``full`` when it was decoded already) and the map from the shrunk
    copy's pixels to its image."""
    typical = typical or min(_extent(c.quad) for c in candidates)
    if photo.scale > 1 and typical * factor / SIZE / np.sqrt(2) < config.table_cell_px:
        full = full or photo.at_full_size(config)
        lift = photo.scale / full.scale
        return full, lambda q: geometry.rescale(geometry.rescale(q, factor), lift)
    return photo, lambda q: geometry.rescale(q, factor)
