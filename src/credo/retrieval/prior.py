"""Which candidates are records of past changes: a changelog's passages.

A changelog (``CHANGES.md``, ``HISTORY.rst``, ``docs/whatsnew/3.12.rst``...) mentions every
feature again, once when it came and once each time it changed, in one-line entries packed
with the words of the documentation that explains it. So its passages compete with the
pages a question is about, and a list of unrelated entries matches the words of a question
spread over several of them. What was changed, and when, is what a changelog answers; how
something works now is what the rest of the documentation does. `rank.compose` weighs a
changelog passage's lanes by `rank.Weights.history` (below 1): it still answers the
questions whose words it matches best ("which release added X?").

Told by the trail ingest gives a passage (``CHANGES.md › Version 2.0.0 L12-L30``): a
documentation file (Markdown, reStructuredText, AsciiDoc, plain text) whose name, or a
folder of whose path, is one a changelog goes by. Code is never one (``history.py`` is a
module). Pure; no I/O.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from functools import lru_cache

from credo.store.changelog import is_changelog_path
from credo.types import TRAIL_SEPARATOR

_LINES = re.compile(r" L\d+-L\d+$")


def is_history(trail: str) -> bool:
    """True when `trail` (a passage's, as ingest writes it) places it in a changelog."""
    return _is_history_path(trail.split(TRAIL_SEPARATOR, 1)[0])


@lru_cache(maxsize=4096)
def _is_history_path(head: str) -> bool:
    """`head`: a trail up to its first separator (a path, or a path and its lines)."""
    return is_changelog_path(_LINES.sub("", head).rsplit("#", 1)[0])
