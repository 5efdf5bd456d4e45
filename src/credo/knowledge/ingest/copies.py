"""The context of a text held by several files: the union of each file's context.

A belief is its text, so the same text in two files (two modules' ``def __init__(self):``,
a ``def main():`` in two scripts, Go's ``func init()``) is one belief with an ``ingest``
anchor in each. Each file keeps the context the belief has there (store ``anchor_contexts``,
m019); the belief's indexed context is their union, the file anchored first first (then by
path: ``Store.file_contexts``), so a copy read later never changes what a hit shows:

- the first file's context whole, as one file's would be (its trail is line 1: what a hit
  shows; its own title counted twice, its filler: knowledge/ingest/context.py);
- then one line of the other files' words that the row does not hold yet, each once.

Why each new word once, not every file's context appended: BM25F's term frequency says how
much a row is about a word. The copies of one text share most of their context (the
definition's name, which the first file already counts twice; a module's path words), and
twenty scripts' ``def main():`` are not twenty times more about "main" than one is; nor
should a copy's length (BM25 divides by it) grow with every file that repeats it. Each
file's own words (its path, its owners, its body's names) are what was missing: once each
they make every copy findable, and a belief held by one file is exactly as before. The
line ranges of the other files (``L3-L5``) are left out: no question asks for them.

A short passage's filler stood for the tokens the first file's row lacked to the length
floor; the words added count toward the floor, so the filler shrinks by as many.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from credo.knowledge.identity import MAX_CONTEXT_CHARS
from credo.store.stem import tokens
from credo.types import LENGTH_FILLER

_LINE_HINT = re.compile(r"l\d+")
_FILLER_LINE = "\n" + LENGTH_FILLER


def union(rows: Sequence[tuple[str, str]]) -> str:
    """The context of a belief whose files give ``rows`` (file, context), in order."""
    ordered = list(rows)
    first = ordered[0][1]
    if len(ordered) == 1:
        return first
    body, cut, filler = first.partition(_FILLER_LINE)
    seen = set(_tokens(body))
    extra: list[str] = []
    for _, context in ordered[1:]:
        for token in _tokens(context.partition(_FILLER_LINE)[0]):
            if token not in seen:
                seen.add(token)
                extra.append(token)
    if not extra:
        return first
    text = f"{body}\n{' '.join(extra)}"
    if cut and (short := (filler.count(LENGTH_FILLER) + 1) - len(extra)) > 0:
        text += "\n" + " ".join([LENGTH_FILLER] * short)
    if len(text) > MAX_CONTEXT_CHARS:  # (a record's limit: cut at a word)
        text = text[: MAX_CONTEXT_CHARS + 1].rsplit(None, 1)[0]
    return text


# A text in N files is composed again at each file's write: each context's words once.
@lru_cache(maxsize=4096)
def _tokens(context: str) -> tuple[str, ...]:
    return tuple(t for t in tokens(context) if not _LINE_HINT.fullmatch(t))
