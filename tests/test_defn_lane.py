"""The definition lane (retrieval/lanes/defn.py) and the definition statistics ingest keeps
for it (store/defn_stats.py): the scoring's invariants, the rows ingest, unchanged
re-ingest, an edit and a vanished file leave (always those a fresh ingest writes), the
migration that brings older stores in, and what the lane leaves alone."""

from __future__ import annotations

import math
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.lanes.defn import K1, best_definitions, nothing_read
from credo.store.defn_stats import (
    DEFINITIONS,
    LENGTH,
    contribution,
    decode,
    deltas,
    encode,
    file_rows,
    term_count,
)
from credo.store.stem import stem, tokens
from tests.lane_runs import cached_as_sql, cold_then_warm, two_fresh_stores

GUIDE = """\
# Guide

Sockets are polled before a request is sent.

## Retries

A retry waits longer each time.
"""

TOOL = '''\
"""The tool module waits on sockets."""

timeout = 3  # a module-level statement (no constant): in no definition


def wait_for_socket(sock, timeout):
    """Wait until the socket is ready."""
    # select first, then poll
    select(sock)
    poll(sock)
    select(sock, select)
    return poll(timeout)


class Retry:
    """Retry configuration."""

    def backoff(self):
        """Compute the backoff time."""
        return self.backoff_factor * 2

    def sleep(self):
        """Sleep for the backoff time."""
        sleep(self.backoff())
'''

# A class whose method holds a nested function; a JavaScript class with a field.
POOL = '''class Pool:
    """A pool of connections."""

    def put(self, conn):
        """Put a connection back."""

        def evict(old):
            self.evict_count += 1
            return old.evict()

        evict(self.oldest)
        self.queue.append(conn)
'''

LIMITER = """class Limiter {
  queue = [];
  evictOldest(job) {
    // evict the job that waited longest
    this.evict = job;
    return evict(job);
  }
  // the end
}
"""

# A definition of two passages: its head (signature and doc) and a comment deep in its body.
SOCKETS = '''"""Sockets."""


def wait_for_socket(sock, timeout):
    """Wait until the socket is ready to read or write, or the timeout runs out.

    The wait uses the best mechanism the platform offers. On most systems that is poll,
    which takes any number of descriptors and has no upper bound on their values; where
    it is missing or broken, the older call is used instead, with its limit on descriptor
    numbers. Either way the call returns as soon as the socket is ready, or when the
    timeout runs out, whichever comes first, and a timeout of None waits for ever.
    """
    deadline = now() + timeout
    while True:
        # The descriptor set is rebuilt on every pass of this loop: a platform whose
        # mechanism drops a descriptor after an interrupted call would otherwise wait on
        # nothing at all, and a reader would block until the deadline with data pending.
        # Interrupted calls are retried with the time that is left, never the whole again.
        ready = select(sock, select, poll(sock), deadline - now())
        if ready:
            return ready
'''

WORDS = ["alpha", "beta", "gamma", "delta", "select", "poll", "socket", "retri"]
_terms = st.lists(st.sampled_from(WORDS), min_size=1, max_size=40)


def _row(
    file: str, start: int, stems: list[str], head: bool = False
) -> tuple[str, int, int, str, int, bool]:
    terms, length, _ = encode(stems)
    return (file, start, start + 9, terms, length, head)


def _counts(defs: list[list[str]]) -> Counter[str]:
    total: Counter[str] = Counter()
    for stems in defs:
        total.update(contribution(encode(stems)))
    return total


def _no_text(belief_id: str) -> str:
    return ""


def _placed(
    last_definition: int, most: int
) -> st.SearchStrategy[list[tuple[int, float, bool, list[str]]]]:
    """Passages: (their definition's index, keyword score, is the head, their words)."""
    return st.lists(
        st.tuples(
            st.integers(0, last_definition),
            st.floats(0.0, 10.0),
            st.booleans(),
            st.lists(st.sampled_from([*WORDS, "other", "words"]), max_size=6),
        ),
        min_size=1,
        max_size=most,
    )


