"""The line lane (retrieval/lanes/line.py) and the line statistics ingest keeps for it
(store/line_stats.py): the scoring's invariants, the rows ingest and re-ingest write, and
determinism."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.retrieval.lanes import defn as defn_lane
from credo.retrieval.lanes import line as line_lane
from credo.retrieval.lanes.line import FLOOR_SHARE, QueryStems, best_lines, query_stems
from credo.store.line_stats import (
    CONTEXT,
    LENGTH,
    LINES,
    PASSAGES,
    contribution,
    deltas,
    encode,
)
from credo.store.stem import stem, tokens
from tests.lane_runs import two_fresh_stores

GUIDE = """\
# Guide

Credo keeps beliefs in one SQLite file and reads them back by keyword.

## Escaping

A positional argument that starts with a hyphen looks like an option. Pass the separator
first, then the file name, so the parser stops reading options.

Options are read before arguments in every command.

## Upgrade

Upgrades run migrations forward only.
"""

TOOL = '''\
"""The tool module turns documents into beliefs."""


def walk(root):
    """Return every file under the root folder, hyphen or not."""
    return [root]
'''

WORDS = ["alpha", "beta", "gamma", "delta", "hyphen", "option", "file", "parser"]
_line = st.lists(st.sampled_from(WORDS), min_size=1, max_size=30)
_row = st.tuples(st.lists(_line, min_size=1, max_size=6), st.lists(st.sampled_from(WORDS)))


def _counts(rows: dict[str, tuple[str, str]]) -> Counter[str]:
    total: Counter[str] = Counter()
    for row in rows.values():
        total.update(contribution(row))
    return total


def _stored(lines: list[list[str]], context: list[str]) -> tuple[str, str]:
    return "\n".join(" ".join(line) for line in lines), " ".join(context)


def _score(lines: list[list[str]], context: list[str], counts: Counter[str], query: list[str]):
    return best_lines({"p": _stored(lines, context)}, query, counts).get("p", 0.0)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(_row, min_size=1, max_size=5), query=st.lists(st.sampled_from(WORDS)))
def test_a_passage_scores_its_best_line_and_nothing_else(rows, query) -> None:
    stored = {f"p{i}": _stored(lines, context) for i, (lines, context) in enumerate(rows)}
    counts = _counts(stored)
    scores = best_lines(stored, query, counts)
    for name, (lines, context) in zip(stored, rows, strict=True):
        value = scores.get(name, 0.0)
        assert value >= 0.0
        # each line alone is a passage of one line: the passage is its best one
        alone = [_score([line], context, counts, query) for line in lines]
        assert value == max(alone)
        # line order never matters
        assert _score(list(reversed(lines)), context, counts, query) == value
        # nothing of the query anywhere: no score at all
        if not set(query) & ({w for line in lines for w in line} | set(context)):
            assert name not in scores


@settings(max_examples=150, deadline=None)
@given(row=_row, query=st.lists(st.sampled_from(WORDS), min_size=1), extra=st.sampled_from(WORDS))
def test_below_the_floor_one_more_query_word_never_lowers_a_line(row, query, extra) -> None:
    lines, context = row
    counts = _counts({"p": _stored(lines, context), "q": _stored([[extra] * 3], [])})
    floor = FLOOR_SHARE * counts[LENGTH] / counts[LINES]
    before = _score(lines, context, counts, query)
    grown = [[*lines[0], extra], *lines[1:]]
    if extra in query and len(grown[0]) <= floor:  # the length the line is scored at holds
        assert _score(grown, context, counts, query) >= before


@settings(max_examples=100, deadline=None)
@given(row=_row, query=st.lists(st.sampled_from(WORDS), min_size=1))
def test_a_line_below_the_floor_scores_as_if_it_were_the_floor_long(row, query) -> None:
    lines, context = row
    counts = _counts({"p": _stored(lines, context)})
    floor = FLOOR_SHARE * counts[LENGTH] / counts[LINES]
    short = [w for w in lines[0] if w in query][:2] or ["alpha"]
    padding = ["zzfiller"] * max(0, int(floor) - len(short))  # no query word, no df
    if len(short) + len(padding) <= floor:
        alone = _score([short], context, counts, query)
        padded = _score([short + padding], context, counts, query)
        assert abs(alone - padded) < 1e-9


def test_deltas_are_the_difference_of_contributions_and_undo_each_other() -> None:
    a = encode("Pass the separator first.\nThen the file name.", "guide.md › Escaping L3-L9")
    b = encode("Pass the separator first.", "guide.md › Escaping L3-L5")
    forward = deltas({"x": a}, {"x": b})
    expected = contribution(b)
    expected.subtract(contribution(a))
    assert forward == {k: v for k, v in sorted(expected.items()) if v}
    assert deltas({"x": a}, {"x": a}) == {}
    added = Counter(deltas({}, {"x": a}))
    added.update(deltas({"x": a}, {}))
    assert not +added and not -added
    assert encode("\n\n### \nSeparator", "") == ("separ", "")  # empty lines are not lines


def _encode_by_line(content: str, context: str) -> tuple[str, str]:
    """The reference `encode`: each line's tokens stemmed, lines without one left out."""
    cut = [tokens(line) for line in content.split("\n")]
    lines = "\n".join(" ".join(map(stem, words)) for words in cut if words)
    placed = context.split("\ncredolengthfiller", 1)[0]
    return lines, " ".join(map(stem, tokens(placed)))


