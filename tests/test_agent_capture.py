"""Capture orchestration (credo.agent.capture): what becomes a belief, what it supersedes or
contradicts, counting once per session, one transaction per prompt, listing and locking.

The rules are tested with ``Statement`` objects given directly (the classifier is replaced
by a lookup table), so they do not depend on what the classifier finds; a few end-to-end
tests go through the real ``extract_statements`` with unmistakable prompts."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.agent import capture as cap
from credo.config import HookSettings, Settings
from credo.edge_types import EdgeType
from credo.errors import InvalidInputError
from credo.knowledge.capture import Statement

NPM_PROMPT = "No, we never use npm in this repository. Always use pnpm for installing packages."


def said(
    text: str,
    kind: str = "correction",
    negated: tuple[str, ...] = (),
    asserted: tuple[str, ...] = (),
) -> Statement:
    origin = "user_corrected" if kind == "correction" else "user_stated"
    return Statement(text, kind, origin, negated, asserted, ())  # type: ignore[arg-type]


NPM = said(NPM_PROMPT, negated=("npm",), asserted=("pnpm",))

Classifier = dict[str, list[Statement]]


@pytest.fixture
def classifier(monkeypatch: pytest.MonkeyPatch) -> Classifier:
    """prompt -> the statements the classifier finds in it (none for any other prompt)."""
    table: Classifier = {}
    monkeypatch.setattr(cap, "extract_statements", lambda prompt: list(table.get(prompt, [])))
    return table


def capture(memory: Memory, classifier: Classifier, *statements: Statement, **kw: Any) -> Any:
    prompt = " | ".join(s.text for s in statements)
    classifier[prompt] = list(statements)
    args = {"session": "s1", "transcript": None, "turn": None, **kw}
    return cap.capture_prompt(memory, prompt, **args)


def edges(memory: Memory, belief_id: str) -> set[tuple[str, str, str]]:
    return {(e.src, e.dst, e.type.value) for e in memory.edges(belief_id)}


def snapshot(memory: Memory) -> tuple[Any, ...]:
    one = memory.store.conn.execute
    return (
        one(
            "SELECT id, content, kind, origin, locked, deleted_at FROM beliefs ORDER BY id"
        ).fetchall(),
        one("SELECT belief_id, session FROM belief_corroborations ORDER BY 1, 2").fetchall(),
        one("SELECT src, dst, type FROM edges ORDER BY 1, 2, 3").fetchall(),
        one("SELECT * FROM captures ORDER BY belief_id").fetchall(),
        one("SELECT belief_id, doc_uri, position_hint FROM belief_documents ORDER BY 1").fetchall(),
        one("SELECT count(*) FROM ingest_log").fetchone(),
    )


# -- what a statement becomes ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "belief_kind", "origin"),
    [
        ("correction", "correction", "user_corrected"),
        ("preference", "preference", "user_stated"),
        ("rule", "requirement", "user_stated"),
    ],
)
def test_a_statement_becomes_an_anchored_belief(
    memory: Memory, classifier: Classifier, tmp_path: Path, kind: str, belief_kind: str, origin: str
) -> None:
    transcript = "/var/claude/projects/x/5f1e.jsonl"  # outside the project: a file:/// URI
    [got] = capture(
        memory,
        classifier,
        said("Always run the linter before committing", kind),
        session="sess-1",
        transcript=transcript,
        turn=4,
    )
    belief = memory.get(got.belief_id)
    assert (belief.content, belief.kind, belief.origin, belief.session) == (
        "Always run the linter before committing",
        belief_kind,
        origin,
        "sess-1",
    )
    [anchor] = memory.anchors(got.belief_id)
    assert (anchor.doc_uri, anchor.anchor_type, anchor.position_hint) == (
        "file:///var/claude/projects/x/5f1e.jsonl",
        "manual",
        "turn 4",
    )
    assert (got.kind, got.session, got.turn, got.transcript, got.locked) == (
        kind,
        "sess-1",
        4,
        anchor.doc_uri,
        False,
    )
    assert got.anchor == "file:///var/claude/projects/x/5f1e.jsonl turn 4"
    # A transcript inside the project is stored repo-relative, as every document is.
    [inside] = capture(
        memory,
        classifier,
        said("Never commit the env file", kind),
        transcript=str(tmp_path / "t.jsonl"),
        turn=1,
    )
    assert inside.transcript == "t.jsonl"


def test_without_a_transcript_there_is_no_anchor(memory: Memory, classifier: Classifier) -> None:
    [got] = capture(memory, classifier, said("Never commit the env file", "rule"))
    assert memory.anchors(got.belief_id) == [] and got.anchor is None and got.turn is None


def test_secrets_are_redacted_before_anything_is_stored(
    memory: Memory, classifier: Classifier
) -> None:
    secret = "Always pull from https://deploy:hunter2secret@git.example.com/repo.git please"
    [got] = capture(memory, classifier, said(secret, "rule"))
    assert "hunter2secret" not in got.text
    dump = "\n".join(memory.store.conn.iterdump())
    assert "hunter2secret" not in dump


def test_auto_lock_locks_corrections_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table: Classifier = {}
    monkeypatch.setattr(cap, "extract_statements", lambda p: list(table.get(p, [])))
    on = Settings(hook=HookSettings(auto_lock_corrections=True))
    with Memory(tmp_path / "m.db", root=tmp_path, settings=on) as memory:
        got = capture(memory, table, NPM, said("I prefer tabs for indentation", "preference"))
        assert [(c.kind, c.locked) for c in got] == [("correction", True), ("preference", False)]
        assert memory.get(got[0].belief_id).locked


# -- what it replaces --------------------------------------------------------------------------
def test_a_clear_correction_supersedes_what_it_rules_out(
    memory: Memory, classifier: Classifier
) -> None:
    old = memory.remember("We use npm to install packages")
    distractor = memory.remember("Run npm test before pushing")  # one shared term
    agrees = memory.remember("Use pnpm for installing packages in CI")
    [got] = capture(memory, classifier, NPM)
    assert got.supersedes == (old,) and got.contradicts == ()
    assert edges(memory, got.belief_id) == {(got.belief_id, old, "SUPERSEDES")}
    assert edges(memory, distractor) == set() and edges(memory, agrees) == set()
    found = memory.retrieve("how do we install packages with npm")
    assert got.belief_id in found.ids and old not in found.ids


def test_a_locked_belief_is_never_retired_by_capture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table: Classifier = {}
    monkeypatch.setattr(cap, "extract_statements", lambda p: list(table.get(p, [])))
    # Even a locked successor (auto-lock) does not retire it: the user locked it by hand.
    on = Settings(hook=HookSettings(auto_lock_corrections=True))
    with Memory(tmp_path / "m.db", root=tmp_path, settings=on) as memory:
        old = memory.remember("We use npm to install packages", lock=True)
        [got] = capture(memory, table, NPM)
        assert got.supersedes == () and got.contradicts == (old,)
        assert memory.retrieve("install packages").ids[:2] == sorted(
            [old, got.belief_id], key=lambda i: memory.get(i).created_at
        )
        [conflict] = memory.conflicts()
        assert {conflict.first.id, conflict.second.id} == {old, got.belief_id}
        assert not memory.get(old).deleted_at and memory.get(old).locked


def test_an_unclear_correction_contradicts_at_most_three(
    memory: Memory, classifier: Classifier
) -> None:
    vague = said("No, that is wrong: install packages from the internal mirror registry")
    disputed = [
        memory.remember(f"Install packages from the public registry, option {i}") for i in range(5)
    ]
    memory.remember("The mirror is down on Sundays")  # one shared term
    [got] = capture(memory, classifier, vague)
    assert got.supersedes == ()
    assert len(got.contradicts) == 3 and set(got.contradicts) <= set(disputed)
    assert {e.type for e in memory.edges(got.belief_id)} == {EdgeType.CONTRADICTS}


def test_a_rule_without_a_clear_match_touches_nothing(
    memory: Memory, classifier: Classifier
) -> None:
    memory.remember("Install packages from the public registry")
    [got] = capture(memory, classifier, said("Always install packages from the registry", "rule"))
    assert edges(memory, got.belief_id) == set()


def test_documents_and_superseded_beliefs_are_not_candidates(
    memory: Memory, classifier: Classifier
) -> None:
    passage = memory.remember("We use npm to install packages (README)", origin="document")
    older = memory.remember("npm is what we use to install packages")
    newer = memory.remember("Packages install with npm ci on the build host")
    memory.relate(newer, older, "SUPERSEDES")
    [got] = capture(memory, classifier, NPM)
    assert got.supersedes == (newer,)  # the current one, the only clear match left
    assert edges(memory, passage) == set()
    assert (got.belief_id, older, "SUPERSEDES") not in edges(memory, older)


def test_a_supersession_that_would_close_a_cycle_becomes_a_contradiction(
    memory: Memory, classifier: Classifier
) -> None:
    """The user reverts: what they say now was replaced earlier by what they now reject."""
    said_before = memory.remember(NPM.text)
    replaced_it = memory.remember("We use npm to install packages")
    memory.relate(replaced_it, said_before, "SUPERSEDES")
    [got] = capture(memory, classifier, NPM, session="s2")
    assert got.belief_id == said_before
    assert got.contradicts == (replaced_it,) and got.supersedes == ()


def test_two_statements_of_one_prompt_do_not_both_retire_one_belief(
    memory: Memory, classifier: Classifier
) -> None:
    old = memory.remember("We use npm to install packages")
    again = said(
        "Never use npm to install packages, pnpm installs them",
        negated=("npm",),
        asserted=("pnpm",),
    )
    first, second = capture(memory, classifier, NPM, again)
    assert first.supersedes == (old,) and second.supersedes == () and second.contradicts == ()


# -- counting once per session -----------------------------------------------------------------
def test_recapture_in_the_same_session_is_a_no_op(memory: Memory, classifier: Classifier) -> None:
    memory.remember("We use npm to install packages")
    [got] = capture(memory, classifier, NPM, transcript="/t/x.jsonl", turn=2)
    before = snapshot(memory)
    assert capture(memory, classifier, NPM, transcript="/t/x.jsonl", turn=2) == []
    # At Stop the transcript shows the same prompt with its turn number: still a no-op.
    assert capture(memory, classifier, NPM, transcript="/t/x.jsonl", turn=7) == []
    assert snapshot(memory) == before
    assert memory.get(got.belief_id).corroborations == 0


def test_a_later_session_corroborates_and_keeps_the_first_row(
    memory: Memory, classifier: Classifier
) -> None:
    [first] = capture(memory, classifier, NPM, session="s1", turn=1)
    [later] = capture(memory, classifier, NPM, session="s2", turn=5)
    assert later.belief_id == first.belief_id
    assert (later.session, later.turn) == ("s1", 1)  # the row is the first capture
    assert memory.get(first.belief_id).corroborations == 1
    assert capture(memory, classifier, NPM, session="s2") == []
    assert memory.get(first.belief_id).corroborations == 1
    assert [c.belief_id for c in cap.captures(memory, session="s2")] == []


def test_a_belief_remembered_by_hand_gets_its_row_when_captured(
    memory: Memory, classifier: Classifier
) -> None:
    by_hand = memory.remember(NPM.text, session="s1")
    [got] = capture(memory, classifier, NPM, session="s1")
    assert got.belief_id == by_hand and memory.get(by_hand).corroborations == 0
    assert capture(memory, classifier, NPM, session="s1") == []


def test_a_forgotten_belief_said_again_is_revived(memory: Memory, classifier: Classifier) -> None:
    [got] = capture(memory, classifier, NPM)
    memory.forget(got.belief_id)
    assert cap.captures(memory) == []
    [again] = capture(memory, classifier, NPM)
    assert again.belief_id == got.belief_id and memory.get(got.belief_id).deleted_at is None


STATEMENTS = [
    NPM,
    said("I prefer yarn for installing packages", "preference", asserted=("yarn",)),
    said("Always deploy to staging before production", "rule"),
]
STEPS = st.lists(
    st.tuples(
        st.integers(0, len(STATEMENTS) - 1),
        st.sampled_from([None, "a", "b"]),
        st.sampled_from([None, 1, 2]),
        st.sampled_from([None, "/t/one.jsonl"]),
    ),
    max_size=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
def test_recapture_sequences_count_each_session_once(
    classifier: Classifier,
    tmp_path: Path,
    steps: list[tuple[int, str | None, int | None, str | None]],
) -> None:
    with Memory(":memory:", root=tmp_path) as memory:
        memory.remember("We use npm to install packages")
        sessions: dict[int, list[str | None]] = {}
        for index, session, turn, transcript in steps:
            capture(
                memory,
                classifier,
                STATEMENTS[index],
                session=session,
                turn=turn,
                transcript=transcript,
            )
            seen = sessions.setdefault(index, [])
            if session not in seen:
                seen.append(session)
        rows = {c.text: c for c in cap.captures(memory)}
        assert len(rows) == len(sessions)
        for index, seen in sessions.items():
            row = rows[STATEMENTS[index].text]
            assert row.session == seen[0]  # the first capture's row
            assert memory.get(row.belief_id).corroborations == len(seen) - 1
        # Replaying the whole sequence changes nothing.
        before = snapshot(memory)
        for index, session, turn, transcript in steps:
            capture(
                memory,
                classifier,
                STATEMENTS[index],
                session=session,
                turn=turn,
                transcript=transcript,
            )
        assert snapshot(memory) == before


# -- one transaction, and no cost when nothing is found ----------------------------------------
def test_a_failure_midway_leaves_nothing(
    memory: Memory, classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory.remember("We use npm to install packages")
    before = snapshot(memory)
    real = memory.store.insert_capture
    calls: list[object] = []

    def fail_on_second(record: Any) -> bool:
        calls.append(record)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(record)

    monkeypatch.setattr(memory.store, "insert_capture", fail_on_second)
    with pytest.raises(RuntimeError, match="disk full"):
        capture(
            memory,
            classifier,
            NPM,
            said("Always deploy to staging first", "rule"),
            transcript="/t/x.jsonl",
            turn=1,
        )
    assert len(calls) == 2  # the first statement was fully written before the failure
    assert snapshot(memory) == before


def test_nothing_found_reads_and_writes_nothing(
    memory: Memory, classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the store was touched")

    monkeypatch.setattr(memory.store, "transaction", boom)
    monkeypatch.setattr(memory.store, "capture_candidates", boom)
    assert cap.capture_prompt(memory, "yes", session="s", transcript=None, turn=None) == []


def test_one_keyword_query_per_prompt_and_one_for_a_named_change(
    memory: Memory, classifier: Classifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = memory.store.capture_candidates
    calls: list[list[list[str]]] = []

    def spy(groups: list[list[str]], *, limit: int) -> Any:
        calls.append(groups)
        return real(groups, limit=limit)

    monkeypatch.setattr(memory.store, "capture_candidates", spy)
    capture(memory, classifier, NPM, said("Always deploy to staging first", "rule"))
    words = ["npm", "pnpm", "installing", "packages", "deploy", "staging", "first"]
    # One group, the prompt's words; then rule 5's look-up of the old value it names.
    assert calls == [[words], [["npm"]]]
    calls.clear()
    capture(memory, classifier, said("Tabs for indentation in Makefiles", "preference"))
    assert calls == [[["tabs", "indentation", "makefiles"]]]  # (a preference names no change)


# -- transcripts ------------------------------------------------------------------------------
def write_transcript(path: Path, prompts: list[str]) -> Path:
    lines = []
    for prompt in prompts:
        lines.append({"type": "user", "message": {"role": "user", "content": prompt}})
        lines.append(
            {"type": "assistant", "message": {"content": [{"type": "text", "text": "ok"}]}}
        )
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_capture_transcript_anchors_each_turn(
    memory: Memory, classifier: Classifier, tmp_path: Path
) -> None:
    rule = said("Always deploy to staging before production", "rule")
    classifier[NPM.text] = [NPM]
    classifier[rule.text] = [rule]
    path = write_transcript(tmp_path / "session.jsonl", ["hello", NPM.text, "yes", rule.text])
    got = cap.capture_transcript(memory, str(path), session="s1")
    assert [(c.text, c.turn, c.transcript) for c in got] == [
        (NPM.text, 2, "session.jsonl"),
        (rule.text, 4, "session.jsonl"),
    ]
    assert [a.position_hint for a in memory.anchors(got[1].belief_id)] == ["turn 4"]
    before = snapshot(memory)
    assert cap.capture_transcript(memory, str(path), session="s1") == []
    assert snapshot(memory) == before


def test_the_prompt_then_the_transcript_count_once(
    memory: Memory, classifier: Classifier, tmp_path: Path
) -> None:
    classifier[NPM.text] = [NPM]
    path = write_transcript(tmp_path / "s.jsonl", [NPM.text])
    [got] = cap.capture_prompt(memory, NPM.text, session="s1", transcript=str(path), turn=None)
    assert cap.capture_transcript(memory, str(path), session="s1") == []
    assert memory.get(got.belief_id).corroborations == 0


def test_a_missing_transcript_captures_nothing(memory: Memory, tmp_path: Path) -> None:
    assert cap.capture_transcript(memory, str(tmp_path / "gone.jsonl"), session="s") == []


# -- listing and locking ----------------------------------------------------------------------
def test_captures_listing_and_mark_listed(memory: Memory, classifier: Classifier) -> None:
    [a] = capture(memory, classifier, NPM, session="s1")
    [b] = capture(memory, classifier, said("Always deploy to staging first", "rule"), session="s2")
    assert [c.belief_id for c in cap.captures(memory)] == [a.belief_id, b.belief_id]
    assert [c.belief_id for c in cap.captures(memory, session="s2")] == [b.belief_id]
    cap.mark_listed(memory, [a.belief_id, "no-such-id"])
    assert [c.belief_id for c in cap.captures(memory, unlisted=True)] == [b.belief_id]
    first = cap.captures(memory)[0].listed_at
    assert first is not None
    cap.mark_listed(memory, [a.belief_id])
    assert cap.captures(memory)[0].listed_at == first  # the first listing counts
    cap.mark_listed(memory, [])
    memory.forget(b.belief_id)
    assert [c.belief_id for c in cap.captures(memory)] == [a.belief_id]


def test_lock_captured(memory: Memory, classifier: Classifier) -> None:
    [a] = capture(memory, classifier, NPM, session="s1")
    [b] = capture(memory, classifier, said("Always deploy to staging first", "rule"), session="s2")
    [c] = capture(
        memory, classifier, said("I prefer tabs for indentation", "preference"), session="s2"
    )
    memory.lock(c.belief_id)
    assert cap.lock_captured(memory, session="s2") == [b.belief_id]
    assert cap.lock_captured(memory) == [a.belief_id]
    assert cap.lock_captured(memory) == []
    assert all(c.locked for c in cap.captures(memory))
    ops = memory.store.conn.execute(
        "SELECT count(*) FROM ingest_log WHERE op = 'lock' AND belief_id IN (?, ?)",
        (a.belief_id, b.belief_id),
    ).fetchone()[0]
    assert ops == 2


@pytest.mark.parametrize(
    "call",
    [
        lambda m: cap.capture_prompt(m, 5, session=None, transcript=None, turn=None),  # type: ignore[arg-type]
        lambda m: cap.capture_prompt(m, "x", session="", transcript=None, turn=None),
        lambda m: cap.capture_prompt(m, "x", session=3, transcript=None, turn=None),  # type: ignore[arg-type]
        lambda m: cap.capture_prompt(m, "x", session=None, transcript="  ", turn=None),
        lambda m: cap.capture_prompt(m, "x", session=None, transcript=None, turn=0),
        lambda m: cap.capture_prompt(m, "x", session=None, transcript=None, turn=True),
        lambda m: cap.capture_transcript(m, None, session=None),  # type: ignore[arg-type]
        lambda m: cap.captures(m, session=""),
        lambda m: cap.mark_listed(m, "b123"),
        lambda m: cap.mark_listed(m, [1]),  # type: ignore[list-item]
        lambda m: cap.lock_captured(m, session=7),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_one_typed_error(memory: Memory, call: Callable[[Memory], object]) -> None:
    with pytest.raises(InvalidInputError):
        call(memory)
    assert memory.stats().beliefs == 0


# -- end to end, through the real classifier ---------------------------------------------------
def test_a_correction_reaches_the_next_session(tmp_path: Path) -> None:
    """However the classifier splits the prompt into statements, the correction replaces
    the old belief and reaches the next session's retrieval."""
    db = tmp_path / "memory.db"
    with Memory(db, root=tmp_path) as memory:
        old = memory.remember("We use npm to install packages")
        got = cap.capture_prompt(memory, NPM_PROMPT, session="one", transcript=None, turn=1)
        [correction] = [c for c in got if c.supersedes]
        assert (correction.kind, correction.supersedes) == ("correction", (old,))
        assert all(c.contradicts == () for c in got)
    with Memory(db, root=tmp_path) as memory:  # session 2, a new process
        found = memory.retrieve("add the left-pad dependency with npm")
        assert correction.belief_id in found.ids and old not in found.ids
        belief = memory.get(correction.belief_id)
        assert (belief.kind, belief.origin, belief.session) == (
            "correction",
            "user_corrected",
            "one",
        )


