"""Two versions of credo side by side: warm retrieve and first-query latency, interleaved.

    python bench/compare_trees.py OLD_SRC NEW_SRC [--beliefs 10000] [--rounds 4] [--first 30]

Each SRC is a folder holding the ``credo`` package (for example ``git worktree add /tmp/old
<commit>`` then ``/tmp/old/src``). Each tree builds its own synthetic store from the same
records (bench/synth.py, Zipf text, 2 edges per belief; a tree may refuse a newer schema);
then, in turn per round, a fresh process of each tree answers the latency bench's 300
queries after 20 warm-up ones (warm p50 / p99), and ``--first`` fresh processes of each
tree run the first query after opening the store (as bench/latency.py's FIRST_QUERY).
Interleaving (which tree runs first alternates) lets the machine's drift hit both alike.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from latency import FIRST_QUERY, queries  # noqa: E402

WARM = f"""
import sys, statistics
from pathlib import Path
sys.path.insert(0, {str(BENCH)!r})
from latency import percentile, queries, warm
times, _ = warm(Path(sys.argv[1]), queries(300))
print(statistics.median(times), percentile(times, 0.99))
"""


def run(source: str, script: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": source}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _in_turn(trees: dict[str, str], turn: int) -> list[str]:
    names = list(trees)
    return names if turn % 2 == 0 else names[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--beliefs", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--first", type=int, default=30, help="first-query runs per tree")
    args = parser.parse_args()
    trees = {"old": str(Path(args.old).resolve()), "new": str(Path(args.new).resolve())}
    for source in trees.values():
        compileall.compile_dir(Path(source) / "credo", quiet=1)
    build = (
        "import sys; sys.path.insert(0, sys.argv[3]); from pathlib import Path; "
        "from credo import Memory; from synth import write_records; "
        "m = Memory(sys.argv[1], root=sys.argv[2]); "
        "m.import_records(write_records(Path(sys.argv[2]) / 'r.jsonl', int(sys.argv[4]), 2, "
        "text='zipf')); m.close()"
    )
    texts = queries(max(args.first, 1))
    with tempfile.TemporaryDirectory() as folder:
        # One store per tree, from the same records: an older tree refuses a schema a newer
        # one wrote, and a newer one would migrate the older one's store on open.
        stores = {name: str(Path(folder) / f"{name}.db") for name in trees}
        for name, source in trees.items():
            run(source, build, stores[name], folder, str(BENCH), str(args.beliefs))
        warm: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        first: dict[str, list[float]] = {name: [] for name in trees}
        # Each round swaps which tree goes first: the second run meets pages the first one
        # warmed.
        for turn in range(args.rounds):
            for name in _in_turn(trees, turn):
                p50, p99 = map(float, run(trees[name], WARM, stores[name]).split())
                warm[name].append((p50, p99))
        for i in range(args.first):
            for name in _in_turn(trees, i):
                query = run(trees[name], FIRST_QUERY, stores[name], texts[i])
                first[name].append(float(query) * 1000)
    print(f"{args.beliefs} beliefs, {args.rounds} rounds of 300 warm queries, interleaved")
    for name in trees:
        p50s = " ".join(f"{p50:.2f}" for p50, _ in warm[name])
        p99s = " ".join(f"{p99:.2f}" for _, p99 in warm[name])
        print(f"  {name} ({trees[name]}): warm p50 {p50s} | p99 {p99s} ms")
    if args.first:
        for name in trees:
            print(
                f"  {name}: first query median {statistics.median(first[name]):.1f} ms, "
                f"min {min(first[name]):.1f} ms ({args.first} runs)"
            )


if __name__ == "__main__":
    main()
