"""Inline text made only of words, roles and literals, parsed without docutils' loop.

Most of a changelog's bullets are plain words with roles and literals: ``:gh:`1234```,
``:class:`~a.B```, ````name````. docutils' `Inliner.parse` finds each of them with its
initial pattern, dispatches on its start-string, searches the rest of the text (a copy)
for the end-string, and unescapes the pieces: about a third of a changelog's parse.

`parse` reads such a text in one pass and builds the nodes `Inliner.parse` builds: a
role's through the inliner's own `interpreted` (the role function of the registry), a
literal as `Inliner.inline_obj` makes it, and the text between them through the
inliner's implicit markup (standalone URIs), grouped as docutils groups it. A text is
taken only when every construct in it is certain, by these rules of docutils'
(``character_level_inline_markup`` off):

- no escape (``\\``, or docutils' own marker NUL) and no ``*``, ``|`` or ``[``
  (emphasis, substitutions, footnotes);
- every backquote is in a role written ``:name:`text``` or a literal ````text````, whose
  text has no backquote and neither starts nor ends with whitespace;
- each of them follows the text's start, a space, a newline or ``(`` (for a literal, not
  ``(`` paired with its text's first character: a quoted start-string), and is followed
  by the text's end, a space, a newline or one of ``.,;!?)-/`` (a literal also ``:``; a
  role's ``:`` could start a suffix role, and a ``_`` makes either a reference);
- every other ``_`` lies between two ASCII letters or digits (never a reference's end).

Any other text returns None and takes docutils' `Inliner.parse`.
"""

from __future__ import annotations

import re
import string
from typing import Any

from docutils import nodes
from docutils.utils import punctuation_chars

_UNSURE = "*|[\\\x00"  # (each told by `in`: a memchr, where a character class steps)
# docutils' `Inliner.simplename`: a role's name.
_NAME = r"(?:(?!_)\w)+(?:[-._+:](?:(?!_)\w)+)*"
_INNER = r"[^`\s](?:[^`]*[^`\s])?"
_CONSTRUCT = re.compile(rf"``(?P<literal>{_INNER})``|:(?P<role>{_NAME}):`(?P<text>{_INNER})`")
_ALNUM = frozenset(string.ascii_letters + string.digits)
_BEFORE = frozenset(" \n(")
# Each is whitespace or in docutils' closing delimiters, delimiters or closers (the
# end-string suffix of every version read; tests/test_rst_plain.py checks it).
_AFTER_ROLE = frozenset(" \n.,;!?)-/")
_AFTER_LITERAL = _AFTER_ROLE | {":"}


def parse(
    inliner: Any, text: str, lineno: int, implicit: Any
) -> tuple[list[Any], list[Any]] | None:
    """`Inliner.parse`'s (nodes, messages) for `text`, or None when `text` is not surely
    made of words, roles and literals only (see the module docstring). `inliner` must
    already hold the memo's reporter, document, language and parent; `implicit` is its
    implicit markup (`Inliner.implicit_inline`)."""
    if any(map(text.__contains__, _UNSURE)):
        return None
    pieces: list[tuple[int, int, str | None, str]] = []  # (start, end, role, text)
    at = 0
    size = len(text)
    for match in _CONSTRUCT.finditer(text):
        start, end = match.span()
        if not _between(text, at, start):
            return None
        literal = match.group("literal")
        if start and text[start - 1] not in _BEFORE:
            return None
        if end < size:
            after = text[end]
            if after not in (_AFTER_ROLE if literal is None else _AFTER_LITERAL):
                return None
        if literal is not None:
            if start and punctuation_chars.match_chars(text[start - 1], literal[0]):
                return None  # a quoted start-string: docutils reads it as text
            pieces.append((start, end, None, literal))
        else:
            pieces.append((start, end, match.group("role"), match.group("text")))
        at = end
    if not _between(text, at, size):
        return None
    processed: list[Any] = []
    unprocessed: list[str] = []
    messages: list[Any] = []
    at = 0
    for start, end, role, inner in pieces:  # docutils' loop, each construct already found
        unprocessed.append(text[at:start])
        if role is None:
            inlines: list[Any] = [nodes.literal(text[start:end], inner)]
        else:
            inlines, found = inliner.interpreted(text[start:end], inner, role, lineno)
            messages += found
        if inlines:
            processed += implicit("".join(unprocessed), lineno)
            processed += inlines
            unprocessed = []
        at = end
    remaining = "".join(unprocessed) + text[at:]
    if remaining:
        processed += implicit(remaining, lineno)
    return processed, messages


def _between(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]`, text between constructs, holds no backquote and a "_"
    only between ASCII letters or digits (the character before may precede `start`, the
    one after must precede `end`). Told by `str.find`: a pattern stepping through the
    text's characters took ~10 us for 80 of them."""
    if text.find("`", start, end) >= 0:
        return False
    at = text.find("_", start, end)
    while at >= 0:
        if not (at and text[at - 1] in _ALNUM and at + 1 < end and text[at + 1] in _ALNUM):
            return False
        at = text.find("_", at + 1, end)
    return True
