"""The hook's block on source code: its bytes, and how many passages keep their lines.

    python bench/hook_block_code.py

bench/hook_block_config.py's measure (the hook's own ``retrieve_for_hook`` at its default
budget, under its 6 KB cap) over the code corpora and their questions: urllib3, requests
and axios (``docs_multi/``), attrs, commander, mistune and postcss (``heldout/queries/``;
nothing committed: fetched by ``docs_corpora.fetch``). A code passage keeps its lines when
its first line is a definition's signature or an assignment (``tokens.keeps_lines``): its
docstring's paragraphs and its comments then stand one a line, behind the gutter.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "heldout"))

from corpora import HELDOUT
from run import QUERIES as HELDOUT_QUERIES

from docs_corpora import CORPORA
from docs_multi import DEFAULT_QUERIES
from hook_block_config import report


def main() -> int:
    docs_code = tuple(c for c in CORPORA if c.kind == "code")
    heldout_code = tuple(c for c in HELDOUT if c.kind == "code")
    return report(((docs_code, DEFAULT_QUERIES), (heldout_code, HELDOUT_QUERIES)))


if __name__ == "__main__":
    raise SystemExit(main())
