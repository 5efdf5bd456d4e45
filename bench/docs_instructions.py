"""Instructions a warm docs query executes, two or more source trees side by side.

    python bench/docs_instructions.py SRC [SRC ...] --stores DIR [--corpus NAME ...]
                                      [--budget 1500]

bench/docs_warm.py times warm docs queries; on a shared machine a few per cent is lost in
its noise. Here each corpus' queries (bench/docs_multi.py's) are answered on a warm index
by each SRC (a folder holding the ``credo`` package) under valgrind's cachegrind, whose
instruction count does not move with the load: once with two warm-up passes alone, once
with two more passes, so the difference over the extra passes is what a later-pass query
costs (the index read, imports and the warm-up cancel). The stores are docs_warm.py's
(``--stores``: build them with it first). ``--budget none``: the retrieve's default budget.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from cachegrind import python_instructions  # noqa: E402
from docs_corpora import BY_NAME, fetch  # noqa: E402

CHILD = """
import json, sys
from pathlib import Path
from credo import Memory
from credo.config import Settings
db, root, passes = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
texts, budget = json.loads(sys.argv[4]), json.loads(sys.argv[5])
with Memory(db, root=root, settings=Settings()) as memory:
    assert memory.store.build_warm()
    for _ in range(2 + passes):
        for text in texts:
            memory.retrieve(text, token_budget=budget, with_doc_anchors=True)
"""
EXTRA_PASSES = 2


def per_query(tree: Path, store: Path, root: Path, texts: list[str], budget: int | None) -> float:
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for passes in (0, EXTRA_PASSES):
            db = Path(tmp) / f"passes{passes}.db"
            shutil.copyfile(store, db)  # (each child reads a store of its own)
            args = [str(db), str(root), str(passes), json.dumps(texts), json.dumps(budget)]
            env = {"CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"}
            counts.append(python_instructions(tree, CHILD, args, env))
    return (counts[1] - counts[0]) / (EXTRA_PASSES * len(texts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding the credo package")
    parser.add_argument("--stores", type=Path, required=True, help="docs_warm.py's stores")
    parser.add_argument("--corpus", action="append", help="repeatable; default: all six")
    parser.add_argument("--budget", default="1500", help="token budget, or 'none'")
    args = parser.parse_args()
    budget = None if args.budget == "none" else int(args.budget)
    for name in args.corpus or list(BY_NAME):
        queries = json.loads((BENCH / "docs_multi" / f"{name}.json").read_text())["queries"]
        texts = [q["query"] for q in queries]
        store = args.stores / f"{name}.db"
        if not store.exists():
            sys.exit(f"no store {store}: build it with bench/docs_warm.py --stores {args.stores}")
        base = None
        for tree in args.trees:
            count = per_query(tree, store, fetch(BY_NAME[name]), texts, budget)
            ratio = "" if base is None else f"  ({count / base - 1:+.1%} against the first)"
            base = count if base is None else base
            print(f"{name:9} {tree}: {count:,.0f} instructions a query{ratio}", flush=True)


if __name__ == "__main__":
    main()
