"""Retrieval latency on synthetic stores of 1k, 10k and 100k beliefs (2 edges per belief).

    python bench/latency.py [--sizes 1000,10000,100000] [--queries 300] [--stages [--index]]
                            [--passes N] [--floor] [--mirror-side-by-side]

Beliefs are Zipf-distributed text over a 20k-word vocabulary (bench/synth.py); queries
are 3-6 topical words of the same vocabulary. For each size: warm ``Memory.retrieve``
p50/p99 in one process (default lanes, budget 2400), the first query after opening the
store in a fresh process (open + retrieve), and ``credo search`` end to end as a fresh
process (what a shell user waits for).
Targets (issue #3): warm p50 <= 1 ms and p99 <= 5 ms at 10k; warm p50 <= 5 ms at 100k;
first query <= 30 ms at 10k; `credo search` <= 150 ms at 10k.

The store builds its in-memory bm25 mirror once its FTS5 keyword queries have cost about
what a build costs (credo/store/bm25_mirror.py): the bench prints at which measured query
that happened, so the warm figures mix both. ``--mirror-side-by-side`` adds warm p50/p99
with FTS5 ranking and with the mirror, query by query in turn, in one process.

``--stages`` adds, per size, where the warm time goes: a second warm pass with each store
read and engine step wrapped in a timer (the steps that exist in the code being measured;
the timers add a few percent, so the headline figures come from the unwrapped pass); with
``--index``, on a store whose warm index is read first, as the warm server answers (issue
#17), after a pass over every query.

``--floor`` adds, per size, the warm engine against the lexical floor, query by query in turn
in one process: a bare FTS5 top-50 (``SELECT rowid, bm25(...) ... MATCH ? ORDER BY rank LIMIT
50`` on the query's terms, the rows not joined to anything) and ``Memory.retrieve`` on a store
whose warm index is read (``Store.build_warm``, as the warm server answers), with the ratio of
their medians (issue #17: at most 3x the floor).

``--passes N`` runs the warm queries N times over (the headline warm figures stay those of
the first pass) and adds p50/p99 of each query's median across the passes: this machine's
speed drifts by a third from minute to minute, and a single pass's p99 is set by its three
worst stalls.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo
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


def warm(db: Path, texts: list[str], passes: int = 1) -> tuple[list[float], str]:
    """Warm retrieve times (ms) of the first pass over ``texts``, and when the store built
    its bm25 mirror. With ``passes`` > 1, the first pass's times are followed by those of
    the other passes, in the same query order."""
    with Memory(db, root=db.parent) as memory:
        for text in texts[:20]:
            memory.retrieve(text)
        times = []
        built_at = None
        for i, text in enumerate(texts * passes):
            started = time.perf_counter()
            memory.retrieve(text)
            times.append((time.perf_counter() - started) * 1000)
            if built_at is None and _mirror(memory) is not None:
                built_at = i
        policy = getattr(memory.store, "_bm25", None)
    if built_at is None or policy is None or policy.build_seconds is None:
        return times, "no bm25 mirror built"
    return times, (
        f"bm25 mirror built at measured query {built_at + 1} "
        f"(20 warm-up queries before them; the build took {policy.build_seconds * 1000:.0f} ms)"
    )


def floor_side_by_side(db: Path, texts: list[str], passes: int = 3) -> None:
    """The warm engine (warm index read) and a bare FTS5 top-50 of the same terms, each
    query in turn, ``passes`` times over; p50 of each query's median, and their ratio."""
    from credo.store.fts import match_expression, query_terms

    with Memory(db, root=db.parent) as memory:
        assert memory.store.build_warm()
        conn = memory.store.conn
        bare = (
            "SELECT rowid, bm25(beliefs_fts) FROM beliefs_fts WHERE beliefs_fts MATCH ? "
            "ORDER BY rank LIMIT 50"
        )
        expressions = [match_expression(query_terms(text)) for text in texts]
        for text in texts[:20]:
            memory.retrieve(text)
        engine: list[list[float]] = [[] for _ in texts]
        floor: list[list[float]] = [[] for _ in texts]
        for _ in range(passes):
            for i, (text, expression) in enumerate(zip(texts, expressions, strict=True)):
                started = time.perf_counter()
                if expression is not None:
                    conn.execute(bare, (expression,)).fetchall()
                floor[i].append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                memory.retrieve(text)
                engine[i].append((time.perf_counter() - started) * 1000)
        assert memory.store.warm
    engine50 = statistics.median(statistics.median(t) for t in engine)
    floor50 = statistics.median(statistics.median(t) for t in floor)
    print(
        f"  warm engine vs lexical floor (per-query medians of {passes} passes): retrieve "
        f"p50 {engine50:.2f} ms, bare FTS5 top-50 p50 {floor50:.2f} ms: "
        f"{engine50 / floor50:.1f}x the floor"
    )


