"""The records import of two source trees side by side, interleaved: which one is faster.

    python bench/import_ab.py --trees /work/main/src,src [--beliefs 100000] [--rounds 3]

One records file (bench/synth.py's Zipf text, two edges per belief, as bench/scale.py
imports) is written once; each round then imports it into a fresh store once per tree, in
a child process whose ``PYTHONPATH`` is that tree, the trees' order alternating from round
to round so that the machine's drift hits them alike. Per import: wall and CPU seconds
(both threads), beliefs/s, the file's size (db + wal, MiB) and the load average when it
started; per tree at the end: the median and the best of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import write_records

CHILD = """
import json, os, sys, time
from pathlib import Path
from credo import Memory
records, folder = Path(sys.argv[1]), Path(sys.argv[2])
load = os.getloadavg()[0]
wall, cpu = time.perf_counter(), time.process_time()
with Memory(folder / "m.db", root=folder) as memory:
    report = memory.import_records(records)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
size = sum(p.stat().st_size for p in folder.glob("m.db*")) / 1_048_576
print(json.dumps({"wall": wall, "cpu": cpu, "per_s": report.beliefs_added / wall,
                  "mib": size, "load": load}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", required=True, help="two or more src folders, by commas")
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = [str(Path(t).resolve()) for t in args.trees.split(",")]
    runs: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
    with tempfile.TemporaryDirectory(prefix="credo-import-ab-") as temp:
        records = write_records(Path(temp) / "records.jsonl", args.beliefs, 2, text="zipf")
        for round_ in range(args.rounds):
            order = trees if round_ % 2 == 0 else trees[::-1]
            for tree in order:
                folder = Path(tempfile.mkdtemp(dir=temp))
                env = {**os.environ, "PYTHONPATH": tree}
                out = subprocess.run(
                    [sys.executable, "-c", CHILD, str(records), str(folder)],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                subprocess.run(["rm", "-rf", str(folder)], check=False)
                run = json.loads(out)
                runs[tree].append(run)
                print(
                    f"round {round_ + 1} {tree}: {run['wall']:.2f} s wall, {run['cpu']:.2f} s "
                    f"CPU, {run['per_s']:,.0f} beliefs/s, {run['mib']:.1f} MiB, "
                    f"load {run['load']:.2f}",
                    flush=True,
                )
    print()
    for tree, done in runs.items():
        walls, cpus = [r["wall"] for r in done], [r["cpu"] for r in done]
        print(
            f"{tree}: wall median {statistics.median(walls):.2f} best {min(walls):.2f} s; "
            f"CPU median {statistics.median(cpus):.2f} best {min(cpus):.2f} s; "
            f"best {args.beliefs / min(walls):,.0f} beliefs/s"
        )


if __name__ == "__main__":
    main()
