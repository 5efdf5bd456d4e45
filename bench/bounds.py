"""Resource bounds of ``retrieve`` at 100k beliefs: the worst query shape found.

    python bench/bounds.py [--beliefs 100000] [--random 200] [--seed 7]

Builds a store of ``--beliefs`` Zipf-text beliefs with 2 edges each (bench/synth.py), adds
hub beliefs with thousands of edges, then times ``Memory.retrieve`` (default lanes, budget
2400, warm) over hand-picked query shapes and a random search that mixes them, and reports
the slowest and the most memory-hungry (``tracemalloc`` peak of Python allocations) with
the caps that bound them: ``credo.store.fts.MAX_QUERY_CHARS`` / ``MAX_QUERY_TERMS`` and
``retrieval.Options`` ``keyword_limit``, ``graph_max_links``, ``graph_lane_limit``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.retrieval.pipeline import Options
from credo.store.fts import MAX_QUERY_CHARS, MAX_QUERY_TERMS
from synth import write_records, zipf_vocabulary

HUBS = 3
HUB_EDGES = 5_000


def build(path: Path, beliefs: int) -> float:
    started = time.perf_counter()
    records = path.with_suffix(".jsonl")
    write_records(records, beliefs, 2, text="zipf")
    with Memory(path, root=path.parent) as memory:
        memory.import_records(records)
        rng = random.Random(3)
        hub_edges = []
        for h in range(HUBS):
            hub = f"hub{h}"
            memory.remember(f"hub {h} central service registry gateway", id=hub)
            for n in rng.sample(range(beliefs), HUB_EDGES):
                kind = "CITES" if n % 2 else "SUPPORTS"
                src, dst = (f"n{n}", hub) if n % 3 else (hub, f"n{n}")
                hub_edges.append({"kind": "edge", "src": src, "dst": dst, "type": kind})
        memory.import_records(hub_edges)
    records.unlink()
    return time.perf_counter() - started


def shapes(vocab: list[str], rng: random.Random) -> dict[str, str]:
    common, rare = vocab[:30], vocab[-5000:]
    long_text = []
    while sum(len(w) + 1 for w in long_text) < MAX_QUERY_CHARS * 3:
        long_text.append(rng.choice(vocab))
    return {
        "empty": "",
        "one common word": common[0],
        "30 most common words": " ".join(common),
        "48+ rare terms": " ".join(rng.sample(rare, 200)),
        "long query (3x MAX_QUERY_CHARS)": " ".join(long_text),
        "same word repeated": (common[1] + " ") * 5000,
        "hub text": "hub central service registry gateway",
        "hub ids and words": "hub0 hub1 hub2 central registry",
        "structural: what CITES hub0": "what CITES hub0",
        "structural: n5 SUPPORTS ?": "n5 SUPPORTS ?",
        "many paths": " ".join(f"docs/{w}.md src/{w}.py" for w in rng.sample(vocab, 60)),
        "urls": " ".join(f"https://example.com/{w}" for w in rng.sample(vocab, 40)),
        "page words": " ".join(f"{w} page" for w in rng.sample(vocab, 40)),
        "punctuation soup": "\"'(*)^:-NEAR AND OR NOT ''" * 200,
        "unicode mix": "ü日本語 ﬁle Ω≈ç √∫ " * 300,
    }


def random_query(vocab: list[str], rng: random.Random) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(1, 6)):
        pick = rng.random()
        if pick < 0.4:
            parts.append(" ".join(rng.choices(vocab[:200], k=rng.randint(1, 60))))
        elif pick < 0.6:
            parts.append(" ".join(rng.choices(vocab, k=rng.randint(1, 100))))
        elif pick < 0.75:
            parts.append(f"hub{rng.randrange(HUBS)} registry")
        elif pick < 0.9:
            parts.append(f"docs/{rng.choice(vocab)}.md")
        else:
            parts.append(f"what {rng.choice(['CITES', 'SUPPORTS'])} n{rng.randrange(1000)}")
    return " ".join(parts)


def measure(run: Callable[[], object]) -> tuple[float, int]:
    """Wall time of a plain run, then the Python allocation peak of a second run:
    tracemalloc slows Python several-fold, so it must not be on while timing."""
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    vocab = zipf_vocabulary()
    folder = Path(tempfile.mkdtemp(prefix="credo-bounds-"))
    try:
        db = folder / "m.db"
        built = build(db, args.beliefs)
        print(
            f"store: {args.beliefs} beliefs, 2 edges each, {HUBS} hubs x {HUB_EDGES} edges "
            f"(built in {built:.0f} s)"
        )
        defaults = Options()
        print(
            f"caps: MAX_QUERY_CHARS {MAX_QUERY_CHARS}, MAX_QUERY_TERMS {MAX_QUERY_TERMS}, "
            f"keyword_limit {defaults.keyword_limit}, graph_max_links {defaults.graph_max_links}, "
            f"graph_lane_limit {defaults.graph_lane_limit}"
        )
        rows: list[tuple[str, float, int, int]] = []
        with Memory(db, root=folder) as memory:
            memory.retrieve("warm up the page cache")
            for name, query in shapes(vocab, rng).items():
                best = min(
                    (measure(lambda q=query: memory.retrieve(q)) for _ in range(3)),
                    key=lambda m: m[0],
                )
                count = len(memory.retrieve(query).beliefs)
                rows.append((name, best[0], best[1], count))
            for _ in range(args.random):
                query = random_query(vocab, rng)
                seconds, peak = measure(lambda q=query: memory.retrieve(q))
                rows.append((f"random: {query[:50]}", seconds, peak, -1))
            for name, lane in (("hrr lane on", {"hrr": True}), ("clustering on", None)):
                seconds, peak = measure(
                    lambda lane=lane: memory.retrieve(
                        "hub central registry", lanes=lane, use_intentional_clustering=True
                    )
                )
                rows.append((name, seconds, peak, -1))
        print(f"{'shape':<48} {'ms':>8} {'peak KiB':>9} {'beliefs':>7}")
        for name, seconds, peak, count in rows:
            if not name.startswith("random:"):
                print(f"{name[:48]:<48} {1000 * seconds:>8.2f} {peak / 1024:>9.0f} {count:>7}")
        randoms = [r for r in rows if r[0].startswith("random:")]
        if randoms:
            times = sorted(r[1] for r in randoms)
            print(
                f"random search ({len(randoms)} queries): p50 {1000 * times[len(times) // 2]:.2f}"
                f" ms, max {1000 * times[-1]:.2f} ms"
            )
        slowest = max(rows, key=lambda r: r[1])
        hungriest = max(rows, key=lambda r: r[2])
        print(f"worst time:   {1000 * slowest[1]:.2f} ms  ({slowest[0][:70]})")
        print(f"worst memory: {hungriest[2] / 1024:.0f} KiB  ({hungriest[0][:70]})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
