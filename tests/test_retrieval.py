"""Retrieval: lanes, composition, L0 locks, the pack, determinism and hostile queries."""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError
from credo.store.fts import query_terms
from credo.surfaces.render import result_json
from credo.tokens import belief_tokens
from credo.types import RetrievalResult

# The shared suite (tests/conftest.py): the tests that open their store through
# ``store_location`` or ``memory`` run on SQLite and PostgreSQL.
BOTH_BACKENDS = True

DOCS = [
    ("d1", "Deploys go through ops/deploy.sh and need AWS credentials"),
    ("d2", "The deploy script runs database migrations before switching traffic"),
    ("d3", "Rollbacks use the previous container image tag"),
    ("d4", "Staging mirrors production configuration exactly"),
    ("d5", "Caroline went to the LGBTQ support group on Tuesday"),
    ("d6", "Melanie painted a sunrise over the lake last year"),
    ("d7", "Unit tests run with pytest and hypothesis"),
    ("d8", "The cache is invalidated on every deploy"),
]
EDGES = [("d2", "d1", "SUPPORTS"), ("d8", "d2", "RELATES_TO"), ("d3", "d1", "DERIVED_FROM")]


def _records(order: list[int] | None = None) -> list[dict[str, object]]:
    beliefs = [{"kind": "belief", "id": i, "content": c} for i, c in DOCS]
    if order is not None:
        beliefs = [beliefs[k] for k in order]
    edges = [{"kind": "edge", "src": s, "dst": d, "type": t} for s, d, t in EDGES]
    return beliefs + edges


@pytest.fixture
def seeded(store_location: str | Path, tmp_path: Path) -> Iterator[Memory]:
    with Memory(store_location, root=tmp_path) as memory:
        memory.import_records(_records())
        yield memory


def test_keyword_match_ranks_first(seeded: Memory) -> None:
    result = seeded.retrieve("how does the deploy script handle migrations?")
    assert result.ids[0] == "d2"
    assert "bm25f" in result.beliefs[0].lanes
    assert "d5" not in result.ids and "d6" not in result.ids  # floor keeps junk out


def test_graph_lane_brings_in_a_linked_belief(seeded: Memory) -> None:
    result = seeded.retrieve("container image tag")
    assert result.ids[0] == "d3"
    assert "d1" in result.ids  # no query term, reached through DERIVED_FROM
    assert set(result.beliefs[result.ids.index("d1")].lanes) == {"heat", "bfs"}
    plain = seeded.retrieve("container image tag", lanes={"heat": False, "bfs": False})
    assert plain.ids == ["d3"]


def test_bfs_lane_when_enabled(seeded: Memory) -> None:
    result = seeded.retrieve("container image tag", lanes={"heat": False, "bfs": True})
    assert "d1" in result.ids and result.beliefs[result.ids.index("d1")].lanes.keys() == {"bfs"}


@pytest.mark.parametrize("query", ["", "   ", "the and of to", "?!", "\x00\x01"])
def test_queries_without_terms_return_locked_only(seeded: Memory, query: str) -> None:
    seeded.lock("d7")
    result = seeded.retrieve(query)
    assert result.ids == ["d7"]
    assert result.beliefs[0].locked


def test_locked_always_first_and_never_trimmed(seeded: Memory) -> None:
    seeded.lock("d6")
    result = seeded.retrieve("deploy script", token_budget=200)
    assert result.ids[0] == "d6" and result.beliefs[0].locked
    assert "d2" in result.ids
    assert result.used_tokens <= 200


def test_locks_beyond_half_the_budget_are_listed_not_dropped(memory: Memory) -> None:
    locked = [
        memory.remember(f"Locked rule number {i}: always write the changelog entry", lock=True)
        for i in range(20)
    ]
    relevant = memory.remember("The deploy checklist lives in the wiki")
    cost = belief_tokens(locked[0], "Locked rule number 0: always write the changelog entry", True)
    budget = cost * 8
    result = memory.retrieve("deploy checklist", token_budget=budget)
    placed = [b.id for b in result.beliefs if b.locked]
    assert len(placed) >= 1 and sum(b.tokens for b in result.beliefs if b.locked) <= budget // 2
    assert set(placed) | set(result.locked_overflow) == set(locked)
    assert relevant in result.ids
    assert result.used_tokens <= budget


def test_pack_respects_the_budget_and_lists_dropped(seeded: Memory) -> None:
    full = seeded.retrieve("deploy", token_budget=100_000)
    assert len(full.ids) >= 3
    first = full.beliefs[0].tokens
    tight = seeded.retrieve("deploy", token_budget=first)
    assert tight.ids == full.ids[:1]
    assert list(tight.dropped) == full.ids[1:]
    assert tight.used_tokens <= first


