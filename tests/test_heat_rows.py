"""The heat lane gathered from per-version heat rows (store/warm_heat.py,
``lanes/heat.heat_over_rows``) gives exactly what it gives built from the seeds' links
(``heat_over_links``): the same floats by ``repr``, in the same key order, on random graphs
with parallel edges, self-loops, non-positive weights, shared neighbours and linked seeds,
and on a warm store's own rows against its SQL links."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.lanes import heat
from credo.retrieval.lanes.heat import heat_over_links, heat_over_rows
from credo.store.graph import Link
from credo.store.warm_heat import HeatRow, heat_row

NAMES = [f"n{i}" for i in range(12)]
MANY = [f"m{i:02}" for i in range(40)]  # (sparse graphs: many stars apart)
TYPES = ["CITES", "RELATES_TO", "SUPPORTS"]
WEIGHTS = [-0.5, 0.0, 0.2, 0.3, 0.5, 1.0, 0.123456789, 1e-16, 3.0]
ABOVE = 1e-9  # (the pipeline's floor)


def rows_of(links: list[Link]) -> dict[str, HeatRow]:
    """Every end's heat row from ``links`` (unique by key), as ``WarmGraph.prepare`` makes
    them: each belief's links with their far end and their rank in (src, dst, type) order,
    a self-loop once."""
    ordered = sorted(links)
    rank = {link: i for i, link in enumerate(ordered)}
    ends = sorted({end for link in links for end in (link.src, link.dst)})
    rows = {}
    for name in ends:
        mine = [(x, x.dst, 1, rank[x]) for x in ordered if x.src == name]
        mine += [(x, x.src, 1, rank[x]) for x in ordered if x.dst == name and x.src != name]
        rows[name] = heat_row(name, mine)
    return rows


def touching(links: list[Link], seeds: dict[str, float]) -> list[Link]:
    """The seeds' one hop, in key order (``links_with_ends`` uncut)."""
    return sorted(x for x in links if x.src in seeds or x.dst in seeds)


def _unique(rows: list[tuple[str, str, str, float]]) -> list[Link]:
    return list({(a, b, kind): Link(a, b, kind, w) for a, b, kind, w in rows}.values())


_links = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.sampled_from(TYPES),
        st.sampled_from(WEIGHTS),
    ),
    max_size=50,
).map(_unique)
_seeds = st.dictionaries(
    st.sampled_from(NAMES), st.floats(0.0, 1.0, allow_subnormal=False), min_size=1, max_size=8
)


@settings(max_examples=500, deadline=None)
@given(links=_links, seeds=_seeds, t=st.sampled_from([0.5, 1.0, 1.5]))
def test_gathered_heat_gives_the_floats_of_the_links(
    links: list[Link], seeds: dict[str, float], t: float
) -> None:
    import numpy  # noqa: F401  (heat_over_links's arrays path: a warm process's)

    rows = rows_of(links)
    for name in seeds:  # (a seed without a link has a row too in a warm store)
        rows.setdefault(name, heat_row(name, []))
    want = heat_over_links(seeds, touching(links, seeds), t=t, above=ABOVE)
    got = heat_over_rows(seeds, rows, t=t, above=ABOVE)
    assert repr(got) == repr(want)


def test_a_shared_node_s_degree_is_summed_in_the_order_its_links_come() -> None:
    """``m`` meets three seeds; its links by key come b, c, then a (``(m, a)`` sorts after
    ``(c, m)``), and the sum in that order differs in the last bit from the sum by name
    (where ``sum`` adds in order: Python 3.11)."""
    links = [Link("m", "a", "CITES", 0.2), Link("b", "m", "CITES", 1e-16)]
    links += [Link("c", "m", "CITES", 0.1)]
    seeds = {"a": 1.0, "b": 0.5, "c": 0.25}
    assert (1e-16 + 0.1) + 0.2 != (0.2 + 1e-16) + 0.1
    want = heat_over_links(seeds, touching(links, seeds), above=ABOVE)
    assert repr(heat_over_rows(seeds, rows_of(links), above=ABOVE)) == repr(want)
    # (the rows' ranks are what orders the sum: ranked by the seeds' ids instead, it moves;
    # from Python 3.12 ``sum`` adds with compensation, and both orders give one float)
    by_name = {
        n: row._replace(ranks=(None, *(ord(n) for _ in row.members[1:])))
        for n, row in rows_of(links).items()
    }
    moved = repr(heat_over_rows(seeds, by_name, above=ABOVE)) != repr(want)
    assert moved == (sum([1e-16, 0.1, 0.2]) != sum([0.2, 1e-16, 0.1]))


