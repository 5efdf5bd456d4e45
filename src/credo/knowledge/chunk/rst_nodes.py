"""docutils' nodes linked to their document without its repeated lookups, for `rst_parse`.

Each node docutils adds to a parent goes through `Node.setup_child`, which asks for the
parent's `document` up to three times; `Node.document` is a property that recurses up
the parents and, for a node not yet in the tree (the inliner builds a paragraph's nodes
before the paragraph is placed), ends by catching an `AttributeError` at the top. That
is a twentieth of the instructions of reading a Sphinx changelog. While credo parses
(`rst_parse.parse`, under its lock) both are replaced by versions that give the same
answers (docutils 0.19 to 0.23 define them alike): the document found by a loop up the
parents, asked once per child. The originals are put back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import docutils
from docutils import nodes


def _document(self: Any) -> Any:
    """`Node.document`: the first `_document` set on the node or its ancestors, else None
    (docutils' ``self._document or self.parent.document``, which stops at a missing
    parent)."""
    node = self
    while node is not None:
        found = node._document
        if found:  # (a node is always true: `Node.__bool__`)
            return found
        node = node.parent
    return None


def _setup_child(self: Any, child: Any) -> None:
    """`Node.setup_child`, with the parent's document looked up once."""
    child.parent = self
    document = self.document
    if document:
        child.document = document
        if child.source is None:
            child.source = document.current_source
        if child.line is None:
            child.line = document.current_line


@contextmanager
def quick_links() -> Iterator[None]:
    """`Node.document` and `Node.setup_child` replaced for the duration."""
    saved = nodes.Node.__dict__["document"], nodes.Node.setup_child
    nodes.Node.document = property(_document, saved[0].fset)  # type: ignore[method-assign,assignment]
    nodes.Node.setup_child = _setup_child  # type: ignore[method-assign]
    try:
        yield
    finally:
        nodes.Node.document, nodes.Node.setup_child = saved  # type: ignore[method-assign]


def _note_implicit_target(self: Any, target: Any, msgnode: Any = None) -> None:
    """`document.note_implicit_target`, nothing for a section (see `no_section_ids`)."""
    if target.tagname != "section":
        _SAVED[0](self, target, msgnode)


_SAVED: list[Any] = []
# docutils' parser notes no implicit target but sections (see `no_section_ids`).
SECTIONS_ONLY_IMPLICIT = tuple(docutils.__version_info__[:2]) < (0, 22)


@contextmanager
def no_section_ids() -> Iterator[None]:
    """Sections left without the ids and document-wide name records docutils gives them.

    docutils makes an id from each section's title (a Unicode normalisation and two
    pattern passes), records its name for the transforms' reference resolution (which
    credo never runs), and reports every repeated title (a changelog's hundreds of "Bug
    fixes") as a message node of its own in the section. The walker reads a section's
    title, never its ids, names or messages, and hyperlink targets only from ``target``
    nodes (`rst_links.targets`), whose names an implicit target never takes away (docutils'
    `document.set_duplicate_name_id`: an explicit target wins over an implicit one).

    Only while sections are docutils' one implicit target (0.19 to 0.21): from 0.22 an
    embedded URI's target (``text <url>`_``) is implicit too, and loses its name to a
    section of the same title, so there the sections keep docutils' records."""
    if not SECTIONS_ONLY_IMPLICIT:
        yield
        return
    saved = nodes.document.note_implicit_target
    _SAVED[:] = [saved]
    nodes.document.note_implicit_target = _note_implicit_target  # type: ignore[method-assign]
    try:
        yield
    finally:
        nodes.document.note_implicit_target = saved  # type: ignore[method-assign]