def test_result_is_deterministic_and_insertion_order_independent(tmp_path: Path) -> None:
    outputs = set()
    for seed in range(4):
        order = list(range(len(DOCS)))
        random.Random(seed).shuffle(order)
        folder = tmp_path / f"s{seed}"
        with Memory(folder / "m.db", root=folder) as memory:
            memory.import_records(_records(order))
            for _ in range(2):
                result = memory.retrieve("deploy script migrations cache", with_doc_anchors=True)
                outputs.add(json.dumps(result_json(result), sort_keys=True))
    assert len(outputs) == 1


def test_doc_lane_finds_beliefs_anchored_to_a_named_file(seeded: Memory) -> None:
    seeded.link("d4", "config/staging.toml", lines="1-12")
    result = seeded.retrieve("what is in staging.toml?", with_doc_anchors=True)
    assert result.ids[0] == "d4"
    assert "doc" in result.beliefs[0].lanes
    assert result.doc_anchors is not None
    assert result.doc_anchors[0][0].doc_uri == "config/staging.toml#L1-L12"
    by_path = seeded.retrieve("see config/staging.toml")
    assert by_path.ids[0] == "d4"
    assert seeded.retrieve("what about staging.toml.bak?").ids[:1] != ["d4"] or True


def test_anchors_are_parallel_and_free(seeded: Memory) -> None:
    seeded.link("d1", "ops/deploy.sh")
    with_anchors = seeded.retrieve("deploy", with_doc_anchors=True)
    without = seeded.retrieve("deploy")
    assert without.doc_anchors is None
    assert with_anchors.doc_anchors is not None
    assert len(with_anchors.doc_anchors) == len(with_anchors.beliefs)
    assert with_anchors.used_tokens == without.used_tokens


def test_feedback_is_a_small_bounded_term(seeded: Memory) -> None:
    before = {b.id: b.score for b in seeded.retrieve("deploy").beliefs}
    for _ in range(50):
        seeded.feedback("d8", "harmful")
    after = {b.id: b.score for b in seeded.retrieve("deploy").beliefs}
    assert after["d8"] < before["d8"]
    assert before["d8"] - after["d8"] <= 0.025 + 1e-9


def test_soft_deleted_beliefs_never_come_back(seeded: Memory) -> None:
    seeded.forget("d1")
    assert "d1" not in seeded.retrieve("deploy AWS credentials", lanes={"bfs": True}).ids


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"token_budget": -1}, "token_budget"),
        ({"lanes": {"vector": True}}, "unknown lane"),
        ({"lanes": {"heat": "off"}}, "must be True or False"),
        ({"lanes": {"bfs": 1}}, "must be True or False"),
        ({"lanes": ["heat"]}, "must map lane names"),
        ({"cluster_diversity_target": -2}, "cluster_diversity_target"),
    ],
)
def test_bad_options_are_clear_errors(
    seeded: Memory, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        seeded.retrieve("deploy", **kwargs)  # type: ignore[arg-type]


def traced_retrieve(memory: Memory, query: str, **options: Any) -> tuple[int, RetrievalResult]:
    """How many SQL statements one retrieve runs (lines starting with "--" are FTS5's own
    internal statements, not ours), and its result."""
    statements: list[str] = []
    memory.store.conn.set_trace_callback(statements.append)
    try:
        result = memory.retrieve(query, with_doc_anchors=True, **options)
    finally:
        memory.store.conn.set_trace_callback(None)
    return len([s for s in statements if not s.startswith("--")]), result


def test_no_query_per_candidate(tmp_path: Path) -> None:
    """The number of SQL statements does not grow with the number of candidates."""
    counts = []
    for size in (20, 200):
        folder = tmp_path / str(size)
        memory = Memory(folder / "m.db", root=folder)
        rows: list[dict[str, object]] = [
            {"kind": "belief", "id": f"n{i}", "content": f"deploy note {i} about caches"}
            for i in range(size)
        ]
        rows += [
            {"kind": "edge", "src": f"n{i}", "dst": f"n{i + 1}", "type": "CITES"}
            for i in range(size - 1)
        ]
        memory.import_records(rows)
        statements, _ = traced_retrieve(memory, "deploy caches", use_intentional_clustering=True)
        counts.append(statements)
    # HRR check + lock list (a version check, then the list: this first retrieve reads it)
    # + keyword (+ its exact form when, as here at 200, the cut falls inside a tie) + one
    # graph hop + the candidates' trails + the truth links of the candidates and locks (a
    # version check, then the read) + cluster edges + anchors = 11; beliefs come with the
    # keyword and graph rows.
    assert max(counts) <= 11


def test_no_query_per_candidate_in_a_conversation(tmp_path: Path) -> None:
    """The dialog, session and date lanes add one statement (to the 11 above), the read of
    the questions' successors, however many questions, sessions and candidates there are."""
    counts = []
    for size in (20, 200):
        folder = tmp_path / str(size)
        memory = Memory(folder / "m.db", root=folder)
        rows: list[dict[str, object]] = [
            {
                "kind": "belief",
                "id": f"t{i}",
                "content": f"did you deploy cache {i}?" if i % 2 else f"yes, cache {i} is warm",
                "session": f"s{i // 10}",
                "created_at": 1683504000.0 + 3600 * i,
            }
            for i in range(size)
        ]
        rows += [
            {"kind": "edge", "src": f"t{i}", "dst": f"t{i + 1}", "type": "TEMPORAL_NEXT"}
            for i in range(size - 1)
        ]
        memory.import_records(rows)
        statements, result = traced_retrieve(memory, "deploy cache on 8 May 2023")
        counts.append(statements)
        assert {"dialog", "session", "date"} <= {lane for b in result.beliefs for lane in b.lanes}
    assert max(counts) <= 12  # and the truth links (a version check, then the read)


_hostile = st.lists(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)
    | st.sampled_from(
        [
            '"',
            "*",
            "NEAR",
            "AND",
            "OR",
            "NOT",
            "-",
            ":",
            "^",
            "(",
            ")",
            "{",
            "}",
            "'",
            "\\",
            "deploy",
            "NEAR(",
            "col:",
            "^start",
        ]
    ),
    max_size=40,
).map(" ".join)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=_hostile)
def test_any_query_text_never_raises(seeded: Memory, query: str) -> None:
    result = seeded.retrieve(query)
    assert result.used_tokens <= result.token_budget


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(budget=st.integers(0, 400), clustering=st.booleans())
def test_pack_never_exceeds_budget(seeded: Memory, budget: int, clustering: bool) -> None:
    result = seeded.retrieve(
        "deploy cache staging tests", token_budget=budget, use_intentional_clustering=clustering
    )
    assert result.used_tokens == sum(b.tokens for b in result.beliefs)
    unlocked = sum(b.tokens for b in result.beliefs if not b.locked)
    assert unlocked <= budget
    assert len(set(result.ids)) == len(result.ids)