def test_a_correction_split_over_sentences_is_judged_as_one_prompt(
    memory: Memory, classifier: Classifier
) -> None:
    old = memory.remember("We use npm to install packages")
    no = said("No, we never use npm in this repository.", negated=("npm",))
    rule = said("Always use pnpm for installing packages.", "rule", asserted=("pnpm",))
    first, second = capture(memory, classifier, no, rule)
    assert first.supersedes == (old,) and second.supersedes == ()
    assert first.contradicts == () and second.contradicts == ()


def test_questions_and_acknowledgements_capture_nothing(memory: Memory) -> None:
    for prompt in ("yes", "continue", "Should we use npm or pnpm here?", ""):
        assert cap.capture_prompt(memory, prompt, session="s", transcript=None, turn=None) == []
    assert memory.stats().beliefs == 0


# -- cost ---------------------------------------------------------------------------------------
@pytest.fixture
def big(tmp_path: Path) -> Iterator[Memory]:
    topics = ["npm", "pnpm", "install", "packages", "deploy", "staging", "tests", "lint", "docs"]
    records = [
        {
            "kind": "belief",
            "id": f"x{i:05d}",
            "content": f"note {i}: {topics[i % 9]} {topics[(i * 7) % 9]} and item {i % 97}",
        }
        for i in range(10_000)
    ]
    with Memory(tmp_path / "big.db", root=tmp_path) as memory:
        memory.import_records(records)
        yield memory


def test_capture_at_10k_corroborates_once_per_session(big: Memory, classifier: Classifier) -> None:
    """At 10k beliefs (its cost is measured by bench/hook_latency.py, not here)."""
    classifier[NPM_PROMPT] = [NPM]
    ids = {
        c.belief_id
        for session in ("a", "b", "c")
        for c in cap.capture_prompt(
            big, NPM_PROMPT, session=session, transcript="/t/x.jsonl", turn=1
        )
    }
    assert len(ids) == 1
    assert len(cap.captures(big)) == 1


def test_statements_of_one_prompt_are_linked_so_one_brings_the_other(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        for n in range(20):
            memory.remember(f"note {n} about deploys and the build pipeline")
        found = cap.capture_prompt(
            memory,
            "No, we never use npm in this repository. Always use pnpm for installing packages.",
            session="s1",
            transcript=None,
            turn=None,
        )
        assert len(found) == 2
        first, second = (c.belief_id for c in found)
        edges = memory.edges(second)
        assert [(e.src, e.dst, e.type.value) for e in edges] == [(second, first, "SUPPORTS")]
        packed = [b.id for b in memory.retrieve("add the left-pad dependency with npm").beliefs]
        assert first in packed and second in packed
