"""How long a tree-sitter parse may run before the file goes to the fallback reader.

Code parses in milliseconds, but some hostile input ("<[{(" repeated) sends tree-sitter's error
recovery into seconds per 100 KB. The budget counts tree-sitter's work, not the wall clock: a
clock made a loaded machine cancel parses an idle one finished, so one project read into two
different stores (parse87). tree-sitter calls back once per 100 operations; real code takes
<= 0.029 calls a byte, typically 0.006 (25,000 files: the bench corpora, CPython's stdlib and
site-packages, node_modules). A backstop in this process's CPU time, far above any real file's
(other processes' load is not counted), bounds dense hostile input, which takes as many calls a
byte as a numeric table but 10-50x longer each. It counts the parsing thread's CPU time
alone: a server's other threads (a warm-up, a query) spend this process's too (review88).
"""

from __future__ import annotations

import itertools
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Parser, Tree

PARSE_CALLS = 1_000
PARSE_CALLS_PER_BYTE = 0.04
# (benches under valgrind, ~50x slower, turn the backstop off: 1e9)
PARSE_SECONDS = 2.0
PARSE_SECONDS_PER_BYTE = 4.0 / 1_000_000
_READ_BYTES = 1 << 16


def parse_within_budget(parser: Parser, source: bytes) -> Tree | None:
    """The tree of `source`, or None when the parse passes its budget (then cancelled)."""
    budget = PARSE_CALLS + len(source) * PARSE_CALLS_PER_BYTE
    spent = time.thread_time() + PARSE_SECONDS + len(source) * PARSE_SECONDS_PER_BYTE
    calls = itertools.count(1)

    def cancel(_offset: int, _has_error: bool) -> bool:
        return next(calls) > budget or time.thread_time() > spent

    def read(offset: int, _point: object) -> bytes:
        return source[offset : offset + _READ_BYTES]

    try:
        return parser.parse(read, progress_callback=cancel)
    except ValueError:  # "Parsing failed": cancelled
        return None