@settings(max_examples=150, deadline=None)
@given(
    defs=st.lists(_terms, min_size=1, max_size=5),
    placed=_placed(4, 12),
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4, unique=True),
)
def test_one_passage_per_definition_its_head_when_it_speaks_or_is_the_best_hit(defs, placed, query):
    counts = _counts(defs)
    rows: dict[str, list[tuple[str, int, int, str, int, bool]]] = {}
    hits: dict[str, float] = {}
    texts: dict[str, str] = {}
    where: dict[str, int] = {}
    heads: set[str] = set()
    for i, (d, score, head, words) in enumerate(placed):
        d %= len(defs)
        belief_id = f"p{i:02d}"
        rows[belief_id] = [_row("a.py", 10 * d, defs[d], head)]
        hits[belief_id] = score
        texts[belief_id] = " ".join(words)
        where[belief_id] = d
        if head:
            heads.add(belief_id)
    out = best_definitions(rows, hits, query, counts, texts.__getitem__)
    for d in set(where.values()):
        members = sorted((b for b in where if where[b] == d), key=lambda b: (-hits[b], b))
        scored = [b for b in members if b in out]
        assert len(scored) <= 1  # one passage per definition
        if not set(query) & set(defs[d]):
            assert not scored  # a definition without a query stem scores nothing
            continue
        speaking = sorted(
            b for b in members if b in heads and set(query) & {stem(w) for w in texts[b].split()}
        )
        if sorted(b for b in members if b in heads) == members[:1]:
            assert scored == members[:1]  # its one head is its best keyword hit
        elif speaking:
            assert scored == speaking[:1]  # the head, when its own words hold a query stem
        elif members[0] in heads:
            assert scored == members[:1]  # a head that is the best hit (ties by id)
        else:
            assert scored == []  # only a passage inside it matched: nothing carries it
    # determinism: the order rows and hits arrive in changes nothing
    again = best_definitions(
        dict(reversed(rows.items())), dict(reversed(hits.items())), query, counts, texts.__getitem__
    )
    assert again == out
    # a definition without a query stem scores nothing
    for b, value in out.items():
        assert value > 0 and set(query) & set(defs[where[b]])


@pytest.mark.parametrize(
    ("head_text", "head_hit", "carriers"),
    [
        ("def wait(sock): Wait until the socket is ready.", 0.5, ["head"]),  # its own words
        ("def wait(sock)", 0.5, []),  # a hit through its context alone, below the comment
        ("def wait(sock)", 3.0, ["head"]),  # ... but the best keyword hit: it stands for it
        ("def wait(sock): Wait until the socket is ready.", None, []),  # the head is no hit
    ],
)
def test_only_the_head_carries_its_definition(head_text, head_hit, carriers) -> None:
    body = ["socket", "select", "select", "poll"]
    counts = _counts([body, ["alpha"], ["beta"]])
    rows = {"head": [_row("a.py", 1, body, True)], "comment": [_row("a.py", 1, body)]}
    texts = {"head": head_text, "comment": "select first, then poll the socket"}
    hits = {"head": head_hit, "comment": 2.0}  # the comment is a keyword hit
    if head_hit is None:
        del rows["head"], hits["head"]
    out = best_definitions(rows, hits, ["socket", "select"], counts, texts.__getitem__)
    assert list(out) == carriers


@settings(max_examples=150, deadline=None)
@given(stems=_terms, others=st.lists(_terms, max_size=4), word=st.sampled_from(WORDS))
def test_one_more_use_never_lowers_a_definition_and_scores_stay_below_saturation(
    stems, others, word
):
    counts = _counts([stems, [*stems, word], *others])

    def score(unit: list[str]) -> float:
        return best_definitions(
            {"p": [_row("a.py", 1, unit, True)]}, {"p": 1.0}, [word], counts, _no_text
        ).get("p", 0.0)

    before, after = score(stems), score([*stems, word])
    assert after >= before  # the use adds to tf more than to the length it is normalised by
    n = counts[DEFINITIONS]
    df = counts[word]
    bound = max(1e-6, math.log((n - df + 0.5) / (df + 0.5))) * (K1 + 1)
    assert after < bound


def test_a_passage_in_two_files_takes_the_best_definition_it_leads() -> None:
    strong, weak = ["select"] * 5 + ["alpha"], ["alpha"] * 6
    counts = _counts([strong, weak, ["beta"], ["gamma"]])
    rows = {
        "p": [_row("a.py", 1, strong, True), _row("b.py", 1, weak, True)],
        "q": [_row("b.py", 1, weak, True)],
    }
    out = best_definitions(rows, {"p": 1.0, "q": 2.0}, ["select", "alpha"], counts, _no_text)
    # q leads b.py's definition (both are its heads: the same lines), so p scores by a.py's
    expected = best_definitions(
        {"p": [_row("a.py", 1, strong, True)]}, {"p": 1.0}, ["select", "alpha"], counts, _no_text
    )
    assert out["p"] == expected["p"] and "q" in out
    # alone, p carries both of its definitions and takes the better score
    both = best_definitions({"p": rows["p"]}, {"p": 1.0}, ["select", "alpha"], counts, _no_text)
    assert both == expected


