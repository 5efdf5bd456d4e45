"""What the truth step costs a warm retrieve, in instructions: a figure the machine's load
cannot move.

    python bench/truth_instructions.py SRC [SRC ...] [--queries 40] [--store STORE] [--first]

bench/truth_cost.py times the step in pairs, but on this shared machine its runs drift by
more than a change to the step is worth. Here each SRC (a folder holding the ``credo``
package: ``git archive`` or ``git worktree add`` a commit, then its ``src``) runs three
child processes under valgrind's cachegrind (no cache simulation: instructions only) on one
store built by the bench: each opens the store, reads its warm index and answers the
queries twice (the truth graph filled); then one stops (``none``), one answers them twice
more with the step (``on``) and one twice more without it (``off``: the pipeline's
``_currency`` says "no truth links", as in truth_cost.py). Instructions per query are
(on - none) / 2n and (off - none) / 2n, and the step is their difference. The store is
truth_cost.py's latency store unless ``--store`` says otherwise (``derived``: its ids as
``remember`` derives them, shown short). Instructions are not time
(the step's probes of big dicts miss the cache more than the rest), but a change that
removes instructions from the step removes them on every machine. Each child reads every
truth edge before its warm-up (the store would on the clock, which valgrind slows: a whole
read landed in some children's warm-up and not others', and the same tree's step moved
between 1.2M and 2.3M instructions), runs with ``PYTHONHASHSEED=0``, and answers the measured
queries with the cycle collector held off, as the warm server answers (a full collection
landing in one child's measured part read main's step at 579,488 instructions, 708,245 with
the collector held off).

With ``--first``, a first pass instead (what bench/latency.py's warm p50 reads): each child
answers n other queries with the step (warm-up), then ``on`` and ``off`` answer the n
measured ones once, each new to the process; per query (on - none) / n and (off - none) / n.
The side without the step then meets the warm-up's lines as a process with the step left
them, a small share of its first meetings.

Needs valgrind (Debian: ``apt-get install -y valgrind``); a few minutes per SRC.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cachegrind import python_instructions

CHILD = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from credo import Memory
from credo.retrieval import pipeline
from latency import queries
db, mode, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
texts = queries(n)
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    # Every truth edge read now: the store reads them all once its batched reads have cost
    # as much (a rule on the clock), which valgrind's slowness makes fire in some children's
    # warm-up and not others', a whole read's instructions in one side of the difference.
    memory.store._read_all_truth(memory.store.truth_reader()._memo)
    for _ in range(2):
        for text in texts:
            memory.retrieve(text)
    # The collector held off while answering, as the warm server holds it (surfaces/
    # collector.py): a full collection (millions of instructions at this store) landed in one
    # child's measured part and not another's, and moved the step by a sixth.
    import gc
    gc.disable()
    if mode == "off":
        pipeline._currency = lambda *args: None
    if mode != "none":
        for _ in range(2):
            for text in texts:
                memory.retrieve(text)
"""

# ``--first``: each child answers n warm-up queries (another seed) with the step; then
# ``on`` and ``off`` answer the n measured ones once, new to them, with and without it.
FIRST = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from credo import Memory
from credo.retrieval import pipeline
from latency import queries
db, mode, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
# (each child makes both lists: a generator builds its vocabulary, which no side may count)
others, texts = queries(n, seed=12), queries(n)
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    memory.store._read_all_truth(memory.store.truth_reader()._memo)
    for text in others:
        memory.retrieve(text)
    import gc
    gc.disable()
    if mode == "off":
        pipeline._currency = lambda *args: None
    if mode != "none":
        for text in texts:
            memory.retrieve(text)
"""


def instructions(src: Path, db: Path, mode: str, n: int, first: bool = False) -> int:
    """Instructions of one child process (cachegrind's ``I refs``)."""
    code = (FIRST if first else CHILD).format(bench=str(Path(__file__).resolve().parent))
    return python_instructions(src, code, [str(db), mode, str(n)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--size", type=int, default=10_000)
    stores = ("latency", "sparse", "none", "derived")  # (truth_cost.STORES)
    parser.add_argument("--store", choices=stores, default="latency")
    parser.add_argument(
        "--first",
        action="store_true",
        help="a first pass: the measured queries once, new to the process (after others)",
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install -y valgrind)")
    from credo import Memory
    from synth import write_records
    from truth_cost import variant

    n = args.queries
    runs = 1 if args.first else 2
    kind = "once, a first pass" if args.first else "x 2"
    print(f"{args.size} beliefs ({args.store} store), {n} queries {kind}, warm; instructions/query")
    print(f"{'tree':<40} {'on':>12} {'off':>12} {'step':>12} {'step/off':>9}")
    with tempfile.TemporaryDirectory() as folder:
        base = write_records(Path(folder) / "r.jsonl", args.size, 2, text="zipf")
        records = variant(base, args.store, Path(folder) / "v.jsonl")
        db = Path(folder) / "store.db"
        with Memory(db, root=Path(folder)) as memory:
            memory.import_records(records)
        for src in args.src:
            none, on, off = (
                instructions(src.resolve(), db, m, n, args.first) for m in ("none", "on", "off")
            )
            per_on, per_off = (on - none) / (runs * n), (off - none) / (runs * n)
            step = per_on - per_off
            print(
                f"{str(src)[-40:]:<40} {per_on:>12,.0f} {per_off:>12,.0f} {step:>12,.0f} "
                f"{step / per_off:>9.1%}"
            )


if __name__ == "__main__":
    main()
