"""Development corpora for docs and code retrieval: sets a ranking change may be studied on.

    python bench/devsets/corpora.py [--list]   # fetch every development corpus, print where

The same form and cache as ``bench/docs_corpora.py``. Unlike ``bench/heldout``, these sets
may be read query by query to find what to change; a change found here is then checked
once on the held-out sets (see README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import docs_corpora
from docs_corpora import Corpus

DEV: tuple[Corpus, ...] = ()

BY_NAME = {corpus.name: corpus for corpus in DEV}


def main(argv: list[str] | None = None) -> int:
    return docs_corpora.main(argv, DEV)


if __name__ == "__main__":
    sys.exit(main())
