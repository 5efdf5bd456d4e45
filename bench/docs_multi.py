"""Multi-corpus documentation and code retrieval: credo against SQLite FTS5 baselines.

    python bench/docs_corpora.py                      # fetch the five pinned corpora once
    python bench/docs_multi.py [--queries DIR] [--corpus NAME ...] [--per-query] [--json OUT]
                               [--match overlap|within]
                               [--pack]   # in-pack metrics at 1,500 tokens: bench/docs_pack.py

Corpora: ``bench/docs_corpora.py`` (black, click, flask documentation; urllib3 and axios
source), each pinned by version and sha256. Only ``corpus.files(root)`` is read, by every
system. Queries: ``<DIR>/<corpus>.json`` (default ``bench/docs_multi/``), written blind by
separate helpers from the corpus text alone, before any system here ran on them; nothing in
this file was tuned on their texts. A corpus without a query file is skipped (said on
stderr). Each query is ``topical``, ``path``, ``code`` (labels in ``sections``: any one is
a correct answer) or ``multi`` (labels in ``groups``: every group is a needed fact, each
group's sections are alternatives). A label is (path relative to the corpus, first line,
last line), 1-based inclusive.

Systems, run in one process over the same files:

    credo           a fresh store in a temp dir, ``Memory(db, root=corpus, settings=
                    Settings())`` (the defaults: no .credo.toml, no lane overrides),
                    ``memory.ingest(*files)``, then per query ``memory.retrieve(query,
                    token_budget=100_000, with_doc_anchors=True)``. The ranking is
                    ``result.beliefs`` in the order returned (what a user sees). A belief's
                    hit locations are its ``ingest`` anchors (``doc_uri`` path, lines from
                    ``position_hint`` ``L12-L30``); a belief with none is a non-hit that still
                    takes its rank.
    fts5-para       SQLite FTS5 (porter unicode61), one row per paragraph (a maximal run of
                    non-blank lines of the raw file, code files too), queried with an OR of
                    double-quoted ``credo.store.fts.query_terms(query)``, ordered by bm25()
                    then rowid (rows in file order, files sorted), top 10; no terms, no rows.
  docs corpora:
    fts5-trail      the same paragraphs, one column: path words + heading trail + " " + text.
    fts5-trail2     two columns (text, context = path words + heading trail), bm25 weights
                    1.0 and 0.5.
  code corpora:
    fts5-func       one row per function / method / class definition (whole text, exact
                    lines; Python ``ast`` with decorators, JavaScript tree-sitter) plus one
                    per paragraph of the module-level remainder.
    fts5-func-sym   the same rows, one column: symbol context + " " + text.
    fts5-func-sym2  two columns (text, symbol context), bm25 weights 1.0 and 0.5.
                    (A class row spans its methods, so it overlaps every label inside the
                    class: under ``--match overlap`` the section metrics count it as a
                    match for any of them; under ``--match within`` they do not.)
  (``bench/docs_baselines.py`` defines paragraphs, heading trails, path words, definitions
  and symbol context exactly; it does not use credo's parsers.)

Metrics, per query, over the first 10 ranks of each system. A hit MATCHES a label under the
``--match`` rule (``bench/docs_match.py``), the same for every system:

    within          (default, since stop 41) overlap, and at most 3 of the hit's lines lie
                    outside the label's extent: in code the label plus the doc comment,
                    decorator and blank lines directly above it; in docs the label's
                    section (heading to next heading). A function-level (code) or
                    section-level (docs) answer, not a region that holds one.
    overlap         the paths are equal and the line ranges overlap; a hit spanning a
                    whole class matches every method label inside it (the rule of every
                    figure before stop 41; docs figures are the same under both).

A credo belief with several ingest anchors matches when any does, and maps to each of their
files in anchor order:

    doc nDCG@10     the first 10 hits mapped to their files (first occurrence kept, hits
                    without a path skipped), binary gain (``metrics.ndcg_at_k``);
                    relevant = the set of label paths (all sections, or every group's
                    sections for multi); ideal DCG over min(|relevant|, 10).
    section hit@5   1 when one of the first 5 hits matches a label (for multi, a section of
                    any group), else 0.
    section MRR@10  1 / rank of the first matching hit within 10, else 0.
    all-groups@10   multi queries only: 1 when every group has a matching hit in the first 10.
    query p50       median wall time (ms) of the retrieve call / of the FTS query (terms,
                    MATCH, fetch). Ingest files/s for credo; index build seconds for each
                    baseline (read, cut, insert).

Each figure is the mean over a corpus' queries (overall and per query type); the mean table
is the unweighted mean over the corpora a system ran on. ``best-baseline`` is, per corpus,
subset and metric, the best baseline variant (its mean row averages those per-corpus bests).
The rule is printed with the mean table and kept in the JSON config (``match``).
Verdict per corpus: credo beats best-baseline (strictly) on each of the four quality metrics
(all-groups@10 left out where a corpus has no multi query). Targets, on credo's mean over
corpora: doc nDCG@10 >= 0.90, section MRR@10 >= 0.75, all-groups@10 >= 0.65.

``--per-query`` prints each query's first matching rank per system (``-``: none in 10; for
multi, ``gN`` = groups matched in 10). ``--json OUT`` writes the config (k, budget, versions:
the credo imported and its git state, sqlite, tree-sitter), the pinned corpora, per corpus
the query file's sha256, build figures, every summary, per-query scores and the top-10
locations of every system, the mean, the verdicts and the targets. The figures are those of
whatever credo is installed. Deterministic: sorted files, FTS ties by rowid, credo's own
byte-identical retrieval (only the timings vary).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo
import docs_baselines as base
import docs_pack
from ablation import add_lanes_off, apply_lanes_off
from credo import Memory
from credo.config import Settings
from docs_corpora import BY_NAME, CORPORA, Corpus, fetch
from docs_match import RULES, Loc, Match, make_rule
from metrics import ndcg_at_k

HERE = Path(__file__).resolve().parent
DEFAULT_QUERIES = HERE / "docs_multi"
RANK_BUDGET = 100_000
K = 10
K_HIT = 5
TYPES = ("topical", "path", "code", "multi")
QUALITY = ("doc_ndcg@10", "section_hit@5", "section_mrr@10", "all_groups@10")
TARGETS = {"doc_ndcg@10": 0.90, "section_mrr@10": 0.75, "all_groups@10": 0.65}
BEST = "best-baseline"


# -- queries -------------------------------------------------------------------------------


Hit = tuple[Loc, ...]  # a ranked result's locations; () is a non-hit


@dataclass(frozen=True, slots=True)
class Query:
    id: str
    type: str
    text: str
    groups: tuple[tuple[Loc, ...], ...]  # non-multi: one group, the alternative sections

    @property
    def labels(self) -> tuple[Loc, ...]:
        return tuple(loc for group in self.groups for loc in group)


def _loc(raw: dict[str, Any]) -> Loc:
    return Loc(str(raw["path"]), int(raw["start"]), int(raw["end"]))


def load_queries(path: Path) -> tuple[list[Query], dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out: list[Query] = []
    for row in data["queries"]:
        kind = str(row["type"])
        if kind == "multi":
            groups = tuple(tuple(_loc(s) for s in group) for group in row["groups"])
        else:
            groups = (tuple(_loc(s) for s in row["sections"]),)
        out.append(Query(str(row["id"]), kind, str(row["query"]), groups))
    meta = {
        "file": str(path),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "written_by": data.get("written_by"),
        "queries": len(out),
    }
    return out, meta


def label_problems(queries: Sequence[Query], lines: dict[str, int]) -> list[str]:
    """Labels that point at no corpus file, or past its end, or nowhere at all."""
    out: list[str] = []
    for q in queries:
        if not q.labels or any(not g for g in q.groups):
            out.append(f"{q.id}: empty label group")
        if q.type not in TYPES:
            out.append(f"{q.id}: unknown type {q.type!r}")
        for loc in q.labels:
            if loc.path not in lines:
                out.append(f"{q.id}: {loc.path} is not a corpus file")
            elif not 1 <= loc.start <= loc.end <= lines[loc.path]:
                out.append(
                    f"{q.id}: {loc.path} L{loc.start}-L{loc.end} out of 1..{lines[loc.path]}"
                )
    return out


# -- scoring -------------------------------------------------------------------------------


def first_match(ranking: Sequence[Hit], labels: Sequence[Loc], k: int, match: Match) -> int | None:
    """1-based rank of the first hit within ``k`` that matches a label under ``match``."""
    for rank, hit in enumerate(ranking[:k], 1):
        if any(match(loc, label) for loc in hit for label in labels):
            return rank
    return None


def score_query(ranking: Sequence[Hit], query: Query, match: Match) -> dict[str, Any]:
    top = ranking[:K]
    docs = list(dict.fromkeys(loc.path for hit in top for loc in hit))
    rank = first_match(top, query.labels, K, match)
    out: dict[str, Any] = {
        "doc_ndcg@10": ndcg_at_k(docs, {loc.path for loc in query.labels}, K),
        "section_hit@5": float(rank is not None and rank <= K_HIT),
        "section_mrr@10": 1.0 / rank if rank else 0.0,
        "rank": rank,
        "all_groups@10": None,
    }
    if query.type == "multi":
        found = [first_match(top, group, K, match) is not None for group in query.groups]
        out["groups_found"] = sum(found)
        out["all_groups@10"] = float(all(found))
    return out


def summarise(per_query: dict[str, dict[str, Any]], queries: Sequence[Query]) -> dict[str, Any]:
    rows = [per_query[q.id] for q in queries]
    groups = [r["all_groups@10"] for r in rows if r["all_groups@10"] is not None]
    return {
        "queries": len(rows),
        "doc_ndcg@10": statistics.fmean(r["doc_ndcg@10"] for r in rows),
        "section_hit@5": statistics.fmean(r["section_hit@5"] for r in rows),
        "section_mrr@10": statistics.fmean(r["section_mrr@10"] for r in rows),
        "all_groups@10": statistics.fmean(groups) if groups else None,
        "p50_ms": statistics.median(r["ms"] for r in rows),
    }


def subsets(queries: Sequence[Query]) -> dict[str, list[Query]]:
    out = {"all": list(queries)}
    for kind in TYPES:
        if chosen := [q for q in queries if q.type == kind]:
            out[kind] = chosen
    return out


# -- systems -------------------------------------------------------------------------------

Ranker = Callable[[str], list[Hit]]
_HINT = re.compile(r"L(\d+)-L(\d+)")


def anchor_locs(anchors: Sequence[Any]) -> Hit:
    """A belief's ingest anchors as locations (path only, lines 0-0, if the hint is odd)."""
    out: list[Loc] = []
    for a in anchors:
        if a.anchor_type != "ingest":
            continue
        path, _, fragment = str(a.doc_uri).partition("#")
        m = _HINT.fullmatch(a.position_hint or "") or _HINT.fullmatch(fragment)
        out.append(Loc(path, int(m.group(1)), int(m.group(2))) if m else Loc(path, 0, 0))
    return tuple(out)


