"""Review of heat71: inputs test_heat_rows does not draw, the rows' heat against the links'
by repr: no seed, one seed without a link, NaN, infinite and zero weights and seed values,
and a sparse graph past ``_APART_ENTRIES`` (stars apart joined as blocks) holding them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from credo.retrieval.lanes.heat import heat_over_links, heat_over_rows
from credo.store.graph import Link
from credo.store.warm_heat import heat_row
from tests.test_heat_rows import ABOVE, rows_of, touching

ODD = [math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324, 1e308]


def _compare(links: list[Link], seeds: dict[str, float]) -> None:
    rows = rows_of(links)
    for name in seeds:
        rows.setdefault(name, heat_row(name, []))
    want = heat_over_links(seeds, touching(links, seeds), above=ABOVE)
    got = heat_over_rows(seeds, rows, above=ABOVE)
    assert repr(got) == repr(want)


def test_no_seed_and_a_lone_seed() -> None:
    _compare([], {})
    _compare([], {"a": 1.0})
    _compare([Link("a", "a", "SUPPORTS", 0.5)], {"a": 1.0})  # (a self loop alone)


@pytest.mark.parametrize("weight", ODD)
@pytest.mark.parametrize("value", [1.0, 0.0, math.nan])  # (inf: numpy warns, base too)
def test_odd_weights_and_values_in_stars_apart_and_shared(weight: float, value: float) -> None:
    # 60 stars of 3 leaves (apart: past _APART_ENTRIES), and two seeds sharing a node
    links = [Link(f"s{i:02}", f"s{i:02}l{j}", "CITES", 0.5) for i in range(60) for j in range(3)]
    links[7] = links[7]._replace(weight=weight)
    links += [Link("x", "m", "SUPPORTS", weight), Link("y", "m", "CITES", 0.3)]
    links += [Link("x", "x", "RELATES_TO", weight)]
    seeds = {f"s{i:02}": 1.0 / (i + 1) for i in range(60)}
    seeds |= {"x": value, "y": 0.25, "s03": value}
    _compare(links, seeds)


def test_a_store_changed_between_warm_queries_answers_as_cold(tmp_path: Path) -> None:
    from credo import Memory

    path = tmp_path / "m.db"
    warm = Memory(path, root=tmp_path)
    ids = [warm.remember(f"note {i} about deploy staging cache", id=f"b{i:02d}") for i in range(30)]
    for i in range(0, 28, 2):
        warm.relate(ids[i], ids[i + 1], "SUPPORTS")
    assert warm.store.build_warm()
    queries = ["deploy staging", "cache note", "staging"]
    before = [repr(warm.retrieve(q, with_doc_anchors=True)) for q in queries]
    # changes between queries: a new edge, a new belief, a forget (self-edges are refused)
    warm.relate(ids[3], ids[7], "CITES")
    warm.remember("deploy staging runbook", id="new")
    warm.forget(ids[0])
    after = [repr(warm.retrieve(q, with_doc_anchors=True)) for q in queries]
    with Memory(path, root=tmp_path) as cold:
        assert after == [repr(cold.retrieve(q, with_doc_anchors=True)) for q in queries]
    assert after != before
    warm.close()
