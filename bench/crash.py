"""kill -9 an import or an ingest at random points; the store must always come back whole.

    python bench/crash.py [--trials 30] [--beliefs 100000] [--files 1000] [--seed 7]

Each trial copies a base store that already holds committed beliefs, starts the work in a
child process (forked, so it starts in microseconds and the kill lands inside the work, not
inside Python's start-up), sends SIGKILL at a uniformly random moment of the work's
measured duration, and then checks:

- the store opens and passes ``integrity_check`` (SQLite's and the FTS index's);
- every belief committed before the run is still there;
- nothing of a half-done transaction is visible: an import (one transaction) is all there
  or not there at all; an ingested file recorded in the ledger has exactly the beliefs,
  anchors and edges a clean run gives it;
- re-running the same import / ingest completes, and the final store equals the store a
  clean, uninterrupted run produces (same beliefs, edges and anchors, no duplicates).

``tests/test_crash.py`` runs the same trials at a small size.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory

BASE_BELIEFS = 25
WORDS = (
    "cache deploy schema index token budget cluster anchor ingest retry lock queue replica "
    "shard backup restore vacuum checkpoint journal commit rollback latency kernel graph"
).split()


@dataclass(frozen=True)
class Snapshot:
    """What a store holds, free of timestamps: comparable across runs."""

    beliefs: frozenset[tuple[str, str, bool]]  # (id, content, live)
    edges: frozenset[tuple[str, str, str]]
    anchors: frozenset[tuple[str, str, str]]
    duplicate_hashes: int


def snapshot(memory: Memory) -> Snapshot:
    store = memory.store
    beliefs = frozenset((b.id, b.content, b.deleted_at is None) for b in store.iter_beliefs())
    edges = frozenset((e.src, e.dst, e.type.value) for e in store.iter_edges())
    anchors = frozenset((a.belief_id, a.doc_uri, a.anchor_type) for a in store.iter_anchors())
    rows = store.conn.execute(
        "SELECT count(*) - count(DISTINCT content_hash) FROM beliefs"
    ).fetchone()
    return Snapshot(beliefs, edges, anchors, int(rows[0]))


@dataclass
class TrialResult:
    kind: str
    killed_at: float  # seconds into the work
    state: str  # "none", "partial", "complete" (what the kill left)
    problems: list[str] = field(default_factory=list)


def make_base(path: Path, root: Path) -> set[str]:
    """A store with committed beliefs that every trial must keep."""
    with Memory(path, root=root) as memory:
        return {
            memory.remember(f"base belief {i} about {WORDS[i % len(WORDS)]} committed early")
            for i in range(BASE_BELIEFS)
        }


def make_tree(folder: Path, files: int, seed: int) -> None:
    """Markdown files with headings, links between files and shared sentences (so ingest
    corroborates across files), in a few subfolders."""
    rng = random.Random(seed)
    for i in range(files):
        sub = folder / f"part{i % 7}"
        sub.mkdir(parents=True, exist_ok=True)
        other = f"../part{(i + 1) % 7}/doc{i + 1}.md"
        shared = f"Shared note {i % 13} says {' '.join(rng.choice(WORDS) for _ in range(6))}."
        body = "\n\n".join(
            f"Paragraph {j} of doc {i}: {' '.join(rng.choice(WORDS) for _ in range(14))}."
            for j in range(3)
        )
        (sub / f"doc{i}.md").write_text(
            f"# Doc {i}\n\n{body}\n\n## Links\n\nSee [next]({other}).\n\n{shared}\n",
            encoding="utf-8",
        )


def _run_import(db: str, root: str, records: str) -> None:
    with Memory(db, root=root, source="crash") as memory:
        memory.import_records(Path(records))


def _run_ingest(db: str, root: str, tree: str) -> None:
    with Memory(db, root=root, source="crash") as memory:
        memory.ingest(tree)


def _child(work: Callable[..., None], args: tuple[str, ...]) -> None:
    work(*args)
    os._exit(0)  # skip atexit handlers inherited from the parent (pytest's among them)


def _timed_run(work: Callable[..., None], args: tuple[str, ...]) -> float:
    ctx = multiprocessing.get_context("fork")
    started = time.perf_counter()
    proc = ctx.Process(target=_child, args=(work, args))
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        raise RuntimeError(f"clean run failed with exit code {proc.exitcode}")
    return time.perf_counter() - started


def _killed_run(work: Callable[..., None], args: tuple[str, ...], after: float) -> bool:
    """Run ``work`` in a forked child and SIGKILL it ``after`` seconds in; True when the
    kill landed before the child finished."""
    ctx = multiprocessing.get_context("fork")
    proc = ctx.Process(target=_child, args=(work, args))
    proc.start()
    proc.join(after)
    landed = proc.is_alive()
    if landed and proc.pid is not None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    return landed


@dataclass
class CrashReport:
    kind: str
    trials: list[TrialResult]
    clean_seconds: float

    @property
    def problems(self) -> list[str]:
        return [
            f"trial {i} ({t.killed_at:.3f} s): {p}"
            for i, t in enumerate(self.trials)
            for p in t.problems
        ]

    def states(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for trial in self.trials:
            counts[trial.state] = counts.get(trial.state, 0) + 1
        return counts


def crash_trials(kind: str, workdir: Path, *, trials: int, size: int, seed: int = 7) -> CrashReport:
    """``trials`` kill -9 trials of an ``import`` of ``size`` beliefs (2 edges each) or an
    ``ingest`` of ``size`` files, each against a copy of one base store."""
    from synth import write_records

    rng = random.Random(seed)
    root = workdir
    base = workdir / "base.db"
    base_ids = make_base(base, root)
    if kind == "import":
        source = workdir / "records.jsonl"
        write_records(source, size, 2, seed=seed, text="zipf")
        work: Callable[..., None] = _run_import
    else:
        source = workdir / "tree"
        make_tree(source, size, seed)
        work = _run_ingest

    reference_db = workdir / "reference.db"
    shutil.copy(base, reference_db)
    clean_seconds = _timed_run(work, (str(reference_db), str(root), str(source)))
    with Memory(reference_db, root=root) as memory:
        reference = snapshot(memory)
        per_file = _anchors_by_file(memory) if kind == "ingest" else {}
    with Memory(base, root=root) as memory:
        before = snapshot(memory)

    results: list[TrialResult] = []
    for trial in range(trials):
        db = workdir / f"trial{trial}.db"
        shutil.copy(base, db)
        after = rng.uniform(0.0, clean_seconds)
        landed = _killed_run(work, (str(db), str(root), str(source)), after)
        result = TrialResult(kind, after, "complete")
        try:
            with Memory(db, root=root) as memory:
                result.problems += memory.store.integrity_check()
                state = snapshot(memory)
                missing = base_ids - {b[0] for b in state.beliefs}
                if missing:
                    result.problems.append(f"lost committed beliefs {sorted(missing)[:3]}")
                if kind == "import":
                    if state == before:
                        result.state = "none"
                    elif state != reference:
                        result.state = "partial"
                        result.problems.append("half an import is visible")
                else:
                    result.state = _ingest_state(memory, state, before, reference, per_file)
                    if result.state.startswith("bad:"):
                        result.problems.append(result.state)
                if not landed:
                    result.state = "finished before the kill"
            _timed_run(work, (str(db), str(root), str(source)))  # the re-run
            with Memory(db, root=root) as memory:
                result.problems += memory.store.integrity_check()
                final = snapshot(memory)
            if final.duplicate_hashes:
                result.problems.append(f"{final.duplicate_hashes} duplicate beliefs")
            if final != reference:
                result.problems.append(
                    "re-run differs from a clean run: "
                    f"beliefs {len(final.beliefs)} vs {len(reference.beliefs)}, "
                    f"edges {len(final.edges)} vs {len(reference.edges)}, "
                    f"anchors {len(final.anchors)} vs {len(reference.anchors)}"
                )
        except Exception as exc:
            result.problems.append(f"{type(exc).__name__}: {exc}")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        results.append(result)
    return CrashReport(kind, results, clean_seconds)


def _anchors_by_file(memory: Memory) -> dict[str, frozenset[tuple[str, str, str]]]:
    """A clean ingest's ingest anchors, grouped by the file they point into."""
    grouped: dict[str, set[tuple[str, str, str]]] = {}
    for anchor in memory.store.iter_anchors():
        if anchor.anchor_type == "ingest":
            path = anchor.doc_uri.split("#", 1)[0]
            grouped.setdefault(path, set()).add(
                (anchor.belief_id, anchor.doc_uri, anchor.anchor_type)
            )
    return {k: frozenset(v) for k, v in grouped.items()}


