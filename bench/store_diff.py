"""Do two credo trees write the same store? Every table, row by row.

    python bench/store_diff.py SRC_A SRC_B [--corpora black,flask] [--tree DIR ...]
    python bench/store_diff.py --stores A.db B.db
    python bench/store_diff.py SRC_A SRC_B --except edge_files,_migrations

Each SRC is a folder holding the ``credo`` package (a worktree's ``src``, or ``git archive``
of a commit). For each corpus (the bench's, ``bench/docs_corpora.py``, and any ``--tree``),
each SRC ingests it into a fresh store in a fresh process, with what makes two runs of one
tree comparable: ``PYTHONHASHSEED=0``, no worker processes, commit groups closed by file
count only (not by seconds, which a slower run would cut differently) and no time budget
on an rst parse (a loaded machine would fall back to plain text on other files).

Then every table of ``sqlite_master`` (FTS5 shadow tables included) is read with
``SELECT * ... ORDER BY`` its key (rowid; every column for a WITHOUT ROWID table) and the
two are compared row by row. Columns holding wall-clock times differ between any two runs:
they are compared as set or NULL only, and named in the output. Belief ids come from the
text, so they are compared as they are. The FTS5 index is also compared logically
(``fts5vocab`` 'instance': every term, row, column and offset) and integrity-checked, so a
difference of segment layout alone (``beliefs_fts_data``/``_idx``) is told apart from a
different index. Exits 1 when any table differs. ``--except`` leaves tables out of the
comparison (a branch that adds a table compares the rest: the new table and the one
more ``_migrations`` row).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from docs_corpora import bench_work  # noqa: E402

# Columns that hold the time of the run that wrote them.
CLOCK = frozenset(
    "applied_at created_at updated_at at ingested_at deleted_at last_at listed_at undone_at".split()
)
FTS_SHADOWS = frozenset({"beliefs_fts_data", "beliefs_fts_idx"})

CHILD = """
import json, sys
from pathlib import Path
import credo.knowledge.chunk.rst as rst
import credo.knowledge.ingest.run as run
from credo import Memory
from credo.config import Settings
rst._BUDGET_SECONDS = 1e9  # a slow run must not fall back to plain text
run.GROUP_SECONDS = 1e9  # commit groups by file count only
import credo.knowledge.chunk.code_treesitter as tree
tree._PARSE_SECONDS = 1e9  # a tree before parse87 cancelled tree-sitter parses on the clock
try:  # and since, a backstop of CPU time, which a slow run could reach
    import credo.knowledge.chunk.parse_budget as budget
    budget.PARSE_SECONDS = 1e9
except ImportError:
    pass
root, files, db = Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
with Memory(db, root=root, settings=Settings()) as memory:
    memory.ingest(*files)
"""


def build(src: str, root: Path, files: list[str], db: Path) -> None:
    """Ingest ``files`` under ``root`` into a fresh store ``db`` with the credo in ``src``."""
    env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0", CREDO_INGEST_WORKERS="0")
    argv = [sys.executable, "-c", CHILD, str(root), _json(files), str(db)]
    subprocess.run(argv, env=env, check=True, capture_output=True)


def _json(values: list[str]) -> str:
    import json

    return json.dumps(values)


def rows(conn: sqlite3.Connection, table: str) -> tuple[list[str], list[tuple[object, ...]]]:
    """The table's columns, and its rows in key order with clock columns masked."""
    columns = [r[1] for r in conn.execute(f"PRAGMA table_info('{table}')")]
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    ordered = ", ".join(f'"{c}"' for c in columns) if "WITHOUT ROWID" in sql.upper() else "rowid"
    found = []
    for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY {ordered}'):
        found.append(
            tuple(
                ("<set>" if value is not None else None) if name in CLOCK else value
                for name, value in zip(columns, row, strict=True)
            )
        )
    return columns, found


def fts_terms(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    """Every (term, row, column, offset) the FTS5 index holds, whatever its segments."""
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instance "
        "USING fts5vocab(main, beliefs_fts, instance)"
    )
    conn.execute("INSERT INTO beliefs_fts(beliefs_fts) VALUES ('integrity-check')")
    return conn.execute(
        "SELECT term, doc, col, offset FROM temp.fts_instance ORDER BY term, doc, col, offset"
    ).fetchall()


def compare(a: Path, b: Path, left_out: frozenset[str] = frozenset()) -> bool:
    """Print the comparison of two stores; True when every table is the same (those in
    ``left_out`` aside)."""
    ca, cb = sqlite3.connect(a), sqlite3.connect(b)
    listed = "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"
    kept = lambda n, s: "VIRTUAL" not in (s or "").upper() and n not in left_out  # noqa: E731
    tables = [(n, s) for n, s in ca.execute(listed) if kept(n, s)]
    others = [(n, s) for n, s in cb.execute(listed) if kept(n, s)]
    if left_out:
        print("  left out: " + ", ".join(sorted(left_out)))
    schemas = tables == others
    same = schemas
    if not schemas:
        print("  DIFF  the table lists or their schemas")
    masked: set[str] = set()
    layout_only = True
    for table, _ in tables:
        columns, ra = rows(ca, table)
        rb = rows(cb, table)[1] if schemas else []
        masked |= {f"{table}.{c}" for c in columns if c in CLOCK}
        if ra == rb:
            print(f"  same  {table:28s} {len(ra):7d} rows")
            continue
        same = False
        layout_only &= table in FTS_SHADOWS
        pairs = enumerate(zip(ra, rb, strict=False))  # (the shorter one's rows)
        first = next((i for i, (x, y) in pairs if x != y), min(len(ra), len(rb)))
        print(f"  DIFF  {table:28s} {len(ra):7d} vs {len(rb)} rows, first at row {first}")
    index_same = fts_terms(ca) == fts_terms(cb)
    print(f"  {'same' if index_same else 'DIFF'}  FTS5 index terms (fts5vocab instance)")
    print("  clock columns compared as set/NULL only: " + ", ".join(sorted(masked)))
    if same and index_same:
        print("  IDENTICAL")
    elif layout_only and index_same:
        print("  SAME INDEX, OTHER FTS5 SEGMENTS (only beliefs_fts_data/_idx differ)")
    else:
        print("  DIFFERENT")
    return same and index_same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("srcs", nargs="*", help="two folders holding the credo package")
    parser.add_argument("--stores", nargs=2, metavar="DB", help="compare two stores as they are")
    parser.add_argument("--corpora", default="", help="comma-separated bench corpora")
    parser.add_argument("--tree", action="append", default=[], help="a folder to ingest")
    parser.add_argument("--except", dest="left_out", default="", help="tables left out")
    args = parser.parse_args()
    left_out = frozenset(n for n in args.left_out.split(",") if n)
    if args.stores:
        return 0 if compare(Path(args.stores[0]), Path(args.stores[1]), left_out) else 1
    if len(args.srcs) != 2:
        parser.error("give two SRC folders, or --stores A.db B.db")
    work = bench_work(args.corpora, args.tree)
    every = True
    with tempfile.TemporaryDirectory(prefix="credo-store-diff-") as tmp:
        for number, (name, root, files) in enumerate(work):
            dbs = [Path(tmp) / f"{number:02d}.{side}.db" for side in "ab"]
            for src, db in zip(args.srcs, dbs, strict=True):
                build(src, root, files, db)
            print(name)
            every &= compare(*dbs, left_out)
    return 0 if every else 1


if __name__ == "__main__":
    sys.exit(main())
