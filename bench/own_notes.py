"""A user's own notes inside a docs-heavy store: does a question find the note, and do the
notes crowd the docs out?

    python bench/own_notes.py [--corpus NAME ...] [--verbose] [--json OUT] [--match RULE]

Data: ``bench/own_notes/<corpus>.json``, one per docs tree, written before any system ran on
it (see each file's ``written_by``): a team that uses the library in its own product, its
``notes`` (30, said to the agent as ``credo remember`` stores them; each tagged ``words``:
``library`` when it leans on the library's own vocabulary, ``team`` when on the team's),
``earlier`` notes that two of them correct, one ``questions`` row per note (asked days later
in other words), six ``pairs`` (questions that need two notes), and ``doc_questions``: the
first N questions of the corpus's labelled query file (``query_file``, in file order).

Per corpus, in one run:

    store           a fresh credo store, ``Memory(db, root=corpus, settings=Settings())``,
                    ``memory.ingest(*files)`` as bench/docs_multi.py builds it (the docs-only
                    store: the doc questions run here first, the control), then the notes
                    through ``memory.remember`` as ``credo remember`` stores them: ``earlier``
                    first, then ``notes`` in file order, each with its ``kind`` and
                    ``origin`` (corrections: kind ``correction``, origin ``user_corrected``,
                    which supersedes what they clearly replace). The mixed store.
    credo           ``memory.retrieve(q, token_budget=100_000, with_doc_anchors=True)``: the
                    ranking is ``result.beliefs`` in order (docs_multi's). ``found``: the
                    note is anywhere in that whole result; ``cli``: in the result at the
                    default budget (what ``credo search`` and the MCP tool return); ``hook``:
                    in the hook's block (``hook.retrieve_for_hook`` at the hook's budget).
    fts5-all        SQLite FTS5 over the docs paragraphs with path words + heading trail
                    (docs_baselines' ``fts5-trail`` rows) and every note (``earlier`` too:
                    a simple index does not know what a correction replaced) as a row of
                    the same table, bm25 order. ``found``: the note row matches at all.
    fts5-two-pools  the 5 best notes (FTS5 over the notes alone), then the best doc rows
                    (the ``fts5-trail`` index of the docs alone) to fill 10. ``found``: the
                    note matches the notes index at all.
    fts5-trail      the docs alone: the baseline's docs-only control.

Metrics (ranks within 10 unless said):

    note questions  hit@1, hit@5, MRR@10 of the question's note; found, cli, hook as above.
                    Also MRR@10 over the ``library``-worded and the ``team``-worded notes.
    pairs           both@10: both notes in the first 10.
    doc questions   doc nDCG@10, section hit@5, section MRR@10 (docs_multi's scoring and
                    ``--match`` rule; a note in the ranking is a non-hit that takes its
                    rank) in the mixed store, beside the docs-only store.

``--verbose`` prints, per question, the rank of the note (pairs: of each note) per system
(``-``: not within the ranking, ``·`` in a cli/hook column: not there). Deterministic: sorted
files, FTS ties by rowid, credo's byte-identical retrieval; the JSON holds no timing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_baselines as base
import docs_multi
from credo import Memory
from credo.config import Settings
from credo.surfaces.hook import retrieve_for_hook
from devsets.corpora import DEV
from docs_corpora import CORPORA, Corpus, fetch
from docs_match import Loc, Match, make_rule
from heldout.corpora import HELDOUT, RESERVE, UNSPENT

HERE = Path(__file__).resolve().parent
DATA = HERE / "own_notes"
K = 10
K_HIT = 5
NOTES_FIRST = 5  # fts5-two-pools: this many notes, then docs
SYSTEMS = ("credo", "fts5-all", "fts5-two-pools")
DOC_SYSTEMS = ("credo", "fts5-all", "fts5-two-pools")
NOTE_PREFIX = "note:"
SETS: dict[str, tuple[Corpus, ...]] = {"docs": CORPORA, "dev": DEV, "heldout": HELDOUT}
NOT_HERE = frozenset((*UNSPENT, *RESERVE))  # never run by a helper (bench/heldout/README.md)


# -- data ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Note:
    id: str
    text: str
    kind: str
    origin: str
    words: str  # "library" | "team" | "" (earlier notes)


@dataclass(frozen=True, slots=True)
class Ask:
    """A question and the notes it needs (one for a note question, two for a pair)."""

    id: str
    text: str
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoteSet:
    corpus: str
    set: str
    query_file: str
    doc_questions: int
    earlier: tuple[Note, ...]
    notes: tuple[Note, ...]
    questions: tuple[Ask, ...]
    pairs: tuple[Ask, ...]
    sha256: str


def _note(raw: dict[str, Any]) -> Note:
    return Note(
        str(raw["id"]),
        str(raw["text"]),
        str(raw.get("kind", "factual")),
        str(raw.get("origin", "user_stated")),
        str(raw.get("words", "")),
    )


def load(path: Path) -> NoteSet:
    """One data file, checked (``problems``); raises ValueError naming what is wrong."""
    data = json.loads(path.read_text(encoding="utf-8"))
    notes = NoteSet(
        corpus=str(data["corpus"]),
        set=str(data["set"]),
        query_file=str(data["query_file"]),
        doc_questions=int(data["doc_questions"]),
        earlier=tuple(_note(n) for n in data.get("earlier", ())),
        notes=tuple(_note(n) for n in data["notes"]),
        questions=tuple(
            Ask(str(q["id"]), str(q["text"]), (str(q["note"]),)) for q in data["questions"]
        ),
        pairs=tuple(
            Ask(str(p["id"]), str(p["text"]), tuple(str(n) for n in p["notes"]))
            for p in data["pairs"]
        ),
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
    )
    if found := problems(notes):
        raise ValueError(f"{path}: {'; '.join(found)}")
    return notes


def problems(data: NoteSet) -> list[str]:
    """What is wrong with a data file: ids repeated, a question naming no note, a pair not
    of two distinct notes, a note without a question, a corpus a helper may not run."""
    out: list[str] = []
    ids = [n.id for n in (*data.earlier, *data.notes)]
    if len(set(ids)) != len(ids):
        out.append("a note id is repeated")
    asked = [a.id for a in (*data.questions, *data.pairs)]
    if len(set(asked)) != len(asked):
        out.append("a question id is repeated")
    known = {n.id for n in data.notes}
    for ask in data.questions:
        if len(ask.notes) != 1 or ask.notes[0] not in known:
            out.append(f"{ask.id}: names no note of 'notes'")
    for ask in data.pairs:
        if len(set(ask.notes)) != 2 or not set(ask.notes) <= known:
            out.append(f"{ask.id}: needs two distinct notes of 'notes'")
    if missing := sorted(known - {a.notes[0] for a in data.questions}):
        out.append(f"notes without a question: {', '.join(missing)}")
    if data.corpus in NOT_HERE:
        out.append(f"{data.corpus} is a held-out corpus kept for the lead")
    return out


def doc_questions(data: NoteSet) -> list[docs_multi.Query]:
    """The first ``doc_questions`` of the corpus's labelled query file, in file order."""
    queries, _ = docs_multi.load_queries(HERE / data.query_file)
    return queries[: data.doc_questions]


