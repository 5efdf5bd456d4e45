"""The cheaper truth step changes no result: on random truth graphs (chains, cycles, a belief
superseding itself, contradictions among candidates and far ends, resolved pairs, locked
beliefs at either end) and random rankings, ``currency.resolve`` says what the frozen copy of
the step before it says (tests/currency_reference.py), on a fresh graph and on a warm one;
and a retrieve through the store gives the same result with either, in both pack modes (the
pipeline reading the groups the step keeps aside, ``Currency.tails``, or the reference's
ranking with every group in it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo.retrieval import currency, pipeline
from credo.retrieval.bundle import Units
from credo.retrieval.rank import Scored, Weights
from credo.store.truth import TruthQueries
from tests import currency_reference as reference
from tests.test_currency_warm import _build, _fetch, _retrieve, stores

N = 12
KINDS = ("SUPERSEDES", "CONTRADICTS", "RESOLVES")


@st.composite
def cases(draw: st.DrawFn) -> dict[str, object]:
    ids = [f"b{i}" for i in range(N)]
    edge = st.tuples(st.sampled_from(ids), st.sampled_from(ids), st.sampled_from(KINDS))
    edges = draw(st.lists(edge, max_size=24))  # dense: groups join, chains and cycles form
    locked = draw(st.sets(st.sampled_from(ids), max_size=3))
    candidates = draw(st.lists(st.sampled_from(ids), unique=True, max_size=N))
    candidates = [i for i in candidates if i not in locked]
    scores = draw(st.lists(st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0]), min_size=N, max_size=N))
    ranked = [Scored(i, scores[int(i[1:])], {"bm25f": scores[int(i[1:])]}) for i in candidates]
    ranked.sort(key=lambda s: (-s.score, s.id))  # as rank.compose orders them
    return {
        "edges": sorted(set(edges)),
        "locked": frozenset(locked),
        "locks": draw(st.permutations(sorted(locked))),
        "ranked": ranked,
        "history": draw(st.booleans()),
        "still": draw(st.booleans()),
    }


def _canon(c: object) -> tuple[object, ...]:
    """What a Currency says (the standing and rows as mappings: only looked up)."""
    return (
        c.ranked,  # type: ignore[attr-defined]
        c.superseded,  # type: ignore[attr-defined]
        c.retired_locks,  # type: ignore[attr-defined]
        dict(c.standing),  # type: ignore[attr-defined]
        c.groups,  # type: ignore[attr-defined]
        dict(c.rows),  # type: ignore[attr-defined]
        c.brought,  # type: ignore[attr-defined]
    )


def _run(module: object, graph: object, case: dict[str, object]) -> tuple[object, ...]:
    ranked = list(case["ranked"])  # type: ignore[call-overload]
    rows = {s.id: (f"text {s.id}", 1.0 + int(s.id[1:]) % 4, 1.0, None, 0.0) for s in ranked}
    return _canon(
        module.resolve(  # type: ignore[attr-defined]
            ranked,
            rows,
            list(case["locks"]),  # type: ignore[call-overload]
            graph,
            weights=Weights(),
            include_superseded=case["history"],
        )
    )


@settings(max_examples=600, deadline=None)
@given(cases())
@example(  # a group of its own whose conflicts the links do not list by id
    {
        "edges": [("b2", "b5", "CONTRADICTS"), ("b5", "b1", "CONTRADICTS")],
        "locked": frozenset(),
        "locks": [],
        "ranked": [Scored("b5", 1.0, {"bm25f": 1.0}), Scored("b7", 0.5, {"bm25f": 0.5})],
        "history": False,
        "still": True,
    }
)
@example(  # a conflict two relevant beliefs bring, the better one with the greater id
    {
        "edges": [("b9", "b1", "CONTRADICTS"), ("b1", "b3", "CONTRADICTS")],
        "locked": frozenset(),
        "locks": [],
        "ranked": [Scored("b9", 1.0, {"bm25f": 1.0}), Scored("b3", 0.5, {"bm25f": 0.5})],
        "history": False,
        "still": True,
    }
)
def test_resolve_says_what_the_reference_says(case: dict[str, object]) -> None:
    fetch = _fetch(case["edges"], case["locked"], still=case["still"], reads=[])  # type: ignore[arg-type]
    want = _run(reference, reference.TruthGraph(fetch), case)
    graph = currency.TruthGraph(fetch)
    assert _run(currency, graph, case) == want
    assert _run(currency, graph, case) == want  # warm: what the graph kept changes nothing


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([f"b{i}" for i in range(N)]), unique=True),
    st.data(),
)
def test_units_fold_groups_as_before(ranked_ids: list[str], data: st.DataObject) -> None:
    """bundle.Units against the folding it replaced (disjoint groups in rank order)."""
    shuffled = data.draw(st.permutations(ranked_ids))
    cuts = data.draw(st.lists(st.integers(0, len(ranked_ids)), max_size=4))
    groups, start = [], 0
    for cut in sorted(cuts):
        if cut > start:
            groups.append(tuple(sorted(shuffled[start:cut], key=ranked_ids.index)))
            start = cut
    pairs = data.draw(
        st.lists(st.tuples(st.sampled_from(ranked_ids), st.sampled_from(ranked_ids)))
        if ranked_ids
        else st.just([])
    )
    leader = {m: g[0] for g in groups for m in g}
    units = Units(ranked_ids, groups)
    assert units.ids == [i for i in ranked_ids if leader.get(i, i) == i]
    assert units.members == {g[0]: g for g in groups}
    moved = [(leader.get(a, a), leader.get(b, b)) for a, b in pairs]
    got = units.pairs(pairs)
    # (an edge of a belief to itself may stay: the pack's union-find joins nothing by it)
    assert [(a, b) for a, b in got if a != b] == [(a, b) for a, b in moved if a != b]
    assert set(got) <= set(moved)
    want = [m for u in units.ids for m in units.members.get(u, (u,))]
    assert units.expand(units.ids) == want


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores())
@example(  # groups of their own with several others, one joined group, one that hides one
    {
        "supersedes": [(9, 6)],
        "contradicts": [(1, 0), (1, 3), (1, 6), (2, 4), (5, 4), (8, 9), (8, 0)],
        "resolves": [],
        "forgotten": {},
        "locked": set(),
        "clustering": True,
        "history": False,
        "budget": 100_000,
    }
)
@example(
    {
        "supersedes": [(9, 6)],
        "contradicts": [(1, 0), (1, 3), (7, 6), (2, 4), (5, 4), (8, 9)],
        "resolves": [],
        "forgotten": {},
        "locked": {3},
        "clustering": False,
        "history": True,
        "budget": 60,
    }
)
def test_a_retrieve_gives_what_the_reference_step_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: dict[str, object]
) -> None:
    """Through the store (SQL reads, forgotten and locked ends, history, any budget, both
    pack modes): the pipeline with the step as it is, then with the reference step."""
    _same_as_reference(tmp_path, monkeypatch, spec, long=False)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores())
@example(  # groups of their own with a long other (fails when those are not read as long)
    {
        "supersedes": [],
        "contradicts": [(2, 9), (1, 4), (1, 7), (6, 3)],
        "resolves": [],
        "forgotten": {},
        "locked": set(),
        "clustering": True,
        "history": False,
        "budget": 100_000,
    }
)
def test_a_retrieve_of_long_beliefs_gives_what_the_reference_step_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: dict[str, object]
) -> None:
    """The same with a third of the beliefs long: the compress stage cuts them, and reads
    what it needs of a group kept aside without its texts (``as_relevant``'s last two)."""
    _same_as_reference(tmp_path, monkeypatch, spec, long=True)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(stores(), st.booleans())
def test_a_retrieve_with_every_truth_edge_read_gives_what_the_reference_step_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: dict[str, object], long: bool
) -> None:
    """The same when the store reads every truth edge at its first batched read (a rule on
    the clock, ``_full_read_pays``, forced here): the pipeline then reads the whole truth
    graph at once (``TruthGraph.read_whole``) and walks the linked ids in order."""
    monkeypatch.setattr(TruthQueries, "_full_read_pays", lambda self, spent: True)
    _same_as_reference(tmp_path, monkeypatch, spec, long=long)


