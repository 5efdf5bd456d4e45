"""The warm index beside SQL reads, in one process, query by query (issue #17).

    PYTHONPATH=src python bench/warm_index.py [--sizes 10000,100000] [--queries 200] [--db PATH]

For each size, a synthetic store (bench/synth.py: Zipf text, two edges per belief, as
bench/scale.py builds it), or each ``--db`` store as it is. Two stores of the same file in
this process: one with its warm index read (``Store.build_warm``, timed), one reading SQL. A
warm-up pass over ``--queries`` other queries on both; then each measured query is answered by
the warm store and then by the SQL one, results asserted equal. Prints p50 / p99 of the calling
thread's CPU time (what the machine's other jobs disturb least) and of wall time, and the ratio
of the p50s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from scale import percentile, query_sets
from synth import write_records


def measure(db: Path, texts: list[str], warmup: list[str]) -> None:
    with Memory(db, root=db.parent) as warm, Memory(db, root=db.parent) as sql:
        wall, cpu = time.perf_counter(), time.thread_time()
        assert warm.store.build_warm()
        print(
            f"  warm index read: {time.perf_counter() - wall:.2f} s wall, "
            f"{time.thread_time() - cpu:.2f} s CPU"
        )
        for text in warmup:
            warm.retrieve(text)
            sql.retrieve(text)
        times: dict[str, list[float]] = {}
        for text in texts:
            results = []
            for name, memory in (("warm", warm), ("sql", sql)):
                wall, cpu = time.perf_counter(), time.thread_time()
                results.append(memory.retrieve(text))
                times.setdefault(f"{name} cpu", []).append((time.thread_time() - cpu) * 1000)
                times.setdefault(f"{name} wall", []).append((time.perf_counter() - wall) * 1000)
            assert results[0] == results[1], text
    for kind in ("cpu", "wall"):
        warm_t, sql_t = times[f"warm {kind}"], times[f"sql {kind}"]
        print(
            f"  {kind:4s} ms: warm index p50 {statistics.median(warm_t):.2f} p99 "
            f"{percentile(warm_t, 0.99):.2f} | SQL p50 {statistics.median(sql_t):.2f} p99 "
            f"{percentile(sql_t, 0.99):.2f} | ratio p50 "
            f"{statistics.median(warm_t) / statistics.median(sql_t):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--db", type=Path, action="append", default=[], help="an existing store")
    args = parser.parse_args()
    texts, warmup = query_sets(args.queries)
    for db in args.db:
        print(db)
        measure(db, texts, warmup)
    for size in (int(s) for s in args.sizes.split(",") if s):
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "bench.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(write_records(Path(folder) / "r.jsonl", size, 2, text="zipf"))
            print(f"{size:,} beliefs")
            measure(db, texts, warmup)


if __name__ == "__main__":
    main()
