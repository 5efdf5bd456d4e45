"""bench/prune_reach.py runs: it reads ``_rank``'s ranking, plain ``rank.Ranked`` tuples
since day-warmC68, by index (it read ``.id`` and raised AttributeError on every query)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench.synth import write_records

from credo import Memory

ROOT = Path(__file__).resolve().parents[1]


def test_prune_reach_reads_the_ranking_and_reports(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    db = tmp_path / "bench.db"
    with Memory(db, root=tmp_path) as memory:
        memory.import_records(write_records(tmp_path / "r.jsonl", 300, 2, text="zipf"))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/prune_reach.py"), "--db", str(db), "--queries", "10"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ranked ")
    assert "cluster ids change:" in done.stdout
