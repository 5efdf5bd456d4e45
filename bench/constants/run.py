"""Module-level constants and settings: questions whose answer is one declaration.

    python bench/constants/run.py [--corpus NAME ...] [--per-query] [--json OUT]
                                  [--match overlap|within]

Every question here is answered by a module-level constant or setting (``DEFAULT_POOLSIZE
= 10``, ``const closeTimeout = 30 * 1000;``, Go's ``var ErrWriter io.Writer = os.Stderr``,
Rust's ``const TAIL_BYTES``), a kind of answer no other set labels (stop 56: none of the 418
code labels of docs_multi, devsets, held out, config and project files is one). The
corpora are those other sets already fetch (Python: requests, urllib3, mistune, sqlparse;
JavaScript: ws, axios; Go: urfave/cli; Rust: semver); the questions were written blind,
from the files alone, before credo or any baseline ran on them (``queries/*.json``, their
``written_by``). ``docs_multi``'s own machinery runs them: credo and the FTS5 baselines,
the same metrics and tables.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "heldout"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run import run_set  # bench/heldout/run.py

import docs_corpora
from devsets.corpora import DEV
from heldout.corpora import HELDOUT

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "queries"
PROG = "constants"


def _corpora() -> tuple[docs_corpora.Corpus, ...]:
    """The code corpora with a question file here, from the sets that already fetch them."""
    named = {path.stem for path in QUERIES.glob("*.json")}
    pool = (*docs_corpora.CORPORA, *DEV, *HELDOUT)
    return tuple(c for c in pool if c.name in named and c.kind == "code")


def main(argv: Sequence[str] | None = None) -> int:
    return run_set(argv, _corpora(), QUERIES, PROG, __doc__)


if __name__ == "__main__":
    raise SystemExit(main())
