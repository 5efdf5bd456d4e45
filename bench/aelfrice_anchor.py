"""Warm retrieve beside aelfrice 5.2.0, the issue #17 anchor, on the same store and queries.

    python bench/aelfrice_anchor.py [--size 10000] [--queries 200] [--rounds 2]
                                    [--python PATH | --venv DIR]

Issue #17 asks for a warm retrieve p50 at 10k at least 5x faster than aelfrice 5.2.0's on the
same store. aelfrice runs in child processes of its own interpreter (bench/aelfrice_side.py:
``--python`` names one that has aelfrice 5.2.0, else a venv is made at ``--venv`` and it is
installed there from PyPI at bench time).

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
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aelfrice_side import DEFAULT_VENV, aelfrice_python, child_env
from credo.surfaces.install import credo_argv
from scale import FIRST_RETRIEVE, build, load, percentile, query_sets, run, warm
from synth import write_records

GOAL = 5.0

# aelfrice's side, run by its interpreter. BUILD: argv = records, store; prints import seconds.
BUILD = r"""
import json, sys, time
from aelfrice.models import Belief, Edge
from aelfrice.store import MemoryStore

store = MemoryStore(sys.argv[2])
started = time.perf_counter()
with store.transaction():
    for line in open(sys.argv[1], encoding="utf-8"):
        r = json.loads(line)
        if r["kind"] == "belief":
            store.insert_belief(Belief(
                id=r["id"], content=r["content"], content_hash="h" + r["id"], alpha=1.0,
                beta=1.0, type="factual", lock_level="none", locked_at=None,
                created_at="2026-11-01T00:00:00Z", last_retrieved_at=None))
        else:
            store.insert_edge(Edge(src=r["src"], dst=r["dst"], type=r["type"], weight=1.0))
print(time.perf_counter() - started)
"""

# WARM: argv = store, queries JSON; prints both passes' times (ms) as JSON.
WARM = r"""
import gc, json, statistics, sys, time
import aelfrice
from aelfrice.retrieval import retrieve
from aelfrice.store import MemoryStore

store, queries = MemoryStore(sys.argv[1]), json.loads(sys.argv[2])

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
print(json.dumps({"version": aelfrice.__version__, "first": first, "second": second,
                  "mean_results": statistics.mean(sizes)}))
"""

# FIRST: argv = store, query; the first retrieve of a fresh process, imports included (as
# bench/scale.py's FIRST_RETRIEVE times credo's).
FIRST = r"""
import sys, time
t0 = time.perf_counter()
from aelfrice.retrieval import retrieve
from aelfrice.store import MemoryStore
retrieve(MemoryStore(sys.argv[1]), sys.argv[2], user_locks=())
print(time.perf_counter() - t0)
"""


class Aelfrice:
    """aelfrice's side: its interpreter, a store of its own under ``root`` (its HOME and
    working folder too, so no configuration or user store of this machine's is read)."""

    def __init__(self, python: Path, root: Path) -> None:
        self.python, self.root = python, root
        self.db = root / "memory.db"
        self.env = {**child_env(root), "AELFRICE_DB": str(self.db)}
        root.mkdir(parents=True)

    def child(self, code: str, *argv: str) -> str:
        done = subprocess.run(
            [str(self.python), "-c", code, *argv],
            capture_output=True,
            text=True,
            cwd=self.root,
            env=self.env,
        )
        if done.returncode != 0:
            sys.exit(f"Error: the aelfrice child failed:\n{done.stderr[-2000:]}")
        return done.stdout.strip().splitlines()[-1]

    def search_argv(self, text: str) -> list[str]:
        return [str(self.python.parent / "aelf"), "search", text]


