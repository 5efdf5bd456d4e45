"""Import throughput: 100k beliefs + 200k edges from JSONL into a fresh store.

    python bench/ingest.py [--beliefs 100000] [--edges-per-belief 2] [--runs 1]

Prints beliefs/second (whole import: parse, validate, insert, FTS index, log, commit),
records/second and the resulting file size. The process CPU seconds and the load average
are printed beside the wall-clock figure: on a shared machine other jobs stretch the wall
clock, and the CPU seconds show how much of it was this import's own work (the import
runs a writer thread beside the parser, so with a free core the CPU seconds can exceed the
wall clock). ``--runs`` repeats the import, each into a fresh store. ``--check`` runs
``integrity_check()`` on the result afterwards (not timed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from synth import write_records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--edges-per-belief", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1, help="imports, each into a fresh store")
    parser.add_argument("--check", action="store_true", help="integrity_check() afterwards")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        records = write_records(Path(folder) / "records.jsonl", args.beliefs, args.edges_per_belief)
        for run in range(args.runs):
            if run:
                print()
            _run(Path(folder), records, Path(folder) / f"bench{run}.db", args.check)


def _run(folder: Path, records: Path, db: Path, check: bool) -> None:
    started, cpu_started = time.perf_counter(), time.process_time()
    with Memory(db, root=folder) as memory:
        report = memory.import_records(records)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        size = sum(p.stat().st_size for p in folder.glob(f"{db.name}*"))
        problems = memory.store.integrity_check() if check else []
    records_total = report.beliefs_added + report.edges_added
    print(f"beliefs imported     {report.beliefs_added:>10,}")
    print(f"edges imported       {report.edges_added:>10,}")
    print(f"seconds              {elapsed:>10.2f}  (CPU {cpu:.2f} s)")
    print(f"beliefs/second       {report.beliefs_added / elapsed:>10,.0f}")
    print(f"records/second       {records_total / elapsed:>10,.0f}")
    print(f"store size (MiB)     {size / 1_048_576:>10.1f}  (db+wal)")
    print(f"load average (1 min) {os.getloadavg()[0]:>10.2f}  on {os.cpu_count()} CPUs")
    if check:
        print(f"integrity            {problems or 'ok'}")


if __name__ == "__main__":
    main()