def _same_as_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: dict[str, object], *, long: bool
) -> None:
    # The ids the compress stage walks (the ranking with every group's others after its
    # leader, each once) are the same either way too: a result shows them only where the
    # stage reaches far enough.
    seen: list[list[str]] = []
    real = pipeline.verbatim_ids

    def verbatim_ids(ids: list[str], *args: object, **kwargs: object) -> object:
        seen.append(list(ids))
        return real(ids, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "verbatim_ids", verbatim_ids)
    with _build(tmp_path, spec, long) as memory:
        got = [_retrieve(memory, spec), _retrieve(memory, spec)]  # cold graph, then warm
    walked, seen[:] = seen[:], []

    def eager(*args: object, **kwargs: object) -> currency.Currency:
        """The reference step's result, every group in the ranking (no ``tails``)."""
        kwargs.pop("ids", None)  # (the ranked ids the pipeline passes: the reference reads them)
        kwargs.pop("order", None)  # (and the linked ones among them, in order)
        assert not kwargs.pop("twins", ())  # (no global lock here: no twin of one)
        kwargs.pop("in_place", None)  # (whether it may edit them: the reference copies)
        c = reference.resolve(*args, **kwargs)  # type: ignore[arg-type]
        fields = (c.superseded, c.retired_locks, c.standing, c.groups, c.rows, c.brought)
        # (which side disputes which: the pipeline shows a group's newer word first)
        graph = args[3]
        disputes = graph.disputes  # type: ignore[attr-defined]

        def among(ids: list[str]) -> object:  # (the edges among a group's members, read)
            graph.load(ids)  # type: ignore[attr-defined]
            return graph.disputes  # type: ignore[attr-defined]

        return currency.Currency(c.ranked, *fields, disputes=disputes, among=among)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(currency, "resolve_lazy", eager)
        patch.setattr(currency, "TruthGraph", reference.TruthGraph)
        with _build(tmp_path, spec, long) as memory:
            want = [_retrieve(memory, spec), _retrieve(memory, spec)]
    assert got == want
    assert walked == seen
