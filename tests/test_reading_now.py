"""The photos each table is reading right now (web.reading_now)."""

import pytest

from web.reading_now import ReadingNow


def test_a_read_is_shown_while_it_lasts_even_when_it_fails():
    now = ReadingNow()
    with now.reading("t1"):
        with now.reading("t1", 2):
            assert [(r["what"], r["city"]) for r in now.of("t1")] == [
                ("the whole table", None), ("city 2", 2)]
            assert now.of("t2") == []
        assert [r["what"] for r in now.of("t1")] == ["the whole table"]
    assert now.of("t1") == []
    with pytest.raises(ValueError), now.reading("t1", 1):
        raise ValueError("no city in the photo")
    assert now.of("t1") == []
