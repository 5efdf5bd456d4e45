"""Retention classes (knowledge/retention.py): told at ingest, remember, capture and import,
stored (m009), shown in the result, and read by the compress stage's rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.errors import InvalidInputError, RecordsError
from credo.knowledge import retention
from credo.knowledge.retention import of_passage, of_record, of_statement
from credo.retrieval import pipeline
from credo.retrieval.compress import TIGHT_CAP
from credo.retrieval.snippet import GAP, HEADLINE, SNIPPET, SNIPPET_CAP
from credo.store import SqliteStore as Store
from credo.store.migrations import LATEST_VERSION, MIGRATIONS
from credo.surfaces.render import belief_text, result_json, result_text

# -- the rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "section", "text", "expected"),
    [
        ("CHANGES.md", ("Version 2.0.0",), "Drop Python 3.8.", "snapshot"),
        ("docs/changelog/3.0.rst", (), "New parser.", "snapshot"),
        ("HISTORY.rst", (), "Fixed a crash.", "snapshot"),
        ("docs/guide.md", ("Releases", "24.1.0 (2024-01-26)"), "Stable style.", "snapshot"),
        ("docs/guide.md", ("[1.2.0] - 2023-01-05",), "Added x.", "snapshot"),
        ("docs/guide.md", ("Unreleased",), "Added y.", "snapshot"),
        ("docs/status.md", ("Status",), "2024-05-02: the deploy is frozen.", "snapshot"),
        ("docs/status.md", (), "As of v2.1, the API is stable.", "snapshot"),
        ("docs/guide.md", ("Installation",), "Run pip install.", "fact"),
        ("docs/guide.md", ("Python 3.8 support",), "It works.", "fact"),
        ("docs/guide.md", ("1. Installation",), "Run pip install.", "fact"),
        ("src/history.py", ("History",), "def undo(): ...", "fact"),  # code never is one
        ("docs/guide.md", (), "2024 was a good year for the project.", "fact"),
    ],
)
def test_a_passage_is_a_snapshot_by_its_file_heading_or_date(
    uri: str, section: tuple[str, ...], text: str, expected: str
) -> None:
    assert of_passage(uri, section, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Never push to main.", "fact"),
        ("Use tabs in the Makefile.", "fact"),
        ("For now, skip the flaky payment test.", "transient"),
        ("Temporarily disable the lint step.", "transient"),
        ("Just this once, deploy on a Friday.", "transient"),
        ("We are currently on Postgres 15.", "snapshot"),
        ("2024-05-02: the release is frozen.", "snapshot"),
    ],
)
def test_a_statement_is_a_fact_unless_it_says_how_long_it_holds(text: str, expected: str) -> None:
    assert of_statement(text) == expected


def test_an_imported_document_passage_is_told_by_its_trail() -> None:
    assert of_record("document", "Drop 3.8.", "CHANGES.md › 2.0.0 L4-L9\nwords") == "snapshot"
    assert of_record("document", "Run it.", "docs/a.md › Usage L4-L9") == "fact"
    assert of_record("import", "For now, use y.", "") == "fact"  # an import's rows: facts


# -- written and stored -----------------------------------------------------------------------

CHANGES = """# Changes

## 2.1.0 (2024-03-01)

- Add the `--line-ranges` option to format only the given lines.
- Drop support for Python 3.8.
"""

GUIDE = """# Guide

## Installation

