"""The warm keyword top ranked on rowids (store/warm_keyword.py) against the mirror's own
ranking, paired in one process: a fair figure on a loaded machine.

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python bench/warm_keyword_ab.py [--db STORE]
        [--queries 200]

Two warm stores on copies of one file, one with the ranks and one without (``ranks`` set to
None: the path main takes); each warms up on ``--queries`` other queries, then answers each
measured query once (a first pass), the two stores in turn, the order flipped query by
query, the cycle collector held off around each answer. Prints each side's p50 (thread CPU
and wall) and the median of the paired CPU differences. The store is ``--db`` (copied, never
written), else a 10k synthetic one built here as bench/warm_stages.py builds it.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from credo import Memory  # noqa: E402
from scale import query_sets  # noqa: E402
from synth import write_records  # noqa: E402


def measure(db: Path, count: int, folder: Path) -> None:
    from credo.surfaces.collector import Collector

    copies = []
    for name in ("ranks", "main"):
        (folder / name / ".git").mkdir(parents=True)
        copies.append(folder / name / "bench.db")
        shutil.copyfile(db, copies[-1])
    texts, warmup = query_sets(count)
    cpu: dict[bool, list[int]] = {True: [], False: []}
    wall: dict[bool, list[int]] = {True: [], False: []}
    collector = Collector()
    with (
        Memory(copies[0], root=copies[0].parent) as on,
        Memory(copies[1], root=copies[1].parent) as off,
    ):
        if not (on.store.build_warm() and off.store.build_warm()):
            raise SystemExit("no warm index")
        mirror = off.store._warm.mirror  # type: ignore[attr-defined]
        if mirror is None or on.store._warm.mirror.ranks is None:  # type: ignore[attr-defined]
            raise SystemExit("the store's warm index has no ranks")
        mirror.ranks = None
        for text in warmup:
            on.retrieve(text)
            off.retrieve(text)
        for n, text in enumerate(texts):
            turns = ((True, on), (False, off)) if n % 2 else ((False, off), (True, on))
            for ranked, memory in turns:
                with collector.paused():
                    started, used = time.perf_counter_ns(), time.thread_time_ns()
                    memory.retrieve(text)
                    cpu[ranked].append(time.thread_time_ns() - used)
                    wall[ranked].append(time.perf_counter_ns() - started)
    for ranked, name in ((False, "mirror's ranking (main)"), (True, "ranks on rowids")):
        print(
            f"{name:<24} cpu p50 {statistics.median(cpu[ranked]) / 1e3:8.1f} us"
            f"  wall p50 {statistics.median(wall[ranked]) / 1e3:8.1f} us"
        )
    gaps = [a - b for a, b in zip(cpu[True], cpu[False], strict=True)]
    faster = sum(gap < 0 for gap in gaps)
    print(
        f"paired CPU difference p50 {statistics.median(gaps) / 1e3:+.1f} us; "
        f"ranks faster in {faster}/{len(gaps)} queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store (default: a 10k synthetic one, built)")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = args.db
        if db is None:
            db = folder / "built" / "bench.db"
            (folder / "built" / ".git").mkdir(parents=True)
            with Memory(db, root=db.parent) as memory:
                memory.import_records(
                    write_records(folder / "built" / "r.jsonl", 10_000, 2, text="zipf")
                )
        measure(db, args.queries, folder)


if __name__ == "__main__":
    main()
