"""Split reStructuredText into section-aware chunks, read through docutils' doctree.

The chunks are the kinds `split_markdown` makes:

- Section titles are "heading" chunks; `Chunk.section` is the title path that docutils'
  section tree gives (adornment styles decide the levels), a heading chunk's own section
  ends with its own title and its `heading_index` points at its parent heading. A
  heading's range is its title line only: the over- and underline are left out, as the
  Markdown splitter leaves out a setext underline.
- A paragraph is one "paragraph" chunk; past `MAX_PARAGRAPH_CHARS` it is split into
  "sentence" chunks, each with the lines it touches.
- List items are "bullet" chunks: the first paragraph of a bullet or enumerated item;
  a definition list item as "term (classifier): definition"; a field as "name: body"
  (docinfo and Sphinx ``:param x:`` fields alike); an option list item as "-o FILE:
  description". Further paragraphs of an item are "paragraph" chunks, nested items
  their own bullets (`rst_items`).
- Table rows (grid, simple, ``list-table``, ``csv-table``) are "paragraph" chunks with
  their cells joined by `` | `` when each cell holds only paragraphs and the row's words
  read in order from its lines (one-line rows); otherwise each cell's blocks are chunks
  of their own. A table's title is a paragraph and its rows' context (`rst_tables`).
- Admonitions (``note``, ``warning``...) keep their text as paragraphs; a rubric, a
  caption and an attribution are paragraphs. Version directives lead their first paragraph
  with a label ("versionchanged 2.1: ..."); an unknown directive's argument (a signature,
  a tab name) leads its first paragraph the same way; such a chunk's range runs from the
  directive's line to the paragraph's last. That argument (a signature, a setting's or a
  tab's name: not a version label) is the `Chunk.context` of the rest of its content, led
  by the outer ones' object names where they nest (`rst_names`; see `rst_parse`); so is
  a generic admonition's, a topic's or a sidebar's title (found by no later paragraph).
- Line blocks are one paragraph.
- Literal blocks (``::``) and code directives are "code" chunks, their text's lines kept:
  their names and comments go to their passage's context and their lines to its range
  (`passage`), as a Markdown fence's do. A ``:caption:`` is a paragraph (`rst_parse`).
- Skipped: doctest blocks, other skipped directives (file includes, doctests, generated
  content), comments, substitution definitions, hyperlink targets, math blocks,
  footnote labels, transitions, the ``contents`` topic, docutils' error reports. An image
  (a figure's too) is its ``:alt:`` text, a paragraph, as Markdown's ``![alt](src)`` is,
  unless it links somewhere (``:target:``: a badge).
- Inline markup (`rst_render`): emphasis marks go, inline literals keep single backticks
  (as Markdown's code spans do), roles render as their text (a role's explicit target,
  where kept, goes to `Chunk.context`: see `rst_parse`), footnote and citation
  references go, ``|substitution|`` references stay as their name. Link targets (``text
  <url>`_``, named and anonymous hyperlink targets, standalone URLs, ``:doc:`` and
  ``:download:``) go to `Chunk.links` (`rst_links`).

Line ranges are recovered from the source, not trusted from docutils: see
`credo.knowledge.chunk.rst_lines`. A chunk whose words cannot be placed in order in its
lines (this needs markup that merges words) keeps its lines and takes their source text.

Plain text instead (`split_text`): text over `MAX_RST_CHARS`, a line over docutils' own
limit or tables of too many cells (`credo.knowledge.chunk.rst_guard`), a parse over its
time budget, or any failure inside docutils (nesting deeper than Python's recursion
limit). docutils is imported on the first call only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from credo.knowledge.chunk import rst_import, rst_items, rst_sentence_links, rst_tables
from credo.knowledge.chunk.model import (
    MAX_PARAGRAPH_CHARS,
    Chunk,
    is_meaningful,
    normalise,
    source_lines,
    unique,
)
from credo.knowledge.chunk.rst_guard import too_costly
from credo.knowledge.chunk.rst_lines import SourceIndex, Span, words
from credo.knowledge.chunk.rst_links import Links
from credo.knowledge.chunk.rst_part import Part, hint, joined_words, raw, role_context, union
from credo.knowledge.chunk.rst_render import render
from credo.knowledge.chunk.sentence import split_sentences
from credo.knowledge.chunk.text import split_text

MAX_RST_CHARS = 2_000_000
# Parse time budget, in the parsing thread's CPU seconds: a fixed allowance plus time per
# character. Real Sphinx trees parse at 1-4 microseconds a character, so only input ~5x
# slower than the slowest of them (or a CPU that much slower) reaches it; it is the one path
# whose outcome depends on time, and CPU time keeps a busy machine's waits out of it.
_BUDGET_SECONDS = 2.0
_BUDGET_PER_CHAR = 2e-5
# Characters str.splitlines() (hence docutils) breaks lines at but universal newlines do
# not: each becomes a space, so line numbers agree; so does \x01, the renderer's marker.
# NUL, docutils' own escape marker, reads as U+FFFD (as CommonMark has it for Markdown).
_FOREIGN_CHARS = "\x00\x01\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FOREIGN = re.compile(f"[{_FOREIGN_CHARS}]")
_PROTECT = re.compile(r"`[^`\n]*`")

_SKIP = frozenset(
    "doctest_block comment substitution_definition target raw system_message "
    "pending math_block transition label meta decoration colspec".split()
)
_TITLE_LIKE = frozenset("title subtitle rubric attribution caption".split())


def split_rst(text: str) -> list[Chunk]:
    """Split reStructuredText `text` into chunks; see the module docstring for the rules.

    Pure and deterministic (save a parse that runs out of its time budget, read as plain
    text); never raises on any input string.
    """
    if len(text) > MAX_RST_CHARS:
        return split_text(text)
    lines = source_lines(text)
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    if any(map(text.__contains__, _FOREIGN_CHARS)):  # (a memchr each; the class steps)
        lines = [_FOREIGN.sub(_foreign, line) for line in lines]
    if too_costly(lines):
        return split_text(text)
    try:
        rst_parse = rst_import.rst_parse()  # docutils loads here, on first use

        budget = _BUDGET_SECONDS + _BUDGET_PER_CHAR * len(text)
        document = rst_parse.parse("\n".join(lines), budget)
        try:
            return _Walker(SourceIndex(lines), Links(document)).run(document)
        finally:
            _release(document)
    except Exception:  # a time-out, or docutils failing on hostile input (deep nesting)
        return split_text(text)


@dataclass
class _Walker:
    """Walks the doctree in document order, placing each chunk in the source; the
    constructs of `rst_items` and `rst_tables` are read there, through its methods."""

    index: SourceIndex
    links: Links  # where its references point
    chunks: list[Chunk] = field(default_factory=list)
    headings: list[tuple[str, int]] = field(default_factory=list)  # open: (title, chunk)
    trail: tuple[str, ...] = ()  # the open headings' titles: a chunk's section
    lo: int = 1  # no chunk starts before the previous chunk's start
    after: int = 1  # ... and most start after its end
    names: str = ""  # the open named directives' context for their body (`rst_items.lead`)
    outer: tuple[str, ...] = ()  # ... and their object names, outermost first
    rest: str | None = None  # a split lead's context after its first sentence (`lead`)

    def run(self, document: Any) -> list[Chunk]:
        self._children(document)
        return self.chunks

    # -- blocks ----------------------------------------------------------------------------
    def _block(self, node: Any) -> None:
        tag = node.tagname
        if tag in _SKIP:
            return
        handler = _HANDLERS.get(tag)
        if handler is not None:
            handler(self, node)
        else:
            self._children(node)

    def _children(self, node: Any) -> None:
        for child in node.children:
            self._block(child)

    def _section(self, node: Any) -> None:
        depth = len(self.headings)
        children = list(node.children)
        if children and children[0].tagname == "title":
            self._heading(children.pop(0))
        for child in children:
            self._block(child)
        del self.headings[depth:]
        self.trail = self.trail[:depth]

    def _heading(self, node: Any) -> None:
        part = self._part(node, self.lo, self.after)
        if not is_meaningful(part.text, 1) or part.span is None:
            return
        start, end = part.span
        section = (*self.trail, part.text)
        parent = self.headings[-1][1] if self.headings else None
        links = unique([link for link, _ in part.links])
        context = role_context(part.targets)
        if self.names:  # (a subsection in a named directive's body: its name, as its blocks')
            context = " ".join(filter(None, (self.names, context)))
        self.chunks.append(Chunk(part.text, start, end, "heading", section, parent, links, context))
        self.headings.append((part.text, len(self.chunks) - 1))
        self.trail = section
        self.lo, self.after = start, end + 1

    def _paragraph(self, node: Any) -> None:
        self._emit([self._part(node, self.lo, self.after)], "paragraph")

    def _code(self, node: Any) -> None:
        # Lines kept, not normalised: a comment ends at its line's end (chunk/example).
        text = node.astext().strip()
        if not is_meaningful(text):
            return
        needle = words(text)
        span = node.get("credo-lines")  # a code directive's own lines (rst_parse._Code)
        if span is None or not self.index.holds(needle, *span):
            span = self.index.place(needle, raw(node), hint(node), self.lo, self.after)
        if span is None:
            return
        section = self.trail
        parent = self.headings[-1][1] if self.headings else None
        self.chunks.append(Chunk(text, span[0], span[1], "code", section, parent, (), self.names))
        self.lo, self.after = span[0], span[1] + 1

    def _line_block(self, node: Any) -> None:
        # In document order: a nested (indented) block's lines between its neighbours'.
        lines = [line for line in node.findall(include_self=False) if line.tagname == "line"]
        self._emit(self._parts(lines), "paragraph", " ")

    def _figure(self, node: Any) -> None:
        images = [c.get("uri", "") for c in node.children if c.tagname == "image"]
        for child in node.children:
            if child.tagname == "caption":
                part = self._part(child, self.lo, self.after)
                part.links.extend((uri, "") for uri in images if uri)
                self._emit([part], "paragraph")
            else:
                self._block(child)

    def _image(self, node: Any) -> None:
        # Its alt text stands for it, where a reader of the source or a screen reader sees
        # it (Sphinx's own pages describe their diagrams so; rst89 left it unread). Not a
        # linked image's (``:target:``): a README's badges ("PyPI version", "Build Status").
        linked = node.parent is not None and node.parent.tagname == "reference"
        if (alt := node.get("alt")) and not linked:
            from docutils.nodes import paragraph

            self._emit([self._part(paragraph(alt, alt), self.lo, self.after)], "paragraph")

    def _parts(self, nodes: list[Any], shared: bool = False) -> list[Part]:
        """Render and place `nodes` in order, each at or after the previous one's start."""
        parts: list[Part] = []
        lo, after = self.lo, self.after
        for node in nodes:
            part = self._part(node, lo, after)
            parts.append(part)
            if part.span is not None and not shared:
                lo, after = part.span[0], part.span[1] + 1
        return parts

    def _part(self, node: Any, lo: int, after: int) -> Part:
        targets: list[tuple[str, str]] = []
        text, links = render(node, self.links, targets)
        needle = words(text)
        span = self.index.place(needle, raw(node), hint(node), lo, after)
        return Part(text, links, span, checked=True, needle=needle, targets=targets)

    def _emit(self, parts: list[Part], role: str, sep: str = ": ", strict: bool = False) -> bool:
        """Append the chunk (or sentence chunks) of `parts` joined by `sep`; False when
        `strict` and its words do not read in order from the lines the parts span."""
        parts = [part for part in parts if part.text]
        text = sep.join(part.text for part in parts)
        if not is_meaningful(text):
            return not strict
        joined = joined_words(parts)  # the parts' texts, already split
        needle = words(text) if joined is None else joined
        found = [part.span for part in parts if part.span is not None]
        span = union(found) if len(found) == len(parts) else None
        known = len(parts) == 1 and parts[0].checked
        if span is None or not (known or self.index.holds(needle, *span)):
            if strict:
                return False
            span = self.index.locate(needle, span[0] if span else None, self.lo, self.after)
        if span is None:
            if not found:
                return False  # nowhere in the source: markup made these words
            span = union(found)
            text = normalise(self.index.text(*span))
            needle = words(text)
        links = [link for part in parts for link in part.links]
        if len(parts) == 1:  # (the usual case; and most parts have no target)
            targets = parts[0].targets
        else:
            targets = [target for part in parts for target in part.targets]
        self._append(text, needle, span, role, links, targets)
        self.lo, self.after = span[0], span[1] + 1
        return True

    def _append(
        self,
        text: str,
        needle: list[str],
        span: Span,
        role: str,
        links: list[tuple[str, str]],
        targets: list[tuple[str, str]],
    ) -> None:
        section = self.trail
        parent = self.headings[-1][1] if self.headings else None
        if len(text) <= MAX_PARAGRAPH_CHARS:
            found = unique([link for link, _ in links])
            context = role_context(targets) if targets else ""
            context = " ".join(filter(None, (self.names, context)))
            self.chunks.append(Chunk(text, span[0], span[1], role, section, parent, found, context))
            return
        lines = self.index.align(needle, *span) or [span[0]] * len(needle)
        pending, waiting = list(links), list(targets)
        offset, later = 0, None
        for piece, _, _ in split_sentences([(span[0], text)], _PROTECT):
            count = len(words(piece))
            piece_text = normalise(piece)
            if count and is_meaningful(piece_text):
                start, end = lines[offset], lines[offset + count - 1]
                mine, pending = rst_sentence_links.take_links(pending, piece_text)
                named = [pair for pair in waiting if pair[1] in piece_text]
                waiting = [pair for pair in waiting if pair not in named]
                chunk = Chunk(
                    piece_text,
                    start,
                    end,
                    "sentence",
                    section,
                    parent,
                    unique(mine),
                    " ".join(filter(None, (later or self.names, role_context(named)))),
                )
                self.chunks.append(chunk)
                later = self.rest
            offset += count


