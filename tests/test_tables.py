"""Table tops for training: every family renders, and the held-out ones are never drawn."""

import numpy as np
import pytest

pytest.importorskip("skimage", reason="photo table tops need the [train] extra")

from training import tables  # noqa: E402


@pytest.mark.parametrize("family", list(tables.FAMILIES))
def test_every_family_renders_a_table_top(family):
    top = tables.table_texture(60, 80, np.random.default_rng(1), family)
    assert top.shape == (60, 80, 3) and top.dtype == np.float32
    assert np.isfinite(top).all() and top.min() >= 0 and top.max() <= 255
    assert top.std() > 0.5  # a pattern, not a flat colour


def test_training_never_draws_a_held_out_family(monkeypatch):
    assert set(tables.HELD_OUT) <= set(tables.FAMILIES)

    def held_out(u, v, rng):
        raise AssertionError("training drew a held-out table family")

    for name in tables.HELD_OUT:
        monkeypatch.setitem(tables.FAMILIES, name, held_out)
    rng = np.random.default_rng(0)
    for _ in range(100):  # the default draw, as the renderer calls it
        tables.table_texture(32, 32, rng)
