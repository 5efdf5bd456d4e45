"""Instructions of a fresh-process ingest, two or more source trees side by side.

    python bench/ingest_instructions.py SRC [SRC ...] [--corpora black,flask] [--tree DIR ...]
                                        [--split]

``bench/ingest_cpu.py`` times an ingest in CPU seconds, which move with the machine's
load; here each SRC (a folder holding the ``credo`` package, byte-compiled) ingests each
corpus into a fresh store under valgrind's cachegrind, whose instruction count does not.
What is counted is ``Memory.ingest`` (the parsers' lazy imports included): the child's
count less the count of the same child that opens the store and ingests nothing. As
``bench/store_diff.py`` runs them, the two trees do the same work whatever the machine:
``PYTHONHASHSEED=0``, no worker processes, commit groups by file count only (the module
setting ``run.GROUP_SECONDS``, which every tree has) and no time budget on an rst parse, nor
on a tree-sitter parse in a tree before parse87's work budget (valgrind runs ~50x slower; a
budget would send files to plain text or to the comment reader). ``--split`` counts the
splitting alone (`split_passages` over every file of a language credo reads, no store), the
part the parsers and their walkers take.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from cachegrind import python_instructions  # noqa: E402
from docs_corpora import CORPORA, corpus_names, fetch  # noqa: E402

CHILD = """
import json, sys, tempfile
from pathlib import Path
import credo.knowledge.chunk.rst as rst
import credo.knowledge.ingest.run as run
from credo import Memory
from credo.config import Settings
rst._BUDGET_SECONDS = 1e9
run.GROUP_SECONDS = 1e9  # commit groups by file count only (a module setting: BASE has it too)
root, files, work = Path(sys.argv[1]), [Path(p) for p in json.loads(sys.argv[2])], sys.argv[3]
if work == "ingest" and sys.argv[4] == "1":  # (imported only where the ingest imports it)
    import credo.knowledge.chunk.code_treesitter as tree
    tree._PARSE_SECONDS = 1e9  # a tree before parse87 cancelled tree-sitter parses on the clock
    try:  # and since, a backstop of CPU time, which valgrind's slowdown would reach
        import credo.knowledge.chunk.parse_budget as budget
        budget.PARSE_SECONDS = 1e9
    except ImportError:
        pass
with Memory(Path(tempfile.mkdtemp()) / "x.db", root=root, settings=Settings()) as memory:
    if work == "ingest":
        memory.ingest(*files)
"""

SPLIT = """
import json, sys
from pathlib import Path
import credo.knowledge.chunk.rst as rst
from credo.knowledge.chunk import language_for
from credo.knowledge.ingest.split import split_passages
rst._BUDGET_SECONDS = 1e9
paths, work = [p for p in json.loads(sys.argv[1]) if language_for(p)], sys.argv[2]
texts = [(p, Path(p).read_text(encoding="utf-8", errors="replace")) for p in paths]
if work == "split":
    for path, text in texts:
        split_passages(path, text)
"""

ENV = {"CREDO_INGEST_WORKERS": "0", "CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"}


def count(src: Path, root: Path, files: list[Path], split: bool) -> int:
    """Instructions of the ingest (or the split) alone: the child less an idle child."""
    if split:
        paths = [str(p) for p in _walked(files)]
        return python_instructions(src, SPLIT, [json.dumps(paths), "split"], ENV) - idle(
            src, SPLIT, ["[]", ""]
        )
    listed = json.dumps([str(f) for f in files])
    tree = "1" if any(p.suffix not in _NO_TREE for p in _walked(files)) else "0"
    found = python_instructions(src, CHILD, [str(root), listed, "ingest", tree], ENV)
    return found - idle(src, CHILD, [str(root), "[]", "", "0"])


# Files no tree-sitter grammar reads (Python is read by `ast`; TOML, YAML, JSON by theirs).
_NO_TREE = (".py", ".md", ".markdown", ".rst", ".rest", ".txt", ".cfg", ".ini")


def _walked(files: list[Path]) -> list[Path]:
    return [p for f in files for p in sorted(f.rglob("*") if f.is_dir() else [f]) if p.is_file()]


_IDLE: dict[tuple[Path, str], int] = {}


def idle(src: Path, code: str, args: list[str]) -> int:
    """The child's count when it does no work (start-up, imports, a fresh store): once."""
    if (src, code) not in _IDLE:
        _IDLE[(src, code)] = python_instructions(src, code, args, ENV)
    return _IDLE[(src, code)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--corpora", default="", help="comma-separated bench corpora")
    parser.add_argument("--tree", action="append", default=[], help="a folder to ingest")
    parser.add_argument("--split", action="store_true", help="count the splitting alone")
    args = parser.parse_args(argv)
    names = corpus_names(args.corpora)  # (scrapy, a held-out set, was skipped in silence)
    work = [(c.name, fetch(c), c.files(fetch(c))) for c in CORPORA if c.name in names]
    work += [(Path(t).resolve().name, Path(t).resolve(), [Path(t).resolve()]) for t in args.tree]
    for name, root, files in work:
        base = None
        for src in args.srcs:
            found = count(src, root, files, args.split)
            ratio = "" if base is None else f"  ({found / base - 1:+.2%} against the first)"
            base = found if base is None else base
            print(f"{name:20} {src}: {found:,} instructions{ratio}", flush=True)


if __name__ == "__main__":
    main()
