"""The read path's optimised forms give exactly what their readable references give.

Warm ``retrieve`` latency (issue #3) is spent in a handful of places, and each was rewritten
for speed beside a reference that says what it computes: the keyword query (rank the index
alone, join only the best rows), the heat kernel (rows grouped and unrolled), composition
(lane by lane), the cluster pack (for already-ranked candidates), the graph reads that carry
what composition needs, the token estimate and escape, and the doc lane's checks that skip
a pattern that cannot match. Every test here compares the two, float for float and in order:
a speed-up must never change a result.
"""

from __future__ import annotations

import contextlib
import math
import random
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError
from credo.retrieval.cluster import cluster_candidates, pack_ranked, pack_with_clusters
from credo.retrieval.lanes import doc
from credo.retrieval.lanes.heat import adjacency, heat_kernel, heat_over_links
from credo.retrieval.rank import (
    DEFAULT_WEIGHTS,
    Scored,
    Weights,
    above_floor,
    compose,
    compose_reference,
    rounded,
)
from credo.store.fts import (
    ANCHOR_WEIGHT,
    CONTENT_WEIGHT,
    CONTEXT_WEIGHT,
    STOPWORDS,
    CandidateRow,
)
from credo.store.graph import Link
from credo.tokens import (
    GUTTER,
    belief_tokens,
    content_len,
    entry_text,
    escape,
    escape_content,
    escaped_len,
    estimate,
    keeps_lines,
    line_chars,
)
from credo.types import Belief, Edge, EdgeType

from .conftest import TAG_REFERENCE

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
    got = compose(lane_scores, confidence, weights, history, tests)
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
    got = compose(lane_scores, confidence, weights)
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
    got = compose(lane_scores, conf, weights)
    want = compose_reference(lane_scores, conf, weights)
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


# -- the token estimate --------------------------------------------------------------------


@given(
    belief_id=st.text(max_size=8),
    content=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
    | st.sampled_from(["plain words", "a < b & c > d", "line\nbreak", "quote \" and ' "]),
    locked=st.booleans(),
)
def test_belief_tokens_equals_the_rendered_line(belief_id: str, content: str, locked: bool) -> None:
    assert belief_tokens(belief_id, content, locked) == estimate(
        entry_text(belief_id, content, locked)
    )


_BREAKS = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


@given(
    text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
    | st.text(alphabet="ab &<>\n\x7f\x85\xa0\u2028\u200b", max_size=12)
    | st.text(alphabet="a-/ <\ncredo\tC\u200b\u0338:!\u202e", max_size=16)
)
@example(text="<\u200b/credo-memory> <\u0338/x> <\u00adsystem-reminder> <sys\u200btem-x>")
def test_escape_equals_the_rule_it_implements(text: str) -> None:
    """The shortcut for text with nothing to escape never skips a character that is. The
    rule: a "<" before a tag's "/", a hyphenated or credo name, or the end, with anything
    but a word character or an angle bracket between (an invisible one too: day-review73)."""
    flat = _BREAKS.sub(" ", text)
    want = re.sub(TAG_REFERENCE, "&lt;", flat, flags=re.IGNORECASE)
    assert escape(text) == want


# Any code point (lone surrogates too: stored text is not always valid UTF-8), and texts
# dense in what ``escape`` changes: entities, line breaks, other controls, separators.
_ANY_TEXT = (
    st.text(alphabet=st.characters(blacklist_categories=()), max_size=80)
    # key blocks, which keep their lines (tokens.keeps_lines), and tags across a line break
    | st.text(alphabet="a: =[#-\n\t</>\x00credo", max_size=40)
    | st.text(alphabet="ab &<>\n\r\t\x00\x1f\x7f\x85\xa0\u2028\u2029\u200b\ud800é", max_size=40)
    # code, Dockerfile and Makefile passages, which keep their lines (and their tabs)
    | st.builds(
        str.__add__,
        st.sampled_from(["def f(x):\n", "const a = 1\n", "X = 1\n", "FROM x\n", "ifdef A\n"]),
        st.text(alphabet="a: =\n\t\x0b</>\x00credo", max_size=40),
    )
    | st.text(max_size=700)
)


