"""The warm index (credo/store/warm.py) changes no result: on random stores, with random
queries and writes interleaved (new beliefs, edges, locks, forgets, another connection's
commits), a store answering from its warm index gives exactly the retrieve results of a store
answering from SQL, whether its index is current, stale or being read again; and the keeper
thread puts a new index in place after a write."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.store import truth as truth_module
from credo.store import warm as warm_module
from credo.store import warm_graph
from credo.store.anchors import read_anchors_for
from credo.store.short_ids import shortenable
from credo.store.warm import Keeper, read_index
from tests.lane_runs import cached_as_sql

# (words outside ASCII: the row table holds text as UTF-8; CJK, emoji and ß are read by
# the keyword index as bigrams and tokens of their own, store/index_text.py)
WORDS = (
    *("deploy", "staging", "cache", "token", "schema", "lock", "query", "graph", "café", "日本"),
    *(
        "データベースのバックアップ",
        "バックアップ",
        "数据库备份",
        "백업은",
        "pnpmを使って",
        "🚀",
        "Größe",
    ),
)
TYPES = ("SUPPORTS", "RELATES_TO", "CITES", "CONTRADICTS", "SUPERSEDES", "TEMPORAL_NEXT")

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
# One step: ("remember", text), ("relate", i, j, type, weight), ("lock", i), ("forget", i),
# ("unrelate", k): delete the k-th edge (as a re-ingest deletes an edge no file states),
# ("query", text, budget, clustering), ("warm",): read and install the index again.
steps = st.one_of(
    st.tuples(st.just("remember"), texts),
    st.tuples(
        st.just("relate"),
        st.integers(0, 30),
        st.integers(0, 30),
        st.sampled_from(TYPES),
        st.sampled_from([None, 0.2, 0.9, 1.5]),
    ),
    st.tuples(st.just("lock"), st.integers(0, 30)),
    st.tuples(st.just("forget"), st.integers(0, 30)),
    st.tuples(st.just("unrelate"), st.integers(0, 60)),
    st.tuples(st.just("query"), texts, st.sampled_from([60, 400, 2400]), st.booleans()),
    st.tuples(st.just("warm")),
)


_PREPARED = warm_module.PREPARED  # (a test sets it to -1: nothing made at index read)
# (and this to -1: the truth edges never read all at once, but laid out at index read and
# read a batch at a time, as a large store's are)
_FULL_READ = truth_module.MAX_FULL_READ_SECONDS

# Random stores are slow to build, and each example makes its own folder.
STORES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _apply(memory: Memory, ids: list[str], step: tuple[object, ...]) -> None:
    """A write through the public API; one the API refuses (a cycle, a lock) is skipped."""
    from credo.errors import CredoError

    kind = step[0]
    try:
        if kind == "remember":
            # Every third belief in no session: the row table codes sessions. Origins and
            # kinds vary: ``stated`` (from the row table when warm) tells them apart.
            n = len(ids)
            session = (None, "s-a", "s-b")[n % 3]
            origin = ("user_stated", "agent_inferred", "user_corrected", "agent_inferred")[n % 4]
            kind = "correction" if n % 5 == 1 else "factual"
            ids.append(
                memory.remember(
                    str(step[1]), id=f"b{n:02d}", session=session, origin=origin, kind=kind
                )
            )
        elif kind == "relate" and ids:
            src, dst = ids[int(step[1]) % len(ids)], ids[int(step[2]) % len(ids)]  # type: ignore[call-overload]
            if src != dst:
                memory.relate(src, dst, str(step[3]), step[4])  # type: ignore[arg-type]
        elif kind == "lock" and ids:
            memory.lock(ids[int(step[1]) % len(ids)])  # type: ignore[call-overload]
        elif kind == "forget" and ids:
            memory.forget(ids[int(step[1]) % len(ids)])  # type: ignore[call-overload]
        elif kind == "unrelate":
            edges = list(memory.store.iter_edges())
            if edges:
                edge = edges[int(step[1]) % len(edges)]  # type: ignore[call-overload]
                with memory.store.transaction():
                    memory.store.delete_edge(edge.src, edge.dst, edge.type)
    except CredoError:
        pass


@STORES
@given(
    first=st.lists(texts, min_size=2, max_size=25),
    edges=st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 30), st.sampled_from(TYPES)), max_size=40
    ),
    script=st.lists(steps, min_size=1, max_size=25),
    other_writer=st.booleans(),
    prepared=st.booleans(),
)
def test_warm_reads_give_the_results_of_sql_reads(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[str],
    edges: list[tuple[int, int, str]],
    script: list[tuple[object, ...]],
    other_writer: bool,
    prepared: bool,
) -> None:
    """``prepared``: every belief's links and rows made at index read, every truth edge read
    (a small store's index), or made as queries meet the beliefs, the truth edges laid out
    (``WarmGraph.hold_truth``) and read a batch at a time (a large one's)."""
    kept = warm_module.PREPARED
    warm_module.PREPARED = kept if prepared else -1
    truth_module.MAX_FULL_READ_SECONDS = _FULL_READ if prepared else -1.0
    try:
        _warm_equals_cold(tmp_path_factory, first, edges, script, other_writer)
    finally:
        warm_module.PREPARED = kept
        truth_module.MAX_FULL_READ_SECONDS = _FULL_READ


def _warm_equals_cold(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[str],
    edges: list[tuple[int, int, str]],
    script: list[tuple[object, ...]],
    other_writer: bool,
) -> None:
    folder = tmp_path_factory.mktemp("warm")
    db = folder / "m.db"
    ids: list[str] = []
    with Memory(db, root=folder) as writer:
        for text in first:
            _apply(writer, ids, ("remember", text))
        for src, dst, kind in edges:
            _apply(writer, ids, ("relate", src, dst, kind, None))
        warm = Memory(db, root=folder)
        cold = Memory(db, root=folder)
        try:
            assert warm.store.build_warm()
            for step in script:
                if step[0] == "query":
                    text, budget, clustering = step[1], step[2], step[3]
                    options = {
                        "token_budget": budget,
                        "use_intentional_clustering": clustering,
                        "with_doc_anchors": True,
                    }
                    got = warm.retrieve(str(text), **options)  # type: ignore[arg-type]
                    assert got == cold.retrieve(str(text), **options)  # type: ignore[arg-type]
                elif step[0] == "warm":
                    warm.store.build_warm()
                    assert warm.store.warm
                else:
                    # Another connection's commit, or the warm store's own write.
                    _apply(writer if other_writer else warm, ids, step)
        finally:
            warm.close()
            cold.close()


@STORES
@given(
    first=st.lists(texts, min_size=2, max_size=25),
    edges=st.lists(
        st.tuples(
            st.integers(0, 30),
            st.integers(0, 30),
            st.sampled_from(TYPES),
            st.sampled_from([None, -0.5, 0.2, 0.9, 1.5]),
        ),
        max_size=60,
    ),
    changes=st.lists(steps, max_size=6),
    asks=st.lists(
        st.tuples(
            st.lists(st.integers(0, 30), max_size=8),
            st.sampled_from([-1, 0, 1, 3, 600]),
            st.sampled_from([-1.0, 0.0, 0.5, 1.0]),
        ),
        min_size=1,
        max_size=10,
    ),
    prepared=st.booleans(),
)
def test_each_warm_read_returns_the_rows_of_its_sql(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    first: list[str],
    edges: list[tuple[int, int, str, float | None]],
    changes: list[tuple[object, ...]],
    asks: list[tuple[list[int], int, float]],
    prepared: bool,
) -> None:
    """Read by read, in order (lists and dicts item by item), hub cuts included;
    ``prepared``: a small store's index (links, rows and far ends made at read: ``pairs_among``
    then answers from the far ends) or a large one's (the arrays)."""
    monkeypatch.setattr(warm_module, "PREPARED", _PREPARED if prepared else -1)
    monkeypatch.setattr(truth_module, "MAX_FULL_READ_SECONDS", _FULL_READ if prepared else -1.0)
    folder = tmp_path_factory.mktemp("reads")
    db = folder / "m.db"
    ids: list[str] = []
    with Memory(db, root=folder) as writer:
        for text in first:
            _apply(writer, ids, ("remember", text))
        for src, dst, kind, weight in edges:
            _apply(writer, ids, ("relate", src, dst, kind, weight))
        for step in changes:
            if step[0] not in ("query", "warm"):
                _apply(writer, ids, step)
        with Memory(db, root=folder) as warm, Memory(db, root=folder) as cold:
            assert warm.store.build_warm()
            index = warm.store._warm
            assert index is not None and (index.graph._far is not None) == prepared
            alive = {
                row[0]
                for row in cold.store.conn.execute(
                    "SELECT id FROM beliefs WHERE deleted_at IS NULL"
                )
            }
            for picks, limit, floor in asks:
                asked = [ids[i % len(ids)] for i in picks] + ["nobody"]
                got = warm.store.links_with_ends(asked, limit=limit)
                want = cold.store.links_with_ends(asked, limit=limit)
                assert got[0] == want[0] and list(got[1].items()) == list(want[1].items())
                got_pairs = warm.store.pairs_among(asked, min_weight=floor)
                assert got_pairs == cold.store.pairs_among(asked, min_weight=floor)
                assert warm.store.live_unlocked(asked) == cold.store.live_unlocked(asked)
                assert warm.store.stated(asked) == cold.store.stated(asked)
                assert warm.store.retention(asked) == cold.store.retention(asked)
                assert warm.store.trails(asked) == cold.store.trails(asked)
                derived = [i for i in asked if shortenable(i)]
                shared = warm.store.sharing_short_prefix(derived)
                assert shared == cold.store.sharing_short_prefix(derived)
                # truth_links reads live ids (its contract): a forgotten one's links would
                # depend on whether the version's every truth edge was read yet, a timed rule
                live = [i for i in asked if i in alive]
                got_truth = warm.store.truth_links(live)
                want_truth = cold.store.truth_links(live)
                assert got_truth[:3] == want_truth[:3]
                assert [list(part) for part in got_truth[:3]] == [list(p) for p in want_truth[:3]]
                # "still" (no SUPERSEDES edge): a batched SQL read answers a safe "no" for an
                # end whose SUPERSEDES edges all reach forgotten beliefs; the warm index read
                # every truth edge ahead (store/truth.py), so it knows such an end is still
                assert want_truth[3] <= got_truth[3]
                for end in got_truth[3] - want_truth[3]:
                    assert not _live_supersedes(cold, end)
            assert warm.store.warm


def _store(tmp_path: Path) -> Memory:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    a = memory.remember("deploy staging with kamal", id="a")
    b = memory.remember("staging servers run the cache", id="b")
    memory.remember("tokens are counted by the budget", id="c")
    memory.relate(a, b, "SUPPORTS")
    return memory


def test_a_cache_that_starts_over_still_answers_every_id_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    ids = [
        memory.remember("deploy staging with kamal", id="b0a1b2c3d4e5f60"),
        memory.remember("deploy staging on weekdays", id="b0a1b2c3d4ffff0"),
        memory.remember("the cache runs on staging"),
    ]
    assert memory.store.build_warm()
    monkeypatch.setattr(warm_module, "MAX_CACHED", 2)
    assert memory.store.sharing_short_prefix(ids[:2]) == set(ids[:2])
    assert memory.store.sharing_short_prefix(ids) == set(ids[:2])  # past the cap: read again
    with Memory(tmp_path / "m.db", root=tmp_path) as cold:
        assert memory.store.stated(ids) == cold.store.stated(ids) == set(ids)  # remembered
    assert memory.store.warm
    memory.close()


def test_a_small_index_makes_every_belief_s_links_and_rows_at_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small store's index holds every live belief's links and rows once read (what a
    first meeting would make), the values those reads give; past ``PREPARED`` none."""
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        ids = [memory.remember(f"belief {i} about deploy") for i in range(6)]
        memory.relate(ids[0], ids[1], "SUPPORTS")
        memory.relate(ids[2], ids[0], "CITES")
        memory.forget(ids[5])
        plan = memory.store.warm_plan()
        assert plan is not None
        index = read_index(plan)
        graph = index.graph
        live = graph.rids(ids[:5])
        assert sorted(graph._out_links) == sorted(graph._into_links) == sorted(live)
        made = {rid: (graph._out_links[rid], graph._into_links[rid]) for rid in live}
        graph._out_links.clear()
        graph._into_links.clear()
        assert {r: (graph._linked(True, [r])[0], graph._linked(False, [r])[0]) for r in live} == (
            made
        )
        assert set(index._rows) == set(ids[:5])
        assert index._rows == index._held_rows(ids[:5])
        monkeypatch.setattr(warm_module, "PREPARED", 5)
        small = read_index(plan)
        assert not small.graph._out_links and not small._rows


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edges=st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(TYPES)), max_size=25
    ),
    forgotten=st.sets(st.integers(0, 7), max_size=3),
)
def test_a_prepared_store_ranks_each_edge_by_its_key(
    tmp_path_factory: pytest.TempPathFactory,
    edges: list[tuple[int, int, str]],
    forgotten: set[int],
) -> None:
    """Each edge's rank on both directions' slices is its place among all edges (forgotten
    ends too) sorted by (src, dst, type): ``links_with_ends`` sorts by it."""
    folder = tmp_path_factory.mktemp("ranks")
    with Memory(folder / "m.db", root=folder) as memory:
        ids = [memory.remember(f"belief {i} about deploy") for i in range(8)]
        for a, b, kind in edges:
            if a != b:
                memory.store.conn.execute(
                    "INSERT OR IGNORE INTO edges (src, dst, type, weight, created_at) "
                    "VALUES (?, ?, ?, 1.0, 0.0)",
                    (ids[a], ids[b], kind),
                )
        memory.store.conn.commit()
        for i in forgotten:
            memory.forget(ids[i])
        plan = memory.store.warm_plan()
        assert plan is not None
        graph = read_index(plan).graph
        keys = sorted(memory.store.conn.execute("SELECT src, dst, type FROM edges").fetchall())
        names, kinds = graph.id_table[1], graph._kinds
        for out, slices in ((True, graph._out), (False, graph._into)):
            assert slices.rank is not None
            for rid in range(graph.size):
                low, high = int(slices.start[rid]), int(slices.start[rid + 1])
                for at in range(low, high):
                    near, far = names[rid], names[int(slices.other[at])]
                    key = (near, far) if out else (far, near)
                    assert keys[int(slices.rank[at])] == (*key, kinds[int(slices.kind[at])])


def test_a_write_lets_the_index_go_and_sql_answers(tmp_path: Path) -> None:
    memory = _store(tmp_path)
    assert memory.store.build_warm() and memory.store.warm
    before = memory.retrieve("staging deploy")
    memory.remember("deploy staging on fridays never", id="d")
    assert not memory.store.warm  # the write moved the store: the index is stale
    after = memory.retrieve("staging deploy")
    assert "d" in [b.id for b in after.beliefs] and after != before
    assert memory.store.build_warm() and memory.retrieve("staging deploy") == after
    memory.close()


def test_an_index_read_before_a_commit_is_never_installed(tmp_path: Path) -> None:
    memory = _store(tmp_path)
    plan = memory.store.warm_plan()
    assert plan is not None
    other = Memory(tmp_path / "m.db", root=tmp_path)
    other.remember("the cache is flushed at deploy", id="e")  # commits after the plan
    other.close()
    index = read_index(plan)
    assert not memory.store.install_warm(index) and not memory.store.warm
    assert "e" in [b.id for b in memory.retrieve("cache deploy").beliefs]
    memory.close()


def test_a_store_in_memory_has_no_warm_index() -> None:
    with Memory(":memory:") as memory:
        memory.remember("deploy staging")
        assert memory.store.warm_plan() is None and not memory.store.build_warm()


def test_inside_a_transaction_sql_answers(tmp_path: Path) -> None:
    memory = _store(tmp_path)
    assert memory.store.build_warm()
    with memory.store.transaction():
        assert not memory.store.warm
        assert memory.store.warm_plan() is None
    assert memory.store.warm  # nothing was written: the index still holds
    memory.close()


def _data_version_reads(memory: Memory) -> list[str]:
    """Every ``PRAGMA data_version`` the store's connection runs from now on."""
    statements: list[str] = []
    memory.store.conn.set_trace_callback(statements.append)
    return statements


def test_a_warm_retrieve_reads_the_store_version_once(tmp_path: Path) -> None:
    """One ``PRAGMA data_version`` a retrieve (``one_version``), the HRR switch included;
    another process's commit before a retrieve is still seen by it."""
    memory = _store(tmp_path)
    assert memory.store.build_warm()
    memory.retrieve("staging deploy")  # (first meetings: what a query reads once)
    statements = _data_version_reads(memory)
    first = memory.retrieve("staging deploy")
    assert statements == ["PRAGMA data_version"]
    other = Memory(tmp_path / "m.db", root=tmp_path)
    other.remember("deploy staging on fridays never", id="d")
    other.close()
    after = memory.retrieve("staging deploy")
    assert "d" in [b.id for b in after.beliefs] and after != first
    assert not memory.store.warm  # the commit was seen: the index let go
    memory.close()


def test_a_commit_inside_one_retrieve_is_seen_by_the_next(tmp_path: Path) -> None:
    """Inside one scope the warm index answers as of the version the scope read, though a
    commit landed mid-query; the next scope sees the commit."""
    memory = _store(tmp_path)
    assert memory.store.build_warm()
    with memory.store.one_version():
        other = Memory(tmp_path / "m.db", root=tmp_path)
        other.remember("deploy staging on fridays never", id="d")
        other.close()
        assert memory.store.warm  # (the version read at the scope's start)
        with memory.store.one_version():  # re-entrant: the outer read holds
            assert memory.store.warm
    assert not memory.store.warm
    assert "d" in [b.id for b in memory.retrieve("staging deploy").beliefs]
    memory.close()


def test_this_connection_s_write_inside_a_scope_moves_the_version(tmp_path: Path) -> None:
    memory = _store(tmp_path)
    assert memory.store.build_warm()
    with memory.store.one_version():
        assert memory.store.warm and memory.store.meta_get("hrr_dim") is None
        memory.enable_hrr(16)
        assert not memory.store.warm  # its own write: total_changes moved
        assert memory.store.meta_get("hrr_dim") == "16"
    memory.close()


def _wait(predicate: object, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


def test_the_keeper_reads_the_index_again_after_a_write(tmp_path: Path) -> None:
    memory = _store(tmp_path)
    lock = threading.Lock()
    said: list[str] = []
    keeper = Keeper(lock, lambda: memory.store, said.append, retry_seconds=0.01)
    try:
        keeper.poke()
        assert _wait(lambda: keeper.installed == 1)
        with lock:
            assert memory.store.warm
            memory.remember("budget tokens for the hook", id="f")
            assert not memory.store.warm
        keeper.poke()
        assert _wait(lambda: keeper.installed == 2)
        with lock:
            assert memory.store.warm
            assert "f" in [b.id for b in memory.retrieve("budget tokens").beliefs]
    finally:
        keeper.stop()
        memory.close()
    assert len(said) == 2 and all(line.startswith("warm index of ") for line in said)


def test_the_keeper_says_why_it_could_not_read(tmp_path: Path) -> None:
    class Broken:  # a store whose file is gone by the time the keeper reads it
        path = str(tmp_path / "gone.db")
        warm = False

        def warm_plan(self) -> object:
            from credo.store.warm import WarmPlan

            return WarmPlan(self.path, (0, 0), None)

    errors: list[str] = []
    keeper = Keeper(threading.Lock(), lambda: Broken(), errors.append)  # type: ignore[arg-type, return-value]
    try:
        keeper.poke()
        assert _wait(lambda: bool(errors))
    finally:
        keeper.stop()
    assert errors[0].startswith("no warm index: ") and "gone.db" in errors[0]


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("kept", [warm_graph.MAX_SEEN, 2])
def test_truth_links_from_the_warm_graph_are_those_of_sql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: int, whole: bool
) -> None:
    """Locked far ends, forgotten ones (out of play, yet still an edge for ``_STILL``),
    RESOLVES, and edges into the asked beliefs as well as out of them; with the beliefs'
    edges kept as usual, and with that memo starting over at every other belief; every
    truth edge read at index read (``whole``), or laid out and read as asked."""
    monkeypatch.setattr(warm_graph, "MAX_SEEN", kept)
    if not whole:
        monkeypatch.setattr(truth_module, "MAX_FULL_READ_SECONDS", -1.0)
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as writer:
        for name in "abcdefgh":
            writer.remember(f"deploy note {name}", id=name)
        writer.relate("b", "a", "SUPERSEDES")
        writer.relate("c", "d", "CONTRADICTS")
        writer.relate("e", "d", "CONTRADICTS")
        writer.relate("e", "d", "RESOLVES")
        writer.relate("f", "g", "SUPERSEDES")
        writer.relate("h", "c", "CONTRADICTS")
        writer.relate("h", "a", "SUPPORTS")
        writer.relate("g", "h", "CONTRADICTS")
        writer.lock("d")
        writer.forget("g")
    with Memory(db, root=tmp_path) as warm, Memory(db, root=tmp_path) as cold:
        assert warm.store.build_warm()
        for asked in (["c", "e"], ["a", "b", "h"], ["f"], ["h", "nobody"], list("abcdefgh")):
            # truth_links is asked for live ids (its contract): a forgotten one's links (g's)
            # differ between the per-id read and the full read a timed rule picks under load
            live = [i for i in asked if i != "g"]
            got, want = warm.store.truth_links(live), cold.store.truth_links(live)
            assert got == want and [list(p) for p in got] == [list(p) for p in want]
            for limit in (-1, 2):
                got_links = warm.store.links_with_ends(asked, limit=limit)
                want_links = cold.store.links_with_ends(asked, limit=limit)
                assert got_links[0] == want_links[0]
                assert list(got_links[1].items()) == list(want_links[1].items())
            floor = {"min_weight": 0.0}
            assert warm.store.pairs_among(asked, **floor) == cold.store.pairs_among(asked, **floor)
        assert warm.store.warm


@pytest.mark.parametrize("laid_out", [True, False])
@pytest.mark.parametrize("table", [True, False])
def test_an_end_deleted_after_the_version_check_leaves_its_link_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: bool, laid_out: bool
) -> None:
    """Another connection hard-forgets a far end between the warm index's version check and
    its row read. Rows read from SQL (those the row table lacks): the link is left out, as
    the SQL statement's join leaves it out. Rows from the table: the answer is the checked
    version's, the link with it. Either way the truth edges are read: laid out at index
    read (``WarmGraph.hold_truth``, a large store's way) or gathered."""
    from credo.store.truth import _KINDS, SUPERSEDES

    if laid_out:
        monkeypatch.setattr(truth_module, "MAX_FULL_READ_SECONDS", -1.0)

    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        memory.remember("deploy note a", id="a")
        memory.remember("deploy note b", id="b")
        memory.remember("deploy note c", id="c")
        memory.relate("a", "b", "CONTRADICTS")
        memory.relate("a", "c", "CONTRADICTS")
        assert memory.store.build_warm()
        index = memory.store._warm
        assert index is not None
        if not table:  # (and none made at index read: read from SQL when asked)
            index.table = None
            index._rows.clear()
        with Memory(db, root=tmp_path) as other:
            other.forget("b", hard=True)
        assert (index.graph._truth is not None) == laid_out
        found, ends = index.truth_links_of(memory.store.conn, ["a"], _KINDS, SUPERSEDES)
        expected = [("a", "b"), ("a", "c")] if table else [("a", "c")]
        assert [(src, dst) for src, dst, _ in found["a"]] == expected
        assert sorted(ends) == [dst for _, dst in expected]


def test_the_row_table_holds_the_rows_sql_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every rowid's row from the table equals the SQL read's, across text buffers (a span of
    4 rowids here), with forgotten and missing rowids None and sessions kept."""
    from credo.store import warm_rows

    monkeypatch.setattr(warm_rows, "SPAN", 4)
    db = tmp_path / "m.db"
    with Memory(db, root=tmp_path) as memory:
        for n in range(11):
            session = None if n % 3 else f"s{n % 2}"
            origin = "agent_inferred" if n % 2 else "user_stated"
            kind = "correction" if n % 4 == 1 else "note"
            text = f"note {n} café 日本 {'x' * n}"
            memory.remember(text, id=f"n{n}", session=session, origin=origin, kind=kind)
        memory.forget("n4", hard=True)
        memory.forget("n7")
        conn = memory.store.conn
        size = conn.execute("SELECT max(rid) + 2 FROM beliefs").fetchone()[0]
        table = warm_rows.WarmRows(conn, size)
        rids = list(range(size))
        want: dict[int, tuple[object, ...]] = {
            row[0]: tuple(row[1:])
            for row in conn.execute(
                "SELECT rid, content, alpha, beta, session, created_at FROM beliefs "
                "WHERE deleted_at IS NULL"
            )
        }
        got = table.rows(rids)
        assert got == [want.get(rid) for rid in rids]
        assert sum(row is None for row in got) >= 3  # the gap, the forgotten, one past the end
        assert table.rows(rids[::-1]) == got[::-1]
        assert table.rows([]) == []
        # ``stated`` of each live rowid as GraphQueries.stated's SQL tells it, None elsewhere
        said = {
            row[0]
            for row in conn.execute(
                "SELECT rid FROM beliefs WHERE deleted_at IS NULL "
                "AND (origin IN ('user_stated', 'user_corrected') OR kind = 'correction')"
            )
        }
        flags = table.stated(rids)
        assert flags == [None if rid not in want else rid in said for rid in rids]
        assert True in flags and False in flags


def _live_supersedes(memory: Memory, belief: str) -> bool:
    """Whether ``belief`` has a SUPERSEDES edge, either way, to a live belief."""
    return (
        memory.store.conn.execute(
            "SELECT 1 FROM edges AS e JOIN beliefs AS b ON b.id = "
            "CASE WHEN e.src = ?1 THEN e.dst ELSE e.src END "
            "WHERE (e.src = ?1 OR e.dst = ?1) AND e.type = 'SUPERSEDES' "
            "AND b.deleted_at IS NULL LIMIT 1",
            (belief,),
        ).fetchone()
        is not None
    )


def test_the_warm_index_answers_document_anchors_as_sql_does(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "deploy.md").write_text(
        "# Deploy\n\nWe deploy with Kamal to staging.\n\n## Rollback\n\nKamal rolls back.\n"
    )
    (docs / "cache.md").write_text("# Cache\n\nThe cache holds staging servers' pages.\n")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(docs)
        memory.remember("a note without a document", id="note")
        store = memory.store
        query = "how do we deploy and roll back staging"
        found = memory.retrieve(query, with_doc_anchors=True)  # (from SQL)
        _, cold = cached_as_sql(memory, store.anchors_for, "belief_documents")
        assert len(cold) >= 3 and "note" not in cold
        assert found.doc_anchors and memory.retrieve(query, with_doc_anchors=True) == found
        with Memory(tmp_path / "m.db", root=tmp_path) as other:  # (a write of anchors alone)
            other.link("note", "docs/deploy.md", lines=(1, 3))
        assert store.anchors_for(["note"]) == read_anchors_for(store.conn, ["note"])
        assert store.anchors_for(["note"])["note"][0].doc_uri.endswith("deploy.md#L1-L3")