def test_the_stored_form_counts_every_use_as_fts5_stems_it() -> None:
    text = "def wait_for_socket(sock):\n    select(sock, select)  # Selecting"
    stems = [stem(t) for t in tokens(text)]
    terms, length, value = encode(stems)
    assert not value and decode(terms) == Counter(stems) and length == len(stems)
    assert term_count(terms, "select") == 3 and term_count(terms, "sock") == 2
    assert term_count(terms, "sel") == 0 and term_count(terms, "socket") == 1
    defs, placed = file_rows(
        [*text.split("\n"), "x = 1"],
        [(1, 2), (2, 2)],
        [("a", (1, 1)), ("b", (2, 2)), ("c", (3, 3))],
    )
    assert set(defs) == {(1, 2), (2, 2)} and placed == {"a": (1, 2), "b": (2, 2)}  # innermost
    one = contribution((terms, length, False))
    assert one[DEFINITIONS] == 1 and one[LENGTH] == length and one["select"] == 1


_span = st.tuples(st.integers(1, 30), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=200, deadline=None)
@given(spans=st.lists(_span, max_size=8), passages=st.lists(_span, max_size=8))
def test_a_passage_sits_in_the_innermost_definition_holding_it(spans, passages) -> None:
    lines = [f"word{i} other" for i in range(45)]
    placed = [(f"p{i}", span) for i, span in enumerate(passages)]
    defs, inner = file_rows(lines, spans, placed)
    assert set(defs) == set(spans)
    for belief_id, (start, end) in placed:
        holding = [(a, b) for a, b in spans if a <= start and end <= b]
        if not holding:
            assert belief_id not in inner
            continue
        latest = max(a for a, _ in holding)  # the latest start, then the shortest
        assert inner[belief_id] == (latest, min(b for a, b in holding if a == latest))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), spans=st.lists(_span, max_size=8))
def test_a_definition_that_declares_members_counts_its_own_lines_only(data, spans) -> None:
    # Oracle: a scope's lines less the lines of every definition nested in it, its first
    # line always kept; any other definition: all its lines. Spans that overlap without
    # nesting are no member.
    lines = [f"word{i} common" for i in range(45)]
    scopes = data.draw(st.lists(st.sampled_from(spans), unique=True) if spans else st.just([]))
    defs, _ = file_rows(lines, spans, [], scopes)
    for a, b in set(spans):
        own = set(range(a, b + 1))
        if (a, b) in scopes:
            for c, d in set(spans):
                if a <= c and d <= b and (c, d) != (a, b):
                    own -= set(range(c, d + 1))
            own.add(a)
        expected = encode(stem(t) for i in sorted(own) for t in tokens(lines[i - 1]))
        assert defs[(a, b)] == expected
    assert file_rows(lines, spans, [], [])[0] == file_rows(lines, spans, [])[0]


def test_a_class_counts_its_own_lines_and_a_function_its_nested_ones(tmp_path: Path) -> None:
    (tmp_path / "pool.py").write_text(POOL)
    (tmp_path / "limiter.js").write_text(LIMITER)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        rows = memory.store.conn.execute(
            "SELECT file, start_line, end_line, terms FROM definitions"
        ).fetchall()
    terms = {(str(f), int(a), int(b)): decode(str(t)) for f, a, b, t in rows}
    assert terms[("pool.py", 1, 12)] == decode(
        encode(stem(t) for line in POOL.splitlines()[:2] for t in tokens(line))[0]
    )  # the class: its line and docstring, not its methods
    assert "evict" in terms[("pool.py", 4, 12)]  # the method holds its nested function
    assert terms[("pool.py", 4, 12)]["evict"] == 4  # (evict_count: two words)
    assert "evict" not in terms[("limiter.js", 1, 9)] and "queue" in terms[("limiter.js", 1, 9)]
    assert terms[("limiter.js", 3, 7)]["evict"] == 3