def _ingest_state(
    memory: Memory,
    state: Snapshot,
    before: Snapshot,
    reference: Snapshot,
    per_file: dict[str, frozenset[tuple[str, str, str]]],
) -> str:
    """'none', 'partial' (some files committed, each whole) or 'complete'; 'bad: ...' when
    a committed file is not exactly what a clean run makes of it."""
    if state == before:
        return "none"
    if state == reference:
        return "complete"
    ledger = {str(r[0]) for r in memory.store.conn.execute("SELECT path FROM ingested_files")}
    got: dict[str, set[tuple[str, str, str]]] = {}
    for anchor in state.anchors:
        if anchor[2] == "ingest":
            got.setdefault(anchor[1].split("#", 1)[0], set()).add(anchor)
    for path in sorted(set(got) | ledger):
        if frozenset(got.get(path, set())) != per_file.get(path, frozenset()):
            return f"bad: file {path} is half-written ({len(got.get(path, ()))} anchors)"
    if not state.beliefs >= before.beliefs:
        return "bad: beliefs committed before the run changed"
    return "partial"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    failed = False
    for kind, size in (("import", args.beliefs), ("ingest", args.files)):
        workdir = Path(tempfile.mkdtemp(prefix=f"credo-crash-{kind}-"))
        try:
            report = crash_trials(kind, workdir, trials=args.trials, size=size, seed=args.seed)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        print(
            f"{kind} of {size} {'beliefs' if kind == 'import' else 'files'}: "
            f"clean run {report.clean_seconds:.2f} s, {len(report.trials)} kills, "
            f"states {report.states()}, problems {len(report.problems)}"
        )
        for line in report.problems[:10]:
            print(f"  ! {line}")
        failed = failed or bool(report.problems)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
