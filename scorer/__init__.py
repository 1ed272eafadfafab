"""Score Between Two Cities from typed-in cities or photos.

The rules (``city``, ``rules``, ``table``, ``notation``) use only the standard library;
image reading lives in ``scorer.vision`` and is imported only where photos are read.
"""

from .city import BUILDINGS, City, SortedCity
from .errors import ScorerError
from .table import Table, score_table

__all__ = ["BUILDINGS", "City", "ScorerError", "SortedCity", "Table", "score_table"]
