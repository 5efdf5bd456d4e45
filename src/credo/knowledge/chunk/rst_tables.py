"""A titled table's title as the context of its rows, for `split_rst`'s walker.

``.. table:: Truth table``, ``.. list-table:: Frozen Delights`` and ``.. csv-table::``
give a table a title, which docutils makes the table's first child. The title is a
paragraph chunk of its own, which reached only the passage beside it: the rows further
down held no word of it (trio's reference-io.rst, "Overview: abstract base classes for
I/O" over a row per stream class).
The title is therefore each row's `Chunk.context`, as a named directive's label is of
its body (`_Walker._lead`): the innermost where they nest. Kept apart from `rst` (at its
size cap); docutils is not imported here.
"""

from __future__ import annotations

from typing import Any


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
