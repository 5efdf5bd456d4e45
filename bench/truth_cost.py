"""What supersession and contradiction cost a warm retrieve, measured in pairs.

    python bench/truth_cost.py [--size 10000] [--queries 300] [--passes 2] [--stores ...]
                               [--one-store]

This machine's speed drifts by a third from minute to minute, more than the step costs, so
two runs of bench/latency.py (one per tree) cannot resolve a fraction of a millisecond. Here
each store is copied twice and both copies are held warm in one process: one answers with
the step, the other without it (the pipeline's ``_currency`` replaced by one that says "no
truth links"), each query going to both in turn, the order alternating query by query and
flipped every pass. Each side meets every query for the first time in its own per-version
caches, as a warm process does, so the first pass reads what bench/latency.py's warm p50
(a first pass) pays. Per pass: both sides' p50, their difference (the growth the issue
bounds), the median of the per-query differences, and that median over the queries the side
with the step ran first and second (their gap is the order's own effect, which alternation
cancels).

Before stop 40 both sides ran on one store (``--one-store`` runs that design too): a query's
second retrieve inherited what its first had left in the version's caches, and with an even
query count each query ran in the same order in every pass, so the median mixed two run
orders; at stop 40's start (main at 0db2d0d) it read the derived store's step at ~0.20 ms
where two stores read ~0.26-0.29 in a first pass and ~0.14-0.21 in a second.

The stores are bench/latency.py's
synthetic store (``synth.write_records(size, 2, text="zipf")``: 2 edges per belief, one in
eight of them CONTRADICTS, none SUPERSEDES) and two variants of it with the same beliefs and
the same other edges:

- latency store: as bench/latency.py builds it (~0.25 CONTRADICTS per belief: about 40% of a
  query's candidates are in a conflict, and ~50 beliefs are brought along per query);
- sparse: one in twenty of those CONTRADICTS edges kept, and as many SUPERSEDES edges
  (a belief superseding a neighbour: a store where beliefs sometimes change);
- none: no SUPERSEDES, CONTRADICTS or RESOLVES edge (the step reads, finds nothing);
- derived: the latency store with every id replaced by the one ``remember`` derives from the
  belief's text (``identity.derived_id``: ``b`` + 15 hex). The others' ids are chosen
  (``n123``) and shown whole; a derived id is shown in short form (store/short_ids.py), and
  the marks that name one are worked out query by query instead of taken from the lines the
  truth graph keeps. Real stores are written by ``remember`` and ingest, so this is the
  store whose figure users pay; the other three isolate the edges' share.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.knowledge.identity import content_hash, derived_id
from credo.retrieval import pipeline
from latency import queries
from synth import write_records

TRUTH = {"SUPERSEDES", "CONTRADICTS", "RESOLVES"}
STORES = ("latency", "sparse", "none", "derived")


def variant(records: Path, name: str, out: Path) -> Path:
    """The latency store's records with its truth edges kept (``latency``), thinned to one
    in twenty plus as many turned into SUPERSEDES from the newer belief to the older
    (``sparse``: never a cycle), or dropped (``none``); or kept with every id the one
    ``remember`` derives from the belief's text (``derived``)."""
    if name == "derived":
        return _derived(records, out)
    kept: list[str] = []
    truth = 0
    seen: set[tuple[str, str]] = set()
    for line in records.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["kind"] == "edge" and record["type"] in TRUTH and name != "latency":
            truth += 1
            if name == "none" or truth % 20 not in (0, 10):
                continue
            if truth % 20 == 10:
                older, newer = sorted((record["src"], record["dst"]), key=lambda i: int(i[1:]))
                if (newer, older) in seen:
                    continue
                seen.add((newer, older))
                line = json.dumps(
                    {"kind": "edge", "src": newer, "dst": older, "type": "SUPERSEDES"}
                )
        kept.append(line)
    out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return out


def _derived(records: Path, out: Path) -> Path:
    """The records with each belief's id as ``remember`` derives it and the edges renamed to
    match (the synthetic texts are unique: each ends with its number)."""
    parsed = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    # Two passes: an edge may come before the belief it names.
    ids = {r["id"]: derived_id(content_hash(r["content"])) for r in parsed if r["kind"] == "belief"}
    lines: list[str] = []
    for record in parsed:
        if record["kind"] == "belief":
            record["id"] = ids[record["id"]]
        elif record["kind"] == "edge":
            record["src"], record["dst"] = ids[record["src"]], ids[record["dst"]]
        lines.append(json.dumps(record))
    if len(set(ids.values())) != len(ids):
        raise SystemExit("two synthetic beliefs derive the same id: their texts are equal")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def paired(db: Path, texts: list[str], passes: int) -> tuple[float, float, float]:
    """(median on, median off, median of per-query on - off) in ms of this thread's CPU,
    warm, both sides on one store (the design before stop 40, kept to compare): a query's
    second retrieve meets what its first left in the store's per-version caches, and a
    query always runs in the same order in every pass (the query count is even), so half the
    differences carry that head start one way and half the other."""
    real = pipeline._currency

    def off(*args: object) -> None:
        return None

    # Each side keeps its own per-version lines (compress.Known): the side without the
    # step takes every line for plain (no marks), and a shared memo would hand those lines
    # to the side with it, a lighter path than any real process runs.
    try:
        from credo.retrieval.compress import Known
    except ImportError:  # a tree from before the per-version lines (measured side by side)
        Known = dict  # (kept under the key and never read there)
    own = {real: Known(), off: Known()}
    on_times: list[float] = []
    off_times: list[float] = []
    with Memory(db, root=db.parent) as memory:
        assert memory.store.build_warm()  # as the warm server answers
        for text in texts[:20]:
            memory.store.truth_reader().kept["compress"] = own[real]
            memory.retrieve(text)
        for n, text in enumerate(texts * passes):
            for step in (real, off) if n % 2 else (off, real):
                pipeline._currency = step  # type: ignore[assignment]
                memory.store.truth_reader().kept["compress"] = own[step]
                started = time.thread_time()
                memory.retrieve(text)
                spent = (time.thread_time() - started) * 1000
                (on_times if step is real else off_times).append(spent)
    pipeline._currency = real
    diffs = [a - b for a, b in zip(on_times, off_times, strict=True)]
    return statistics.median(on_times), statistics.median(off_times), statistics.median(diffs)


