"""Every multi-fact question missing a group in the first ten, and why (issue #14).

    python bench/docs_multi.py --json dm.json            # or bench/devsets/run.py,
    python bench/heldout/run.py --corpus NAME ... --json ho.json   # the same JSON
    python bench/group_misses.py dm.json ho.json [--corpus NAME ...] [--list] [--json OUT]

Reads the ``--json`` reports (refusing a held-out set's, as ``section_misses.py`` does),
takes each ``multi`` question whose credo all-groups@10 is 0, builds the corpus' store the
way the bench does (``Memory(db, root=corpus, settings=Settings())``, the same files) and
asks each question again with the bench's arguments (100,000 tokens, doc anchors), then
with the pipeline's cuts opened one by one. A group matches a hit under the report's rule
(``within`` by default). Each missing group gets one class, the first that holds:

    11-20, 21-50, past-50  its best hit's rank in the bench's own ranking
    budget                 one of its passages is in the result's ``dropped``
    superseded             one of its passages is in the result's ``superseded``
    floor                  found only with the relative relevance floor at 0 (rank given)
    keyword-limit          found only with the floor at 0 and 1,000 keyword hits (rank)
    no-candidate           never found; ``no-word`` when its labels hold none of the
                           question's stems

Beside the class: how many of the question's stems (``query_terms`` as the index stems
them) the group's best label holds, against the mean over the groups the first ten found,
and the stems the label holds that no first-ten hit holds (its text and trail); and the
crowd of the first ten: the most hits one found group has, the most one section (trail less
its lines) has, and how many hits match no group; and which FTS5 baselines of the report
have the group in their own first ten. The reports' first ten are checked
against the fresh ranking (a mismatch is said on stderr: a different tree or store).

``--json OUT`` keeps, per question, each group's class and the first 60 hits (id, score,
lanes, trail, the groups each matches), for simulating a re-ranking offline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_baselines as base
from credo import Memory
from credo.config import Settings
from credo.retrieval import pipeline
from credo.retrieval.lanes.line import query_stems
from credo.retrieval.specific import without_lines
from credo.store.fts import query_terms
from credo.store.stem import stem, tokens
from docs_match import Loc, make_rule
from docs_multi import RANK_BUDGET, Query, anchor_locs, load_queries
from section_misses import read_reports

K = 10
KEPT = 60  # hits kept per question in --json
WIDE_LIMIT = 1000  # keyword hits for the keyword-limit probe
CLASSES = (
    "11-20",
    "21-50",
    "past-50",
    "budget",
    "superseded",
    "floor",
    "keyword-limit",
    "no-candidate",
    "no-word",
)


@dataclass
class Missing:
    """One group a question's first ten lack."""

    corpus: str
    query: str
    group: int
    cls: str
    rank: int | None  # the default ranking's, or the probe's that found it
    held: int  # question stems its best label holds
    asked: int  # question stems
    found_held: float | None  # mean over the groups found
    new_stems: list[str] = field(default_factory=list)  # held by it, by no first-ten hit
    baselines: list[str] = field(default_factory=list)  # the baselines with it in their ten


@dataclass
class Question:
    corpus: str
    query: str
    text: str
    groups: int
    found: list[int]  # the groups in the first ten
    most_of_group: int  # the most first-ten hits one group has
    most_of_section: int  # the most first-ten hits one section has
    no_group: int  # first-ten hits matching no group
    missing: list[Missing]
    hits: list[dict[str, Any]]


def stems_of(text: str) -> set[str]:
    return {stem(t) for t in tokens(text)}


def group_ranks(
    hits: Sequence[Sequence[Loc]], groups: Sequence[Sequence[Loc]], match: Any
) -> list[list[int]]:
    """Per hit (1-based rank order), the groups it matches."""
    return [
        [
            g
            for g, labels in enumerate(groups)
            if any(match(loc, lab) for loc in hit for lab in labels)
        ]
        for hit in hits
    ]


def best_rank(matched: Sequence[Sequence[int]], group: int) -> int | None:
    return next((r for r, gs in enumerate(matched, 1) if group in gs), None)


def label_stems(texts: Mapping[str, list[str]], label: Loc) -> set[str]:
    lines = texts.get(label.path, [])
    return stems_of(" ".join(lines[label.start - 1 : label.end]))


