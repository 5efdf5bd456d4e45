"""Does a re-ingest after edits leave the edges a fresh ingest writes? Trees side by side.

    python bench/reingest_edges.py SRC [SRC ...] [--corpora black,flask] [--seed 0]

For each corpus (the bench's, ``bench/docs_corpora.py``) and SRC, in a fresh process each:
the corpus's files are copied into a folder, which is ingested, edited, ingested again,
and ingested into a new store. Edits, chosen by ``--seed`` among the corpus's files: every link of a
fifth of the files removed (``[text](target)`` becomes ``text``), a fifth of the files'
first heading renamed (what links to them cite), a tenth deleted. Printed per SRC: the
edges of the re-ingested store, those a fresh ingest of the edited files does not write
(stale), and those it writes that the re-ingested store lacks (missing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from docs_corpora import CORPORA, fetch  # noqa: E402

CHILD = """
import json, sys
from pathlib import Path
from credo import Memory
from credo.config import Settings
root, files, db = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
with Memory(db, root=root, settings=Settings()) as memory:
    memory.ingest(*files)
    edges = sorted([e.src, e.dst, e.type.value] for e in memory.store.iter_edges())
print(json.dumps(edges))
"""
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HEADING = re.compile(r"^(#+ )(.*)$", re.M)


def ingest(src: Path, root: Path, files: list[str], db: Path) -> set[tuple[str, ...]]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0", CREDO_INGEST_WORKERS="0")
    argv = [sys.executable, "-c", CHILD, str(root), json.dumps(files), str(db)]
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
    return {tuple(e) for e in json.loads(done.stdout)}


def edit(root: Path, files: list[Path], rng: random.Random) -> None:
    """Unlink a fifth of the files, rename a fifth's first heading, delete a tenth."""
    picked = rng.sample(files, len(files))
    fifth, tenth = max(1, len(files) // 5), max(1, len(files) // 10)
    for path in picked[:fifth]:
        path.write_text(_LINK.sub(r"\1", path.read_text(encoding="utf-8")), encoding="utf-8")
    for path in picked[fifth : 2 * fifth]:
        text = path.read_text(encoding="utf-8")
        path.write_text(_HEADING.sub(r"\1\2 (renamed)", text, count=1), encoding="utf-8")
    for path in picked[2 * fifth : 2 * fifth + tenth]:
        path.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="+", help="folders holding the credo package")
    parser.add_argument("--corpora", default="black,click,flask")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = [n for n in args.corpora.split(",") if n]
    print(f"{'corpus':10s} {'src':36s} {'edges':>7s} {'stale':>7s} {'missing':>8s}")
    for corpus in CORPORA:
        if corpus.name not in names:
            continue
        source = fetch(corpus)
        for src in (Path(s).resolve() for s in args.srcs):
            with tempfile.TemporaryDirectory(prefix="credo-reingest-") as tmp:
                # Only the corpus's files, in a folder of their own: each run walks it,
                # so a deleted file is retired as a vanished one.
                root = Path(tmp) / "tree"
                files = []
                for path in corpus.files(source):
                    copy = root / path.relative_to(source)
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, copy)
                    files.append(copy)
                ingest(src, root, [str(root)], Path(tmp) / "a.db")
                edit(root, files, random.Random(args.seed))
                again = ingest(src, root, [str(root)], Path(tmp) / "a.db")
                fresh = ingest(src, root, [str(root)], Path(tmp) / "b.db")
                stale, missing = len(again - fresh), len(fresh - again)
                line = f"{corpus.name:10s} {str(src)[-36:]:36s} {len(again):7d} {stale:7d}"
                print(f"{line} {missing:8d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
