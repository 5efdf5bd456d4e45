"""Two or more source trees' warm engines on one store, side by side (issue #17).

    python bench/warm_trees.py SRC [SRC ...] [--size 1000000] [--db PATH] [--queries 200]
                                             [--rounds 2] [--locks N]

Each SRC is a folder holding the ``credo`` package (``git archive`` a commit and take its
``src``, or a worktree's ``src``). One synthetic store (bench/synth.py, as bench/scale.py
builds it; kept at ``--db`` when given, and reused if it exists) is answered by each tree in a
child process of its own, the trees taking turns ``--rounds`` times (the order alternates, so
the machine's drift hits them alike): the warm index read (``Store.build_warm``, timed), a
warm-up pass over ``--queries`` queries, then ``--queries`` *other* queries twice: the first
pass meets beliefs no earlier query met (what bench/scale.py's warm p50 / p99 measure), the
second has met them all. Each timed answer holds the cycle collector off, as the server does.
Prints per run the index's read time, first and second pass p50 / p99 (ms; the first pass's
CPU p50 too: the calling thread's, which the machine's other jobs disturb less) and the
child's peak RSS (MiB), then the medians per tree.

With ``--locks N``, the trees answer a copy of the store beside it (``NAME-locksN.db``, made
once and reused) with N of its beliefs locked: every k-th live belief in id order, a sample
the same on every run, as a user's rules stand in every block (L0).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

CHILD = """
import json, resource, statistics, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
from credo import Memory
from credo.surfaces.collector import Collector
from scale import percentile, query_sets
db, count = Path(sys.argv[1]), int(sys.argv[2])
texts, warmup = query_sets(count)
collector = Collector()
out = {{}}
with Memory(db, root=db.parent) as memory:
    started = time.perf_counter()
    assert memory.store.build_warm()
    out["index_s"] = time.perf_counter() - started
    for text in warmup:
        memory.retrieve(text)
    for name in ("first", "second"):
        times, cpu = [], []
        for text in texts:
            with collector.paused():
                started, cpu_started = time.perf_counter(), time.thread_time()
                memory.retrieve(text)
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.thread_time() - cpu_started) * 1000)
        out[name] = [statistics.median(times), percentile(times, 0.99), statistics.median(cpu)]
out["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(src: Path, db: Path, count: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src), "CREDO_CAPTURE": "0"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(bench=str(BENCH)), str(db), str(count)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def with_locks(db: Path, count: int) -> Path:
    """A copy of ``db`` beside it with ``count`` beliefs locked (evenly spaced in id order),
    made through ``Memory.lock`` once and reused."""
    locked = db.with_name(f"{db.stem}-locks{count}.db")
    if locked.exists():
        return locked
    from credo import Memory

    made = locked.with_suffix(".partial")
    source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    target = sqlite3.connect(made)
    source.backup(target)  # (a consistent copy, WAL included)
    target.close()
    source.close()
    with Memory(made, root=made.parent) as memory:
        ids = [b.id for b in memory.store.iter_beliefs()] if count else []
        ids.sort()
        step = max(1, len(ids) // count) if count else 1
        for belief_id in ids[::step][:count]:
            memory.lock(belief_id)
    made.rename(locked)
    return locked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, help="keep the store here (reused if it exists)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--locks", type=int, help="answer a copy with this many beliefs locked")
    args = parser.parse_args()
    for tree in args.trees:
        if not (tree / "credo" / "__init__.py").is_file():
            parser.error(f"{tree} holds no credo package")
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "bench.db"
        if not db.exists():
            from credo import Memory
            from synth import write_records

            db.parent.mkdir(parents=True, exist_ok=True)
            with Memory(db, root=db.parent) as memory:
                memory.import_records(
                    write_records(Path(folder) / "r.jsonl", args.size, 2, text="zipf")
                )
        if args.locks is not None:
            db = with_locks(db, args.locks)
        results: dict[Path, list[dict[str, object]]] = {tree: [] for tree in args.trees}
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # (--db's size, not --size)
        (live,) = conn.execute("SELECT count(*) FROM beliefs WHERE deleted_at IS NULL").fetchone()
        conn.close()
        print(f"store {db} ({live:,} live beliefs); {args.queries} queries a pass")
        for turn in range(args.rounds):
            order = args.trees if turn % 2 == 0 else args.trees[::-1]
            for tree in order:
                got = run(tree, db, args.queries)
                results[tree].append(got)
                first, second = got["first"], got["second"]
                print(
                    f"  {tree}: index {got['index_s']:.1f} s; first pass p50 {first[0]:.2f} "  # type: ignore[index]
                    f"p99 {first[1]:.2f} ms (CPU p50 {first[2]:.2f}); second p50 {second[0]:.2f} "  # type: ignore[index]
                    f"p99 {second[1]:.2f} ms; peak RSS {got['rss_mib']:.0f} MiB; "  # type: ignore[index]
                    f"load {os.getloadavg()[0]:.2f}"
                )
        for tree, runs in results.items():
            p50 = statistics.median(r["first"][0] for r in runs)  # type: ignore[index]
            p99 = statistics.median(r["first"][1] for r in runs)  # type: ignore[index]
            seen = statistics.median(r["second"][0] for r in runs)  # type: ignore[index]
            rss = statistics.median(r["rss_mib"] for r in runs)  # type: ignore[misc]
            cpu = statistics.median(r["first"][2] for r in runs)  # type: ignore[index]
            print(
                f"{tree}: median of {len(runs)} runs: first pass p50 {p50:.2f} p99 {p99:.2f} ms "
                f"(CPU p50 {cpu:.2f}), "
                f"second pass p50 {seen:.2f} ms, peak RSS {rss:.0f} MiB"
            )


if __name__ == "__main__":
    main()