def corpus_of(data: NoteSet) -> Corpus:
    by_name = {c.name: c for c in SETS[data.set]}
    if data.corpus not in by_name or data.corpus in NOT_HERE:
        raise SystemExit(f"own_notes: {data.corpus} is not a corpus of the {data.set} set here")
    return by_name[data.corpus]


# -- rankings ------------------------------------------------------------------------------

# One ranked result: a doc hit's locations, or ("note", id) for a note; () for anything else.
Ranked = tuple[tuple[Loc, ...], str]


def note_rank(ranking: Sequence[Ranked], note: str, limit: int | None = K) -> int | None:
    """1-based rank of ``note`` within the first ``limit`` results (None: all)."""
    for rank, (_, which) in enumerate(ranking[:limit], 1):
        if which == note:
            return rank
    return None


def doc_hits(ranking: Sequence[Ranked]) -> list[docs_multi.Hit]:
    """The ranking as docs_multi scores it: a note is a non-hit that takes its rank."""
    return [locs for locs, _ in ranking]


class CredoSide:
    """The store, its notes' belief ids, and the three reads of a question."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.notes: dict[str, str] = {}  # belief id -> note id

    def add(self, notes: Iterable[Note]) -> dict[str, list[str]]:
        """Remember ``notes`` in order; per note, the edges its write made (corrections)."""
        edges: dict[str, list[str]] = {}
        for note in notes:
            belief = self.memory.remember(note.text, kind=note.kind, origin=note.origin)
            self.notes[belief] = note.id
            made = [
                f"{e.type.value} {self.notes.get(e.dst, e.dst)}"
                for e in self.memory.edges(belief)
                if e.src == belief
            ]
            if made:
                edges[note.id] = sorted(made)
        return edges

    def ranking(self, query: str) -> list[Ranked]:
        result = self.memory.retrieve(
            query, token_budget=docs_multi.RANK_BUDGET, with_doc_anchors=True
        )
        anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
        return [
            (docs_multi.anchor_locs(a), self.notes.get(b.id, ""))
            for b, a in zip(result.beliefs, anchors, strict=True)
        ]

    def shown(self, query: str) -> tuple[set[str], set[str]]:
        """The notes in the default-budget result (cli) and in the hook's block."""
        cli = self.memory.retrieve(query, with_doc_anchors=True)
        hook, _ = retrieve_for_hook(self.memory, query, self.memory.settings.hook.token_budget)
        return (
            {self.notes[b.id] for b in cli.beliefs if b.id in self.notes},
            {self.notes[b.id] for b in hook.beliefs if b.id in self.notes},
        )


