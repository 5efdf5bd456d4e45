"""Several processes on one store: writers and readers at once, nothing failed, nothing lost.

    python bench/concurrency.py [--seconds 60] [--writers 4] [--readers 4] [--json]
                                [--backend sqlite|postgres] [--postgres URL]

Writers cycle through ``remember`` (new text), ``relate`` (an edge between two of their own
acknowledged beliefs) and ``ingest`` (a fresh Markdown file in their own folder); readers
cycle through ``retrieve`` and the hook (``credo.surfaces.hook.memory_block_for``, the code behind
``credo hook prompt``; reader 0 also runs the real ``credo hook prompt`` process now and
then). Every worker opens its store the way its surface does: writers keep one ``Memory``
open (the MCP server), readers reopen it every few operations (the hook runs per prompt).

Afterwards the store must pass ``integrity_check`` and hold every write a worker saw
acknowledged. The report gives operations per second, per-operation latency (p50, p99,
worst: the worst wait on the write lock shows up there) and any failure verbatim.
``tests/test_concurrency.py`` runs the same code for a few seconds.

``--backend postgres`` runs the same workers on a PostgreSQL store (a fresh schema on the
server of ``--postgres``, ``CREDO_BENCH_POSTGRES`` or ``CREDO_TEST_POSTGRES``; see
bench/pgschema.py): writers then serialise on the store's advisory lock, over the network.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WORDS = (
    "cache deploy schema index token budget cluster anchor ingest retry lock queue "
    "replica shard backup restore vacuum checkpoint journal commit rollback latency "
    "throughput kernel graph lane belief edge hook prompt server client"
).split()


@dataclass
class WorkerReport:
    """One worker's log: its acknowledged writes, latencies per operation, failures."""

    role: str
    ops: dict[str, list[float]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    beliefs: dict[str, str] = field(default_factory=dict)  # id -> content
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    docs: list[str] = field(default_factory=list)  # ingested files (anchor URIs)

    def timed(self, op: str, started: float) -> None:
        self.ops.setdefault(op, []).append(time.perf_counter() - started)


def _sentence(rng: random.Random, n: int = 8) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _writer(index: int, db: str, root: Path, start: Callable[[], float], seed: int) -> WorkerReport:
    from credo import Memory

    rng = random.Random(seed)
    report = WorkerReport(f"writer{index}")
    folder = root / f"w{index}"
    folder.mkdir(parents=True, exist_ok=True)
    memory = Memory(db, root=root, source=f"writer{index}")
    n = 0
    try:
        deadline = start()
        while time.time() < deadline:
            n += 1
            op = "ingest" if n % 10 == 0 else "relate" if n % 3 == 0 else "remember"
            started = time.perf_counter()
            try:
                if op == "remember":
                    text = f"w{index} n{n} {_sentence(rng)}"
                    belief_id = memory.remember(text, session=f"s{index}")
                    report.beliefs[belief_id] = text
                elif op == "relate":
                    own = list(report.beliefs)
                    if len(own) < 2:
                        continue
                    src, dst = rng.sample(own, 2)
                    edge_type = rng.choice(["SUPPORTS", "CITES", "RELATES_TO"])
                    if (src, dst, edge_type) in set(report.edges):
                        continue
                    memory.relate(src, dst, edge_type)
                    report.edges.append((src, dst, edge_type))
                else:
                    path = folder / f"doc{n}.md"
                    path.write_text(
                        f"# w{index} doc {n}\n\n{_sentence(rng, 12)} unique{index}x{n}.\n\n"
                        f"## part\n\n{_sentence(rng, 10)} more{index}x{n}.\n",
                        encoding="utf-8",
                    )
                    memory.ingest(path)
                    report.docs.append(path.relative_to(root).as_posix())
                report.timed(op, started)
            except Exception as exc:
                report.failures.append(f"{op}: {type(exc).__name__}: {exc}")
    finally:
        memory.close()
    return report


def _hook_process(db: str, root: Path, prompt: str, log: Path) -> None:
    exe = shutil.which("credo")
    command = [exe] if exe else [sys.executable, "-m", "credo"]
    subprocess.run(
        [*command, "--db", str(db), "hook", "prompt"],
        input=json.dumps({"prompt": prompt, "cwd": str(root)}).encode(),
        capture_output=True,
        env={**os.environ, "CREDO_HOOK_LOG": str(log)},
        timeout=60,
        check=True,
    )


def _reader(index: int, db: str, root: Path, start: Callable[[], float], seed: int) -> WorkerReport:
    from credo import Memory
    from credo.surfaces.hook import HookSkip, memory_block_for

    rng = random.Random(seed)
    report = WorkerReport(f"reader{index}")
    memory = Memory(db, root=root, source=f"reader{index}")
    n = 0
    try:
        deadline = start()
        while time.time() < deadline:
            n += 1
            query = _sentence(rng, rng.randint(2, 6))
            if index == 0 and n % 40 == 0:
                op = "hook_process"
            elif n % 5 == 0:
                op = "hook"  # a fresh open per prompt, as the hook does
            else:
                op = "retrieve"
            started = time.perf_counter()
            try:
                if op == "retrieve":
                    memory.retrieve(query, with_doc_anchors=True)
                elif op == "hook":
                    memory_block_for({"prompt": query, "cwd": str(root)}, str(db))
                else:
                    _hook_process(db, root, query, root / f"hook-{index}.log")
                report.timed(op, started)
            except HookSkip as skip:
                report.failures.append(f"hook skipped: {skip}")
            except Exception as exc:
                report.failures.append(f"{op}: {type(exc).__name__}: {exc}")
    finally:
        memory.close()
    return report


def worker_main(role: str, index: int, db: str, root: Path, out: Path) -> None:
    """Entry point of one worker process: open the store, say so, wait for the start, run
    until the deadline the start names, write the report."""
    seed = 1000 * index + (1 if role == "writer" else 2)

    def start() -> float:
        out.with_suffix(".ready").touch()
        go = out.parent / "go"
        while not go.exists():
            time.sleep(0.01)
        return float(go.read_text(encoding="utf-8"))

    try:
        work = _writer if role == "writer" else _reader
        report = work(index, db, root, start, seed)
    except Exception:
        report = WorkerReport(f"{role}{index}", failures=[traceback.format_exc()])
    out.write_text(json.dumps(report.__dict__), encoding="utf-8")


@dataclass
class MixedReport:
    """The run's verdict: failures, lost writes, integrity, and the figures."""

    seconds: float
    writers: int
    readers: int
    ops: int
    ops_per_second: float
    latency_ms: dict[str, dict[str, float]]
    worst_wait_ms: float
    failures: list[str]
    lost: list[str]
    integrity: list[str]
    acknowledged: dict[str, int]


def _start_together(
    procs: list[tuple[subprocess.Popen[bytes], Path]], outdir: Path, seconds: float
) -> None:
    """Start the workers' clock once every one has opened the store (or exited, or two
    minutes passed): on a loaded machine starting Python and opening the store can take
    longer than the run, and a clock started at launch then times nothing."""
    waited = time.time() + 120.0
    while time.time() < waited and not all(
        out.with_suffix(".ready").exists() or proc.poll() is not None for proc, out in procs
    ):
        time.sleep(0.01)
    go = outdir / "go.tmp"
    go.write_text(repr(time.time() + seconds), encoding="utf-8")
    go.replace(outdir / "go")  # (whole or absent: a worker never reads half of it)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_mixed(
    db: Path | str, root: Path, *, seconds: float, writers: int = 4, readers: int = 4
) -> MixedReport:
    """Start ``writers`` + ``readers`` worker processes on ``db`` for ``seconds``, then check
    the store against everything they saw acknowledged."""
    from credo import Memory

    Memory(db, root=root).close()  # create and migrate once, as `credo init` would
    outdir = Path(tempfile.mkdtemp(prefix="credo-conc-"))
    procs: list[tuple[subprocess.Popen[bytes], Path]] = []
    for role, count in (("writer", writers), ("reader", readers)):
        for i in range(count):
            out = outdir / f"{role}{i}.json"
            args = [sys.executable, __file__, "--worker", role, "--index", str(i)]
            args += ["--db", str(db), "--root", str(root)]
            procs.append((subprocess.Popen([*args, "--out", str(out)]), out))
    _start_together(procs, outdir, seconds)
    failures: list[str] = []
    reports: list[WorkerReport] = []
    for proc, out in procs:
        proc.wait(timeout=seconds + 120)
        if proc.returncode != 0 or not out.exists():
            failures.append(f"worker {out.stem} exited with {proc.returncode}")
            continue
        reports.append(WorkerReport(**json.loads(out.read_text(encoding="utf-8"))))
    shutil.rmtree(outdir, ignore_errors=True)
    for hook_log in root.glob("hook-*.log"):
        failures += [
            f"hook: {line}" for line in hook_log.read_text().splitlines() if " error:" in line
        ]
    latency: dict[str, list[float]] = {}
    for report in reports:
        failures += [f"{report.role}: {f}" for f in report.failures]
        for op, values in report.ops.items():
            latency.setdefault(op, []).extend(values)
    lost: list[str] = []
    counts = {"beliefs": 0, "edges": 0, "docs": 0}
    with Memory(db, root=root) as memory:
        integrity = memory.store.integrity_check()
        for report in reports:
            for belief_id, text in report.beliefs.items():
                counts["beliefs"] += 1
                try:
                    if memory.get(belief_id).content != text:
                        lost.append(f"belief {belief_id} changed")
                except Exception as exc:
                    lost.append(f"belief {belief_id}: {exc}")
            stored = {(e.src, e.dst, e.type.value) for e in memory.store.iter_edges()}
            for src, dst, edge_type in report.edges:
                counts["edges"] += 1
                if (src, dst, edge_type) not in stored:
                    lost.append(f"edge {src} -{edge_type}-> {dst}")
            for doc in report.docs:
                counts["docs"] += 1
                if not memory.beliefs_for_doc(doc):
                    lost.append(f"ingested file {doc} has no beliefs")
    ops = sum(len(v) for v in latency.values())
    all_times = [t for values in latency.values() for t in values]
    return MixedReport(
        seconds=seconds,
        writers=writers,
        readers=readers,
        ops=ops,
        ops_per_second=ops / seconds,
        latency_ms={
            op: {
                "count": len(v),
                "p50": round(1000 * _percentile(v, 0.5), 2),
                "p99": round(1000 * _percentile(v, 0.99), 2),
                "max": round(1000 * max(v), 2),
            }
            for op, v in sorted(latency.items())
        },
        worst_wait_ms=round(1000 * max(all_times, default=0.0), 2),
        failures=failures,
        lost=lost,
        integrity=integrity,
        acknowledged=counts,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", choices=["writer", "reader"])
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--db")
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--postgres", help="the server for --backend postgres")
    parser.add_argument("--root", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker, args.index, args.db, args.root, args.out)
        return
    root = Path(tempfile.mkdtemp(prefix="credo-bench-conc-"))
    try:
        with contextlib.ExitStack() as stack:
            db: Path | str = root / "memory.db"
            if args.backend == "postgres":
                from pgschema import fresh_store, server_url

                db = stack.enter_context(fresh_store(server_url(args.postgres), "conc"))
            report = run_mixed(
                db,
                root,
                seconds=args.seconds,
                writers=args.writers,
                readers=args.readers,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    data: dict[str, Any] = report.__dict__
    if args.json:
        print(json.dumps(data, indent=2))
        return
    print(
        f"{args.backend}: {report.writers} writers + {report.readers} readers, "
        f"{report.seconds:g} s: "
        f"{report.ops} ops, {report.ops_per_second:.1f} ops/s, worst wait "
        f"{report.worst_wait_ms:.1f} ms"
    )
    for op, figures in report.latency_ms.items():
        print(
            f"  {op:<13} n={figures['count']:<6} p50 {figures['p50']:>8.2f} ms  "
            f"p99 {figures['p99']:>8.2f} ms  max {figures['max']:>8.2f} ms"
        )
    print(f"acknowledged: {report.acknowledged}")
    print(f"failures: {len(report.failures)}  lost writes: {len(report.lost)}  integrity: ", end="")
    print("ok" if not report.integrity else "; ".join(report.integrity))
    for line in (report.failures + report.lost)[:20]:
        print(f"  ! {line}")
    if report.failures or report.lost or report.integrity:
        sys.exit(1)


if __name__ == "__main__":
    main()
