"""A section title inside a directive's body, kept as a rubric.

Sphinx reads a description's body with section titles allowed (``nested_parse_with_titles``:
an "Examples" subsection inside a ``confval``, a "settings" subsection inside a middleware's
``.. class::``; sphinx-design reads a card's ``^^^`` header the same way). docutils, which
credo parses the body with, refuses a title there: it reports "Unexpected section title."
with the title and its adornment, and the walker skips reports, so the title was lost
(scrapy's spider-middleware page, Sphinx's configuration page, pydata-sphinx-theme's cards).
Each such report among a body's blocks becomes a rubric of the title's text (a paragraph
to the walker, at the title's line). A real subsection would need the title styles saved
and restored around the body's parse, as Sphinx does; a rubric keeps the words without
changing how the rest of the page nests.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes

_REFUSED = "Unexpected section title."
_ADORNMENT = re.compile(r"^\s*([!-/:-@\[-`{-~])\1*\s*$")


def keep(body: Any, state: Any) -> None:
    """Replace each refused title among `body`'s children by a rubric of its text
    (`state`: the directive's, to read the title's inline markup)."""
    for child in list(body.children):
        if child.tagname != "system_message" or len(child.children) < 2:
            continue
        if child.children[0].astext() != _REFUSED:
            continue
        lines = child.children[1].astext().split("\n")
        titles = [line.strip() for line in lines if line.strip() and not _ADORNMENT.match(line)]
        if not titles:
            continue
        line = int(child.get("line") or 1)
        at = max(1, line - 1) if len(lines) == 2 and _ADORNMENT.match(lines[1]) else line
        inline, _ = state.inline_text(titles[0], at)
        rubric = nodes.rubric(titles[0], "", *inline)
        rubric.line = at
        body.replace(child, rubric)
