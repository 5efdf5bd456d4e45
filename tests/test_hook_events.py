"""The agent's day through the real hook entry point (``python -m credo hook EVENT``):
SessionStart, capture at UserPromptSubmit, acknowledgements, Stop's listing and feedback,
subagents, the journal, and the bad input each event must survive."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import credo
from credo.memory import Memory
from tests.test_hook import DEPLOY, LOCKED, hook_env, log_text

CORRECTION = "No, we never use npm in this repository. Always use pnpm for installing packages."
REPO = Path(__file__).resolve().parents[1]
HOOKSTART = Path(credo.__file__).parent / "hookstart.py"  # what `credo setup claude` installs


def modules_probe(prefixes: tuple[str, ...], names: tuple[str, ...]) -> str:
    """A ``python -S -c`` program that runs the installed hook command and writes, as its last
    stderr line, the loaded modules starting with ``prefixes`` or named in ``names``. The
    command ends with ``os._exit`` once it has printed (no atexit), so the probe wraps that;
    should it ever return instead, the probe writes the same list on its way out."""
    return (
        "import atexit, os, sys\n"
        "def said():\n"
        f"    sys.stderr.write(repr(sorted(m for m in sys.modules"
        f" if m.startswith({prefixes!r}) or m in {names!r})))\n"
        "    sys.stderr.flush()\n"
        "_exit = os._exit\n"
        "def ending(code):\n"
        "    said()\n"
        "    _exit(code)\n"
        "os._exit = ending\n"
        "atexit.register(said)\n"
        f"sys.argv = [{str(HOOKSTART)!r}, 'hook', 'prompt']\n"
        f"exec(compile(open({str(HOOKSTART)!r}).read(), {str(HOOKSTART)!r}, 'exec'),"
        f" {{'__file__': {str(HOOKSTART)!r}, '__name__': '__main__'}})\n"
    )


def wait_for(check: Callable[[], bool], seconds: float = 20.0) -> None:
    """Capture and the journal write run detached after a hook exits: wait for them."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the detached write did not finish in time")
        time.sleep(0.05)


def captured_count(project: Path) -> int:
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        return int(memory.store.conn.execute("SELECT count(*) FROM captures").fetchone()[0])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        memory.remember(LOCKED, lock=True, id="rule-main")
        memory.remember(DEPLOY, doc="docs/deploy.md#L1-L9", id="deploy")
        memory.remember("We use npm for installing packages in this repository", id="old-npm")
    return root


def hook(
    tmp_path: Path, event: str, payload: dict[str, Any] | bytes, cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        [sys.executable, "-S", str(HOOKSTART), "hook", event],
        input=stdin,
        cwd=cwd,
        env=hook_env(tmp_path),
        capture_output=True,
        timeout=60,
    )


def base(project: Path, event: str, session: str = "s1", **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": str(project / "transcript.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        **extra,
    }


def journal(project: Path) -> list[tuple[str, str, str]]:
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        rows = memory.store.conn.execute(
            "SELECT session, event, reason FROM injections ORDER BY id"
        ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


def write_transcript(path: Path, turns: list[tuple[str, str]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for user, reply in turns:
            out.write(json.dumps({"type": "user", "message": {"role": "user", "content": user}}))
            out.write("\n")
            content = [{"type": "text", "text": reply}]
            out.write(json.dumps({"type": "assistant", "message": {"content": content}}) + "\n")


def test_session_start_gives_the_locks_as_additional_context(tmp_path: Path, project: Path) -> None:
    done = hook(tmp_path, "session-start", base(project, "SessionStart", source="startup"), project)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart"
    assert f"[rule-main locked] {LOCKED}" in output["additionalContext"]
    # There is no prompt yet: the header does not say the beliefs were recalled for one.
    header = output["additionalContext"].splitlines()[0]
    assert "for this prompt" not in header and "at session start" in header
    again = hook(
        tmp_path, "session-start", base(project, "SessionStart", source="compact"), project
    )
    assert json.loads(again.stdout) == json.loads(done.stdout)
    wait_for(lambda: len(journal(project)) == 2)
    assert journal(project) == [
        ("s1", "session_start", "startup"),
        ("s1", "session_start", "compact"),
    ]


@pytest.mark.parametrize("ack", ["yes", "continue", "ok thanks"])
def test_an_acknowledgement_gets_the_locks_only(tmp_path: Path, project: Path, ack: str) -> None:
    done = hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=ack), project)
    block = done.stdout.decode()
    assert f"[rule-main locked] {LOCKED}" in block
    assert 'beliefs="1"' in block
    wait_for(lambda: journal(project) == [("s1", "prompt", "acknowledgement: locks only")])


def test_an_acknowledgement_without_locks_gets_nothing(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        memory.remember("Deploys go through staging first")
    done = hook(tmp_path, "prompt", base(root, "UserPromptSubmit", prompt="continue"), root)
    assert done.returncode == 0 and done.stdout == b""


def test_a_correction_is_captured_supersedes_and_is_listed_once_at_stop(
    tmp_path: Path, project: Path
) -> None:
    transcript = project / "transcript.jsonl"
    done = hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=CORRECTION), project)
    assert done.returncode == 0
    wait_for(lambda: captured_count(project) > 0)
    assert "error" not in log_text(tmp_path)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        found = memory.retrieve("which tool installs packages")
        contents = [b.content for b in found.beliefs]
        assert any("Always use pnpm" in c for c in contents)
        assert not any(c.startswith("We use npm") for c in contents)  # superseded
        pnpm = next(b for b in found.beliefs if "Always use pnpm" in b.content)
        npm = next(b for b in found.beliefs if "never use npm" in b.content)
        assert memory.get(npm.id).origin == "user_corrected"
        assert memory.get(pnpm.id).session == memory.get(npm.id).session == "s1"
    write_transcript(transcript, [(CORRECTION, "Understood, pnpm from now on.")])
    stop = hook(tmp_path, "stop", base(project, "Stop", stop_hook_active=False), project)
    message = json.loads(stop.stdout)["systemMessage"]
    assert "Always use pnpm" in message and f"credo lock {pnpm.id}" in message
    again = hook(tmp_path, "stop", base(project, "Stop", stop_hook_active=False), project)
    assert again.returncode == 0 and again.stdout == b""  # listed once


