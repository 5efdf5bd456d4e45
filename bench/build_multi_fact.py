"""Build the A1 multi-fact corpus (issue 4) from the standard library's own docstrings.

    python bench/build_multi_fact.py [--out tests/corpus/multi_fact]

Why docstrings: they are real, edited English documentation that ships with every Python
(PSF License 2.0, permissive), they are structured (module -> class/function -> paragraphs)
so the graph edges come from the text's own structure rather than from a generator, and
different modules reuse the same vocabulary ("file", "return", "string", "data"), which
gives every query natural lexical distractors.

Input: labels.tsv in the output folder, the hand-written queries and their labels.
Output (deterministic for a given Python build; the committed files come from 3.11.7):
    records.jsonl      beliefs and edges in credo's records format
    queries.jsonl      multi-fact rows: query, expected_belief_ids, expected_clusters,
                       n_clusters_required, tag (complementary|conjunctive|sequential)
    single_fact.jsonl  single-fact rows (one facet) for the A3 non-regression check

Graph built from structure (see README.md in the output folder):
    section heading  -DERIVED_FROM(0.5)->  module heading
    sentence         -DERIVED_FROM(0.5)->  its section heading
    later sentence of a paragraph -SUPPORTS(1.0)-> the paragraph's first sentence
    sentence naming another section of the same module  -CITES(0.5)->  that heading
    sentence naming another corpus module  -RELATES_TO(0.3)->  that module's heading
At the default floor 0.4 every module is one connected component; RELATES_TO (0.3) joins
modules only at floors <= 0.3, and floors above 0.5 keep only SUPPORTS.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "multi_fact"
LABELS = "labels.tsv"

# Modules whose docstrings are rich enough to split; order is irrelevant (sorted below).
MODULES = (
    "argparse", "base64", "bisect", "calendar", "configparser", "copy", "csv", "datetime",
    "difflib", "fnmatch", "functools", "glob", "gzip", "hashlib", "heapq", "hmac", "html",
    "itertools", "json", "logging", "os.path", "pickle", "queue", "random", "secrets",
    "shlex", "shutil", "sqlite3", "statistics", "string", "struct", "subprocess",
    "tarfile", "tempfile", "textwrap", "threading", "urllib.parse", "uuid", "zipfile", "zlib",
)  # fmt: skip
MAX_SECTIONS = 40  # per module: keeps the corpus a few thousand beliefs
MAX_SENTENCES = 8  # per section
MIN_CHARS, MAX_CHARS = 25, 320
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
_CODEISH = re.compile(r"^\s*(>>>|\.\.\.|[-=~^]{3,}|\$ )")


@dataclass
class Section:
    """A module or one of its public callables: a heading and its paragraphs."""

    key: str  # "json" or "json.dumps" or "zipfile.ZipFile.open"
    heading: str
    paragraphs: list[list[str]] = field(default_factory=list)


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of one paragraph; code, doctest and too-short/long pieces are dropped."""
    flat = " ".join(paragraph.split())
    out = []
    for piece in _SENTENCE_END.split(flat):
        piece = piece.strip()
        if MIN_CHARS <= len(piece) <= MAX_CHARS and not _CODEISH.match(piece):
            out.append(piece)
    return out


def parse_doc(doc: str) -> tuple[str, list[list[str]]]:
    """(summary line, sentence lists per later paragraph) of a cleaned docstring."""
    blocks = [b for b in re.split(r"\n\s*\n", doc.strip()) if b.strip()]
    blocks = [b for b in blocks if not _CODEISH.match(b)]
    if not blocks:
        return "", []
    summary = " ".join(blocks[0].split())
    paragraphs = [s for b in blocks[1:] if (s := split_sentences(b))]
    return summary, paragraphs


