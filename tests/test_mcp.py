"""The MCP server through the SDK's real client: in-process (memory transport) and over stdio
with ``credo mcp`` as a subprocess. Every tool end to end, the error paths, and a contract
test that freezes the tool surface and its Memory <-> CLI <-> MCP mapping."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from credo.memory import Memory
from credo.surfaces.cli.commands import cli
from credo.surfaces.mcp_server import INSTRUCTIONS, build_server
from tests.conftest import keep_global

Session = Callable[[Client], Awaitable[None]]


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "tests").mkdir()
    for name in ("docs/a.md", "docs/deploy.md", "tests/test_smoke.py"):
        (tmp_path / name).write_text("# A line.\n" * 10, encoding="utf-8")
    mem = Memory(tmp_path / "memory.db", root=tmp_path)
    yield mem  # type: ignore[misc]
    mem.close()


def in_process(memory: Memory, session: Session) -> None:
    async def main() -> None:
        async with Client(build_server(memory), raise_exceptions=False) as client:
            await session(client)

    anyio.run(main)


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    # The text the model reads is the same JSON as the structured result.
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


def error(result: CallToolResult) -> str:
    assert result.is_error
    return result.content[0].text  # type: ignore[union-attr]


# -- the contract -----------------------------------------------------------------------------
# tool -> (Memory method, CLI command, {parameter: (JSON type, required)}, annotations)
CONTRACT: dict[str, tuple[str, str, dict[str, tuple[str, bool]], tuple[bool, bool, bool]]] = {
    "search_memory": (
        "retrieve",
        "search",
        {"query": ("string", True), "budget": ("integer", False), "history": ("boolean", False)},
        (True, False, True),
    ),
    "remember_belief": (
        "remember",
        "remember",
        {
            "text": ("string", True),
            "doc": ("string|null", False),
            "kind": ("string", False),
            "scope": ("string", False),
            "retention": ("string|null", False),
        },
        (False, False, False),
    ),
    "lock_belief": (
        "lock",
        "lock",
        {"id": ("string", True), "scope": ("string", False)},
        (False, False, True),
    ),
    "relate_beliefs": (
        "relate",
        "relate",
        {
            "src": ("string", True),
            "dst": ("string", True),
            "type": ("string", True),
            "weight": ("number|null", False),
        },
        (False, False, False),
    ),
    "link_document": (
        "link",
        "link",
        {"id": ("string", True), "uri": ("string", True), "lines": ("string|null", False)},
        (False, False, True),
    ),
    "unlink_document": (
        "unlink",
        "unlink",
        {"id": ("string", True), "uri": ("string", True), "lines": ("string|null", False)},
        (False, False, True),
    ),
    "list_anchors": (
        "anchors",
        "anchors",
        {"id": ("string|null", False), "doc": ("string|null", False)},
        (True, False, True),
    ),
    "forget_belief": (
        "forget",
        "forget",
        {"id": ("string", True), "hard": ("boolean", False)},
        (False, True, True),
    ),
    "list_conflicts": ("conflicts", "conflicts", {}, (True, False, True)),
    "get_belief": ("get", "show", {"id": ("string", True)}, (True, False, True)),
    "resolve_conflict": (
        "resolve",
        "resolve",
        {"winner": ("string", True), "loser": ("string", True)},
        (False, False, False),
    ),
    "give_feedback": (
        "feedback",
        "feedback",
        {"id": ("string", True), "signal": ("string", True)},
        (False, False, False),
    ),
}


def json_type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return "|".join(s["type"] for s in schema["anyOf"])
    return str(schema["type"])


def test_contract_freezes_names_parameters_and_annotations(memory: Memory) -> None:
    async def session(client: Client) -> None:
        assert client.instructions == INSTRUCTIONS
        assert "search_memory first" in INSTRUCTIONS
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert sorted(tools) == sorted(CONTRACT)
        for name, (_, _, params, (read_only, destructive, idempotent)) in CONTRACT.items():
            tool = tools[name]
            schema = tool.input_schema
            got = {
                p: (json_type(s), p in schema.get("required", []))
                for p, s in schema["properties"].items()
            }
            assert got == params, name
            assert tool.title and tool.description and len(tool.description) > 80
            ann = tool.annotations
            assert ann is not None
            assert (ann.read_only_hint, ann.destructive_hint, ann.idempotent_hint) == (
                read_only,
                destructive,
                idempotent,
            ), name
            assert ann.open_world_hint is False
        signal = tools["give_feedback"].input_schema["properties"]["signal"]
        assert signal["enum"] == ["used", "harmful"]

    in_process(memory, session)


def test_contract_maps_every_tool_to_a_memory_method_and_a_cli_command() -> None:
    commands = set(cli.list_commands(None))  # type: ignore[arg-type]
    for name, (method, command, _, _) in CONTRACT.items():
        assert callable(getattr(Memory, method)), name
        assert command in commands, name
        verb, _, noun = name.partition("_")
        assert verb.isalpha() and noun, name  # snake_case verb_noun


# -- every tool, end to end ------------------------------------------------------------------
def test_every_tool_end_to_end(memory: Memory, tmp_path: Path) -> None:
    async def session(client: Client) -> None:
        rule = data(
            await client.call_tool(
                "remember_belief", {"text": "Never push directly to main", "kind": "requirement"}
            )
        )["belief"]
        assert rule["kind"] == "requirement" and rule["origin"] == "agent_inferred"
        staged = data(
            await client.call_tool(
                "remember_belief",
                {"text": "Deploys go through staging first", "doc": "docs/deploy.md#L1-L9"},
            )
        )
        deploy_id = staged["belief"]["id"]
        assert staged["anchors"][0]["doc_uri"] == "docs/deploy.md#L1-L9"
        smoke_id = data(
            await client.call_tool(
                "remember_belief", {"text": "Smoke tests gate every staging deploy"}
            )
        )["belief"]["id"]

        locked = data(await client.call_tool("lock_belief", {"id": rule["id"]}))["belief"]
        assert locked["locked"] is True

        edge = data(
            await client.call_tool(
                "relate_beliefs", {"src": smoke_id, "dst": deploy_id, "type": "supports"}
            )
        )["edge"]
        assert (edge["type"], edge["weight"]) == ("SUPPORTS", 1.0)

        anchor = data(
            await client.call_tool(
                "link_document", {"id": smoke_id, "uri": "tests/test_smoke.py", "lines": "3-8"}
            )
        )["anchor"]
        assert anchor["doc_uri"] == "tests/test_smoke.py#L3-L8"
        dropped = data(
            await client.call_tool(
                "unlink_document", {"id": smoke_id, "uri": "tests/test_smoke.py"}
            )
        )["unlinked"]
        assert [(a["belief_id"], a["doc_uri"]) for a in dropped] == [
            (smoke_id, "tests/test_smoke.py#L3-L8")
        ]
        assert data(await client.call_tool("list_anchors", {"id": smoke_id}))["anchors"] == []
        again = {"id": smoke_id, "uri": "tests/test_smoke.py", "lines": "3-8"}
        data(await client.call_tool("link_document", again))  # (the search below reads it)

        by_id = data(await client.call_tool("list_anchors", {"id": deploy_id}))["anchors"]
        assert [a["doc_uri"] for a in by_id] == ["docs/deploy.md#L1-L9"]
        by_doc = data(await client.call_tool("list_anchors", {"doc": "docs/"}))["anchors"]
        assert [a["belief_id"] for a in by_doc] == [deploy_id]

        found = data(await client.call_tool("search_memory", {"query": "how to deploy staging"}))
        ids = [b["id"] for b in found["beliefs"]]
        assert ids[0] == rule["id"] and found["beliefs"][0]["locked"] is True
        assert deploy_id in ids and smoke_id in ids
        first = next(b for b in found["beliefs"] if b["id"] == deploy_id)
        assert first["doc_anchors"][0]["doc_uri"] == "docs/deploy.md#L1-L9"
        assert "cluster_id" in first
        block = found["memory_block"]
        assert block.startswith("<credo-memory") and block.endswith("</credo-memory>\n")
        short = found["beliefs"][0]["short_id"]  # the block names a belief by its short id
        assert len(short) == 8 and rule["id"].startswith(short)
        assert f"[{short} locked] Never push directly to main" in block
        assert "(from docs/deploy.md#L1-L9)" in block
        shown = data(await client.call_tool("get_belief", {"id": short}))
        assert shown["belief"]["id"] == rule["id"]  # and every tool takes it back

        fed = data(await client.call_tool("give_feedback", {"id": deploy_id, "signal": "used"}))
        assert fed["belief"]["alpha"] == 2.0

        gone = data(await client.call_tool("forget_belief", {"id": smoke_id[:8]}))  # short
        assert gone == {
            "id": smoke_id,
            "forgotten": True,
            "hard": False,
            "store": "project",
            "current_again": [],
        }
        data(await client.call_tool("forget_belief", {"id": deploy_id, "hard": True}))
        after = data(await client.call_tool("search_memory", {"query": "deploy staging"}))
        assert [b["id"] for b in after["beliefs"]] == [rule["id"]]

    in_process(memory, session)
    assert memory.get(memory.store.locked_beliefs()[0].id).locked  # written to the store


def test_search_with_a_small_budget_and_clusters(memory: Memory) -> None:
    for n in range(30):
        memory.remember(f"deploy note number {n} about staging", id=f"n{n}")
    memory.relate("n1", "n2", "SUPPORTS")

    async def session(client: Client) -> None:
        small = data(await client.call_tool("search_memory", {"query": "deploy", "budget": 40}))
        assert small["used_tokens"] <= 40 and small["dropped"]
        assert len(small["memory_block"].splitlines()) == len(small["beliefs"]) + 2

    in_process(memory, session)


def test_get_belief_reads_whole_what_search_shows_cut(memory: Memory) -> None:
    long = (
        "The release train leaves every second Tuesday. Tags are cut from main after the "
        "freeze. Hotfixes go to the release branch and are merged back the same day. The "
        "changelog is written by the person who cuts the tag, from the merged pull requests."
    )
    memory.remember(long, origin="conversation", id="train")
    memory.remember("Unrelated note about the office coffee machine", id="coffee")

    async def session(client: Client) -> None:
        found = data(await client.call_tool("search_memory", {"query": "hotfixes", "budget": 30}))
        (belief,) = found["beliefs"]
        assert belief["id"] == "train" and belief["strategy"] == "snippet"
        assert (
            belief["rendered"]
            == "… Hotfixes go to the release branch and are merged back the same day. …"
        )
        assert belief["original_chars"] == len(long) and belief["content"] == long
        assert "[train] … Hotfixes go to" in found["memory_block"]
        whole = data(await client.call_tool("get_belief", {"id": "train"}))
        assert whole["belief"]["content"] == long
        assert whole["belief"]["origin"] == "conversation"
        assert whole["anchors"] == [] and whole["edges"] == []
        assert "no belief" in error(await client.call_tool("get_belief", {"id": "missing"}))

    in_process(memory, session)


def test_search_of_an_empty_store_is_an_empty_result(memory: Memory) -> None:
    async def session(client: Client) -> None:
        found = data(await client.call_tool("search_memory", {"query": "anything"}))
        assert found["beliefs"] == [] and found["memory_block"] == ""

    in_process(memory, session)


# -- error paths: tool errors the model can read; the server keeps serving ---------------------
@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("lock_belief", {"id": "nope"}, "no belief with id 'nope'"),
        ("give_feedback", {"id": "nope", "signal": "used"}, "no belief with id 'nope'"),
        ("forget_belief", {"id": "nope"}, "no belief with id 'nope'"),
        ("link_document", {"id": "nope", "uri": "docs/a.md"}, "no belief with id 'nope'"),
        ("list_anchors", {"id": "nope"}, "no belief with id 'nope'"),
        ("relate_beliefs", {"src": "nope", "dst": "r", "type": "CITES"}, "no belief"),
        ("relate_beliefs", {"src": "r", "dst": "r", "type": "CITES"}, "self-edge"),
        ("relate_beliefs", {"src": "r", "dst": "s", "type": "LIKES"}, "unknown edge type"),
        ("relate_beliefs", {"src": "r", "dst": "s", "type": "CITES", "weight": 3}, "weight"),
        ("remember_belief", {"text": "x" * 20_001}, "over the limit of 20000"),
        ("remember_belief", {"text": "   "}, "empty"),
        ("remember_belief", {"text": "ok", "kind": "gossip"}, "kind 'gossip' must be one of"),
        ("remember_belief", {"text": "ok", "doc": "   "}, "empty"),
        ("remember_belief", {"text": "nul \x00 inside"}, "NUL"),
        ("remember_belief", {"text": "ok", "doc": "docs/typo.md"}, "typo.md' does not exist"),
        ("link_document", {"id": "r", "uri": "docs/typo.md#L1-L2"}, "typo.md' does not exist"),
        # lines past the end of a 10-line file name nothing (probe83)
        ("remember_belief", {"text": "ok", "doc": "docs/a.md#L900-L950"}, "has 10 lines; L900"),
        ("link_document", {"id": "r", "uri": "docs/a.md", "lines": "11-12"}, "past its end"),
        ("link_document", {"id": "r", "uri": "docs/a.md", "lines": "9-x"}, "9-x"),
        ("unlink_document", {"id": "nope", "uri": "docs/a.md"}, "no belief with id 'nope'"),
        ("unlink_document", {"id": "r", "uri": "docs/a.md"}, "has no anchors"),
        ("unlink_document", {"id": "r", "uri": "docs/a.md", "lines": "9-x"}, "9-x"),
        ("unlink_document", {"id": "r", "uri": ""}, "uri"),
        ("list_anchors", {}, "exactly one of id"),
        ("list_anchors", {"id": "r", "doc": "docs/"}, "exactly one of id"),
        ("give_feedback", {"id": "r", "signal": "great"}, "signal"),
        ("search_memory", {"query": 5}, "valid string"),
        ("search_memory", {"query": "x", "budget": "lots"}, "budget"),
        ("search_memory", {"query": "x", "budget": -1}, "budget"),
        ("search_memory", {}, "query"),
        ("lock_belief", {"id": ["r"]}, "valid string"),
        ("forget_belief", {"id": "r", "hard": "maybe"}, "hard"),
        ("forget_belief", {"id": "r", "hard": "yes"}, "hard"),  # (erased it: probe60)
        ("forget_belief", {"id": "r", "hard": 1}, "hard"),
        ("no_such_tool", {}, "no_such_tool"),
    ],
)
def test_errors_are_tool_errors_and_the_server_survives(
    memory: Memory, tool: str, arguments: dict[str, Any], message: str
) -> None:
    memory.remember("the r belief", id="r")
    memory.remember("the s belief", id="s")

    async def session(client: Client) -> None:
        assert message in error(await client.call_tool(tool, arguments))
        still = data(await client.call_tool("search_memory", {"query": "belief"}))
        assert {b["id"] for b in still["beliefs"]} == {"r", "s"}

    in_process(memory, session)
    stats = memory.stats()
    assert (stats.beliefs, stats.anchors) == (2, 0)  # a refusal stores nothing


def test_duplicate_edge_and_forgotten_belief_errors(memory: Memory) -> None:
    memory.remember("the r belief", id="r")
    memory.remember("the s belief", id="s")

    async def session(client: Client) -> None:
        args = {"src": "r", "dst": "s", "type": "CITES"}
        data(await client.call_tool("relate_beliefs", args))
        assert "already exists" in error(await client.call_tool("relate_beliefs", args))
        data(await client.call_tool("forget_belief", {"id": "s"}))
        assert "forgotten" in error(await client.call_tool("lock_belief", {"id": "s"}))

    in_process(memory, session)


@pytest.mark.parametrize(
    ("tool", "arguments", "unknown"),
    [
        ("search_memory", {"query": "deploy", "token_budget": 50}, "token_budget"),
        ("remember_belief", {"text": "Deploys run on Fridays", "uri": "ops/deploy.sh"}, "uri"),
        ("remember_belief", {"text": "Never push to main", "lock": True}, "lock"),
        ("forget_belief", {"id": "d", "permanent": True}, "permanent"),
    ],
)
def test_an_argument_the_tool_does_not_take_is_refused_not_dropped(
    memory: Memory, tool: str, arguments: dict[str, Any], unknown: str
) -> None:
    """probe69: unknown arguments were dropped without a word: ``search_memory`` with
    ``token_budget`` (the name its own result uses; the parameter is ``budget``) packed
    2,400 tokens, ``remember_belief(uri=...)`` (link_document's name) stored no anchor and
    ``lock=True`` locked nothing, each answering as if it had worked."""
    memory.remember("deploy to staging", id="d")

    async def session(client: Client) -> None:
        said = error(await client.call_tool(tool, arguments))
        assert f"{tool}: unknown argument '{unknown}'" in said
        assert f"({tool} takes " in said
        assert memory.stats().beliefs == 1 and memory.stats().locked == 0
        assert memory.stats().anchors == 0

    in_process(memory, session)


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        (
            "search_memory",
            {"querry": "deploy"},
            "search_memory: unknown argument 'querry'; missing argument 'query' "
            "(search_memory takes query, budget, history)",
        ),
        (
            "get_belief",
            {"belief_id": "d"},
            "get_belief: unknown argument 'belief_id'; missing argument 'id' (get_belief takes id)",
        ),
        (
            "search_memory",
            {"query": "x", "budget": "lots"},
            "search_memory: budget: Input should be a valid integer, unable to parse string as "
            "an integer (got 'lots')",
        ),
        (
            "give_feedback",
            {"id": "d", "signal": "great"},
            "give_feedback: signal: Input should be 'used' or 'harmful' (got 'great')",
        ),
        (
            "remember_belief",
            {"text": 7, "kind": ["x" * 100]},
            "remember_belief: text: Input should be a valid string (got 7); kind: Input should "
            "be a valid string (got ['" + "x" * 37 + "…)",  # 40 characters of it
        ),
    ],
)
def test_argument_errors_are_one_line_naming_what_the_tool_takes(
    memory: Memory, tool: str, arguments: dict[str, Any], said: str
) -> None:
    """probe80: a mistyped argument answered with pydantic's report, several lines per error
    with the model class's name and a documentation link each; the model reads one line."""
    memory.remember("deploy to staging", id="d")

    async def session(client: Client) -> None:
        assert error(await client.call_tool(tool, arguments)) == said

    in_process(memory, session)


def test_a_crash_raising_validation_error_stays_a_crash_not_an_argument_error(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    """A tool body that crashes with a pydantic ValidationError (an internal model, not the
    caller's arguments) is the SDK's UnexpectedToolError: its text stays on the server and
    the SDK logs the traceback. The one-line argument error must not turn it into a refusal
    of the caller's arguments (review82: it did, showing the crash's fields to the model)."""
    from pydantic import BaseModel

    class _Inner(BaseModel):
        size: int

    server = build_server(memory)

    @server.tool()
    def crashes(query: str) -> str:
        return str(_Inner(size="not a number"))  # type: ignore[arg-type]

    async def main() -> None:
        async with Client(server, raise_exceptions=False) as client:
            said = error(await client.call_tool("crashes", {"query": "x"}))
            assert said == "Error executing tool crashes"
            # the server still answers
            assert not (await client.call_tool("search_memory", {"query": "x"})).is_error

    with caplog.at_level("INFO"):
        anyio.run(main)
    assert "raised an unexpected exception" in caplog.text
    assert "rejected arguments" not in caplog.text


def test_the_sdk_still_logs_which_arguments_it_rejected(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    """The one-line message keeps the ValidationError as its cause: the SDK's log line naming
    the rejected fields (never their values) is unchanged."""

    async def session(client: Client) -> None:
        said = error(await client.call_tool("search_memory", {"querry": "secret words"}))
        assert said.startswith("search_memory: unknown argument 'querry'")

    with caplog.at_level("INFO"):
        in_process(memory, session)
    assert "Tool 'search_memory' rejected arguments: ['querry', 'query']" in caplog.text
    assert "secret words" not in caplog.text


def test_huge_query_is_truncated_not_an_error(memory: Memory) -> None:
    memory.remember("deploy to staging", id="d")

    async def session(client: Client) -> None:
        found = data(await client.call_tool("search_memory", {"query": "deploy " * 200_000}))
        assert [b["id"] for b in found["beliefs"]] == ["d"]

    in_process(memory, session)


# -- over stdio: `credo mcp` as a subprocess -----------------------------------------------------
def server_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["HOME"] = str(tmp_path / "home")
    return keep_global(env)


def test_stdio_subprocess_serves_every_call(tmp_path: Path) -> None:
    db = tmp_path / "store" / "memory.db"
    (tmp_path / "RELEASE.md").write_text("Tag vX.Y.Z.\n", encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "credo", "--db", str(db), "mcp"],
        cwd=str(tmp_path),
        env=server_env(tmp_path),
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            assert "search_memory" in (client.instructions or "")
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == set(CONTRACT)
            made = data(
                await client.call_tool(
                    "remember_belief", {"text": "Releases are tagged vX.Y.Z", "doc": "RELEASE.md"}
                )
            )
            belief_id = made["belief"]["id"]
            data(await client.call_tool("lock_belief", {"id": belief_id}))
            assert "no belief" in error(await client.call_tool("lock_belief", {"id": "missing"}))
            assert "valid string" in error(await client.call_tool("search_memory", {"query": 1}))
            found = data(await client.call_tool("search_memory", {"query": "release tags"}))
            assert found["beliefs"][0]["id"] == belief_id
            short = found["beliefs"][0]["short_id"]
            assert (
                f"[{short} locked] Releases are tagged vX.Y.Z (from RELEASE.md)"
                in (found["memory_block"])
            )

    anyio.run(main)
    with Memory(db) as memory:  # the subprocess wrote to the store --db named
        assert memory.stats().locked == 1


def test_stdio_stdout_carries_only_protocol(tmp_path: Path) -> None:
    """Raw JSON-RPC over the pipe: every line on stdout parses as a JSON-RPC message, even
    around a failing call; diagnostics (if any) go to stderr."""
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "forget_belief", "arguments": {"id": "missing"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "remember_belief", "arguments": {"text": "stdout stays clean"}},
        },
    ]
    # Send one message at a time and wait for its reply: on stdin EOF the server cancels
    # requests still in flight, as it should.
    replies: list[dict[str, Any]] = []
    with subprocess.Popen(
        [sys.executable, "-m", "credo", "--db", str(tmp_path / "m.db"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=server_env(tmp_path),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            for message in messages:
                proc.stdin.write(json.dumps(message) + "\n")
                proc.stdin.flush()
                while "id" in message and not any(r.get("id") == message["id"] for r in replies):
                    line = proc.stdout.readline()
                    assert line, "server closed stdout"
                    replies.append(json.loads(line))  # every stdout line is JSON-RPC
            rest, stderr = proc.communicate(timeout=60)  # closes stdin: the server exits
        finally:
            if proc.poll() is None:
                proc.kill()
    replies += [json.loads(line) for line in rest.splitlines()]
    assert all(r["jsonrpc"] == "2.0" for r in replies)
    by_id = {r["id"]: r for r in replies if "id" in r}
    assert by_id[1]["result"]["serverInfo"]["name"] == "credo"
    assert len(by_id[2]["result"]["tools"]) == len(CONTRACT)
    assert by_id[3]["result"]["isError"] is True
    assert "no belief with id 'missing'" in by_id[3]["result"]["content"][0]["text"]
    assert by_id[4]["result"]["isError"] is False
    assert proc.returncode == 0
    assert "Traceback" not in stderr


def test_mcp_command_reports_a_bad_store_on_stderr(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database" * 100)
    done = subprocess.run(
        [sys.executable, "-m", "credo", "--db", str(bad), "mcp"],
        input="",
        capture_output=True,
        text=True,
        env=server_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: cannot open store")


# -- beliefs change: the same semantics through the tools -------------------------------------
def test_superseding_contradicting_and_resolving_through_the_tools(memory: Memory) -> None:
    old = memory.remember("We deploy with Capistrano to staging", id="old")
    new = memory.remember("We deploy with Kamal to staging", id="new")
    rule = memory.remember("Deploys to staging need a ticket", id="rule", lock=True)
    hand = memory.remember("Staging deploys happen by hand", id="hand")

    async def session(client: Client) -> None:
        data(
            await client.call_tool("relate_beliefs", {"src": new, "dst": old, "type": "SUPERSEDES"})
        )
        found = data(await client.call_tool("search_memory", {"query": "deploy staging"}))
        ids = [b["id"] for b in found["beliefs"]]
        assert old not in ids and found["superseded"] == [old]
        current = next(b for b in found["beliefs"] if b["id"] == new)
        assert current["replaces"] == [old]
        assert f"[{new[:8]}; replaces {old[:8]}]" in found["memory_block"]
        history = data(
            await client.call_tool("search_memory", {"query": "deploy staging", "history": True})
        )
        stale = next(b for b in history["beliefs"] if b["id"] == old)
        assert stale["superseded_by"] == [new]
        # An agent cannot retire a lock: a tool error that says why.
        refused = error(
            await client.call_tool(
                "relate_beliefs", {"src": hand, "dst": rule, "type": "SUPERSEDES"}
            )
        )
        assert "locked" in refused and "only the user can retire a lock" in refused
        assert "locked" in error(
            await client.call_tool("resolve_conflict", {"winner": hand, "loser": rule})
        )
        data(
            await client.call_tool(
                "relate_beliefs", {"src": hand, "dst": new, "type": "CONTRADICTS"}
            )
        )
        listed = data(await client.call_tool("list_conflicts", {}))["conflicts"]
        assert [(c["first"]["id"], c["second"]["id"]) for c in listed] == [(hand, new)]
        found = data(await client.call_tool("search_memory", {"query": "kamal"}))
        assert {b["id"] for b in found["beliefs"]} >= {new, hand}
        assert next(b for b in found["beliefs"] if b["id"] == hand)["conflicts"] == [new]
        edges = data(await client.call_tool("resolve_conflict", {"winner": new, "loser": hand}))
        assert [e["type"] for e in edges["edges"]] == ["SUPERSEDES", "RESOLVES"]
        assert data(await client.call_tool("list_conflicts", {}))["conflicts"] == []
        cycle = error(
            await client.call_tool("relate_beliefs", {"src": old, "dst": new, "type": "SUPERSEDES"})
        )
        assert "would close a cycle" in cycle

    in_process(memory, session)
    assert memory.get(rule).locked and memory.get(old).deleted_at is None
