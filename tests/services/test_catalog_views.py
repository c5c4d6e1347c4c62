"""Catalog views are built once per catalog object, and a replaced catalog (a pack was
published) gets views of its own at once."""

from __future__ import annotations

from app.packs.catalog import Catalog
from app.services.catalog_views import per_catalog


def test_view_is_built_once_per_catalog_and_again_for_a_new_one() -> None:
    built: list[int] = []

    @per_catalog
    def count_packs(catalog: Catalog) -> int:
        built.append(id(catalog))
        return len(catalog.packs)

    serving = Catalog()
    assert [count_packs(serving), count_packs(serving)] == [0, 0]
    replaced = Catalog(packs={"p": object()})  # type: ignore[dict-item]
    assert count_packs(replaced) == 1
    assert built == [id(serving), id(replaced)]
