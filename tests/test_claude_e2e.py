"""Real clients, end to end: Claude Code itself and the MCP Inspector CLI.

Claude Code (npm ``@anthropic-ai/claude-code``) runs ``claude -p`` in a project where
``credo setup claude --project`` was run. It talks to a scripted fake of the Messages API on
127.0.0.1 (``ANTHROPIC_BASE_URL``), so no API key or network is needed past the npm install.
The fake answers the main-loop request with a ``tool_use`` of ``mcp__credo__search_memory``
and the follow-up with text; the test then checks that

- the hook's memory block reached the model request (the user turn carries it), and
- the tool call reached credo's MCP server and its result came back in the ``tool_result``.

The packages are installed once into ``.cache/claude-e2e`` under the repository (not
committed); without npm or the registry the tests skip with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from credo.memory import Memory

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("CREDO_E2E_CACHE", REPO / ".cache" / "claude-e2e"))
PACKAGES = ["@anthropic-ai/claude-code", "@modelcontextprotocol/inspector"]
TOOL = "mcp__credo__search_memory"
LOCKED = "Production deploys need a green staging run first"
ANCHORED = "The deploy script lives in scripts/deploy.sh and takes the target env"


def _install() -> Path:
    """The cache folder with both packages installed (npm install on first use)."""
    claude = CACHE / "node_modules" / ".bin" / "claude"
    inspector = CACHE / "node_modules" / ".bin" / "mcp-inspector"
    if claude.exists() and inspector.exists():
        return CACHE
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed; Claude Code end-to-end tests need Node.js and npm")
    CACHE.mkdir(parents=True, exist_ok=True)
    manifest = CACHE / "package.json"
    if not manifest.exists():
        manifest.write_text('{"name": "credo-e2e-cache", "private": true}\n')
    try:
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", *PACKAGES],
            cwd=CACHE,
            capture_output=True,
            text=True,
            timeout=240,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("npm install timed out (registry unreachable?)")
    if done.returncode != 0 or not claude.exists():
        pytest.skip(f"npm install failed: {done.stderr.strip()[-300:]}")
    return CACHE


@pytest.fixture(scope="module")
def npm_cache() -> Path:
    return _install()


# -- the scripted Messages API ----------------------------------------------------------------
class FakeAnthropic:
    """Records every /v1/messages request; answers with a scripted tool_use, then text."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.use_tool = True  # answer the first request offering credo's tool with a call
        self.agent_task: str | None = None  # with a task: the main loop starts a subagent

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        tools = {t.get("name") for t in body.get("tools") or []}
        results = [
            block
            for message in body.get("messages") or []
            if message.get("role") == "user" and isinstance(message.get("content"), list)
            for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "tool_result"
        ]
        agent_tool = next((name for name in ("Agent", "Task") if name in tools), None)
        if self.agent_task is not None and agent_tool is not None and not results:
            content_: list[dict[str, Any]] = [
                {
                    "type": "tool_use",
                    "id": "toolu_agent_1",
                    "name": agent_tool,
                    "input": {
                        "description": "Check the deploy steps",
                        "prompt": self.agent_task,
                        "subagent_type": "general-purpose",
                    },
                }
            ]
            return self.message(body, content_, "tool_use")
        if self.use_tool and TOOL in tools and not results:
            content: list[dict[str, Any]] = [
                {
                    "type": "tool_use",
                    "id": "toolu_credo_1",
                    "name": TOOL,
                    "input": {"query": "deploy staging production", "budget": 800},
                }
            ]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": "Deploy after a green staging run."}]
            stop = "end_turn"
        return self.message(body, content, stop)

    def message(
        self, body: dict[str, Any], content: list[dict[str, Any]], stop: str
    ) -> dict[str, Any]:
        return {
            "id": f"msg_fake_{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-sonnet-4-5"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }


