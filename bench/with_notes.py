"""Run a bench with a team's notes beside every store it ingests: the harm check of any
ranking change that moves notes (stop 65).

    PYTHONPATH=TREE/src python bench/with_notes.py bench/own_notes bench/docs_multi.py [ARGS...]

Every note (``earlier`` then ``notes``) of each ``*.json`` in the notes folder (the
bench/own_notes data: three other teams' notes) is remembered, with its kind, right after the
bench's first ``Memory.ingest`` of each store. A docs bench then measures its doc questions in
a store that also holds notes which do not answer them: a note ranked above a passage that
answers costs the bench's figures, which a docs-only store can never show.
"""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path
from typing import Any

import credo.memory


def notes_of(folder: Path) -> list[tuple[str, str]]:
    """(text, kind) of every note in the folder's data files, in file then data order."""
    found: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for note in [*data.get("earlier", []), *data["notes"]]:
            found.append((note["text"], note.get("kind", "factual")))
    return found


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        sys.exit("usage: with_notes.py NOTES_DIR BENCH.py [ARGS...]")
    notes = notes_of(Path(argv[0]))
    if not notes:
        sys.exit(f"with_notes: no notes in {argv[0]}")
    ingest = credo.memory.Memory.ingest

    def ingest_then_notes(memory: credo.memory.Memory, *args: Any, **kwargs: Any) -> Any:
        report = ingest(memory, *args, **kwargs)
        if not getattr(memory, "_with_notes", False):  # (once a store: its first ingest)
            memory._with_notes = True  # type: ignore[attr-defined]
            for text, kind in notes:
                memory.remember(text, kind=kind)
        return report

    credo.memory.Memory.ingest = ingest_then_notes  # type: ignore[method-assign]
    sys.argv = argv[1:]
    runpy.run_path(argv[1], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
