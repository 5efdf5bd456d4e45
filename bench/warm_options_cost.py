"""What a warm first-pass query costs under other ranking options, in instructions (issue #17).

    python bench/warm_options_cost.py SRC [--db PATH] [--queries 100] VARIANT [VARIANT ...]

A VARIANT is ``name=field:value,field:value,...``: ``Options`` fields given other defaults
(``graph_lane_limit:15``, ``graph_seeds:10``, ``keyword_limit:40``), ``off:LANE`` to switch
a lane off (``off:heat``), ``budget:N`` for the token budget; ``name=`` alone is the
defaults. These change results: the figures say what a ranking design that scores fewer
candidates would save, for a ranking change to weigh against its quality figures (which
this does not read). The exact steps are measured with ``warm_instructions.py --first``.

Each variant is counted as ``warm_instructions.py --first`` counts a tree: two children
under cachegrind on a copy of the store, both reading the warm index and answering the
warm-up queries (the latency bench's generator at another seed), one the measured queries
too; instructions per query are the difference over n (one placement: compare variants of
one run, not runs). The store is ``--db`` (copied, never written), else a 10k synthetic
one built as bench/latency.py builds it. Needs valgrind; a few minutes a variant.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from cachegrind import python_instructions  # noqa: E402
from warm_instructions import ten_thousand  # noqa: E402

CHILD = """
import sys
sys.path.insert(0, {bench!r})
from pathlib import Path
from latency import queries
from credo import Memory
from credo.retrieval.options import Options
db, count, measured = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
changes = [item.split(":", 1) for item in sys.argv[4].split(",") if item]
off = {{value: False for field, value in changes if field == "off"}} or None
budget = next((int(value) for field, value in changes if field == "budget"), None)
defaults = dict(zip(Options._fields, Options.__new__.__defaults__, strict=True))
for field, value in changes:
    if field not in ("off", "budget"):
        defaults[field] = type(defaults[field])(value)
Options.__new__.__defaults__ = tuple(defaults.values())
# Both children make both lists (each generator builds its Zipf vocabulary).
others, texts = queries(count, seed=12), queries(count)
texts = others + (texts if measured else [])
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    for text in texts:
        memory.retrieve(text, lanes=off, token_budget=budget)
"""

NUMERIC = ("budget",)


def check(changes: str) -> None:
    """Refuse a variant naming no ``Options`` field (the child would fail under valgrind)."""
    from credo.retrieval.options import Options

    for item in filter(None, changes.split(",")):
        field, colon, _value = item.partition(":")
        if not colon or (field not in Options._fields and field not in ("off", *NUMERIC)):
            raise SystemExit(f"not a field:value of Options, off:LANE or budget:N: {item!r}")


def per_query(src: Path, db: Path, count: int, changes: str, folder: Path) -> float:
    """Instructions a measured first-pass query under ``changes``: two children, the
    difference over ``count``."""
    counts = []
    for measured in ("0", "1"):
        copy = folder / f"run{measured}.db"
        shutil.copyfile(db, copy)
        counts.append(
            python_instructions(
                src,
                CHILD.format(bench=str(BENCH)),
                [str(copy), str(count), measured, changes],
                {"CREDO_CAPTURE": "0", "OPENBLAS_NUM_THREADS": "1"},
            )
        )
    return (counts[1] - counts[0]) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", type=Path, help="a folder holding the credo package")
    parser.add_argument("variants", nargs="+", help="name=field:value,... ('name=': defaults)")
    parser.add_argument("--db", type=Path, help="a store to copy (default: a 10k one, built)")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind")
    variants = [spec.partition("=")[::2] for spec in args.variants]
    for _name, changes in variants:
        check(changes)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = args.db or ten_thousand(folder)
        first = None
        for label, changes in variants:
            cost = per_query(args.src, db, args.queries, changes, folder)
            first = cost if first is None else first
            print(
                f"{label:<20} {changes or '(defaults)':<48} {cost:>12,.0f} "
                f"{(cost / first - 1) * 100:+7.2f}%",
                flush=True,
            )


if __name__ == "__main__":
    main()