def sse_events(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The streaming form of ``message`` (the event sequence the Messages API sends)."""
    yield "message_start", {"type": "message_start", "message": {**message, "content": []}}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {**block, "input": {}},
                },
            )
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def make_handler(fake: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            pass

        def _json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._json(404, {"type": "error", "error": {"type": "not_found_error"}})

        def do_HEAD(self) -> None:
            self.send_response(200)
            self.end_headers()

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.split("?")[0]
            if path.endswith("/count_tokens"):
                self._json(200, {"input_tokens": 10})
                return
            if not path.endswith("/v1/messages"):
                self._json(404, {"type": "error", "error": {"type": "not_found_error"}})
                return
            with fake.lock:
                fake.requests.append(body)
                message = fake.reply(body)
            if not body.get("stream"):
                self._json(200, message)
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            for event, data in sse_events(message):
                self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


@pytest.fixture
def fake_api() -> Iterator[tuple[str, FakeAnthropic]]:
    fake = FakeAnthropic()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(fake))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# -- the project ------------------------------------------------------------------------------
def seeded_project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        locked = memory.remember(LOCKED, lock=True)
        anchored = memory.remember(ANCHORED, doc="scripts/deploy.sh#L1-L40")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CLAUDE", "ANTHROPIC"))
    }
    env.update(HOME=str(home), CREDO_HOOK_LOG=str(tmp_path / "hook.log"))
    env["CREDO_GLOBAL_DB"] = os.environ["CREDO_GLOBAL_DB"]  # never the user's own
    return project, {"locked": locked, "anchored": anchored, **env}


def texts(value: Any) -> Iterator[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


@pytest.mark.parametrize("scope", ["project", "user"])
def test_claude_code_gets_the_hook_block_and_calls_credo_over_mcp(
    npm_cache: Path, fake_api: tuple[str, FakeAnthropic], tmp_path: Path, scope: str
) -> None:
    base_url, fake = fake_api
    project, info = seeded_project(tmp_path)
    locked_id, anchored_id = info.pop("locked"), info.pop("anchored")
    env = info
    setup = subprocess.run(
        [sys.executable, "-m", "credo", "setup", "claude", f"--{scope}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert setup.returncode == 0, setup.stderr
    # The user's one-time approval of the project's .mcp.json servers (Claude Code asks for
    # it interactively; -p cannot ask).
    if scope == "project":
        settings = Path(env["HOME"]) / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_text(json.dumps({"enableAllProjectMcpServers": True}))

    claude_env = {
        **env,
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-local-test",
        "ENABLE_TOOL_SEARCH": "false",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "MCP_TIMEOUT": "60000",
        # -p connects MCP servers in the background by default; the scripted first reply
        # needs credo's tools in that first request.
        "MCP_CONNECTION_NONBLOCKING": "0",
    }
    claude = npm_cache / "node_modules" / ".bin" / "claude"
    done = subprocess.run(
        [
            str(claude),
            "-p",
            "How do we deploy to production?",
            "--output-format",
            "json",
            "--allowedTools",
            TOOL,
            "--model",
            "claude-sonnet-4-5",
        ],
        cwd=project,
        env=claude_env,
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])

    with_tools = [r for r in fake.requests if TOOL in {t.get("name") for t in r.get("tools") or []}]
    assert with_tools, f"no request offered {TOOL}: {[sorted(r) for r in fake.requests]}"
    first = with_tools[0]
    prompt_text = "\n".join(texts(first["messages"]))
    # 1. The hook ran and its block reached the model, locked belief first, anchor shown.
    assert '<credo-memory source="credo: local memory store' in prompt_text
    assert f"[{locked_id[:8]} locked] {LOCKED}" in prompt_text  # its short id
    assert f"[{anchored_id[:8]}] {ANCHORED} (from scripts/deploy.sh#L1-L40)" in prompt_text
    # The server's instructions reached the model too.
    assert "Call search_memory first" in "\n".join(texts(first))

    # 2. The scripted tool_use reached credo's MCP server and its result came back.
    results = [
        block
        for request in fake.requests
        for message in request["messages"]
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]
    assert results, "the tool result never came back to the API"
    result = results[0]
    assert result["tool_use_id"] == "toolu_credo_1" and not result.get("is_error")
    returned = json.loads("".join(texts(result["content"])))  # search_memory's JSON
    assert [b["id"] for b in returned["beliefs"]] == [locked_id, anchored_id]
    assert returned["token_budget"] == 800  # the scripted arguments reached the tool
    assert returned["beliefs"][1]["doc_anchors"][0]["doc_uri"] == "scripts/deploy.sh#L1-L40"
    assert returned["memory_block"].startswith("<credo-memory")
    assert json.loads(done.stdout)["result"] == "Deploy after a green staging run."

    # 3. --remove takes credo out of Claude Code's view again.
    def mcp_list() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(claude), "mcp", "list"],
            cwd=project,
            env=claude_env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    listed = mcp_list()
    assert "credo:" in listed.stdout
    subprocess.run(
        [sys.executable, "-m", "credo", "setup", "claude", f"--{scope}", "--remove"],
        cwd=project,
        env=env,
        check=True,
        capture_output=True,
        timeout=60,
    )
    listed = mcp_list()
    assert "credo" not in listed.stdout


def test_mcp_inspector_lists_credos_tools(npm_cache: Path, tmp_path: Path) -> None:
    project, info = seeded_project(tmp_path)
    env = {k: v for k, v in info.items() if k not in ("locked", "anchored")}
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed")
    done = subprocess.run(
        [
            npx,
            "--no-install",
            "@modelcontextprotocol/inspector",
            "--cli",
            sys.executable,
            "-m",
            "credo",
            "--db",
            str(project / ".credo" / "memory.db"),
            "mcp",
            "--method",
            "tools/list",
        ],
        cwd=npm_cache,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    tools = {t["name"]: t for t in json.loads(done.stdout)["tools"]}
    assert sorted(tools) == sorted(
        [
            "search_memory",
            "get_belief",
            "remember_belief",
            "lock_belief",
            "relate_beliefs",
            "link_document",
            "unlink_document",
            "list_anchors",
            "forget_belief",
            "give_feedback",
            "list_conflicts",
            "resolve_conflict",
        ]
    )
    assert tools["search_memory"]["annotations"]["readOnlyHint"] is True
    assert tools["forget_belief"]["annotations"]["destructiveHint"] is True


# -- a day: two sessions in a project installed by the README's first command -----------------
CORRECTION = "No, we never use npm in this repository. Always use pnpm for installing packages."


@pytest.fixture(scope="module")
def readme_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with credo installed exactly as the README's first command does
    (``python3 -m pip install -e .``, no extras)."""
    venv = tmp_path_factory.mktemp("readme-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-e", str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        pytest.skip(f"pip install -e . failed (registry unreachable?): {done.stderr[-300:]}")
    return venv


def claude_env_for(env: dict[str, str], base_url: str) -> dict[str, str]:
    return {
        **env,
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-local-test",
        "ENABLE_TOOL_SEARCH": "false",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "MCP_TIMEOUT": "60000",
        "MCP_CONNECTION_NONBLOCKING": "0",
    }


def test_a_correction_in_session_one_reaches_the_model_in_session_two(
    npm_cache: Path,
    readme_venv: Path,
    fake_api: tuple[str, FakeAnthropic],
    tmp_path: Path,
) -> None:
    base_url, fake = fake_api
    fake.use_tool = False
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "CLAUDE", "ANTHROPIC"))
    }
    env.update(
        HOME=str(home),
        CREDO_HOOK_LOG=str(tmp_path / "hook.log"),
        CREDO_GLOBAL_DB=str(tmp_path / "global.db"),
        PATH=f"{readme_venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
    )
    credo = str(readme_venv / "bin" / "credo")

    def run(*argv: str) -> str:
        done = subprocess.run(
            [credo, *argv], cwd=project, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (argv, done.stdout[-1000:], done.stderr[-1000:])
        return done.stdout

    run("init")
    locked = run("remember", LOCKED, "--lock").split()[-1]
    run("setup", "claude", "--project")  # checks that the MCP server answers tools/list
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enableAllProjectMcpServers": True})
    )
    claude = npm_cache / "node_modules" / ".bin" / "claude"

    def session(prompt: str) -> list[dict[str, Any]]:
        before = len(fake.requests)
        done = subprocess.run(
            [str(claude), "-p", prompt, "--output-format", "json", "--model", "claude-sonnet-4-5"],
            cwd=project,
            env=claude_env_for(env, base_url),
            capture_output=True,
            text=True,
            timeout=150,
        )
        assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
        return [r for r in fake.requests[before:] if r.get("tools")]

    first = session(CORRECTION)
    assert first, "session 1 sent no main-loop request"
    # The SessionStart context (the locks, here) is in session 1's first request.
    assert f"[{locked[:8]} locked] {LOCKED}" in "\n".join(texts(first[0]["messages"]))
    # The correction was captured, as the user's correction, in session 1.
    captured = json.loads(run("captured", "--json"))["captures"]
    assert any("never use npm" in c["text"] for c in captured), captured

    second = session("add the left-pad dependency with npm")
    assert second, "session 2 sent no main-loop request"
    request = second[0]
    text = "\n".join(texts(request["messages"]))
    # Session 1's correction reaches the model in session 2, a new process.
    assert "Always use pnpm for installing packages" in text
    # The credo MCP tools are offered.
    assert TOOL in {t.get("name") for t in request.get("tools") or []}
    # And every injection was journalled, by session.
    log = json.loads(run("log", "--json"))
    assert {entry["event"] for entry in log} >= {"session_start", "prompt"}
    assert len({entry["session"] for entry in log}) == 2


