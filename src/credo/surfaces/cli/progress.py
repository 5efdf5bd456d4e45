"""The progress bar `credo ingest` shows on a terminal (rich, imported only here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credo.knowledge.ingest import IngestReport
    from credo.memory import Memory


def ingest_with_bar(memory: Memory, paths: tuple[str, ...]) -> IngestReport:
    """`Memory.ingest`, with a transient progress bar on the terminal while it runs."""
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("ingest", total=None)

        def progress(done: int, total: int, path: str) -> None:
            bar.update(task, completed=done, total=total, description=path[-40:])

        return memory.ingest(*paths, progress=progress)
