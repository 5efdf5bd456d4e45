"""Document ingest throughput on a generated Markdown docs tree.

    python bench/ingest_docs.py [--files 1000] [--seed 7]

Generates a docs tree (nested folders; each file a title, an intro, sections and
subsections with paragraphs, bullet lists, code fences, an occasional table, relative links
to other files and bare path mentions), then runs `credo.knowledge.ingest.ingest_paths` three times
on a fresh store: the first ingest, a re-ingest with nothing changed (all files skipped by
hash), and a re-ingest after editing 10% of the files. Prints files/s and beliefs/s for
each, the counts, and the store size.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from credo import Memory
from credo.knowledge.ingest import IngestReport, ingest_paths

TOPICS = (
    "install deploy config storage retrieval ranking cluster anchors ingest doctor "
    "hooks server cli api schema migration backup security tokens budget cache"
).split()
WORDS = (
    "the store keeps every belief in one file and the engine reads it on each prompt while "
    "a writer holds the lock readers continue because the journal is in write ahead mode "
    "edges carry a type and a weight so the walk can prefer strong links over weak ones "
    "anchors point at the exact lines a statement came from and move when the file changes "
    "configuration lives in a toml file next to the project and environment variables win "
    "tests build small trees in temporary folders and check every range against the text "
    "latency budget memory index query term score rank cluster pack token section heading "
    "paragraph bullet link path module function class option flag default value error"
).split()


def sentence(rng: random.Random) -> str:
    body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))
    return body[0].upper() + body[1:] + "."


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(1, 4)))


def relative_link(source: Path, target: Path) -> str:
    common = len(source.parent.parts)
    up = "../" * common
    return up + target.as_posix()


def markdown_file(rng: random.Random, path: Path, others: list[Path]) -> str:
    out = [f"# {path.stem.replace('-', ' ').title()}", "", paragraph(rng), ""]
    for s in range(rng.randint(3, 6)):
        out += [f"## {rng.choice(TOPICS).title()} {s + 1}", "", paragraph(rng), ""]
        if rng.random() < 0.6:
            for _ in range(rng.randint(2, 5)):
                target = rng.choice(others)
                out.append(f"- {sentence(rng)} See [{target.stem}]({relative_link(path, target)}).")
            out.append("")
        if rng.random() < 0.4:
            out += ["```bash", f"credo {rng.choice(TOPICS)} --json", "```", ""]
        if rng.random() < 0.3:
            out += [f"### Details {s + 1}", "", paragraph(rng), ""]
        if rng.random() < 0.2:
            out += ["| option | default |", "|---|---|", f"| {rng.choice(WORDS)} | 1 |", ""]
        if rng.random() < 0.3:
            out += [f"The code is in src/{rng.choice(TOPICS)}.py and {others[0].as_posix()}.", ""]
    return "\n".join(out)


def generate_tree(folder: Path, files: int, seed: int) -> list[Path]:
    """Write ``files`` Markdown files under ``folder``; returns their relative paths."""
    rng = random.Random(seed)
    paths = [
        Path(rng.choice(TOPICS)) / rng.choice(TOPICS) / f"page-{i:05d}.md" for i in range(files)
    ]
    for relative in paths:
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(markdown_file(rng, relative, paths), encoding="utf-8")
    return paths


def edit_some(folder: Path, paths: list[Path], share: float, seed: int) -> int:
    """Insert a paragraph at the top of a share of the files (every later line moves)."""
    rng = random.Random(seed)
    chosen = rng.sample(paths, max(1, int(len(paths) * share)))
    for relative in chosen:
        target = folder / relative
        lines = target.read_text(encoding="utf-8").split("\n")
        lines[2:2] = [paragraph(rng), ""]
        target.write_text("\n".join(lines), encoding="utf-8")
    return len(chosen)


def show(label: str, report: IngestReport, elapsed: float) -> None:
    files = report.files_ingested + report.files_unchanged
    beliefs = report.beliefs_added + report.beliefs_kept + report.beliefs_moved
    print(f"{label}")
    print(
        f"  files seen / ingested / unchanged  {report.files_seen:>7,} {report.files_ingested:>7,}"
        f" {report.files_unchanged:>7,}"
    )
    print(
        f"  beliefs added / kept / moved / stale  {report.beliefs_added:>6,} "
        f"{report.beliefs_kept:>6,} {report.beliefs_moved:>6,} {report.beliefs_stale:>6,}"
    )
    print(f"  edges added {report.edges_added:>8,}   anchors added {report.anchors_added:>8,}")
    print(
        f"  seconds {elapsed:>8.2f}   files/s {files / elapsed:>9,.0f}   "
        f"beliefs/s {beliefs / elapsed:>9,.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        paths = generate_tree(docs, args.files, args.seed)
        size = sum(p.stat().st_size for p in docs.rglob("*.md"))
        print(f"tree: {len(paths):,} Markdown files, {size / 1_048_576:.1f} MiB")
        with Memory(Path(tmp) / "bench.db", root=Path(tmp)) as memory:
            for label in ("first ingest", "re-ingest, nothing changed"):
                started = time.perf_counter()
                report = ingest_paths(memory.store, [docs], root=Path(tmp))
                show(label, report, time.perf_counter() - started)
            edited = edit_some(docs, paths, 0.10, args.seed + 1)
            started = time.perf_counter()
            report = ingest_paths(memory.store, [docs], root=Path(tmp))
            show(f"re-ingest after editing {edited} files", report, time.perf_counter() - started)
            stats = memory.stats()
        store = sum(p.stat().st_size for p in Path(tmp).glob("bench.db*"))
        print(
            f"store: {stats.beliefs:,} beliefs, {stats.edges:,} edges, {stats.anchors:,} "
            f"anchors, {store / 1_048_576:.1f} MiB (db+wal)"
        )


if __name__ == "__main__":
    main()