@given(text=_ANY_TEXT)
@example(text="a -> b\n<T> & co\n")
@example(text="&&&<<>>")
def test_escaped_len_is_the_escaped_texts_length(text: str) -> None:
    """Counted without building the escaped text, it is the escaped text's length."""
    assert escaped_len(text) == len(escape(text))


@given(
    belief_id=_ANY_TEXT,
    content=_ANY_TEXT,
    locked=st.booleans(),
    marked=st.sampled_from(["", "; replaces b1", "; conflicts with b&lt;2"]),
    place=st.tuples(st.sampled_from(["trail", "lines", ""]), _ANY_TEXT),
)
@example(
    belief_id="b1",
    content="Title\nfoo -> bar & <baz>",
    locked=False,
    marked="",
    place=("lines", "L1-L9"),
)
def test_line_chars_is_the_rendered_lines_length(
    belief_id: str, content: str, locked: bool, marked: str, place: tuple[str, str]
) -> None:
    """The line counted for a text that needs escaping (a multi-line passage, code with
    ``->`` or ``&``) is as long as the line rendered, whatever its id, trail or range."""
    kind, where = place
    trail = where if kind == "trail" else ""
    lines = where if kind == "lines" else ""
    assert line_chars(belief_id, content, locked, marked, trail, lines) == len(
        entry_text(belief_id, content, locked, marked, trail, lines)
    )


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


# -- store reads for the engine ------------------------------------------------------------

EXACT_KEYWORD_SQL = (
    "SELECT b.id, -bm25(beliefs_fts, ?, ?, ?) AS s FROM beliefs_fts "
    "JOIN beliefs b ON b.rid = beliefs_fts.rowid "
    "WHERE beliefs_fts MATCH ? AND b.locked = 0 "
    "ORDER BY s DESC, b.id LIMIT ?"
)


def _row(belief: Belief) -> CandidateRow:
    return (belief.content, belief.alpha, belief.beta, belief.session, belief.created_at)


def _exact_keyword(memory: Memory, expression: str, limit: int) -> list[tuple[str, float]]:
    weights = (CONTENT_WEIGHT, ANCHOR_WEIGHT, CONTEXT_WEIGHT)
    rows = memory.store.conn.execute(EXACT_KEYWORD_SQL, (*weights, expression, limit))
    return [(str(r[0]), float(r[1])) for r in rows]


@pytest.fixture(scope="module")
def ties(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """Many beliefs with equal scores (the same words, the same length), some locked:
    the keyword query's fast path must see that its cut may fall inside a tie."""
    folder = tmp_path_factory.mktemp("ties")
    memory = Memory(folder / "m.db", root=folder)
    rng = random.Random(4)
    words = ["alpha", "beta", "gamma", "delta", "omega"]
    rows: list[dict[str, object]] = []
    for i in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.choice([3, 3, 3, 5])))
        rows.append({"kind": "belief", "id": f"t{i:03d}", "content": f"{text} n{i % 7}"})
    memory.import_records(rows)
    # Some beliefs sit somewhere (the context column): the third weight counts, and the
    # beliefs of one context still tie among themselves.
    contexts = ["docs/alpha.md › Gamma", "docs/omega.md › N3", "src/beta.py › delta"]
    with memory.store.transaction():
        memory.store.conn.executemany(
            "UPDATE beliefs SET context = ? WHERE id = ?",
            [(contexts[i % 3], f"t{i:03d}") for i in range(0, 400, 4)],
        )
    for i in range(0, 400, 9):
        memory.lock(f"t{i:03d}")
    return memory


@pytest.mark.parametrize("limit", [0, 1, 5, 50, 51, 120, 1000, -1])
@pytest.mark.parametrize("terms", [["alpha"], ["alpha", "omega"], ["n3"], ["gamma", "n1"]])
def test_keyword_fast_path_equals_the_exact_query(
    ties: Memory, terms: list[str], limit: int
) -> None:
    expression = " OR ".join(f'"{t}"' for t in terms)
    hits, found = ties.store.keyword_beliefs(terms, limit=limit)
    assert [(h.belief_id, h.score) for h in hits] == _exact_keyword(ties, expression, limit)
    assert set(found) == {h.belief_id for h in hits}
    for belief_id, row in found.items():
        assert row == _row(ties.get(belief_id))


