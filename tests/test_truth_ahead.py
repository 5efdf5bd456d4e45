"""The truth graph made whole at warm index read (retrieval/truth_ahead.py) changes no
result: on random stores (supersession chains, conflicts, resolutions, locks, forgotten
beliefs, both pack modes, history, any budget) a process whose graph was made ahead answers
what one that fills its graph query by query answers, and what a process without a warm
index answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval import truth_ahead
from credo.retrieval.known import Known
from credo.retrieval.truth_graph import TruthGraph
from tests.test_currency_warm import _SPEC, _build, stores

_QUERIES = ("deploy tool release note", "kitchen recipe onions", "detail about the release")


def _answers(memory: Memory, spec: dict[str, object]) -> list[object]:
    return [
        memory.retrieve(
            q,
            token_budget=spec["budget"],  # type: ignore[arg-type]
            use_intentional_clustering=spec["clustering"],  # type: ignore[arg-type]
            include_superseded=spec["history"],  # type: ignore[arg-type]
        )
        for q in _QUERIES
    ]


def _file(tmp: Path, spec: dict[str, object]) -> Path:
    db = tmp / "ahead.db"
    db.unlink(missing_ok=True)
    with _build(tmp, spec) as memory:
        memory.store.conn.execute("VACUUM INTO ?", (str(db),))
    return db


def _graph(memory: Memory) -> object:
    return memory.store.truth_reader().kept.get("graph")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores())
def test_a_graph_made_ahead_gives_what_queries_make(
    tmp_path: Path, spec: dict[str, object]
) -> None:
    db = _file(tmp_path, spec)
    with Memory(db, root=tmp_path) as memory:  # no warm index: read as queries meet them
        cold = _answers(memory, spec)
    with Memory(db, root=tmp_path) as memory:  # a warm index, the graph filled by queries
        assert memory.store.build_warm()
        kept = memory.store.truth_reader().kept
        made = kept.pop("graph", None)
        lazy = _answers(memory, spec)
        assert made is None or _graph(memory) is not made
    with Memory(db, root=tmp_path) as memory:  # the graph made at index read
        assert memory.store.build_warm()
        ahead = memory.store.warm_ahead()
        assert isinstance(ahead, Known)
        made = ahead.graph
        assert made is None or _graph(memory) is made
        warm = _answers(memory, spec)
        again = _answers(memory, spec)
    assert cold == lazy == warm == again


def test_every_unlocked_belief_in_dispute_is_worked_out_ahead(tmp_path: Path) -> None:
    """The graph made ahead has read every linked belief and holds what each unlocked one
    with a conflict brings (a lock is never relevant); the answers are those of a store
    read query by query."""
    db = _file(tmp_path, _SPEC)
    with Memory(db, root=tmp_path) as memory:
        want = _answers(memory, _SPEC)
    with Memory(db, root=tmp_path) as memory:
        assert memory.store.build_warm()
        graph = _graph(memory)
        assert isinstance(graph, TruthGraph)
        every = memory.store.truth_reader().every
        assert every is not None and graph.read == set(every)
        # (``linked_in_order`` probes ``linked`` for ``every`` once the graph is whole)
        assert graph.whole and graph.linked == set(every)
        assert graph.plain_ids  # (chosen ids: none derived, each shown whole)
        assert set(graph.relevant_known) == set(graph.against) - {"b2"}  # b2 is locked
        assert _answers(memory, _SPEC) == want


def test_past_max_ahead_the_queries_fill_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _file(tmp_path, _SPEC)
    with Memory(db, root=tmp_path) as memory:
        want = _answers(memory, _SPEC)
    monkeypatch.setattr(truth_ahead, "MAX_AHEAD", 2)
    with Memory(db, root=tmp_path) as memory:
        assert memory.store.build_warm()
        assert memory.store.warm_ahead().graph is None  # type: ignore[union-attr]
        assert _graph(memory) is None
        assert _answers(memory, _SPEC) == want
        assert isinstance(_graph(memory), TruthGraph)


# -- the step itself on bigger random graphs: made whole against filled as queries go ---------

B = 30


@st.composite
def disputes(draw: st.DrawFn) -> dict[str, object]:
    pairs = [(i, j) for i in range(B) for j in range(B) if i != j]
    return {
        "contradicts": draw(st.lists(st.sampled_from(pairs), unique=True, max_size=45)),
        "supersedes": draw(st.lists(st.sampled_from(pairs), unique=True, max_size=6)),
        "resolves": draw(st.lists(st.sampled_from(pairs), unique=True, max_size=4)),
        "locked": draw(st.sets(st.integers(0, B - 1), max_size=3)),
        "queries": draw(
            st.lists(st.lists(st.integers(0, B - 1), unique=True, max_size=20), max_size=4)
        ),
        "history": draw(st.booleans()),
    }


def _truth(spec: dict[str, object]) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """Every truth edge by belief and every end's (locked, row, still), as
    ``read_every_truth_edge`` gives them."""
    by_id: dict[str, list[tuple[str, str, str]]] = {}
    for kind in ("contradicts", "supersedes", "resolves"):
        for i, j in spec[kind]:  # type: ignore[attr-defined]
            edge = (f"b{i:02}", f"b{j:02}", kind.upper())
            by_id.setdefault(edge[0], []).append(edge)
            by_id.setdefault(edge[1], []).append(edge)
    links = {i: tuple(sorted(got)) for i, got in by_id.items()}
    moving = {i for i, got in links.items() if any(k == "SUPERSEDES" for _, _, k in got)}
    ends = {
        i: (int(i[1:]) in spec["locked"], _row(i), i not in moving)  # type: ignore[operator]
        for i in links
    }
    return links, ends


def _row(i: str) -> tuple[str, float, float, None, float]:
    n = int(i[1:])
    return (f"text {i}" + " long" * (50 if n % 5 == 0 else 0), 1.0 + n % 4, 1.0 + n % 3, None, 0.0)


@settings(max_examples=150, deadline=None)
@given(disputes())
def test_the_step_on_a_graph_made_whole_gives_what_a_filled_one_gives(
    spec: dict[str, object],
) -> None:
    """``resolve`` over a graph made whole gives, query after query, what a graph filled as
    queries meet the beliefs gives, field for field and in the same orders (joined groups,
    chains, locks and resolutions among thirty beliefs)."""
    from credo.retrieval import currency
    from credo.retrieval.rank import Scored, Weights
    from credo.store.truth import facts_of

    links, ends = _truth(spec)
    made = truth_ahead.graph_ahead(links, ends)
    lazy = TruthGraph(lambda ids: facts_of(links, ends, list(dict.fromkeys(ids))))
    locks = sorted(f"b{i:02}" for i in spec["locked"])  # type: ignore[attr-defined]
    for query in spec["queries"]:  # type: ignore[attr-defined]
        ids = [f"b{i:02}" for i in query if i not in spec["locked"]]  # type: ignore[operator]
        ranked = [Scored(i, 1.0 - n / 64, {"bm25f": 1.0 - n / 64}) for n, i in enumerate(ids)]
        rows = {i: _row(i) for i in ids}
        if made is not None:  # (the linked ones found in ``linked``, as in ``every``)
            assert made.linked_in_order(ids, links) == [i for i in ids if i in links]
        got = []
        for graph in (made, lazy):
            if graph is None:
                continue
            result = currency.resolve(
                ranked, rows, locks, graph, weights=Weights(), include_superseded=spec["history"]
            )
            got.append(
                (
                    result.ranked,
                    result.superseded,
                    result.retired_locks,
                    list(result.standing.items()),
                    result.groups,
                    list(result.rows.items()),
                    result.brought,
                )
            )
        assert all(g == got[-1] for g in got)


def test_a_graph_made_whole_knows_whether_a_linked_id_is_derived() -> None:
    """``plain_ids``: no linked belief's id is derived (the pipeline then sets the others
    of its groups aside shown whole without asking each); one derived id makes it False."""
    for ids, plain in ((("n1", "n2"), True), (("n1", "b" + "a" * 15), False)):
        edge = (ids[0], ids[1], "CONTRADICTS")
        links = {ids[0]: (edge,), ids[1]: (edge,)}
        ends = {i: (False, _row("b01"), True) for i in ids}
        made = truth_ahead.graph_ahead(links, ends)
        assert made is not None and made.plain_ids is plain