def _members(obj: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    """Public functions and classes (and a class's public methods), sorted by name."""
    for name in sorted(vars(obj)):
        if name.startswith("_"):
            continue
        value = getattr(obj, name, None)
        if inspect.ismethod(value) and inspect.ismodule(obj):
            continue  # random.choice is Random().choice: its docs live on the class
        if inspect.isclass(value) or inspect.isroutine(value):
            yield f"{prefix}.{name}", value


def module_sections(module_name: str) -> list[Section]:
    """The module heading section first, then its documented public members."""
    module = importlib.import_module(module_name)
    summary, paragraphs = parse_doc(inspect.getdoc(module) or module_name)
    sections = [Section(module_name, f"{module_name}: {summary}", paragraphs)]
    public = set(getattr(module, "__all__", ())) or None
    for key, value in _members(module, module_name):
        if public is not None and key.rsplit(".", 1)[1] not in public:
            continue
        owner = getattr(value, "__module__", None) or module_name
        if owner.lstrip("_") not in _owners(module_name):
            continue  # re-exported from elsewhere: documented in its own module
        items = [(key, value)]
        if inspect.isclass(value):
            items += list(_members(value, key))
        for item_key, item in items:
            section = _section(item_key, item)
            if section is not None:
                sections.append(section)
        if len(sections) > MAX_SECTIONS:
            break
    return sections[: MAX_SECTIONS + 1]


def _owners(module_name: str) -> set[str]:
    """Module names counted as 'defined here' (C accelerators are named _json, _csv...)."""
    base = module_name.split(".")[-1]
    return {module_name, base, f"{base}", "posixpath", "genericpath", "_sqlite3", "sqlite3"}


def _section(key: str, value: Any) -> Section | None:
    if inspect.isclass(value) and not vars(value).get("__doc__"):
        return None  # an inherited docstring ("Common base class...") says nothing new
    doc = inspect.getdoc(value)
    if not doc or (inspect.isroutine(value) and doc == inspect.getdoc(object)):
        return None
    summary, paragraphs = parse_doc(doc)
    if len(summary) < MIN_CHARS or summary.startswith(key.rsplit(".", 1)[1] + "("):
        # A C signature line ("dumps(obj, ...)") is not a sentence; use the next one.
        if not paragraphs or not paragraphs[0]:
            return None
        summary, paragraphs = paragraphs[0][0], [paragraphs[0][1:], *paragraphs[1:]]
        paragraphs = [p for p in paragraphs if p]
    return Section(key, f"{key}: {summary}", paragraphs)


def build_records(sections: dict[str, list[Section]]) -> list[dict[str, Any]]:
    """Beliefs (headings and sentences) and the structural edges between them."""
    beliefs: list[dict[str, Any]] = []
    edges: dict[tuple[str, str, str], dict[str, Any]] = {}

    def edge(src: str, dst: str, kind: str, weight: float) -> None:
        if src != dst:
            record = {"kind": "edge", "src": src, "dst": dst, "type": kind, "weight": weight}
            edges.setdefault((src, dst, kind), record)

    for module_name, module_sections_ in sections.items():
        names = {s.key.rsplit(".", 1)[-1]: s.key for s in module_sections_[1:]}
        for section in module_sections_:
            head = f"{section.key}#0"
            beliefs.append(_belief(head, section.heading, module_name))
            if section.key != module_name:
                edge(head, f"{module_name}#0", "DERIVED_FROM", 0.5)
            index = 0
            for paragraph in section.paragraphs[:MAX_SENTENCES]:
                first = None
                for sentence in paragraph:
                    index += 1
                    if index > MAX_SENTENCES:
                        break
                    sid = f"{section.key}#{index}"
                    beliefs.append(_belief(sid, sentence, module_name))
                    edge(sid, head, "DERIVED_FROM", 0.5)
                    if first is None:
                        first = sid
                    else:
                        edge(sid, first, "SUPPORTS", 1.0)
                    _cross_references(sid, sentence, section.key, names, sections, edge)
    return beliefs + [edges[k] for k in sorted(edges)]


def _belief(belief_id: str, content: str, module_name: str) -> dict[str, Any]:
    return {"kind": "belief", "id": belief_id, "content": content, "doc": f"stdlib:{module_name}"}


def _cross_references(
    sid: str,
    sentence: str,
    own_key: str,
    names: dict[str, str],
    sections: dict[str, list[Section]],
    edge: Any,
) -> None:
    """CITES for a named sibling section, RELATES_TO for a named other corpus module."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9.]*", sentence))
    for word in sorted(words):
        tail = word.rsplit(".", 1)[-1]
        target = names.get(tail)
        if target is not None and target != own_key and len(tail) > 3:
            edge(sid, f"{target}#0", "CITES", 0.5)
        module = word if word in sections else None
        if module is not None and not own_key.startswith(module):
            edge(sid, f"{module}#0", "RELATES_TO", 0.3)


# -- queries --------------------------------------------------------------------------------
# Hand-written in labels.tsv (one row per line: tag, query, facet sections). Each facet names
# the section whose heading answers it; the builder checks every named section exists. The
# heading is the expected belief, and the facet's cluster is the heading plus the sentences
# DERIVED_FROM it (any of them covers the facet).
Spec = tuple[str, str, tuple[str, ...]]


def read_labels(path: Path) -> tuple[list[Spec], list[Spec]]:
    """(multi-fact specs, single-fact specs) from the hand-written labels file."""
    multi: list[Spec] = []
    single: list[Spec] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tag, query, facets = line.split("\t")
        (single if tag == "single" else multi).append((tag, query, tuple(facets.split())))
    return multi, single


def build_rows(records: list[dict[str, Any]], specs: list[Spec]) -> list[dict[str, Any]]:
    """Rows in the seed's shape; a facet naming no section stops the build."""
    members: dict[str, list[str]] = {}
    for record in records:
        if record["kind"] == "belief":
            members.setdefault(record["id"].rsplit("#", 1)[0], []).append(record["id"])
    rows = []
    for tag, query, facets in specs:
        missing = [f for f in facets if f not in members]
        if missing:
            raise SystemExit(f"query {query!r} names unknown sections {missing}")
        rows.append(
            {
                "query": query,
                "expected_belief_ids": [f"{f}#0" for f in facets],
                "expected_clusters": [members[f] for f in facets],
                "n_clusters_required": len(facets),
                "tag": tag,
            }
        )
    return rows


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--list", action="store_true", help="print section keys and headings")
    args = parser.parse_args(argv)
    sections = {name: module_sections(name) for name in sorted(MODULES)}
    records = build_records(sections)
    if args.list:
        for module_sections_ in sections.values():
            for s in module_sections_:
                print(s.heading[:150])
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    write_jsonl(args.out / "records.jsonl", records)
    multi, single = read_labels(args.out / LABELS if (args.out / LABELS).exists() else OUT / LABELS)
    write_jsonl(args.out / "queries.jsonl", build_rows(records, multi))
    write_jsonl(args.out / "single_fact.jsonl", build_rows(records, single))
    counts = sum(r["kind"] == "belief" for r in records), sum(r["kind"] == "edge" for r in records)
    print(f"{counts[0]} beliefs, {counts[1]} edges, {len(multi)} multi-fact, {len(single)} single")
    return 0


if __name__ == "__main__":
    sys.exit(main())