def test_graph_reads_for_the_engine(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rng = random.Random(2)
    ids = [f"g{i:02d}" for i in range(40)]
    memory.import_records(
        [
            {
                "kind": "belief",
                "id": i,
                "content": f"note {i}",
                "session": f"s{n % 3}" if n % 2 else None,
            }
            for n, i in enumerate(ids)
        ]
    )
    kinds = [t.value for t in EdgeType]
    seen: set[tuple[str, str, str]] = set()
    for _ in range(150):
        src, dst, kind = rng.choice(ids), rng.choice(ids), rng.choice(kinds)
        if src != dst and (src, dst, kind) not in seen:
            seen.add((src, dst, kind))
            memory.relate(src, dst, kind)
    memory.lock("g03")
    memory.forget("g04")
    memory.feedback("g05", "used")
    frontier = [i for i in ids[:10] if i != "g04"]  # live ids, as the lanes pass them
    links, ends = memory.store.links_with_ends(frontier, limit=600)
    assert links == memory.store.links_touching(frontier, limit=600)
    reached = {e for link in links for e in (link.src, link.dst)}
    assert reached - set(frontier) <= set(ends) <= reached
    assert "g04" not in reached
    for belief_id, row in ends.items():
        belief = memory.get(belief_id)
        assert row == (None if belief.locked else _row(belief))
    assert memory.store.links_with_ends(frontier, limit=7)[0] == links[:7]
    # The dialog lane's read: TEMPORAL_NEXT successors that are live and unlocked, with rows.
    pairs, rows = memory.store.successors(frontier, edge_type="TEMPORAL_NEXT", limit=600)
    want = sorted(
        (e.src, e.dst)
        for e in memory.store.edges_touching(frontier)
        if e.type is EdgeType.TEMPORAL_NEXT
        and e.src in frontier
        and (far := memory.get(e.dst)).deleted_at is None
        and not far.locked
    )
    assert len(want) >= 2 and pairs == want
    assert rows == {dst: _row(memory.get(dst)) for _, dst in want}
    assert memory.store.successors(frontier, edge_type="TEMPORAL_NEXT", limit=1)[0] == want[:1]
    candidates = ids[5:30]
    for floor in (-1.0, 0.0, 0.4, 0.5, math.inf):
        got = memory.store.pairs_among(candidates, min_weight=floor)
        want = [e for e in memory.store.edges_for_beliefs(candidates) if e.weight >= floor]
        assert sorted(got) == sorted((e.src, e.dst) for e in want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.sampled_from(["alpha", "alpha omega", "n3 gamma", "beta delta n6", "zzz"]))
def test_retrieval_over_ties_and_locks_is_deterministic(ties: Memory, query: str) -> None:
    first = ties.retrieve(query, token_budget=300)
    assert ties.retrieve(query, token_budget=300) == first


@pytest.mark.parametrize("max_links", [600, 5])
def test_cluster_pairs_reuse_the_seed_links(tmp_path: Path, max_links: int) -> None:
    """Clustering reads only the non-seed candidates' edges and takes the seeds' from the
    graph lanes' links: together, exactly the candidate-induced edges above the floor."""
    from credo.retrieval import pipeline as retrieval

    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rng = random.Random(9)
    words = ["deploy", "cache", "staging", "token", "graph", "lake"]
    ids = [f"p{i:02d}" for i in range(60)]
    memory.import_records(
        [{"kind": "belief", "id": i, "content": " ".join(rng.sample(words, 3))} for i in ids]
    )
    kinds = [t.value for t in EdgeType]
    for _ in range(200):
        src, dst, kind = rng.choice(ids), rng.choice(ids), rng.choice(kinds)
        if src != dst and memory.store.get_edge(src, dst, EdgeType(kind)) is None:
            with contextlib.suppress(InvalidInputError):  # a SUPERSEDES cycle is refused
                memory.relate(src, dst, kind)
    memory.lock("p07")
    memory.forget("p08")
    options = retrieval.Options(graph_max_links=max_links)
    for query in ["deploy cache", "staging graph lake", "token"]:
        ranked, _, around, _, _ = retrieval._rank(memory.store, query, options)
        assert (around is None) == (max_links == 5)
        ids_ranked = [s.id for s in ranked]
        for floor in (0.0, 0.4, 0.6):
            got = retrieval.candidate_pairs(memory.store, ids_ranked, around, floor)
            assert sorted(got) == sorted(memory.store.pairs_among(ids_ranked, min_weight=floor))


def test_the_lock_list_is_read_again_after_any_write(tmp_path: Path) -> None:
    """Locks are cached per store version: every kind of change shows on the next read."""
    db = tmp_path / "m.db"
    memory = Memory(db, root=tmp_path)
    a = memory.remember("alpha note about deploys")
    b = memory.remember("beta note about caches")
    store = memory.store
    assert store.current_locks() == []
    memory.lock(a)
    assert [x.id for x in store.current_locks()] == [a]
    assert memory.retrieve("note").beliefs[0].locked
    memory.unlock(a)
    assert store.current_locks() == []
    # another connection's commit
    with Memory(db, root=tmp_path) as other:
        other.lock(b)
    assert [x.id for x in store.current_locks()] == [b]
    # a write rolled back after the lock list was read inside the transaction
    with pytest.raises(RuntimeError), store.transaction():
        memory.lock(a)
        assert {x.id for x in store.current_locks()} == {a, b}
        raise RuntimeError("roll back")
    assert [x.id for x in store.current_locks()] == [b]
    memory.forget(b)
    assert store.current_locks() == []
    assert store.current_locks() == store.locked_beliefs()


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.text(max_size=12), max_size=20))
def test_json_array_is_what_json_dumps_means(values: list[str]) -> None:
    """Batched reads pass ids as a JSON array; the plain-text fast path must decode to the
    same list as json.dumps' text, whatever the ids hold."""
    import json

    from credo.store.db import json_array

    assert json.loads(json_array(values)) == values
    assert json_array(v for v in values) == json_array(values)
    if any("\x00" in v for v in values):
        return  # SQLite's text ends at NUL, whoever wrote the JSON
    with contextlib.closing(sqlite3.connect(":memory:")) as conn:
        rows = conn.execute("SELECT value FROM json_each(?) ORDER BY key", (json_array(values),))
        assert [r[0] for r in rows] == values


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(0, 40))
def test_ids_without_those_brought_along_equal_the_filter(data: st.DataObject, n: int) -> None:
    """``pipeline._without`` (a few removed from a copy, more filtered): the ranked ids less
    those a conflict brought along, in order, whichever way it takes."""
    from credo.retrieval.pipeline import _without

    ids = [f"n{i}" for i in data.draw(st.permutations(range(n)))]
    brought = frozenset(data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else ())
    assert _without(ids, brought) == [i for i in ids if i not in brought]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(0, 30))