Install the tool with pip and run it from the project root.
"""


def _classes(memory: Memory) -> dict[str, str]:
    rows = memory.store.conn.execute(
        "SELECT content, retention FROM beliefs WHERE deleted_at IS NULL"
    )
    return {str(r[0]).splitlines()[-1].lstrip("- "): str(r[1]) for r in rows}


def _docs(root: Path) -> None:
    (root / "CHANGES.md").write_text(CHANGES)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text(GUIDE)


def test_ingest_sets_each_passages_class(memory: Memory, tmp_path: Path) -> None:
    _docs(tmp_path)
    memory.ingest(tmp_path / "CHANGES.md", tmp_path / "docs" / "guide.md")
    classes = _classes(memory)
    assert classes["Drop support for Python 3.8."] == "snapshot"
    assert classes["Install the tool with pip and run it from the project root."] == "fact"
    # What a passage of an unchanged file was stored with is set again when its file is
    # read again (m009 has the next ingest read every file): a kept belief gets its class.
    memory.store.conn.execute("UPDATE beliefs SET retention = 'fact'")
    memory.store.conn.execute("UPDATE ingested_files SET content_hash = ''")
    report = memory.ingest(tmp_path / "CHANGES.md")
    assert report.beliefs_kept >= 1
    assert _classes(memory)["Drop support for Python 3.8."] == "snapshot"


def test_remember_tells_the_class_or_takes_the_one_given(memory: Memory) -> None:
    rule = memory.remember("Never push to main.")
    later = memory.remember("For now, skip the flaky payment test.")
    given = memory.remember("The API is at version 3.", retention="snapshot")
    assert memory.get(rule).retention == "fact"
    assert memory.get(later).retention == "transient"
    assert memory.get(given).retention == "snapshot"
    # Given again for the same text, the class replaces the stored one.
    assert memory.remember("Never push to main.", retention="transient") == rule
    assert memory.get(rule).retention == "transient"
    with pytest.raises(InvalidInputError, match="retention 'forever' must be one of fact"):
        memory.remember("x y z", retention="forever")
    log = memory.store.conn.execute(
        "SELECT payload FROM ingest_log WHERE op = 'remember' AND belief_id = ?", (later,)
    ).fetchone()
    assert json.loads(log[0])["retention"] == "transient"


def test_export_and_import_keep_the_class(memory: Memory, tmp_path: Path) -> None:
    kept = memory.remember("The API is at version 3.", retention="snapshot")
    fact = memory.remember("Never push to main.")
    told = memory.remember("For now, use the mock.")  # transient: import has no text rules
    said = memory.remember("Never push on Fridays.", retention="fact")
    out = tmp_path / "export.jsonl"
    memory.export_records(out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {line["id"]: line for line in lines if line["kind"] == "belief"}
    # Written where import would not tell the same class from the text, and only there.
    assert by_id[kept]["retention"] == "snapshot" and by_id[told]["retention"] == "transient"
    assert "retention" not in by_id[fact] and "retention" not in by_id[said]
    with Memory(tmp_path / "copy.db", root=tmp_path) as copy:
        copy.import_records(out)
        classes = {i: copy.get(i).retention for i in (kept, fact, told, said)}
        assert classes == {kept: "snapshot", fact: "fact", told: "transient", said: "fact"}
        again = tmp_path / "again.jsonl"
        copy.export_records(again)
        assert again.read_bytes() == out.read_bytes()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "belief", "content": "x", "retention": "forever"}\n')
    with Memory(tmp_path / "bad.db", root=tmp_path) as other, pytest.raises(RecordsError):
        other.import_records(bad)
    told = tmp_path / "told.jsonl"
    told.write_text(
        '{"kind": "belief", "id": "t1", "content": "Drop 3.8.", "origin": "document", '
        '"context": "CHANGES.md › 2.0.0 L4-L9"}\n'
        '{"kind": "belief", "id": "t2", "content": "For now, use the mock."}\n'
    )
    with Memory(tmp_path / "told.db", root=tmp_path) as other:
        other.import_records(told)
        assert other.get("t1").retention == "snapshot" and other.get("t2").retention == "fact"


def test_a_v8_store_migrates_to_facts_and_reads_its_files_again(tmp_path: Path) -> None:
    path = tmp_path / "v8.db"
    store = Store(path, migrations=MIGRATIONS[:8])
    with store.transaction():
        store.conn.execute(
            "INSERT INTO beliefs(id, content, content_hash, kind, origin, created_at, "
            "updated_at) VALUES ('a', 'Drop support for Python 3.8.', 'h', 'factual', "
            "'document', 1, 1)"
        )
        store.conn.execute(
            "INSERT INTO ingested_files(path, content_hash, size, mtime, ingested_at, "
            "beliefs) VALUES ('CHANGES.md', 'abc', 1, 1, 1, 1)"
        )
    store.close()
    with Memory(path, root=tmp_path) as memory:
        assert memory.stats().schema_version == LATEST_VERSION
        assert memory.get("a").retention == "fact"
        conn = memory.store.conn
        assert conn.execute("SELECT content_hash FROM ingested_files").fetchone()[0] == ""
        indexes = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "beliefs_not_facts" in indexes
        assert memory.store.retention(["a"]) == {}
        conn.execute("UPDATE beliefs SET retention = 'snapshot' WHERE id = 'a'")
        assert memory.store.retention(["a", "nobody"]) == {"a": "snapshot"}
        with pytest.raises(Exception, match="CHECK"):
            conn.execute("UPDATE beliefs SET retention = 'forever' WHERE id = 'a'")
        assert memory.store.integrity_check() == []


# -- shown and read by the compress stage --------------------------------------------------------

# One long sentence that names the query's words near its start: a snippet of it is cut to
# the cap around them.
LONG = (
    "The pottery class notes say that "
    + " ".join(f"item{n} was glazed and fired" for n in range(30))
    + " before the end."
)


def _many(memory: Memory, retention: str) -> None:
    prefix = "a" if retention == "snapshot" else "b"  # equal scores: snapshots first, by id
    for n in range(8):
        memory.remember(f"{n}: {LONG}", id=f"{prefix}{n}", origin="import", retention=retention)


def test_a_snapshot_below_the_head_gets_the_tight_snippet(memory: Memory) -> None:
    _many(memory, "snapshot")
    _many(memory, "fact")
    result = memory.retrieve("pottery class notes", token_budget=600)
    cut = [b for b in result.beliefs if b.strategy == SNIPPET]
    assert {b.retention for b in cut} == {"snapshot", "fact"}
    for b in cut:
        kept = b.shown.replace(GAP, "").strip()
        assert len(kept) <= (TIGHT_CAP if b.retention == "snapshot" else SNIPPET_CAP)
        assert "pottery class notes" in kept
    assert max(len(b.shown) for b in cut if b.retention == "snapshot") < min(
        len(b.shown) for b in cut if b.retention == "fact"
    )
    # With no rules, a snapshot is cut like a fact; with "headline", to its headline.
    plain = pipeline.retrieve(
        memory.store,
        "pottery class notes",
        pipeline.Options(token_budget=600, retention_rules=frozenset()),
    )
    assert {len(b.shown) for b in plain.beliefs if b.strategy == SNIPPET} == {
        max(len(b.shown) for b in cut if b.retention == "fact")
    }
    headline = pipeline.retrieve(
        memory.store,
        "pottery class notes",
        pipeline.Options(token_budget=600, retention_rules=frozenset({"headline"})),
    )
    strategies = {(b.retention, b.strategy) for b in headline.beliefs}
    assert ("snapshot", HEADLINE) in strategies and ("fact", SNIPPET) in strategies
    with pytest.raises(InvalidInputError, match="retention_rules"):
        pipeline.retrieve(memory.store, "x", pipeline.Options(retention_rules=frozenset({"soon"})))


def test_what_a_person_stated_stays_whole_whatever_its_class(memory: Memory) -> None:
    for n in range(8):
        memory.remember(f"{n}: For now, {LONG}", id=f"said{n}")  # user_stated, transient
    result = memory.retrieve("pottery class notes", token_budget=600)
    assert result.beliefs and {b.retention for b in result.beliefs} == {"transient"}
    assert {b.strategy for b in result.beliefs} == {"verbatim"}


def test_the_result_shows_every_packed_beliefs_class(memory: Memory) -> None:
    memory.remember("The pottery class starts in May.", id="short", retention="snapshot")
    memory.remember("Pottery class rule: clean the wheel.", id="rule")
    memory.remember("Pottery class rooms, for now: room 4.", id="room")  # transient
    memory.remember("Pottery class is taught by Ann.", id="ann", retention="fact", lock=True)
    result = memory.retrieve("pottery class")
    by_id = {b.id: b.retention for b in result.beliefs}
    assert by_id == {"short": "snapshot", "rule": "fact", "room": "transient", "ann": "fact"}
    assert {b["id"]: b["retention"] for b in result_json(result)["beliefs"]} == by_id
    text = result_text(result, explain=True)
    assert "retention: snapshot" in text and "retention: transient" in text
    shown = belief_text(memory.get("short"), [], [])
    assert "retention: snapshot" in shown


def test_a_captured_rule_is_a_fact_and_a_time_limited_one_transient(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from credo.agent import capture as cap
    from credo.knowledge.capture import Statement

    rule = Statement("Always use pnpm to install packages.", "rule", "user_stated", (), (), ())
    later = Statement("For now, skip the flaky payment test.", "rule", "user_stated", (), (), ())
    monkeypatch.setattr(cap, "extract_statements", lambda prompt: [rule, later])
    got = cap.capture_prompt(memory, "prompt", session="s1", transcript=None, turn=None)
    classes = {memory.get(c.belief_id).content: memory.get(c.belief_id).retention for c in got}
    assert classes == {rule.text: "fact", later.text: "transient"}


# The dated-line rule as one pattern, as first written: `_dated` splits it in two so that
# an ingest compiles the "as of" half only when a line starts with "as of".
_ONE_DATED_LINE = re.compile(
    rf"^[-*•]?\s*(?:\[?{retention._DATE}\]?\s*[-–—:,)]"
    rf"|as of\s+(?:{retention._DATE}|{retention._VERSION}|today|now)\b)",
    re.IGNORECASE,
)
_WORDS = (
    "0 1 2 9 24 2024 1.2 3.0.0 -rc1 .post2 + - – — : , ) ( [ ] * • . ' v V x k K ſ s S "
    "jan Mar. march September sept dec may the of as As of AS OF today Now version"
)
_PIECES = st.sampled_from([*_WORDS.split(), " ", "  ", "\t", "\n", "\u00a0"])


@given(st.lists(_PIECES, max_size=12).map("".join))
@settings(max_examples=3000, deadline=None)
def test_a_dated_line_is_what_the_one_pattern_matches(text: str) -> None:
    assert retention._dated(text) == bool(_ONE_DATED_LINE.match(text))


def test_a_line_as_of_a_date_or_today_is_a_snapshot() -> None:
    assert of_statement("As of 2024-05-02 the deploy is frozen.") == "snapshot"
    assert of_passage("docs/a.md", ("Status",), "- as of today: green") == "snapshot"
    assert of_passage("docs/a.md", ("Status",), "as offered, the build is green") == "fact"
