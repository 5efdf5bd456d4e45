"""``credo log`` and ``credo feedback --undo-session`` through the real entry point."""

from __future__ import annotations

import json

from credo import Memory
from credo.agent import journal
from credo.agent.feedback import feedback_from_reply
from tests.conftest import CliRun

SESSION = "8c1f2a9e-0b4d-4c55-9a6e-2f1d3c4b5a69"


def _seed(run: CliRun) -> list[str]:
    with Memory(run.db, root=run.cwd) as memory:
        ids = [
            memory.remember("Always use pnpm for installing packages in this repository"),
            *(memory.remember(f"note number {n}") for n in range(4)),
        ]
        journal.log_injection(
            memory,
            event="prompt",
            session=SESSION,
            prompt="install left-pad",
            belief_ids=ids,
            tokens=55,
            chars=220,
            reason="retrieval",
        )
        journal.log_injection(
            memory,
            event="session_start",
            session="other",
            prompt=None,
            belief_ids=ids[:1],
            tokens=12,
            chars=48,
            reason="startup",
        )
        feedback_from_reply(memory, session=SESSION, reply="Installing packages with pnpm.")
    return ids


def test_log_lists_newest_first_as_text_and_json(run: CliRun) -> None:
    run("init", check=True)  # a store with nothing logged (a missing one is an error)
    assert run("log", check=True).stdout.strip() == "no injections logged"
    ids = _seed(run)
    lines = run("log", check=True).stdout.splitlines()
    assert len(lines) == 2
    assert "session_start" in lines[0] and "(startup)" in lines[0]
    assert SESSION[:12] in lines[1] and "55 tok" in lines[1] and "220 ch" in lines[1]
    assert f"{ids[0]}, {ids[1]}, {ids[2]}, +2 more" in lines[1]
    rows = json.loads(run("log", "--json", check=True).stdout)
    assert [r["event"] for r in rows] == ["session_start", "prompt"]
    assert rows[1]["belief_ids"] == ids and rows[1]["session"] == SESSION
    assert len(rows[1]["prompt_hash"]) == 64 and "left-pad" not in json.dumps(rows)
    only = json.loads(run("log", "--session", SESSION, "--json", check=True).stdout)
    assert [r["event"] for r in only] == ["prompt"]
    assert len(json.loads(run("log", "--limit", "1", "--json", check=True).stdout)) == 1
    assert "for session nope" in run("log", "--session", "nope", check=True).stdout


def test_undo_session_prints_what_it_undid(run: CliRun) -> None:
    ids = _seed(run)
    done = run("feedback", "--undo-session", SESSION, check=True)
    assert done.stdout.strip() == f"undid 1 automatic feedback events of session {SESSION}"
    shown = json.loads(run("show", ids[0], "--json", check=True).stdout)
    assert shown["belief"]["alpha"] == 1.0
    again = run("feedback", "--undo-session", SESSION, check=True).stdout
    assert again.startswith("nothing to undo") and "undone already" in again
    unknown = run("feedback", "--undo-session", "nope", "--json")
    assert unknown.returncode == 0
    assert json.loads(unknown.stdout) == {"session": "nope", "undone": 0}
    text = run("feedback", "--undo-session", "nope", check=True).stdout
    assert text.strip() == "nothing to undo: no automatic feedback recorded for session nope"
    # The explicit form still works beside it.
    used = json.loads(run("feedback", ids[1], "used", "--json", check=True).stdout)
    assert used["alpha"] == 2.0


def test_bad_input_is_one_error_line(run: CliRun) -> None:
    _seed(run)
    for args in (
        ("feedback",),
        ("feedback", "someid"),
        ("feedback", "someid", "used", "--undo-session", SESSION),
        ("feedback", "--undo-session", " "),
        ("log", "--limit", "0"),
    ):
        done = run(*args)
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, args
