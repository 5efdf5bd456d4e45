"""Review of capture hints (left71): SessionStart's block is a memory block too. A captured
belief there showed no transcript at all (session_start made no hints, and the block now
hides a capture's anchor unless a hint was charged for it; before left71 it showed the
whole path, free)."""

from __future__ import annotations

import json
from pathlib import Path

from credo.memory import Memory
from tests.test_capture_hint import HINT, _hook, captured_project


def test_session_start_shows_a_captured_belief_s_transcript_short(tmp_path: Path) -> None:
    project, said = captured_project(tmp_path)
    transcript = Path(said["transcript_path"])
    transcripts = transcript.parent
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        for (belief,) in memory.store.conn.execute("SELECT belief_id FROM captures").fetchall():
            memory.lock(belief)  # (a lock: SessionStart shows it whatever its use)
    start = {**said, "hook_event_name": "SessionStart", "source": "startup"}
    out = _hook(tmp_path, "session-start", start, project)
    assert out, "no SessionStart output"
    block = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    line = next(x for x in block.splitlines() if "pnpm" in x)
    assert str(transcripts) not in block, block
    assert line.endswith(f" (from {HINT})"), line
