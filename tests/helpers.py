"""Small helpers shared by tests: cities from notation strings, corner errors in cells."""

import numpy as np

from scorer.notation import parse_city


def city(text: str):
    """A City from notation rows separated by '/' or newlines, e.g. 'S S S S / ...'."""
    return parse_city(text.replace("/", "\n"))


def corner_error(quad, corners) -> float:
    """The farthest corner of ``quad`` (4, 2) from the truth's, in either labelling, in cells."""
    quad, corners = np.asarray(quad), np.asarray(corners)
    cell = np.linalg.norm(corners[1] - corners[0]) / 4
    return min(np.linalg.norm(np.roll(quad, k, axis=0) - corners, axis=1).max()
               for k in range(4)) / cell
