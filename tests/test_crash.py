"""kill -9 during an import or an ingest (issue 7, part 2), at a small size.

``bench/crash.py`` holds the harness and runs it at full size; here 10 + 10 trials. Each
trial checks that the store opens, passes integrity_check, keeps what was committed before,
shows nothing of a half-done transaction, and that a re-run ends equal to a clean run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench.crash import crash_trials

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs fork and SIGKILL")


@pytest.mark.parametrize(("kind", "size"), [("import", 2_000), ("ingest", 100)])
def test_kill_nine_never_loses_or_half_writes(kind: str, size: int, tmp_path: Path) -> None:
    report = crash_trials(kind, tmp_path, trials=10, size=size, seed=11)
    assert report.problems == []
    assert len(report.trials) == 10
