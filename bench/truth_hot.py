"""How much of a warm query's stage is first touching memory, and how much is the work
itself: each stage timed where the query runs it, then again on its own inputs right away.

    python bench/truth_hot.py [--db STORE] [--store latency] [--queries 200]
                              [--stages _currency,picked] [--repeats 5]

bench/truth_cost.py times the truth step as a whole (a side with it against one without);
bench/truth_instructions.py counts its instructions. Neither says whether a stage's
microseconds are instructions or cache misses, and the two call for different cuts: fewer
passes, or fewer objects touched. Here each named stage (a name ``retrieval/pipeline.py``
calls, e.g. ``_currency``, ``picked``) is wrapped: a query's own call is timed in place (its
objects as the rest of the query left the caches), and then the same call is made
``--repeats`` more times on copies of its list, dict and set arguments (copied off the clock,
the first call's answer kept), the fastest of those being the stage's cost with its objects
in cache. A stage that changes state it is handed must have it among those arguments: the
truth step edits the ranking and its ids in place (copied), and leaves the truth graph as it
found it once the graph is whole (the warm index reads it so: ``truth_ahead.py``).

The store is ``--db`` (copied, never written), else one of bench/truth_cost.py's stores built
here (``--store``, 10k beliefs). Measured queries are each new to the process (a first pass,
as bench/latency.py's warm p50 reads), after as many warm-up queries of another seed.
"""

from __future__ import annotations

import argparse
import copy
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.retrieval import pipeline
from latency import queries
from synth import write_records
from truth_cost import STORES, variant


def _fresh(value: object) -> object:
    """A copy of a list, dict or set argument (a stage may change it); anything else as is."""
    return copy.copy(value) if isinstance(value, list | dict | set) else value


def timed(name: str, spent: dict[str, list[tuple[int, int]]], repeats: int) -> None:
    """Wrap ``pipeline.<name>``: (in place, fastest again) ns per call go in ``spent[name]``."""
    inner: Callable[..., object] = getattr(pipeline, name)
    clock = time.perf_counter_ns

    def wrapper(*args: object, **kwargs: object) -> object:
        copies = [  # (one set per repeat, made off the clock)
            ([_fresh(a) for a in args], {k: _fresh(v) for k, v in kwargs.items()})
            for _ in range(repeats)
        ]
        start = clock()
        answer = inner(*args, **kwargs)
        in_place = clock() - start
        best = None
        for a, k in copies:
            start = clock()
            inner(*a, **k)
            took = clock() - start
            best = took if best is None else min(best, took)
        spent[name].append((in_place, in_place if best is None else best))
        return answer

    setattr(pipeline, name, wrapper)


def run(db: Path, stages: list[str], count: int, repeats: int) -> dict[str, list[tuple[int, int]]]:
    spent: dict[str, list[tuple[int, int]]] = {name: [] for name in stages}
    with tempfile.TemporaryDirectory() as folder:
        copied = Path(folder) / "s.db"
        shutil.copyfile(db, copied)
        with Memory(copied, root=Path(folder)) as memory:
            assert memory.store.build_warm()
            for text in queries(count, seed=12):
                memory.retrieve(text)
            for name in stages:
                timed(name, spent, repeats)
            for text in queries(count):
                memory.retrieve(text)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store (default: one built, --store)")
    parser.add_argument("--store", default="latency", choices=STORES)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--stages", default="_currency,picked")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    missing = [s for s in stages if not callable(getattr(pipeline, s, None))]
    if missing:
        parser.error(f"not a name retrieval/pipeline.py calls: {', '.join(missing)}")
    with tempfile.TemporaryDirectory() as folder:
        db = args.db
        if db is None:
            base = write_records(Path(folder) / "r.jsonl", args.size, 2, text="zipf")
            records = variant(base, args.store, Path(folder) / f"{args.store}.jsonl")
            db = Path(folder) / f"{args.store}.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(records)
        spent = run(db, stages, args.queries, args.repeats)
    print(f"{args.queries} first-pass queries, warm; median us per call")
    print(f"{'stage':<16} {'calls':>6} {'in place':>9} {'again':>9} {'memory share':>13}")
    for name, calls in spent.items():
        if not calls:
            print(f"{name:<16} {0:>6}")
            continue
        placed = statistics.median(c[0] for c in calls) / 1000
        hot = statistics.median(c[1] for c in calls) / 1000
        share = (placed - hot) / placed if placed else 0.0
        print(f"{name:<16} {len(calls):>6} {placed:>9.1f} {hot:>9.1f} {share:>13.0%}")


if __name__ == "__main__":
    main()