def test_a_seed_without_a_row_asks_for_the_links() -> None:
    rows = rows_of([Link("a", "b", "CITES", 0.5)])
    assert heat_over_rows({"a": 1.0, "elsewhere": 1.0}, rows, above=ABOVE) is None


def test_a_self_loop_and_linked_seeds_are_laid_out_as_the_links_say() -> None:
    links = [Link("a", "a", "SUPPORTS", 0.5), Link("a", "b", "CITES", 0.3)]
    links += [Link("b", "a", "SUPPORTS", 1.0), Link("b", "c", "CITES", 0.2)]
    links += [Link("c", "d", "CITES", 0.7), Link("a", "d", "CONTRADICTS", -0.5)]
    for seeds in ({"a": 1.0}, {"a": 1.0, "b": 0.4}, {"b": 1.0, "d": 0.3}, {"d": 1.0}):
        want = heat_over_links(seeds, touching(links, seeds), above=ABOVE)
        assert repr(heat_over_rows(seeds, rows_of(links), above=ABOVE)) == repr(want)


def test_a_warm_store_s_heat_rows_are_those_of_its_links(tmp_path: Path) -> None:
    """A prepared warm index's heat rows give, for any seeds, the heat of the links SQL
    reads; the pipeline's heat lane takes them (no link is built into a row)."""
    import numpy  # noqa: F401

    memory = Memory(tmp_path / "m.db", root=tmp_path)
    ids = [memory.remember(f"note {i} about deploy staging", id=f"b{i:02d}") for i in range(12)]
    pairs = [(0, 1), (1, 2), (2, 0), (3, 0), (3, 1), (3, 2), (4, 5), (6, 0), (7, 3), (8, 9)]
    for n, (src, dst) in enumerate(pairs):
        memory.relate(ids[src], ids[dst], ("SUPPORTS", "RELATES_TO", "CONTRADICTS")[n % 3])
    memory.relate(ids[1], ids[0], "CITES")  # (a second edge between two beliefs)
    memory.forget(ids[9])
    cold = {i: memory.store.links_touching([i], limit=-1) for i in ids}
    assert memory.store.heat_rows() is None  # (no warm index yet)
    assert memory.store.build_warm()
    rows = memory.store.heat_rows()
    assert rows is not None and set(rows) == set(ids[:9] + ids[10:])
    for group in ([0], [0, 3], [0, 1, 2, 3], [4, 6, 7], [8], list(range(12))):
        seeds = {ids[i]: 1.0 / (1 + i) for i in group if i != 9}
        links = sorted({x for i in seeds for x in cold[i]})
        want = heat_over_links(seeds, links, above=ABOVE)
        assert repr(heat_over_rows(seeds, rows, above=ABOVE)) == repr(want)
    built: list[object] = []
    laid = heat._series
    try:  # (the warm retrieve lays the lane out from the rows)
        heat._series = lambda *args: built.append(args) or laid(*args)  # type: ignore[assignment]
        memory.retrieve("deploy staging")
    finally:
        heat._series = laid  # type: ignore[assignment]
    assert built
    memory.close()


