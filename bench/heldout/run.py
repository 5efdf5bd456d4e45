"""Held-out documentation and code retrieval: docs_multi's bench over corpora kept for checks.

    python bench/heldout/corpora.py                   # fetch the held-out corpora once
    python bench/heldout/run.py [--corpus NAME ...] [--per-query] [--json OUT]
                                [--match overlap|within]

Runs ``bench/docs_multi.py``'s own machinery (the same systems, metrics, tables and JSON
report; nothing here scores or ranks) over the corpora in ``corpora.py``, reading
``queries/<name>.json``. The rule (README.md): never tune on these sets; run them only to
check a change that was made on the bench corpora.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import HELDOUT

import docs_multi
from ablation import add_lanes_off, apply_lanes_off

if TYPE_CHECKING:
    from docs_corpora import Corpus

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "queries"
PROG = "heldout"


def main(argv: Sequence[str] | None = None) -> int:
    return run_set(argv, HELDOUT, QUERIES, PROG, __doc__)


def run_set(
    argv: Sequence[str] | None,
    corpora: Sequence[Corpus],
    queries_dir: Path,
    prog: str,
    description: str | None,
) -> int:
    """Run `corpora` with the query files in `queries_dir` (bench/devsets/run.py shares it)."""
    by_name = {corpus.name: corpus for corpus in corpora}
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--corpus",
        action="append",
        choices=sorted(by_name),
        metavar="NAME",
        help=f"repeatable, one of {', '.join(sorted(by_name))}; default: every corpus",
    )
    parser.add_argument(
        "--per-query", action="store_true", help="first matching rank per query and system"
    )
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    docs_multi.add_match(parser)
    add_lanes_off(parser)
    args = parser.parse_args(argv)
    apply_lanes_off(args.lanes_off)
    docs_multi.warn_environment(prog)
    chosen = [c for c in corpora if not args.corpus or c.name in args.corpus]
    results = docs_multi.run_corpora(chosen, queries_dir, prog=prog, match=args.match)
    if not results:
        print(f"{prog}: no corpus has a query file in {queries_dir}", file=sys.stderr)
        return 2
    report = docs_multi.build_report(results, corpora, queries_dir, pack=False, match=args.match)
    print(docs_multi.render(report, per_query=args.per_query))
    docs_multi.write_json(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
