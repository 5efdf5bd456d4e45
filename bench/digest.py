"""Do two credo trees retrieve the same thing? A hash of every result, warm and cold.

    python bench/digest.py SRC [SRC ...] [--size 10000] [--queries 200]
        [--stores latency,sparse,none,derived] [--locks 0,30] [--ignore-fields hints]

Each SRC is a folder holding the ``credo`` package (a worktree's ``src``, or ``git archive``
of a commit). The stores are made once, by the first SRC: bench/truth_cost.py's four truth
variants of bench/latency.py's synthetic store (chosen ids, thinned or no truth edges,
derived ids), each also with ``--locks N`` beliefs locked (bench/warm_trees.py). Every SRC
then answers, in a fresh process on a copy of each store, ``--queries`` queries under six
option sets (the defaults; history on; a 300-token budget; compress always; clustering off;
doc anchors on), first cold (no warm index) and then warm (``build_warm``). Each result's
``repr`` (ids, scores, texts, budgets, short ids: every field, floats whole) is hashed.
``--ignore-fields`` leaves named result fields out of the hash, for comparing against a tree
older than a field (a tree without the field hashes the same form).

Prints one line per store: each SRC's digest and whether its warm results equal its cold
ones. Exits 1 when two SRCs differ on a store or a warm result differs from the cold one.
Stores carry their import's wall-clock times, so digests compare trees within one run, not
across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent

CHILD = """
import hashlib, json, sys
from pathlib import Path
import credo
from credo import Memory
if not credo.__file__.startswith(sys.argv[4]):
    raise SystemExit(f"credo came from {credo.__file__}, not from {sys.argv[4]}")
sys.path.insert(0, sys.argv[3])
from latency import queries
OPTIONS = (
    {},
    {"include_superseded": True},
    {"token_budget": 300},
    {"compress": "always"},
    {"use_intentional_clustering": False},
    {"with_doc_anchors": True},
)
db, count = Path(sys.argv[1]), int(sys.argv[2])
ignored = {name for name in sys.argv[5].split(",") if name}

def shown(result):
    if not ignored:
        return repr(result)
    kept = [(name, value) for name, value in zip(result._fields, result) if name not in ignored]
    return repr(kept)

texts = queries(count)
digests = {}
with Memory(db, root=db.parent) as memory:
    for mode in ("cold", "warm"):
        if mode == "warm" and not memory.store.build_warm():
            raise SystemExit("the warm index was not installed")
        hashed = hashlib.sha256()
        for options in OPTIONS:
            for text in texts:
                hashed.update(shown(memory.retrieve(text, **options)).encode())
        digests[mode] = hashed.hexdigest()[:16]
print(json.dumps(digests))
"""

MAKE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from credo import Memory
from synth import write_records
from truth_cost import variant
from warm_trees import with_locks
folder, size = Path(sys.argv[2]), int(sys.argv[3])
names, locks = sys.argv[4].split(","), [int(n) for n in sys.argv[5].split(",")]
base = write_records(folder / "r.jsonl", size, 2, text="zipf")
for name in names:
    db = folder / f"{name}.db"
    with Memory(db, root=folder) as memory:
        memory.import_records(variant(base, name, folder / f"{name}.jsonl"))
    for count in locks:
        if count:
            with_locks(db, count)
"""


def answer(src: Path, db: Path, count: int, folder: Path, ignored: str) -> dict[str, str]:
    """One tree's cold and warm digests of one store, on a copy in a fresh process."""
    copy = folder / f"answer-{db.name}"
    where = str(src.resolve())
    shutil.copyfile(db, copy)
    env = {"PYTHONPATH": str(src), "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(copy), str(count), str(BENCH), where, ignored],
        env={**_base_env(), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    copy.unlink()
    if done.returncode != 0:
        raise SystemExit(f"{src} failed on {db.name}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--stores", default="latency,sparse,none,derived")
    parser.add_argument("--locks", default="0,30", help="comma-separated lock counts (0: none)")
    parser.add_argument(
        "--ignore-fields", default="", help="comma-separated result fields left out of the hash"
    )
    args = parser.parse_args()
    for tree in args.trees:
        if not (tree / "credo" / "__init__.py").is_file():
            parser.error(f"{tree} holds no credo package (expected {tree}/credo/__init__.py)")
    locks = [int(n) for n in args.locks.split(",") if n.strip()]
    names = [n.strip() for n in args.stores.split(",") if n.strip()]
    failed = False
    with tempfile.TemporaryDirectory(prefix="credo-digest-") as tmp:
        folder = Path(tmp)
        subprocess.run(
            [
                sys.executable,
                "-c",
                MAKE,
                str(BENCH),
                str(folder),
                str(args.size),
                ",".join(names),
                ",".join(str(n) for n in locks),
            ],
            env={**_base_env(), "PYTHONPATH": str(args.trees[0]), "PYTHONHASHSEED": "0"},
            check=True,
        )
        stores = [
            folder / (f"{name}.db" if count == 0 else f"{name}-locks{count}.db")
            for name in names
            for count in locks
        ]
        heads = [f"{tree.resolve().parent.name}/{tree.name}" for tree in args.trees]
        print(f"{'store':<20} " + " ".join(f"{head:>24}" for head in heads))
        for db in stores:
            cells: list[str] = []
            seen: set[str] = set()
            for tree in args.trees:
                got = answer(tree, db, args.queries, folder, args.ignore_fields)
                same = got["cold"] == got["warm"]
                failed |= not same
                seen.add(got["cold"])
                cells.append(f"{got['cold']}{'' if same else '!warm'}")
            failed |= len(seen) > 1
            mark = "" if len(seen) == 1 else "   DIFFERENT"
            print(f"{db.stem:<20} " + " ".join(f"{c:>24}" for c in cells) + mark)
    print("identical, warm == cold" if not failed else "DIFFERENCES (see above)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
