"""A captured belief's anchor is its transcript, a long absolute path under
``~/.claude/projects/``: the hook block and the search text show it short,
``transcript 3f2a9c1e turn 3`` (the session id Claude Code names the file by, cut, and the
turn), and charge it, when the budget has room for it (left71). The JSON keeps the whole
anchor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from credo.memory import Memory
from credo.retrieval.hints import charge_hints
from credo.tokens import capture_hint, estimate, hint_tokens
from credo.types import DocAnchor, RetrievedBelief
from tests.conftest import CliRun
from tests.test_hook import hook_env
from tests.test_hook_events import CORRECTION, HOOKSTART, captured_count, wait_for, write_transcript

SESSION = "3f2a9c1e-5b7d-4c1a-9e2f-8a6b4c2d1e0f"
HINT = "transcript 3f2a9c1e turn 3"


def _hook(tmp_path: Path, event: str, payload: dict[str, object], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-S", str(HOOKSTART), "hook", event],
        input=json.dumps(payload).encode(),
        cwd=cwd,
        env=hook_env(tmp_path),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def captured_project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A project whose correction the prompt hook captured from a transcript under the
    fake home's ``~/.claude/projects``, and the hook input of that session."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember("Deploys go through the staging cluster first")
    transcripts = tmp_path / "home" / ".claude" / "projects" / ("-" + "-".join(project.parts[1:]))
    transcripts.mkdir(parents=True)
    transcript = transcripts / f"{SESSION}.jsonl"
    write_transcript(transcript, [("how do deploys work?", "Staging."), ("and tags?", "Yes.")])
    said = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
    }
    _hook(tmp_path, "prompt", {**said, "prompt": CORRECTION}, project)
    wait_for(lambda: captured_count(project) > 0)
    return project, said


def test_a_captured_belief_shows_its_transcript_short_and_charged(tmp_path: Path) -> None:
    project, said = captured_project(tmp_path)
    transcript = Path(said["transcript_path"])
    transcripts = transcript.parent
    block = _hook(tmp_path, "prompt", {**said, "prompt": "which tool installs packages?"}, project)
    line = next(x for x in block.splitlines() if "pnpm" in x)
    assert str(transcripts) not in block and "file://" not in block, block
    assert line.endswith(f" (from {HINT})"), line
    # Charged: the belief's tokens are its line's and the hint's.
    run = CliRun(project / ".credo" / "memory.db", project)
    found = json.loads(run("search", "which tool installs packages", "--json", check=True).stdout)
    hit = next(b for b in found["beliefs"] if "pnpm" in b["content"])
    entry = line.removesuffix(f" (from {HINT})") + "\n"  # (as the block shows it: short id)
    assert hit["tokens"] == estimate(entry) + estimate(f" (from {HINT})"), hit
    assert any(str(transcript) in a["doc_uri"] for a in hit["doc_anchors"])  # (JSON: whole)
    text = run("search", "which tool installs packages", check=True).stdout
    assert f"↳ {HINT}" in text and str(transcripts) not in text, text
    # No room for the hint: not shown, not charged.
    tight = json.loads(
        run(
            "search", "which tool installs packages", "--json", "--budget", str(hit["tokens"] - 1)
        ).stdout
    )
    assert all(b["tokens"] <= hit["tokens"] - 1 for b in tight["beliefs"])


_ANCHORS = st.sampled_from(
    [
        DocAnchor("b", f"file:///h/.claude/projects/p/{SESSION}.jsonl", "manual", "turn 12", 0.0),
        DocAnchor("b", "file:///h/x/s.jsonl", "manual", None, 0.0),
        DocAnchor("b", "docs/a.md#L1-L4", "ingest", "L1-L4", 0.0),
        DocAnchor("b", "data/rows.jsonl", "manual", "L3", 0.0),  # (not a capture's place)
        DocAnchor("b", "https://example.com/x.jsonl", "derived", None, 0.0),
    ]
)


@given(
    st.lists(st.tuples(st.integers(1, 40), st.lists(_ANCHORS, max_size=3)), max_size=8),
    st.integers(0, 200),
    st.integers(0, 200),
)
def test_hints_are_charged_within_the_budget(
    rows: list[tuple[int, list[DocAnchor]]], used: int, room: int
) -> None:
    beliefs = [
        RetrievedBelief(f"b{n}", "text", 0.5, False, cost) for n, (cost, _) in enumerate(rows)
    ]
    anchors = tuple(tuple(found) for _, found in rows)
    budget = used + room
    out, now, hints = charge_hints(beliefs, anchors, budget, used)
    assert now <= budget and len(hints) == len(beliefs)
    added = [after.tokens - before.tokens for before, after in zip(beliefs, out, strict=True)]
    assert now - used == sum(added)
    for hint, extra, found in zip(hints, added, anchors, strict=True):
        assert extra == (hint_tokens(hint) if hint else 0)
        assert not hint or hint in {capture_hint(a) for a in found}


def test_which_anchors_are_a_capture_s() -> None:
    long = f"file:///home/u/.claude/projects/-home-u-proj/{SESSION}.jsonl"
    assert capture_hint(DocAnchor("b", long, "manual", "turn 3", 0.0)) == HINT
    assert capture_hint(DocAnchor("b", long, "manual", None, 0.0)) == "transcript 3f2a9c1e"
    assert capture_hint(DocAnchor("b", "data/rows.jsonl", "manual", "L3", 0.0)) == ""
    assert capture_hint(DocAnchor("b", long, "ingest", "turn 3", 0.0)) == ""
    assert capture_hint(DocAnchor("b", "docs/a.md", "manual", "turn 3", 0.0)) == ""
