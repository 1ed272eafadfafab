"""Every threshold of the photo reader in one place, with defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionConfig:
    """Sizes and thresholds shared by training and reading (see models/*.json)."""

    max_pixels: int = 50_000_000  # refuse larger images before decoding them
    max_bytes: int = 40_000_000
    min_side: int = 16  # px: a thinner image cannot show a city
    max_aspect: float = 12  # longer side / shorter side, the most a photo of a city can have
    reduced_decode_pixels: int = 6_000_000  # JPEGs this large are first decoded at half size
    work_px: int = 1024  # finding the city works on the photo shrunk to this size
    finder_px: int = 128  # side of the city-finder's square input
    finder_min_area: float = 0.004  # smallest city, as a share of the finder's input
    finder_threshold: float = 0.5
    refine_expand: float = 1.15  # second look: box around the first quad, this much larger
    look_min_area: float = 0.15  # ... where the city is a region of at least this share
    wide_expand: float = 1.7  # ... or this much, when the first guess cannot be read
    finder_regions: int = 3  # regions of the first look tried, largest first
    window_share: float = 0.5  # a closer search: square windows of this share of the long side
    window_steps: int = 3  # ... this many along each side of the photo
    middle_window_cities: float = 2  # a city read off the photo's middle: windows this many
    # times its size are searched about the middle for the one aimed at (see
    # PhotoReader._nearer_the_middle)
    max_candidates: int = 15  # corner estimates tried before the best reading is kept
    rectified_looks: int = 2  # then looks at the city warped square, to centre the corners
    refine_max_shift: float = 1 / 3  # ... each moving a corner by at most this many cells
    rectified_min_area: float = 0.3  # ... and finding a region of at least this share
    centre_steps: tuple[float, ...] = (0.3, 0.15, 0.08)  # a doubtful city's cells are read again
    # shifted this many cells each way, coarse first, and its corners moved to where ...
    centre_min_gain: float = 0.05  # ... a cell's log sureness grows by at least this
    turn_vote_sure: float = 25.0  # a city still doubtful once nudged is nudged turned too,
    # unless its cells' turn votes lead the next turn by this much (log chances, summed)
    reframe_not_tiles: int = 2  # a city with this many cells unlike tiles is framed again:
    reframe_moves: tuple[float, ...] = (-1, -0.5, 0.5, 1)  # a side, or all four, moved this
    # many cells ...
    reframe_turns: tuple[float, ...] = (15, 30, 45)  # ... or the outline turned this many
    # degrees either way, as it is or shrunk to fit inside itself,
    reframe_keystones: tuple[float, ...] = (-0.5, 0.5)  # ... or a side shortened this many
    # cells at each end (lengthened when < 0): the outline's perspective, as a steep tilt
    # can leave it,
    reframe_rounds: int = 4  # at most this many times, while the city reads more surely
    lattice_scales: tuple[float, ...] = (1, 2, 0.5)  # a city still doubtful is looked for
    # on its outline's lattice, its cells this many times the outline's, ...
    lattice_cells: int = 10  # ... over this many cells each way around the outline's centre
    lattice_turn_sure: float = 0.7  # ... read the way up its cells this sure of their turn vote
    lattice_rounds: int = 3  # ... and again from what it found, while the city reads more surely
    centre_candidates: int = 4  # corner estimates centred so, best first, the surest kept
    cell_px: int = 96  # side of one cell in the warped city
    tile_margin: float = 0.2  # tile crop: the cell plus this share of a cell on each side
    tile_input: int = 64
    corner_span: tuple[float, float] = (-0.06, 0.44)  # icon corner, in cell units
    corner_input: int = 48
    icon_min_building: float = 0.02  # a cell this likely a building has it read from its
    # icon's glyph too (``models.IconReader`` "badges"; less likely, nothing to split), ...
    icon_floor: float = 0.05  # ... the glyph's chance of each building raised by this
    icon_min_tavern: float = 0.02  # a cell this likely a tavern has its kind read from its
    # icon's glyph too ("icons"; less likely, nothing to split)
    low_confidence: float = 0.8  # below this a cell is flagged for the player to check
    min_sure_tile_px: float = 20  # tiles narrower in the photo: every cell is flagged (read
    # from fewer pixels, the model errs without doubting)
    steady_shifts: tuple[float, ...] = (-0.08, 0, 0.08)  # a doubtful cell's tavern kind is
    # read again with the city shifted this many cells each way (both ways at once too), ...
    steady_scales: tuple[float, ...] = (0.95, 1.05)  # ... and scaled so, over all the views
    steady_kind_sure: float = 0.95  # ... as is a tavern's read surely, its kind less so than this
    empty_limit: float = 0.5  # a cell this likely "no tile" does not look like a tile
    no_city_cells: int = 14  # this many such cells: no city (photos without one show 14-16)
    no_city_at_once: int = 16  # ... refused before any centring when every estimate shows this
    # many (nothing to centre on; of 1008 independent photos: a third of those without a city,
    # none with a city that was read)
    centre_min_tiles: int = 4  # a region with fewer cells like tiles is clutter or noise, not
    # centred on its tiles (a table photo's region; a single photo's middle square)
    min_sure_cells: int = 3  # a city read with fewer cells read surely (see low_confidence),
    # is no city (a patterned or tiled table top, "tiles" of no building) unless at most
    edged_city_unlike: int = 2  # ... this many of its cells are unlike tiles (a washed-out
    # city showed one as rendered, two once saved as a JPEG)
    edged_city_ring: int = 5  # ... and at most this many of the 20 cells around it look like
    # tiles or lie out of the photo: a block of tiles with an edge is a city, however washed
    # out; a cloth that looks like tiles goes on past the block (168 photos without a city:
    # 7 to 19 where the block had at most two cells unlike tiles; a washed-out city: 0)
    corrected_min_gain: float = 1.0  # a doubtful reading is replaced by the photo's reading
    # with its colours corrected when that is surer by this much (sum of cells' log
    # confidence; a hair surer is noise) and lies in the same place
    hue_turns: tuple[float, ...] = (-15, 15, -30, 30, -45, 45, -60, 60)  # ... the light's
    # corrections tried with every hue turned so many degrees too (another printing's inks),
    hue_turn_min_gain: float = 0.5  # ... and a turn taken when it reads this much surer than
    # the light's correction alone (on the model's own printing a turn fits noise: < 0.1)
    inks_min_gain: float = 0.5  # ... and the players' printing's inks, once learned (see
    # vision.inks), taken when they read this much surer than the best of those
    ink_span: tuple[float, float] = (0.2, 0.8)  # a cell's colours, for learning a
    # printing's inks: the mean colours over this much of the cell (away from the frame), ...
    ink_grid: int = 3  # ... in a grid of this many squares a side, ...
    ink_level: float = 128.0  # ... each channel scaled so that the city's mean is this (the
    # lamp's colour and the photo's brightness undone; the inks are applied after the same)
    look_span: tuple[float, float] = (0.1, 0.9)  # a cell's look, for learning a printing's
    # pictures (see vision.appearance): this much of the cell (away from the gaps), ...
    look_px: int = 12  # ... in this many squares a side
    correction_span: tuple[float, float] = (-0.1, 1.1)  # a corrected cell's kept image, in cells
    # whole-table photos (scorer.table_reading): several cities in one photo
    one_city_share: float = 0.1  # the whole photo's finder view shows one region this large
    one_city_rival: float = 0.5  # ... and none other whole this share of it: one city's photo
    one_city_match: float = 0.6  # ... when the city read there covers this share of it
    more_cities_looks: int = 3  # a single city's photo: regions beside it looked at, to tell
    # whether it shows more cities (table_reading.shows_more_cities)
    table_window_shares: tuple[float, ...] = (1.0, 0.5, 0.25)  # first windows: share of the
    # long side
    table_window_cities: float = 2.5  # then windows this many times a city's size (from the
    table_small_window: float = 0.15  # first look; without one, this share of the long side)
    table_window_reuse: float = 0.05  # ... unless the first windows of a side this near
    # theirs (a share of it) looked already
    table_pad: float = 0.12  # ... over the photo padded by its mirror image this much all round
    whole_shown: float = 0.97  # a region with less of it inside the photo is cut by its edge
    cut_min_shown: float = 0.25  # ... and one with less still is a mirror image: ignored
    table_min_area: float = 0.004  # a region, as a share of its window, that may be a city
    table_regions: int = 12  # the most regions taken from one window
    table_edge_px: float = 1.5  # finder pixels: a region this near a window's side touches it
    table_min_squareness: float = 0.75  # a region less square may be two cities: tried last
    cut_min_size: float = 0.4  # a region cut by the edge this share of the largest city: a city
    cut_min_standing: float = 0.6  # ... whose part in the photo stands out from the table
    # (search.standing_out) over this share of what the median city read does, ...
    cut_least_standing: float = 0.1  # ... and over this share of it at least
    unclear_min_tiles: int = 8  # cells that look like tiles in a city hidden in part
    unclear_retries: int = 2  # regions inside a city not made out looked at before it is
    # reported (the finder sees a city in several windows, each outline a little different)
    table_cell_px: int = 56  # a photo whose cities' cells are smaller is read at full size
    table_likely_size: float = 0.6  # regions this share of a city's size are read together
    table_min_size: float = 0.15  # a region this share of the largest city read: clutter
    table_min_cell_px: float = 20  # a region too small for a city of cells this large in the
    # photo as taken: noise or clutter, not looked at (cities are read from cells of 30 px)
    table_max_size: float = 2.0  # a city read with sides this many times the median city's
    # before it: a block of a tiled table top (cities of one photo differ up to 1.6 times)
    table_crop_expand: float = 1.8  # each region is read as a photo this much larger than it
    table_max_looks: int = 4  # ... trying at most this many corner estimates
    table_max_searches: int = 12  # ... for at most this many regions of a photo that hold
    # no city
    table_pair_area: float = 1.6  # a region this many times the city read first holds another
    table_pair_length: float = 1.5  # ... as does one this many times as long as the largest
    # city read is wide, when it is not square (see table_pair_squareness)
    table_sure_share: float = 0.3  # a city of a table photo with fewer cells read surely than
    # this share of the median city's is not read (a patch of a busy cloth)
    table_besides_looks: int = 3  # regions standing out once the cities found are taken out,
    # looked at (the likeliest; on a newspaper each costs seconds)
    table_besides_least: float = 0.35  # ... of a city's area at least
    table_part_area: float = 0.7  # a region standing out this share of a city's area is part
    # of one (the rest of it lit like the table: a lamp's glare over it), looked at as large
    table_lattice_reach: float = 1.7  # a doubtful city of a table photo is looked for on
    # its lattice at the scales within this factor of the one the cities read call for
    lattice_centred_blocks: int = 3  # a region's lattice blocks centred on their tiles when
    # none shows a city as it lies (most cells like tiles first): each costs a city's framing
    table_max_overlap: float = 0.25  # a city read over this share of one read before: the same
    table_pair_squareness: float = 0.35  # a region this square or more, but less than
    # table_min_squareness, may be two cities side by side: its halves are looked at too
    table_read_margin: float = 1.25  # a city read, grown this much about its centre (its
    # shadow), and what stands out beside it: windows sized for the cities look over only
    table_left_share: float = 0.1  # ... where this share of a city's area stands out besides
    table_edge_margin: float = 0.002  # a city this near the frame's edge (share of its width)
    # is cut by it
    standout_px: int = 500  # what stands out of the table is looked for with the photo this
    # size (long side), ...
    standout_blur: float = 0.016  # ... a cloth's pattern blurred away over this share of it,
    standout_spot: int = 4  # ... spots of this many pixels each compared with ...
    standout_table: float = 0.3  # ... the table around them (the median over this share of
    # the shorter side, ...
    standout_coarse: int = 4  # ... taken on a grid this many times coarser, for speed), ...
    standout_limit: float = 4.0  # ... standing out when this many spreads away from it (the
    # median distance over the photo, per colour channel and its contrast)
    standout_min_area: float = 0.002  # a region standing out, as a share of the photo, ...
    standout_min_squareness: float = 0.5  # ... and this square may be a city
    standout_closes: tuple[int, ...] = (5, 9)  # a single city's photo: the spots closed over
    # this many (the gaps between tiles), then this many (plain tiles), ...
    standout_regions: int = 2  # ... and this many of the regions of each tried, largest first
    standout_opens: tuple[int, ...] = (5, 7)  # a whole table's photo: the spots also opened over
    # this many (cities joined by a strip of cloth, or to the cloth's edge)
    frame_city_shares: tuple[float, ...] = (0.8, 0.55, 0.4, 0.28, 0.2)  # then squares this
    # share of the photo's shorter side in its middle, put on their tiles' lattice: a city
    # filling the frame, or aimed at on a cloth that hides it (each tried from
    # centre_min_tiles cells like tiles), ...
    frame_small_city_share: float = 0.14  # ... and one this small (a city aimed at, small in
    # the frame), tried only where min_sure_cells of its block also read surely: the lattice
    # of a checked cloth fits a block this small, thirteen of its cells like tiles
    snap_px: int = 24  # such a region's outline is warped square at this many px a cell, ...
    snap_periods: tuple[float, float] = (0.8, 1.25)  # ... its tiles' edges looked for repeating
    # once a cell, a cell this many times the outline's, ...
    snap_turns: tuple[float, ...] = (-8, -6, -4, -2, 0, 2, 4, 6, 8)  # ... turned this much


@dataclass(frozen=True)
class AdaptConfig:
    """How the reader learns the players' own tiles (see scorer.vision.adaptation)."""

    strength: float = 4.0  # odds of the closest look-alike's answer over the model's ...
    kernel_width: float = 0.2  # ... times exp((cosine - 1) / width) ...
    min_cosine: float = 0.5  # ... and none below this cosine of centred features
    sharpness: float = 0.01  # look-alikes' answer: softmax of their cosines over this
    anchor_weight: float = 1.0  # a built-in anchor cell's vote, against a player's choice
    players_printing: float = -0.08  # a photo is of the players' printing when its cells
    # look this much (mean cosine, see Adaptation.printings) more like the players' cells
    # than like the anchors; of the model's printing at this much or less:
    models_printing: float = -0.15
    printing_margin: float = 0.1  # ... and the other printing's look-alikes count this much
    # less alike (cosine) in that photo
    players_kernel_width: float = 0.4  # in a photo of the players' printing, their cells'
    # kernel_width
    anchors_gate: float = 0.01  # the look-alikes' trust falls by a sigmoid of (cosine to the
    # closest of the players' cells - to the closest anchor) over this: a cell more like an
    # anchor than like any player's cell is read by the model (0: no such gate) ...
    gate_sure: float = VisionConfig.low_confidence  # ... when the model reads it this surely
    # (not flagged for the player to check)
    accepted_weight: float = 0.3  # a cell of an accepted reading, against a player's choice
    similar: float = 0.95  # two cells look alike: the cosine of their centred features
    contradict_min: int = 3  # a label is doubtful when this many look-alikes say otherwise
    contradict_ratio: float = 3.0  # ... and they outnumber those that agree this much
    max_cells: int = 5000  # the most recent labelled cells used
    inks_min_cells: int = 16  # a printing's inks are learned from this many labelled cells
    # with their colours (a city), ...
    inks_min_buildings: int = 4  # ... of this many buildings at least
    inks_rounds: int = 3  # ... fitted so many times, ...
    inks_keep: float = 0.75  # ... each time on this share of the samples fitted best (a
    # duplex half or a printed tavern's own picture does not match its building's face)
    look_sure: float = 0.45  # a cell's picture is read as the players' building whose cells'
    # look most like it (look product, see vision.appearance) from this much, fully from ...
    look_sure_full: float = 0.7  # ... this much, ...
    look_margin: float = 0.08  # ... as it leads the closest of another building by this
    look_margin_full: float = 0.25  # ... up to this, ...
    look_strength: float = 0.95  # ... at most this share of the answer
    look_plain: float = 0.8  # a cell the model reads surely is read so too, in a photo of the
    # players' printing, when its picture is this much like one of their buildings' ...
    look_plain_margin: float = 0.3  # ... and leads the closest of another building by this
    icon_floor: float = 0.002  # a building's glyph weighs so (VisionConfig.icon_floor) in a
    # photo not plainly of the model's own printing
    badges_pick: bool = True  # of a reading as taken and one with its colours corrected, the
    # one the badges side with is kept (PhotoReader._badges_side)


DEFAULT = VisionConfig()
ADAPT = AdaptConfig()
