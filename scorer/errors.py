"""The few ways the scorer refuses input; each carries a message meant for a player."""


class ScorerError(Exception):
    """Base of every error the CLI and the web app turn into a plain message."""


class NotationError(ScorerError):
    """A typed-in city that cannot be read (names the line and column)."""


class TableError(ScorerError):
    """Cities and players that do not make a table of this game."""


class ImageError(ScorerError):
    """A file that is not a readable image, or one too large to read."""


class DecodeBusy(ImageError):
    """The server's decoding budget stayed spent by other photos for too long."""


class GridNotFound(ScorerError):
    """No city could be found in a photo, or its reading is not plausible.

    ``photo`` is the decoded photo (a ``scorer.photo.Photo``), kept so that the player can
    tap the city's corners on it.
    """

    def __init__(self, message: str, photo=None):
        super().__init__(message)
        self.photo = photo


class ModelError(ScorerError):
    """The tile model is missing or does not match its metadata."""


class LearningRefused(ScorerError):
    """An update of what was learned from the players that would read the built-in cells
    worse than the shipped model (it is not used)."""