def test_a_class_whose_first_method_opens_on_its_line_keeps_that_line() -> None:
    lines = ["class Alpha { run() {", "  return beta;", "}", "}"]
    defs, _ = file_rows(lines, [(1, 4), (1, 3)], [], [(1, 4)])
    assert set(decode(defs[(1, 4)][0])) == {stem("class"), stem("alpha"), stem("run")}
    assert defs[(1, 3)] == encode(stem(t) for line in lines[:3] for t in tokens(line))


def test_deltas_are_the_difference_of_contributions_and_undo_each_other() -> None:
    a, b = encode(["select", "poll", "poll"]), encode(["select", "alpha"])
    forward = deltas({(1, 3): a}, {(1, 3): b, (5, 6): a})
    expected = contribution(b) + contribution(a)
    expected.subtract(contribution(a))
    assert forward == {k: v for k, v in sorted(expected.items()) if v}
    assert deltas({(1, 3): a}, {(1, 3): a}) == {}
    both = Counter(deltas({}, {(1, 3): a}))
    both.update(deltas({(1, 3): a}, {}))
    assert not +both and not -both


Tables = tuple[list[tuple[object, ...]], list[tuple[object, ...]], dict[str, int]]


def _tables(memory: Memory) -> Tables:
    conn = memory.store.conn
    defs = conn.execute("SELECT * FROM definitions ORDER BY 1, 2, 3").fetchall()
    placed = conn.execute("SELECT * FROM passage_definitions ORDER BY 1, 2").fetchall()
    return defs, placed, dict(conn.execute("SELECT stem, df FROM defn_df").fetchall())


def _consistent(memory: Memory) -> Tables:
    defs, _placed, df = tables = _tables(memory)
    total: Counter[str] = Counter()
    for row in defs:
        total.update(contribution((str(row[3]), int(row[4]), bool(row[5]))))  # type: ignore[call-overload]
    assert df == {k: v for k, v in total.items() if v}
    return tables


def _fresh(root: Path, tmp: Path) -> Tables:
    """What a fresh store gets from the tree as it is now."""
    path = tmp / f"fresh{len(list(tmp.glob('fresh*')))}.db"
    with Memory(path, root=root) as memory:
        memory.ingest(root)
        return _consistent(memory)


def test_ingest_stores_code_only_and_reingest_edit_and_vanish_stay_exact(
    tmp_path: Path,
) -> None:
    root, work = tmp_path / "tree", tmp_path / "work"
    root.mkdir()
    work.mkdir()
    (root / "guide.md").write_text(GUIDE)
    (root / "tool.py").write_text(TOOL)
    with Memory(work / "m.db", root=root) as memory:
        memory.ingest(root)
        defs, placed, _df = _consistent(memory)
        assert {r[0] for r in defs} == {"tool.py"} and len(defs) == 4  # 2 functions, class, 2
        assert len({r[0] for r in placed}) == len(placed)  # one definition per passage here
        content = dict(memory.store.conn.execute("SELECT id, content FROM beliefs"))
        inside = {content[str(r[0])].split(":")[0] for r in placed}
        assert "def wait_for_socket(sock, timeout)" in inside and "class Retry" in inside
        assert not any(c.startswith("The tool module") for c in inside)  # module docstring
        assert not any("Sockets are polled" in content[str(r[0])] for r in placed)  # docs
        wait = next(r for r in defs if r[1] == 6)
        assert term_count(str(wait[3]), "select") == 4 and term_count(str(wait[3]), "poll") == 3
        assert _tables(memory) == _fresh(root, tmp_path)

        before = _tables(memory)
        changes = memory.store.conn.total_changes
        memory.ingest(root)  # unchanged: nothing written
        assert _tables(memory) == before
        assert memory.store.conn.total_changes == changes

        (root / "tool.py").write_text(TOOL.replace("self.backoff_factor * 2", "self.factor ** 3"))
        memory.ingest(root)
        edited = _consistent(memory)
        assert edited == _fresh(root, tmp_path)  # replaced by difference, exactly
        assert edited[0] != before[0] and edited[0][0] == before[0][0]

        (root / "tool.py").write_text(TOOL.replace("\n\nclass Retry", "\n\n\nclass Retry"))
        memory.ingest(root)  # the class moved down a line: its rows move with it
        assert _consistent(memory) == _fresh(root, tmp_path)

        (root / "tool.py").unlink()
        memory.ingest(root)
        assert _tables(memory) == ([], [], {})


