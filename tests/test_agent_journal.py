"""The injection journal (credo.agent.journal): what is kept, what is counted, the bound."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from credo import Memory
from credo.agent import journal
from credo.errors import InvalidInputError, StoreError


def _log(memory: Memory, ids: list[str], **kw: object) -> None:
    args: dict[str, object] = {
        "event": "prompt",
        "session": "s1",
        "prompt": "how do we deploy",
        "tokens": 10,
        "chars": 40,
    }
    args.update(kw)
    journal.log_injection(memory, belief_ids=ids, **args)  # type: ignore[arg-type]


def test_a_row_keeps_the_prompt_hash_never_its_text(memory: Memory) -> None:
    a = memory.remember("Deploys go through ops/deploy.sh")
    _log(memory, [a], prompt="the secret prompt text", reason="retrieval")
    (row,) = journal.injections(memory)
    assert row.prompt_hash == hashlib.sha256(b"the secret prompt text").hexdigest()
    assert (row.session, row.event, row.belief_ids, row.tokens, row.chars, row.reason) == (
        "s1",
        "prompt",
        (a,),
        10,
        40,
        "retrieval",
    )
    dump = "\n".join(memory.store.conn.iterdump())
    assert "secret prompt" not in dump
    _log(memory, [], prompt=None, event="session_start")
    assert journal.injections(memory)[0].prompt_hash is None


def test_newest_first_by_session_with_a_limit(memory: Memory) -> None:
    for n in range(5):
        _log(memory, [], session="a" if n % 2 else "b", tokens=n)
    assert [r.tokens for r in journal.injections(memory)] == [4, 3, 2, 1, 0]
    assert [r.tokens for r in journal.injections(memory, session="a")] == [3, 1]
    assert [r.tokens for r in journal.injections(memory, limit=2)] == [4, 3]
    assert journal.injections(memory, session="none") == []


def test_injected_ids_are_distinct_in_first_injected_order(memory: Memory) -> None:
    a, b, c = (memory.remember(t) for t in ("alpha one", "beta two", "gamma three"))
    _log(memory, [b, a])
    _log(memory, [a, c, b], session="other")
    _log(memory, [c, a, b])
    assert journal.injected_ids(memory, "s1") == [b, a, c]
    assert journal.injected_ids(memory, "other") == [a, c, b]
    assert journal.injected_ids(memory, "unknown") == []


def test_uses_are_counted_except_session_starts_and_unknown_ids(memory: Memory) -> None:
    a, b = memory.remember("alpha one"), memory.remember("beta two")
    _log(memory, [a, b, a])  # a twice in one block: one use
    _log(memory, [a, "global-lock-elsewhere"], event="subagent")
    _log(memory, [a, b], event="session_start")
    assert memory.store.injection_count(a) == 2
    assert memory.store.injection_count(b) == 1
    assert memory.store.injection_count("global-lock-elsewhere") == 0
    # The row still names the id the store does not hold: the journal says what was shown.
    assert "global-lock-elsewhere" in journal.injections(memory)[1].belief_ids
    memory.forget(a, hard=True)  # the count goes with the belief
    assert memory.store.injection_count(a) == 0


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"event": "stop"}, "event"),
        ({"tokens": -1}, "tokens"),
        ({"chars": 1.5}, "chars"),
        ({"tokens": True}, "tokens"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    memory: Memory, kw: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        _log(memory, [], **kw)
    with pytest.raises(InvalidInputError, match="strings"):
        _log(memory, [1])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match="limit"):
        journal.injections(memory, limit=0)
    assert journal.injections(memory) == []


def test_the_journal_is_bounded(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "KEEP", 7)
    monkeypatch.setattr(journal, "PRUNE_EVERY", 5)
    a = memory.remember("alpha one")
    for n in range(1, 23):
        _log(memory, [a], tokens=n)
        count = memory.store.conn.execute("SELECT count(*) FROM injections").fetchone()[0]
        assert count <= 7 + 5 - 1  # pruned back to KEEP at every fifth row
    # The last prune ran at row 20 (kept 14..20); rows 21 and 22 came after it.
    rows = journal.injections(memory, limit=100)
    assert [r.tokens for r in rows] == list(range(22, 13, -1))
    assert memory.store.injection_count(a) == 22  # the counts outlive the pruned rows


def test_a_failed_log_leaves_nothing(memory: Memory) -> None:
    a = memory.remember("alpha one")
    memory.store.conn.execute(
        "CREATE TRIGGER fail AFTER INSERT ON injection_counts "
        "BEGIN SELECT RAISE(ABORT, 'boom'); END"
    )
    with pytest.raises(StoreError, match="boom"):
        _log(memory, [a])
    assert journal.injections(memory) == []


def test_a_malformed_row_reads_as_no_ids(memory: Memory) -> None:
    with memory.store.transaction():
        memory.store.conn.execute(
            "INSERT INTO injections(at, session, event, belief_ids, tokens, chars) "
            "VALUES (1, 's1', 'prompt', 'not json', 0, 0)"
        )
    assert journal.injections(memory)[0].belief_ids == ()
    assert journal.injected_ids(memory, "s1") == []


def test_a_journal_write_leaves_the_edge_watch_for_the_first_edge_write(tmp_path: Path) -> None:
    """The hook journals every prompt: that write loads no edge watcher (hrr_sync), and
    the first write that can touch edges still installs it."""
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        a, b = memory.remember("alpha rule"), memory.remember("beta rule")
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        journal.log_injection(
            memory, event="prompt", session="s", prompt="q", belief_ids=[a], tokens=1, chars=1
        )
        assert not hasattr(memory, "_hrr_sync")
        memory.relate(a, b, "SUPPORTS")
        assert hasattr(memory, "_hrr_sync")


def test_a_journal_write_leaves_the_read_caches_current(tmp_path: Path) -> None:
    """A warm process journals every prompt: that must not make its keyword mirror, graph
    and truth caches stale (they key on store_version), while a belief write still does."""
    from credo.store.db import store_version

    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        a = memory.remember("alpha rule for deploys")
        memory.retrieve("alpha deploys")
        before = store_version(memory.store.conn)
        journal.log_injection(
            memory, event="prompt", session="s", prompt="q", belief_ids=[a], tokens=1, chars=1
        )
        assert store_version(memory.store.conn) == before
        memory.remember("beta rule for deploys")
        assert store_version(memory.store.conn) != before
