"""How far into the ranking a warm query's pack reaches, and what ties the rest to the result
(issue #17: could the stages after the ranking touch fewer candidates?).

    PYTHONPATH=src python bench/prune_reach.py [--db STORE] [--budget N] [--queries 100]
    PYTHONPATH=src python bench/prune_reach.py --corpus flask --stores DIR [--budget 1500]

Per query (the latency bench's first-pass queries on the 10k synthetic store of
bench/warm_instructions.py, built here unless ``--db``; or a docs corpus' queries on
bench/docs_warm.py's store), printed as p10 / p50 / p90 / mean:
- ``ranked``: the candidates ``_rank`` returns (every later stage is handed all of them);
- ``reach``: one past the deepest of them the pack touches (a packed one, or the first
  dropped, where Stage 2 stops): what a stage bounded by the pack would need;
- ``packed`` / ``dropped``: the result's (groups kept aside expanded);
- ``cluster ids change``: queries whose packed beliefs' cluster ids change when clustering
  sees only the edges among the candidates the pack reaches (the rest join clusters above
  the cut through beliefs below it), and how many packed beliefs change.

The result lists every dropped candidate in rank order (``RetrievalResult.dropped``), so
the ranking itself (lanes, ``compose``, the truth step) is needed in full whatever the pack
reaches; this bench measures what is left for a prune after it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="a store (default: a 10k synthetic one)")
    parser.add_argument("--corpus", help="a docs_multi corpus, its store under --stores")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/credo-docs-warm"))
    parser.add_argument("--budget", type=int, help="token budget (default: the retrieve's)")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    from credo import Memory
    from credo.config import Settings
    from credo.retrieval import pipeline
    from credo.unionfind import first_labels

    seen: dict[str, object] = {}
    rank, pack = pipeline._rank, pipeline.clustering.pack_ranked

    def ranked(*a: object, **k: object):  # type: ignore[no-untyped-def]
        out = rank(*a, **k)  # type: ignore[arg-type]
        seen["ranked"] = [s[0] for s in out[0]]  # (a rank.Ranked: its id first)
        return out

    def packed(ids, *, pairs, **k):  # type: ignore[no-untyped-def]
        pairs = list(pairs)
        out = pack(ids, pairs=pairs, **k)
        stop = out.dropped[0] if out.dropped else None
        cut = list(ids).index(stop) + 1 if stop is not None else len(ids)
        cut = max([cut, *(list(ids).index(i) + 1 for i in out.selected)])
        inside = set(list(ids)[:cut])
        near = [(a, b) for a, b in pairs if a in inside and b in inside]
        whole, part = first_labels(ids, pairs), first_labels(list(ids)[:cut], near)
        seen["changed"] = sum(
            whole[1][whole[0][i]] != part[1][part[0][i]] for i in out.selected if i in inside
        )
        return out

    pipeline._rank, pipeline.clustering.pack_ranked = ranked, packed
    with tempfile.TemporaryDirectory() as tmp:
        if args.corpus:
            from docs_corpora import BY_NAME, fetch
            from docs_warm import queries as corpus_queries

            db, root, texts = (
                args.stores / f"{args.corpus}.db",
                fetch(BY_NAME[args.corpus]),
                corpus_queries(args.corpus),
            )
        else:
            from latency import queries
            from warm_instructions import ten_thousand

            db = args.db or ten_thousand(Path(tmp))
            root, texts = db.parent, queries(args.queries)
        rows: list[tuple[int, int, int, int, int]] = []
        budget = {} if args.budget is None else {"token_budget": args.budget}
        with Memory(db, root=root, settings=Settings()) as memory:
            assert memory.store.build_warm()
            for text in texts:
                seen["changed"] = 0
                result = memory.retrieve(text, **budget)
                order = seen["ranked"]
                at = {i: n for n, i in enumerate(order)}  # type: ignore[attr-defined]
                deepest = [at[b.id] for b in result.beliefs if b.id in at]
                if result.dropped and result.dropped[0] in at:
                    deepest.append(at[result.dropped[0]])
                reach = max(deepest, default=-1) + 1
                rows.append(
                    (len(order), reach, len(result.beliefs), len(result.dropped), seen["changed"])  # type: ignore[arg-type]
                )
    for n, name in enumerate(("ranked", "reach", "packed", "dropped")):
        values = sorted(row[n] for row in rows)
        tenth = len(values) // 10
        print(
            f"{name:8} p10 {values[tenth]:4} p50 {values[len(values) // 2]:4} "
            f"p90 {values[-tenth - 1]:4} mean {statistics.mean(values):6.1f}"
        )
    changed = [row[4] for row in rows if row[4]]
    print(
        f"cluster ids change: {len(changed)} of {len(rows)} queries, "
        f"{sum(changed)} of {sum(row[2] for row in rows)} packed beliefs"
    )


if __name__ == "__main__":
    main()