def credo_ranker(memory: Memory, lanes: dict[str, bool] | None = None) -> Ranker:
    """``lanes``: switches over the defaults (bench/topics.py runs lanes on and off)."""

    def rank(query: str) -> list[Hit]:
        result = memory.retrieve(
            query, token_budget=RANK_BUDGET, lanes=lanes, with_doc_anchors=True
        )
        anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
        return [anchor_locs(a) for a in anchors]

    return rank


def fts_ranker(index: base.FtsIndex) -> Ranker:
    def rank(query: str) -> list[Hit]:
        return [(Loc(u.path, u.start, u.end),) for u in index.search(query, K)]

    return rank


# -- one corpus ----------------------------------------------------------------------------


def run_corpus(
    corpus: Corpus,
    queries: list[Query],
    meta: dict[str, Any],
    *,
    pack: bool = False,
    match: str = "within",
    variants: dict[str, dict[str, bool]] | None = None,
) -> dict[str, Any]:
    """``variants``: more credo systems over the same store, each with its lane switches."""
    variants = variants or {}
    root = fetch(corpus)
    files = corpus.files(root)
    started = time.perf_counter()
    texts = {p.relative_to(root).as_posix(): base.read_lines(p) for p in files}
    read_s = time.perf_counter() - started
    problems = label_problems(queries, {rel: len(lines) for rel, lines in texts.items()})
    for problem in problems:
        print(f"docs_multi: {corpus.name}: label {problem}", file=sys.stderr)
    matches = make_rule(match, corpus.kind, texts, (loc for q in queries for loc in q.labels))
    rankings: dict[str, dict[str, list[Hit]]] = {}
    times: dict[str, dict[str, float]] = {}
    build: dict[str, dict[str, Any]] = {}
    packs: dict[str, dict[str, dict[str, Any]]] = {}  # --pack: system -> query -> scores

    def measure_pack(name: str, packer: docs_pack.Packer) -> None:
        packs[name] = {q.id: docs_pack.score(packer(q.text), q, matches) for q in queries}

    def measure(name: str, rank: Ranker) -> None:
        rankings[name], times[name] = {}, {}
        for q in queries:
            t = time.perf_counter()
            rankings[name][q.id] = rank(q.text)
            times[name][q.id] = (time.perf_counter() - t) * 1000

    with tempfile.TemporaryDirectory(prefix="credo-docs-multi-") as tmp:
        memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
        try:
            t = time.perf_counter()
            report = memory.ingest(*files)
            seconds = time.perf_counter() - t
            stats = memory.stats()
            build["credo"] = {
                "seconds": round(seconds, 3),
                "files_per_s": round(len(files) / seconds, 1),
                "files_ingested": report.files_ingested,
                "beliefs": stats.beliefs,
                "anchors": stats.anchors,
            }
            measure("credo", credo_ranker(memory))
            for name, lanes in variants.items():
                measure(name, credo_ranker(memory, lanes))
            if pack:
                measure_pack("credo", docs_pack.credo_pack(memory, texts, anchor_locs))
        finally:
            memory.close()
    unit_problems: list[str] = []
    t = time.perf_counter()
    layouts = base.layouts(corpus.kind, texts, unit_problems)
    cut_s = time.perf_counter() - t + read_s
    for problem in unit_problems:
        print(f"docs_multi: {corpus.name}: {problem}", file=sys.stderr)
    for name, (units, columns) in layouts.items():
        t = time.perf_counter()
        index = base.FtsIndex(units, columns)
        build[name] = {"seconds": round(time.perf_counter() - t + cut_s, 3), "rows": len(units)}
        try:
            measure(name, fts_ranker(index))
            if pack:
                measure_pack(
                    name,
                    lambda text, index=index: docs_pack.baseline_pack(
                        index, lambda u: Loc(u.path, u.start, u.end), text
                    ),
                )
        finally:
            index.close()
    systems = ["credo", *variants, *layouts]
    per_query = {
        name: {
            q.id: {**score_query(rankings[name][q.id], q, matches), "ms": times[name][q.id]}
            for q in queries
        }
        for name in systems
    }
    parts = subsets(queries)
    summary = {
        name: {sub: summarise(per_query[name], chosen) for sub, chosen in parts.items()}
        for name in systems
    }
    summary[BEST] = best_of({n: summary[n] for n in layouts})
    return {
        "corpus": corpus.name,
        "kind": corpus.kind,
        "root": str(root),
        "files": len(files),
        "query_file": meta,
        "queries_by_type": {sub: len(chosen) for sub, chosen in parts.items()},
        "query_types": {q.id: q.type for q in queries},
        "label_problems": problems,
        "unit_problems": unit_problems,
        "systems": systems,
        "baselines": list(layouts),
        "build": build,
        "summary": summary,
        "per_query": per_query,
        "top": {
            name: {
                q.id: [
                    [f"{loc.path}#L{loc.start}-L{loc.end}" for loc in hit]
                    for hit in rankings[name][q.id][:K]
                ]
                for q in queries
            }
            for name in systems
        },
        "verdict": verdict(summary),
        "pack": {name: docs_pack.summarise(list(rows.values())) for name, rows in packs.items()},
        "pack_per_query": packs,
    }


