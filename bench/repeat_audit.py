"""What "one text, one belief" costs a tree (issue #14): passages of one file with the same text.

    python bench/repeat_audit.py sqlparse attrs [--show 3]
    python bench/repeat_audit.py --tree /tmp/trees/anyio-4.6.2 [--tree DIR...] [--by-tree]

A belief is identified by its text (`credo.knowledge.identity.content_hash`: case-folded,
whitespace collapsed), and ingest anchors it at the text's first passage in a file. So a
later passage of the same file with the same text is in no belief: its lines (where no other
passage covers them), its context words (a definition body's names, a code example's words)
and its section trail are lost. For each named corpus (docs_multi's, devsets', the spent
held-out sets; never one of ``heldout.corpora.UNSPENT`` or ``RESERVE``) or tree (``--tree``:
the files ``credo ingest DIR`` reads), every file is split as ingest splits it
(`credo.knowledge.ingest.split.split_passages`); then, per language and role of the repeat
(``first>later`` when the two roles differ; ``value`` for a constant's value chunk):

- *repeats*: passages whose text an earlier passage of the file has;
- *same lines*: those at the very lines of the first copy (harmless: nothing is lost);
- *lines lost*: the repeats' lines no kept passage (a text's first in the file) covers;
- *words lost*: the repeats' context words (and trail titles) the first copy lacks;
- *other trail*: repeats whose section trail differs from the first copy's;
- *case*: repeats whose text differs from the first copy's in case or spacing only.

And across files: passages whose text a passage of an earlier file (in walk order) has, one
belief anchored in several files (a count only: a copy in two files is one belief there by
design, corroborated). ``--show`` prints examples of each group.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "heldout"))

from code_audit import audit_sources  # noqa: E402
from credo.knowledge.chunk.language import language_for  # noqa: E402
from credo.knowledge.identity import content_hash  # noqa: E402
from credo.knowledge.ingest.split import split_passages  # noqa: E402

_FIELDS = ("repeats", "same", "lines", "words", "trail", "case")


class Audit:
    def __init__(self) -> None:
        self.groups: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        self.passages: Counter[str] = Counter()
        self.across: Counter[str] = Counter()
        self.owners: dict[str, str] = {}  # digest -> first file (across files)

    def file(self, tree: str, label: str, text: str, show: int) -> None:
        language = language_for(label) or "?"
        chunks = split_passages(label, text).chunks
        self.passages[tree] += len(chunks)
        firsts: dict[str, int] = {}
        digests = [content_hash(c.text) if c.text.strip() else "" for c in chunks]
        for index, digest in enumerate(digests):
            if digest:
                firsts.setdefault(digest, index)
        kept = set()
        for index in set(firsts.values()):
            kept.update(range(chunks[index].start_line, chunks[index].end_line + 1))
        for digest in firsts:
            owner = self.owners.setdefault(digest, label)
            if owner != label:
                self.across[tree] += 1
        for index, digest in enumerate(digests):
            first = firsts.get(digest)
            if first is None or first == index:
                continue
            a, b = chunks[first], chunks[index]
            role = _role(b) if _role(a) == _role(b) else f"{_role(a)}>{_role(b)}"
            group = self.groups[(tree, language, role)]
            group["repeats"] += 1
            span = set(range(b.start_line, b.end_line + 1))
            if (a.start_line, a.end_line) == (b.start_line, b.end_line):
                group["same"] += 1
            group["lines"] += len(span - kept)
            words = set(b.context.split()) | set(b.section)
            group["words"] += len(words - set(a.context.split()) - set(a.section))
            group["trail"] += a.section != b.section
            group["case"] += a.text != b.text
            examples = self.examples[(tree, language, role)]
            if len(examples) < show and (a.start_line, a.end_line) != (b.start_line, b.end_line):
                examples.append(
                    f"{label}:{a.start_line}-{a.end_line} / {b.start_line}-{b.end_line}"
                    f" [{' › '.join(a.section)[-40:]} | {' › '.join(b.section)[-40:]}]"
                    f" {b.text[:70]!r}"
                )

    def report(self, by_tree: bool) -> None:
        rows: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
        for (tree, language, role), counts in self.groups.items():
            rows[(tree if by_tree else "all", language, role)].update(counts)
        print(
            f"{'tree':24s} {'language':10s} {'role':28s} " + " ".join(f"{f:>7s}" for f in _FIELDS)
        )
        for key in sorted(rows, key=lambda k: (k[0], -rows[k]["lines"], -rows[k]["repeats"])):
            counts = rows[key]
            print(
                f"{key[0][:24]:24s} {key[1]:10s} {key[2][:28]:28s} "
                + " ".join(f"{counts[f]:7d}" for f in _FIELDS)
            )
        total = Counter[str]()
        for counts in rows.values():
            total.update(counts)
        print(f"{'total':64s} " + " ".join(f"{total[f]:7d}" for f in _FIELDS))
        print(
            f"passages {sum(self.passages.values())}; across files (one belief, several files):"
            f" {sum(self.across.values())}"
        )
        if by_tree:
            for tree in sorted(self.passages):
                print(
                    f"  {tree:30s} passages {self.passages[tree]:6d} across {self.across[tree]:5d}"
                )
        for key in sorted(self.examples, key=lambda k: -self.groups[k]["lines"]):
            for line in self.examples[key]:
                print(f"  {key[0][:20]} {key[1]} {key[2]}: {line}")


def _role(chunk) -> str:
    return "value" if chunk.value else chunk.role


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*")
    parser.add_argument("--tree", action="append", default=[], help="a source tree's folder")
    parser.add_argument("--show", type=int, default=0, help="examples per group and tree")
    parser.add_argument("--by-tree", action="store_true", help="a row per tree")
    args = parser.parse_args(argv)
    if not args.corpora and not args.tree:
        parser.error("name a corpus or a --tree")
    sources = audit_sources(args.corpora, args.tree)
    audit = Audit()
    for name, root, files in sources:
        for path in files:
            text = path.read_text(encoding="utf-8", errors="replace")
            audit.file(name, str(path.relative_to(root)), text, args.show)
    audit.report(args.by_tree)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