def fresh(
    credo_db: Path, project: Path, theirs: Aelfrice, texts: list[str], rounds: int
) -> dict[str, list[float]]:
    """Fresh-process times (ms), the commands of a round run in turn (the order rotating):
    each side's first retrieve (measured inside the process, imports included) and search
    command end to end (``credo search``, ``aelf search``), and ``python -S -c pass``. One
    untimed round first: the page cache and aelfrice's persisted keyword index (its first
    search writes it) are then warm."""
    ours_env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    ours_env.update(CREDO_WARM="off", CREDO_CAPTURE="0", CREDO_DB=str(credo_db))
    times: dict[str, list[float]] = {}
    for i in range(rounds + 1):
        text = texts[i]
        commands = [
            (
                "credo first retrieve",
                [sys.executable, "-c", FIRST_RETRIEVE, str(credo_db), text],
                project,
                ours_env,
                True,
            ),
            (
                "aelfrice first retrieve",
                [str(theirs.python), "-c", FIRST, str(theirs.db), text],
                theirs.root,
                theirs.env,
                True,
            ),
            ("credo search", [*credo_argv(), "search", text], project, ours_env, False),
            ("aelfrice search", theirs.search_argv(text), theirs.root, theirs.env, False),
            ("python -S -c pass", [sys.executable, "-S", "-c", "pass"], project, ours_env, False),
        ]
        shift = i % len(commands)
        for name, argv, cwd, env, inside in commands[shift:] + commands[:shift]:
            wall, _, out = run(argv, b"", cwd, env)
            if i:
                times.setdefault(name, []).append(float(out) * 1000 if inside else wall)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2, help="warm rounds, in turn")
    parser.add_argument("--fresh", type=int, default=10, help="fresh-process rounds")
    parser.add_argument("--python", type=Path, help="an interpreter that has aelfrice 5.2.0")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    args = parser.parse_args()
    python = args.python or aelfrice_python(args.venv)
    measured, warmup = query_sets(args.queries)
    queries = json.dumps({"warmup": warmup, "measured": measured})
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        project, imported = build(root / "credo", args.size)
        db = project / ".credo" / "memory.db"
        aelfrice = Aelfrice(python, root / "aelfrice")
        records = write_records(root / "records.jsonl", args.size, 2, text="zipf")
        their_import = float(aelfrice.child(BUILD, str(records), str(aelfrice.db)))
        print(
            f"{args.size:,} beliefs, {imported['edges']:,} edges; import credo "
            f"{imported['import_s']:.1f} s, aelfrice {their_import:.1f} s; {args.queries} "
            f"measured queries after {args.queries} others; aelfrice from {python}",
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
            got = json.loads(aelfrice.child(WARM, str(aelfrice.db), queries))
            theirs.append(statistics.median(got["first"]))
            print(
                f"  round {round_} aelfrice  warm p50 {theirs[-1]:6.2f} ms  p99 "
                f"{percentile(got['first'], 0.99):6.2f}  second pass p50 "
                f"{statistics.median(got['second']):6.2f}  ({got['version']}, "
                f"{got['mean_results']:.1f} beliefs a result)  load {load()}",
                flush=True,
            )
        times = fresh(db, project, aelfrice, measured, args.fresh) if args.fresh else {}
    for name, values in sorted(times.items()):
        print(f"  {name:<24} p50 {statistics.median(values):7.1f} ms  min {min(values):7.1f}")
    if times:
        print(f"  ({args.fresh} fresh rounds, in turn; load {load()})")
    ratio = statistics.median(theirs) / statistics.median(ours)
    verdict = "PASS" if ratio >= GOAL else "FAIL"
    print(
        f"\n{verdict}  warm p50 at {args.size:,}: credo {statistics.median(ours):.2f} ms, "
        f"aelfrice {statistics.median(theirs):.2f} ms = {ratio:.1f}x (target >= {GOAL:.0f}x)"
    )
    for what in ("first retrieve", "search") if times else ():
        mine = statistics.median(times[f"credo {what}"])
        other = statistics.median(times[f"aelfrice {what}"])
        print(f"      {what}: credo {mine:.1f} ms, aelfrice {other:.1f} ms = {other / mine:.1f}x")


if __name__ == "__main__":
    main()
