"""The read path's optimised forms give exactly what their readable references give.

Warm ``retrieve`` latency (issue #3) is spent in a handful of places, and each was rewritten
for speed beside a reference that says what it computes: the heat kernel (rows grouped and
unrolled), composition (lane by lane), the cluster pack (for already-ranked candidates) and
the doc lane's checks that skip a pattern that cannot match. Every test here compares the
two, float for float and in order: a speed-up must never change a result. The store's reads
for the engine are in test_engine_reads.py, the token estimate in test_token_estimate.py.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from credo.retrieval.cluster import cluster_candidates, pack_ranked, pack_with_clusters
from credo.retrieval.lanes import doc
from credo.retrieval.lanes.heat import adjacency, heat_kernel, heat_over_links
from credo.retrieval.rank import (
    DEFAULT_WEIGHTS,
    ID,
    PARTS,
    SCORE,
    Scored,
    Weights,
    above_floor,
    as_scored,
    brought_along,
    compose,
    compose_reference,
    rescored,
    rounded,
)
from credo.store.fts import (
    STOPWORDS,
)
from credo.store.graph import Link
from credo.types import Edge, EdgeType

NAMES = [f"n{i}" for i in range(14)]

# -- heat kernel ---------------------------------------------------------------------------

_links = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.sampled_from([-0.5, 0.0, 0.2, 0.3, 0.5, 1.0, 0.123456789]),
    ),
    max_size=40,
).map(lambda rows: [Link(a, b, "SUPPORTS", w) for a, b, w in rows])
_seeds = st.dictionaries(st.sampled_from(NAMES), st.floats(0.0, 1.0), max_size=8)


@settings(max_examples=300, deadline=None)
@given(links=_links, seeds=_seeds, t=st.sampled_from([0.5, 1.0, 1.5]))
def test_heat_kernel_equals_reference(links: list[Link], seeds: dict[str, float], t: float) -> None:
    nodes = set(seeds) | {end for link in links for end in (link.src, link.dst)}
    adj = adjacency(links, nodes)
    want = heat_kernel(seeds, adj, t=t)
    assert heat_over_links(seeds, links, t=t) == want
    assert list(heat_over_links(seeds, links, t=t)) == list(want)  # same key order


@settings(max_examples=300, deadline=None)
@given(links=_links, seeds=_seeds, t=st.sampled_from([0.5, 1.0, 1.5]))
def test_heat_kernel_in_arrays_gives_the_same_floats(
    links: list[Link], seeds: dict[str, float], t: float
) -> None:
    """The whole-array Taylor series (a warm process's, numpy loaded) and the list one give
    the same floats, zeros' signs too, in the same key order."""
    import numpy  # noqa: F401  (heat_over_links takes the arrays' path once it is loaded)

    from credo.retrieval.lanes import heat

    nodes = set(seeds) | {end for link in links for end in (link.src, link.dst)}
    order = sorted(nodes)
    index = {n: i for i, n in enumerate(order)}
    rows: list[dict[int, float]] = [{} for _ in order]
    for link in links:
        if link.weight > 0:
            a, b = index[link.src], index[link.dst]
            rows[a][b] = rows[a].get(b, 0.0) + link.weight
            rows[b][a] = rows[b].get(a, 0.0) + link.weight
    want = heat._taylor(order, index, rows, seeds, t, heat.TAYLOR_TERMS)
    got = heat._taylor_arrays(order, index, rows, seeds, t, heat.TAYLOR_TERMS)
    assert repr(got) == repr(want)
    assert heat_over_links(seeds, links, t=t) == heat_kernel(seeds, adjacency(links, nodes), t=t)


def test_heat_kernel_in_arrays_folds_a_hub_in_order() -> None:
    """A hub's long row is subtracted neighbour by neighbour in the arrays' form too (a
    reordered sum would differ in the last bits)."""
    from credo.retrieval.lanes import heat

    links = [Link("hub", f"m{i:03d}", "CITES", 0.1 + (i * 0.618034) % 1) for i in range(600)]
    links += [Link(f"m{i:03d}", f"m{i + 1:03d}", "SUPPORTS", 0.3) for i in range(0, 600, 7)]
    seeds = {"hub": 1.0, "m007": 0.5, "m123": 0.25}
    order = sorted({"hub", *(f"m{i:03d}" for i in range(600))})
    index = {n: i for i, n in enumerate(order)}
    rows: list[dict[int, float]] = [{} for _ in order]
    for link in links:
        a, b = index[link.src], index[link.dst]
        rows[a][b] = rows[a].get(b, 0.0) + link.weight
        rows[b][a] = rows[b].get(a, 0.0) + link.weight
    want = heat._taylor(order, index, rows, seeds, 1.0, heat.TAYLOR_TERMS)
    assert repr(heat._taylor_arrays(order, index, rows, seeds, 1.0, heat.TAYLOR_TERMS)) == repr(
        want
    )


def test_heat_kernel_on_a_hub_and_seeds_outside_the_graph() -> None:
    links = [Link("hub", f"m{i:03d}", "CITES", 0.5) for i in range(300)]
    links += [Link(f"m{i:03d}", f"m{i + 1:03d}", "SUPPORTS", 1.0) for i in range(0, 300, 3)]
    seeds = {"hub": 1.0, "m007": 0.5}
    nodes = set(seeds) | {end for link in links for end in (link.src, link.dst)}
    adj = adjacency(links, nodes)
    assert heat_over_links(seeds, links) == heat_kernel(seeds, adj)
    # a seed the graph does not hold carries no heat
    assert heat_kernel({"elsewhere": 1.0}, adj) == dict.fromkeys(sorted(adj), 0.0)


# -- composition ---------------------------------------------------------------------------

_lane_scores = st.dictionaries(
    st.sampled_from(["bm25f", "heat", "bfs", "doc", "hrr", "session", "date"]),
    st.dictionaries(st.sampled_from(NAMES), st.floats(0.0, 30.0), max_size=12),
    max_size=7,
)


@settings(max_examples=300, deadline=None)
@given(
    lane_scores=_lane_scores,
    confidence=st.dictionaries(st.sampled_from(NAMES), st.floats(0.01, 0.99), max_size=14),
    floor=st.sampled_from([0.0, 0.03, 0.5]),
    history=st.sets(st.sampled_from(NAMES), max_size=5),
    factor=st.sampled_from([1.0, 0.85, 0.3]),
    tests=st.sets(st.sampled_from(NAMES), max_size=5),
    test_factor=st.sampled_from([1.0, 0.5]),
)
def test_compose_equals_reference(
    lane_scores: dict[str, dict[str, float]],
    confidence: dict[str, float],
    floor: float,
    history: set[str],
    factor: float,
    tests: set[str],
    test_factor: float,
) -> None:
    weights = Weights(floor=floor, history=factor, tests=test_factor)
    got = as_scored(compose(lane_scores, confidence, weights, history, tests))
    want = compose_reference(lane_scores, confidence, weights, history, tests)
    assert [(s.id, s.score, list(s.lanes.items())) for s in got] == [
        (s.id, s.score, list(s.lanes.items())) for s in want
    ]


@settings(max_examples=300, deadline=None)
@given(
    lane_scores=st.dictionaries(
        st.sampled_from(["bm25f", "heat", "bfs", "doc"]),
        st.dictionaries(
            st.sampled_from(NAMES),
            st.one_of(st.floats(allow_nan=True, allow_infinity=False), st.floats(0.0, 1e-300)),
            max_size=12,
        ),
        max_size=4,
    ),
    confidence=st.dictionaries(st.sampled_from(NAMES), st.floats(0.01, 0.99), max_size=14),
    floor=st.sampled_from([0.0, 0.03, 0.5, 1.0]),
)
# A lane whose first score is NaN: ``max`` kept the NaN as the best, and the NaN parts it
# made sorted differently in the two forms (a flake of the full suite, seen twice).
@example(
    lane_scores={"bm25f": {"n0": 1.0}, "heat": {"n0": math.nan, "n1": 1.0}},
    confidence={"n1": 0.5, "n0": 0.5},
    floor=0.0,
)
def test_compose_equals_reference_with_odd_scores(
    lane_scores: dict[str, dict[str, float]], confidence: dict[str, float], floor: float
) -> None:
    """NaN, negative, huge and tiny lane scores (a part is at most its weight, so the floor's
    fast way is taken; ``test_above_floor_is_the_filter`` takes the other). An infinite
    score makes a NaN part, and the two stable sorts then order as the reference's tuple
    key does not: not compared (as before this test)."""
    weights = Weights(floor=floor)
    got = as_scored(compose(lane_scores, confidence, weights))
    want = compose_reference(lane_scores, confidence, weights)
    assert repr([(s.id, s.score, list(s.lanes.items())) for s in got]) == repr(
        [(s.id, s.score, list(s.lanes.items())) for s in want]
    )


@settings(max_examples=400, deadline=None)
@given(
    data=st.data(),
    candidates=st.lists(st.sampled_from(NAMES), min_size=1, max_size=14, unique=True),
    lanes=st.lists(st.sampled_from(["bm25f", "heat", "bfs", "doc"]), max_size=4, unique=True),
    confidence=st.sampled_from([0.5, 0.3, 0.75]),
    posterior=st.sampled_from([0.05, 0.0, -0.0, -0.05]),
    weight=st.sampled_from([0.3, 1.0, 0.0, -0.0, 1e-300]),
    floor=st.sampled_from([0.0, 0.03]),
)
def test_compose_fast_paths_equal_reference(
    data: st.DataObject,
    candidates: list[str],
    lanes: list[str],
    confidence: float,
    posterior: float,
    weight: float,
    floor: float,
) -> None:
    """The C-level forms (a lane over candidates only, with finite scores above zero; one
    confidence for all and no part taken off) against the readable form: lanes drawn over
    the candidates, with zeros, tiny and huge scores and weights that make zero parts."""
    score = st.one_of(st.floats(1e-6, 30.0), st.sampled_from([0.0, 1e-300, 1e300, 5e-324]))
    lane_scores = {
        lane: data.draw(st.dictionaries(st.sampled_from(candidates), score, max_size=14))
        for lane in lanes
    }
    weights = Weights(lanes={**DEFAULT_WEIGHTS, "heat": weight}, posterior=posterior, floor=floor)
    conf = dict.fromkeys(sorted(candidates), confidence)
    got = as_scored(compose(lane_scores, conf, weights))
    want = compose_reference(lane_scores, conf, weights)
    assert repr([(s.id, s.score, list(s.lanes.items())) for s in got]) == repr(
        [(s.id, s.score, list(s.lanes.items())) for s in want]
    )


def test_a_ranking_is_what_its_type_says_plain_tuples_read_by_index() -> None:
    """``compose`` and the steps after it make ``Ranked`` (plain tuples: ``rank.Ranked``),
    read through ``ID``, ``SCORE`` and ``PARTS``; ``as_scored`` names the same tuples."""
    lanes = {"bm25f": {"a": 2.0, "b": 1.0}, "heat": {"b": 1.0}}
    ranked = compose(lanes, {"a": 0.5, "b": 0.5}, Weights())
    assert [type(s) for s in ranked] == [tuple, tuple]
    assert [(s[ID], s[SCORE]) for s in ranked] == [("a", 1.0), ("b", 0.8)]
    assert ranked[1][PARTS] == {"bm25f": 0.5, "heat": 0.3}
    moved, along = rescored(ranked[1], 1.5, "named"), brought_along("c", 0.8)
    assert type(moved) is tuple and type(along) is tuple
    assert moved == ("b", 1.5, {"bm25f": 0.5, "heat": 0.3, "named": 0.7})
    assert as_scored(ranked) == ranked
    assert [s.id for s in as_scored(ranked)] == ["a", "b"]


@settings(max_examples=400, deadline=None)
@given(
    data=st.data(),
    candidates=st.lists(st.sampled_from(NAMES), min_size=1, max_size=14, unique=True),
    lanes=st.lists(st.sampled_from(["bm25f", "heat", "bfs", "doc"]), max_size=4, unique=True),
    confidence=st.sampled_from([0.5, 0.3]),
    weight=st.sampled_from([0.3, 0.0, -0.0, -1.0]),
    history=st.sets(st.sampled_from(NAMES), max_size=3),
)
def test_compose_by_id_equals_reference(
    data: st.DataObject,
    candidates: list[str],
    lanes: list[str],
    confidence: float,
    weight: float,
    history: set[str],
) -> None:
    """Candidates given in id order (``by_id``: no sort by id), lanes with tied scores,
    +-0.0, negative ones and ones of no candidate (each lane's ends by a sort, not
    ``max`` and ``min``): the readable form's ranking, float for float."""
    score = st.one_of(
        st.sampled_from([0.0, -0.0, 1.0, 2.0, 5e-324, -1.0, 1e300]), st.floats(-5.0, 30.0)
    )
    names = st.sampled_from([*candidates, "elsewhere"])
    lane_scores = {lane: data.draw(st.dictionaries(names, score, max_size=14)) for lane in lanes}
    weights = Weights(lanes={**DEFAULT_WEIGHTS, "heat": weight}, history=0.85)
    conf = dict.fromkeys(sorted(candidates), confidence)
    got = as_scored(compose(lane_scores, conf, weights, history, by_id=True))
    want = compose_reference(lane_scores, conf, weights, history)
    assert repr([(s.id, s.score, list(s.lanes.items())) for s in got]) == repr(
        [(s.id, s.score, list(s.lanes.items())) for s in want]
    )


@settings(max_examples=500, deadline=None)
@given(
    scores=st.lists(
        st.one_of(st.sampled_from([0.0, -0.0, 0.3, 1.0, -1.0]), st.floats(allow_nan=True)),
        min_size=1,
        max_size=20,
    ),
    threshold=st.one_of(st.sampled_from([0.0, 0.3, 1.0]), st.floats(allow_nan=True)),
)
def test_above_floor_is_the_filter(scores: list[float], threshold: float) -> None:
    """What passes the floor, for a ranking sorted as compose sorts it (score desc, id asc)."""
    ranked = [Scored(f"b{i:02d}", v, {}) for i, v in enumerate(scores)]
    ranked.sort(key=lambda s: s.score, reverse=True)
    want = [s for s in ranked if s.score >= threshold and s.score > 0]
    assert above_floor(ranked, [s.score for s in ranked], threshold) == want


_scores = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-5.0, 5.0),
    # exact halves at the ninth place and their neighbours (ties go to ``round``)
    st.integers(-(2**40), 2**40).map(lambda n: n / 2**10),
    st.integers(0, 10**10).map(lambda n: (n + 0.5) / 1e9),
)


