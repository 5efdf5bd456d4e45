"""What the 1,500-token pack shows, under each set of the compress stage's retention rules.

    python bench/docs_shown.py [--corpus black click flask] [--rules "" tight headline ...]

The in-pack metrics of ``bench/docs_multi.py --pack`` count a label's passage as found when
any unit of it is packed, whatever its line shows. A rendering that shows less (a
snapshot's headline instead of its snippet) can raise them while hiding the line a question
asks for. This script measures that side, on the corpora of ``bench/docs_corpora.py`` and
the queries of ``bench/docs_multi/``, one store per corpus, per rule set (comma-separated,
"" for none; ``credo.retrieval.compress.RETENTION_RULES``):

    query terms shown   the share of a query's terms (as the keyword index stems them) that
                        the pack's lines show, text or trail; mean over the queries;
    changelog answers   the queries with a label in a changelog file (``CHANGES.*``): how many
                        have a unit of that label packed, and how many of those show a query
                        term on its line (the changed item the question names).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import docs_corpora  # noqa: E402
import docs_multi  # noqa: E402
from credo import Memory  # noqa: E402
from credo.config import Settings  # noqa: E402
from credo.retrieval import pipeline  # noqa: E402
from credo.retrieval.snippet import Terms  # noqa: E402

BUDGET = 1500


def _loc(hint: str, uri: str) -> tuple[str, int, int]:
    start, end = hint[1:].split("-L")
    return uri.split("#")[0], int(start), int(end)


def measure(memory: Memory, queries: list[docs_multi.Query], rules: frozenset[str]) -> str:
    shown_share: list[float] = []
    asked = packed = showing = 0
    for q in queries:
        options = pipeline.Options(
            token_budget=BUDGET, with_doc_anchors=True, retention_rules=rules
        )
        result = pipeline.retrieve(memory.store, q.text, options)
        terms = Terms(q.text)
        seen: set[str] = set()
        for b in result.beliefs:
            seen |= {s for _, s in terms.hits(b.shown)} | {s for _, s in terms.hits(b.trail)}
        shown_share.append(len(seen) / max(1, len(terms.stems)))
        labels = [(x.path, x.start, x.end) for x in q.labels if "CHANGES" in x.path]
        if not labels:
            continue
        asked += 1
        found = 0
        for belief, anchors in zip(result.beliefs, result.doc_anchors or (), strict=True):
            for a in anchors:
                if a.anchor_type != "ingest" or not a.position_hint:
                    continue
                path, start, end = _loc(a.position_hint, a.doc_uri)
                if any(path == p and start <= e and s <= end for p, s, e in labels):
                    found = max(found, 1 + bool(terms.hits(belief.shown)))
        packed += found >= 1
        showing += found == 2
    share = sum(shown_share) / len(shown_share)
    return (
        f"query terms shown {share:.3f}; changelog-label queries {asked}: label packed "
        f"{packed}, packed and showing a query term {showing}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="+", default=["black", "click", "flask"])
    parser.add_argument("--rules", nargs="+", default=["", "tight", "headline"])
    args = parser.parse_args()
    rule_sets = [frozenset(r for r in spec.split(",") if r) for spec in args.rules]
    for corpus in docs_corpora.CORPORA:
        if corpus.name not in args.corpus:
            continue
        root = docs_corpora.fetch(corpus)
        queries, _ = docs_multi.load_queries(BENCH / "docs_multi" / f"{corpus.name}.json")
        with tempfile.TemporaryDirectory(prefix="credo-docs-shown-") as tmp:
            memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
            try:
                memory.ingest(*corpus.files(root))
                counts = dict(
                    memory.store.conn.execute(
                        "SELECT retention, count(*) FROM beliefs GROUP BY retention"
                    ).fetchall()
                )
                print(f"{corpus.name}: beliefs by class {counts}")
                for rules in rule_sets:
                    print(f"  rules {sorted(rules)}: {measure(memory, queries, rules)}")
            finally:
                memory.close()


if __name__ == "__main__":
    main()
