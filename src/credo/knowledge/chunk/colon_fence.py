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

A container (markdown-it-container, as VitePress and Docusaurus write boxes: ``::: info
Note``, ``:::tip[Use the cache]``, ``::: warning``) is the same fence without braces; the page
shows its title over its Markdown. A box of a known type becomes the MyST fence of that name
(``::: info Note`` reads as ``{info} Note``: the title a paragraph, the type a style, as
MyST's ``{note}`` reads); another type's opening line becomes its title, else its type, and
its closing line nothing; ``::: code-group``, which draws no box, loses its fence lines only.
bump-my-version's VitePress docs gave passages such as "::: info Note This is only used with
TOML configuration. :::" (md89).

The rules, as MyST's colon fence has them: an opening line is three or more colons, then
``{name}`` and an optional argument; the closing line holds colons only, at least as many
as the opening. Fences nest (``::::{tab-set}`` around ``:::{tab-item}``): each rewritten
fence is one character longer than the longest fence of its character inside it, so an
inner fence never closes an outer one; a fence whose argument holds a backtick becomes a
tilde fence (`fence_char`: a backtick fence's info string cannot hold one); fences nested
deeper than `MAX_NESTING` stay text. Colons inside a backtick or tilde code block are code
and stay as written; a colon fence that is never closed is left as it is (text, as before).
"""

from __future__ import annotations

import re
from typing import Any

from credo.knowledge.chunk.markdown_blocks import CONTAINER_TYPES, OPTION_LINE, PROSE_DIRECTIVES

_OPEN = re.compile(r"([ \t]*)(:{3,})(\{([A-Za-z][\w:.+-]*)\}.*)$")
# A container (markdown-it-container: VitePress' "::: info Title", Docusaurus' ":::tip[Title]"
# or ":::tip Title"): a type word, then the title the page shows over the box.
# (Patterns compiled on first use, by re's cache: few pages hold a colon line, and a compile
# at import costs every ingest.)
_CONTAINER = r"([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)(?=[ \t\[{]|$)(.*)$"
# (VitePress' "{open}"; matched on the title with its trailing blanks gone: a leading "[ \t]*"
# was tried at every blank, and 30,000 blanks before a title's last word took 1.5 s, review91)
_ATTRIBUTES = r"\{[^{}]*\}$"
# Containers that draw no box: their content is read as Markdown, their fences as nothing.
_BARE_CONTAINERS = frozenset({"code-group"})
# What opens a block at a line's start: a title written so is escaped, to stay a paragraph.
_BLOCK_MARKS = frozenset("#>-+*=|<`~:")
_CLOSE = re.compile(r"([ \t]*)(:{3,})[ \t]*$")
# A backtick or tilde code fence's opening or closing line (CommonMark: at most three
# spaces of indent; within a list item more, which the rewrite does not need to tell apart).
_CODE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)$")


def rewrite_colon_fences(lines: list[str], code: frozenset[int] = frozenset()) -> list[str]:
    """``lines`` with every closed MyST colon fence written as a backtick fence (a new list
    when one was rewritten, else ``lines`` itself); the lines at the indices ``code`` holds
    (an indented code block's, `indented_code`) are code and no fence's."""
    pairs = _pairs(lines, code)
    if not pairs:
        return lines
    out = list(lines)
    for start, end, longest in pairs:
        opening = _opening(out[start])
        closing = _CLOSE.match(out[end])
        if opening is None or closing is None:  # (never: _pairs matched both)
            continue
        indent, info, text = opening
        if info is not None:
            fence = fence_char(info) * max(3, longest + 1)
            out[start] = indent + fence + info
            out[end] = closing.group(1) + fence
            continue
        out[start] = "" if text is None else indent + text
        out[end] = ""
        option = start + 1
        while option < end and OPTION_LINE.match(out[option]):
            out[option] = ""
            option += 1
    return out


# Colon fences nested deeper than this stay text: MyST's pages nest two or three, and each
# level's fence is one backtick longer, so 3,000 nested fences wrote 9 MB of backticks.
MAX_NESTING = 32


def _opening(line: str) -> tuple[str, str | None, str | None] | None:
    """(indent, the info string of the backtick fence it becomes, the text it becomes) of a
    colon fence's opening line: the info None when its content is plain Markdown, the text
    None when the line becomes blank; None when the line opens no fence.

    A container of a known type reads as MyST's ``{note} Title``: its title, when written,
    a paragraph of its own and its content Markdown (``::: info Note`` becomes ``{info}
    Note``: every word a word of its line, so a fence line read as text, in an HTML block,
    names nothing the file does not). Another type's line becomes its title, else its type."""
    myst = _OPEN.match(line)
    if myst is not None:
        prose = myst.group(4).lower() in PROSE_DIRECTIVES
        return myst.group(1), myst.group(3) if prose else None, None
    box = re.match(_CONTAINER, line)
    if box is None:
        return None
    kind = box.group(3)
    if kind.lower() in _BARE_CONTAINERS:
        return box.group(1), None, None
    title = re.sub(_ATTRIBUTES, "", box.group(4).rstrip(" \t")).strip()
    if title.startswith("[") and title.endswith("]"):
        title = title[1:-1].strip()
    if kind.lower() in CONTAINER_TYPES:
        return box.group(1), f"{{{kind}}} {title}".rstrip(), None
    text = title or kind
    return box.group(1), None, "\\" + text if text[0] in _BLOCK_MARKS else text


def fence_char(info: str) -> str:
    """The character of the fence a prose colon fence becomes: a backtick, unless its
    ``{name} argument`` holds one (CommonMark ends a backtick fence's info string at a
    backtick, so ``{versionchanged} 14.0 returns {any}`dict``` would open no fence and its
    closing line would open a code block that swallows what follows): then a tilde."""
    return "~" if "`" in info else "`"


def indented_code(tokens: list[Any], before: list[str], after: list[str]) -> frozenset[int]:
    """The indices of the lines `rewrite_colon_fences` changed (``before`` into ``after``)
    that markdown-it read as an indented code block's: a colon line indented four columns
    is code there, as CommonMark reads it ("    ::: tip" read as "```{tip}" in the block,
    and a ":::" under it, closing it, opened a fence that made the prose below it code:
    review91). Indent alone cannot tell (a list item's box is indented as much), markdown-it
    can; a rewrite's lines keep their numbers, so its map points at them."""
    changed = {index for index, line in enumerate(after) if line is not before[index]}
    code: set[int] = set()
    for token in tokens:
        if token.type == "code_block" and token.map:
            code.update(index for index in range(*token.map) if index in changed)
    return frozenset(code)


def _pairs(lines: list[str], skip: frozenset[int] = frozenset()) -> list[tuple[int, int, int]]:
    """(opening, closing, longest fence of its own character inside) of the closed colon
    fences, inner ones first, code blocks skipped: one pass, each fence's longest backtick
    and tilde fences carried to the fence around it as it closes (a prose fence's own fence
    is one longer than the longest of its character inside)."""
    pairs: list[tuple[int, int, int]] = []
    # [line index, colons, longest backtick fence inside, longest tilde fence inside]
    open_fences: list[list[int]] = []
    code: tuple[str, int] | None = None  # the open code fence: (its character, its length)
    for index, line in enumerate(lines):
        if index in skip or (":::" not in line and "``" not in line and "~~~" not in line):
            continue
        if open_fences:
            inner = open_fences[-1]
            inner[2], inner[3] = max(inner[2], _ticks(line)), max(inner[3], _tildes(line))
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
                start, _, ticks, tildes = open_fences.pop()
                if len(open_fences) < MAX_NESTING:
                    opening = _opening(lines[start])
                    info = opening[1] if opening is not None else None
                    tilde = info is not None and fence_char(info) == "~"
                    pairs.append((start, index, tildes if tilde else ticks))
                    if info is not None:
                        own = max(3, (tildes if tilde else ticks) + 1)  # (once rewritten)
                        ticks, tildes = (ticks, own) if tilde else (own, tildes)
                if open_fences:
                    outer = open_fences[-1]
                    outer[2], outer[3] = max(outer[2], ticks), max(outer[3], tildes)
            continue
        opening = _OPEN.match(line) or re.match(_CONTAINER, line)
        if opening is not None:
            open_fences.append([index, len(opening.group(2)), 0, 0])
    return pairs


def _ticks(line: str) -> int:
    """The length of the backtick fence ``line`` opens or closes (0 when it is none)."""
    fenced = _CODE.match(line)
    return len(fenced.group(1)) if fenced and fenced.group(1)[0] == "`" else 0


def _tildes(line: str) -> int:
    """The length of the tilde fence ``line`` opens or closes (0 when it is none)."""
    fenced = _CODE.match(line)
    return len(fenced.group(1)) if fenced and fenced.group(1)[0] == "~" else 0
