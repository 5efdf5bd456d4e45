"""MyST colon fences (``:::{note}`` ... ``:::``) rewritten as the backtick fences they mean.

MyST offers the colon fence for directives whose content is Markdown (its docs recommend it
for admonitions), and markdown-it's CommonMark preset does not know it: the fence lines read
as text, glued to the paragraph beside them (structlog's docs gave passages such as
"... equivalent to: :::{note} recreate_defaults() ... :::"). Each closed colon fence becomes
a backtick fence with the same info string when it names a prose directive (``{note}``,
``{admonition} Title``, ``{tab-item}``...), so `markdown_blocks` reads it as it reads a
backtick one: its content as Markdown, its options dropped, a heading inside no section.
Any other colon fence (``{glossary}``, ``{figure}``...) keeps its content as Markdown, as MyST
reads a colon fence's content, and loses only its fence and option lines: a backtick fence
would make that prose code. Lines are rewritten in place, so every line keeps its number.

The rules, as MyST's colon fence has them: an opening line is three or more colons, then
``{name}`` and an optional argument; the closing line holds colons only, at least as many
as the opening. Fences nest (``::::{tab-set}`` around ``:::{tab-item}``): each rewritten
fence is one backtick longer than the longest backtick fence inside it, so an inner fence
never closes an outer one; fences nested deeper than `MAX_NESTING` stay text. Colons inside
a backtick or tilde code block are code and stay as written; a colon fence that is never
closed is left as it is (text, as before).
"""

from __future__ import annotations

import re

from credo.knowledge.chunk.markdown_blocks import OPTION_LINE, PROSE_DIRECTIVES

_OPEN = re.compile(r"([ \t]*)(:{3,})(\{([A-Za-z][\w:.+-]*)\}.*)$")
_CLOSE = re.compile(r"([ \t]*)(:{3,})[ \t]*$")
# A backtick or tilde code fence's opening or closing line (CommonMark: at most three
# spaces of indent; within a list item more, which the rewrite does not need to tell apart).
_CODE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)$")


def rewrite_colon_fences(lines: list[str]) -> list[str]:
    """``lines`` with every closed MyST colon fence written as a backtick fence (a new list
    when one was rewritten, else ``lines`` itself)."""
    pairs = _pairs(lines)
    if not pairs:
        return lines
    out = list(lines)
    for start, end, longest in pairs:
        opening = _OPEN.match(out[start])
        closing = _CLOSE.match(out[end])
        if opening is None or closing is None:  # (never: _pairs matched both)
            continue
        if opening.group(4).lower() in PROSE_DIRECTIVES:
            fence = "`" * max(3, longest + 1)
            out[start] = opening.group(1) + fence + opening.group(3)
            out[end] = closing.group(1) + fence
            continue
        out[start] = out[end] = ""
        option = start + 1
        while option < end and OPTION_LINE.match(out[option]):
            out[option] = ""
            option += 1
    return out


# Colon fences nested deeper than this stay text: MyST's pages nest two or three, and each
# level's fence is one backtick longer, so 3,000 nested fences wrote 9 MB of backticks.
MAX_NESTING = 32


def _pairs(lines: list[str]) -> list[tuple[int, int, int]]:
    """(opening, closing, longest backtick fence inside) of the closed colon fences, inner
    ones first, code blocks skipped: one pass, each fence's longest carried to the fence
    around it as it closes (a prose fence's own fence is one longer than its longest)."""
    pairs: list[tuple[int, int, int]] = []
    open_fences: list[list[int]] = []  # [line index, colons, longest backtick fence inside]
    code: tuple[str, int] | None = None  # the open code fence: (its character, its length)
    for index, line in enumerate(lines):
        if ":::" not in line and "``" not in line and "~~~" not in line:
            continue
        ticks = _ticks(line)
        if ticks and open_fences:
            open_fences[-1][2] = max(open_fences[-1][2], ticks)
        fenced = _CODE.match(line)
        if code is not None:
            if (
                fenced is not None
                and not fenced.group(2).strip()
                and fenced.group(1)[0] == code[0]
                and len(fenced.group(1)) >= code[1]
            ):
                code = None  # its closing line
            continue
        if fenced is not None:
            if fenced.group(1)[0] == "~" or "`" not in fenced.group(2):
                code = (fenced.group(1)[0], len(fenced.group(1)))
            continue
        closing = _CLOSE.match(line)
        if closing is not None:
            # A close shorter than the fence it would end is that fence's content.
            if open_fences and open_fences[-1][1] <= len(closing.group(2)):
                start, _, longest = open_fences.pop()
                shown = longest
                if len(open_fences) < MAX_NESTING:
                    pairs.append((start, index, longest))
                    opening = _OPEN.match(lines[start])
                    if opening is not None and opening.group(4).lower() in PROSE_DIRECTIVES:
                        shown = max(3, longest + 1)  # (its own fence, once rewritten)
                if open_fences:
                    open_fences[-1][2] = max(open_fences[-1][2], shown)
            continue
        opening = _OPEN.match(line)
        if opening is not None:
            open_fences.append([index, len(opening.group(2)), 0])
    return pairs


def _ticks(line: str) -> int:
    """The length of the backtick fence ``line`` opens or closes (0 when it is none)."""
    fenced = _CODE.match(line)
    return len(fenced.group(1)) if fenced and fenced.group(1)[0] == "`" else 0
