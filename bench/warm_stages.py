"""Where a warm first-pass query's time goes, stage by stage, and how much of each stage's
work reaches the result (issue #17).

    PYTHONPATH=src python bench/warm_stages.py [--db STORE] [--size 10000] [--queries 200]

One process, as bench/scale.py's warm p50 runs: the store's warm index read
(``Store.build_warm``), ``--queries`` warm-up queries, then as many *other* ones (the first
pass: beliefs no earlier query met), each answered by the warm store (wall and CPU time)
and then by a store of the same file reading SQL, as scale.py does between two timed
answers (``--alone``: not).
Each measured query is answered a second time straight away: that answer meets the same
beliefs with the processor's caches full and the per-version memos filled, so the gap
between the two columns is what first meeting them costs (memory, not instructions). The
cycle collector is held off around each answer, as the server holds it
(surfaces/collector.py).

The stages are the pipeline's steps (retrieval/pipeline.py), timed by wrapping the names the
pipeline calls (``time.perf_counter_ns`` around each call: ~0.1 us a call of its own); a
stage inside another is counted in both. Then, per query, how much of the work reaches
the result: the heat and path lanes' beliefs that become candidates (the rest are past a
graph lane's limit), the candidates ``compose`` ranks (the rest are under the relevance
floor), and the ranked beliefs the result lists, packed or dropped.

The store is ``--db`` (used as it is; a retrieve writes nothing), else a synthetic one of
``--size`` beliefs built as bench/scale.py builds it (Zipf text, two edges per belief).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from credo import Memory  # noqa: E402
from credo.retrieval import pipeline  # noqa: E402
from scale import query_sets  # noqa: E402
from synth import write_records  # noqa: E402

# (object, attribute) of each stage timed: the names the pipeline calls, looked up there.
PIPELINE_STAGES = (
    "_rank",
    "neighbourhood",
    "heat_scores",
    "bfs_scores",
    "lane_best",
    "speaker_lane",
    "compose",
    "_currency",
    "Shown",
    "candidate_pairs",
    "picked",
)
STORE_STAGES = ("keyword_beliefs", "trails")


class Stages:
    """Nanoseconds spent in each wrapped stage since the last ``take``."""

    def __init__(self) -> None:
        self.spent: dict[str, int] = defaultdict(int)
        self.on = True

    def wrap(self, owner: Any, name: str, label: str | None = None) -> None:
        inner = getattr(owner, name)
        spent, clock, key = self.spent, time.perf_counter_ns, label or name

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return inner(*args, **kwargs)
            started = clock()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[key] += clock() - started

        setattr(owner, name, timed)

    def take(self) -> dict[str, int]:
        taken = dict(self.spent)
        self.spent.clear()
        return taken


class Reach:
    """Per query: the graph lanes' beliefs, the candidates and the ranked ids, as the
    pipeline made them (read by wrapping ``heat_scores``, ``bfs_scores`` and ``compose``)."""

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    def install(self) -> None:
        self._keep("heat_scores", "heat")
        self._keep("bfs_scores", "bfs")
        compose = pipeline.compose
        seen = self.seen

        def kept(lanes: Any, confidence: Any, *args: Any, **kwargs: Any) -> Any:
            ranked = compose(lanes, confidence, *args, **kwargs)
            seen["candidates"] = set(confidence)
            seen["ranked"] = {s[0] for s in ranked}  # (a Ranked: its id)
            return ranked

        pipeline.compose = kept  # type: ignore[assignment]

    def _keep(self, name: str, key: str) -> None:
        inner: Callable[..., dict[str, float]] = getattr(pipeline, name)
        seen = self.seen

        def kept(*args: Any) -> dict[str, float]:
            seen[key] = scores = inner(*args)
            return scores

        setattr(pipeline, name, kept)


def measure(db: Path, count: int, *, alone: bool) -> None:
    from credo.surfaces.collector import Collector

    stages, reach = Stages(), Reach()
    reach.install()  # (inside the stage wrappers: its own work is not timed)
    for name in PIPELINE_STAGES:
        stages.wrap(pipeline, name)
    stages.wrap(pipeline.clustering, "pack_ranked")  # (called through its module)
    stages.wrap(pipeline.dialog, "dialog_step")
    texts, warmup = query_sets(count)
    collector = Collector()
    first: dict[str, list[int]] = defaultdict(list)
    again: dict[str, list[int]] = defaultdict(list)
    totals: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, list[int]] = defaultdict(list)
    with Memory(db, root=db.parent) as memory, Memory(db, root=db.parent) as sql:
        assert memory.store.build_warm()
        for name in STORE_STAGES:
            stages.wrap(memory.store, name)
        stages.on = False
        for text in warmup:
            memory.retrieve(text)
            if not alone:
                sql.retrieve(text)
        for text in texts:
            for column, label in ((first, "first"), (again, "again")):
                stages.on = True
                with collector.paused():
                    started, cpu = time.perf_counter_ns(), time.thread_time_ns()
                    result = memory.retrieve(text)
                    totals[label].append(time.perf_counter_ns() - started)
                    totals[f"{label} cpu"].append(time.thread_time_ns() - cpu)
                stages.on = False
                for stage, spent in stages.take().items():
                    column[stage].append(spent)
            _count(reach.seen, result, counts)
            if not alone:
                with collector.paused():
                    sql.retrieve(text)
    print(f"{len(texts)} first-pass queries on {db}: p50s (us), the answer's, then each stage's")
    print(f"{'stage':<18} {'first':>9} {'again':>9} {'gap':>8}")
    p50 = {k: statistics.median(v) / 1000 for k, v in totals.items()}
    for what, key in (("retrieve p50", ""), ("  its CPU p50", " cpu")):
        a, b = p50[f"first{key}"], p50[f"again{key}"]
        print(f"{what:<18} {a:9.1f} {b:9.1f} {a - b:8.1f}")
    # (medians: the machine's other jobs stretch a few answers by milliseconds)
    for stage in sorted(first, key=lambda s: -statistics.median(first[s])):
        a, b = statistics.median(first[stage]) / 1000, statistics.median(again[stage]) / 1000
        print(f"{stage:<18} {a:9.1f} {b:9.1f} {a - b:8.1f}")
    print("what reaches the result (median a query):")
    for key in counts:
        print(f"  {key:<34} {statistics.median(counts[key]):7.1f}")


def _count(seen: dict[str, Any], result: Any, counts: dict[str, list[int]]) -> None:
    listed = {b.id for b in result.beliefs}.union(result.dropped)
    candidates, ranked = seen.get("candidates", set()), seen.get("ranked", set())
    for lane in ("heat", "bfs"):
        reached = seen.get(lane, {})
        counts[f"{lane} lane beliefs"].append(len(reached))
        counts[f"  {lane}: of them candidates"].append(len(candidates.intersection(reached)))
    counts["candidates"].append(len(candidates))
    counts["  ranked (at or above the floor)"].append(len(ranked))
    counts["  ranked and in the result"].append(len(ranked & listed))
    counts["result: packed"].append(len(result.beliefs))
    counts["result: packed + dropped"].append(len(listed))
    seen.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store (default: a synthetic one, built)")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--alone", action="store_true", help="no SQL store between answers")
    args = parser.parse_args()
    gc.collect()
    if args.db is not None:
        measure(args.db, args.queries, alone=args.alone)
        return
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / ".git").mkdir()
        db = folder / "bench.db"
        with Memory(db, root=folder) as memory:
            records = write_records(folder / "r.jsonl", args.size, 2, text="zipf")
            memory.import_records(records)
        measure(db, args.queries, alone=args.alone)


if __name__ == "__main__":
    main()