@settings(max_examples=300)
@given(
    st.text(st.sampled_from("ab Zy1_-\n\t\r.é"), max_size=80),
    st.text(st.sampled_from("ab Zy1 \n›"), max_size=30),
)
def test_encode_is_each_lines_stems(content: str, context: str) -> None:
    # (ASCII passages take a one-pass path; the alphabet mixes in a non-ASCII letter too)
    assert encode(content, context) == _encode_by_line(content, context)
    ascii_only = content.replace("é", "e")
    assert encode(ascii_only, context) == _encode_by_line(ascii_only, context)


def _table(memory: Memory) -> tuple[dict[str, tuple[str, str]], dict[str, int]]:
    conn = memory.store.conn
    rows = {r[0]: (r[1], r[2]) for r in conn.execute("SELECT * FROM passage_lines")}
    return rows, dict(conn.execute("SELECT stem, df FROM line_df").fetchall())


def _consistent(memory: Memory) -> dict[str, tuple[str, str]]:
    rows, df = _table(memory)
    assert df == {k: v for k, v in _counts(rows).items() if v}
    return rows


def test_ingest_stores_rows_for_documents_only_and_reingest_keeps_them_exact(
    tmp_path: Path,
) -> None:
    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        rows = _consistent(memory)
        anchored = memory.store.conn.execute(
            "SELECT belief_id, doc_uri FROM belief_documents WHERE anchor_type = 'ingest'"
        ).fetchall()
        docs = {b for b, uri in anchored if uri.startswith("guide.md")}
        assert set(rows) == docs  # every passage of the page, nothing of the code
        content = dict(memory.store.conn.execute("SELECT id, content FROM beliefs"))
        context = dict(memory.store.conn.execute("SELECT id, context FROM beliefs"))
        assert rows == {b: encode(content[b], context[b]) for b in docs}

        before = _table(memory)
        memory.ingest(tmp_path)  # unchanged: nothing written
        assert _table(memory) == before

        (tmp_path / "guide.md").write_text(
            GUIDE.replace("Options are read before", "Flags come before")
        )
        memory.ingest(tmp_path)
        after = _consistent(memory)
        live = {
            b
            for (b,) in memory.store.conn.execute("SELECT id FROM beliefs WHERE deleted_at IS NULL")
        }
        assert set(after) <= live and set(after) != set(rows)
        assert not any("option read befor" in lines for lines, _ in after.values())

        (tmp_path / "guide.md").unlink()
        memory.ingest(tmp_path)
        assert _table(memory) == ({}, {})


def test_a_hard_forget_takes_the_passages_counts_with_it(tmp_path: Path) -> None:
    (tmp_path / "guide.md").write_text(GUIDE)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        rows = _consistent(memory)
        gone, kept = sorted(rows)[:2]
        only = set(rows[gone][0].split()) - {
            w for b, (lines, _) in rows.items() if b != gone for w in lines.split()
        }
        memory.forget(kept)  # soft: text and counts stay, as the belief does
        assert _consistent(memory) == rows
        memory.forget(gone, hard=True)
        after = _consistent(memory)  # the counts are exactly those of the rows left
        assert set(after) == set(rows) - {gone}
        assert only and not only & set(_table(memory)[1])  # none of its own stems stays


def test_line_df_is_summed_per_transaction_and_a_rollback_leaves_nothing(
    tmp_path: Path,
) -> None:
    # line_df moves once per transaction (store/lines.py): a read inside it sees the
    # counts, a rolled-back transaction's changes never reach a later commit.
    (tmp_path / "guide.md").write_text(GUIDE)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        rows = _consistent(memory)
        store = memory.store
        some, other = sorted(rows)[:2]
        try:
            with store.transaction():
                store.drop_passage_lines([some])
                assert store.line_counts([])[" passages"] == len(rows) - 1
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
        assert _consistent(memory) == rows  # nothing of the rolled-back drop
        with store.transaction():
            store.drop_passage_lines([other])
        after = _consistent(memory)  # the counts of exactly the rows left
        assert set(after) == set(rows) - {other}


