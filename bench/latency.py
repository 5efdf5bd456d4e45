"""Retrieval latency on synthetic stores of 1k, 10k and 100k beliefs (2 edges per belief).

    python bench/latency.py [--sizes 1000,10000,100000] [--queries 300]

Beliefs are Zipf-distributed text over a 20k-word vocabulary (bench/synth.py); queries
are 3-6 topical words of the same vocabulary. For each size: warm ``Memory.retrieve``
p50/p99 in one process (default lanes, budget 2400), the first query after opening the
store in a fresh process (open + retrieve), and ``credo search`` end to end as a fresh
process (what a shell user waits for).
Targets (issue #3): warm p50 <= 1 ms and p99 <= 5 ms at 10k; warm p50 <= 5 ms at 100k;
first query <= 30 ms at 10k; `credo search` <= 150 ms at 10k.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from synth import ZipfText, write_records

FIRST_QUERY = """
import sys, time
t0 = time.perf_counter()
from credo import Memory
m = Memory(sys.argv[1])
m.retrieve(sys.argv[2])
print(time.perf_counter() - t0)
"""


def queries(count: int, seed: int = 11) -> list[str]:
    """Queries of 3-6 topical words from the stores' Zipf vocabulary (bench/synth.py)."""
    text = ZipfText(seed)
    return [text.query() for _ in range(count)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def warm(db: Path, texts: list[str]) -> list[float]:
    with Memory(db, root=db.parent) as memory:
        for text in texts[:20]:
            memory.retrieve(text)
        times = []
        for text in texts:
            started = time.perf_counter()
            memory.retrieve(text)
            times.append((time.perf_counter() - started) * 1000)
    return times


def fresh(command: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--fresh-runs", type=int, default=15)
    args = parser.parse_args()
    texts = queries(args.queries)
    credo = shutil.which("credo") or "credo"
    print(f"{'beliefs':>8} {'warm p50':>9} {'warm p99':>9} {'first q':>9} {'search e2e':>11}  (ms)")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "bench.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(write_records(Path(folder) / "r.jsonl", size, 2, text="zipf"))
            times = warm(db, texts)
            first = [
                float(
                    subprocess.run(
                        [sys.executable, "-c", FIRST_QUERY, str(db), texts[i]],
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                )
                * 1000
                for i in range(args.fresh_runs)
            ]
            env = {**os.environ, "CREDO_DB": str(db)}
            e2e = []
            for i in range(args.fresh_runs):
                started = time.perf_counter()
                subprocess.run(
                    [credo, "search", texts[i]], check=True, capture_output=True, env=env
                )
                e2e.append((time.perf_counter() - started) * 1000)
            print(
                f"{size:>8} {statistics.median(times):>9.2f} {percentile(times, 0.99):>9.2f} "
                f"{statistics.median(first):>9.1f} {statistics.median(e2e):>11.1f}"
            )


if __name__ == "__main__":
    main()
