"""Warm retrieves on documentation and code stores, two or more source trees side by side.

    python bench/docs_warm.py SRC [SRC ...] [--corpus NAME ...] [--stores DIR] [--rounds 3]
                                            [--passes 3]

bench/warm_trees.py times the warm engine on a synthetic store, whose beliefs have no
section trail; a store of ingested documents takes other steps too (the section rule of
retrieval/specific.py reads ``Store.keyword_scores``). Here each corpus of
bench/docs_multi.py (its queries, and ``Memory(db, root=corpus, settings=Settings())``
with its retrieve arguments) is ingested once into ``--stores`` (kept and reused: built
by the first SRC), and each SRC (a folder holding the ``credo`` package) answers it in a
child process of its own, the trees taking turns ``--rounds`` times, the order alternating.
A child reads the warm index (``Store.build_warm``), answers the other corpora's queries
once (a warm-up: the mirror checked against FTS5, general caches filled), then the
corpus' own queries ``--passes`` times, each answer timed with the cycle collector off.
Printed per run: p50 of the first pass (beliefs met for the first time) and of the later
passes (ms), the calls to ``keyword_scores`` per query and their share of the retrieve
time, and a digest of every answer (ids, scores and lanes), which must be equal across
trees. Then the medians per tree and corpus. Each child also asks every query again at two
budgets (100,000 and 1,500 tokens), warm and then of the store cold (no warm index), and the
run fails when any whole result differs: the docs corpora's check that the warm path, with its
trails, line and definition lanes, answers as the cold one does (bench/docs_multi.py runs cold).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from docs_corpora import BY_NAME, fetch  # noqa: E402

CHILD = """
import hashlib, json, statistics, sys, time
sys.path.insert(0, {bench!r})
from pathlib import Path
from credo import Memory
from credo.config import Settings
from credo.surfaces.collector import Collector
db, root, passes = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
texts, warmup = json.loads(sys.argv[4]), json.loads(sys.argv[5])
collector = Collector()
out = {{"passes": []}}
with Memory(db, root=root, settings=Settings()) as memory:
    store = memory.store
    assert store.build_warm()
    plain = store.keyword_scores
    spent = [0, 0.0]

    def counted(terms, ids):
        started = time.perf_counter()
        try:
            return plain(terms, ids)
        finally:
            spent[0] += 1
            spent[1] += time.perf_counter() - started

    store.keyword_scores = counted
    for text in warmup:
        memory.retrieve(text, token_budget=100_000, with_doc_anchors=True)
    digest = hashlib.sha256()
    for n in range(passes):
        times = []
        spent[:] = [0, 0.0]
        for text in texts:
            with collector.paused():
                started = time.perf_counter()
                result = memory.retrieve(text, token_budget=100_000, with_doc_anchors=True)
                times.append(time.perf_counter() - started)
            if n == 0:
                shown = [(b.id, b.score, sorted(b.lanes.items())) for b in result.beliefs]
                digest.update(repr(shown).encode())
        out["passes"].append(
            [statistics.median(times) * 1000, spent[0] / len(texts), spent[1] / sum(times)]
        )
    out["digest"] = digest.hexdigest()[:16]
    # The whole results, warm, at the default budget and a pack-sized one, and the same
    # asked of the store cold (no warm index): the two paths must agree byte for byte.
    whole = [repr(memory.retrieve(t, token_budget=b, with_doc_anchors=True))
             for b in (100_000, 1_500) for t in texts]
with Memory(db, root=root, settings=Settings()) as memory:
    cold = [repr(memory.retrieve(t, token_budget=b, with_doc_anchors=True))
            for b in (100_000, 1_500) for t in texts]
out["differ"] = [i for i, (w, c) in enumerate(zip(whole, cold, strict=True)) if w != c]
print(json.dumps(out))
"""


def queries(name: str) -> list[str]:
    listed = json.loads((BENCH / "docs_multi" / f"{name}.json").read_text())["queries"]
    return [q["query"] for q in listed]


def build(src: Path, name: str, db: Path) -> None:
    """Ingest corpus ``name`` into ``db`` with the credo of ``src``."""
    corpus = BY_NAME[name]
    root = fetch(corpus)
    code = (
        "import sys\nfrom pathlib import Path\nfrom credo import Memory\n"
        "from credo.config import Settings\n"
        "with Memory(Path(sys.argv[1]), root=Path(sys.argv[2]), settings=Settings()) as m:\n"
        "    m.ingest(*map(Path, sys.argv[3:]))\n"
    )
    files = [str(p) for p in corpus.files(root)]
    env = {**os.environ, "PYTHONPATH": str(src)}
    subprocess.run([sys.executable, "-c", code, str(db), str(root), *files], env=env, check=True)


def run(src: Path, name: str, db: Path, passes: int, names: list[str]) -> dict[str, object]:
    root = fetch(BY_NAME[name])
    warmup = [t for other in names if other != name for t in queries(other)]
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD.format(bench=str(BENCH)),
            str(db),
            str(root),
            str(passes),
            json.dumps(queries(name)),
            json.dumps(warmup),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--corpus", action="append", help="repeatable; default: all six")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/credo-docs-warm"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    names = args.corpus or ["black", "click", "flask", "urllib3", "requests", "axios"]
    args.stores.mkdir(parents=True, exist_ok=True)
    for name in names:
        db = args.stores / f"{name}.db"
        if not db.exists():
            build(args.trees[0], name, db)
    results: dict[tuple[str, str], list[dict[str, object]]] = {}
    differ = 0  # runs whose warm answers were not the cold path's
    for round_ in range(args.rounds):
        order = args.trees if round_ % 2 == 0 else args.trees[::-1]
        for name in names:
            for src in order:
                got = run(src, name, args.stores / f"{name}.db", args.passes, names)
                results.setdefault((name, str(src)), []).append(got)
                first, *later = got["passes"]  # type: ignore[misc]
                unlike: list[int] = got["differ"]  # type: ignore[assignment]
                again = statistics.median(p[0] for p in later) if later else float("nan")
                print(
                    f"round {round_} {name:9} {src}: p50 first {first[0]:.3f} ms, again "
                    f"{again:.3f} ms; keyword_scores {first[1]:.2f} a query, "
                    f"{first[2] * 100:.1f}% of retrieve time; digest {got['digest']}; "
                    f"warm == cold: {f'no, {len(unlike)} answers DIFFER' if unlike else 'yes'}",
                    flush=True,
                )
                differ += bool(unlike)
    print("\nmedians over rounds (ms): corpus, tree, first-pass p50, later-pass p50")
    for (name, src), runs in results.items():
        firsts = [r["passes"][0][0] for r in runs]  # type: ignore[index]
        later = [p[0] for r in runs for p in r["passes"][1:]]  # type: ignore[index,union-attr]
        digests = sorted({str(r["digest"]) for r in runs})
        print(
            f"{name:9} {src}: {statistics.median(firsts):.3f} / "
            f"{statistics.median(later) if later else float('nan'):.3f}  digest {','.join(digests)}"
        )
    if differ:
        raise SystemExit(f"{differ} runs answered warm unlike cold (see DIFFER above)")


if __name__ == "__main__":
    main()
