"""``credo demo``: ingest real text (credo's own docs and source) into a fresh store and show
a few clustered, anchored retrievals: what the README's first command runs."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

DEMO_QUERIES = (
    "how do document anchors stay true when a file changes?",
    "what does the heat kernel lane compute, and over which graph?",
    "how are locked beliefs charged to the token budget?",
)


def demo_sources() -> list[Path]:
    """credo's package source, plus the README and docs/ of the checkout it runs from."""
    package = Path(__file__).resolve().parents[2]  # credo/, above surfaces/cli/
    sources = [package]
    checkout = package.parent.parent
    for extra in ("README.md", "docs"):
        if (checkout / extra).exists():
            sources.append(checkout / extra)
    return sources


@click.command()
@click.option("--keep", type=click.Path(dir_okay=False), help="Keep the demo store at this path.")
@click.option("--budget", type=int, default=700, show_default=True, help="Token budget per query.")
@click.argument("queries", nargs=-1)
def demo(keep: str | None, budget: int, queries: tuple[str, ...]) -> None:
    """Ingest credo's own docs and code into a fresh store and run a few retrievals."""
    from credo.memory import Memory
    from credo.surfaces.render import result_text

    with tempfile.TemporaryDirectory(prefix="credo-demo-") as folder:
        path = Path(keep) if keep else Path(folder) / "demo.db"
        sources = demo_sources()
        root = sources[0].parent.parent
        with Memory(path, root=root, source="demo") as memory:
            report = memory.ingest(*sources)
            stats = memory.stats()
            click.echo(
                f"credo demo: ingested {report.files_ingested} files from "
                + ", ".join(str(s.relative_to(root)) for s in sources)
                + f" into {path}\n{stats.beliefs} beliefs, {stats.edges} edges, "
                f"{stats.anchors} anchors ({report.seconds:.1f} s)\n"
            )
            for query in queries or DEMO_QUERIES:
                result = memory.retrieve(
                    query,
                    token_budget=budget,
                    use_intentional_clustering=True,
                    with_doc_anchors=True,
                )
                click.echo(f"$ credo search {query!r} --budget {budget} --cluster")
                click.echo(result_text(result) + "\n")
        if keep:
            click.echo(f"store kept at {path}; try: credo --db {path} search 'your question'")