def classify_group(
    group: int,
    rank: int | None,
    ids_of_group: set[str],
    dropped: set[str],
    superseded: set[str],
    probes: Sequence[tuple[str, int | None]],
) -> tuple[str, int | None]:
    """The class of a group missing from the first ten (module docstring's order)."""
    if rank is not None:
        return ("11-20" if rank <= 20 else "21-50" if rank <= 50 else "past-50"), rank
    if ids_of_group & dropped:
        return "budget", None
    if ids_of_group & superseded:
        return "superseded", None
    for name, at in probes:
        if at is not None:
            return name, at
    return "no-candidate", None


def _ranking(memory: Memory, text: str, options: pipeline.Options | None = None) -> Any:
    if options is None:
        return memory.retrieve(text, token_budget=RANK_BUDGET, with_doc_anchors=True)
    return pipeline.retrieve(memory.store, text, options)


def _locs(texts: Sequence[str]) -> tuple[Loc, ...]:
    """A report's hit (``path#L1-L9`` strings) as locations."""
    out = []
    for text in texts:
        path, cut, lines = text.rpartition("#L")  # (the range is last: "C#Lib.md#L1-L9")
        if not cut:
            path, lines = text, ""
        start, _, end = lines.partition("-L")
        out.append(Loc(path, int(start or 0), int(end or 0)))
    return tuple(out)


def _hits(result: Any) -> list[tuple[Loc, ...]]:
    anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
    return [anchor_locs(a) for a in anchors]


def study_corpus(result: Mapping[str, Any], corpus: Any, rule: str = "within") -> list[Question]:
    """The failing multi questions of one report entry, studied on a fresh store."""
    rows = result["per_query"]["credo"]
    queries, _ = load_queries(Path(result["query_file"]["file"]))
    failing = [q for q in queries if q.type == "multi" and rows[q.id]["all_groups@10"] == 0.0]
    if not failing:
        return []
    root = Path(result["root"])
    files = corpus.files(root)
    texts = {p.relative_to(root).as_posix(): base.read_lines(p) for p in files}
    labels = [loc for q in queries for loc in q.labels]
    match = make_rule(rule, result["kind"], texts, labels)
    out: list[Question] = []
    with tempfile.TemporaryDirectory(prefix="credo-group-misses-") as tmp:
        memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
        try:
            memory.ingest(*files)
            for q in failing:
                out.append(_study(memory, q, match, texts, result))
        finally:
            memory.close()
    return out


def _study(
    memory: Memory, q: Query, match: Any, texts: Mapping[str, list[str]], result: Mapping[str, Any]
) -> Question:
    res = _ranking(memory, q.text)
    hits = _hits(res)
    shown = [[f"{loc.path}#L{loc.start}-L{loc.end}" for loc in hit] for hit in hits[:K]]
    if shown != result["top"]["credo"][q.id]:
        print(f"group_misses: {q.id}: the first ten differ from the report's", file=sys.stderr)
    matched = group_ranks(hits, q.groups, match)
    options = memory._last_options._last[1]  # pyright: ignore[reportPrivateUsage]
    weights = options.weights._replace(floor=0.0)
    probes_made: dict[str, list[list[int]]] = {}
    group_ids: dict[int, set[str]] = {}

    def probe(name: str) -> list[list[int]]:
        if name not in probes_made:
            opts = options._replace(weights=weights)
            if name == "keyword-limit":
                opts = opts._replace(keyword_limit=WIDE_LIMIT)
            got = _ranking(memory, q.text, opts)
            probes_made[name] = group_ranks(_hits(got), q.groups, match)
            for b, gs in zip(got.beliefs, probes_made[name], strict=True):
                for g in gs:
                    group_ids.setdefault(g, set()).add(b.id)
        return probes_made[name]

    for b, gs in zip(res.beliefs, matched, strict=True):
        for g in gs:
            group_ids.setdefault(g, set()).add(b.id)
    asked = set(query_stems(query_terms(q.text)))
    top_stems: set[str] = set()
    for b in res.beliefs[:K]:
        top_stems |= stems_of(f"{b.content} {b.trail}")
    held = [max(len(label_stems(texts, lab) & asked) for lab in labels) for labels in q.groups]
    found = sorted({g for gs in matched[:K] for g in gs})
    found_held = statistics.fmean(held[g] for g in found) if found else None
    missing: list[Missing] = []
    for g in range(len(q.groups)):
        if g in found:
            continue
        rank = best_rank(matched, g)
        probes: list[tuple[str, int | None]] = []
        if rank is None:
            probes = [(n, best_rank(probe(n), g)) for n in ("floor", "keyword-limit")]
        cls, at = classify_group(
            g,
            rank,
            group_ids.get(g, set()),
            set(res.dropped),
            set(res.superseded),
            probes,
        )
        found_by = [
            name
            for name, tops in result["top"].items()
            if name != "credo"
            and best_rank(group_ranks([_locs(h) for h in tops.get(q.id, [])], q.groups, match), g)
        ]
        best = max(q.groups[g], key=lambda lab: len(label_stems(texts, lab) & asked))
        mine = label_stems(texts, best) & asked
        if cls == "no-candidate" and not mine:
            cls = "no-word"
        missing.append(
            Missing(
                str(result["corpus"]),
                q.id,
                g,
                cls,
                at,
                held[g],
                len(asked),
                found_held,
                sorted(mine - top_stems),
                found_by,
            )
        )
    per_group = Counter(g for gs in matched[:K] for g in gs)
    per_section = Counter(without_lines(b.trail) for b in res.beliefs[:K] if b.trail)
    kept = [
        {
            "id": b.id,
            "score": b.score,
            "lanes": dict(b.lanes),
            "trail": b.trail,
            "groups": gs,
            "locs": [f"{loc.path}#L{loc.start}-L{loc.end}" for loc in hit],
        }
        for b, gs, hit in list(zip(res.beliefs, matched, hits, strict=True))[:KEPT]
    ]
    return Question(
        str(result["corpus"]),
        q.id,
        q.text,
        len(q.groups),
        found,
        max(per_group.values(), default=0),
        max(per_section.values(), default=0),
        sum(not gs for gs in matched[:K]),
        missing,
        kept,
    )