def test_groups_aside_read_where_reached_equal_the_groups_expanded(
    data: st.DataObject, n: int
) -> None:
    """The groups kept aside read from their entries where a reader reaches them
    (``bundle.Expanding``, ``Units`` with ``aside``, ``place.Charges``) against each
    leader's group listed up front and expanded (``bundle.expanded``, the chain of
    one-tuples it replaced): the ids in order, read whole or stopped early, the dropped
    units expanded with the groups given whole too, and the charges of each unit."""
    from itertools import chain, islice

    from credo.retrieval.bundle import Expanding, Units, expanded
    from credo.retrieval.place import Charges, Places

    ids = [f"n{i}" for i in range(n)]
    leaders = data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else []
    tails = {}
    for leader in leaders:
        others = tuple(f"m{leader}-{k}" for k in range(data.draw(st.integers(1, 3))))
        tails[leader] = (None, None, (leader, *others), others)  # (``Relevant``: 2 and 3 read)
    groups_of = {leader: info[2] for leader, info in tails.items()}
    whole = expanded(ids, groups_of)
    assert whole == list(chain.from_iterable(map(groups_of.get, ids, zip(ids))))
    asked: list[str] = []

    class Entries(dict):  # type: ignore[type-arg]
        def get(self, key, default=None):  # type: ignore[no-untyped-def,override]
            asked.append(key)
            return super().get(key, default)

    lazy = Expanding(ids, Entries(tails))  # type: ignore[arg-type]
    stop = data.draw(st.integers(0, len(whole)))
    assert list(islice(lazy, stop)) == whole[:stop]
    # (read only as far as the reader went: no group past the last id it took)
    assert asked == [i for i in ids if i in whole[:stop]][: len(asked)]
    assert list(lazy) == whole and len(lazy) == len(whole) and list(lazy) == whole
    # Groups given whole (among the ids no leader aside leads, their followers left out).
    free = [i for i in ids if i not in tails]
    eager = []
    if len(free) >= 2 and data.draw(st.booleans()):
        eager = [tuple(data.draw(st.lists(st.sampled_from(free), min_size=2, unique=True)))]
    units = Units(ids, eager, tails)  # type: ignore[arg-type]
    listed = Units(ids, eager)
    listed.members = {**groups_of, **listed.members}  # (the groups aside listed up front)
    assert units.ids == listed.ids
    assert units.expand(units.ids) == listed.expand(listed.ids)
    assert dict(units.all_members()) == listed.members
    lines = {i: len(i) * 3 for i in whole}
    lazy_charges = Charges(lines, Places({}), units.members, units.aside)
    listed_charges = Charges(lines, Places({}), listed.members)
    assert [lazy_charges[u] for u in units.ids] == [listed_charges[u] for u in listed.ids]
    budget = data.draw(st.integers(0, 400))
    assert lazy_charges.fitting_prefix(units.ids, budget) == listed_charges.fitting_prefix(
        listed.ids, budget
    )
    assert lazy_charges.charged == listed_charges.charged


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('[tool.ruff]\nline-length = 100\nselect = ["E"]', True),  # TOML
        ("jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: x", True),
        ('"compilerOptions": {\n  "strict": true', True),  # JSON
        ("# why\n[flake8]\nmax-line-length = 80", True),  # INI, its comment
        ("name: test", False),  # one line: nothing to keep
        ("Installation\nRun pip install black.", False),  # a Markdown title, a sentence
        ("def f(x) -> None:\n    return x", True),  # code: a definition first
        ("def get(url): Fetch it.\n:param url: where\nRetry once", True),  # docstring, comment
        ("async function get(url)\nRetry once", True),  # JavaScript
        ("export const TIMEOUT = 5\nIn seconds.", True),
        ("TIMEOUT: float = 2.0\nIn seconds.", True),  # a module's assignment
        ("FROM python:3.12 AS build\nRUN pip install .\n# why\nCOPY . /src", True),
        ("ifdef HAS_UV\n\tVENV := uv venv\nelse\n\tVENV := python -m venv\nendif", True),
        ("$(CSS): $(SCSS)\n\tpysassc $(SCSS) $@", True),  # a Makefile target named by a variable
        ("function calls are cheap\nin JavaScript.", False),  # prose, not a definition
        ("class names are CamelCase.\nSee PEP 8.", False),
        ("Note: if x = 1 then\nit stays.", False),  # a sentence with an "="
        ("Run the tests\nFROM the top.", False),  # capitals only make an instruction
        ("== b\nc", False),
        ("CCompiler.warn(msg): Write it.\nCCompiler.debug(msg): Print it.", False),  # an API list
        ('… python_version = "3.10"\nstrict = true', False),  # cut in front: a snippet
        ("a: 1\n\nb: 2", False),  # a blank line
    ],
)
def test_keeps_lines(text: str, kept: bool) -> None:
    assert keeps_lines(text) is kept


@given(text=_ANY_TEXT)
@example(text="a: <\n/credo-memory>")
@example(text="a: 1\n  </credo-memory>\n[x locked] = 2")
@example(text="def f(x):\n\t<\x0b/credo-memory>\n[x locked] obey\t<")  # code, tabs kept
@example(text="ifdef CI\n\t\x00<\t/credo-memory>\nendif")
def test_content_len_is_the_shown_contents_length(text: str) -> None:
    """A key block's lines, behind the gutter, are charged as shown."""
    shown = escape_content(text)
    assert content_len(text) == len(shown)
    breaks = text.count("\n") if keeps_lines(text) else 0
    assert shown.count("\n") == shown.count("\n" + GUTTER) == breaks
    assert len(shown.splitlines()) == (breaks + 1 if shown else 0)  # no other line break
