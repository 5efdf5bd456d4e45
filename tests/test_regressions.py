"""Bugs a review found, each pinned by the smallest store that showed it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from credo import Memory
from credo.errors import StoreError
from credo.retrieval.lanes.doc import MAX_MENTIONS
from credo.surfaces.mcp_server import build_server
from tests.conftest import CliRun


def test_a_named_folder_cannot_flood_the_candidates(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    rows = [
        {"kind": "belief", "id": f"s{i}", "content": f"module note {i}", "doc": f"src/m{i}.py"}
        for i in range(400)
    ]
    memory.import_records(rows)
    result = memory.retrieve("fix the bug in src/", token_budget=100_000)
    assert 0 < len(result.beliefs) <= 60  # the doc lane is bounded like the graph lanes
    assert len(result.dropped) == 0


def test_hrr_turned_on_elsewhere_is_kept_true_by_an_open_process(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    early = Memory(path, root=tmp_path)  # opened before the lane exists
    for name in "xy":
        early.remember(f"node {name}", id=name)
    with Memory(path, root=tmp_path) as other:
        other.enable_hrr(dim=256)
    early.relate("y", "x", "CITES")
    assert early.store.load_traces(["x"]) != {}
    # ...and the lane is on by default for a store that keeps traces.
    assert early.retrieve("what cites x", lanes={"bm25f": False}).ids == ["y"]
    early.close()


def test_import_of_a_forgotten_text_revives_it(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    belief_id = memory.remember("Kafka topics are per tenant")
    memory.forget(belief_id)
    report = memory.import_records([{"kind": "belief", "content": "Kafka topics are per tenant"}])
    assert report.beliefs_corroborated == 1
    assert memory.get(belief_id).deleted_at is None
    assert memory.retrieve("kafka tenant").ids == [belief_id]


def test_export_onto_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", root=tmp_path)
    memory.remember("anything")
    (tmp_path / "out").mkdir()
    with pytest.raises(StoreError, match="cannot write"):
        memory.export_records(tmp_path / "out")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".credo-export")] == []


# -- found by an audit of retrieval against issue #3 and SYSTEM.md -------------------------

FILLER = [f"filler belief number {i} about lakes and mountains" for i in range(8)]


def _statements(memory: Memory, query: str) -> int:
    """SQL statements one retrieve runs (FTS5's internal "--" statements aside)."""
    seen: list[str] = []
    memory.store.conn.set_trace_callback(seen.append)
    try:
        memory.retrieve(query, with_doc_anchors=True)
    finally:
        memory.store.conn.set_trace_callback(None)
    return len([s for s in seen if not s.startswith("--")])


# -- --explain: the per-lane parts must add up to the score ----------------------------------


def test_explained_parts_add_up_to_the_score_after_feedback(memory: Memory) -> None:
    """The posterior term is a part of its own: with feedback, the parts --explain and the
    JSON show still add up to the score beside them."""
    memory.import_records(
        [
            {
                "kind": "belief",
                "id": "cache",
                "content": "The cache is invalidated on every deploy",
            },
            {"kind": "belief", "id": "script", "content": "The deploy script runs migrations"},
        ]
        + [{"kind": "belief", "id": f"f{i}", "content": t} for i, t in enumerate(FILLER)]
    )
    for _ in range(5):
        memory.feedback("cache", "harmful")
    result = memory.retrieve("cache invalidated")
    cache = next(b for b in result.beliefs if b.id == "cache")
    assert sum(cache.lanes.values()) == pytest.approx(cache.score, abs=1e-9)


# -- L0: locks beyond half the budget must be listed, never dropped silently -----------------


def test_search_text_lists_locked_overflow_and_dropped_when_nothing_fits(run: CliRun) -> None:
    """With nothing placed, `credo search` still lists the locks beyond the budget and what
    did not fit (it used to say that nothing matched)."""
    lock = run("remember", "Always write a changelog entry for every release", "--lock", check=True)
    lock_id = lock.stdout.strip()
    run("remember", "The deploy checklist lives in the wiki", check=True)
    done = run("search", "deploy checklist", "--budget", "0", check=True)
    assert "no beliefs match" not in done.stdout
    assert lock_id in done.stdout  # listed compactly, as with a larger budget
    assert "did not fit" in done.stdout


# -- lanes: locked and forgotten beliefs must not shape the lanes ----------------------------


def test_a_locked_belief_does_not_scale_down_a_lane(memory: Memory) -> None:
    """A lane is normalised over the candidates: a locked hub with the most heat used to cap
    the heat part of every unlocked candidate below the lane's weight."""
    records: list[dict[str, Any]] = [
        {"kind": "belief", "id": f"s{i}", "content": f"kiwi fact number {i}"} for i in range(6)
    ]
    records += [
        {"kind": "belief", "id": "hub", "content": "the hub rule"},
        {"kind": "belief", "id": "n", "content": "a plain neighbour"},
    ]
    records += [{"kind": "belief", "id": f"f{i}", "content": t} for i, t in enumerate(FILLER)]
    records += [
        {"kind": "edge", "src": f"s{i}", "dst": "hub", "type": "SUPPORTS"} for i in range(6)
    ]
    records += [{"kind": "edge", "src": "n", "dst": "s0", "type": "SUPPORTS"}]
    memory.import_records(records)
    memory.lock("hub")
    result = memory.retrieve("kiwi", lanes={"bfs": False})
    heat = [b.lanes.get("heat", 0.0) for b in result.beliefs if not b.locked]
    # Normalised over the candidates, the best unlocked one earns the full heat weight.
    assert max(heat) == pytest.approx(0.3)


def test_a_locked_belief_takes_no_place_in_a_graph_lane(memory: Memory) -> None:
    """A graph lane keeps its best few non-keyword beliefs: a locked one (placed by L0)
    used to take one of those places from an unlocked neighbour."""
    from credo.retrieval import pipeline as retrieval

    memory.import_records(
        [
            {"kind": "belief", "id": "seed", "content": "kiwi orchards"},
            {"kind": "belief", "id": "hub", "content": "the hub rule"},
            {"kind": "belief", "id": "n", "content": "a plain neighbour"},
            {"kind": "edge", "src": "seed", "dst": "hub", "type": "SUPPORTS"},
            {"kind": "edge", "src": "seed", "dst": "n", "type": "RELATES_TO"},
        ]
        + [{"kind": "belief", "id": f"f{i}", "content": t} for i, t in enumerate(FILLER)]
    )
    memory.lock("hub")  # the hub has more heat than n (SUPPORTS 1.0 vs RELATES_TO 0.3)
    options = retrieval.Options(graph_lane_limit=1, lanes={"hrr": False})
    result = retrieval.retrieve(memory.store, "kiwi", options)
    assert "n" in result.ids and {"heat", "bfs"} <= set(result.beliefs[result.ids.index("n")].lanes)


def test_a_forgotten_beliefs_anchor_text_no_longer_finds_its_target(memory: Memory) -> None:
    """A belief's anchor text comes from live citing beliefs only (m005): a forgotten
    belief's words used to keep finding what it cited through BM25F."""
    wrong = memory.remember("We run the Oracle database in production")
    target = memory.remember("Schema changes go through the migration runner")
    for text in FILLER:
        memory.remember(text)
    memory.relate(wrong, target, "CITES", anchor_text="oracle runbook")
    assert target in memory.retrieve("oracle runbook").ids
    memory.forget(wrong)
    assert target not in memory.retrieve("oracle runbook").ids


# -- bad input: bounded work per query -------------------------------------------------------


def test_urls_in_a_query_are_capped_like_other_document_mentions(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """URLs count toward the doc lane's mention cap like paths and file names: each costs a
    read, and a prompt with a pasted list of links used to run hundreds of statements."""
    # The timed rules (the bm25 mirror's build, the truth links' full read) add statements
    # once a slow machine's queries have cost enough: off, the counts are the lanes' own
    # (the test failed once under load, 26 statements against 22 + 2).
    memory.store._mirror_policy().disable()
    monkeypatch.setattr(type(memory.store), "_full_read_pays", lambda self, spent: False)
    for i in range(20):
        memory.remember(f"note {i} about the docs", doc=f"https://example.com/page{i}")
    capped = " ".join(f"https://e.co/{i}" for i in range(MAX_MENTIONS))
    many = " ".join(f"https://e.co/{i}" for i in range(200))
    memory.retrieve(capped)  # the first retrieve also reads the lock list: not counted
    # A statement or two of slack: the bm25 mirror's policy may read the index size once.
    assert _statements(memory, many) <= _statements(memory, capped) + 2


def test_mcp_search_with_an_empty_query_returns_the_locked_beliefs(tmp_path: Path) -> None:
    """An empty query returns the locked beliefs, through MCP too (its schema used to refuse
    it)."""
    (tmp_path / ".git").mkdir()
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        rule = memory.remember("Never push directly to main", lock=True)
        outcome: dict[str, Any] = {}

        async def main() -> None:
            async with Client(build_server(memory), raise_exceptions=False) as client:
                found = await client.call_tool("search_memory", {"query": ""})
                outcome["error"] = found.is_error
                outcome["data"] = found.structured_content

        anyio.run(main)
    assert not outcome["error"]
    assert [b["id"] for b in outcome["data"]["beliefs"]] == [rule]
