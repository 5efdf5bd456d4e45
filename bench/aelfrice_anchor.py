"""Warm retrieve beside aelfrice 5.2.0, the issue #17 anchor, on the same store and queries.

    python bench/aelfrice_anchor.py [--size 10000] [--queries 200] [--rounds 2]
                                    [--python PATH | --venv DIR]

Issue #17 asks for a warm retrieve p50 at 10k at least 5x faster than aelfrice 5.2.0's on the
same store. aelfrice 5.2.0 needs Python >= 3.12 (on 3.11 pip offers only its 0.0.1), so it runs
in a child process of its own interpreter: ``--python`` names one that has it, else a venv is
made at ``--venv`` (default ``~/.cache/credo-bench/aelfrice-5.2.0``) from the first Python
3.12 or 3.13 found (on PATH, then pyenv's), and aelfrice 5.2.0 is installed there from PyPI
at bench time (nothing of it is kept in this repository).

Both sides read one records file (bench/synth.py: ``--size`` beliefs of Zipf text, two edges
per belief, the latency and scale benches' store). credo's figure is bench/scale.py's own:
the store's warm index read as the warm server reads it, a warm-up pass over ``--queries``
other queries, then the measured queries twice (the first pass is the figure; the second is
printed beside it). aelfrice's is taken the same way in its child: the beliefs and edges
inserted through ``MemoryStore.insert_belief`` / ``insert_edge`` in one transaction, then
``aelfrice.retrieval.retrieve(store, query, user_locks=())`` (its production path, whose
keyword index is cached on the store for the process's life) over the same warm-up queries
and the same measured queries twice. Each timed call on either side holds the cycle
collector off. The child runs with its own HOME and working folder, so no aelfrice
configuration or user store of this machine's is read.

The sides run in turn, ``--rounds`` times (credo, aelfrice, credo, ...), so the machine's
drift hits both; every round's figures and the load average are printed, and the ratio of
the medians over rounds is checked against the issue's 5x.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import build, load, query_sets, warm
from synth import write_records

AELFRICE = "aelfrice==5.2.0"
GOAL = 5.0

# The child, run by aelfrice's interpreter: argv = records, store folder, queries JSON.
CHILD = r"""
import gc, json, statistics, sys, time
from pathlib import Path
import aelfrice
from aelfrice.models import Belief, Edge
from aelfrice.retrieval import retrieve
from aelfrice.store import MemoryStore

records, folder, queries = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
store = MemoryStore(str(folder / "memory.db"))
started = time.perf_counter()
with store.transaction():
    for line in records.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if r["kind"] == "belief":
            store.insert_belief(Belief(
                id=r["id"], content=r["content"], content_hash="h" + r["id"], alpha=1.0,
                beta=1.0, type="factual", lock_level="none", locked_at=None,
                created_at="2026-11-01T00:00:00Z", last_retrieved_at=None))
        else:
            store.insert_edge(Edge(src=r["src"], dst=r["dst"], type=r["type"], weight=1.0))
imported = time.perf_counter() - started

def timed(texts):
    times, sizes = [], []
    for text in texts:
        gc.disable()
        started = time.perf_counter()
        got = retrieve(store, text, user_locks=())
        times.append((time.perf_counter() - started) * 1000)
        gc.enable()
        sizes.append(len(got))
    return times, sizes

timed(queries["warmup"])
first, sizes = timed(queries["measured"])
second, _ = timed(queries["measured"])
print(json.dumps({
    "version": aelfrice.__version__, "import_s": imported, "first": first, "second": second,
    "mean_results": statistics.mean(sizes),
}))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def aelfrice_python(venv: Path) -> Path:
    """An interpreter that has aelfrice 5.2.0: ``venv``'s, made and filled if need be."""
    python = venv / "bin" / "python"
    if python.exists() and _has_aelfrice(python):
        return python
    base = next((p for p in _candidates() if _runs_312(p)), None)
    if base is None:
        sys.exit("Error: aelfrice 5.2.0 needs Python >= 3.12; none found (give --python)")
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", AELFRICE], check=True)
    return python


def _candidates() -> list[str]:
    """python3.12 / python3.13 on PATH, then pyenv's installs (a pyenv shim of a version
    that is not selected exits 127, so each is tried)."""
    found = [p for p in (shutil.which("python3.12"), shutil.which("python3.13")) if p]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    return found + [str(p) for p in sorted(pyenv.glob("3.1[23]*/bin/python3"))]


def _runs_312(python: str) -> bool:
    probe = "import sys; print(sys.version_info >= (3, 12))"
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == "True"


def _has_aelfrice(python: Path) -> bool:
    probe = "import importlib.metadata as m; print(m.version('aelfrice'))"
    done = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == AELFRICE.split("==")[1]


def run_aelfrice(python: Path, records: Path, root: Path, queries: dict[str, list[str]]) -> dict:
    """One aelfrice child over a new store of ``records``: its import and both passes."""
    folder = Path(tempfile.mkdtemp(dir=root, prefix="aelfrice-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AELFRICE", "CREDO"))}
    env.update(HOME=str(folder), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run(
        [str(python), "-c", CHILD, str(records), str(folder), json.dumps(queries)],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
    )
    if done.returncode != 0:
        sys.exit(f"Error: the aelfrice child failed:\n{done.stderr[-2000:]}")
    shutil.rmtree(folder)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--python", type=Path, help="an interpreter that has aelfrice 5.2.0")
    parser.add_argument(
        "--venv", type=Path, default=Path.home() / ".cache" / "credo-bench" / "aelfrice-5.2.0"
    )
    args = parser.parse_args()
    python = args.python or aelfrice_python(args.venv)
    measured, warmup = query_sets(args.queries)
    queries = {"warmup": warmup, "measured": measured}
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        project, imported = build(root / "credo", args.size)
        records = write_records(root / "records.jsonl", args.size, 2, text="zipf")
        db = project / ".credo" / "memory.db"
        print(
            f"{args.size:,} beliefs, {imported['edges']:,} edges; {args.queries} measured "
            f"queries after {args.queries} others; aelfrice from {python}",
            flush=True,
        )
        for round_ in range(1, args.rounds + 1):
            row = warm(db, project, warmup, measured)
            ours.append(row["p50"])
            print(
                f"  round {round_} credo     warm p50 {row['p50']:6.2f} ms  p99 "
                f"{row['p99']:6.2f}  second pass p50 {row['seen_p50']:6.2f}  load {load()}",
                flush=True,
            )
            got = run_aelfrice(python, records, root, queries)
            p50 = statistics.median(got["first"])
            theirs.append(p50)
            print(
                f"  round {round_} aelfrice  warm p50 {p50:6.2f} ms  p99 "
                f"{percentile(got['first'], 0.99):6.2f}  second pass p50 "
                f"{statistics.median(got['second']):6.2f}  ({got['version']}, import "
                f"{got['import_s']:.1f} s, {got['mean_results']:.1f} beliefs a result)  "
                f"load {load()}",
                flush=True,
            )
    ratio = statistics.median(theirs) / statistics.median(ours)
    verdict = "PASS" if ratio >= GOAL else "FAIL"
    print(
        f"\n{verdict}  warm p50 at {args.size:,}: credo {statistics.median(ours):.2f} ms, "
        f"aelfrice {statistics.median(theirs):.2f} ms = {ratio:.1f}x (target >= {GOAL:.0f}x)"
    )


if __name__ == "__main__":
    main()
