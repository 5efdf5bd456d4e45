"""What each stage of a warm first-pass query costs, in instructions (issue #17).

    python bench/stage_instructions.py SRC [--db PATH] [--queries 100] [--stages a,b,...]

``bench/warm_instructions.py`` counts a whole first-pass query; ``bench/warm_stages.py``
times each stage, but this machine is shared and a stage's microseconds move with the load.
Here each stage is counted by cachegrind (``cachegrind.py``: instructions only), by
difference: one child answers the first pass as it is, and one child per stage answers it
with that stage called twice, the second answer kept (warm-up queries are answered once).
What the second call adds is the stage's cost on its inputs as the query meets them; a
stage that keeps a memo (the keyword mirror's rows, the graph's links) pays less the second
time, so its figure is what it costs once its memos are filled. A stage that changes
state it is handed (the pack's charges) must not be listed.

Stages are names the pipeline calls (``retrieval/pipeline.py``: ``heat_scores``, ``compose``...),
``store.NAME`` for a store method (``store.keyword_beliefs``) and ``cluster.NAME`` for the
cluster module's. The store is ``--db`` (copied, never written), else a 10k synthetic one
built as bench/latency.py builds it. Needs valgrind; a few minutes a stage.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from cachegrind import python_instructions  # noqa: E402
from warm_instructions import ten_thousand  # noqa: E402

DEFAULT_STAGES = (
    "heat_scores",
    "compose",
    "neighbourhood",
    "lane_best",
    "bfs_scores",
    "store.keyword_beliefs",
    "candidate_pairs",
    "_currency",
    "Shown",
    "picked",
    "lift",
)

CHILD = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from latency import queries
from credo import Memory
from credo.retrieval import pipeline
db, count, stage = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
# Both lists made by every child (each generator builds its Zipf vocabulary).
others, texts = queries(count, seed=12), queries(count)
measured = [False]


def twice(owner, name):
    inner = getattr(owner, name)

    def call(*args, **kwargs):
        if measured[0]:
            inner(*args, **kwargs)
        return inner(*args, **kwargs)

    setattr(owner, name, call)


with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    if stage != "-":
        where, _, name = stage.rpartition(".")
        owners = {{"": pipeline, "store": memory.store, "cluster": pipeline.clustering}}
        twice(owners[where], name)
    for text in others:
        memory.retrieve(text)
    measured[0] = True
    for text in texts:
        memory.retrieve(text)
"""


def instructions(src: Path, db: Path, count: int, stage: str, folder: Path) -> int:
    """One child's instructions: the first pass with ``stage`` called twice ("-": none)."""
    copy = folder / "run.db"
    shutil.copyfile(db, copy)
    return python_instructions(
        src,
        CHILD.format(bench=str(BENCH)),
        [str(copy), str(count), stage],
        {"CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="a folder holding the credo package")
    parser.add_argument("--db", type=Path, help="a store to copy (default: a 10k one, built)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--stages", default=",".join(DEFAULT_STAGES))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = args.db or ten_thousand(folder)
        n = args.queries
        base = instructions(args.tree, db, n, "-", folder)
        print(f"{args.tree}: the run without a stage twice, {base:,} instructions ({n} queries)")
        for stage in filter(None, args.stages.split(",")):
            more = instructions(args.tree, db, n, stage, folder)
            print(f"  {stage:<24} {(more - base) / n:>12,.0f} a first-pass query")


if __name__ == "__main__":
    main()
