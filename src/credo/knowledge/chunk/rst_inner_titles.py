"""A section title inside a directive's body, kept as a subsection of it.

Sphinx reads a description's body with section titles allowed (``nested_parse_with_titles``:
an "Examples" subsection inside a ``confval``, a "settings" subsection inside a middleware's
``.. class::``; sphinx-design reads a card's ``^^^`` header the same way). docutils, which
credo parses the body with, refuses a title there: it reports "Unexpected section title."
with the title and its adornment, and the walker skips reports, so the title was lost
(scrapy's spider-middleware page, Sphinx's configuration page, pydata-sphinx-theme's cards).
Each such report among a body's blocks opens a section of the title's text (at the title's
line) holding the blocks after it, up to the next title of its level or above: the body's
own adornment styles, in the order they first appear, give the levels, as docutils gives a
page's. Sphinx's own reading would save and restore the page's title styles around the
body's parse; the page's nesting is left as docutils read it, only the body's blocks are
regrouped. (Stop 63 kept such a title as a rubric, a paragraph: its words, no trail for the
blocks under it; a card's header and footer lines still are.)
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes

_REFUSED = "Unexpected section title."
_ADORNMENT = re.compile(r"^\s*([!-/:-@\[-`{-~])\1*\s*$")


# sphinx-design's cards: a line of ``^^^`` ends the card's header, a line of ``+++`` opens its
# footer. docutils reads both as title adornments; they are no sections: each is a rubric.
CARDS = frozenset(("card", "grid-item-card"))


def keep(body: Any, state: Any, sections: bool = True) -> None:
    """Regroup `body`'s children under a section for each refused title among them, or,
    not `sections` (a card), replace each by a rubric of its text (`state`: the directive's,
    to read the title's inline markup)."""
    refused = {
        index: found
        for index, child in enumerate(body.children)
        if child.tagname == "system_message" and (found := _refused(child)) is not None
    }
    if not refused:
        return
    children = list(body.children)
    if not sections:
        for index, (text, at, _) in refused.items():
            body.replace(children[index], _node(nodes.rubric, text, at, state))
        return
    styles: list[tuple[bool, str]] = []
    open_: list[tuple[int, Any]] = []  # (level, section), outermost first
    kept: list[Any] = []
    for index, child in enumerate(children):
        if index not in refused:
            if open_:
                open_[-1][1].append(child)
            else:
                kept.append(child)
            continue
        text, at, style = refused[index]
        if style not in styles:
            styles.append(style)
        level = styles.index(style)
        while open_ and open_[-1][0] >= level:
            open_.pop()
        section = nodes.section("", _node(nodes.title, text, at, state))
        section.line = at
        if open_:
            open_[-1][1].append(section)
        else:
            kept.append(section)
        open_.append((level, section))
    body.children = []
    body.extend(kept)


def _node(kind: Any, text: str, at: int, state: Any) -> Any:
    """A title or rubric of `text` at line `at`, its inline markup read."""
    inline, _ = state.inline_text(text, at)
    node = kind(text, "", *inline)
    node.line = at
    return node


def _refused(child: Any) -> tuple[str, int, tuple[bool, str]] | None:
    """(title, line, adornment style) of a report of a refused title; None for another
    report."""
    if len(child.children) < 2 or child.children[0].astext() != _REFUSED:
        return None
    lines = child.children[1].astext().split("\n")
    titles = [line.strip() for line in lines if line.strip() and not _ADORNMENT.match(line)]
    if not titles:
        return None
    adornments = [line.strip() for line in lines if line.strip() and _ADORNMENT.match(line)]
    overline = bool(lines) and bool(_ADORNMENT.match(lines[0]))
    line = int(child.get("line") or 1)
    at = max(1, line - 1) if len(lines) == 2 and _ADORNMENT.match(lines[1]) else line
    return titles[0], at, (overline, adornments[0][:1] if adornments else "")
