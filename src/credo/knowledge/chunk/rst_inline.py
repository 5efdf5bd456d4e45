"""docutils' inline parser for `rst_parse`, with its time budget and its pattern searches
started where a match can be.

docutils runs its initial inline pattern and its standalone-URI pattern at every character
of every block's text; credo's parse (`rst_parse`) checks its time budget before each
block's inline text and leaves out searches that cannot match (`inliner`). The doctree is
docutils' own (tests/test_rst_parse_fast.py compares it with a plain `Inliner`'s).
"""

from __future__ import annotations

import re
import string
import time
from collections.abc import Callable
from typing import Any

from docutils import nodes
from docutils.parsers.rst import states

from credo.knowledge.chunk import rst_inline_simple


class ParseTimeout(Exception):
    """The parse passed its time budget."""


# What docutils' initial pattern (`Inliner.patterns.initial`) needs to match: a
# start-string (* ` _ |), a reference name's end (_) or a footnote or citation reference
# ([); a backslash is an escape (`escape2null` changes the text).
_INITIAL = "*`_|[\\"  # (each told by `in`: a memchr, where a character class steps)
# The same without the escape: what every alternative of the initial pattern holds. What
# precedes the first of them in a match is a reference name or a role (``name_``,
# ``:role:`x```): `\w` but ``_``, and ``-.+:`` (`_name_char`).
_TRIGGER = re.compile(r"[*`_|\[]")
_NAME_PUNCTUATION = frozenset("-.+:")
# What a standalone URI or an e-mail address holds (`Inliner.patterns.uri`): the ``:``
# after its scheme or its ``@``; before it, the scheme or the name, of these characters.
_URI_TRIGGER = re.compile("[:@]")
_URI_LEAD = frozenset(string.ascii_letters + string.digits + "-_!~*'{|}/#?^`&=+$%.\x00")


class Deadline:
    """When a parse must stop (`time.thread_time`): one inliner serves parse after parse,
    each setting its own deadline here first."""

    __slots__ = ("at",)

    def __init__(self, at: float = 0.0) -> None:
        self.at = at


def inliner(deadline: Deadline) -> Any:
    """docutils' inline parser, checking the time budget before each block of text.

    The check wraps the instance's methods: `states.Inliner` cannot be subclassed (it
    builds its patterns from its own class's attributes). Pattern searches are skipped
    where they cannot match, so the nodes are docutils' own:

    - text without a character docutils' initial pattern needs (`_INITIAL`) goes
      straight to the implicit markup (`Inliner.parse` would find no construct, then do
      the same);
    - text without ``:`` or ``@`` is one Text node: the only implicit pattern (PEP and RFC
      references are off, `rst_parse._settings`) is a standalone URI, whose scheme ends in ``:``,
      or an e-mail address. Its search tries a scheme and a name at every character: a
      thirtieth of a Sphinx tree's ingest, on text that holds neither;
    - the initial and URI patterns are searched from where a match can first start
      (`_SearchFrom`);
    - text of words, roles and literals only is read in one pass
      (`rst_inline_simple.parse`).

    docutils builds the patterns from the settings at each parse (`init_customizations`,
    about a million instructions); they depend on three settings only, so this inliner
    builds them again only when those change, and can serve parse after parse."""
    parser: Any = states.Inliner()
    parse_inline = parser.parse

    def parse(text: str, lineno: int, memo: Any, parent: Any) -> Any:
        if time.thread_time() > deadline.at:
            raise ParseTimeout
        parser.reporter, parser.document = memo.reporter, memo.document
        parser.language, parser.parent = memo.language, parent
        if any(map(text.__contains__, _INITIAL)):
            simple = rst_inline_simple.parse(parser, text, lineno, implicit)
            return parse_inline(text, lineno, memo, parent) if simple is None else simple
        return implicit(text, lineno), []

    def implicit(text: str, lineno: int) -> list[Any]:
        # docutils' `implicit_inline`, its recursion on the text after each match made a
        # loop: a paragraph of a thousand addresses (celery's "Wall of Contributors")
        # passed Python's recursion limit, and the whole file went to plain text.
        found: list[Any] = []
        while ":" in text or "@" in text:
            # (each turn slices the rest of the text: 160,000 address lines took 8 s, with
            # the budget checked only between blocks; now here too, review91)
            if time.thread_time() > deadline.at:
                raise ParseTimeout
            for pattern, method in parser.implicit_dispatch:
                match = pattern.search(text)
                if match is None:
                    continue
                try:
                    made = method(match, lineno)
                except states.MarkupMismatch:
                    continue
                found += [*implicit(text[: match.start()], lineno), *made]
                text = text[match.end() :]
                break
            else:
                return [*found, nodes.Text(text)]
        return [*found, nodes.Text(text)] if text else found

    built: list[tuple[object, ...]] = []

    def init_customizations(settings: Any) -> None:
        # What docutils' patterns and implicit dispatch are built from.
        key = tuple(
            getattr(settings, name, False)
            for name in ("character_level_inline_markup", "pep_references", "rfc_references")
        )
        if built == [key]:
            return
        parser.implicit_dispatch = []  # (docutils appends to it)
        customize(settings)
        built[:] = [key]
        patterns = parser.patterns
        patterns.initial = _SearchFrom(patterns.initial, _TRIGGER, _name_char)
        parser.implicit_dispatch = [
            (_SearchFrom(found, _URI_TRIGGER, _URI_LEAD.__contains__), method)
            if found is patterns.uri
            else (found, method)
            for found, method in parser.implicit_dispatch
        ]

    customize = parser.init_customizations
    parser.parse = parse
    parser.implicit_inline = implicit
    parser.init_customizations = init_customizations
    return parser


class _SearchFrom:
    """A docutils inline pattern, searched from where a match can first start.

    The initial pattern tries its look-behind and a reference name at every character, and
    its search fails over all the text after the last construct of every block (a tenth
    of the instructions of ingesting flask's docs); the URI pattern tries a scheme and a
    name at every word. Every match of such a pattern holds a `trigger` character, and
    only `lead` characters precede the first one in it, so no match starts before the run
    of them that ends at the text's first trigger: the search starts there (the pattern's
    look-behind still sees the characters before), or is not run at all without a
    trigger. The match is the pattern's own, the one a whole search finds."""

    def __init__(
        self, pattern: re.Pattern[str], trigger: re.Pattern[str], lead: Callable[[str], bool]
    ) -> None:
        self.pattern = pattern
        self.trigger = trigger
        self.lead = lead

    def search(self, text: str) -> re.Match[str] | None:
        found = self.trigger.search(text)
        if found is None:
            return None
        start, lead = found.start(), self.lead
        while start and lead(text[start - 1]):
            start -= 1
        return self.pattern.search(text, start)


def _name_char(char: str) -> bool:
    """A character of a reference name or a role (`Inliner.simplename`): `\\w` but ``_``,
    or ``-.+:``."""
    return char.isalnum() or char in _NAME_PUNCTUATION
