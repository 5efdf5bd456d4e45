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
  their own bullets.
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
  content), comments, substitution definitions, hyperlink targets, images, math blocks,
  footnote labels, transitions, the ``contents`` topic, docutils' error reports.
- Inline markup: emphasis marks go, inline literals keep single backticks (as Markdown's
  code spans do), roles render as their text (a role's explicit target, where kept, goes
  to `Chunk.context`: see `rst_parse`), footnote and citation references go,
  ``|substitution|`` references stay as their name. Link targets (``text <url>`_``,
  named and anonymous hyperlink targets, standalone URLs, ``:doc:`` and ``:download:``)
  go to `Chunk.links`.

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
from itertools import chain
from typing import Any

from credo.knowledge.chunk import rst_import, rst_links, rst_names, rst_tables
from credo.knowledge.chunk.model import (
    MAX_PARAGRAPH_CHARS,
    Chunk,
    is_meaningful,
    normalise,
    source_lines,
    unique,
)
from credo.knowledge.chunk.rst_guard import too_costly
from credo.knowledge.chunk.rst_import import TARGET
from credo.knowledge.chunk.rst_lines import SourceIndex, Span, words
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
# An escaped space (``:class:`Flask`\ s``) joins what surrounds it; between two words it
# stays a space so that both words remain words of the source.
_ESCAPED_SPACE = "\x01"
_JOINED_WORDS = re.compile(r"(?<=\w)\x01+(?=\w)")

_SKIP = frozenset(
    "doctest_block comment substitution_definition target raw system_message "
    "pending image math_block transition label meta decoration colspec".split()
)
_TITLE_LIKE = frozenset("title subtitle rubric attribution caption".split())
_INLINE_SKIP = frozenset(
    "footnote_reference citation_reference image raw system_message generated".split()
)


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
            return _Walker(SourceIndex(lines), document).run(document)
        finally:
            _release(document)
    except Exception:  # a time-out, or docutils failing on hostile input (deep nesting)
        return split_text(text)


@dataclass(slots=True)
class _Part:
    """One rendered piece of a chunk: its text, (link, anchor text) pairs, lines and
    (role target, title) pairs."""

    text: str
    links: list[tuple[str, str]]
    span: Span | None
    checked: bool = False  # the span is known to hold the text's words
    needle: list[str] | None = None  # `words(text)`, when known (placing needed them)
    targets: list[tuple[str, str]] = field(default_factory=list)  # for the context


@dataclass
class _Walker:
    """Walks the doctree in document order, placing each chunk in the source."""

    index: SourceIndex
    document: Any  # its hyperlink targets are read on first need (`_link`)
    targets: dict[str, str] | None = None  # hyperlink target name -> URI
    anonymous: list[str] = field(default_factory=list)  # anonymous targets' URIs, next last
    chunks: list[Chunk] = field(default_factory=list)
    headings: list[tuple[str, int]] = field(default_factory=list)  # open: (title, chunk)
    trail: tuple[str, ...] = ()  # the open headings' titles: a chunk's section
    lo: int = 1  # no chunk starts before the previous chunk's start
    after: int = 1  # ... and most start after its end
    names: str = ""  # the open named directives' context for their body (`_lead`)
    outer: tuple[str, ...] = ()  # ... and their object names, outermost first
    rest: str | None = None  # a split lead's context after its first sentence (`_lead`)

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
        context = _context(part.targets)
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
            span = self.index.place(needle, _raw(node), _hint(node), self.lo, self.after)
        if span is None:
            return
        section = self.trail
        parent = self.headings[-1][1] if self.headings else None
        self.chunks.append(Chunk(text, span[0], span[1], "code", section, parent, (), self.names))
        self.lo, self.after = span[0], span[1] + 1

    def _topic(self, node: Any) -> None:  # (a sidebar, a generic admonition: a titled body)
        if "contents" not in node.get("classes", ()):
            head = [c for c in node.children[:1] if c.tagname == "title"]  # a label (`_lead`)
            self._lead(head, list(node.children[len(head) :]), "paragraph", named=bool(head))

    def _item(self, node: Any) -> None:
        self._lead([], list(node.children), "bullet")

    def _definition_item(self, node: Any) -> None:
        terms = [c for c in node.children if c.tagname == "term"]
        classifiers = [c for c in node.children if c.tagname == "classifier"]
        body = [c for c in node.children if c.tagname == "definition"]
        suffix = ""
        if classifiers:
            suffix = " (" + ", ".join(self._render(c, [])[0] for c in classifiers) + ")"
        self._lead(terms, list(body[0].children) if body else [], "bullet", suffix)

    def _field(self, node: Any) -> None:
        names = [c for c in node.children if c.tagname == "field_name"]
        body = [c for c in node.children if c.tagname == "field_body"]
        self._lead(names, list(body[0].children) if body else [], "bullet")

    def _option_item(self, node: Any) -> None:
        group = [c for c in node.children if c.tagname == "option_group"]
        body = [c for c in node.children if c.tagname == "description"]
        self._lead(group, list(body[0].children) if body else [], "bullet")

    def _directive(self, node: Any) -> None:
        children = list(node.children)
        if "credo-directive" not in node.get("classes", ()) or not children:
            self._children(node)
            return
        label = [children.pop(0)] if "credo-label" in children[0].get("classes", ()) else []
        self._lead(label, children, "paragraph", named=bool(label) and "credo-named" in node)

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

    def _row(self, node: Any) -> None:
        entries = [c for c in node.children if c.tagname == "entry"]
        if all(c.tagname == "paragraph" for entry in entries for c in entry.children):
            cells: list[_Part] = []
            for entry in entries:
                parts = self._parts(list(entry.children), shared=True)
                text = " ".join(part.text for part in parts)
                spans = [part.span for part in parts]
                span = _union(spans) if spans and None not in spans else None
                links = [link for part in parts for link in part.links]
                targets = [target for part in parts for target in part.targets]
                cells.append(_Part(text, links, span, needle=_joined_words(parts), targets=targets))
            if self._emit(cells, "paragraph", " | ", strict=True):
                return
        # A cell at a time, each looked for from the row's start: cells share lines (a short
        # cell beside a list, looked for after it, matched words far down the file).
        lo, after = self.lo, self.after
        reached = lo, after
        for entry in entries:
            self.lo, self.after = lo, after
            self._children(entry)
            reached = max(reached, (self.lo, self.after))
        self.lo, self.after = reached

    # -- chunk assembly --------------------------------------------------------------------
    def _lead(
        self, heads: list[Any], body: list[Any], role: str, suffix: str = "", named: bool = False
    ) -> None:
        """One chunk of `heads` (a term, a field name, a label...) and the first paragraph
        of `body`; the rest of `body` as blocks.

        The paragraph is placed first (docutils' line for a term is the end of its
        definition, a field name has none), then each head at the nearest line at or
        before it that holds the head. When `named` (a Sphinx description's signature, a
        setting's or a tab's name), the heads' text, led by outer ones' names (`rst_names`),
        is the context of the rest of `body` as a title is its passages' trail."""
        parts: list[_Part] = []
        if body and body[0].tagname == "paragraph":
            parts.append(self._part(body.pop(0), self.lo, self.after))
        last = parts[0].span[0] if parts and parts[0].span else None
        for head in reversed(heads):
            targets: list[tuple[str, str]] = []
            if head.tagname != "option_group":
                text, links = self._render(head, targets)
            else:
                text, links = _options(head)
            needle = words(text)
            if last is not None:
                span = self.index.place_before(needle, _raw(head), last, self.lo)
            else:  # docutils' line for a term is the end of its definition: no hint
                span = self.index.place(needle, _raw(head), None, self.lo, self.after)
            parts.insert(0, _Part(text, links, span, targets=targets))
            last = span[0] if span else last
        if heads and suffix and parts[0].text:
            parts[0].text += suffix
            parts[0].checked = False
            parts[0].needle = None
        names, outer = self.names, self.outer
        inner = rst_names.nest(outer, parts[0].text) if named and heads and parts[0].text else None
        if parts:  # (a lead split into sentences: the label is the later ones' context too)
            self.rest = inner[0] if inner else None
            self._emit(parts, role)
            self.rest = None
        if inner:
            self.names, self.outer = inner
        for child in body:
            self._block(child)
        self.names, self.outer = names, outer

    def _parts(self, nodes: list[Any], shared: bool = False) -> list[_Part]:
        """Render and place `nodes` in order, each at or after the previous one's start."""
        parts: list[_Part] = []
        lo, after = self.lo, self.after
        for node in nodes:
            part = self._part(node, lo, after)
            parts.append(part)
            if part.span is not None and not shared:
                lo, after = part.span[0], part.span[1] + 1
        return parts

    def _part(self, node: Any, lo: int, after: int) -> _Part:
        targets: list[tuple[str, str]] = []
        text, links = self._render(node, targets)
        needle = words(text)
        span = self.index.place(needle, _raw(node), _hint(node), lo, after)
        return _Part(text, links, span, checked=True, needle=needle, targets=targets)

    def _emit(self, parts: list[_Part], role: str, sep: str = ": ", strict: bool = False) -> bool:
        """Append the chunk (or sentence chunks) of `parts` joined by `sep`; False when
        `strict` and its words do not read in order from the lines the parts span."""
        parts = [part for part in parts if part.text]
        text = sep.join(part.text for part in parts)
        if not is_meaningful(text):
            return not strict
        joined = _joined_words(parts)  # the parts' texts, already split
        needle = words(text) if joined is None else joined
        found = [part.span for part in parts if part.span is not None]
        span = _union(found) if len(found) == len(parts) else None
        known = len(parts) == 1 and parts[0].checked
        if span is None or not (known or self.index.holds(needle, *span)):
            if strict:
                return False
            span = self.index.locate(needle, span[0] if span else None, self.lo, self.after)
        if span is None:
            if not found:
                return False  # nowhere in the source: markup made these words
            span = _union(found)
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
            context = _context(targets) if targets else ""
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
                mine, pending = rst_links.take_links(pending, piece_text)
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
                    " ".join(filter(None, (later or self.names, _context(named)))),
                )
                self.chunks.append(chunk)
                later = self.rest
            offset += count

    # -- inline ----------------------------------------------------------------------------
    def _render(
        self, node: Any, targets: list[tuple[str, str]]
    ) -> tuple[str, list[tuple[str, str]]]:
        """The text a reader sees in `node`, and its (link target, anchor text) pairs; its
        roles' explicit targets (with their titles) are added to `targets`."""
        pieces: list[str] = []
        links: list[tuple[str, str]] = []
        self._inline(node, pieces, links, targets)
        text = "".join(pieces)
        if _ESCAPED_SPACE in text:
            text = _JOINED_WORDS.sub(" ", text).replace(_ESCAPED_SPACE, "")
        return normalise(text), links

    def _inline(
        self,
        node: Any,
        pieces: list[str],
        links: list[tuple[str, str]],
        targets: list[tuple[str, str]],
    ) -> None:
        for child in node.children:
            tag = child.tagname
            if tag == "#text":
                text = str(child)
                pieces.append(_unescape(text) if "\x00" in text else text)  # (most have none)
            elif tag in _INLINE_SKIP:
                continue
            elif tag == "literal":
                pieces.extend(("`", _unescape(child.astext()), "`"))
            else:
                if tag == "reference":
                    target = self._link(child)
                    if target:
                        links.append((target, normalise(child.astext())))
                elif tag == "inline" and TARGET in child.attributes:
                    targets.append((child[TARGET], normalise(_unescape(child.astext()))))
                self._inline(child, pieces, links, targets)

    def _link(self, node: Any) -> str:
        if node.get("refuri"):
            return str(node["refuri"])
        if self.targets is None:  # a walk of the whole doctree: only when a name needs it
            self.targets, self.anonymous = _targets(self.document)
        if node.get("anonymous"):
            return self.anonymous.pop() if self.anonymous else ""
        return self.targets.get(node.get("refname", ""), "")


_HANDLERS = {
    "section": _Walker._section,
    "paragraph": _Walker._paragraph,
    **dict.fromkeys(_TITLE_LIKE, _Walker._paragraph),
    **dict.fromkeys(("topic", "sidebar", "admonition"), _Walker._topic),
    "literal_block": _Walker._code,
    "list_item": _Walker._item,
    "definition_list_item": _Walker._definition_item,
    "field": _Walker._field,
    "option_list_item": _Walker._option_item,
    "container": _Walker._directive,
    "line_block": _Walker._line_block,
    "figure": _Walker._figure,
    "row": _Walker._row,
    "table": rst_tables.read_table,
}


def _context(targets: list[tuple[str, str]]) -> str:
    """A chunk's context: its roles' explicit targets (`rst_import.TARGET`), each once."""
    return " ".join(unique([target for target, _ in targets])) if targets else ""


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


def _hint(node: Any) -> int | None:
    """docutils' line for `node`, else its nearest ancestor's."""
    while node is not None:
        if isinstance(node.line, int) and node.line > 0:
            return int(node.line)
        node = node.parent
    return None


def _joined_words(parts: list[_Part]) -> list[str] | None:
    """`words` of the parts' texts joined by a separator without a letter or digit (" ",
    ": ", " | "): each part's words in turn, when all of them are known."""
    if len(parts) == 1:
        return parts[0].needle
    needles = [part.needle for part in parts]
    return None if None in needles else list(chain.from_iterable(needles))  # type: ignore[arg-type]


def _union(spans: list[Span | None]) -> Span:
    if len(spans) == 1 and spans[0] is not None:
        return spans[0]  # (the usual case: a chunk of one part)
    found = [span for span in spans if span is not None]
    return min(start for start, _ in found), max(end for _, end in found)


def _unescape(text: str) -> str:
    """docutils' null-escaped text with backslashes removed and escaped whitespace (which
    reStructuredText drops) marked, for `_Walker._render` to resolve."""
    if "\x00" not in text:
        return text
    text = text.replace("\x00 ", _ESCAPED_SPACE).replace("\x00\n", _ESCAPED_SPACE)
    return text.replace("\x00", "")


def _raw(node: Any) -> str:
    raw = getattr(node, "rawsource", "")
    return raw if isinstance(raw, str) else ""


def _options(group: Any) -> tuple[str, list[tuple[str, str]]]:
    """An option group as written: "-o FILE, --output=FILE"."""
    options: list[str] = []
    for option in group.children:
        # An option argument's text starts with its delimiter ("=FILE", " FILE").
        options.append("".join(_unescape(child.astext()) for child in option.children))
    return normalise(", ".join(options)), []


def _targets(document: Any) -> tuple[dict[str, str], list[str]]:
    """Hyperlink target names to URIs (indirect targets, ``.. _a: b_``, followed), and
    the URIs of anonymous targets (``__ url``) in reverse document order."""
    uris: dict[str, str] = {}
    aliases: dict[str, str] = {}
    anonymous: list[str] = []
    stack = [document]
    while stack:
        node = stack.pop()
        if node.tagname == "target":
            uri = str(node.get("refuri") or "")
            if uri and node.get("anonymous"):
                anonymous.append(uri)
            for name in node.get("names", ()):
                if uri:
                    uris.setdefault(name, uri)
                elif node.get("refname"):
                    aliases.setdefault(name, str(node["refname"]))
        stack.extend(reversed([c for c in node.children if c.tagname != "#text"]))
    for name, alias in aliases.items():
        seen = {name}
        while alias in aliases and alias not in seen:
            seen.add(alias)
            alias = aliases[alias]
        if alias in uris:
            uris.setdefault(name, uris[alias])
    anonymous.reverse()
    return uris, anonymous