_HANDLERS = {
    "section": _Walker._section,
    "paragraph": _Walker._paragraph,
    **dict.fromkeys(_TITLE_LIKE, _Walker._paragraph),
    **dict.fromkeys(("topic", "sidebar", "admonition"), rst_items.read_topic),
    "literal_block": _Walker._code,
    "list_item": rst_items.read_item,
    "definition_list_item": rst_items.read_definition_item,
    "field": rst_items.read_field,
    "option_list_item": rst_items.read_option_item,
    "container": rst_items.read_directive,
    "line_block": _Walker._line_block,
    "figure": _Walker._figure,
    "image": _Walker._image,
    "row": rst_tables.read_row,
    "table": rst_tables.read_table,
}


def _release(document: Any) -> None:
    """Unlink the doctree so that reference counting frees it now.

    Every node points at its parent and its document: a doctree is one large cycle,
    left to the cycle collector, whose passes over it (while it waits to be found, and
    while the next files are read) cost more than this one walk."""
    stack = [document]
    while stack:
        children = getattr(stack.pop(), "children", None)
        if children:
            stack.extend(children)
            children.clear()  # a node is then held by nothing but its own children
    document.__dict__.clear()


def _foreign(match: re.Match[str]) -> str:
    return "\ufffd" if match.group() == "\x00" else " "