def test_a_subagent_gets_the_memory_block_in_its_own_prompt(
    npm_cache: Path, fake_api: tuple[str, FakeAnthropic], tmp_path: Path
) -> None:
    """The main loop starts a subagent (the Agent tool); credo's PreToolUse hook puts the
    memory block for the subagent's task in front of the task, so the subagent's own
    request carries it."""
    base_url, fake = fake_api
    project, info = seeded_project(tmp_path)
    anchored_id = info.pop("anchored")
    info.pop("locked")
    env = info
    setup = subprocess.run(
        [sys.executable, "-m", "credo", "setup", "claude", "--project", "--skip-check"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert setup.returncode == 0, setup.stderr
    task = "Find out which script deploys the service and what arguments it takes"
    fake.agent_task = task
    fake.use_tool = False
    claude = npm_cache / "node_modules" / ".bin" / "claude"
    done = subprocess.run(
        [
            str(claude),
            "-p",
            "Delegate: how is the service deployed?",
            "--output-format",
            "json",
            "--model",
            "claude-sonnet-4-5",
        ],
        cwd=project,
        env=claude_env_for(env, base_url),
        capture_output=True,
        text=True,
        timeout=150,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    carrying = [
        "\n".join(texts(r["messages"]))
        for r in fake.requests
        if task in "\n".join(texts(r["messages"]))
        and "Delegate: how is the service deployed?" not in "\n".join(texts(r["messages"]))
    ]
    assert carrying, "no subagent request carried the task"
    subagent_text = carrying[0]
    assert "<credo-memory" in subagent_text
    assert f"[{anchored_id[:8]}] {ANCHORED}" in subagent_text
