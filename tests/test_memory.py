"""The Memory API: writes, dedup, edges, forgetting, feedback and bad input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.edge_types import Edge
from credo.errors import ConflictError, CredoError, InvalidInputError, NotFoundError
from credo.knowledge.identity import MAX_CONTENT_CHARS
from credo.types import EDGE_VALENCE, EdgeType

# The shared suite (tests/conftest.py): every test here runs on SQLite and PostgreSQL.
BOTH_BACKENDS = True


def test_remember_and_get(memory: Memory) -> None:
    belief_id = memory.remember("Builds use uv, never pip", kind="preference", session="s1")
    belief = memory.get(belief_id)
    assert belief.content == "Builds use uv, never pip"
    assert belief.kind == "preference"
    assert belief.session == "s1"
    assert not belief.locked
    assert belief.confidence == 0.5
    assert belief_id == memory.remember("Builds use uv, never pip")  # stable content id


def test_exact_duplicate_corroborates(memory: Memory) -> None:
    first = memory.remember("The API is served on port 8080")
    again = memory.remember("  the API is   served on port 8080 ")
    assert first == again
    assert memory.get(first).corroborations == 1
    assert memory.stats().beliefs == 1


def test_caller_id_is_kept_and_reuse_for_other_text_conflicts(memory: Memory) -> None:
    assert memory.remember("Alpha", id="D1:1") == "D1:1"
    assert memory.remember("alpha", id="D1:1") == "D1:1"  # same text: corroboration
    with pytest.raises(ConflictError, match="D1:1"):
        memory.remember("Beta", id="D1:1")


def test_lock_unlock(memory: Memory) -> None:
    belief_id = memory.remember("Never push to main", lock=True)
    assert memory.get(belief_id).locked
    assert not memory.unlock(belief_id).locked
    assert memory.lock(belief_id).locked
    assert memory.stats().locked == 1


def test_relate_default_weight_is_valence(memory: Memory) -> None:
    a = memory.remember("a claim")
    b = memory.remember("its support")
    for edge_type in EdgeType:
        edge = memory.relate(b, a, edge_type.value.lower())
        assert edge.weight == EDGE_VALENCE[edge_type]
    assert memory.relate(a, b, "CITES", weight=0.9, anchor_text="support").weight == 0.9
    assert len(memory.edges(a)) == len(EdgeType) + 1


def test_anchor_text_feeds_the_keyword_index(memory: Memory) -> None:
    a = memory.remember("The runbook for outages")
    b = memory.remember("Page the on-call engineer first")
    assert memory.store.keyword_search(["pager"], limit=5) == []
    memory.relate(a, b, "CITES", anchor_text="pager escalation")
    assert [h.belief_id for h in memory.store.keyword_search(["pager"], limit=5)] == [b]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda m, a, b: m.remember(""), InvalidInputError),
        (lambda m, a, b: m.remember("   \n\t "), InvalidInputError),
        (lambda m, a, b: m.remember("x" * (MAX_CONTENT_CHARS + 1)), InvalidInputError),
        (lambda m, a, b: m.remember("nul\x00byte"), InvalidInputError),
        (lambda m, a, b: m.remember("lone \ud800 surrogate"), InvalidInputError),
        (lambda m, a, b: m.remember("ok", kind="gossip"), InvalidInputError),
        (lambda m, a, b: m.remember("ok", doc="  "), InvalidInputError),
        (lambda m, a, b: m.relate(a, b, "LIKES"), InvalidInputError),
        (lambda m, a, b: m.relate(a, "missing", "CITES"), NotFoundError),
        (lambda m, a, b: m.relate(a, a, "CITES"), InvalidInputError),
        (lambda m, a, b: m.relate(a, b, "SUPPORTS"), ConflictError),  # duplicate edge
        (lambda m, a, b: m.relate(a, b, "CITES", weight=3.0), InvalidInputError),
        (lambda m, a, b: m.relate(a, b, "CITES", weight=float("nan")), InvalidInputError),
        (lambda m, a, b: m.lock("missing"), NotFoundError),
        (lambda m, a, b: m.feedback(a, "meh"), InvalidInputError),
        (lambda m, a, b: m.forget("missing"), NotFoundError),
        (lambda m, a, b: m.link(a, ""), InvalidInputError),
        (lambda m, a, b: m.link(a, "docs/x.md", lines="30-12"), InvalidInputError),
    ],
)
def test_bad_input_is_a_clear_error_and_changes_nothing(memory: Memory, call, error) -> None:  # type: ignore[no-untyped-def]
    a = memory.remember("first belief")
    b = memory.remember("second belief")
    memory.relate(a, b, "SUPPORTS")
    before = memory.store.conn.execute("SELECT count(*) FROM ingest_log").fetchone()[0]
    exported_before = _dump(memory)
    with pytest.raises(error) as info:
        call(memory, a, b)
    assert isinstance(info.value, CredoError)
    assert str(info.value) and "\n" not in str(info.value)
    assert _dump(memory) == exported_before
    assert memory.store.conn.execute("SELECT count(*) FROM ingest_log").fetchone()[0] == before


def _dump(memory: Memory) -> tuple[object, ...]:
    return (
        list(memory.store.iter_beliefs()),
        list(memory.store.iter_edges()),
        list(memory.store.iter_anchors()),
    )


def test_soft_forget_hides_from_search_and_revives(memory: Memory) -> None:
    belief_id = memory.remember("Kubernetes manifests live in deploy/")
    memory.forget(belief_id)
    assert memory.get(belief_id).deleted_at is not None
    assert memory.store.keyword_search(["kubernetes"], limit=5) == []
    assert memory.remember("Kubernetes manifests live in deploy/") == belief_id
    assert memory.get(belief_id).deleted_at is None
    assert [h.belief_id for h in memory.store.keyword_search(["kubernetes"], limit=5)] == [
        belief_id
    ]


def test_hard_forget_cascades_and_redacts(memory: Memory) -> None:
    a = memory.remember("secret token is hunter2", doc="notes/secrets.md")
    b = memory.remember("rotate tokens monthly")
    memory.relate(a, b, "SUPPORTS")
    memory.forget(a, hard=True)
    with pytest.raises(NotFoundError):
        memory.get(a)
    assert memory.edges(b) == []
    assert list(memory.store.iter_anchors()) == []
    payloads = [e.payload for e in memory.store.log_entries(a)]
    assert all("hunter2" not in str(p) for p in payloads)
    assert memory.store.keyword_search(["hunter2"], limit=5) == []
    assert memory.store.integrity_check() == []


def test_feedback_moves_the_posterior(memory: Memory) -> None:
    belief_id = memory.remember("Use ruff for linting")
    assert memory.feedback(belief_id, "used").confidence == pytest.approx(2 / 3)
    assert memory.feedback(belief_id, "harmful").confidence == pytest.approx(0.5)


def test_every_write_is_logged(memory: Memory) -> None:
    a = memory.remember("one", doc="docs/one.md")
    b = memory.remember("two")
    memory.relate(a, b, "CITES")
    memory.lock(a)
    memory.feedback(a, "used")
    memory.forget(b)
    ops = [e.op for e in memory.store.log_entries()]
    assert ops == ["remember", "link", "remember", "relate", "lock", "feedback", "forget"]


def test_ingest_log_is_append_only(memory: Memory) -> None:
    memory.remember("one")
    # sqlite3.DatabaseError or psycopg.Error: the database itself refuses.
    with pytest.raises(Exception, match="append-only"):
        memory.store.conn.execute("DELETE FROM ingest_log")
    with pytest.raises(Exception, match="append-only"):
        memory.store.conn.execute("UPDATE ingest_log SET op = 'x'")


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=20))
def test_dedup_is_by_normalised_text(mem_memory: Memory, texts: list[str]) -> None:
    from credo.knowledge.identity import content_hash

    stored: dict[str, str] = {}
    for text in texts:
        try:
            belief_id = mem_memory.remember(text)
        except InvalidInputError:
            continue
        digest = content_hash(text.strip())
        assert stored.setdefault(digest, belief_id) == belief_id
    live = {b.content_hash for b in mem_memory.store.iter_beliefs()}
    assert set(stored) <= live
    # No two live beliefs share normalised text (rows from earlier examples included).
    hashes = [b.content_hash for b in mem_memory.store.iter_beliefs()]
    assert len(hashes) == len(set(hashes))


def test_store_survives_reopen(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "m.db"
    with Memory(path, root=tmp_path) as memory:
        belief_id = memory.remember("persisted")
    with Memory(path, root=tmp_path) as memory:
        assert memory.get(belief_id).content == "persisted"


def test_export_reads_one_snapshot_and_holds_no_writer_up(
    memory: Memory, store_location: str | Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A belief and an edge another connection writes while the export is between its
    beliefs and its edges are in neither (one snapshot), and that writer goes ahead at once:
    the export takes no write lock (it would wait the busy timeout, then fail)."""
    deploy = memory.remember("The deploy script lives in ops")
    memory.relate(memory.remember("Rollback uses the deploy script"), deploy, "CITES")
    read_edges = memory.store.iter_edges
    written: list[str] = []

    def edges_after_a_write() -> Iterator[Edge]:
        with Memory(store_location, root=tmp_path) as other:
            frozen = other.remember("Deploys are frozen on Fridays")
            other.relate(frozen, deploy, "SUPPORTS")
            written.append(frozen)
        yield from read_edges()

    monkeypatch.setattr(memory.store, "iter_edges", edges_after_a_write)
    report = memory.export_records(tmp_path / "out.jsonl")
    assert written and (report.beliefs, report.edges) == (2, 1)
    assert memory.stats().beliefs == 3
