"""Development sets for docs and code retrieval: docs_multi's bench over corpora one may study.

    python bench/devsets/corpora.py                   # fetch the development corpora once
    python bench/devsets/run.py [--corpus NAME ...] [--per-query] [--json OUT]
                                [--match overlap|within]
    python bench/devsets/run.py --focused [...]      # the focused sets (focused/), apart

The same runner as ``bench/heldout/run.py`` over ``corpora.py`` here and
``queries/<name>.json``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "heldout"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run import run_set

from devsets.corpora import DEV, FOCUSED

HERE = Path(__file__).resolve().parent


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--focused" in args:
        args.remove("--focused")
        return run_set(args, FOCUSED, HERE / "focused", "devsets --focused", __doc__)
    return run_set(args, DEV, HERE / "queries", "devsets", __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
