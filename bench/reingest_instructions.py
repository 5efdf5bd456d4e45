"""Instructions of an ingest, trees side by side: a first ingest into a fresh store, and a
re-ingest of the same, unchanged tree.

    python bench/reingest_instructions.py SRC [SRC ...] [--corpora black,flask] [--tree DIR ...]

Each SRC is a folder holding the ``credo`` package. For each corpus (the bench's,
``bench/docs_corpora.py``, and any ``--tree``) and SRC, cachegrind (``cachegrind.py``)
counts children, one process each, workers off (``CREDO_INGEST_WORKERS=0``), commit groups
by file count only: opening a fresh store without ingesting, the first ingest, opening the
store it wrote without ingesting, and a second ingest of the unchanged tree into it.
Printed: each ingest minus its store's opening alone (imports and opening a store are each
SRC's own, and not what an ingest costs). Instruction counts do not move with the
machine's load, unlike files/s (``ingest_cpu.py``). Needs valgrind; a minute or two a
corpus.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from cachegrind import python_instructions  # noqa: E402
from docs_corpora import CORPORA, fetch  # noqa: E402

CHILD = """
import json, sys
from pathlib import Path
import credo.knowledge.ingest.run as run
from credo import Memory
from credo.config import Settings
run.GROUP_SECONDS = 1e9  # commit groups by file count only
root, files, db, ingest = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
with Memory(db, root=root, settings=Settings()) as memory:
    if ingest == "1":
        memory.ingest(*files)
"""
ENV = {"CREDO_INGEST_WORKERS": "0"}


def count(src: Path, root: Path, files: list[str], db: Path, ingest: bool) -> int:
    args = [str(root), json.dumps(files), str(db), "1" if ingest else "0"]
    return python_instructions(src, CHILD, args, ENV)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="+", help="folders holding the credo package")
    parser.add_argument("--corpora", default="", help="comma-separated bench corpora")
    parser.add_argument("--tree", action="append", default=[], help="a folder to ingest")
    args = parser.parse_args()
    names = [n for n in args.corpora.split(",") if n]
    work: list[tuple[str, Path, list[str]]] = []
    for corpus in CORPORA:
        if not names or corpus.name in names:
            root = fetch(corpus)
            work.append((corpus.name, root, [str(f) for f in corpus.files(root)]))
    for tree in args.tree:
        path = Path(tree).resolve()
        work.append((path.name, path, [str(path)]))
    print(f"{'corpus':14s} {'src':40s} {'first ingest':>14s} {'re-ingest':>12s}")
    with tempfile.TemporaryDirectory(prefix="credo-ingest-instr-") as tmp:
        for name, root, files in work:
            for n, src in enumerate(Path(s).resolve() for s in args.srcs):
                empty = count(src, root, files, Path(tmp) / f"{name}.{n}.empty.db", False)
                db = Path(tmp) / f"{name}.{n}.db"
                first = count(src, root, files, db, True) - empty
                reopen = count(src, root, files, db, False)  # (no migration to run)
                again = count(src, root, files, db, True) - reopen
                print(f"{name:14s} {str(src)[-40:]:40s} {first:14,d} {again:12,d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
