"""Document-linker benchmark (issue 5, acceptance A2): do document anchors earn their place?

    python bench/doc_linker.py [--json OUT] [--corpus DIR] [--per-query]

Corpus: ``tests/corpus/doc_linker/`` (README.md there: the attrs documentation tree, MIT,
and how the 62 labelled queries were written). The tree is ingested with ``Memory.ingest``
into a fresh store whose project root is the corpus folder, so anchors read
``docs/init.md#L167-L167``.

Systems, all run in this one process over the same chunks:

    credo-anchored    ``Memory.retrieve(query, token_budget=100_000, with_doc_anchors=True)``
                      on the store as ingested (ingest + derived anchors populated).
    credo-unanchored  the same call on a copy of that store (``VACUUM INTO``) with every
                      ``belief_documents`` row deleted: same beliefs, edges and FTS index,
                      no anchors, so the doc lane has nothing to match.
    fts5-baseline     a standalone SQLite FTS5 table (porter unicode61), one row per belief
                      (the same paragraph chunks), queried with an OR of quoted non-stopword
                      terms (credo's own ``query_terms``), ordered by bm25().

Figures (overall, for queries that name a file / page / URL, and for queries that do not):

    belief nDCG@10   relevant = beliefs whose text contains one of the row's
                     ``expected_texts`` (case and whitespace folded); binary gains.
    doc nDCG@10      the ranking mapped to documents: a result's documents are the files of
                     its ``ingest`` anchors (read from the anchored store for every system,
                     so the unanchored run is judged the same way), first occurrence kept;
                     relevant = ``expected_doc_uris``.
    section hit@5    share of queries with a top-5 result inside one of the row's
                     ``expected_sections`` (``file#Heading``: the lines from that heading to
                     the next heading of any level; Markdown ATX headings outside code fences,
                     reStructuredText underlined titles).

A2 holds when belief nDCG@10 of credo-anchored exceeds credo-unanchored. The 100,000-token
budget makes ``.beliefs`` the full ranked list (the corpus is ~750 beliefs), so the ranking
metrics see credo's order rather than a budget cut.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ablation import add_lanes_off, apply_lanes_off
from credo import Memory
from credo.config import Settings
from credo.store.fts import match_expression, query_terms
from metrics import ndcg_at_k

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "doc_linker"
RANK_BUDGET = 100_000
K_NDCG = 10
K_SECTION = 5
FTS_LIMIT = 100
SYSTEMS = ("credo-anchored", "credo-unanchored", "fts5-baseline")
SUBSETS = ("all", "names-doc", "no-doc-name")

_FENCE = re.compile(r"^\s*(```|~~~)")
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+.:_])\1{2,}\s*$")
_SPACE = re.compile(r"\s+")


# -- corpus --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Query:
    id: str
    text: str
    names: str | None  # "path", "file", "page", "url" or None: how the query names a doc
    expected_texts: tuple[str, ...]
    expected_sections: tuple[str, ...]  # "docs/init.md#Validators"
    expected_doc_uris: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Section:
    uri: str  # the file, repo-relative to the corpus folder
    title: str
    start: int  # first line (the heading), 1-based
    end: int  # last line before the next heading


def load_queries(path: Path) -> list[Query]:
    """Rows of ``queries.jsonl``; a malformed row is an error naming its line."""
    out: list[Query] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            out.append(
                Query(
                    id=str(row["id"]),
                    text=str(row["query"]),
                    names=row.get("names"),
                    expected_texts=tuple(row["expected_texts"]),
                    expected_sections=tuple(row["expected_sections"]),
                    expected_doc_uris=tuple(row["expected_doc_uris"]),
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: bad query row: {exc}") from exc
    return out


def clean_title(raw: str) -> str:
    """A heading as people write it in a label: markup (``*``, backticks) dropped."""
    return _SPACE.sub(" ", raw.replace("`", "").replace("*", "")).strip()


def sections(path: Path, uri: str) -> list[Section]:
    """The leaf sections of a Markdown or reStructuredText file.

    Why leaf sections: a label names the most specific heading a passage sits under, and a
    span that swallowed its subsections would make "section hit" nearly "document hit".
    Lines before the first heading belong to no section.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    heads: list[tuple[int, str]] = []
    if path.suffix == ".md":
        fenced = False
        for number, line in enumerate(lines, 1):
            if _FENCE.match(line):
                fenced = not fenced
            elif not fenced and (m := _ATX.match(line)):
                heads.append((number, clean_title(m.group(2))))
    else:
        for number, (line, under) in enumerate(itertools.pairwise(lines), 1):
            text = line.strip()
            if (
                text
                and not line.startswith(" ")
                and not _ADORNMENT.match(line)
                and _ADORNMENT.match(under)
                and len(under.rstrip()) >= len(text)
            ):
                heads.append((number, clean_title(text)))
    return [
        Section(uri, title, start, (heads[i + 1][0] - 1) if i + 1 < len(heads) else len(lines))
        for i, (start, title) in enumerate(heads)
    ]


