"""Ingest CPU per corpus, trees side by side: files/s of CPU on a fresh store.

    python bench/ingest_cpu.py SRC [SRC ...] [--rounds 3] [--corpora black,flask]
        [--tree DIR ...] [--goal 100]

Each SRC is a folder holding the ``credo`` package (a worktree's ``src``, or ``git
archive`` of a commit, byte-compiled: this machine sets PYTHONDONTWRITEBYTECODE). For each
round, each SRC in turn ingests each corpus in a fresh process (``CREDO_INGEST_WORKERS=0``:
one core, no worker processes) into a new store; the child reports the CPU (user + sys) of
``Memory.ingest`` alone, lazy imports of the parsers included, as ``bench/docs_multi.py``
ingests. Corpora: the bench's (``bench/docs_corpora.py``, fetched on first use) and any
``--tree DIR`` (a whole folder, as ``credo ingest DIR`` reads it). Prints the median files/s
per corpus and SRC, and exits 1 when the last SRC's median is below ``--goal`` on any
corpus. CPU time moves with the machine's load: compare trees only within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from docs_corpora import CORPORA, fetch  # noqa: E402

CHILD = """
import json, os, sys, tempfile, time
from pathlib import Path
from credo import Memory
from credo.config import Settings
root, files = Path(sys.argv[1]), [Path(p) for p in json.loads(sys.argv[2])]
memory = Memory(Path(tempfile.mkdtemp(prefix="credo-ingest-cpu-")) / "x.db", root=root,
                settings=Settings())
started = time.process_time()
report = memory.ingest(*files)
seconds = time.process_time() - started
memory.close()
print(json.dumps({"files": report.files_seen, "seconds": seconds}))
"""


def corpora(names: list[str], trees: list[str]) -> list[tuple[str, Path, list[Path]]]:
    found: list[tuple[str, Path, list[Path]]] = []
    for corpus in CORPORA:
        if names and corpus.name not in names:
            continue
        root = fetch(corpus)
        found.append((corpus.name, root, corpus.files(root)))
    for tree in trees:
        path = Path(tree).resolve()
        found.append((path.name, path, [path]))
    return found


def run(src: str, root: Path, files: list[Path]) -> float:
    """Files/s of CPU of one fresh-process ingest with the credo under `src`."""
    env = dict(os.environ, PYTHONPATH=src, CREDO_INGEST_WORKERS="0")
    argv = [sys.executable, "-c", CHILD, str(root), json.dumps([str(f) for f in files])]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return float(result["files"]) / max(float(result["seconds"]), 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="+", help="folders holding the credo package")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpora", default="", help="comma-separated bench corpora")
    parser.add_argument("--tree", action="append", default=[], help="a folder to ingest")
    parser.add_argument("--goal", type=float, default=100.0, help="files/s of CPU")
    args = parser.parse_args()
    names = [n for n in args.corpora.split(",") if n]
    work = corpora(names, args.tree)
    rates: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for src in args.srcs:  # alternating: each round runs every tree once
            for name, root, files in work:
                rates.setdefault((src, name), []).append(run(src, root, files))
    width = max(len(name) for name, _, _ in work)
    print(f"{'corpus':{width}}  " + "  ".join(f"{Path(s).parent.name or s:>18}" for s in args.srcs))
    for name, _, _ in work:
        cells = [statistics.median(rates[(src, name)]) for src in args.srcs]
        print(f"{name:{width}}  " + "  ".join(f"{c:>13.1f} f/s" for c in cells))
    last = args.srcs[-1]
    below = [name for name, _, _ in work if statistics.median(rates[(last, name)]) < args.goal]
    if below:
        print(f"below {args.goal:.0f} files/s of CPU with {last}: {', '.join(below)}")
        return 1
    print(f"every corpus at or above {args.goal:.0f} files/s of CPU with {last}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