def summary(name: str, questions: Sequence[Question]) -> list[str]:
    groups = [m for q in questions for m in q.missing]
    lines = [f"{name}: {len(questions)} questions miss {len(groups)} groups"]
    counts = Counter(m.cls for m in groups)
    lines.append(
        "  class          groups  held/asked (missing)  held (found groups)  new stems"
        "  a baseline finds"
    )
    for cls in CLASSES:
        mine = [m for m in groups if m.cls == cls]
        if not mine:
            continue
        fh = [m.found_held for m in mine if m.found_held is not None]
        held = statistics.fmean(m.held for m in mine)
        asked = statistics.fmean(m.asked for m in mine)
        lines.append(
            f"  {cls:<14} {counts[cls]:>6}  {held:5.2f}/{asked:5.2f}"
            f"           {statistics.fmean(fh) if fh else float('nan'):5.2f}"
            f"                {sum(bool(m.new_stems) for m in mine):>3}"
            f"  {sum(bool(m.baselines) for m in mine):>16}"
        )
    if questions:
        crowd = sum(q.most_of_group >= 2 for q in questions)
        sect = sum(q.most_of_section >= 2 for q in questions)
        none = statistics.fmean(q.no_group for q in questions)
        lines.append(
            f"  first ten: one group with 2+ hits in {crowd}, one section with 2+ hits in"
            f" {sect}; hits matching no group {none:.1f} of 10"
        )
    return lines


def corpus_object(name: str) -> Any:
    import docs_corpora
    from devsets import corpora as dev
    from heldout import corpora as held

    for registry in (docs_corpora.BY_NAME, dev.BY_NAME, held.BY_NAME):
        if name in registry:
            return registry[name]
    raise KeyError(f"no corpus named {name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("reports", nargs="+", type=Path, help="--json outputs of the benches")
    parser.add_argument("--corpus", action="append", metavar="NAME", help="repeatable")
    parser.add_argument("--list", action="store_true", help="each missing group")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    args = parser.parse_args(argv)
    studied: dict[str, list[Question]] = {}
    for path in args.reports:
        try:
            results = read_reports([path])
            rule = json.loads(path.read_text(encoding="utf-8"))["config"].get("match", "within")
        except (OSError, ValueError, KeyError) as exc:
            print(f"group_misses: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        for r in results:
            if args.corpus and r["corpus"] not in args.corpus:
                continue
            studied.setdefault(path.stem, []).extend(
                study_corpus(r, corpus_object(r["corpus"]), rule)
            )
    for name, questions in studied.items():
        print("\n".join(summary(name, questions)))
    if args.list:
        for questions in studied.values():
            for q in questions:
                for m in q.missing:
                    print(
                        f"{m.query:<28} g{m.group} {m.cls:<13} {m.rank or '-':>4} "
                        f"held {m.held}/{m.asked} (found {m.found_held or 0:.1f}) "
                        f"new {','.join(m.new_stems) or '-'} base {len(m.baselines)} "
                        f"crowd g{q.most_of_group} "
                        f"s{q.most_of_section} none{q.no_group}"
                    )
    if args.json:
        args.json.write_text(
            json.dumps({k: [asdict(q) for q in v] for k, v in studied.items()}, indent=1),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
