"""SessionStart shows a passage under its file and section lines as a prompt's block does:
a passage whose text opens with its section's title says that title once, on the title's
line, not again at the head of its own line (structlog's docs: "› Example" then
"[bc858d16] Example Here's an example ...").
"""

from __future__ import annotations

import json
from pathlib import Path

from credo import Memory
from credo.knowledge.ingest import ingest_paths
from tests.test_hook_events import base, hook

GUIDE = """\
# Performance

## Production example

Here's an example for a production-ready configuration that caches all loggers on first use.
"""


def test_a_passage_under_its_section_line_does_not_repeat_the_title(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "performance.md").write_text(GUIDE, encoding="utf-8")
    with Memory(root / ".credo" / "memory.db", root=root) as memory:
        ingest_paths(memory.store, [root / "docs"], root=root)
        ids = [a.belief_id for a in memory.beliefs_for_doc("docs/performance.md")]
        (passage,) = [b for i in ids if "caches" in (b := memory.get(i)).content]
        assert passage.content.startswith("Production example\n")
        memory.feedback(passage.id, "used")  # evidence of use: SessionStart shows it
    done = hook(tmp_path, "session-start", base(root, "SessionStart", source="startup"), root)
    assert done.returncode == 0, done.stderr
    block = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "  › Production example\n" in block
    line = next(x for x in block.splitlines() if x.startswith(f"[{passage.id[:8]}"))
    text = "Here's an example for a production-ready configuration that caches all loggers"
    assert line == f"[{passage.id[:8]}] {text} on first use. (L3-L5)"
