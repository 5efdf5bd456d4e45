"""The warm graph's links of a belief (``WarmGraph._linked``), made one belief at a time from
memoryviews or for many at once as whole arrays, are the same values; and the graph hop
answers as SQL does whichever way they were made, and when their memo starts over. The row
table's rows, read one by one or as arrays, likewise."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest

from credo import Memory
from credo.store import warm_graph, warm_truth

TYPES = ("SUPPORTS", "RELATES_TO", "CITES", "CONTRADICTS", "SUPERSEDES")


def _random_store(folder: Path, seed: int) -> tuple[Memory, list[str]]:
    """60 beliefs, ~150 edges, some ends locked or forgotten."""
    from credo.errors import CredoError

    rng = random.Random(seed)
    memory = Memory(folder / "m.db", root=folder)
    ids = [memory.remember(f"belief {i} about deploy", id=f"b{i:02d}") for i in range(60)]
    for _ in range(150):
        src, dst = rng.sample(ids, 2)
        with contextlib.suppress(CredoError):
            memory.relate(src, dst, rng.choice(TYPES), rng.choice([None, 0.2, 0.9]))
    for belief in rng.sample(ids, 6):
        memory.lock(belief)
    for belief in rng.sample(ids, 6):
        with contextlib.suppress(CredoError):
            memory.forget(belief)
    return memory, ids


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_links_made_one_by_one_are_those_made_as_arrays(tmp_path: Path, seed: int) -> None:
    memory, _ids = _random_store(tmp_path, seed)
    assert memory.store.build_warm()
    graph = memory.store._warm.graph
    rng = random.Random(seed)
    for _ in range(30):
        rids = rng.sample(range(graph.size), rng.randint(1, 40))
        for out in (True, False):
            each: dict[int, tuple[object, ...]] = {}
            gathered: dict[int, tuple[object, ...]] = {}
            graph._links_each(out, rids, each)
            graph._links_gathered(out, rids, gathered)
            assert each == gathered
            assert [type(link[0]) for row in each.values() for link in row] == [
                type(link[0]) for row in gathered.values() for link in row
            ]
    memory.close()


@pytest.mark.parametrize(("few", "kept"), [(0, 50_000), (1_000, 50_000), (20, 3), (0, 3)])
def test_the_hop_answers_as_sql_however_its_links_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, few: int, kept: int
) -> None:
    monkeypatch.setattr(warm_graph, "FEW_BELIEFS", few)
    monkeypatch.setattr(warm_graph, "MAX_LINKED", kept)
    memory, ids = _random_store(tmp_path, 7)
    assert memory.store.build_warm()
    rng = random.Random(7)
    with Memory(tmp_path / "m.db", root=tmp_path) as cold:
        for _ in range(40):
            asked = rng.sample(ids, rng.randint(1, 30))
            limit = rng.choice([-1, 5, 600])
            got = memory.store.links_with_ends(asked, limit=limit)
            want = cold.store.links_with_ends(asked, limit=limit)
            assert got[0] == want[0]
            assert list(got[1].items()) == list(want[1].items())
    assert memory.store.warm
    memory.close()


@pytest.mark.parametrize("seed", [4, 5])
def test_a_prepared_stores_ends_come_from_its_row_cache_as_sql_gives_them(
    tmp_path: Path, seed: int
) -> None:
    # A prepared index holds every live row: the hop's ends (a locked one None) are read
    # from that cache, no row is read for them, and the answer is SQL's; a cache that
    # started over (a row lost) falls back to reading the rows.
    memory, ids = _random_store(tmp_path, seed)
    assert memory.store.build_warm()
    warm = memory.store._warm
    graph = warm.graph
    assert graph._far is not None and graph._locked  # (prepared; some ends locked)

    def no_read(wanted: list[str]) -> list[object]:
        raise AssertionError(f"rows read for {wanted}")

    def read(wanted: list[str]) -> list[object]:
        return warm.row_list(memory.store.conn, wanted)

    rng = random.Random(seed)
    met_locked = False
    with Memory(tmp_path / "m.db", root=tmp_path) as cold:
        for _ in range(40):
            asked = rng.sample(ids, rng.randint(1, 30))
            limit = rng.choice([-1, 5, 600])
            want = cold.store.links_with_ends(asked, limit=limit)
            got = graph.links_with_ends(asked, limit, no_read, warm.cached_rows)
            assert got[0] == want[0]
            assert list(got[1].items()) == list(want[1].items())
            met_locked |= None in got[1].values()
        assert met_locked
        warm.cached_rows.clear()  # type: ignore[attr-defined]
        asked = rng.sample(ids, 30)
        got = graph.links_with_ends(asked, -1, read, warm.cached_rows)
        want = cold.store.links_with_ends(asked, limit=-1)
        assert got[0] == want[0] and list(got[1].items()) == list(want[1].items())
    memory.close()


def test_rows_read_one_by_one_are_those_read_as_arrays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row table's few-rows path (memoryviews) and its arrays give the same rows, None
    for a forgotten belief's rowid, across sessions and none."""
    from credo.store import warm_rows

    memory, _ids = _random_store(tmp_path, 5)
    memory.remember("a belief in a session", id="s1", session="s-a")
    assert memory.store.build_warm()
    table = memory.store._warm.table
    rng = random.Random(5)
    for _ in range(20):
        rids = [rng.randrange(table._live.size) for _ in range(rng.randint(1, 50))]
        monkeypatch.setattr(warm_rows, "FEW_ROWS", 0)
        by_arrays = table.rows(rids)
        monkeypatch.setattr(warm_rows, "FEW_ROWS", 1_000)
        assert table.rows(rids) == by_arrays
        assert None in by_arrays or len(rids) < 10
    memory.close()


