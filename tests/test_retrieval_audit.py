"""Retrieval audit (issue #3): each test pins one defect found against the issue's "What to
build" list, its "Bad input" paragraph and SYSTEM.md § Retrieval pipeline. Every test fails
on the code as audited and passes once the defect is fixed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from credo import Memory
from credo.lanes.doc import MAX_MENTIONS
from credo.mcp_server import build_server
from tests.conftest import CliRun

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
    """rank.compose adds w_post * (confidence - 1/2) to the score but never records it among
    the parts, so once a belief has feedback the lanes --explain / JSON print no longer sum
    to the score shown beside them."""
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
    """render.result_text returns "no beliefs match ..." as soon as no belief was placed: with
    a small budget the locks beyond it and the matches that did not fit vanish from
    `credo search`, and the text says nothing matched when something did."""
    lock = run("remember", "Always write a changelog entry for every release", "--lock", check=True)
    lock_id = lock.stdout.strip()
    run("remember", "The deploy checklist lives in the wiki", check=True)
    done = run("search", "deploy checklist", "--budget", "0", check=True)
    assert "no beliefs match" not in done.stdout
    assert lock_id in done.stdout  # listed compactly, as with a larger budget
    assert "did not fit" in done.stdout


def test_hook_block_lists_locked_beliefs_beyond_half_the_budget(tmp_path: Path) -> None:
    """render.memory_block prints only the placed beliefs: the hook (and MCP's memory_block)
    drop the locks beyond half the budget silently, although RetrievalResult lists them."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    rule = "Locked team rule {n}: " + "always follow the documented release procedure " * 4
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        for n in range(30):
            memory.remember(rule.format(n=n), lock=True, id=f"rule-{n:02d}")
        memory.remember("The deploy checklist lives in the wiki", id="deploy")
        expected = memory.retrieve("deploy checklist", with_doc_anchors=True)
    assert expected.locked_overflow  # the store is set up so that locks overflow
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["HOME"] = str(tmp_path / "home")
    env["CREDO_HOOK_LOG"] = str(tmp_path / "hook.log")
    payload = json.dumps({"prompt": "deploy checklist", "cwd": str(project)}).encode()
    done = subprocess.run(
        [sys.executable, "-m", "credo", "hook", "prompt"],
        input=payload,
        cwd=project,
        env=env,
        capture_output=True,
        timeout=60,
        check=True,
    )
    block = done.stdout.decode("utf-8")
    assert "[deploy]" in block
    missing = [i for i in expected.locked_overflow if i not in block]
    assert not missing, f"locked beliefs dropped silently from the hook block: {missing}"


# -- lanes: locked and forgotten beliefs must not shape the lanes ----------------------------


def test_a_locked_belief_does_not_scale_down_a_lane(memory: Memory) -> None:
    """rank.normalise divides each lane by its best raw score over every id the lane reached,
    locked ones included (compose drops them only afterwards): a locked hub with the most
    heat caps the heat lane of every unlocked candidate below its weight."""
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


def test_a_forgotten_beliefs_anchor_text_no_longer_finds_its_target(memory: Memory) -> None:
    """The FTS anchor_text column of a belief is rebuilt from its incoming edges only when an
    edge changes; soft-forgetting the citing belief keeps its words in the target's index
    row, so the forgotten belief's text still retrieves the target through BM25F."""
    wrong = memory.remember("We run the Oracle database in production")
    target = memory.remember("Schema changes go through the migration runner")
    for text in FILLER:
        memory.remember(text)
    memory.relate(wrong, target, "CITES", anchor_text="oracle runbook")
    assert target in memory.retrieve("oracle runbook").ids
    memory.forget(wrong)
    assert target not in memory.retrieve("oracle runbook").ids


# -- bad input: bounded work per query -------------------------------------------------------


def test_urls_in_a_query_are_capped_like_other_document_mentions(memory: Memory) -> None:
    """lanes/doc.mentions caps paths, file names and page names at MAX_MENTIONS but not URLs:
    each URL costs the doc lane one or two SQL statements (a prefix scan, then a LIKE scan of
    every anchor), so a prompt with a pasted list of links runs hundreds of statements."""
    for i in range(20):
        memory.remember(f"note {i} about the docs", doc=f"https://example.com/page{i}")
    capped = " ".join(f"https://e.co/{i}" for i in range(MAX_MENTIONS))
    many = " ".join(f"https://e.co/{i}" for i in range(200))
    memory.retrieve(capped)  # the first retrieve also reads the lock list: not counted
    # A statement or two of slack: the bm25 mirror's policy may read the index size once.
    assert _statements(memory, many) <= _statements(memory, capped) + 2


def test_mcp_search_with_an_empty_query_returns_the_locked_beliefs(tmp_path: Path) -> None:
    """Issue #3, bad input: an empty query returns L0 only, never an error. search_memory's
    schema (min_length=1) turns it into a validation error instead; `credo search ""` and
    Memory.retrieve("") return the locks."""
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