class Pass(NamedTuple):
    """One pass over the queries, both sides: p50s in ms of this thread's CPU."""

    on: float
    off: float
    diff: float  # the median of the per-query differences (on - off)
    first_diff: float  # the same over the queries the side with the step ran first
    second_diff: float  # ... and over those it ran second


def apart(db: Path, texts: list[str], passes: int) -> list[Pass]:
    """Each side in a store of its own, as two warm processes would hold them: two copies of
    ``db``, each with its warm index read and its own per-version caches; one answers with the
    step, one without (the pipeline's ``_currency`` saying "no truth links"). Each query goes
    to both in turn, the order alternating query by query and flipped every pass, so each side
    meets every query for the first time in its own caches (the first pass is what
    bench/latency.py's warm p50 reads) and neither inherits the other's work. One Pass a pass;
    the p50 growth the issue bounds is ``on - off``."""
    real = pipeline._currency

    def off(*args: object) -> None:
        return None

    copies = []
    for side in ("on", "off"):
        copy = db.with_name(f"{db.stem}-{side}.db")
        shutil.copyfile(db, copy)
        copies.append(copy)
    out: list[Pass] = []
    with Memory(copies[0], root=db.parent) as with_step, Memory(copies[1], root=db.parent) as bare:
        sides = ((real, with_step), (off, bare))
        for step, memory in sides:
            assert memory.store.build_warm()  # as the warm server answers
            pipeline._currency = step  # type: ignore[assignment]
            for text in texts[:20]:  # (bench/latency.py's warm-up)
                memory.retrieve(text)
        for number in range(passes):
            times: dict[object, list[float]] = {real: [], off: []}
            on_first: list[bool] = []
            for n, text in enumerate(texts):
                first = (n + number) % 2 == 0  # (flipped each pass: every query both ways)
                on_first.append(first)
                for step, memory in sides if first else sides[::-1]:
                    pipeline._currency = step  # type: ignore[assignment]
                    started = time.thread_time()
                    memory.retrieve(text)
                    times[step].append((time.thread_time() - started) * 1000)
            diffs = [a - b for a, b in zip(times[real], times[off], strict=True)]
            out.append(
                Pass(
                    statistics.median(times[real]),
                    statistics.median(times[off]),
                    statistics.median(diffs),
                    statistics.median(d for d, f in zip(diffs, on_first, strict=True) if f),
                    statistics.median(d for d, f in zip(diffs, on_first, strict=True) if not f),
                )
            )
    pipeline._currency = real
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument(
        "--stores",
        default="latency,sparse,none,derived",
        help="comma-separated, of latency, sparse, none, derived (default: all four)",
    )
    parser.add_argument(
        "--one-store",
        action="store_true",
        help="also run the design before stop 40 (both sides on one store) on each store",
    )
    args = parser.parse_args()
    names = [n.strip() for n in args.stores.split(",") if n.strip()]
    unknown = set(names) - set(STORES)
    if unknown:
        parser.error(
            f"unknown store(s) {', '.join(sorted(unknown))}; choose of {', '.join(STORES)}"
        )
    texts = queries(args.queries)
    print(f"{args.size} beliefs, {args.queries} queries x {args.passes} passes, warm (ms of CPU)")
    print("each side in a store of its own, the order alternated (apart):")
    print(
        f"{'store':<14} {'truth edges':>11} {'pass':>4} {'on p50':>7} {'off p50':>7} "
        f"{'p50 growth':>10} {'median diff':>11} {'on 1st':>7} {'on 2nd':>7}"
    )
    shared: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        base = write_records(Path(folder) / "r.jsonl", args.size, 2, text="zipf")
        for name in names:
            records = variant(base, name, Path(folder) / f"{name}.jsonl")
            db = Path(folder) / f"{name}.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(records)
                truth = sum(memory.stats().edges_by_type.get(t, 0) for t in TRUTH)
            label = "latency store" if name == "latency" else name
            for number, one in enumerate(apart(db, texts, args.passes), start=1):
                print(
                    f"{label:<14} {truth:>11} {number:>4} {one.on:>7.2f} {one.off:>7.2f} "
                    f"{one.on - one.off:>10.3f} {one.diff:>11.3f} {one.first_diff:>7.3f} "
                    f"{one.second_diff:>7.3f}"
                )
            if args.one_store:
                on, off, step = paired(db, texts, args.passes)
                shared.append(f"{label:<14} {truth:>11} {on:>8.2f} {off:>8.2f} {step:>19.3f}")
    if shared:
        print("both sides in one store, in pairs (the design before stop 40):")
        print(
            f"{'store':<14} {'truth edges':>11} {'on p50':>8} {'off p50':>8} "
            f"{'step (median diff)':>19}"
        )
        print("\n".join(shared))


if __name__ == "__main__":
    main()