def _ranked(units: Sequence[base.Unit]) -> list[Ranked]:
    return [
        ((), u.path[len(NOTE_PREFIX) :])
        if u.path.startswith(NOTE_PREFIX)
        else ((Loc(u.path, u.start, u.end),), "")
        for u in units
    ]


class FtsSide:
    """The three FTS5 indexes: docs alone, docs + notes, notes alone."""

    def __init__(self, docs: list[base.Unit], notes: Sequence[Note]) -> None:
        rows = [base.Unit(NOTE_PREFIX + n.id, 0, 0, n.text) for n in notes]
        self.size = len(docs) + len(rows)
        self.docs = base.FtsIndex(docs, "joined")
        self.all = base.FtsIndex([*docs, *rows], "joined")
        self.notes = base.FtsIndex(rows, "text")

    def ranking(self, system: str, query: str, limit: int = K) -> list[Ranked]:
        if system == "fts5-trail":
            return _ranked(self.docs.search(query, limit))
        if system == "fts5-all":
            return _ranked(self.all.search(query, limit))
        notes = _ranked(self.notes.search(query, NOTES_FIRST))
        return notes + _ranked(self.docs.search(query, max(limit - len(notes), 0)))

    def matches(self, system: str, query: str) -> set[str]:
        """The notes whose row matches ``query`` at all, in the index ``system`` reads."""
        index = self.all if system == "fts5-all" else self.notes
        return {which for _, which in _ranked(index.search(query, self.size)) if which}

    def close(self) -> None:
        for index in (self.docs, self.all, self.notes):
            index.close()


# -- one corpus ----------------------------------------------------------------------------


def score_note(ranking: Sequence[Ranked], note: str) -> dict[str, Any]:
    rank = note_rank(ranking, note)
    return {
        "rank": rank,
        "hit@1": float(rank == 1),
        "hit@5": float(rank is not None and rank <= K_HIT),
        "mrr@10": 1.0 / rank if rank else 0.0,
    }


def run_corpus(
    name: str,
    root: Path,
    files: Sequence[Path],
    data: NoteSet,
    docs: Sequence[docs_multi.Query],
    *,
    kind: str = "docs",
    match: str = "within",
) -> dict[str, Any]:
    """Every figure of one corpus (module docstring); per-question rows under ``per_query``."""
    texts = {p.relative_to(root).as_posix(): base.read_lines(p) for p in files}
    bad = docs_multi.label_problems(docs, {rel: len(lines) for rel, lines in texts.items()})
    for problem in bad:
        print(f"own_notes: {name}: label {problem}", file=sys.stderr)
    rule = make_rule(match, kind, texts, (loc for q in docs for loc in q.labels))
    every = (*data.earlier, *data.notes)
    doc_rows: dict[str, dict[str, dict[str, Any]]] = {}
    note_rows: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in SYSTEMS}
    pair_rows: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in SYSTEMS}
    with tempfile.TemporaryDirectory(prefix="credo-own-notes-") as tmp:
        memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
        try:
            memory.ingest(*files)
            side = CredoSide(memory)
            doc_rows["credo-docs"] = _doc_scores(side.ranking, docs, rule)
            edges = side.add(every)
            beliefs = memory.stats().beliefs
            doc_rows["credo"] = _doc_scores(side.ranking, docs, rule)
            for ask in data.questions:
                ranking = side.ranking(ask.text)
                cli, hook = side.shown(ask.text)
                note = ask.notes[0]
                note_rows["credo"][ask.id] = {
                    **score_note(ranking, note),
                    "found": float(note_rank(ranking, note, None) is not None),
                    "whole_rank": note_rank(ranking, note, None),
                    "cli": float(note in cli),
                    "hook": float(note in hook),
                }
            for ask in data.pairs:
                pair_rows["credo"][ask.id] = _pair_score(side.ranking(ask.text), ask)
        finally:
            memory.close()
    fts = FtsSide([u for rel, lines in texts.items() for u in base.trail_units(rel, lines)], every)
    try:
        doc_rows["fts5-trail"] = _doc_scores(lambda q: fts.ranking("fts5-trail", q), docs, rule)
        for system in SYSTEMS[1:]:
            doc_rows[system] = _doc_scores(lambda q, s=system: fts.ranking(s, q), docs, rule)
            for ask in data.questions:
                note = ask.notes[0]
                note_rows[system][ask.id] = {
                    **score_note(fts.ranking(system, ask.text), note),
                    "found": float(note in fts.matches(system, ask.text)),
                }
            for ask in data.pairs:
                pair_rows[system][ask.id] = _pair_score(fts.ranking(system, ask.text), ask)
    finally:
        fts.close()
    words = {n.id: n.words for n in data.notes}
    return {
        "corpus": name,
        "data_sha256": data.sha256,
        "files": len(files),
        "beliefs": beliefs,
        "label_problems": bad,
        "edges": edges,
        "notes": summarise_notes(note_rows, data.questions, words),
        "pairs": {s: _mean(r["both@10"] for r in rows.values()) for s, rows in pair_rows.items()},
        "docs": {s: summarise_docs(rows) for s, rows in doc_rows.items()},
        "per_query": {"notes": note_rows, "pairs": pair_rows, "docs": doc_rows},
    }