def fold(text: str) -> str:
    """Case- and whitespace-folded text, for matching labels against belief contents."""
    return _SPACE.sub(" ", text).strip().casefold()


# -- the ingested store as the judge sees it -----------------------------------------------


@dataclass(slots=True)
class Judge:
    """What every system is judged against: the beliefs of the anchored store, each with
    its ingest spans (file, first line, last line), and the labelled sections."""

    content: dict[str, str]
    spans: dict[str, list[tuple[str, int, int]]]
    sections: dict[str, Section]  # "file#Title" -> span
    problems: list[str] = field(default_factory=list)

    def relevant(self, query: Query) -> set[str]:
        wanted = [fold(t) for t in query.expected_texts]
        return {i for i, text in self.content.items() if any(w in fold(text) for w in wanted)}

    def docs_of(self, ranked: Iterable[str]) -> list[str]:
        """The ranking as documents: each result's anchored files, first occurrence kept."""
        seen: dict[str, None] = {}
        for belief_id in ranked:
            for uri, _, _ in self.spans.get(belief_id, ()):
                seen.setdefault(uri, None)
        return list(seen)

    def in_sections(self, belief_id: str, labels: Sequence[str]) -> bool:
        for label in labels:
            section = self.sections.get(label)
            if section is None:
                continue
            for uri, start, _ in self.spans.get(belief_id, ()):
                if uri == section.uri and section.start <= start <= section.end:
                    return True
        return False


_HINT = re.compile(r"L(\d+)-L(\d+)")


def build_judge(memory: Memory, corpus: Path, queries: Sequence[Query]) -> Judge:
    """Read the anchored store and the corpus tree; list every label that resolves to
    nothing (an expected text no belief holds, a section or URI that does not exist)."""
    conn = memory.store.conn
    content = {
        str(r[0]): str(r[1])
        for r in conn.execute("SELECT id, content FROM beliefs WHERE deleted_at IS NULL")
    }
    spans: dict[str, list[tuple[str, int, int]]] = {}
    for belief_id, uri, hint in conn.execute(
        "SELECT belief_id, doc_uri, position_hint FROM belief_documents "
        "WHERE anchor_type = 'ingest' ORDER BY belief_id, created_at, doc_uri"
    ):
        match = _HINT.fullmatch(hint or "")
        if match:
            file_uri = str(uri).partition("#")[0]
            spans.setdefault(str(belief_id), []).append(
                (file_uri, int(match.group(1)), int(match.group(2)))
            )
    table: dict[str, Section] = {}
    for path in sorted((corpus / "docs").rglob("*")):
        if path.suffix in (".md", ".rst"):
            uri = path.relative_to(corpus).as_posix()
            for section in sections(path, uri):
                table.setdefault(f"{uri}#{section.title}", section)
    judge = Judge(content, spans, table)
    for query in queries:
        for text in query.expected_texts:
            if not any(fold(text) in fold(c) for c in content.values()):
                judge.problems.append(f"{query.id}: no belief holds {text!r}")
        for label in query.expected_sections:
            if label not in table:
                judge.problems.append(f"{query.id}: no section {label!r}")
        for uri in query.expected_doc_uris:
            if not (corpus / uri).is_file():
                judge.problems.append(f"{query.id}: no file {uri!r}")
    return judge


