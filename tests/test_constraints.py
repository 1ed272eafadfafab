"""Decoding the most likely legal city from cell probabilities."""

import numpy as np

from scorer.city import BUILDINGS
from scorer.duplex import DUPLEX_TILES
from scorer.vision.constraints import decode_city

INDEX = {b: i for i, b in enumerate(BUILDINGS)}


def probs_for(grid, sure=0.9):
    p = np.full((4, 4, 9), (1 - sure) / 8)
    for r in range(4):
        for c in range(4):
            p[r, c, INDEX[grid[r][c]]] = sure
    return p


def test_a_legal_reading_is_kept_and_its_duplex_tiles_found():
    grid = [["factory", "office", "shop", "shop"],  # factory|office: horizontal duplex tile
            ["house", "park", "park", "shop"],
            ["office", "shop", "house", "park"],  # house over office: vertical duplex tile
            ["park", "house", "office", "house"]]
    labels, duplex = decode_city(probs_for(grid))
    assert [[BUILDINGS[i] for i in row] for row in labels] == grid
    assert len(duplex) == 2


def test_an_unsure_cell_is_fixed_by_the_duplex_rule():
    grid = [["shop"] * 4 for _ in range(4)]
    grid[0][0], grid[0][1] = "tavern-food", "factory"  # h01
    grid[3][3] = "park"
    p = probs_for(grid)
    # The classifier hesitates on the factory half: slightly prefers "park", which makes no
    # duplex tile with any neighbour; the decoder must still place two real duplex tiles.
    p[0, 1] = 0.01
    p[0, 1, INDEX["park"]], p[0, 1, INDEX["factory"]] = 0.47, 0.45
    labels, duplex = decode_city(p)
    assert BUILDINGS[labels[0, 1]] == "factory"
    tiles = {DUPLEX_TILES[d["tile"]] for d in duplex}
    assert ("horizontal", "tavern-food", "factory") in tiles and len(tiles) == 2


def test_never_more_of_a_tavern_kind_than_the_game_has():
    grid = [["tavern-bed"] * 4 for _ in range(4)]
    labels, _ = decode_city(probs_for(grid))
    assert (labels == INDEX["tavern-bed"]).sum() <= 7
