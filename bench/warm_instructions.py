"""What a warm retrieve costs at 10k, in instructions: a figure the machine's load cannot move.

    python bench/warm_instructions.py SRC [SRC ...] [--db PATH] [--queries 100] [--placements 3]

bench/warm_trees.py times the trees in turn, but this machine is shared and its wall and CPU
times drift by more than a step of the warm engine is worth. Here each SRC (a folder holding
the ``credo`` package: ``git archive`` a commit, or a worktree's ``src``) runs two child
processes under valgrind's cachegrind (no cache simulation: instructions only) on a copy of
one store: each reads the warm index (``Store.build_warm``, as the server does) and answers
the latency bench's queries twice (warm-up: the caches filled, the keyword mirror's terms
read); then one stops and the other answers them twice more. Instructions per query are the
difference over 2n. ``PYTHONHASHSEED=0`` in both, and ``OPENBLAS_NUM_THREADS=1``: OpenBLAS's
worker threads spin a while after a matrix product (the keyword mirror's), and valgrind
counted their spinning, ~1.5M instructions a query from run to run; with one thread the
same tree gives the same count to the instruction. Instructions are not time (a cache miss
costs more than an add), but a step that removes instructions removes them on every machine.

With ``--first``, a first pass instead (what ``bench/scale.py``'s warm p50 measures: new
queries meeting terms and beliefs no earlier query met): one child answers n warm-up
queries (the latency bench's generator at another seed), the other the same warm-up
queries, then the n measured ones once; instructions per query are the difference over n.
Both children generate both lists of queries: before, only the measured child built the
second generator's vocabulary, ~10M instructions a query of the bench's own work.

Placements: one commit's byte-compiled tree, with identical sources, measures up to ~0.9%
apart from one folder to another (and repeats in one folder). The Python-level work is the
same (equal line events and calls per function under a tracer); the path's length moves
the heap's later blocks, and C code whose count depends on addresses follows: libc's AVX2
``memcmp`` under SQLite's b-tree compares (the same 866,775 calls, ~1M instructions apart
in a 60-query run: its branches depend on where the page buffers sit) and numpy's
pointer-keyed identity hash (measure70, callgrind of two placements). So
each tree is measured at ``--placements`` paths of different lengths (symlinks, the same
ones for every tree) and reported as its median with every figure; a comparison gives the
ratio of medians and the two extreme pairings. A claim inside that range is placement, not
code. The scratch folder is named the same each run (``$TMPDIR/credo-warm-instructions/0``
unless another run holds it): a random name would itself move the counts.

The store is ``--db`` (copied, never written), else a 10k synthetic store built here as
bench/latency.py builds it. Needs valgrind; a few minutes per SRC and placement.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from cachegrind import python_instructions  # noqa: E402

CHILD = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from latency import queries
from credo import Memory
db, count, passes = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
texts = queries(count)
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    for _ in range(2 + passes):
        for text in texts:
            memory.retrieve(text)
"""

FIRST = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from latency import queries
from credo import Memory
db, count, measured = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
# Both children make both lists (each generator builds its Zipf vocabulary: ~1G
# instructions, which the difference must not count); one answers the second list too.
others, texts = queries(count, seed=12), queries(count)
texts = others + (texts if measured else [])
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    for text in texts:
        memory.retrieve(text)
"""


def instructions(
    src: Path, db: Path, count: int, passes: int, folder: Path, *, first: bool = False
) -> int:
    """One child's instructions: ``passes`` more passes (or, ``first``, with the measured
    queries once when ``passes``)."""
    copy = folder / f"run{passes}.db"
    shutil.copyfile(db, copy)
    code = (FIRST if first else CHILD).format(bench=str(BENCH))
    if first:
        passes = int(passes > 0)
    return python_instructions(
        src,
        code,
        [str(copy), str(count), str(passes)],
        {"CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"},
    )


def per_query(src: Path, db: Path, count: int, folder: Path, *, first: bool) -> float:
    """Instructions a query of the tree at ``src``: two children, the difference."""
    base = instructions(src, db, count, 0, folder, first=first)
    more = instructions(src, db, count, 2, folder, first=first)
    return (more - base) / (count if first else 2 * count)


@dataclass(frozen=True)
class Spread:
    """One tree's figures over its placements."""

    low: float
    median: float
    high: float

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        if not values:
            raise ValueError("no figures to summarise")
        return cls(min(values), statistics.median(values), max(values))


