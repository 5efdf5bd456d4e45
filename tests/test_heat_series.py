"""The heat series' steps (``lanes/heat._folded``): a ``bincount`` over signed entries gives
the floats of the reference's running subtraction (``subtract.reduceat``'s left fold, kept
here as the oracle), and the warm lane (gathered from heat rows) equals the cold one (built
from the links) on graphs of a query's size: stars of many leaves apart, shared nodes and
linked seeds, so every layout (whole blocks, computed segments, both) is taken."""

from __future__ import annotations

import numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.retrieval.lanes import heat
from credo.retrieval.lanes.heat import heat_kernel, heat_over_links, heat_over_rows
from credo.store.graph import Link
from credo.store.warm_heat import heat_row

from .test_heat_rows import rows_of

ABOVE = 1e-9  # (the pipeline's floor)
WEIGHTS = [-0.5, 0.0, 0.2, 0.3, 0.5, 1.0, 0.123456789, 1e-16, 3.0]


def _reduceat_series(
    at: numpy.ndarray, weights: numpy.ndarray, starts: numpy.ndarray, values: list[float], t: float
) -> numpy.ndarray:
    """The series as it was summed before ``bincount``: each segment's own entry at 1.0,
    then its neighbours', folded left by ``subtract.reduceat``; the terms added one by one."""
    term = numpy.array(values, dtype=numpy.float64)
    total = term.copy()
    for k in range(1, heat.TAYLOR_TERMS):
        term = (-t / k) * numpy.subtract.reduceat(weights * term[at], starts)
        total += term
    return numpy.where(total < 0.0, 0.0, total)


_segments = st.lists(
    st.lists(
        st.tuples(st.integers(0, 39), st.sampled_from([*WEIGHTS[2:], 0.7071067811865476])),
        max_size=12,
    ),
    min_size=1,
    max_size=40,
)
_values = st.lists(
    st.sampled_from([0.0, 1.0, 0.5, 1e-300, 0.123456789, 0.3333333333333333]), min_size=40
)


@settings(max_examples=300, deadline=None)
@given(segments=_segments, values=_values, t=st.sampled_from([0.5, 1.0, 1.5]))
def test_the_signed_bincount_gives_the_floats_of_the_left_fold(
    segments: list[list[tuple[int, float]]], values: list[float], t: float
) -> None:
    """Same bytes as the left fold for any segments, whatever their lengths, neighbours
    (repeated, or the node itself) and weights, zeros among the first values."""
    count = len(segments)
    at: list[int] = []
    signed: list[float] = []
    positive: list[float] = []
    owners: list[int] = []
    starts: list[int] = []
    for node, row in enumerate(segments):
        starts.append(len(at))
        at.append(node)
        signed.append(-1.0)
        positive.append(1.0)
        owners += [node] * (len(row) + 1)
        for other, weight in row:
            at.append(other % count)
            signed.append(weight)
            positive.append(weight)
    first = values[:count]
    want = _reduceat_series(numpy.array(at), numpy.array(positive), numpy.array(starts), first, t)
    got = heat._folded(
        numpy.array(at), numpy.array(signed), numpy.array(owners), first, t, heat.TAYLOR_TERMS
    )
    assert got.tobytes() == want.tobytes()


@st.composite
def _query_graphs(draw: st.DrawFn) -> tuple[list[Link], dict[str, float]]:
    """A query's graph: a few seeds, each a star of up to 30 leaves (enough entries to lay
    stars apart out as whole blocks), then a few links more among seeds and leaves (shared
    nodes, linked seeds, self-loops, parallel and non-positive edges)."""
    seeds = [f"s{i}" for i in range(draw(st.integers(1, 8)))]
    links: dict[tuple[str, str, str], Link] = {}
    for seed in seeds:
        for leaf in range(draw(st.integers(0, 30))):
            link = Link(seed, f"{seed}l{leaf:02}", "CITES", draw(st.sampled_from(WEIGHTS)))
            links[link.src, link.dst, link.type] = link
    ends = sorted({*seeds, *(x.dst for x in links.values())})
    for _ in range(draw(st.integers(0, 6))):
        src, dst = draw(st.sampled_from(ends)), draw(st.sampled_from(ends))
        kind = draw(st.sampled_from(["CITES", "SUPPORTS"]))
        links[src, dst, kind] = Link(src, dst, kind, draw(st.sampled_from(WEIGHTS)))
    scores = st.floats(0.0, 1.0, allow_subnormal=False)
    return list(links.values()), {s: draw(scores) for s in seeds}


@settings(max_examples=300, deadline=None)
@given(graph=_query_graphs(), t=st.sampled_from([0.5, 1.0]))
def test_warm_heat_equals_cold_heat_on_query_sized_graphs(
    graph: tuple[list[Link], dict[str, float]], t: float
) -> None:
    """Warm (the rows) == cold (the links, numpy's path) == the readable reference, by
    ``repr``, in the same key order."""
    links, seeds = graph
    rows = rows_of(links)
    for name in seeds:
        rows.setdefault(name, heat_row(name, []))
    hop = sorted(x for x in links if x.src in seeds or x.dst in seeds)
    cold = heat_over_links(seeds, hop, t=t, above=ABOVE)
    assert repr(heat_over_rows(seeds, rows, t=t, above=ABOVE)) == repr(cold)
    nodes = set(seeds) | {end for x in hop for end in (x.src, x.dst)}
    reference = heat_kernel(seeds, heat.adjacency(hop, nodes), t=t)
    assert repr(cold) == repr({k: v for k, v in reference.items() if v > ABOVE})


@settings(max_examples=200, deadline=None)
@given(graph=_query_graphs(), above=st.sampled_from([0.0, ABOVE, 0.5]))
def test_a_level_at_or_above_zero_keeps_what_the_clamped_series_keeps(
    graph: tuple[list[Link], dict[str, float]], above: float
) -> None:
    """The lane's paths keep the nodes hotter than ``above`` from the series unclamped
    (``_folded`` given a level at or above 0.0: there is no ``clamp`` argument): such a
    level keeps the same nodes and floats as the readable reference, whose heat is clamped
    at 0.0 first; without a level, the clamped floats (zeros included)."""
    links, seeds = graph
    rows = rows_of(links)
    for name in seeds:
        rows.setdefault(name, heat_row(name, []))
    hop = sorted(x for x in links if x.src in seeds or x.dst in seeds)
    nodes = set(seeds) | {end for x in hop for end in (x.src, x.dst)}
    reference = heat_kernel(seeds, heat.adjacency(hop, nodes))
    want = repr({k: v for k, v in reference.items() if v > above})
    assert repr(heat_over_links(seeds, hop, above=above)) == want
    assert repr(heat_over_rows(seeds, rows, above=above)) == want
    assert repr(heat_over_links(seeds, hop)) == repr(reference)


def test_a_series_of_one_term_or_none_is_the_first_values_as_the_plain_loop_gives() -> None:
    """Before (review75): ``_folded`` indexed the first of ``terms`` rows, so ``terms=0``
    raised IndexError where the plain loop (a process without numpy) gives the seeds."""
    links = [Link("a", "b", "RELATES", 1.0), Link("b", "c", "RELATES", 2.0)]
    seeds = {"a": 1.0, "c": 0.5}
    for terms in (0, 1):
        arrays = heat_over_links(seeds, links, terms=terms)  # (numpy is loaded: the arrays)
        assert arrays == {"a": 1.0, "b": 0.0, "c": 0.5}
