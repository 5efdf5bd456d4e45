"""Every question whose first labelled section is not first, by what ranks first (issue #14).

    python bench/docs_multi.py --json dm.json            # or bench/devsets/run.py,
    python bench/heldout/run.py --corpus NAME ... --json ho.json   # the same JSON
    python bench/section_misses.py dm.json ho.json [--corpus NAME ...] [--system NAME ...]
                                   [--list]

Reads the ``--json`` reports (each system's first 10 hits per question, ``top``, and its
first matching rank) with the query files and corpus trees they name; it never re-ranks.
A question misses when its section MRR@10 is below 1: its first match (under the report's
rule, ``within`` by default) is at rank 2-10 or not in the first 10. The hit at rank 1 is
then placed against the question's labels by the bench's own readers
(``docs_baselines``: a Markdown / reStructuredText file's headings, a code file's
definitions), the same for every system:

    other-file    no label is in its file (any of its locations)
    wide          it overlaps a label's lines but has more lines outside the label's extent
                  than the match rule allows (a class head over a method label)
    same-section  it lies in a label's section (docs: the label's innermost heading; code:
                  the label's innermost definition) and misses the label's lines: a label
                  marking one paragraph or bullet of a section, or the match rule's
                  boundary
    parent        its section holds the label's (a page's or section's introduction; in
                  code, a class head above a method)
    child         the label's section holds its section
    sibling       its section and the label's are under the same parent
    far           same file, anything else (in code: module-level code, a method of another
                  class)
    none          the system returned no hit with a path

With labels in the hit's file, the closest relation counts (in the order above, from
``wide``). Per class: questions, how many have the first match at ranks 2-10 and how
many none in 10, per question type, and the MRR@10 the class costs (the sum of 1 - MRR
over its questions, and that over every question read: the points of the mean MRR@10 it
costs). ``--list`` prints each miss of the first system named (credo by default).
"""

from __future__ import annotations

import argparse
import bisect
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import docs_baselines as base
from docs_match import Loc, lead_start, make_rule
from docs_multi import Query, load_queries
from heldout import corpora as heldout_corpora

CLASSES = ("other-file", "wide", "same-section", "parent", "child", "sibling", "far", "none")
TYPES = ("topical", "path", "multi", "code")
K = 10


@dataclass
class Sections:
    """A file's sections: (first line, last line, key) sorted by first line. A key is a
    tuple naming the section from the file's top: heading line numbers (docs) or a
    definition's qualified name (code); () is the file's top level."""

    spans: list[tuple[int, int, tuple[Any, ...]]] = field(default_factory=list)

    def key_of(self, start: int, end: int) -> tuple[Any, ...]:
        """The innermost section holding lines ``start``-``end`` (the top level if none)."""
        best: tuple[Any, ...] = ()
        at = bisect.bisect_right(self.spans, (start, sys.maxsize, ()))
        for first, last, key in self.spans[:at]:
            if first <= start and end <= last and len(key) >= len(best):
                best = key
        return best


def doc_sections(relative: str, lines: Sequence[str]) -> Sections:
    """Each heading opens a section that runs to the line before the next heading of its
    level or higher; its key is the heading lines from the outermost down."""
    heads = base.headings(relative, lines)
    spans: list[tuple[int, int, tuple[Any, ...]]] = []
    stack: list[tuple[int, int]] = []  # (level, line)
    for i, (line, level, _) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, line))
        last = next((h[0] - 1 for h in heads[i + 1 :] if h[1] <= level), len(lines))
        spans.append((line, last, tuple(n for _, n in stack)))
    return Sections(sorted(spans))