# -- systems -------------------------------------------------------------------------------

Ranker = Callable[[str], list[str]]


def credo_ranker(memory: Memory) -> Ranker:
    def rank(query: str) -> list[str]:
        result = memory.retrieve(query, token_budget=RANK_BUDGET, with_doc_anchors=True)
        return [b.id for b in result.beliefs if not b.locked]

    return rank


def fts_ranker(content: dict[str, str]) -> tuple[Ranker, sqlite3.Connection]:
    """The plain-FTS5 paragraph baseline: one row per chunk, bm25() order, ties by id."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE chunks USING fts5(id UNINDEXED, content, tokenize='porter unicode61')"
    )
    conn.executemany("INSERT INTO chunks(id, content) VALUES (?, ?)", sorted(content.items()))

    def rank(query: str) -> list[str]:
        expression = match_expression(query_terms(query))
        if expression is None:
            return []
        rows = conn.execute(
            "SELECT id FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks), id LIMIT ?",
            (expression, FTS_LIMIT),
        )
        return [str(r[0]) for r in rows]

    return rank, conn


# -- scoring -------------------------------------------------------------------------------


@dataclass(slots=True)
class Scores:
    belief_ndcg: dict[str, float] = field(default_factory=dict)
    doc_ndcg: dict[str, float] = field(default_factory=dict)
    section_hit: dict[str, float] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)


def score(rank: Ranker, judge: Judge, queries: Sequence[Query]) -> Scores:
    out = Scores()
    for query in queries:
        started = time.perf_counter()
        ranked = rank(query.text)
        out.ms[query.id] = (time.perf_counter() - started) * 1000
        relevant = judge.relevant(query)
        out.belief_ndcg[query.id] = ndcg_at_k(ranked, relevant, K_NDCG) if relevant else 0.0
        out.doc_ndcg[query.id] = ndcg_at_k(
            judge.docs_of(ranked), set(query.expected_doc_uris), K_NDCG
        )
        out.section_hit[query.id] = float(
            any(judge.in_sections(i, query.expected_sections) for i in ranked[:K_SECTION])
        )
    return out


def subset(queries: Sequence[Query], name: str) -> list[Query]:
    if name == "names-doc":
        return [q for q in queries if q.names is not None]
    if name == "no-doc-name":
        return [q for q in queries if q.names is None]
    return list(queries)


def summarise(scores: Scores, queries: Sequence[Query]) -> dict[str, Any]:
    ids = [q.id for q in queries]
    return {
        "queries": len(ids),
        "belief_ndcg@10": statistics.fmean(scores.belief_ndcg[i] for i in ids),
        "doc_ndcg@10": statistics.fmean(scores.doc_ndcg[i] for i in ids),
        "section_hit@5": statistics.fmean(scores.section_hit[i] for i in ids),
        "mean_ms": statistics.fmean(scores.ms[i] for i in ids),
    }


# -- run -----------------------------------------------------------------------------------


def unanchored_copy(memory: Memory, target: Path) -> Path:
    """The same store without a single anchor: VACUUM INTO keeps beliefs, edges, the FTS
    index and the ledger byte for byte; only belief_documents is emptied afterwards."""
    memory.store.conn.execute("VACUUM INTO ?", (str(target),))
    raw = sqlite3.connect(target)
    raw.execute("DELETE FROM belief_documents")
    raw.commit()
    raw.close()
    return target


def run(corpus: Path) -> dict[str, Any]:
    queries = load_queries(corpus / "queries.jsonl")
    settings = Settings()  # the defaults: no .credo.toml from the caller's folder
    with tempfile.TemporaryDirectory(prefix="credo-doc-linker-") as tmp:
        anchored = Memory(Path(tmp) / "anchored.db", root=corpus, settings=settings)
        started = time.perf_counter()
        report = anchored.ingest(corpus / "docs")
        ingest_s = time.perf_counter() - started
        judge = build_judge(anchored, corpus, queries)
        if judge.problems:
            raise SystemExit("corpus labels do not resolve:\n  " + "\n  ".join(judge.problems))
        copy = unanchored_copy(anchored, Path(tmp) / "unanchored.db")
        unanchored = Memory(copy, root=corpus, settings=settings)
        fts, fts_conn = fts_ranker(judge.content)
        rankers: dict[str, Ranker] = {
            "credo-anchored": credo_ranker(anchored),
            "credo-unanchored": credo_ranker(unanchored),
            "fts5-baseline": fts,
        }
        try:
            scores = {name: score(rank, judge, queries) for name, rank in rankers.items()}
            anchors = anchored.store.conn.execute(
                "SELECT anchor_type, count(*) FROM belief_documents GROUP BY 1 ORDER BY 1"
            ).fetchall()
            left = unanchored.store.conn.execute(
                "SELECT count(*) FROM belief_documents"
            ).fetchone()[0]
        finally:
            fts_conn.close()
            unanchored.close()
            anchored.close()
    summary = {
        name: {s: summarise(scores[name], subset(queries, s)) for s in SUBSETS} for name in SYSTEMS
    }
    a = summary["credo-anchored"]["all"]["belief_ndcg@10"]
    u = summary["credo-unanchored"]["all"]["belief_ndcg@10"]
    return {
        "corpus": str(corpus),
        "queries": len(queries),
        "queries_naming_a_doc": sum(q.names is not None for q in queries),
        "beliefs": len(judge.content),
        "anchors": {str(k): int(v) for k, v in anchors},
        "anchors_left_in_unanchored_copy": int(left),
        "ingest_seconds": round(ingest_s, 3),
        "files_ingested": report.files_ingested,
        "summary": summary,
        "per_query": {
            name: {
                q.id: {
                    "belief_ndcg@10": scores[name].belief_ndcg[q.id],
                    "doc_ndcg@10": scores[name].doc_ndcg[q.id],
                    "section_hit@5": scores[name].section_hit[q.id],
                }
                for q in queries
            }
            for name in SYSTEMS
        },
        "a2": {"anchored": a, "unanchored": u, "passed": a > u},
    }


def render(result: dict[str, Any], *, per_query: bool = False) -> str:
    lines = [
        f"corpus {result['corpus']}: {result['files_ingested']} files, "
        f"{result['beliefs']} beliefs, anchors {result['anchors']} "
        f"(unanchored copy: {result['anchors_left_in_unanchored_copy']}); "
        f"{result['queries']} queries, {result['queries_naming_a_doc']} name a doc",
        "",
        f"{'system':<18} {'subset':<12} {'n':>3} {'belief nDCG@10':>15} {'doc nDCG@10':>12} "
        f"{'section hit@5':>14} {'ms/q':>6}",
    ]
    for name in SYSTEMS:
        for sub in SUBSETS:
            row = result["summary"][name][sub]
            lines.append(
                f"{name:<18} {sub:<12} {row['queries']:>3} {row['belief_ndcg@10']:>15.3f} "
                f"{row['doc_ndcg@10']:>12.3f} {row['section_hit@5']:>14.3f} "
                f"{row['mean_ms']:>6.1f}"
            )
    a2 = result["a2"]
    verdict = "PASS" if a2["passed"] else "FAIL"
    lines += [
        "",
        f"A2 {verdict}: belief nDCG@10 anchored {a2['anchored']:.3f} "
        f"> unanchored {a2['unanchored']:.3f}",
    ]
    if per_query:
        lines.append("")
        lines.append(f"{'query':<6} " + " ".join(f"{s:>17}" for s in SYSTEMS))
        first = result["per_query"][SYSTEMS[0]]
        for qid in first:
            cells = " ".join(
                f"{result['per_query'][s][qid]['belief_ndcg@10']:>17.3f}" for s in SYSTEMS
            )
            lines.append(f"{qid:<6} {cells}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument("--per-query", action="store_true", help="belief nDCG@10 per query")
    add_lanes_off(parser)
    args = parser.parse_args(argv)
    if off := apply_lanes_off(args.lanes_off):
        print(f"lanes off: {', '.join(off)}")
    result = run(args.corpus.resolve())
    print(render(result, per_query=args.per_query))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", "utf-8")
    return 0 if result["a2"]["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
