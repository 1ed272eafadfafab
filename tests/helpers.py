"""Small helpers shared by tests: cities from notation strings."""

from scorer.notation import parse_city


def city(text: str):
    """A City from notation rows separated by '/' or newlines, e.g. 'S S S S / ...'."""
    return parse_city(text.replace("/", "\n"))