@settings(max_examples=500, deadline=None)
@given(values=st.lists(_scores, min_size=0, max_size=60))
def test_rounded_is_round_to_nine_places(values: list[float]) -> None:
    import numpy  # noqa: F401  (loaded: the whole-array form runs)

    assert repr(rounded(values)) == repr([round(v, 9) for v in values])


@settings(max_examples=500, deadline=None)
@given(
    values=st.lists(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.sampled_from([0.0, -0.0, 0.1, 0.2, 0.3, 1e16, -1e16, 5e-324]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_a_float_start_changes_no_sum(values: list[float]) -> None:
    """``compose`` sums each candidate's parts from 0.0, not ``sum``'s int 0 (cheaper): the
    same float, bit for bit, on 3.11's plain sum and 3.12+'s compensated one."""
    import struct

    got, want = sum(values, 0.0), sum(values)
    assert (got != got and want != want) or struct.pack("d", got) == struct.pack("d", want)


_small_scores = st.one_of(
    st.floats(-1e3, 1e3),
    st.sampled_from([0.0, -0.0, 999.9999999995, -999.9999999995, 1e3, -1e3, 5e-324]),
    # exact halves at the ninth place and their neighbours, all small: the fast form's
    # own check sends them to ``round``
    st.integers(-(2**20), 2**20).map(lambda n: n / 2**10),
    st.integers(0, 10**10).map(lambda n: (n + 0.5) / 1e9),
    st.integers(0, 10**10).map(lambda n: math.nextafter((n + 0.5) / 1e9, 1.0)),
)


@settings(max_examples=500, deadline=None)
@given(
    values=st.lists(_small_scores, min_size=16, max_size=60),
    odd=st.sampled_from([None, math.nan, math.inf, -math.inf, 1e300, 1000.5]),
)
def test_rounded_of_scores_is_round_without_warnings(
    values: list[float], odd: float | None
) -> None:
    """Scores within +-1e3 take the form without ``numpy.errstate`` (none of its steps can
    warn); one odd value sends the whole list to the guarded form. Either way ``round``'s
    floats, and no floating-point warning escapes (an error here)."""
    import warnings

    import numpy  # noqa: F401  (loaded: the whole-array form runs)

    if odd is not None:
        values = [*values[:7], odd, *values[7:]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = rounded(values)
    assert repr(got) == repr([round(v, 9) for v in values])


# -- the cluster pack for ranked candidates ------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(0, 14),
    scores=st.lists(st.sampled_from([0.1, 0.5, 0.5, 0.9, 1.0, 2.0]), min_size=14, max_size=14),
    costs=st.lists(st.integers(0, 40), min_size=14, max_size=14),
    pairs=st.lists(
        st.tuples(st.integers(0, 15), st.integers(0, 15), st.sampled_from([0.2, 0.4, 0.5, 1.0])),
        max_size=30,
    ),
    budget=st.integers(0, 200),
    target=st.integers(0, 5),
    fallback=st.booleans(),
    terms=st.none() | st.lists(st.sets(st.sampled_from("abcd")), min_size=14, max_size=14),
)
def test_pack_ranked_equals_cluster_then_pack(
    count: int,
    scores: list[float],
    costs: list[int],
    pairs: list[tuple[int, int, float]],
    budget: int,
    target: int,
    fallback: bool,
    terms: list[set[str]] | None,
) -> None:
    ids = NAMES[:count]
    score = dict(zip(ids, scores, strict=False))
    cost = dict(zip(ids, costs, strict=False))
    # the query terms each candidate shows (the aspect gate), or none given (the seed's pack)
    carried = None if terms is None else dict(zip(ids, map(frozenset, terms), strict=False))
    ranked = sorted(ids, key=lambda i: (-score[i], i))
    # edges may point outside the candidates (n14, n15), as the store's would not
    names = [*NAMES, "n14", "n15"]
    edges = [Edge(names[a], names[b], EdgeType.SUPPORTS, w) for a, b, w in pairs]
    want = pack_with_clusters(
        cluster_candidates(ranked, score, edges=edges, edge_weight_floor=0.4),
        candidate_scores=score,
        token_costs=cost,
        token_budget=budget,
        cluster_diversity_target=target,
        fallback_to_score=fallback,
        carried=carried,
    )

    def pack(pairs: list[tuple[str, str]]) -> object:
        return pack_ranked(
            ranked,
            pairs=pairs,
            token_costs=cost,
            token_budget=budget,
            cluster_diversity_target=target,
            fallback_to_score=fallback,
            carried=carried,
        )

    got = pack([(e.src, e.dst) for e in edges if e.weight >= 0.4])
    assert got == want
    # an edge of a candidate to itself joins nothing (bundle.Units.pairs may leave one in)
    assert got == pack([(e.src, e.dst) for e in edges if e.weight >= 0.4 and e.src != e.dst])


# -- the doc lane's mentions ---------------------------------------------------------------


def _mentions_reference(query: str) -> list[tuple[str, float]]:
    """`doc.mentions` without its checks that skip a pattern (every pattern always runs)."""
    found: dict[str, float] = {}
    for match in doc._url().finditer(query):
        found.setdefault(match.group(0).rstrip(".,;:"), 1.0)
    rest = doc._url().sub(" ", query)
    for match in doc._path().finditer(rest):
        token = match.group(1).strip(".")
        if not token:
            continue
        if "/" in token:
            found.setdefault(token.removeprefix("./"), 1.0)
        elif token.rsplit(".", 1)[-1].lower() in doc.FILE_EXTENSIONS:
            found.setdefault(token, 0.8)
        if len(found) >= doc.MAX_MENTIONS:
            break
    for match in doc._page().finditer(rest):
        stem = doc.page_stem(match)
        if stem not in STOPWORDS and stem not in doc._NOT_PAGES and len(found) < doc.MAX_MENTIONS:
            found.setdefault(doc.PAGE_PREFIX + stem, 0.6)
    for match in doc._conventional().finditer(rest):
        if len(found) < doc.MAX_MENTIONS:
            found.setdefault(doc.PAGE_PREFIX + match.group(1).lower(), 0.6)
    return list(found.items())


# Pieces that make each pattern match, and letters IGNORECASE matches outside ASCII.
_QUERY_PIECES = st.sampled_from(
    [
        "the",
        "deploy",
        "page",
        "PAGE",
        "docs",
        "Guide",
        "fıle",
        "file",
        "release_notes",
        "named",
        "ſetup",
        "chapter",
        "called",
        "docs/ops/",
        "a.md",
        "README",
        "Readme",
        "v1.2",
        "https://ex.io/a.",
        "HTTP://x",
        " ",
        ".",
        "/",
        "'",
        ":",
    ]
)


@given(query=st.lists(_QUERY_PIECES, max_size=8).map("".join) | st.text(max_size=30))
def test_mentions_equals_every_pattern_run(query: str) -> None:
    assert doc.mentions(query) == _mentions_reference(query)


def test_the_pipeline_gives_compose_its_candidates_in_id_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_rank`` passes ``by_id``: every call's candidates must then come in id order,
    whatever order the beliefs were told in (ids given out of order here)."""
    from credo import Memory
    from credo.retrieval import pipeline

    seen: list[list[str]] = []
    real = pipeline.compose

    def spy(lane_scores, confidence, weights, history=(), tests=(), inner=(), *, by_id=False):  # type: ignore[no-untyped-def]
        if by_id:
            seen.append(list(confidence))
        return real(lane_scores, confidence, weights, history, tests, inner, by_id=by_id)

    monkeypatch.setattr(pipeline, "compose", spy)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        for n, name in enumerate(["zeta", "alpha", "mid", "beta", "omega", "Alpha", "_x"]):
            memory.remember(f"the retry loop waits longer, note {n}", id=f"{name}{9 - n}")
        result = memory.retrieve("retry loop waits")
    assert seen and all(ids == sorted(ids) and len(ids) > 1 for ids in seen)
    assert len(result.beliefs) == 7
