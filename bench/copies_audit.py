"""What a copy in another file keeps of its own context (stop 65, ctx14): one text, one belief.

    PYTHONPATH=TREE/src python bench/copies_audit.py --tree /tmp/trees/anyio-4.6.2 [--tree DIR...]
    PYTHONPATH=TREE/src python bench/copies_audit.py sqlparse attrs

A belief is its text, so the same passage text in two files (two modules' ``def
__init__(self):``, a ``def main():`` in two scripts) is one belief with an ``ingest`` anchor
in each. Each tree (``--tree``: what ``credo ingest DIR`` reads) or named corpus (a dev or
spent one; never a held-out set) is ingested into a fresh store by the credo on
``PYTHONPATH``; then every file is split as ingest splits it, and for each passage whose
belief is anchored in several files, the words of the context this file gives it (its
trail, titles, a definition body's names: `credo.knowledge.ingest.context.context_field`)
are looked up in the belief's stored context, the one BM25F reads:

- *copies*: passages whose belief is anchored in more than one file;
- *lost*: those with at least one context word the belief's context lacks;
- *words*: the distinct context words (folded tokens, line ranges left out) they lack.

Comparing two trees' code (BASE and a branch) on the same folders says how many of a copy's
own words the index gained. Line ranges (``L3-L5``) are not words a question asks for.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "heldout"))

from code_audit import audit_sources  # noqa: E402
from credo import Memory  # noqa: E402
from credo.errors import InvalidInputError  # noqa: E402
from credo.knowledge import identity  # noqa: E402
from credo.knowledge.ingest.context import context_field  # noqa: E402
from credo.knowledge.ingest.split import split_passages  # noqa: E402
from credo.store.stem import tokens  # noqa: E402
from credo.types import LENGTH_FILLER  # noqa: E402

_LINE_HINT = re.compile(r"l\d+")


def _words(context: str) -> set[str]:
    body = context.partition("\n" + LENGTH_FILLER)[0]
    return {t for t in tokens(body) if not _LINE_HINT.fullmatch(t)}


def audit(name: str, root: Path, files: list[Path], counts: Counter[str]) -> None:
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "m.db", root=root) as m:
        m.ingest(*files)
        store = m.store
        pieces: list[tuple[str, str, str]] = []  # (digest, file, context)
        for path in files:
            uri = str(path.relative_to(root))
            text = path.read_text(encoding="utf-8", errors="replace")
            seen: set[str] = set()
            for chunk in split_passages(uri, text).chunks:
                try:
                    content = identity.clean_content(chunk.text)
                except InvalidInputError:
                    continue
                digest = identity.content_hash(content)
                if digest not in seen:  # (the first in a file anchors its belief there)
                    seen.add(digest)
                    pieces.append((digest, uri, context_field(uri, chunk)))
        found = store.beliefs_by_hash({d for d, _, _ in pieces})
        ids = {d: k.id for d, k in found.items() if k.deleted_at is None}
        anchors = store.anchors_for(set(ids.values()))
        files_of = {
            i: {a.doc_uri.partition("#")[0] for a in rows if a.anchor_type == "ingest"}
            for i, rows in anchors.items()
        }
        stored = {b.id: b.context for b in store.get_beliefs(list(ids.values())).values()}
        for digest, uri, context in pieces:
            belief_id = ids.get(digest)
            if belief_id is None or len(files_of.get(belief_id, ())) < 2:
                continue
            if uri not in files_of[belief_id]:
                continue
            counts[f"{name}:copies"] += 1
            lacking = _words(context) - _words(stored[belief_id])
            if lacking:
                counts[f"{name}:lost"] += 1
                counts[f"{name}:words"] += len(lacking)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*")
    parser.add_argument("--tree", action="append", default=[], help="a source tree's folder")
    args = parser.parse_args(argv)
    if not args.corpora and not args.tree:
        parser.error("name a corpus or a --tree")
    sources = audit_sources(args.corpora, args.tree)
    counts: Counter[str] = Counter()
    print(f"{'tree':32s} {'copies':>7s} {'lost':>7s} {'words':>7s}")
    for name, root, files in sources:
        audit(name, root, files, counts)
        row = [counts[f"{name}:{f}"] for f in ("copies", "lost", "words")]
        print(f"{name[:32]:32s} " + " ".join(f"{n:7d}" for n in row), flush=True)
    total = [
        sum(v for k, v in counts.items() if k.endswith(f":{f}"))
        for f in ("copies", "lost", "words")
    ]
    print(f"{'total':32s} " + " ".join(f"{n:7d}" for n in total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