def print_per_query_medians(times: list[float], queries: int, passes: int) -> None:
    """p50/p99 over the queries of each query's median time across the passes: what a
    query costs, with the machine's passing stalls (a single pass's p99 is its 3rd-worst
    time of 300, which one stall sets) filtered out. From the second pass on, the bm25
    mirror (100k) has read every term, so its figures are those of seen terms."""
    medians = [statistics.median(times[i::queries]) for i in range(queries)]
    print(
        f"  per-query median of {passes} passes: p50 {statistics.median(medians):.2f} "
        f"p99 {percentile(medians, 0.99):.2f} ms"
    )


def _mirror(memory: Memory) -> object | None:
    policy = getattr(memory.store, "_bm25", None)  # absent in code before the mirror
    return None if policy is None else policy.mirror


def mirror_side_by_side(db: Path, texts: list[str]) -> None:
    """Warm retrieve with FTS5 ranking and with the bm25 mirror, query by query in turn
    (results asserted identical), once the mirror is built and has seen every term."""
    with Memory(db, root=db.parent) as memory:
        policy = memory.store._mirror_policy()
        memory.retrieve(texts[0])
        policy.build_now()
        for text in texts:
            memory.retrieve(text)
        assert policy.mirror is not None
        by_fts, by_mirror = [], []
        for text in texts:
            policy.disabled = True
            started = time.perf_counter()
            plain = memory.retrieve(text)
            by_fts.append((time.perf_counter() - started) * 1000)
            policy.disabled = False
            started = time.perf_counter()
            mirrored = memory.retrieve(text)
            by_mirror.append((time.perf_counter() - started) * 1000)
            assert mirrored == plain
    fts50, mirror50 = statistics.median(by_fts), statistics.median(by_mirror)
    print(
        f"  side by side: FTS5 p50 {fts50:.2f} p99 {percentile(by_fts, 0.99):.2f} ms, "
        f"mirror p50 {mirror50:.2f} p99 {percentile(by_mirror, 0.99):.2f} ms "
        f"(p50 ratio {mirror50 / fts50:.2f})"
    )


# Store reads and engine steps timed by --stages: (module, attribute) of each. The store's
# reads are wrapped on the class that answers them (SqliteStore; ``Store`` is the protocol).
# None is called inside another, so each is counted once and "(rest)" is what none holds.
STAGES = (
    [
        ("credo.store:SqliteStore", name)
        for name in (
            "locked_beliefs",
            "current_locks",
            "meta_get",
            "keyword_search",
            "keyword_beliefs",
            "links_touching",
            "links_with_ends",
            "live_unlocked",
            "successors",
            "edges_for_beliefs",
            "pairs_among",
            "trails",
            "anchors_for",
            "doc_anchor_matches",
        )
    ]
    + [
        ("credo.retrieval.pipeline", name)
        for name in (
            "heat_scores",
            "bfs_scores",
            "lane_best",
            "doc_scores",
            "session_lane",
            "windows",
            "date_lane",
            "speaker_lane",
            "compose",
            "_explain_dialog",
            "_currency",
            "Shown",
            "picked",
            "belief_tokens",
        )
    ]
    + [("credo.retrieval.lanes.dialog", "dialog_step")]
    + [
        ("credo.retrieval.pipeline:clustering", name)
        for name in ("cluster_candidates", "pack_with_clusters", "pack_ranked")
    ]
)