def test_edges_read_one_by_one_are_those_read_as_arrays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``WarmGraph._edges_of`` (what truth links read) gives the same edges for a few beliefs
    one by one as for many in one numpy pass; so does ``names``."""
    memory, _ids = _random_store(tmp_path, 9)
    assert memory.store.build_warm()
    graph = memory.store._warm.graph
    rng = random.Random(9)
    for _ in range(20):
        rids = rng.sample(range(graph.size), rng.randint(1, 15))
        for slices in (graph._out, graph._into):
            monkeypatch.setattr(warm_graph, "FEW_BELIEFS", 0)
            by_arrays = graph._edges_of(slices, {}, rids)
            monkeypatch.setattr(warm_graph, "FEW_BELIEFS", 1_000)
            assert graph._edges_of(slices, {}, rids) == by_arrays
        want = [(graph._ids[r], int(graph._state[r] == warm_graph.LOCKED)) for r in rids]
        assert graph.names(rids) == want
    memory.close()


def test_truth_links_of_many_beliefs_are_those_of_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``WarmGraph.truth_links`` for many beliefs (filtered as whole arrays) lists what the
    walk belief by belief lists, in its order: out-edges then in-edges, forgotten ends out;
    and so does the read of them laid out flat (``WarmGraph.hold_truth``)."""
    memory, ids = _random_store(tmp_path, 11)
    assert memory.store.build_warm()
    graph = memory.store._warm.graph
    rng = random.Random(11)
    kind_sets = [
        frozenset({"CONTRADICTS", "SUPERSEDES"}),
        frozenset({"SUPPORTS"}),
        frozenset({"NOTHING"}),
        frozenset(TYPES),
    ]
    for _ in range(20):
        asked = rng.sample(ids, rng.randint(1, 60))
        for kinds in kind_sets:
            monkeypatch.setattr(warm_graph, "FEW_BELIEFS", 0)
            gathered = graph.truth_links(asked, kinds)
            monkeypatch.setattr(warm_graph, "FEW_BELIEFS", 1_000)
            assert graph.truth_links(asked, kinds) == gathered
            graph.hold_truth(kinds)  # (laid out flat: truth_links unchanged, truth_found reads it)
            for few in (0, 1_000):
                monkeypatch.setattr(warm_truth, "FEW_ASKED", few)
                assert graph.truth_links(asked, kinds) == gathered
                # (and as the truth memo keeps them: links by asked id, each end's rowid)
                found, fars = graph.truth_found(asked, kinds)  # type: ignore[misc]
                by_asked: dict[str, list[tuple[str, str, str]]] = {}
                for me, src, dst, kind, _far in gathered:
                    by_asked.setdefault(me, []).append((src, dst, kind))
                assert found == by_asked
                assert fars == {far: graph.rids([far])[0] for *_, far in gathered}
            graph._truth = None
    memory.close()