def _doc_scores(
    rank: Any, queries: Sequence[docs_multi.Query], rule: Match
) -> dict[str, dict[str, Any]]:
    return {q.id: docs_multi.score_query(doc_hits(rank(q.text)), q, rule) for q in queries}


def _pair_score(ranking: Sequence[Ranked], ask: Ask) -> dict[str, Any]:
    ranks = [note_rank(ranking, n) for n in ask.notes]
    return {"ranks": ranks, "both@10": float(all(r is not None for r in ranks))}


def _mean(values: Iterable[float]) -> float:
    listed = list(values)
    return statistics.fmean(listed) if listed else 0.0


NOTE_METRICS = ("hit@1", "hit@5", "mrr@10", "found", "cli", "hook")
DOC_METRICS = ("doc_ndcg@10", "section_hit@5", "section_mrr@10")


def summarise_notes(
    rows: dict[str, dict[str, dict[str, Any]]], asks: Sequence[Ask], words: dict[str, str]
) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for system, by_id in rows.items():
        got = [by_id[a.id] for a in asks]
        row: dict[str, float | None] = {
            m: _mean(r[m] for r in got) if m in got[0] else None for m in NOTE_METRICS
        }
        for side in ("library", "team"):
            chosen = [by_id[a.id]["mrr@10"] for a in asks if words.get(a.notes[0]) == side]
            row[f"mrr@10 {side}"] = _mean(chosen) if chosen else None
        out[system] = row
    return out


def summarise_docs(rows: dict[str, dict[str, Any]]) -> dict[str, float]:
    return {m: _mean(r[m] for r in rows.values()) for m in DOC_METRICS}


# -- across corpora and output -------------------------------------------------------------


