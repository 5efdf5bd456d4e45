"""The progress bars `credo ingest` and `credo migrate` show on a terminal (rich, imported
only here, and only when someone can see the bar)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from credo.config import PostgresUrl
    from credo.knowledge.ingest import IngestReport
    from credo.memory import Memory
    from credo.store.transfer import MigrateReport


def _stderr() -> Console:
    """The bar's console: stderr, the stream the command checks is a terminal, so the bar
    shows there and a redirected report (``credo ingest ... > out``) holds no stray line."""
    from rich.console import Console

    return Console(stderr=True)


def ingest_with_bar(
    memory: Memory, paths: tuple[str, ...], *, vendored: bool = False
) -> IngestReport:
    """`Memory.ingest`, with a transient progress bar on the terminal while it runs."""
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr()) as bar:
        task = bar.add_task("ingest", total=None)

        def progress(done: int, total: int, path: str) -> None:
            bar.update(task, completed=done, total=total, description=path[-40:])

        return memory.ingest(*paths, progress=progress, vendored=vendored)


def migrate_with_bar(source: Path | PostgresUrl, target: Path | PostgresUrl) -> MigrateReport:
    """`migrate_store`, with one transient progress line per table while it copies."""
    from rich.progress import Progress, TaskID

    from credo.store.transfer import migrate_store

    with Progress(transient=True, console=_stderr()) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(table: str, rows: int) -> None:
            if table not in tasks:
                tasks[table] = bar.add_task(f"copying {table}", total=None)
            bar.advance(tasks[table], rows)

        return migrate_store(source, target, progress=progress)
