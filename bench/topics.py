"""Topic questions on whole projects (docs, code, tests, changelog), written blind (#14).

    python bench/topics.py [--corpus NAME ...] [--per-query] [--json OUT]
                           [--match overlap|within] [--lanes title,latest]

Why: a question about a topic ("testing", "configuration", "what changed in the latest
release") is answered by a page or section about it, but in a whole project the topic word
may sit in hundreds of test functions, so BM25 cannot tell the page from the code. The
title and latest lanes (retrieval/lanes/title.py, latest.py) were made for that shape and
no other ranking bench asks it; this set measures them.

Corpora: six permissively licensed projects from PyPI (sdists pinned by version and
sha256, fetched into ``~/.cache/credo-bench`` on first use like ``bench/docs_corpora.py``),
none used by another bench: Markdown (copier, mkdocstrings, nox's changelog and README),
reStructuredText (pytest-mock, pytest-xdist, watchdog, nox's docs). Every corpus is the
project as a developer checks it out: its Python (package and tests), Markdown,
reStructuredText and TOML files (``*`` spans folders), so a topic word is as common in the
code and tests as it is in the project itself.

Questions: ``topics/<name>.json``, docs_multi's format plus a ``shape`` per question:
``topic`` (a topic word common in code and tests), ``rare`` (a word the code seldom holds:
the lanes must not hurt these) or ``latest`` (the newest release's notes). Written by one
helper from the pages' headings and text alone, before any system ran on these projects,
and committed before the first run; labels are sections (heading line to the line before
the next heading), alternatives where two pages answer. Never tune on them (the rule of
bench/heldout/README.md).

Systems and metrics: docs_multi's own (credo with the defaults, the three FTS5 docs
baselines, doc nDCG@10, section hit@5 and MRR@10; ``run_corpus``), in one run.
``--lanes A,B``: credo also with those lanes on (``credo-on``) and off (``credo-off``)
over the same store, side by side, and a table per shape and the questions whose first
matching rank differs between the two.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_multi
from credo.retrieval.lanes import LANES
from docs_corpora import Corpus

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "topics"
SHAPES = ("topic", "rare", "latest")
PROJECT = ("*.py", "*.md", "*.rst", "*.toml")  # fnmatch's * spans folders: the whole tree

TOPICS: tuple[Corpus, ...] = (
    Corpus(
        name="pytest-mock",
        kind="docs",
        project="pytest-mock",
        version="3.17.0",
        licence="MIT",
        url="pypi:pytest-mock==3.17.0",
        sha256="e36576e0985e01027e999891e7a966c67822d40c89ef1b4c8b6e22737e3590b4",
        include=PROJECT,
    ),
    Corpus(
        name="nox",
        kind="docs",
        project="nox",
        version="2026.10.20",
        licence="Apache-2.0",
        url="pypi:nox==2026.10.20",
        sha256="5da57c009c3dfdd762c068d9079b17966ec967a9eb02cd8ebcf016a946eaf67f",
        include=PROJECT,
    ),
    Corpus(
        name="pytest-xdist",
        kind="docs",
        project="pytest-xdist",
        version="3.8.0",
        licence="MIT",
        url="pypi:pytest-xdist==3.8.0",
        sha256="7e578125ec9bc6050861aa93f2d59f1d8d085595d6551c2c90b6f4fad8d3a9f1",
        include=PROJECT,
    ),
    Corpus(
        name="watchdog",
        kind="docs",
        project="watchdog",
        version="7.1.1",
        licence="Apache-2.0",
        url="pypi:watchdog==7.1.1",
        sha256="d7dc3bf0c3417c002ee976e958479c54d8ca18cbb3532fadbe69511fa389da15",
        include=PROJECT,
    ),
    Corpus(
        name="copier",
        kind="docs",
        project="copier",
        version="9.19.1",
        licence="MIT",
        url="pypi:copier==9.19.1",
        sha256="3fe48c38a290c90dfa67cfc7811bc3f576c03f59d3a1e6a09a8d46c2f0403988",
        include=PROJECT,
    ),
    Corpus(
        name="mkdocstrings",
        kind="docs",
        project="mkdocstrings",
        version="1.0.8",
        licence="ISC",
        url="pypi:mkdocstrings==1.0.8",
        sha256="b50fc326230906425c82ee9ec59b80e5db00892b2b593d4d0b841a0d4acf537b",
        include=PROJECT,
    ),
)

BY_NAME = {corpus.name: corpus for corpus in TOPICS}


def parse_lanes(value: str) -> list[str]:
    """The lanes named in ``--lanes``; an unknown name is a one-line error."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = sorted(set(names) - set(LANES))
    if unknown:
        raise SystemExit(f"topics: unknown lane {unknown[0]!r}; lanes are {', '.join(LANES)}")
    return names


