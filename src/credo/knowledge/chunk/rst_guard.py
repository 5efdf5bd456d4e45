"""What sends a reStructuredText file to plain text before docutils reads it (`split_rst`).

docutils stops its parse at a line past its length limit, and reads a table's grid before
any of its text, so that neither a time budget nor anything else stops a huge table: such
files are told by their lines first. Both checks read every line of every file, so the
lines that can matter are found in C (a line's length by `max`, a table border's ``+`` or
``=`` by `str.find` over the whole text) and only those are read in Python.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

MAX_LINE_CHARS = 10_000
# docutils reads a table's grid before any of its text, so a time budget cannot stop it,
# and that costs 0.1-0.5 ms a cell (more the wider the table): past this many cells in a
# file (real documentation stays under a few hundred) the file is read as plain text.
MAX_TABLE_CELLS = 10_000
_GRID_BORDER = re.compile(r"[ \t]*\+(?:[-=]+\+)+[ \t]*$")
_SIMPLE_BORDER = re.compile(r"[ \t]*=+(?:[ \t]+=+)+[ \t]*$")
_RUN = re.compile(r"=+")


def too_costly(lines: list[str]) -> bool:
    """True when a line passes docutils' limit or the tables have over `MAX_TABLE_CELLS`
    cells."""
    return _too_long(lines) or _table_cells(lines) > MAX_TABLE_CELLS


def _too_long(lines: list[str]) -> bool:
    """True when a line passes docutils' line length limit (which stops its parse)."""
    if not lines or max(map(len, lines)) <= MAX_LINE_CHARS // 8:
        return False  # (the usual case, told in C)
    return any(
        len(line) > MAX_LINE_CHARS // 8 and len(line.expandtabs(8)) > MAX_LINE_CHARS
        for line in lines
    )


def _table_cells(lines: list[str]) -> int:
    """About how many cells the grid and simple tables of `lines` have.

    A grid table's cells are counted on its border lines (``+---+---+``); a simple
    table's as its columns times its lines, from a top border (after a blank line) to
    the border with the same columns that a blank line follows."""
    # Only a line holding "+" or "=" can be a border: those lines are found in C, and the
    # others passed over (a border's search, as a table's for its bottom border).
    candidates = border_candidates(lines)
    total = 0
    index = 0  # the first line not read yet
    at = 0  # the first candidate not read yet
    while at < len(candidates):
        number = candidates[at]
        at += 1
        if number < index:
            continue
        line = lines[number]
        index = number + 1
        if "+" in line and _GRID_BORDER.match(line):
            total += line.count("+") - 1
        elif (
            "=" in line
            and _SIMPLE_BORDER.match(line)
            and (index < 2 or not lines[index - 2].strip())
        ):
            layout = [match.span() for match in _RUN.finditer(line)]
            start = index
            while at < len(candidates) and not _closes(lines, candidates[at], layout):
                at += 1
            index = candidates[at] if at < len(candidates) else len(lines)
            total += len(layout) * (index - start + 1)
            index += 1
            at += 1
    return total


def border_candidates(lines: list[str]) -> list[int]:
    """The indices of the lines holding "+" or "=" (what a border holds), in order.

    Found by `str.find` from one such line to the next line's start: a memchr over the
    text. (A line-anchored pattern, ``^.*[+=]``, ran the regex engine at every character
    and backtracked over every line: 3% of a Sphinx tree's ingest.)"""
    text = "\n".join(lines)
    offsets = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    found: set[int] = set()
    for char in "+=":
        at = text.find(char)
        while at >= 0:
            number = bisect_right(offsets, at) - 1
            found.add(number)
            at = text.find(char, offsets[number + 1])
    return sorted(found)


def _closes(lines: list[str], index: int, layout: list[tuple[int, int]]) -> bool:
    """True when line `index` is the bottom border of a simple table with `layout`."""
    line = lines[index]
    if "=" not in line or not _SIMPLE_BORDER.match(line):
        return False
    if index + 1 < len(lines) and lines[index + 1].strip():
        return False
    return [match.span() for match in _RUN.finditer(line)] == layout
