"""What supersession and contradiction cost a warm retrieve, measured in pairs.

    python bench/truth_cost.py [--size 10000] [--queries 300] [--passes 2] [--stores ...]

This machine's speed drifts by a third from minute to minute, more than the step costs, so
two runs of bench/latency.py (one per tree) cannot resolve a fraction of a millisecond. Here
each query is retrieved twice in one process, with the step on and with it off (the
pipeline's ``_currency`` replaced by one that says "no truth links"), in alternating order;
the figure is the median of the per-query differences. The stores are bench/latency.py's
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
import statistics
import sys
import tempfile
import time
from pathlib import Path

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
    warm: the store's warm index read first, as the warm server has it."""
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
    args = parser.parse_args()
    names = [n.strip() for n in args.stores.split(",") if n.strip()]
    unknown = set(names) - set(STORES)
    if unknown:
        parser.error(
            f"unknown store(s) {', '.join(sorted(unknown))}; choose of {', '.join(STORES)}"
        )
    texts = queries(args.queries)
    print(f"{args.size} beliefs, {args.queries} queries x {args.passes} passes, warm (ms)")
    print(
        f"{'store':<14} {'truth edges':>11} {'on p50':>8} {'off p50':>8} {'step (median diff)':>19}"
    )
    with tempfile.TemporaryDirectory() as folder:
        base = write_records(Path(folder) / "r.jsonl", args.size, 2, text="zipf")
        for name in names:
            records = variant(base, name, Path(folder) / f"{name}.jsonl")
            db = Path(folder) / f"{name}.db"
            with Memory(db, root=Path(folder)) as memory:
                memory.import_records(records)
                truth = sum(memory.stats().edges_by_type.get(t, 0) for t in TRUTH)
            on, off, step = paired(db, texts, args.passes)
            label = "latency store" if name == "latency" else name
            print(f"{label:<14} {truth:>11} {on:>8.2f} {off:>8.2f} {step:>19.3f}")


if __name__ == "__main__":
    main()
