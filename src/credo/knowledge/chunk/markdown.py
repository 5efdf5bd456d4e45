"""Split Markdown into section-aware chunks.

Rules (CommonMark-shaped, line based, tolerant of anything):

- Headings (ATX ``#`` to ``######`` and setext ``===``/``---`` underlines) are "heading"
  chunks and open a section; `Chunk.section` is the heading path. A heading chunk's own
  section ends with its own title, and its `heading_index` points at its parent heading.
  The range of a setext heading is its text lines, not the underline.
- A paragraph is one "paragraph" chunk; past `MAX_PARAGRAPH_CHARS` it is split into
  "sentence" chunks, each with the lines it touches.
- Each list item (``-``, ``*``, ``+``, ``1.``, ``1)``) with its continuation lines is one
  "bullet" chunk, nested items included, the marker removed; task boxes (``[ ]``,
  ``[x]``) are kept because they carry meaning. A long item is split into sentences. A
  paragraph after a blank line inside an item is its own "paragraph" chunk.
- Blockquotes are read as Markdown without their ``>`` marks (nesting flattened); a
  heading inside a quote is a paragraph, not a section. GitHub alert markers
  (``[!NOTE]``) are dropped.
- Tables: each row, the header included and the ``---|---`` delimiter row excluded, is one
  "paragraph" chunk with its cells joined by `` | ``.
- Skipped: fenced code (`````` and ``~~~``, unclosed fences run to the end, as in
  CommonMark), indented code blocks, YAML (``---``) and TOML (``+++``) front matter on
  line 1, HTML comments, ``<script>``/``<style>``/``<pre>``/``<textarea>`` blocks,
  link reference definitions (their targets still resolve ``[text][label]`` links),
  thematic breaks, and any chunk with fewer than `MIN_MEANINGFUL_CHARS` letters or digits.
- Other HTML blocks are paragraphs with their tags removed (so badge rows vanish).
- Inline markup is cleaned as `credo.knowledge.chunk.inline` documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from credo.knowledge.chunk.inline import clean_inline
from credo.knowledge.chunk.model import Chunk, is_meaningful, normalise, source_lines
from credo.knowledge.chunk.sentence import Line, split_paragraph

_ATX = re.compile(r"(#{1,6})(?=[ \t]|$)(.*)$")
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_FENCE_OPEN = re.compile(r"(`{3,}|~{3,})(.*)$")
_FENCE_CLOSE = re.compile(r"(`{3,}|~{3,})[ \t]*$")
_SETEXT = re.compile(r"(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BULLET = re.compile(r"[-*+](?=[ \t]|$)[ \t]*")
_ORDERED = re.compile(r"(\d{1,9})[.)](?=[ \t]|$)[ \t]*")
_QUOTE_MARKS = re.compile(r"[ \t]*>(?:[ \t]*>)*[ \t]?")
_ALERT_LINE = re.compile(r"\[![A-Za-z]+\][ \t]*$")
_HTML_START = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_TABLE_DELIMITER = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_REF_DEF = re.compile(r"\[([^\]^][^\]]*)\]:[ \t]*<?([^\s<>]+)>?(?:[ \t].*)?$")
_FOOTNOTE_DEF = re.compile(r"\[\^[^\]]+\]:[ \t]*")
# Spans a sentence boundary must not cut: code spans and inline links or images.
_PROTECTED = re.compile(r"(`+).+?\1|!?\[[^\[\]]*\]\([^()]*\)", re.S)

# Raw-text HTML blocks: their content is never Markdown (CommonMark type 1).
_RAW_HTML_TAGS = frozenset({"script", "style", "pre", "textarea"})
# Block-level tags that may interrupt a paragraph (CommonMark type 6, abridged).
_BLOCK_HTML_TAGS = frozenset(
    "address article aside blockquote body details dialog div dl fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p section "
    "summary table tbody td tfoot th thead tr ul".split()
)


@dataclass(slots=True)
class _Block:
    """A block before cleaning: its kind and its source lines with block markup removed."""

    kind: str  # "heading" | "paragraph" | "bullet" | "row"
    lines: list[Line] = field(default_factory=list)
    level: int = 0


def split_markdown(text: str) -> list[Chunk]:
    """Split Markdown `text` into chunks; see the module docstring for the rules.

    Pure and deterministic; never raises on any input string.
    """
    lines = source_lines(text)
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    first = _after_front_matter(lines)
    items = [(number, lines[number - 1]) for number in range(first, len(lines) + 1)]
    refs: dict[str, str] = {}
    blocks = _BlockParser(items, refs, in_quote=False).run()
    return _assemble(blocks, refs)


def _after_front_matter(lines: list[str]) -> int:
    """1-based number of the first line after front matter (1 when there is none)."""
    opener = lines[0].rstrip() if lines else ""
    if opener not in ("---", "+++"):
        return 1
    closers = ("---", "...") if opener == "---" else ("+++",)
    for index in range(1, len(lines)):
        if lines[index].rstrip() in closers:
            return index + 2
    return 1


class _BlockParser:
    """Line-at-a-time block parser producing `_Block`s (one method per construct)."""

    def __init__(self, items: list[Line], refs: dict[str, str], in_quote: bool) -> None:
        self.items = items
        self.refs = refs
        self.in_quote = in_quote
        self.index = 0
        self.blocks: list[_Block] = []
        self.open: _Block | None = None  # paragraph or item that takes lazy lines
        self.list_indents: list[int] = []  # content column of each open list level

    def run(self) -> list[_Block]:
        while self.index < len(self.items):
            self._step()
        return self.blocks

    def _step(self) -> None:
        number, line = self.items[self.index]
        stripped = line.lstrip()
        if not stripped:
            self.open = None
            self.index += 1
            return
        indent = _indent(line, stripped)
        if self.open is None:
            base = self._list_base(indent)
            if indent - base >= 4:
                self._skip_indented_code(base)
                return
        if not self._block_start(stripped, indent, number):
            self._paragraph_line(number, stripped)

    def _block_start(self, stripped: str, indent: int, number: int) -> bool:
        """Handle `stripped` if it opens a block; False when it is paragraph text."""
        first = stripped[0]
        if first in "`~" and self._fence(stripped):
            return True
        if first == "#" and self._atx_heading(stripped, number):
            return True
        if first == ">" and not self.in_quote:
            self._blockquote()
            return True
        if first == "<" and self._html(stripped):
            return True
        if first in "-=" and self._setext(stripped):
            return True
        if first in "-*_" and _THEMATIC_BREAK.match(stripped):
            self._close_and_advance()
            return True
        if (first in "-*+" or first.isdigit()) and self._list_item(stripped, indent, number):
            return True
        if "|" in stripped and self._table(stripped):
            return True
        return first == "[" and self.open is None and self._reference_definition(stripped)

    def _paragraph_line(self, number: int, stripped: str) -> None:
        if self.open is None:
            self.open = _Block("paragraph")
            self.blocks.append(self.open)
            stripped = _FOOTNOTE_DEF.sub("", stripped, count=1)
        self.open.lines.append((number, stripped.rstrip()))
        self.index += 1

    def _close_and_advance(self) -> None:
        self.open = None
        self.index += 1

    def _list_base(self, indent: int) -> int:
        """Content column of the innermost list this line still belongs to (0: none)."""
        while self.list_indents and indent < self.list_indents[-1]:
            self.list_indents.pop()
        return self.list_indents[-1] if self.list_indents else 0

    def _skip_indented_code(self, base: int) -> None:
        self.open = None
        while self.index < len(self.items):
            line = self.items[self.index][1]
            stripped = line.lstrip()
            if stripped and _indent(line, stripped) < base + 4:
                return
            self.index += 1

    def _fence(self, stripped: str) -> bool:
        match = _FENCE_OPEN.match(stripped)
        if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
            return False
        self._skip_fence(match.group(1))
        return True

    def _skip_fence(self, opener: str) -> None:
        """Skip from the opening fence through the closing one (or to the end)."""
        self.open = None
        self.index += 1
        while self.index < len(self.items):
            close = _FENCE_CLOSE.match(self.items[self.index][1].lstrip())
            self.index += 1
            if close and close.group(1)[0] == opener[0] and len(close.group(1)) >= len(opener):
                return

    def _atx_heading(self, stripped: str, number: int) -> bool:
        match = _ATX.match(stripped)
        if match is None:
            return False
        title = _ATX_CLOSE.sub("", match.group(2)).strip()
        kind = "paragraph" if self.in_quote else "heading"
        self.blocks.append(_Block(kind, [(number, title)], len(match.group(1))))
        self._close_and_advance()
        return True

    def _setext(self, stripped: str) -> bool:
        """Turn the open paragraph into a heading when `stripped` underlines it."""
        if self.open is None or self.open.kind != "paragraph" or not _SETEXT.match(stripped):
            return False
        if not self.in_quote:
            self.open.kind = "heading"
            self.open.level = 1 if stripped[0] == "=" else 2
        self._close_and_advance()
        return True

    def _list_item(self, stripped: str, indent: int, number: int) -> bool:
        match = _BULLET.match(stripped) or _ORDERED.match(stripped)
        if match is None:
            return False
        content = stripped[match.end() :].rstrip()
        if (
            self.open is not None
            and self.open.kind == "paragraph"
            and not _can_interrupt(match, content)
        ):
            return False
        self._push_list(indent, indent + _content_offset(match, content))
        fence = _FENCE_OPEN.match(content)
        if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            self._skip_fence(fence.group(1))
            return True
        self.open = _Block("bullet", [(number, content)])
        self.blocks.append(self.open)
        self.index += 1
        return True

    def _push_list(self, indent: int, content_indent: int) -> None:
        while self.list_indents and self.list_indents[-1] > indent:
            self.list_indents.pop()
        self.list_indents.append(content_indent)

    def _blockquote(self) -> None:
        """Collect the quote (with lazy lines), then parse its content as Markdown."""
        inner: list[Line] = []
        while self.index < len(self.items):
            number, line = self.items[self.index]
            stripped = line.lstrip()
            if stripped.startswith(">"):
                content = line[_QUOTE_MARKS.match(line).end() :]  # type: ignore[union-attr]
                inner.append((number, "" if _ALERT_LINE.match(content.strip()) else content))
            elif stripped and inner and inner[-1][1].strip() and not _starts_block(stripped):
                inner.append((number, line))
            else:
                break
            self.index += 1
        self.open = None
        self.blocks.extend(_BlockParser(inner, self.refs, in_quote=True).run())

    def _html(self, stripped: str) -> bool:
        if stripped.startswith("<!--"):
            self._skip_until("-->", stripped, 4)
            return True
        match = _HTML_START.match(stripped)
        if match is None:
            return False
        tag = match.group(1).lower()
        if tag in _RAW_HTML_TAGS:
            self._skip_until(f"</{tag}", stripped.lower(), 1)
            return True
        if self.open is not None and tag not in _BLOCK_HTML_TAGS:
            return False  # inline HTML inside a paragraph; the inline cleaner strips it
        self._html_block()
        return True

    def _skip_until(self, closer: str, first_line: str, offset: int) -> None:
        """Skip lines from the current one through the first that contains `closer`."""
        self.open = None
        line = first_line[offset:]
        while closer not in line:
            self.index += 1
            if self.index >= len(self.items):
                return
            line = self.items[self.index][1].lower()
        self.index += 1

    def _html_block(self) -> None:
        """An HTML block runs to the next blank line; it is kept as a paragraph."""
        block = _Block("paragraph")
        while self.index < len(self.items):
            number, line = self.items[self.index]
            if not line.strip():
                break
            block.lines.append((number, line.strip()))
            self.index += 1
        self.blocks.append(block)
        self.open = None

    def _table(self, stripped: str) -> bool:
        """A header row followed by a matching delimiter row opens a table."""
        if self.index + 1 >= len(self.items):
            return False
        delimiter = self.items[self.index + 1][1].strip()
        if "-" not in delimiter or not _TABLE_DELIMITER.match(delimiter):
            return False
        if len(_cells(stripped)) != len(_cells(delimiter)):
            return False
        self.open = None
        number = self.items[self.index][0]
        self.blocks.append(_Block("row", [(number, " | ".join(_cells(stripped)))]))
        self.index += 2
        while self.index < len(self.items):
            number, line = self.items[self.index]
            if not line.strip() or "|" not in line:
                return True
            self.blocks.append(_Block("row", [(number, " | ".join(_cells(line)))]))
            self.index += 1
        return True

    def _reference_definition(self, stripped: str) -> bool:
        match = _REF_DEF.match(stripped)
        if match is None:
            return False
        self.refs.setdefault(normalise(match.group(1)).lower(), match.group(2))
        self.index += 1
        return True


def _indent(line: str, stripped: str) -> int:
    """Column of the first non-blank character, tabs to multiples of 4 (CommonMark)."""
    lead = line[: len(line) - len(stripped)]
    return len(lead.expandtabs(4)) if "\t" in lead else len(lead)


def _can_interrupt(match: re.Match[str], content: str) -> bool:
    """CommonMark: an empty item, or an ordered one not starting at 1, continues a paragraph."""
    if not content:
        return False
    return match.re is _BULLET or int(match.group(1)) == 1


def _content_offset(match: re.Match[str], content: str) -> int:
    marker = match.group().rstrip()
    spaces = match.end() - len(marker)
    return len(marker) + 1 if spaces > 4 or not content else match.end()


def _starts_block(stripped: str) -> bool:
    """True when a line would open a new block, so it cannot be a lazy quote line."""
    first = stripped[0]
    if first in "#`~<|":
        return True
    if first in "-*_" and _THEMATIC_BREAK.match(stripped):
        return True
    return bool(_BULLET.match(stripped) or _ORDERED.match(stripped))


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip() for cell in _CELL_SPLIT.split(row)]


def _assemble(blocks: list[_Block], refs: dict[str, str]) -> list[Chunk]:
    """Clean the blocks into chunks and give each its section path and heading index."""
    chunks: list[Chunk] = []
    # Open headings, outermost first: (level, title, index of its chunk).
    headings: list[tuple[int, str, int]] = []

    def clean(raw: str) -> tuple[str, tuple[str, ...]]:
        return clean_inline(raw, refs)

    for block in blocks:
        if block.kind == "heading":
            _add_heading(block, headings, chunks, refs)
            continue
        section = tuple(title for _, title, _ in headings)
        parent = headings[-1][2] if headings else None
        role = "bullet" if block.kind == "bullet" else "paragraph"
        chunks.extend(split_paragraph(block.lines, role, clean, section, parent, _PROTECTED))
    return chunks


def _add_heading(
    block: _Block,
    headings: list[tuple[int, str, int]],
    chunks: list[Chunk],
    refs: dict[str, str],
) -> None:
    """Append a heading chunk and make it the innermost open section."""
    text, links = clean_inline("\n".join(content for _, content in block.lines), refs)
    while headings and headings[-1][0] >= block.level:
        headings.pop()
    if not is_meaningful(text, 1):
        return  # an empty heading closes deeper sections but opens none
    parent = headings[-1][2] if headings else None
    section = (*(title for _, title, _ in headings), text)
    start, end = block.lines[0][0], block.lines[-1][0]
    chunks.append(Chunk(text, start, end, "heading", section, parent, links))
    headings.append((block.level, text, len(chunks) - 1))