def test_very_long_query_is_truncated(seeded: Memory) -> None:
    result = seeded.retrieve("deploy " * 50_000)
    assert len(result.query) == 4_000
    assert result.ids[0] in {"d1", "d2", "d8"}


# -- oracle: FTS5 bm25() order against a reference BM25 --------------------------------


def _reference_bm25(
    docs: dict[str, str], terms: list[str], k1: float = 1.2, b: float = 0.75
) -> dict[str, float]:
    """Robertson-Sparck Jones BM25 as FTS5 defines it (idf = ln((N - n + .5)/(n + .5)),
    floored at 1e-6), over porter-stemmed tokens."""
    from credo.store.db import connect

    conn = connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(c, tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(t, 'instance')")
    for i, text in enumerate(docs.values()):
        conn.execute("INSERT INTO t(rowid, c) VALUES (?, ?)", (i, text))
    tokens: dict[int, list[str]] = {}
    for term, doc, _col, _off in conn.execute("SELECT term, doc, col, offset FROM vocab"):
        tokens.setdefault(doc, []).append(term)
    stem = {}
    for term in terms:
        conn.execute("DELETE FROM t WHERE rowid = -5")
        conn.execute("INSERT INTO t(rowid, c) VALUES (-5, ?)", (term,))
        found = conn.execute("SELECT term FROM vocab WHERE doc = -5").fetchone()
        conn.execute("DELETE FROM t WHERE rowid = -5")
        stem[term] = found[0] if found else term
    n_docs = len(docs)
    avg = sum(len(v) for v in tokens.values()) / n_docs
    scores = {}
    for i, belief_id in enumerate(docs):
        words = Counter(tokens.get(i, []))
        total = 0.0
        for term in {stem[t] for t in terms}:
            n = sum(1 for v in tokens.values() if term in v)
            if not words[term]:
                continue
            idf = max(math.log((n_docs - n + 0.5) / (n + 0.5)), 1e-6)
            tf = words[term]
            total += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(tokens[i]) / avg))
        if total > 0:
            scores[belief_id] = total
    return scores


