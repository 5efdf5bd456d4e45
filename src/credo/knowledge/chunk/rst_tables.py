"""Tables for `split_rst`'s walker: a titled table's title as the context of its rows,
and each row as one chunk of its cells where it reads as one.

``.. table:: Truth table``, ``.. list-table:: Frozen Delights`` and ``.. csv-table::``
give a table a title, which docutils makes the table's first child. The title is a
paragraph chunk of its own, which reached only the passage beside it: the rows further
down held no word of it (trio's reference-io.rst, "Overview: abstract base classes for
I/O" over a row per stream class).
The title is therefore each row's `Chunk.context`, as a named directive's label is of
its body (`rst_items.lead`): the innermost where they nest.

A row (grid, simple, ``list-table``, ``csv-table``) is one "paragraph" chunk, its cells
joined by `` | ``, when each cell holds only paragraphs and the row's words read in order
from its lines (one-line rows); otherwise each cell's blocks are chunks of their own.
Kept apart from `rst`, whose walker hands these nodes here; docutils is not imported here.
"""

from __future__ import annotations

from typing import Any

from credo.knowledge.chunk.rst_part import Part, joined_words, union


def read_table(walker: Any, node: Any) -> None:
    """Walk a ``table`` node: its title (when it has one, and it reads as a chunk) as a
    paragraph, then its rows with the title as their context."""
    children = list(node.children)
    if not children or children[0].tagname != "title":
        walker._children(node)
        return
    count = len(walker.chunks)
    walker._paragraph(children[0])
    names = walker.names
    if len(walker.chunks) > count:  # (a title of no word, or not placed, names nothing)
        walker.names = walker.chunks[-1].text
    try:
        for child in children[1:]:
            walker._block(child)
    finally:
        walker.names = names


def read_row(walker: Any, node: Any) -> None:
    """Walk a table ``row``: one chunk of its cells when they read as one, else each
    cell's blocks, each looked for from the row's start."""
    entries = [c for c in node.children if c.tagname == "entry"]
    if all(c.tagname == "paragraph" for entry in entries for c in entry.children):
        cells: list[Part] = []
        for entry in entries:
            parts = walker._parts(list(entry.children), shared=True)
            text = " ".join(part.text for part in parts)
            spans = [part.span for part in parts]
            span = union(spans) if spans and None not in spans else None
            links = [link for part in parts for link in part.links]
            targets = [target for part in parts for target in part.targets]
            cells.append(Part(text, links, span, needle=joined_words(parts), targets=targets))
        if walker._emit(cells, "paragraph", " | ", strict=True):
            return
    # A cell at a time, each looked for from the row's start: cells share lines (a short
    # cell beside a list, looked for after it, matched words far down the file).
    lo, after = walker.lo, walker.after
    reached = lo, after
    for entry in entries:
        walker.lo, walker.after = lo, after
        walker._children(entry)
        reached = max(reached, (walker.lo, walker.after))
    walker.lo, walker.after = reached
