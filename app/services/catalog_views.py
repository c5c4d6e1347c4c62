"""Views of the question catalog that are the same for every learner, built once per catalog.

A page such as home lists packs and topics that depend only on the catalog, yet building them
on every request cost a good part of the page. The catalog is replaced (not changed) when a
pack is published, so a view is kept per catalog object and a new catalog gets new views.
Nothing here may depend on who is asking: learners' data is never cached.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

from app.packs.catalog import Catalog

T = TypeVar("T")
KEEP = 4  # catalogs whose views are kept: the serving one and a few just replaced


def per_catalog(build: Callable[[Catalog], T]) -> Callable[[Catalog], T]:
    """Decorate `build(catalog)` to run once per catalog object."""
    kept: dict[int, tuple[Catalog, T]] = {}
    lock = threading.Lock()

    @functools.wraps(build)
    def view(catalog: Catalog) -> T:
        found = kept.get(id(catalog))
        if found is not None and found[0] is catalog:  # the same object, not a reused id
            return found[1]
        value = build(catalog)
        with lock:
            if len(kept) >= KEEP:
                kept.clear()
            kept[id(catalog)] = (catalog, value)
        return value

    return view
