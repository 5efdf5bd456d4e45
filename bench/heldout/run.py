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

from corpora import HELDOUT, RESERVE

import docs_multi
from ablation import add_lanes_off, apply_lanes_off

if TYPE_CHECKING:
    from docs_corpora import Corpus

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "queries"
PROG = "heldout"


def main(argv: Sequence[str] | None = None) -> int:
    return run_set(argv, HELDOUT, QUERIES, PROG, __doc__, kept_back=RESERVE)


def run_set(
    argv: Sequence[str] | None,
    corpora: Sequence[Corpus],
    queries_dir: Path,
    prog: str,
    description: str | None,
    kept_back: Sequence[str] = (),
) -> int:
    """Run `corpora` with the query files in `queries_dir` (bench/devsets/run.py shares it).
    A corpus in `kept_back` (the held-out reserve) runs only when named: a plain run must
    not show a set that no decision has used yet."""
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
        help=f"repeatable, one of {', '.join(sorted(by_name))}; default: every corpus"
        + (f" but {', '.join(kept_back)}" if kept_back else ""),
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
    chosen = chosen_corpora(corpora, args.corpus or (), kept_back)
    results = docs_multi.run_corpora(chosen, queries_dir, prog=prog, match=args.match)
    if not results:
        print(f"{prog}: no corpus has a query file in {queries_dir}", file=sys.stderr)
        return 2
    report = docs_multi.build_report(results, corpora, queries_dir, pack=False, match=args.match)
    print(docs_multi.render(report, per_query=args.per_query))
    docs_multi.write_json(report, args.json)
    return 0


def chosen_corpora(
    corpora: Sequence[Corpus], named: Sequence[str], kept_back: Sequence[str]
) -> list[Corpus]:
    """The corpora named, in `corpora`'s order; none named: every one not kept back."""
    if named:
        return [c for c in corpora if c.name in named]
    return [c for c in corpora if c.name not in kept_back]


if __name__ == "__main__":
    raise SystemExit(main())