def code_sections(relative: str, lines: Sequence[str]) -> Sections:
    """Each definition the function baselines read is a section keyed by its qualified
    name, from its lead (the doc comment and decorators above it, as the match rule reads
    them) to its last line; a file no reader parses (or that does not parse) has only its
    top level."""
    source = "\n".join(lines) + "\n"
    found: list[base.Definition] | None = None
    try:
        if relative.endswith(".py"):
            found = base.python_definitions(source)
        elif relative.endswith((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")):
            found = base.javascript_definitions(source, relative.endswith((".ts", ".mts", ".cts")))
        elif relative.endswith((".go", ".rs")):
            found = base.tree_definitions(source, "go" if relative.endswith(".go") else "rust")
    except SyntaxError:
        found = None
    return Sections(
        sorted((lead_start(lines, start), end, name) for start, end, name, _ in found or [])
    )


def relation(hit: tuple[Any, ...], label: tuple[Any, ...]) -> str:
    if hit == label:
        return "same-section"
    if label[: len(hit)] == hit:
        return "parent"
    if hit[: len(label)] == label:
        return "child"
    if len(hit) == len(label) and hit[:-1] == label[:-1]:
        return "sibling"
    return "far"


@dataclass
class Corpus:
    name: str
    kind: str
    queries: dict[str, Query]
    match: Any
    extents: Mapping[Loc, tuple[int, int]]
    sections: dict[str, Sections]

    @staticmethod
    def code_file(path: str) -> bool:
        return not path.endswith((".md", ".rst"))


def _loc(text: str) -> Loc:
    path, cut, lines = text.rpartition("#L")  # (the range is last: "C#Lib.md#L1-L9")
    if not cut:
        path, lines = text, ""
    start, _, end = lines.partition("-L")
    return Loc(path, int(start or 0), int(end or 0))


def read_corpus(result: Mapping[str, Any]) -> Corpus:
    """The query file and the files of the tree a report's corpus entry names."""
    queries, _ = load_queries(Path(result["query_file"]["file"]))
    root = Path(result["root"])
    labels = [label for q in queries for label in q.labels]
    texts = {p: base.read_lines(root / p) for p in {label.path for label in labels}}
    match = make_rule("within", result["kind"], texts, labels)
    sections = {
        p: code_sections(p, lines) if Corpus.code_file(p) else doc_sections(p, lines)
        for p, lines in texts.items()
    }
    return Corpus(
        result["corpus"],
        result["kind"],
        {q.id: q for q in queries},
        match,
        getattr(match, "extents", {}),
        sections,
    )


def classify(corpus: Corpus, query: Query, first: Sequence[str]) -> str:
    """The class of a miss whose rank-1 hit has the locations ``first``."""
    locs = [_loc(text) for text in first]
    if not locs:
        return "none"
    found = []
    for loc in locs:
        for label in query.labels:
            if label.path != loc.path:
                continue
            if loc.start <= label.end and label.start <= loc.end:
                found.append("wide")
                continue
            lo, hi = corpus.extents.get(label, (label.start, label.end))
            secs = corpus.sections[label.path]
            mine = secs.key_of(loc.start, loc.end)
            theirs = secs.key_of(label.start, label.end)
            inside = loc.start <= hi and lo <= loc.end
            if inside:
                found.append("same-section")
            elif not mine and theirs and corpus.code_file(label.path):
                found.append("far")  # module-level code holds no definition
            else:
                found.append(relation(mine, theirs))
    return min(found, key=CLASSES.index) if found else "other-file"


@dataclass
class Miss:
    corpus: str
    kind: str
    query: str
    qtype: str
    rank: int | None
    cls: str
    first: str


def misses(result: Mapping[str, Any], corpus: Corpus, system: str) -> tuple[list[Miss], int]:
    """(the misses of ``system`` on one corpus, the questions it answered)."""
    rows = result["per_query"][system]
    tops = result["top"][system]
    out: list[Miss] = []
    for qid, row in rows.items():
        rank = row["rank"]
        if rank == 1:
            continue
        first = tops[qid][0] if tops[qid] else []
        cls = classify(corpus, corpus.queries[qid], first)
        out.append(
            Miss(
                corpus.name,
                corpus.kind,
                qid,
                result["query_types"][qid],
                rank,
                cls,
                first[0] if first else "-",
            )
        )
    return out, len(rows)


def table(found: Sequence[Miss], total: int) -> list[str]:
    head = f"  {'class':<13} {'n':>4} {'2-10':>5} {'none':>5} "
    head += " ".join(f"{t:>7}" for t in TYPES) + "  MRR lost  of mean"
    lines = [head]
    for cls in CLASSES:
        mine = [m for m in found if m.cls == cls]
        if not mine:
            continue
        lost = sum(1 - (1 / m.rank if m.rank else 0.0) for m in mine)
        by_type = " ".join(f"{sum(m.qtype == t for m in mine):>7}" for t in TYPES)
        lines.append(
            f"  {cls:<13} {len(mine):>4} {sum(m.rank is not None for m in mine):>5} "
            f"{sum(m.rank is None for m in mine):>5} {by_type}  {lost:8.2f}  "
            f"{lost / max(total, 1):.4f}"
        )
    lost = sum(1 - (1 / m.rank if m.rank else 0.0) for m in found)
    lines.append(f"  {'all':<13} {len(found):>4} of {total} questions; MRR lost {lost:.2f}")
    return lines


def read_reports(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The reports' corpus entries, the last of each name; a held-out set's (by name, or a
    tree or query file under a folder named for one) refused before its files are read."""
    held_out = {*heldout_corpora.UNSPENT, *heldout_corpora.RESERVE}
    by_name: dict[str, dict[str, Any]] = {}
    for path in paths:
        for result in json.loads(path.read_text(encoding="utf-8"))["corpora"]:
            places = (
                Path(result.get("root", "")),
                Path(result.get("query_file", {}).get("file", "")),
            )
            folders = {part.lower() for place in places for part in place.parts}
            if result["corpus"] in held_out or any(
                f == h or f.startswith(f"{h}-") for f in folders for h in held_out
            ):
                raise SystemExit(f"section_misses: {result['corpus']} is held out: never read")
            by_name[result["corpus"]] = result
    return list(by_name.values())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("reports", nargs="+", type=Path, help="--json outputs of the benches")
    parser.add_argument("--corpus", action="append", metavar="NAME", help="repeatable")
    parser.add_argument(
        "--system", action="append", metavar="NAME", help="repeatable (default: every one)"
    )
    parser.add_argument("--list", action="store_true", help="each miss of the first system")
    args = parser.parse_args(argv)
    try:
        results = read_reports(args.reports)
        if args.corpus:
            results = [r for r in results if r["corpus"] in args.corpus]
        corpora = {r["corpus"]: read_corpus(r) for r in results}
    except (OSError, ValueError, KeyError) as exc:
        print(f"section_misses: cannot read the reports: {exc}", file=sys.stderr)
        return 2
    ran = sorted({s for r in results for s in r["per_query"]}, key=lambda s: (s != "credo", s))
    systems = args.system or ran
    for system in systems:
        for kind in ("docs", "code"):
            found: list[Miss] = []
            total = 0
            for r in results:
                if r["kind"] != kind or system not in r["per_query"]:
                    continue
                mine, n = misses(r, corpora[r["corpus"]], system)
                found += mine
                total += n
            if total:
                print(f"{system}, {kind} corpora:")
                print("\n".join(table(found, total)))
    if args.list and systems:
        for r in results:
            if systems[0] in r["per_query"]:
                for m in misses(r, corpora[r["corpus"]], systems[0])[0]:
                    print(f"{m.query:<26} {m.qtype:<7} {m.rank or '-':>3} {m.cls:<13} {m.first}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