def test_a_store_from_before_gets_its_rows_at_the_next_ingest(tmp_path: Path) -> None:
    (tmp_path / "guide.md").write_text(GUIDE)
    path = tmp_path / "v9.db"
    with Memory(path, root=tmp_path) as memory:
        memory.ingest(tmp_path)
        rows = _table(memory)
    conn = sqlite3.connect(path)  # back to version 9: a store written before migration 10
    with conn:
        conn.execute("DROP TABLE passage_lines")
        conn.execute("DROP TABLE line_df")
        for table in ("definitions", "passage_definitions", "defn_df"):  # migration 11's
            conn.execute(f"DROP TABLE {table}")
        for table in ("edge_files", "pending_cites"):  # migration 12's
            conn.execute(f"DROP TABLE {table}")
        conn.execute("DELETE FROM _migrations WHERE version >= 10")
    conn.close()
    with Memory(path, root=tmp_path) as memory:
        assert _table(memory) == ({}, {})  # migrated: empty, and the ledger asks for a re-read
        assert memory.store.conn.execute("SELECT content_hash FROM ingested_files").fetchone() == (
            "",
        )
        memory.ingest(tmp_path)
        assert _table(memory) == rows


def test_the_lane_ranks_the_answering_line_and_leaves_notes_and_code_alone(
    tmp_path: Path,
) -> None:
    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path)
        note = memory.remember("A hyphen in a file name confuses the option parser.")
        result = memory.retrieve("file name that starts with a hyphen", token_budget=5000)
        parts = {b.id: b.lanes for b in result.beliefs}
        assert "line" not in parts[note]  # no trail, no line statistics
        lined = [b for b in result.beliefs if "line" in b.lanes]
        assert lined and all(b.trail.startswith("guide.md") for b in lined)
        assert "Pass the separator" in lined[0].content


def test_a_store_of_notes_asks_nothing_until_a_document_arrives(tmp_path: Path) -> None:
    """The lane knows per store version that a store has no line statistics; a document
    ingested later (by this connection or another) is scored at the next retrieve."""
    (tmp_path / "guide.md").write_text(GUIDE)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember("A hyphen in a file name confuses the option parser.")
        before = memory.retrieve("file name that starts with a hyphen", token_budget=5000)
        assert all("line" not in b.lanes for b in before.beliefs)
        assert memory.store.line_counts(["hyphen"]) == {}
        with Memory(tmp_path / "m.db", root=tmp_path) as other:
            other.ingest(tmp_path)
        after = memory.retrieve("file name that starts with a hyphen", token_budget=5000)
        assert any("line" in b.lanes for b in after.beliefs)


def test_retrieval_with_the_line_lane_is_deterministic(tmp_path: Path) -> None:
    first, second = two_fresh_stores(
        tmp_path, "guide.md", GUIDE, ("hyphen separator", "upgrade migrations", "keyword file")
    )
    assert first == second


def test_query_stems_are_the_index_stems() -> None:
    assert query_stems(["Options", "parsing", "options"]) == ["option", "pars"]
    assert {PASSAGES, LINES, LENGTH, CONTEXT} == {" passages", " lines", " length", " context"}


def test_postgres_stores_the_same_rows_and_ranks_the_same(tmp_path: Path) -> None:
    from tests.conftest import postgres_store

    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "tool.py").write_text(TOOL)
    edited = GUIDE.replace("Options are read before", "Flags come before")
    seen = []
    with postgres_store() as url:
        for location in (tmp_path / "m.db", url):
            with Memory(location, root=tmp_path) as memory:
                (tmp_path / "guide.md").write_text(GUIDE)
                memory.ingest(tmp_path)
                (tmp_path / "guide.md").write_text(edited)
                memory.ingest(tmp_path)
                store = memory.store
                ids = [b.id for b in memory.retrieve("hyphen separator", token_budget=5000).beliefs]
                lines = store.passage_lines(ids)
                counts = store.line_counts(["separ", "hyphen", "option"])
                ranked = [
                    (b.content, b.score, sorted(b.lanes.items()))
                    for b in memory.retrieve("file name that starts with a hyphen").beliefs
                ]
                seen.append((sorted(lines.values()), counts, ranked))
    assert seen[0] == seen[1]
    assert seen[0][0] and seen[0][1]


def test_the_query_stems_are_made_once_and_only_for_a_store_with_lines_or_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line and definition lanes share one ``QueryStems``: a store of notes (no line
    statistics, no definitions) never makes them, a store with both makes them once.
    (Before: each lane made its own on every query, ~55k instructions on a store of notes.)"""
    made: list[list[str]] = []
    real = line_lane.query_stems

    def counted(terms: Iterable[str]) -> list[str]:
        made.append(real(terms))
        return made[-1]

    monkeypatch.setattr(line_lane, "query_stems", counted)
    monkeypatch.setattr(defn_lane, "query_stems", counted, raising=False)
    (tmp_path / "guide.md").write_text(GUIDE)
    (tmp_path / "tool.py").write_text(TOOL)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.remember("A hyphen in a file name confuses the option parser.")
        memory.retrieve("file name that starts with a hyphen", token_budget=5000)
        assert made == []
        memory.ingest(tmp_path)
        result = memory.retrieve("file name that starts with a hyphen", token_budget=5000)
        assert len(made) == 1
        assert any("line" in b.lanes for b in result.beliefs)


def test_query_stems_kept_are_query_stems() -> None:
    stems = QueryStems(["Options", "parsing", "options"])
    assert list(stems) == stems.stems() == query_stems(["Options", "parsing", "options"])
    assert stems.stems() is stems.stems()  # (made once)