def test_a_prompt_with_secrets_stores_none_of_them(tmp_path: Path, project: Path) -> None:
    key = "sk-ant-api03-" + "a1B2" * 20
    prompt = f"No, the staging password is {key}. Always use it for the integration tests."
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=prompt), project)
    wait_for(lambda: captured_count(project) > 0)
    store = (project / ".credo" / "memory.db").read_bytes()
    assert key.encode() not in store
    assert b"a1B2a1B2a1B2" not in store


def test_stop_credits_a_belief_the_reply_used_and_undo_reverts_it(
    tmp_path: Path, project: Path
) -> None:
    hook(
        tmp_path,
        "prompt",
        base(project, "UserPromptSubmit", prompt="how do deploys reach production?"),
        project,
    )
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        before = memory.get("deploy").alpha
    reply = "Deploys go through staging first, then production after the smoke tests pass."
    hook(tmp_path, "stop", base(project, "Stop", last_assistant_message=reply), project)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        credited = memory.get("deploy").alpha
    assert before < credited <= before + 1
    undo = subprocess.run(
        [sys.executable, "-m", "credo", "feedback", "--undo-session", "s1"],
        cwd=project,
        env=hook_env(tmp_path),
        capture_output=True,
        timeout=60,
    )
    assert undo.returncode == 0, undo.stderr
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        assert memory.get("deploy").alpha == before


def test_a_subagent_gets_the_block_in_front_of_its_prompt(tmp_path: Path, project: Path) -> None:
    tool_input = {
        "description": "Check deploys",
        "prompt": "Find out how deploys reach production",
        "subagent_type": "general-purpose",
    }
    payload = base(project, "PreToolUse", tool_name="Task", tool_input=tool_input)
    done = hook(tmp_path, "subagent", payload, project)
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    updated = output["updatedInput"]
    assert updated["description"] == "Check deploys"
    assert updated["subagent_type"] == "general-purpose"
    assert updated["prompt"].startswith("<credo-memory")
    assert updated["prompt"].endswith("\nFind out how deploys reach production")
    assert "[deploy]" in updated["prompt"]
    wait_for(lambda: journal(project) == [("s1", "subagent", "general-purpose")])
    other = base(project, "PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    assert hook(tmp_path, "subagent", other, project).stdout == b""


@pytest.mark.parametrize("event", ["prompt", "session-start", "stop", "subagent", "nonsense"])
@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"{not json",
        b"[1, 2]",
        b"\xff\xfe\x00binary",
        b'{"hook_event_name": "Elsewhere", "prompt": "hi"}',
    ],
)
def test_malformed_payloads_print_nothing_and_exit_0(
    tmp_path: Path, project: Path, event: str, stdin: bytes
) -> None:
    done = hook(tmp_path, event, stdin, project)
    assert done.returncode == 0
    assert done.stdout == b""
    assert log_text(tmp_path)  # the reason went to the hook log


