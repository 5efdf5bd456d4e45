"""Instructions of a whole fresh-process ingest, two or more source trees side by side.

    python bench/ingest_whole_instructions.py SRC [SRC ...] [--corpora black,flask] [--tree DIR ...]
        [--again]

``bench/ingest_cpu.py`` times an ingest in CPU seconds, which move with a shared machine's
load by more than most cuts. Here each SRC (a folder holding the ``credo`` package)
ingests each corpus into a fresh store in a fresh process under valgrind's cachegrind,
whose instruction count does not move with the load. The whole process is counted
(interpreter start, ``from credo import Memory``, the parsers' lazy imports, the ingest,
the close), and so is a process that opens a store and ingests nothing and imports nothing
of the ingest: the difference is what an ingest costs, the ingest package's own imports
(its modules, their records and patterns) and the parsers' included. As
``bench/store_diff.py`` builds its stores: ``PYTHONHASHSEED=0``, no worker processes,
commit groups by file count only and, on a corpus holding rst, no time budget on an rst
parse (valgrind runs ~50x slower; a corpus without rst does not import the rst splitter
for it, which would hide a lazy import). Byte-compile each tree first (``python -m
compileall -q SRC``, PYTHONDONTWRITEBYTECODE unset): else each run compiles its modules.

With ``--again``, each tree then ingests the unchanged corpus once more into the store its
first run wrote, less a process that opens that store and ingests nothing: what a re-ingest
that finds nothing changed costs (the ledger check of every file).
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
from docs_corpora import bench_work  # noqa: E402

CHILD = """
import json, sys
from pathlib import Path
root, files, db, rst, tree = Path(sys.argv[1]), json.loads(sys.argv[2]), *sys.argv[3:6]
from credo import Memory
from credo.config import Settings
with Memory(db, root=root, settings=Settings()) as memory:
    if files:  # (the empty run opens the store and imports nothing of the ingest)
        import credo.knowledge.ingest.run as run
        run.GROUP_SECONDS = 1e9  # commit groups by file count only
        if rst == "1":
            import credo.knowledge.chunk.rst as chunk_rst
            chunk_rst._BUDGET_SECONDS = 1e9  # a slow run must not fall back to plain text
        if tree == "1":
            import credo.knowledge.chunk.code_treesitter as chunk_tree
            # nor from a tree-sitter parse to comments only, in a tree before parse87 (whose
            # budget counts tree-sitter's work, the same on any machine)
            chunk_tree._PARSE_SECONDS = 1e9
            try:  # and since, a backstop of CPU time, which valgrind's slowdown would reach
                import credo.knowledge.chunk.parse_budget as budget
                budget.PARSE_SECONDS = 1e9
            except ImportError:
                pass
        memory.ingest(*files)
"""


# Files no tree-sitter grammar reads (Python is read by `ast`; TOML, YAML, JSON by theirs).
_NO_TREE = (".py", ".md", ".markdown", ".rst", ".rest", ".txt", ".cfg", ".ini")


def count(src: Path, root: Path, files: list[str], db: Path) -> int:
    """Instructions of one fresh process ingesting ``files`` into the store ``db``."""
    rst = "1" if any(f.endswith((".rst", ".rest")) for f in files) else "0"
    # (a tree-sitter language: before parse87 the parse budget, 0.5 s a file, was met under
    # valgrind)
    tree = "1" if any(not f.endswith(_NO_TREE) for f in files) else "0"
    args = [str(root), json.dumps(files), str(db), rst, tree]
    env = {"CREDO_INGEST_WORKERS": "0", "CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"}
    return python_instructions(src, CHILD, args, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--corpora", default="", help="comma-separated bench corpora")
    parser.add_argument("--tree", action="append", default=[], help="a folder to ingest")
    parser.add_argument("--again", action="store_true", help="also an unchanged re-ingest")
    args = parser.parse_args()
    work = bench_work(args.corpora, args.tree)
    with tempfile.TemporaryDirectory(prefix="credo-ingest-instr-") as tmp:
        folder = Path(tmp)
        empty = {
            src: count(src, BENCH, [], folder / f"empty.{n}.db") for n, src in enumerate(args.srcs)
        }
        for src in args.srcs:
            print(f"{'(empty)':9} {src}: {empty[src]:,} instructions", flush=True)
        for number, (name, root, files) in enumerate(work):
            first = again = None
            for n, src in enumerate(args.srcs):
                db = folder / f"{number}.{n}.db"
                whole = count(src, root, files, db)
                own = whole - empty[src]
                ratio = "" if first is None else f"  ({own / first - 1:+.2%} against the first)"
                first = own if first is None else first
                print(f"{name:9} {src}: {whole:,} whole, {own:,} ingest{ratio}", flush=True)
                if args.again:
                    repeat = count(src, root, files, db) - count(src, root, [], db)
                    ratio = "" if again is None else f"  ({repeat / again - 1:+.2%})"
                    again = repeat if again is None else again
                    print(f"{name:9} {src}: {repeat:,} re-ingest, unchanged{ratio}", flush=True)


if __name__ == "__main__":
    main()