def test_a_hard_forget_takes_the_definitions_holding_its_text(tmp_path: Path) -> None:
    root, work = tmp_path / "tree", tmp_path / "work"
    root.mkdir()
    work.mkdir()
    (root / "tool.py").write_text(TOOL)
    with Memory(work / "m.db", root=root) as memory:
        memory.ingest(root)
        conn = memory.store.conn
        sleep, waits = (
            conn.execute("SELECT id FROM beliefs WHERE content LIKE ?", (f"{head}%",)).fetchone()[0]
            for head in ("def sleep", "def wait_for_socket")
        )
        memory.forget(waits)  # soft: the text stays, so do its counts
        assert _tables(memory) == _fresh(root, work)
        memory.forget(sleep, hard=True)
        defs, placed, df = _consistent(memory)
        assert {(r[1], r[2]) for r in defs} == {(6, 12), (18, 20)}  # not sleep's, nor Retry's
        assert "sleep" not in df and all(str(r[0]) != sleep for r in placed)
        (root / "tool.py").write_text(TOOL + "\n# edited\n")
        memory.ingest(root)  # the file read again: its definitions are back
        assert _consistent(memory)[0] == _fresh(root, work)[0]


def test_a_store_from_before_gets_its_rows_at_the_next_ingest(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL)
    path = tmp_path / "v10.db"
    with Memory(path, root=tmp_path) as memory:
        memory.ingest(tmp_path)
        tables = _tables(memory)
    conn = sqlite3.connect(path)  # back to version 10: a store written before migration 11
    with conn:
        # (and before m012, which came after)
        for table in ("definitions", "passage_definitions", "defn_df"):
            conn.execute(f"DROP TABLE {table}")
        for table in ("edge_files", "pending_cites"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("DELETE FROM _migrations WHERE version >= 11")
    conn.close()
    with Memory(path, root=tmp_path) as memory:
        assert _tables(memory) == ([], [], {})  # migrated: empty, the ledger asks for a re-read
        assert memory.store.conn.execute("SELECT content_hash FROM ingested_files").fetchone() == (
            "",
        )
        memory.ingest(tmp_path)
        assert _tables(memory) == tables


def test_the_lane_scores_code_in_definitions_and_leaves_notes_docs_and_modules_alone(
    tmp_path: Path,
) -> None:
    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        note = memory.remember("Sockets are selected and polled by the tool module.")
        result = memory.retrieve("select and poll the socket", token_budget=5000)
        by_id = {b.id: b for b in result.beliefs}
        # A note is its own unit (retrieval/own_unit.py): its part is its keyword share
        # times the lane's weight, no definition's evidence
        parts = by_id[note].lanes
        assert parts["defn"] == pytest.approx(0.3 * parts["bm25f"])
        scored = [b for b in result.beliefs if "defn" in b.lanes and b.trail]
        assert scored and scored[0].content.startswith("def wait_for_socket")
        assert all(b.trail.startswith("tool.py") for b in scored)
        for b in result.beliefs:
            if b.trail.startswith("guide.md") or b.content.startswith("The tool module"):
                assert "defn" not in b.lanes
        off = memory.retrieve("select and poll the socket", lanes={"defn": False})
        assert all("defn" not in b.lanes for b in off.beliefs)


def test_a_definitions_head_is_the_passage_anchored_at_its_lines(tmp_path: Path) -> None:
    (tmp_path / "sockets.py").write_text(SOCKETS)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        lines = {
            b.id: a.position_hint
            for b in memory.retrieve("socket descriptor", token_budget=5000).beliefs
            for a in memory.anchors(b.id)
        }
        placed = memory.store.passage_definitions(lines)
    heads = {lines[b]: row[5] for b, rows in placed.items() for row in rows}
    assert heads == {"L4-L21": True, "L15-L18": False}  # the module docstring sits in none


@pytest.mark.parametrize(
    ("query", "carrier"),
    [
        # the head's own words hold "socket" and "time": it carries its definition
        ("interrupted calls retried with the time left on the socket", "def wait_for_socket"),
        # "deadline" is in the head only through its context field (the body's names), and
        # the comment is the better keyword hit: nothing carries the definition
        ("deadline interrupted", None),
    ],
)
def test_the_head_takes_the_definition_score_when_its_words_answer(
    tmp_path: Path, query: str, carrier: str | None
) -> None:
    (tmp_path / "sockets.py").write_text(SOCKETS)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        found = memory.retrieve(query, token_budget=5000).beliefs
    assert len(found) >= 2  # both passages are keyword hits
    carriers = [b.content for b in found if "defn" in b.lanes]
    if carrier is None:
        assert carriers == []
    else:
        assert [c[: len(carrier)] for c in carriers] == [carrier]


def test_the_warm_path_gives_the_cold_paths_carriers(tmp_path: Path) -> None:
    (tmp_path / "sockets.py").write_text(SOCKETS)
    (tmp_path / "tool.py").write_text(TOOL)
    queries = ("interrupted calls retried with the time left", "deadline interrupted", "poll")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        cold = cold_then_warm(memory, queries)
    assert any("defn" in dict(lanes) for found in cold for _, _, lanes in found)


def test_a_store_without_code_asks_nothing_until_code_arrives(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember("Sockets are selected and polled by the tool module.")
        memory.retrieve("select and poll")
        asked: list[str] = []
        memory.store.conn.set_trace_callback(asked.append)
        memory.retrieve("select and poll")
        memory.store.conn.set_trace_callback(None)
        assert asked and not any("defn_df" in s or "definitions" in s for s in asked)
        with Memory(tmp_path / "m.db", root=tmp_path) as other:
            other.ingest(tmp_path)
        after = memory.retrieve("select and poll the socket", token_budget=5000)
        assert any("defn" in b.lanes for b in after.beliefs)


def test_retrieval_with_the_definition_lane_is_deterministic(tmp_path: Path) -> None:
    first, second = two_fresh_stores(
        tmp_path, "tool.py", TOOL, ("select poll socket", "backoff time", "retry sleep")
    )
    assert first == second


def test_postgres_stores_the_same_rows_and_ranks_the_same(tmp_path: Path) -> None:
    from tests.conftest import postgres_store

    (tmp_path / "guide.md").write_text(GUIDE)
    edited = TOOL.replace("self.backoff_factor * 2", "self.factor ** 3")
    seen = []
    with postgres_store() as url:
        for location in (tmp_path / "m.db", url):
            with Memory(location, root=tmp_path) as memory:
                (tmp_path / "tool.py").write_text(TOOL)
                (tmp_path / "sockets.py").write_text(SOCKETS)
                memory.ingest(tmp_path)
                (tmp_path / "tool.py").write_text(edited)
                memory.ingest(tmp_path)
                store = memory.store
                found = memory.retrieve("sleep for the backoff time", token_budget=5000)
                memory.forget(
                    next(b.id for b in found.beliefs if b.content.startswith("def sleep")),
                    hard=True,
                )
                ids = [b.id for b in memory.retrieve("select poll", token_budget=5000).beliefs]
                placed = store.passage_definitions(ids)
                counts = store.defn_counts(["select", "poll", "backoff", "sleep"])
                ranked = [
                    (b.content, b.score, sorted(b.lanes.items()))
                    for q in ("wait for the socket with select", "deadline interrupted")
                    for b in memory.retrieve(q).beliefs
                ]
                seen.append((sorted(placed.items()), counts, ranked))
                (tmp_path / "tool.py").unlink()
                (tmp_path / "sockets.py").unlink()
                memory.ingest(tmp_path)
                assert store.defn_counts(["select"]) == {}
    assert seen[0] == seen[1]
    assert seen[0][0] and seen[0][1] and any("defn" in dict(r[2]) for r in seen[0][2])


# A class over two methods: its head is a keyword hit through its context field only (the
# body's names), the first method answers the question in its own words.
SERVER = '''\
class Server:
    """The server."""

    def drain(self):
        """Drain the queue, then close the listening socket."""
        while self.queue:
            self.queue.pop()
        self.listener.close()
        self.queue.clear()

    def serve(self):
        """Accept connections."""
        self.listener.accept()
'''


def _span_row(
    span: tuple[int, int], stems: list[str], head: bool
) -> tuple[str, int, int, str, int, bool]:
    terms, length, _ = encode(stems)
    return ("a.py", span[0], span[1], terms, length, head)


@pytest.mark.parametrize(
    ("class_text", "class_hit", "method_span", "carriers"),
    [
        # the method's head inside the class is the better hit: the class is not carried
        ("class Server", 1.0, (10, 20), ["method"]),
        # ... unless the class head's own words hold a query stem
        ("class Server: drains its queue", 1.0, (10, 20), ["class", "method"]),
        # ... or it is the best hit within its lines
        ("class Server", 3.0, (10, 20), ["class", "method"]),
        # a better hit outside the class's lines takes nothing from it
        ("class Server", 1.0, (50, 60), ["class", "method"]),
    ],
)
def test_a_containing_definitions_head_carries_it_only_above_what_is_inside(
    class_text: str, class_hit: float, method_span: tuple[int, int], carriers: list[str]
) -> None:
    outer = ["queue", "queue", "queue", "listen", "accept"]
    inner = ["queue", "queue", "listen"]
    counts = _counts([outer, inner, ["alpha"]])
    rows = {
        "class": [_span_row((1, 40), outer, True)],
        "method": [_span_row(method_span, inner, True)],
    }
    texts = {"class": class_text, "method": "def drain(self): Drain the queue."}
    hits = {"class": class_hit, "method": 2.0}
    out = best_definitions(rows, hits, ["drain", "queue"], counts, texts.__getitem__)
    assert sorted(out) == carriers


# Definitions as a small tree of line spans: nested (a class and its methods, a function
# and its inner function) and side by side.
SPANS = [(1, 100), (10, 40), (12, 20), (25, 35), (50, 90), (60, 70), (120, 150)]


@settings(max_examples=200, deadline=None)
@given(
    defs=st.lists(_terms, min_size=len(SPANS), max_size=len(SPANS)),
    placed=_placed(len(SPANS) - 1, 14),
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4, unique=True),
)
def test_no_hit_within_a_definitions_lines_outranks_a_carrier_that_does_not_speak(
    defs, placed, query
):
    counts = _counts(defs)
    rows: dict[str, list[tuple[str, int, int, str, int, bool]]] = {}
    hits: dict[str, float] = {}
    texts: dict[str, str] = {}
    where: dict[str, int] = {}
    for i, (d, score, head, words) in enumerate(placed):
        belief_id = f"p{i:02d}"
        rows[belief_id] = [_span_row(SPANS[d], defs[d], head)]
        hits[belief_id], texts[belief_id], where[belief_id] = score, " ".join(words), d
    out = best_definitions(rows, hits, query, counts, texts.__getitem__)

    def within(b: str, d: int) -> bool:
        (start, end), (a, z) = SPANS[d], SPANS[where[b]]
        return start <= a and z <= end

    def speaks(b: str) -> bool:
        return bool(set(query) & {stem(w) for w in texts[b].split()})

    for b in out:
        d = where[b]
        assert rows[b][0][5]  # only a head carries its definition
        top = max(hits[o] for o in where if within(o, d))
        assert speaks(b) or hits[b] >= top  # nothing within its lines is a better hit
    for d in set(where.values()):
        heads = [b for b in where if where[b] == d and rows[b][0][5]]
        inside = sorted((o for o in where if within(o, d)), key=lambda o: (-hits[o], o))
        if set(query) & set(defs[d]) and heads and inside[0] in heads:
            assert any(h in out for h in heads)  # the best hit within it is its head
    again = best_definitions(
        dict(reversed(rows.items())), dict(reversed(hits.items())), query, counts, texts.__getitem__
    )
    assert again == out


def test_a_class_head_reached_through_its_methods_names_takes_no_class_score(
    tmp_path: Path,
) -> None:
    (tmp_path / "server.py").write_text(SERVER)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        found = memory.retrieve("drain the queue", token_budget=5000).beliefs
    by_text = {b.content.split(":")[0].split("\n")[0]: b for b in found}
    assert "class Server" in by_text  # a keyword hit, through its body's names
    assert "defn" not in by_text["class Server"].lanes
    assert "defn" in by_text["def drain(self)"].lanes


def test_the_warm_index_answers_passage_definitions_as_sql_does(tmp_path: Path) -> None:
    (tmp_path / "sockets.py").write_text(SOCKETS)
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        store = memory.store
        asked, cold = cached_as_sql(memory, store.passage_definitions, "passage_definitions")
        memory.forget(next(iter(cold)))  # (a write: the version moves on)
        assert store.passage_definitions(asked) == {
            k: v for k, v in cold.items() if k != next(iter(cold))
        }


def test_nothing_read_is_fresh_each_time() -> None:
    # (its scores become a query's lane_scores["defn"]: a shared dict would carry a
    # change made to one query's scores into the next)
    first = nothing_read()
    first.scores["x"] = 1.0
    assert nothing_read().scores == {} and nothing_read().rows == {}
    assert nothing_read().scores is not nothing_read().scores