def versus(base: Spread, other: Spread) -> str:
    """``other`` against ``base``: the ratio of medians, and the most and least favourable
    pairing of their placements (a claim inside that range is placement, not code)."""

    def change(new: float, old: float) -> str:
        return f"{(new / old - 1) * 100:+.2f}%"

    return (
        f"{change(other.median, base.median)} (medians; placements"
        f" {change(other.low, base.high)} .. {change(other.high, base.low)})"
    )


def at_each(base: list[float], other: list[float]) -> str:
    """``other`` against ``base`` placement by placement (the same path for both trees)."""
    return ", ".join(f"{(b / a - 1) * 100:+.2f}%" for a, b in zip(base, other, strict=True))


def placements(folder: Path, tree: Path, count: int) -> list[Path]:
    """``count`` paths to ``tree`` of different lengths (symlinks under ``folder``).

    The same code measures up to ~1% apart from one folder to another: the path's
    characters reach the child's heap (``__file__``, ``co_filename``, ``sys.path``, the
    environment's PYTHONPATH), and so the addresses of later objects, and with them the
    order and probe chains of containers hashed by identity. Each tree is measured at
    the same ``count`` placements, so that spread is shown instead of hidden in a ratio.
    """
    at = folder / "at"
    at.mkdir(exist_ok=True)
    paths = []
    for i in range(count):
        link = at / ("p" * (1 + 3 * i))
        if link.is_symlink():
            link.unlink()
        link.symlink_to(tree.resolve(), target_is_directory=True)
        paths.append(link)
    return paths


@contextmanager
def work_folder(parent: Path | None = None) -> Iterator[Path]:
    """A scratch folder whose path is the same from run to run (the first free
    ``credo-warm-instructions/N``): a random temporary name would itself move the counts."""
    top = (parent or Path(tempfile.gettempdir())) / "credo-warm-instructions"
    top.mkdir(exist_ok=True)
    for n in itertools.count():
        folder = top / str(n)
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        try:
            yield folder
        finally:
            shutil.rmtree(folder)
        return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--db", type=Path, help="a store to copy (default: a 10k one, built)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument(
        "--first", action="store_true", help="a first pass over new queries, after others"
    )
    parser.add_argument(
        "--placements",
        type=int,
        default=3,
        help="paths each tree is measured at (default 3; 1: one, as before)",
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind")
    if args.placements < 1:
        raise SystemExit("--placements must be at least 1")
    what = "a first-pass query" if args.first else "a warm query"
    spreads: list[Spread] = []
    figures_of: list[list[float]] = []
    with work_folder() as folder:
        db = args.db or ten_thousand(folder)
        for tree in args.trees:
            figures = [
                per_query(at, db, args.queries, folder, first=args.first)
                for at in placements(folder, tree, args.placements)
            ]
            spreads.append(Spread.of(figures))
            figures_of.append(figures)
            each = ", ".join(f"{f:,.0f}" for f in figures)
            print(
                f"{tree}: median {spreads[-1].median:,.0f} instructions {what}"
                f" ({args.queries} queries; at {len(figures)} placements: {each})",
                flush=True,
            )
        for tree, spread, figures in zip(args.trees[1:], spreads[1:], figures_of[1:], strict=True):
            print(
                f"{tree} against {args.trees[0]}: {versus(spreads[0], spread)};"
                f" at each placement {at_each(figures_of[0], figures)}"
            )


def ten_thousand(folder: Path) -> Path:
    """A 10k-belief store (bench/latency.py's: Zipf text, two edges a belief) in ``folder``."""
    from credo import Memory
    from synth import write_records

    db = folder / "bench.db"
    with Memory(db, root=folder) as memory:
        memory.import_records(write_records(folder / "r.jsonl", 10_000, 2, text="zipf"))
    return db


if __name__ == "__main__":
    main()