def best_of(summaries: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Per subset and quality metric, the best baseline's figure (and which one it was)."""
    out: dict[str, dict[str, Any]] = {}
    for sub in next(iter(summaries.values())):
        row: dict[str, Any] = {"queries": next(iter(summaries.values()))[sub]["queries"], "by": {}}
        for metric in QUALITY:
            scored = [
                (s[sub][metric], name)
                for name, s in summaries.items()
                if s[sub][metric] is not None
            ]
            if not scored:
                row[metric] = None
                continue
            value = max(v for v, _ in scored)
            row[metric] = value
            row["by"][metric] = [name for v, name in scored if v == value]
        row["p50_ms"] = None
        out[sub] = row
    return out


def verdict(summary: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    ours, best = summary["credo"]["all"], summary[BEST]["all"]
    metrics = {
        m: {"credo": ours[m], "best": best[m], "by": best["by"].get(m), "beats": ours[m] > best[m]}
        for m in QUALITY
        if ours[m] is not None and best[m] is not None
    }
    return {"metrics": metrics, "beats_all": all(v["beats"] for v in metrics.values())}


# -- across corpora ------------------------------------------------------------------------


def mean_over(results: Sequence[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    names: list[str] = []
    for r in results:
        names += [n for n in [*r["systems"], BEST] if n not in names]
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name in names:
        out[name] = {}
        for sub in ("all", *TYPES):
            rows = [r["summary"][name][sub] for r in results if sub in r["summary"].get(name, {})]
            if not rows:
                continue
            row: dict[str, Any] = {"corpora": len(rows), "queries": sum(x["queries"] for x in rows)}
            for metric in (*QUALITY, "p50_ms"):
                values = [x[metric] for x in rows if x[metric] is not None]
                row[metric] = statistics.fmean(values) if values else None
            out[name][sub] = row
    return out


def targets(mean: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    credo = mean.get("credo", {}).get("all", {})
    out = {
        m: {"value": credo.get(m), "target": t, "holds": credo.get(m) is not None and credo[m] >= t}
        for m, t in TARGETS.items()
    }
    return {"metrics": out, "all_hold": all(v["holds"] for v in out.values())}


# -- output --------------------------------------------------------------------------------


def _cell(value: float | None, width: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.3f}"


def table(
    summary: dict[str, dict[str, dict[str, Any]]],
    systems: Sequence[str],
    extra: Callable[[str], str] | None = None,
) -> list[str]:
    """Rows per system and subset; the mean table (no ``extra``) shows corpora averaged."""
    last = "build" if extra else "corpora"
    lines = [
        f"{'system':<15} {'subset':<8} {'n':>4} {'doc nDCG@10':>11} {'sec hit@5':>9} "
        f"{'sec MRR@10':>10} {'all-grp@10':>10} {'p50 ms':>7}  {last}"
    ]
    for name in systems:
        for sub, row in summary[name].items():
            p50 = "-" if row["p50_ms"] is None else f"{row['p50_ms']:.1f}"
            own = extra(name) if extra is not None and sub == "all" else ""
            tail = str(row["corpora"]) if extra is None else own
            line = (
                f"{name:<15} {sub:<8} {row['queries']:>4} {_cell(row['doc_ndcg@10'], 11)} "
                f"{_cell(row['section_hit@5'], 9)} {_cell(row['section_mrr@10'], 10)} "
                f"{_cell(row['all_groups@10'], 10)} {p50:>7}  {tail}"
            )
            lines.append(line.rstrip())
    return lines


def render(report: dict[str, Any], *, per_query: bool) -> str:
    out: list[str] = []
    for r in report["corpora"]:
        b = r["build"]

        def extra(name: str, b: dict[str, Any] = b) -> str:
            if name == "credo":
                return (
                    f"ingest {b['credo']['seconds']:.2f}s {b['credo']['files_per_s']:.0f} files/s"
                )
            if name in b:
                return f"index {b[name]['seconds']:.2f}s {b[name]['rows']} rows"
            return ""

        c = b["credo"]
        out += [
            f"== {r['corpus']} ({r['kind']}): {r['files']} files, credo {c['beliefs']} beliefs "
            f"{c['anchors']} anchors; queries {r['queries_by_type']}",
            *table(r["summary"], [*r["systems"], BEST], extra),
            "",
        ]
        if per_query:
            out += [*per_query_lines(r), ""]
    if report.get("pack_mean"):
        out += pack_lines(report)
    mean = report["mean"]
    variants = [n for r in report["corpora"] for n in r["systems"] if n.startswith("credo-")]
    order = [
        n for n in ("credo", *variants, *base.DOC_LAYOUTS, *base.CODE_LAYOUTS, BEST) if n in mean
    ]
    rule = report["config"].get("match", "overlap")
    out += [f"== mean over {len(report['corpora'])} corpora (unweighted; sections by {rule})"]
    out += table(mean, list(dict.fromkeys(order)))
    out.append("")
    for r in report["corpora"]:
        v = r["verdict"]
        head = "BEATS" if v["beats_all"] else "does NOT beat"
        out.append(f"verdict {r['corpus']}: credo {head} the strongest baseline on every metric:")
        for m, x in v["metrics"].items():
            sign = ">" if x["beats"] else "NOT >"
            by = "/".join(x["by"])
            out.append(f"    {m:<15} credo {x['credo']:.3f} {sign:<5} {x['best']:.3f} ({by})")
    t = report["targets"]
    head = "HOLD" if t["all_hold"] else "do NOT hold"
    out.append(f"targets (credo, mean over corpora): {head}")
    for m, x in t["metrics"].items():
        value = "-" if x["value"] is None else f"{x['value']:.3f}"
        out.append(f"    {m:<15} {value} >= {x['target']:.2f}: {'yes' if x['holds'] else 'NO'}")
    return "\n".join(out)


def pack_lines(report: dict[str, Any]) -> list[str]:
    """--pack: in-pack metrics per corpus and their mean (bench/docs_pack.py)."""
    out: list[str] = []
    for r in report["corpora"]:
        out += [f"== {r['corpus']}: in the pack at {docs_pack.PACK_BUDGET} tokens"]
        out += docs_pack.table(r["pack"])
        out += [docs_pack.credo_notes(r["pack"]["credo"]), ""]
    out += [f"== in the pack at {docs_pack.PACK_BUDGET} tokens, mean over corpora (unweighted)"]
    out += docs_pack.table(report["pack_mean"])
    out.append("")
    return out


def per_query_lines(r: dict[str, Any]) -> list[str]:
    """First matching rank per system (``-``: none in 10); multi adds groups found."""
    systems = r["systems"]
    lines = [f"{'query':<14} {'type':<7} " + " ".join(f"{s:>14}" for s in systems)]
    for qid in r["per_query"]["credo"]:
        cells = []
        for s in systems:
            x = r["per_query"][s][qid]
            cell = str(x["rank"] or "-")
            if x["all_groups@10"] is not None:
                cell += f" g{x['groups_found']}"
            cells.append(f"{cell:>14}")
        kind = r["query_types"][qid]
        lines.append(f"{qid:<14} {kind:<7} " + " ".join(cells))
    return lines


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(HERE.parent), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except OSError:
        return None
    return done.stdout.rstrip() if done.returncode == 0 else None


def versions() -> dict[str, Any]:
    """What produced the figures: the credo imported (and the tree's state), the tools."""

    def version(package: str) -> str | None:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return None

    changed = _git("status", "--porcelain", "--", "src")
    return {
        "credo": version("credo"),
        "credo_module": str(Path(credo.__file__).resolve().parent),
        "credo_git": _git("describe", "--always", "--dirty"),
        "credo_src_changes": changed.splitlines() if changed else [],
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "tree_sitter": version("tree-sitter"),
        "tree_sitter_javascript": version("tree-sitter-javascript"),
        "javascript_parser": base.javascript_status(),
    }


def warn_environment(prog: str) -> None:
    """Say on stderr when a variable credo.retrieve reads makes this run not the default."""
    for name in ("CREDO_INTENTIONAL_CLUSTERING", "CREDO_TOKEN_BUDGET"):
        if name in os.environ:
            print(
                f"{prog}: {name} is set; credo.retrieve reads it, so this is not the default",
                file=sys.stderr,
            )


def run_corpora(
    corpora: Sequence[Corpus],
    queries_dir: Path,
    *,
    pack: bool = False,
    prog: str = "docs_multi",
    match: str = "within",
    variants: dict[str, dict[str, bool]] | None = None,
) -> list[dict[str, Any]]:
    """Each corpus with a readable ``<queries_dir>/<name>.json``, run; the others skipped."""
    results = []
    for corpus in corpora:
        path = queries_dir / f"{corpus.name}.json"
        if not path.is_file():
            print(f"{prog}: {corpus.name}: no query file {path}; skipped", file=sys.stderr)
            continue
        try:
            queries, meta = load_queries(path)
        except (ValueError, KeyError, TypeError) as exc:
            print(
                f"{prog}: {corpus.name}: unreadable query file {path} ({exc}); skipped",
                file=sys.stderr,
            )
            continue
        results.append(run_corpus(corpus, queries, meta, pack=pack, match=match, variants=variants))
    return results


def build_report(
    results: list[dict[str, Any]],
    pinned: Sequence[Corpus],
    queries_dir: Path,
    *,
    pack: bool,
    match: str = "within",
) -> dict[str, Any]:
    """The whole report: config, the pinned corpora, every corpus' results and the mean."""
    mean = mean_over(results)
    return {
        "config": {
            "queries_dir": str(queries_dir),
            "token_budget": RANK_BUDGET,
            "k": K,
            "k_hit": K_HIT,
            "match": match,
            "fts_limit": K,
            "targets": TARGETS,
            "versions": versions(),
        },
        "corpora_pinned": {
            c.name: {
                "kind": c.kind,
                "project": c.project,
                "version": c.version,
                "licence": c.licence,
                "sha256": c.sha256,
            }
            for c in pinned
        },
        "corpora": results,
        "mean": mean,
        "targets": targets(mean),
        "pack_mean": docs_pack.mean_over([r["pack"] for r in results]) if pack else None,
    }


def write_json(report: dict[str, Any], out: Path | None) -> None:
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", "utf-8")


def add_match(parser: argparse.ArgumentParser) -> None:
    """The ``--match`` option (bench/heldout/run.py and bench/devsets/run.py share it)."""
    parser.add_argument(
        "--match",
        choices=RULES,
        default="within",
        help="when a hit matches a label section (bench/docs_match.py); default: within",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES, metavar="DIR")
    parser.add_argument(
        "--corpus",
        action="append",
        choices=sorted(BY_NAME),
        metavar="NAME",
        help="repeatable; default: every corpus with a query file",
    )
    parser.add_argument(
        "--per-query", action="store_true", help="first matching rank per query and system"
    )
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument(
        "--pack",
        action="store_true",
        help=f"also in-pack metrics at {docs_pack.PACK_BUDGET} tokens (bench/docs_pack.py)",
    )
    add_match(parser)
    add_lanes_off(parser)
    args = parser.parse_args(argv)
    apply_lanes_off(args.lanes_off)
    warn_environment("docs_multi")
    chosen = [c for c in CORPORA if not args.corpus or c.name in args.corpus]
    results = run_corpora(chosen, args.queries, pack=args.pack, match=args.match)
    if not results:
        print("docs_multi: no corpus has a query file", file=sys.stderr)
        return 2
    report = build_report(results, CORPORA, args.queries, pack=args.pack, match=args.match)
    print(render(report, per_query=args.per_query))
    write_json(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
