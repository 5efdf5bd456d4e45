"""Forgetting a belief that alone superseded another makes that one current again
(docs/RETRIEVAL.md § Only live beliefs count): forget says so, so the agent or the user is
not left with a retired value served as current without a word (probe62: forgetting the
middle of PostgreSQL <- CockroachDB <- Spanner brought PostgreSQL back). Through the real
``credo`` entry point and the SDK's MCP client."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from mcp import Client

from credo.memory import Memory
from credo.surfaces.mcp_server import build_server
from tests.conftest import CliRun


def _chain(run: CliRun) -> tuple[str, str, str]:
    ids = [
        run("remember", text, check=True).stdout.strip()
        for text in (
            "The orders service stores its data in PostgreSQL 14.",
            "The orders service moved from PostgreSQL 14 to CockroachDB.",
            "The orders service now runs on Cloud Spanner.",
        )
    ]
    run("relate", ids[1], ids[0], "SUPERSEDES", check=True)
    run("relate", ids[2], ids[1], "SUPERSEDES", check=True)
    return ids[0], ids[1], ids[2]


def test_cli_forget_names_what_is_current_again(run: CliRun) -> None:
    pg, cockroach, spanner = _chain(run)
    said = run("forget", cockroach, check=True).stdout
    assert f"current again: {pg}" in said, said
    assert "credo history" in said
    # ... which is what search now does.
    found = json.loads(run("search", "orders service database", "--json", check=True).stdout)
    assert {b["id"] for b in found["beliefs"]} == {pg, spanner}
    # Forgetting the head: the middle is forgotten, nothing comes back.
    done = json.loads(run("forget", spanner, "--json", check=True).stdout)
    assert done["current_again"] == []
    assert "current again" not in run("forget", spanner, check=True).stdout


def test_a_belief_another_live_one_supersedes_stays_retired(run: CliRun) -> None:
    old = run("remember", "Builds run on Jenkins.", check=True).stdout.strip()
    a = run("remember", "Builds run on GitHub Actions.", check=True).stdout.strip()
    b = run("remember", "Builds run on GitHub Actions runners we host.", check=True).stdout.strip()
    run("relate", a, old, "SUPERSEDES", check=True)
    run("relate", b, old, "SUPERSEDES", check=True)
    done = json.loads(run("forget", a, "--json", check=True).stdout)
    assert done["current_again"] == []


def test_mcp_forget_names_what_is_current_again(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    with Memory(tmp_path / "memory.db", root=tmp_path) as memory:
        pg = memory.remember("The orders service stores its data in PostgreSQL 14.")
        mid = memory.remember("The orders service moved to CockroachDB.")
        memory.relate(mid, pg, "SUPERSEDES")

        async def main() -> None:
            async with Client(build_server(memory), raise_exceptions=False) as client:
                result = await client.call_tool("forget_belief", {"id": mid})
                assert not result.is_error, result.content
                assert result.structured_content is not None
                assert result.structured_content["current_again"] == [pg]

        anyio.run(main)