def mean_of(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The unweighted mean over corpora of every summary figure."""

    def avg(values: Iterable[float | None]) -> float | None:
        kept = [v for v in values if v is not None]
        return statistics.fmean(kept) if kept else None

    first = results[0]
    return {
        "notes": {
            s: {m: avg(r["notes"][s][m] for r in results) for m in first["notes"][s]}
            for s in first["notes"]
        },
        "pairs": {s: avg(r["pairs"][s] for r in results) for s in first["pairs"]},
        "docs": {
            s: {m: avg(r["docs"][s][m] for r in results) for m in DOC_METRICS}
            for s in first["docs"]
        },
    }


def _cell(value: float | None) -> str:
    return f"{'-':>7}" if value is None else f"{value:7.3f}"


def render(results: Sequence[dict[str, Any]], mean: dict[str, Any]) -> str:
    head = "".join(f"{m:>7}" for m in ("hit@1", "hit@5", "MRR", "found", "cli", "hook"))
    lines = [
        "note questions (30 a corpus) and two-note questions (both@10); MRR of library- and "
        "team-worded notes",
        f"{'corpus':14}{'system':16}{head}{'lib':>7}{'team':>7}{'both':>7}",
    ]
    blocks = [*((r["corpus"], r) for r in results), ("mean", mean)]
    for name, r in blocks:
        for system in SYSTEMS:
            n = r["notes"][system]
            cells = "".join(_cell(n[m]) for m in NOTE_METRICS)
            lines.append(
                f"{name:14}{system:16}{cells}{_cell(n['mrr@10 library'])}"
                f"{_cell(n['mrr@10 team'])}{_cell(r['pairs'][system])}"
            )
    lines += [
        "",
        "doc questions: mixed store (notes in) beside docs only",
        f"{'corpus':14}{'system':16}{'nDCG':>7}{'hit@5':>7}{'MRR':>7}   docs only:"
        f"{'nDCG':>7}{'hit@5':>7}{'MRR':>7}",
    ]
    controls = {"credo": "credo-docs", "fts5-all": "fts5-trail", "fts5-two-pools": "fts5-trail"}
    for name, r in blocks:
        for system in DOC_SYSTEMS:
            mixed = "".join(_cell(r["docs"][system][m]) for m in DOC_METRICS)
            alone = "".join(_cell(r["docs"][controls[system]][m]) for m in DOC_METRICS)
            lines.append(f"{name:14}{system:16}{mixed}{' ' * 13}{alone}")
    return "\n".join(lines)


def _mark(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def render_verbose(result: dict[str, Any], data: NoteSet) -> str:
    rows = result["per_query"]
    words = {n.id: n.words for n in data.notes}
    lines = [
        f"{result['corpus']}: rank of the note per system (credo: within 10 / in the whole "
        "result; cli, hook: shown there)",
        f"{'q':5}{'note':6}{'words':9}{'credo':>7}{'whole':>7}{'cli':>5}{'hook':>5}"
        f"{'all':>6}{'pools':>6}  question",
    ]
    for ask in data.questions:
        c = rows["notes"]["credo"][ask.id]
        note = ask.notes[0]
        lines.append(
            f"{ask.id:5}{note:6}{words[note]:9}{_mark(c['rank']):>7}{_mark(c['whole_rank']):>7}"
            f"{'y' if c['cli'] else '·':>5}{'y' if c['hook'] else '·':>5}"
            f"{_mark(rows['notes']['fts5-all'][ask.id]['rank']):>6}"
            f"{_mark(rows['notes']['fts5-two-pools'][ask.id]['rank']):>6}  {ask.text}"
        )
    lines.append(f"{'pair':5}{'notes':14}{'credo':>8}{'all':>8}{'pools':>8}  question")
    for ask in data.pairs:
        cells = "".join(
            f"{'/'.join(_mark(r) for r in rows['pairs'][s][ask.id]['ranks']):>8}" for s in SYSTEMS
        )
        lines.append(f"{ask.id:5}{'+'.join(ask.notes):14}{cells}  {ask.text}")
    lines.append(f"{'doc q':18}{'credo':>7}{'docs':>6}{'all':>6}{'pools':>6}{'trail':>6}")
    for qid in rows["docs"]["credo"]:
        ranks = "".join(
            f"{_mark(rows['docs'][s][qid]['rank']):>6}"
            for s in ("credo-docs", "fts5-all", "fts5-two-pools", "fts5-trail")
        )
        lines.append(f"{qid:18}{_mark(rows['docs']['credo'][qid]['rank']):>7}{ranks}")
    return "\n".join(lines)


def data_files(names: Sequence[str]) -> list[Path]:
    paths = sorted(DATA.glob("*.json"))
    if names:
        known = {p.stem for p in paths}
        if unknown := sorted(set(names) - known):
            raise SystemExit(
                f"own_notes: no data for {', '.join(unknown)} (known: {sorted(known)})"
            )
        paths = [p for p in paths if p.stem in names]
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME")
    parser.add_argument("--verbose", action="store_true", help="per question ranks")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    docs_multi.add_match(parser)
    args = parser.parse_args(argv)
    os.environ.setdefault("CREDO_GLOBAL_DB", "off")  # the user's own global locks stay out
    docs_multi.warn_environment("own_notes")
    results: list[dict[str, Any]] = []
    for path in data_files(args.corpus):
        data = load(path)
        corpus = corpus_of(data)
        root = fetch(corpus)
        result = run_corpus(
            corpus.name,
            root,
            corpus.files(root),
            data,
            doc_questions(data),
            kind=corpus.kind,
            match=args.match,
        )
        results.append(result)
        if args.verbose:
            print(render_verbose(result, data), end="\n\n", flush=True)
    if not results:
        print("own_notes: no data file", file=sys.stderr)
        return 2
    mean = mean_of(results)
    print(render(results, mean))
    if args.json is not None:
        report = {
            "config": {
                "k": K,
                "k_hit": K_HIT,
                "notes_first": NOTES_FIRST,
                "match": args.match,
                "versions": docs_multi.versions(),
            },
            "corpora": results,
            "mean": mean,
        }
        docs_multi.write_json(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
