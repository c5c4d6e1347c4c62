"""Ordering items that are code lines: their nesting depth is read from the leading
whitespace whatever the indent unit, since the page draws depth instead of typing spaces."""

from __future__ import annotations

import pytest

from app.packs.schema import OrderItem
from app.web.templating import indent_levels


@pytest.mark.parametrize(
    ("texts", "levels"),
    [
        (["for x in xs:", "    y = f(x)", "        z = g(y)", "    h(y)"], [0, 1, 2, 1]),
        (["if a:", "  b()", "  if c:", "    d()"], [0, 1, 1, 2]),
        (["\tstep()", "loop:", "\t\tinner()"], [1, 0, 2]),
        (["    a()", "    b()"], [0, 0]),
    ],
)
def test_indent_levels_count_distinct_depths(texts: list[str], levels: list[int]) -> None:
    items = [OrderItem(id=f"i{n}", text=t) for n, t in enumerate(texts)]
    assert list(indent_levels(items).values()) == levels