def variants(lanes: Sequence[str]) -> dict[str, dict[str, bool]]:
    """``credo-on`` / ``credo-off``: the named lanes switched on / off over the defaults."""
    if not lanes:
        return {}
    return {
        "credo-on": dict.fromkeys(lanes, True),
        "credo-off": dict.fromkeys(lanes, False),
    }


def shapes(queries_dir: Path, corpus: str) -> dict[str, str]:
    """Question id -> shape, from the query file (docs_multi ignores the field)."""
    data = json.loads((queries_dir / f"{corpus}.json").read_text(encoding="utf-8"))
    return {str(q["id"]): str(q.get("shape", "topic")) for q in data["queries"]}


def by_shape(results: Sequence[dict[str, Any]], queries_dir: Path) -> dict[str, Any]:
    """Per system and shape, over every corpus' questions pooled: nDCG, hit@5, MRR."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for r in results:
        shape_of = shapes(queries_dir, r["corpus"])
        for system in r["systems"]:
            rows = out.setdefault(system, {})
            for qid, score in r["per_query"][system].items():
                for key in (shape_of[qid], "all"):
                    row = rows.setdefault(key, {"n": 0, "ndcg": 0.0, "hit5": 0.0, "mrr": 0.0})
                    row["n"] += 1
                    row["ndcg"] += score["doc_ndcg@10"]
                    row["hit5"] += score["section_hit@5"]
                    row["mrr"] += score["section_mrr@10"]
    for rows in out.values():
        for row in rows.values():
            for metric in ("ndcg", "hit5", "mrr"):
                row[metric] = round(row[metric] / row["n"], 4)
    return out


def shape_lines(table: dict[str, Any]) -> list[str]:
    lines = [f"{'system':<15} {'shape':<7} {'n':>4} {'doc nDCG@10':>11} {'hit@5':>6} {'MRR@10':>7}"]
    for system, rows in table.items():
        for shape in (*SHAPES, "all"):
            if row := rows.get(shape):
                lines.append(
                    f"{system:<15} {shape:<7} {row['n']:>4} {row['ndcg']:>11.3f} "
                    f"{row['hit5']:>6.3f} {row['mrr']:>7.3f}"
                )
    return lines


def changed(results: Sequence[dict[str, Any]], queries_dir: Path) -> list[dict[str, Any]]:
    """Questions whose first matching rank or doc nDCG differs between lanes on and off."""
    out = []
    for r in results:
        if "credo-on" not in r["per_query"]:
            continue
        shape_of = shapes(queries_dir, r["corpus"])
        on, off = r["per_query"]["credo-on"], r["per_query"]["credo-off"]
        for qid in on:
            if (on[qid]["rank"], on[qid]["doc_ndcg@10"]) != (
                off[qid]["rank"],
                off[qid]["doc_ndcg@10"],
            ):
                out.append(
                    {
                        "corpus": r["corpus"],
                        "id": qid,
                        "shape": shape_of[qid],
                        "off": off[qid]["rank"],
                        "on": on[qid]["rank"],
                        "ndcg_off": round(off[qid]["doc_ndcg@10"], 3),
                        "ndcg_on": round(on[qid]["doc_ndcg@10"], 3),
                    }
                )
    return out


def changed_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    lines = ["questions that differ, lanes off -> on (first matching rank, '-' none in 10):"]
    for row in rows:
        lines.append(
            f"    {row['corpus']:<13} {row['id']:<6} {row['shape']:<7} "
            f"rank {row['off'] or '-'} -> {row['on'] or '-'}   "
            f"nDCG {row['ndcg_off']:.3f} -> {row['ndcg_on']:.3f}"
        )
    return lines if rows else [lines[0], "    none"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="topics", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", action="append", choices=sorted(BY_NAME), metavar="NAME")
    parser.add_argument("--per-query", action="store_true")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument(
        "--lanes",
        default="",
        metavar="LANE[,LANE]",
        help="also run credo with these lanes on and off, side by side",
    )
    docs_multi.add_match(parser)
    args = parser.parse_args(argv)
    lanes = parse_lanes(args.lanes)
    docs_multi.warn_environment("topics")
    chosen = [c for c in TOPICS if not args.corpus or c.name in args.corpus]
    results = docs_multi.run_corpora(
        chosen, QUERIES, prog="topics", match=args.match, variants=variants(lanes)
    )
    if not results:
        print(f"topics: no corpus has a query file in {QUERIES}", file=sys.stderr)
        return 2
    report = docs_multi.build_report(results, TOPICS, QUERIES, pack=False, match=args.match)
    report["by_shape"] = by_shape(results, QUERIES)
    report["lanes"] = lanes
    report["changed"] = changed(results, QUERIES)
    out = [docs_multi.render(report, per_query=args.per_query), ""]
    out += ["== by shape, questions pooled over corpora", *shape_lines(report["by_shape"])]
    if lanes:
        out += ["", f"== lanes {','.join(lanes)}", *changed_lines(report["changed"])]
    print("\n".join(out))
    docs_multi.write_json(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
