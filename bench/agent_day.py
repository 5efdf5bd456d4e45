"""A demanding user's week with one small project, through the installed hook and MCP server.

    PYTHONPATH=TREE/src python bench/agent_day.py [--keep DIR] [--verbose]

What credo promises the agent's user: it keeps what they tell it (preferences, rules,
decisions, corrections), corrects itself when told, and serves the newer word above the one
it replaced. This bench plays 38 prompts over four sessions on ``schedule`` 1.2.2 (MIT,
pinned by sha256, fetched from PyPI at bench time like bench/docs_corpora.py's corpora),
exactly as Claude Code would: ``credo setup claude --project`` in a fresh HOME writes the
hooks, every hook runs as the command setup wrote, fed the JSON Claude Code sends
(SessionStart, UserPromptSubmit, Stop with a transcript of the user's turns), and what an
agent does on its own (forget what the user asks it to forget, list conflicts, search)
goes through the MCP server setup registered, with the SDK's own stdio client.

Every step says what the user expects, written before the bench was first run; each check
prints ``PASS`` or ``FAIL`` with what it saw. The exit status is 0 whatever fails: this is a
measure, not a gate (the score line says how many checks pass).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_corpora import Corpus, fetch

PROJECT = Corpus(
    name="schedule-day",
    kind="code",
    project="schedule",
    version="1.2.2",
    licence="MIT",
    url="pypi:schedule==1.2.2",
    sha256="15fe9c75fe5fd9b9627f3f19cc0ef1420508f9f9a46f45cd0769ef75ede5f0b7",
    include=("schedule/*.py", "*.rst", "setup.py", "setup.cfg", "pyproject.toml", "test_*.py"),
)

# What a user counts as kept: the kinds capture stores for a statement.
TOLD = ("requirement", "preference", "correction")


@dataclass(frozen=True)
class Say:
    """A prompt: what the user types, and what they expect the memory to do with it.

    keep: the kinds a stored belief may have (empty: nothing may be stored);
    ask: the memory block for this prompt must show ``show`` (each, any line), and for each
    (newer, older) in ``over`` the newer word before the older one, the older one either
    absent or marked (replaced / conflicts with);
    old: texts of earlier statements this one changes: the store must link them (an edge
    either way) or no longer serve them as current."""

    text: str
    keep: tuple[str, ...] = ()
    show: tuple[str, ...] = ()
    over: tuple[tuple[str, str], ...] = ()
    old: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()


@dataclass(frozen=True)
class Start:
    """A SessionStart: what its block must hold, in which order, and must not hold."""

    show: tuple[str, ...] = ()
    over: tuple[tuple[str, str], ...] = ()
    hide: tuple[str, ...] = ()


@dataclass(frozen=True)
class Agent:
    """What the agent does on its own through MCP: forget the beliefs a search for
    ``forget`` finds whose text holds ``holding``; or check ``list_conflicts`` leads with
    the newer word of each (newer, older) pair in ``over``; or ``search_memory`` for
    ``query`` and expect ``over`` order in its block."""

    forget: str = ""
    holding: str = ""
    conflicts: tuple[tuple[str, str], ...] = ()
    query: str = ""
    over: tuple[tuple[str, str], ...] = ()


Step = Say | Start | Agent

NOTHING: tuple[str, ...] = ()
ANY = TOLD

WEEK: list[tuple[str, list[Step]]] = [
    (
        "monday",
        [
            Start(),
            Say(
                "I'll be working on the schedule library this week. We always run the test "
                "suite with pytest -x before committing.",
                keep=("requirement",),
            ),
            Say("How does every().day.at() parse the time string?", show=("def at",)),
            Say("I prefer type hints on every new public function.", keep=("preference",)),
            Say(
                "Never add new runtime dependencies to this package; it has to stay pure "
                "standard library.",
                keep=("requirement",),
            ),
            Say("We decided to use black for formatting.", keep=ANY),
            Say("Our CI runs the tests on GitHub Actions.", keep=ANY),
            Say("The release manager for this project is Dana.", keep=ANY),
            Say(
                "```python\nschedule.every(10).minutes.do(job)\nwhile True:\n"
                "    schedule.run_pending()\n```\nWhy does this never run my job?"
            ),
            Say('The README says "never use schedule as a cron replacement". Is that still true?'),
            Say(
                "Don't use print in library code; log through the logger named schedule.",
                keep=("requirement",),
            ),
            Say("What logger should library code use?", show=("logger named schedule",)),
        ],
    ),
    (
        "tuesday",
        [
            Start(
                show=(
                    "pytest -x",
                    "type hints",
                    "runtime dependencies",
                    "use black",
                    "logger named schedule",
                )
            ),
            Say(
                "We moved from black to ruff format for formatting.",
                keep=ANY,
                old=("We decided to use black",),
            ),
            Say(
                "Which formatter do we use?",
                show=("ruff format",),
                over=(("ruff format", "We decided to use black"),),
            ),
            Say(
                "Actually, the minimum supported Python version is 3.9, not 3.8.",
                keep=("correction",),
            ),
            Say("Which Python versions do we support?", show=("3.9, not 3.8",)),
            Say(
                "Always add a changelog entry to HISTORY.rst for every user-visible change.",
                keep=("requirement",),
            ),
            Say("Can you explain how idle_seconds works?", show=("idle_seconds",)),
            Say(
                "Use time.monotonic instead of datetime.now when measuring intervals.",
                keep=("requirement", "preference"),
            ),
            Say("Forget what I said about the release manager."),
            Agent(forget="release manager", holding="Dana"),
            Say(
                "No, that's wrong: the next run time is computed in _schedule_next_run, "
                "not in run().",
                keep=("correction",),
            ),
            Say("Where is the next run time computed?", show=("_schedule_next_run",)),
        ],
    ),
    (
        "wednesday",
        [
            Start(
                show=("ruff format", "3.9, not 3.8", "HISTORY.rst", "time.monotonic"),
                over=(("ruff format", "We decided to use black"),),
                hide=("Dana",),
            ),
            Say(
                "Actually, run pytest without -x from now on; we want the full list of failures.",
                keep=("correction", "requirement"),
                old=("pytest -x before committing",),
            ),
            Say(
                "How should I run the tests before committing?",
                show=("without -x",),
                over=(("without -x", "pytest -x before committing"),),
            ),
            Say(
                "We switched from GitHub Actions to GitLab CI last month.",
                keep=ANY,
                old=("GitHub Actions.",),
            ),
            Say(
                "Where does our CI run?",
                show=("GitLab CI",),
                over=(("GitLab CI", "Our CI runs the tests on GitHub Actions"),),
            ),
            Say(
                "We now allow pytz as an optional extra; that is the one exception to the "
                "no-dependencies rule.",
                keep=ANY,
            ),
            Say(
                "Please never push directly to the master branch; open a merge request instead.",
                keep=("requirement",),
            ),
            Say("Could we drop Python 3.9 support next release?"),
            Say(
                "Stop writing Google-style docstrings; we use reStructuredText docstrings here.",
                keep=("requirement", "correction", "preference"),
            ),
            Say(
                "Why does Job.until() raise ScheduleValueError for a time in the past?",
                show=("def until",),
            ),
        ],
    ),
    (
        "thursday",
        [
            Start(
                show=("without -x", "GitLab CI", "pytz", "master branch", "reStructuredText"),
                over=(
                    ("without -x", "pytest -x before committing"),
                    ("GitLab CI", "Our CI runs the tests on GitHub Actions"),
                    ("ruff format", "We decided to use black"),
                ),
                hide=("Dana",),
            ),
            Say(
                "What should I run before I commit?",
                show=("without -x",),
                over=(("without -x", "pytest -x before committing"),),
            ),
            Say("Can I add a dependency for timezone handling?", show=("pytz",)),
            Say(
                "What CI system are we on?",
                show=("GitLab CI",),
                over=(("GitLab CI", "Our CI runs the tests on GitHub Actions"),),
            ),
            Say("Which docstring style should new code use?", show=("reStructuredText",)),
            Say(
                "Actually, go back to black; ruff format changed our string quotes.",
                keep=("correction",),
                old=("ruff format for formatting",),
            ),
            Say(
                "How should the code be formatted?",
                show=("go back to black",),
                over=(("go back to black", "ruff format for formatting"),),
            ),
            Say(
                "Never mind the pytz exception, keep the package free of dependencies.",
                keep=ANY,
                old=("pytz as an optional extra",),
            ),
            Say("Who is the release manager?", hide=("Dana",)),
            Say("ok thanks"),
            Agent(
                conflicts=(
                    ("go back to black", "ruff format for formatting"),
                    ("without -x", "pytest -x before committing"),
                )
            ),
            Agent(
                query="code formatter black ruff",
                over=(("go back to black", "ruff format for formatting"),),
            ),
        ],
    ),
]


@dataclass
class Day:
    """The project, its HOME, the commands setup wrote, and the tally."""

    root: Path
    env: dict[str, str]
    commands: dict[str, list[str]]
    server: dict[str, Any]
    verbose: bool
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    transcript_turns: int = 0

    def check(self, ok: bool, label: str, seen: str = "") -> None:
        if ok:
            self.passed += 1
        else:
            self.failed.append(label)
        detail = f"  ({seen})" if seen and (not ok or self.verbose) else ""
        print(f"  {'PASS' if ok else 'FAIL'} {label}{detail}")


def credo(day_env: dict[str, str], cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "credo", *args],
        cwd=cwd,
        env=day_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise SystemExit(f"credo {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def prepare(work: Path) -> Day:
    """The project copied into `work`, `credo init`, `ingest .`, `setup claude --project`."""
    root = work / "schedule"
    shutil.copytree(fetch(PROJECT), root, ignore=shutil.ignore_patterns(".complete"))
    (root / ".git").mkdir()
    home = work / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env.update(HOME=str(home), CREDO_HOOK_INLINE="1", CREDO_HOOK_LOG=str(work / "hook.log"))
    credo(env, root, "init")
    credo(env, root, "ingest", ".")
    credo(env, root, "setup", "claude", "--project")
    settings = json.loads((root / ".claude" / "settings.json").read_text())
    commands: dict[str, list[str]] = {}
    for event, groups in settings["hooks"].items():
        commands[event] = shlex.split(groups[0]["hooks"][0]["command"])
    server = json.loads((root / ".mcp.json").read_text())["mcpServers"]["credo"]
    return Day(root, env, commands, server, verbose=False)


def run_hook(day: Day, event: str, payload: dict[str, Any]) -> str:
    done = subprocess.run(
        day.commands[event],
        input=json.dumps(payload),
        cwd=day.root,
        env=day.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def payload(day: Day, event: str, session: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": str(day.root.parent / f"{session}.jsonl"),
        "cwd": str(day.root),
        "hook_event_name": event,
        "permission_mode": "default",
        **extra,
    }


def add_turn(day: Day, session: str, role: str, text: str) -> None:
    path = day.root.parent / f"{session}.jsonl"
    if role == "user":
        entry = {"type": "user", "message": {"role": "user", "content": text}}
    else:
        entry = {"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def store_rows(day: Day, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    from credo.memory import Memory

    with Memory(day.root / ".credo" / "memory.db", root=day.root) as memory:
        return [tuple(row) for row in memory.store.conn.execute(sql, args).fetchall()]


def captured_since(day: Day, mark: float) -> list[tuple[str, str, str]]:
    """(id, kind, text) of beliefs first captured after time `mark`."""
    return [
        (str(r[0]), str(r[1]), str(r[2]))
        for r in store_rows(
            day,
            "SELECT b.id, b.kind, b.content FROM captures c JOIN beliefs b ON b.id = c.belief_id "
            "WHERE c.at > ? ORDER BY c.at",
            mark,
        )
    ]


def last_capture(day: Day) -> float:
    rows = store_rows(day, "SELECT coalesce(max(at), 0) FROM captures")
    return float(rows[0][0])


def lines_of(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith("[")]


def line_index(lines: list[str], text: str) -> int:
    for at, line in enumerate(lines):
        if text.lower() in line.lower():
            return at
    return -1


MARKS = ("conflicts with", "replaced", "superseded", "disputed")


def check_block(day: Day, label: str, block: str, step: Say | Start | Agent) -> None:
    lines = lines_of(block)
    for text in getattr(step, "show", ()):
        day.check(line_index(lines, text) >= 0, f"{label}: shows '{text}'")
    for newer, older in step.over:
        new_at, old_at = line_index(lines, newer), line_index(lines, older)
        seen = f"newer at {new_at}, older at {old_at}"
        day.check(
            new_at >= 0 and (old_at < 0 or new_at < old_at), f"{label}: '{newer}' first", seen
        )
        if old_at >= 0:
            marked = any(mark in lines[old_at].split("]")[0] for mark in MARKS)
            day.check(marked, f"{label}: '{older}' marked", lines[old_at][:90])
    for text in getattr(step, "hide", ()):
        day.check(line_index(lines, text) < 0, f"{label}: hides '{text}'")


def linked_or_retired(day: Day, new_ids: list[str], older: str) -> tuple[bool, str]:
    """Whether a belief holding `older` is linked to one of `new_ids` or no longer current."""
    rows = store_rows(
        day,
        "SELECT id, deleted_at IS NULL FROM beliefs WHERE content LIKE ? AND origin != 'document'",
        f"%{older}%",
    )
    holders = [(holder,) for holder, live in rows if live]
    if not holders:  # (every holder retired: no longer served)
        return bool(rows), "retired" if rows else "no belief holds it"
    for (holder,) in holders:
        edges = store_rows(
            day,
            "SELECT type, src, dst FROM edges WHERE (src = ? AND dst IN ({q})) OR "
            "(dst = ? AND src IN ({q}))".format(q=",".join("?" * len(new_ids))),
            holder,
            *new_ids,
            holder,
            *new_ids,
        )
        if edges:
            return True, f"{edges[0][0]} {edges[0][1][:8]}->{edges[0][2][:8]}"
    return False, f"{len(holders)} holder(s), no edge to the new belief"


def _disputed_beyond(day: Day, new_ids: list[str], old: tuple[str, ...]) -> list[str]:
    """The texts the new beliefs dispute or replace that hold none of ``old``."""
    rows = store_rows(
        day,
        "SELECT o.content FROM edges e JOIN beliefs o ON o.id = e.dst "
        "WHERE e.type IN ('SUPERSEDES', 'CONTRADICTS') AND e.src IN ({q})".format(
            q=",".join("?" * len(new_ids))
        ),
        *new_ids,
    )
    return [str(r[0])[:60] for r in rows if not any(text in str(r[0]) for text in old)]


def _replaced(day: Day, newer: str, older: str) -> bool:
    """Whether a belief holding ``newer`` SUPERSEDES one holding ``older`` (settled: no
    conflict left to list)."""
    return bool(
        store_rows(
            day,
            "SELECT 1 FROM edges e JOIN beliefs n ON n.id = e.src JOIN beliefs o ON o.id = e.dst "
            "WHERE e.type = 'SUPERSEDES' AND n.content LIKE ? AND o.content LIKE ?",
            f"%{newer}%",
            f"%{older}%",
        )
    )


def say(day: Day, session: str, turn: int, step: Say) -> None:
    label = f"{session} #{turn} {step.text[:48]!r}"
    mark = last_capture(day)
    add_turn(day, session, "user", step.text)
    block = run_hook(
        day, "UserPromptSubmit", payload(day, "UserPromptSubmit", session, prompt=step.text)
    )
    add_turn(day, session, "assistant", "Done.")
    run_hook(
        day,
        "Stop",
        payload(day, "Stop", session, stop_hook_active=False, last_assistant_message="Done."),
    )
    new = captured_since(day, mark)
    kinds = [kind for _, kind, _ in new]
    if step.keep:
        day.check(
            len(new) >= 1 and all(kind in step.keep for kind in kinds),
            f"{label}: kept as {'/'.join(step.keep)}",
            f"{kinds} {[text[:60] for _, _, text in new]}",
        )
    else:
        day.check(not new, f"{label}: nothing kept", f"{[(k, t[:60]) for _, k, t in new]}")
    for older in step.old:
        ok, seen = linked_or_retired(day, [bid for bid, _, _ in new], older)
        day.check(ok, f"{label}: links the older '{older}'", seen)
    if new:
        wrong = _disputed_beyond(day, [bid for bid, _, _ in new], step.old)
        day.check(not wrong, f"{label}: disputes or replaces nothing else", "; ".join(wrong))
    check_block(day, label, block, step)
    if day.verbose:
        print("    " + "\n    ".join(lines_of(block)[:8]))


def start(day: Day, session: str, step: Start) -> None:
    out = run_hook(day, "SessionStart", payload(day, "SessionStart", session, source="startup"))
    block = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
    check_block(day, f"{session} SessionStart", block, step)
    if day.verbose:
        print("    " + "\n    ".join(lines_of(block)))


def agent(day: Day, session: str, step: Agent) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=day.server["command"], args=day.server.get("args", []), cwd=day.root, env=day.env
    )

    def data(result: Any) -> Any:
        if result.is_error:  # (its text is no JSON: "credo's code changed on disk", a save)
            raise RuntimeError(f"agent_day: MCP answered an error: {result.content[0].text}")
        return result.structured_content or json.loads(result.content[0].text)

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            if step.forget:
                found = data(await client.call_tool("search_memory", {"query": step.forget}))
                ids = [b["id"] for b in found["beliefs"] if step.holding in b["content"]]
                for bid in ids:
                    await client.call_tool("forget_belief", {"id": bid})
                day.check(bool(ids), f"{session} agent: finds and forgets '{step.holding}'")
            if step.conflicts:
                listed = data(await client.call_tool("list_conflicts", {}))
                pairs = [
                    (p["first"]["content"], p["second"]["content"]) for p in listed["conflicts"]
                ]
                for newer, older in step.conflicts:
                    if _replaced(day, newer, older):
                        day.check(
                            True, f"{session} list_conflicts: '{older}' replaced, no conflict"
                        )
                        continue
                    hit = [
                        p
                        for p in pairs
                        if (newer in p[0] and older in p[1]) or (newer in p[1] and older in p[0])
                    ]
                    day.check(
                        bool(hit) and newer in hit[0][0],
                        f"{session} list_conflicts: '{newer}' over '{older}'",
                        f"{hit[:1]}",
                    )
            if step.query:
                found = data(await client.call_tool("search_memory", {"query": step.query}))
                check_block(
                    day, f"{session} search_memory {step.query!r}", found["memory_block"], step
                )

    anyio.run(main)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="play the week in this folder and keep it")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="agent_day_"))
    work.mkdir(parents=True, exist_ok=True)
    day = prepare(work)
    day.verbose = args.verbose
    for session, steps in WEEK:
        print(f"== {session}")
        turn = 0
        for step in steps:
            if isinstance(step, Say):
                turn += 1
                say(day, session, turn, step)
            elif isinstance(step, Start):
                start(day, session, step)
            else:
                agent(day, session, step)
    total = day.passed + len(day.failed)
    print(f"agent_day: {day.passed}/{total} checks pass")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