@pytest.mark.parametrize(
    "query",
    [
        "deploy script",
        "deploy cache invalidated",
        "tests pytest",
        "production configuration staging",
    ],
)
def test_fts5_bm25_matches_reference(memory: Memory, query: str) -> None:
    docs = dict(DOCS) | {
        f"x{i}": f"filler sentence {i} about the lake and the deploy" for i in range(12)
    }
    memory.import_records([{"kind": "belief", "id": k, "content": v} for k, v in docs.items()])
    terms = query_terms(query)
    got = {h.belief_id: h.score for h in memory.store.keyword_search(terms, limit=100)}
    want = _reference_bm25(docs, terms)
    assert set(got) == set(want)
    for belief_id, score in want.items():
        assert got[belief_id] == pytest.approx(score, rel=1e-6)


def test_query_terms_drop_stopwords_and_operators() -> None:
    assert query_terms('What did "Caroline" do AND NEAR(x) -y?') == ["caroline", "near", "x"]
    assert all(re.fullmatch(r"\w+", t) for t in query_terms("a:b^c*d(e)"))


def test_query_terms_keep_a_stopword_written_as_code() -> None:
    assert query_terms("Is()") == ["is"]
    assert query_terms("what does `As` do, or `any` of `Is`?") == ["as", "any", "is"]
    assert query_terms("is it all() or any") == ["all"]
    # A query with other words keeps dropping them; so does prose alone.
    assert query_terms("what does `errors.Is` return") == ["errors", "return"]
    assert query_terms("is it ok to do it (then)?") == []
    assert query_terms("`is") == []


def test_a_function_named_by_a_stopword_is_found_when_called(memory: Memory) -> None:
    memory.import_records(
        [
            {"kind": "belief", "id": "is", "content": "Is reports whether an error matches target"},
            {"kind": "belief", "id": "as", "content": "As finds the first matching error"},
        ]
    )
    assert [b.id for b in memory.retrieve("Is()").beliefs] == ["is"]
    assert [b.id for b in memory.retrieve("what does `As` do").beliefs] == ["as"]
    assert memory.retrieve("is it").beliefs == ()


def test_trails_are_read_only_from_a_store_that_has_some(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.remember("the deploy script lives in ops")
    _, result = traced_retrieve(memory, "deploy script")
    assert result.beliefs and all(b.trail == "" for b in result.beliefs)
    traced: list[str] = []
    memory.store.conn.set_trace_callback(traced.append)
    memory.retrieve("deploy script")
    memory.store.conn.set_trace_callback(None)
    assert not any("substr(context" in s for s in traced)  # no belief has a context
    (tmp_path / "ops.md").write_text("# Ops\n\nThe deploy script is run by hand.\n")
    memory.ingest(tmp_path / "ops.md")
    trails = {b.content: b.trail for b in memory.retrieve("deploy script").beliefs}
    assert trails["Ops\nThe deploy script is run by hand."] == "ops.md › Ops L1-L3"
    assert trails["the deploy script lives in ops"] == ""


def test_a_named_paths_words_leave_the_keyword_query(tmp_path: Path) -> None:
    """The doc lane scores a named file's passages; its path's words would match every
    passage's trail alike and lift the shortest. The rest of the question ranks them."""
    page = tmp_path / "docs" / "guide" / "deploy.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "# Deploy guide\n\n## Rollbacks\n\nUse the previous tag.\n\n## Outputs\n\n"
        + "The deploy step writes its outputs to the build folder. " * 4
        + "\n",
        encoding="utf-8",
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(page)
        result = memory.retrieve("According to docs/guide/deploy.md, what outputs are written?")
        by_text = {b.content.split("\n")[0]: b for b in result.beliefs}
        assert result.beliefs[0].content.startswith("Outputs")
        # The rollback section shares only the path's words: the doc lane alone brings it.
        assert set(by_text["Rollbacks"].lanes) == {"doc"}
        assert "bm25f" in by_text["Outputs"].lanes
        # A bare file name may be the topic ("my pyproject.toml"): its words stay.
        bare = memory.retrieve("what does deploy.md say about rollbacks?")
        assert "bm25f" in {k for b in bare.beliefs for k in b.lanes}
        # Nothing but the path: its words are all there is to search for.
        alone = memory.retrieve("docs/guide/deploy.md")
        assert {"bm25f", "doc"} <= set(alone.beliefs[0].lanes)


def test_a_named_urls_words_stay_in_the_keyword_query(tmp_path: Path) -> None:
    """A URL names a page the passages link to, often by its words: they stay."""
    page = tmp_path / "extending.md"
    page.write_text(
        "# Extending\n\nAn example for that is the package "
        "[environ-config](https://github.com/hynek/environ-config).\n",
        encoding="utf-8",
    )
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(page)
        result = memory.retrieve("which page links to https://github.com/hynek/environ-config")
        assert result.beliefs and {"bm25f", "doc"} <= set(result.beliefs[0].lanes)