@pytest.mark.parametrize("kind", ["missing", "binary", "huge", "malformed"])
def test_bad_transcripts_never_break_stop(tmp_path: Path, project: Path, kind: str) -> None:
    transcript = project / "transcript.jsonl"
    if kind == "binary":
        transcript.write_bytes(os.urandom(200_000))
    elif kind == "huge":
        line = json.dumps({"type": "user", "message": {"role": "user", "content": "x " * 5000}})
        with transcript.open("w") as out:
            for _ in range(6000):  # ~60 MB
                out.write(line + "\n")
            out.write(json.dumps({"type": "user", "message": {"content": CORRECTION}}) + "\n")
    elif kind == "malformed":
        transcript.write_text('{"type": "user"\n[]\n{"type": "user", "message": 3}\n')
    payload = base(project, "Stop", last_assistant_message="fine")
    done = hook(tmp_path, "stop", payload, project)
    assert done.returncode == 0
    assert "error" not in log_text(tmp_path), log_text(tmp_path)


def test_concurrent_sessions_capture_at_once(tmp_path: Path, project: Path) -> None:
    prompts = [
        f"From now on, always run the {name} check before every push."
        for name in ("lint", "format", "typecheck", "security", "license", "spelling")
    ]
    procs = [
        subprocess.Popen(
            [sys.executable, "-S", str(HOOKSTART), "hook", "prompt"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=project,
            env=hook_env(tmp_path),
        )
        for _ in prompts
    ]
    for index, (proc, prompt) in enumerate(zip(procs, prompts, strict=True)):
        payload = base(project, "UserPromptSubmit", session=f"s{index}", prompt=prompt)
        proc.communicate(json.dumps(payload).encode(), timeout=120)
        assert proc.returncode == 0
    wait_for(lambda: captured_count(project) == 6, seconds=60)
    assert "error" not in log_text(tmp_path), log_text(tmp_path)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        assert memory.store.integrity_check() == []
        rows = memory.store.conn.execute("SELECT count(*), count(DISTINCT session) FROM captures")
        assert tuple(rows.fetchone()) == (6, 6)
    assert len(journal(project)) == 6


def test_a_real_prompt_block_stays_under_6_kb_by_default(tmp_path: Path) -> None:
    root = tmp_path / "docs-proj"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=REPO) as memory:
        memory.ingest(REPO / "docs", REPO / "README.md")
    for prompt in (
        "how does retrieval rank beliefs and pack them into the token budget?",
        "what does the hook inject and how is a correction captured and superseded?",
    ):
        done = hook(tmp_path, "prompt", base(root, "UserPromptSubmit", prompt=prompt), root)
        assert done.stdout.startswith(b"<credo-memory")
        assert len(done.stdout) <= 6 * 1024, len(done.stdout)


@pytest.mark.parametrize("written_before", [False, True])
def test_a_capture_is_anchored_to_its_turn_of_the_transcript(
    tmp_path: Path, project: Path, written_before: bool
) -> None:
    """Whether Claude Code has written the prompt to the transcript before the hook runs or
    not, the capture names the prompt's own turn."""
    turns = [("how do deploys work?", "Through staging."), ("and rollbacks?", "By tag.")]
    if written_before:
        turns.append((CORRECTION, ""))
    write_transcript(project / "transcript.jsonl", turns)
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=CORRECTION), project)
    wait_for(lambda: captured_count(project) == 2)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        hints = {
            a.position_hint
            for row in memory.store.conn.execute("SELECT belief_id FROM captures")
            for a in memory.anchors(str(row[0]))
        }
    assert hints == {"turn 3"}


def test_a_project_without_a_store_still_gets_the_users_global_rules(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    (root / ".git").mkdir(parents=True)
    from credo.agent.global_store import open_global

    with open_global() as personal:
        rule = personal.remember("Never force-push to any branch", lock=True)
    prompt = base(root, "UserPromptSubmit", prompt="how do I clean up this branch history?")
    done = hook(tmp_path, "prompt", prompt, root)
    assert f"[{rule} locked; global] Never force-push to any branch" in done.stdout.decode()
    start = hook(tmp_path, "session-start", base(root, "SessionStart", source="startup"), root)
    assert rule in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert hook(tmp_path, "stop", base(root, "Stop"), root).stdout == b""
    assert not (root / ".credo").exists()  # nothing created in the project


def test_a_block_of_multibyte_text_still_stays_under_6_kb(tmp_path: Path) -> None:
    """The budget counts characters; text in a non-Latin script weighs three bytes each.
    The hook retrieves again with a smaller budget until the block fits 6 KB."""
    root = tmp_path / "cjk"
    (root / ".git").mkdir(parents=True)
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        for n in range(60):
            memory.remember(f"部署 deploy note {n}: " + "部署流程需要先在预发布环境验证" * 6)
    done = hook(
        tmp_path, "prompt", base(root, "UserPromptSubmit", prompt="how do we deploy 部署?"), root
    )
    assert done.stdout.startswith(b"<credo-memory")
    assert 4 * 1024 < len(done.stdout) <= 6 * 1024, len(done.stdout)
