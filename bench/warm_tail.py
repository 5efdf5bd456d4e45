"""Two versions of credo's warm retrieve on one existing store, tail included, alternated.

    python bench/warm_tail.py OLD_SRC NEW_SRC --db STORE [--rounds 2] [--queries 200]

Each SRC is a folder holding the ``credo`` package (``git worktree add /tmp/old <commit>``,
then ``/tmp/old/src``). Per round, a fresh process of each tree in turn (the first one
alternates) opens STORE, reads its warm index (``Store.build_warm``), answers ``--queries``
warm-up queries, then times as many others in CPU (``time.thread_time``), without holding
the cycle collector (what a service holding a warm ``Memory`` sees; the warm server holds it,
surfaces/collector.py). Prints p50 / p90 / p99 / max per run. The queries are bench/scale.py's
(Zipf text, as its stores): a store of another text gets queries that find little.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent

RUN = """
import statistics, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
from credo import Memory
from scale import query_sets
db = Path({db!r})
texts, warmup = query_sets({queries})
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    for text in warmup:
        memory.retrieve(text)
    cpu = []
    for text in texts:
        started = time.thread_time()
        memory.retrieve(text)
        cpu.append((time.thread_time() - started) * 1000)
cpu.sort()
at = lambda q: cpu[min(len(cpu) - 1, round(q * (len(cpu) - 1)))]
print(f"p50 {{statistics.median(cpu):.2f}} p90 {{at(0.9):.2f}} p99 {{at(0.99):.2f}} "
      f"max {{cpu[-1]:.2f}} ms")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    trees = [args.old.resolve(), args.new.resolve()]
    for tree in trees:  # bytecode present, as users' installs have it
        compileall.compile_dir(tree / "credo", quiet=1)
    code = RUN.format(bench=str(BENCH), db=str(args.db.resolve()), queries=args.queries)
    print(f"store {args.db}; load before {os.getloadavg()[0]:.2f}")
    for round_ in range(args.rounds):
        for tree in trees if round_ % 2 == 0 else trees[::-1]:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            label = "old" if tree == trees[0] else "new"
            print(f"round {round_ + 1} {label} ({tree}): {out.stdout.strip()}", flush=True)
    print(f"load after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
