"""bench/with_notes.py: a bench's every store holds the notes beside what it ingests, once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bench.with_notes import main, notes_of

from credo.memory import Memory

NOTES = Path(__file__).resolve().parent.parent / "bench" / "own_notes"

BENCH = """
import sys
from pathlib import Path
from credo.memory import Memory
root = Path(sys.argv[1])
for name in ("a.db", "b.db"):
    with Memory(root / name, root=root / "docs") as memory:
        memory.ingest(root / "docs")
        memory.ingest(root / "docs")  # a second ingest adds no second copy
        print(memory.stats().beliefs)
"""


def test_every_store_holds_the_notes_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nThe client retries twice.\n", encoding="utf-8")
    bench = tmp_path / "bench.py"
    bench.write_text(BENCH, encoding="utf-8")
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    # main() patches Memory.ingest for the bench it runs: put it back for the other tests
    monkeypatch.setattr(Memory, "ingest", Memory.ingest)
    main([str(NOTES), str(bench), str(tmp_path)])
    counts = [int(line) for line in capsys.readouterr().out.split()]
    notes = len({text for text, _ in notes_of(NOTES)})
    assert len(counts) == 2 and counts[0] == counts[1] > notes


def test_a_folder_without_notes_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no notes"):
        main([str(tmp_path), str(tmp_path / "bench.py")])