def test_a_store_past_prepared_holds_no_heat_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``PREPARED`` (a large store) the index makes no heat row, and the lane builds
    its graph from the links as before."""
    from credo.store import warm as warm_module

    monkeypatch.setattr(warm_module, "PREPARED", -1)
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    a = memory.remember("deploy staging notes", id="a")
    memory.relate(a, memory.remember("staging cache notes", id="b"), "SUPPORTS")
    assert memory.store.build_warm() and memory.store.heat_rows() is None
    assert "b" in memory.retrieve("deploy").ids
    memory.close()


@pytest.mark.parametrize(
    ("hops", "cap", "asks"),
    [
        (1, 600, True),  # one hop read whole: the seeds' rows are their whole rows
        (1, 2, False),  # the hop was cut at the read's limit: its rows would hold more
        (2, 600, False),  # two hops: the far nodes' links are not in the rows
    ],
)
def test_the_rows_are_asked_for_only_when_one_hop_is_read_whole(
    hops: int, cap: int, asks: bool
) -> None:
    links = [Link("a", "b", "CITES", 0.5), Link("a", "c", "CITES", 0.25)]
    asked: list[bool] = []

    def rows() -> dict[str, HeatRow]:
        asked.append(True)
        return rows_of(links)

    split = [links] if hops == 1 else [links[:1], links[1:]]
    found = heat.heat_lane({"a": 1.0}, split, rows, cap=cap, t=heat.DEFAULT_T, above=ABOVE)
    assert bool(asked) == asks
    assert repr(found) == repr(heat_over_links({"a": 1.0}, links, above=ABOVE))


@settings(max_examples=200, deadline=None)
@given(links=_links)
def test_a_row_s_packed_block_holds_its_block_and_its_segments(links: list[Link]) -> None:
    """``HeatRow.packed``, ``offsets`` and ``rows`` (what ``_leaves_only`` joins) are the
    block's floats (each segment's own 1.0 signed -1.0), each entry's node and each entry's
    segment: the belief's segment (itself, then its neighbours), then a leaf's (itself,
    then the belief)."""
    from struct import unpack

    for name, row in rows_of(links).items():
        size = len(row.members) - 1
        entries = len(row.block)
        assert entries == 3 * size + 1
        own = {0, *range(size + 1, entries, 2)}  # (where each segment starts)
        signed = [-x if at in own else x for at, x in enumerate(row.block)]
        assert list(unpack(f"{entries}d", row.packed)) == signed
        want = [0, *range(1, size + 1)]
        segments = [0] * (size + 1)
        for leaf in range(1, size + 1):
            want += [leaf, 0]
            segments += [leaf, leaf]
        assert list(unpack(f"{entries}q", row.offsets)) == want, name
        assert list(unpack(f"{entries}q", row.rows)) == segments


_sparse_links = st.lists(
    st.tuples(
        st.sampled_from(MANY),
        st.sampled_from(MANY),
        st.sampled_from(TYPES),
        st.sampled_from(WEIGHTS),
    ),
    max_size=40,
).map(_unique)


@settings(max_examples=400, deadline=None)
@given(
    links=_sparse_links,
    seeds=st.dictionaries(
        st.sampled_from(MANY), st.floats(0.0, 1.0, allow_subnormal=False), min_size=2, max_size=12
    ),
)
def test_stars_apart_beside_shared_nodes_give_the_floats_of_the_links(
    links: list[Link], seeds: dict[str, float]
) -> None:
    """Sparse graphs: most queries mix seeds whose rows meet no node twice (laid out as
    whole blocks) with seeds that share a node or hold one another (``_shared``)."""
    import numpy  # noqa: F401

    rows = rows_of(links)
    for name in seeds:
        rows.setdefault(name, heat_row(name, []))
    want = heat_over_links(seeds, touching(links, seeds), above=ABOVE)
    for least in (0, heat._APART_ENTRIES):  # (0: every star apart is laid out as a block)
        with patch.object(heat, "_APART_ENTRIES", least):
            assert repr(heat_over_rows(seeds, rows, above=ABOVE)) == repr(want)


def test_a_star_apart_and_two_seeds_sharing_a_node() -> None:
    """One seed's star apart, two seeds sharing a neighbour, a seed in another's row."""
    import numpy  # noqa: F401

    links = [
        Link("a", "x1", "CITES", 0.5),
        Link("a", "x2", "CITES", 0.3),
        Link("b", "s", "CITES", 1.0),
        Link("c", "s", "RELATES_TO", 0.2),
        Link("c", "d", "CITES", 0.7),
        Link("d", "y", "CITES", 0.123456789),
    ]
    seeds = {"a": 1.0, "b": 0.5, "c": 0.25, "d": 0.75}
    rows = rows_of(links)
    want = heat_over_links(seeds, touching(links, seeds), above=ABOVE)
    assert set(want) == {"a", "b", "c", "d", "s", "x1", "x2", "y"}
    for least in (0, heat._APART_ENTRIES):
        with patch.object(heat, "_APART_ENTRIES", least):
            assert repr(heat_over_rows(seeds, rows, above=ABOVE)) == repr(want)