def stages(db: Path, texts: list[str], index: bool = False) -> None:
    """Print the mean and p50 milliseconds per query of each stage, then the rest; with
    ``index``, on a store whose warm index is read first (``Store.build_warm``, as the warm
    server answers)."""
    import importlib

    spent: dict[str, float] = {}
    per_query: dict[str, list[float]] = {}
    restore = []
    for where, name in STAGES:
        module_name, _, attribute = where.partition(":")
        try:
            owner = importlib.import_module(module_name)
        except ImportError:  # a step the code being measured does not have
            continue
        if attribute:
            owner = getattr(owner, attribute)
        original = getattr(owner, name, None)
        if original is None:
            continue

        def timed(*args: object, _original=original, _name=name, **kwargs: object) -> object:
            started = time.perf_counter()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.perf_counter() - started

        restore.append((owner, name, original))
        setattr(owner, name, timed)
    totals = []
    try:
        with Memory(db, root=db.parent) as memory:
            if index:
                assert memory.store.build_warm()
                for text in texts:  # every query's terms and rows met once, as a server has
                    memory.retrieve(text)
            for text in texts[:20]:
                memory.retrieve(text)
            for text in texts:
                spent.clear()
                started = time.perf_counter()
                memory.retrieve(text)
                totals.append((time.perf_counter() - started) * 1000)
                spent["(rest)"] = totals[-1] / 1000 - sum(spent.values())
                for name, seconds in spent.items():
                    per_query.setdefault(name, []).append(seconds * 1000)
    finally:
        for owner, name, original in restore:
            setattr(owner, name, original)
    read = ", the warm index read" if index else ""
    print(f"  stages (wrapped pass{read}: total p50 {statistics.median(totals):.2f} ms)")
    for name, values in sorted(per_query.items(), key=lambda kv: -sum(kv[1])):
        values += [0.0] * (len(texts) - len(values))  # a step some queries skip
        print(
            f"    {name:22s} mean {statistics.mean(values):6.3f}  "
            f"p50 {statistics.median(values):6.3f} ms"
        )


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
    parser.add_argument("--stages", action="store_true", help="also print the stage profile")
    parser.add_argument(
        "--index",
        action="store_true",
        help="with --stages: profile a store whose warm index is read (as the server answers)",
    )
    parser.add_argument(
        "--passes",
        type=int,
        default=1,
        help="warm passes over the queries; > 1 adds p50/p99 of per-query medians",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time the warm engine against a bare FTS5 top-50, query by query",
    )
    parser.add_argument(
        "--mirror-side-by-side",
        action="store_true",
        help="also time warm retrieve with FTS5 ranking and with the bm25 mirror, interleaved",
    )
    args = parser.parse_args()
    if args.passes < 1:
        parser.error("--passes must be 1 or more")
    # pip byte-compiles an installed package; an editable tree under
    # PYTHONDONTWRITEBYTECODE=1 (this environment) would be compiled in every fresh process.
    compileall.compile_dir(Path(credo.__file__).parent, quiet=1)
    texts = queries(args.queries)
    credo_script = shutil.which("credo") or "credo"
    print(f"{'beliefs':>8} {'warm p50':>9} {'warm p99':>9} {'first q':>9} {'search e2e':>11}  (ms)")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "bench.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(write_records(Path(folder) / "r.jsonl", size, 2, text="zipf"))
            times, mirror_note = warm(db, texts, args.passes)
            every_pass = times
            times = times[: len(texts)]
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
                    [credo_script, "search", texts[i]], check=True, capture_output=True, env=env
                )
                e2e.append((time.perf_counter() - started) * 1000)
            print(
                f"{size:>8} {statistics.median(times):>9.2f} {percentile(times, 0.99):>9.2f} "
                f"{statistics.median(first):>9.1f} {statistics.median(e2e):>11.1f}"
            )
            print(f"  {mirror_note}")
            if args.passes > 1:
                print_per_query_medians(every_pass, len(texts), args.passes)
            if args.floor:
                floor_side_by_side(db, texts)
            if args.mirror_side_by_side:
                mirror_side_by_side(db, texts)
            if args.stages:
                stages(db, texts, index=args.index)


if __name__ == "__main__":
    main()
