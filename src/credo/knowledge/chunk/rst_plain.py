"""Plain blocks of reStructuredText built as docutils builds them, without its machines.

docutils parses every list, and every list item, table cell, definition, field body and
directive body, with a state machine of its own, trying each of its transitions on each
line. Most of a changelog is bullets of a paragraph or two: `one_line_cells` builds a
nested block of plain paragraphs without a machine, and `quick_bullets` reads a bullet
list without its list machine (an item of plain paragraphs built as such a block, any
other by docutils' own `Body.list_item`). The doctree is docutils' own
(tests/test_rst_parse_fast.py and tests/test_rst_plain.py compare them), and any other
block takes docutils' own parse. Used by `rst_parse.parse` only, under its lock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import docutils
from docutils import nodes, statemachine
from docutils.parsers.rst import states

# A line that docutils' Body state would read as anything but a paragraph's text.
_NOT_TEXT = [
    re.compile(states.Body.patterns[name])
    for name in states.Body.initial_transitions
    if isinstance(name, str) and name != "text"
]


_ENUMERATOR = re.compile(states.Body.patterns["enumerator"])
# Characters a `_NOT_TEXT` pattern can start with, beyond an enumerator's: bullets and
# ASCII punctuation (fields, options, doctests, line blocks, tables, markup, adornments).
_MARKER_STARTS = frozenset("\u2022\u2023\u2043")


def _not_text(line: str) -> bool:
    """True when a Body transition other than "text" matches `line`. Only an enumerator
    ("a.", "iv)", "2.") starts with a letter or digit, and no pattern starts with any other
    non-ASCII character but a bullet: such lines need one pattern, or none."""
    head = line[0]
    if head.isascii():
        if head.isalnum():
            return _ENUMERATOR.match(line) is not None
    elif head not in _MARKER_STARTS:
        return False
    return any(pattern.match(line) for pattern in _NOT_TEXT)


# docutils' Text state reads a paragraph's second line as a section title's underline when
# it matches this (`states.Text.patterns`).
_UNDERLINE = re.compile(states.Text.patterns["underline"])


@contextmanager
def one_line_cells() -> Iterator[None]:
    """Parse a nested block of plain paragraphs as docutils would, without its machine.

    docutils parses every table cell, list item, definition, field body and directive
    body as a document of its own: a state machine run per block, two thirds of the parse
    of a long one-line-per-row table (pytest's plugin list) and most of a changelog's
    bullets. A block that is only paragraphs separated by blank lines, each paragraph's
    first line matched by no Body transition but "text" (no list, field, directive,
    table, adornment...), its second line no title underline, none of its lines indented
    (the Text state's other ways out) and none ending with ``::``, is built here as
    docutils' `Text` state builds each paragraph (`RSTState.paragraph`, inline markup
    through the same inliner and memo, the document's current line where docutils'
    machine has it while it parses the inline text, and past the block at the end).
    Every other block takes docutils' own nested parse."""
    nested_parse = states.RSTState.nested_parse

    def parse(self: Any, block: Any, input_offset: int, node: Any, *args: Any, **kw: Any) -> Any:
        spans = None if args or kw else plain_paragraphs(block)
        if not spans:
            return nested_parse(self, block, input_offset, node, *args, **kw)
        _add_paragraphs(self, block.data, block.items, input_offset, node, spans)
        return input_offset + len(block)

    states.RSTState.nested_parse = parse  # type: ignore[method-assign]
    try:
        yield
    finally:
        states.RSTState.nested_parse = nested_parse  # type: ignore[method-assign]


def _add_paragraphs(
    state: Any,
    lines: list[str],
    items: list[tuple[str, int]],
    input_offset: int,
    node: Any,
    spans: list[tuple[int, int]],
) -> None:
    """Append the paragraphs of a block (its `lines` and their (source, offset) `items`)
    at `spans` to `node`, as docutils' `Text` state builds each (`RSTState.paragraph`:
    inline markup through the same inliner and memo, the document's current line where
    docutils' machine has it while it parses the inline text, and past the block at the
    end)."""
    document, inliner, memo = state.memo.document, state.inliner, state.memo
    for first, last in spans:
        # A one-line paragraph is read once the machine sees the line after it (blank,
        # or past the block); a longer one once the machine reached its last line.
        at = last if last > first else last + 1
        document.note_source(*_info(items, at))
        data = "\n".join(lines[first : last + 1]).rstrip()
        inline, messages = inliner.parse(data, input_offset + first + 1, memo, node)
        paragraph = nodes.paragraph(data, "", *inline)
        source, offset = items[first]
        paragraph.source, paragraph.line = source, offset + 1
        node += paragraph
        node += messages
    document.note_source(*_info(items, len(lines)))  # past the block: its source, no line


def _info(items: list[tuple[str, int]], index: int) -> tuple[str, int | None]:
    """`StringList.info`: a line's (source, offset); past the last line, no offset."""
    return items[index] if index < len(items) else (items[-1][0], None)


def plain_paragraphs(block: Any) -> list[tuple[int, int]] | None:
    """The (first, last) line indices of each paragraph when docutils reads `block` (a
    StringList) as plain paragraphs and nothing else; None otherwise."""
    lines = block.data if isinstance(block, statemachine.StringList) else None
    return _plain_spans(lines) if lines else None


def _plain_spans(lines: list[str]) -> list[tuple[int, int]] | None:
    """`plain_paragraphs` of a block's lines."""
    spans: list[tuple[int, int]] = []
    first = -1
    for index, line in enumerate(lines):
        if line.strip(" "):
            if line[0] == " " or not line.strip():
                return None  # indented, or blank to `str.strip` but not to docutils
            if first < 0:
                first = index
            continue
        if first >= 0:
            spans.append((first, index - 1))
            first = -1
    if first >= 0:
        spans.append((first, len(lines) - 1))
    for first, last in spans:
        if _not_text(lines[first]):
            return None
        if last > first and _UNDERLINE.match(lines[first + 1]):
            return None
        if lines[last].rstrip().endswith("::"):
            return None
    return spans or None


_BULLET = re.compile(states.Body.patterns["bullet"])
# docutils 0.21 and later give a list item its bullet's line (`Body.list_item`).
_ITEM_LINES = tuple(docutils.__version_info__[:2]) >= (0, 21)
# Whether `quick_bullets` is on: docutils binds a state's transition methods when it
# builds the state, and `rst_parse` keeps machines from parse to parse (all built inside
# `quick_bullets`, so all of them take it while it is on, and docutils' own when not).
_QUICK = [False]


@contextmanager
def quick_bullets() -> Iterator[None]:
    """Build a bullet list whose every item is plain paragraphs as docutils would, without
    its list machine.

    docutils' `Body.bullet` reads the first item, then runs a `BulletList` machine over a
    copy of the rest of the input (views of every line after the list's), which reads
    each further item until a line is not one (an indented line, another bullet
    character, any other construct) or the input ends. When every item has text on its
    bullet line, the list is read here, item by item on the page's machine, moved as
    docutils' moves it and left where docutils leaves it: an item whose body is plain
    paragraphs (`plain_paragraphs`) is built by `_add_paragraphs` (as `one_line_cells`
    builds an item's nested block), any other by docutils' own `Body.list_item` (its
    extent, by `StringList.get_indented`'s rule, is the one `_items` found). A list
    with an item whose text starts on its next line takes docutils' own `Body.bullet`."""
    bullet = states.Body.bullet

    def quick(self: Any, match: Any, context: Any, next_state: Any) -> Any:
        machine = self.state_machine
        found = _QUICK[0] and _items(machine.input_lines.data, machine.line_offset)
        if not found:
            return bullet(self, match, context, next_state)
        items, end = found
        bullet_list = nodes.bullet_list()
        bullet_list.source, bullet_list.line = machine.get_source_and_line()
        self.parent += bullet_list
        bullet_list["bullet"] = match.string[0]
        infos = machine.input_lines.items
        for start, indent, lines, spans in items:
            if start > machine.line_offset:  # (the list's machine reads the bullet line)
                machine.next_line(start - machine.line_offset)
            if spans is None:
                bullet_list += self.list_item(indent)[0]
                continue
            item = nodes.list_item("\n".join(lines))
            if _ITEM_LINES:
                item.source, item.line = machine.get_source_and_line()
            machine.next_line(len(lines) - 1)  # (`get_known_indented`: the item's last line)
            offset = machine.input_offset + start
            _add_paragraphs(self, lines, infos[start : start + len(lines)], offset, item, spans)
            bullet_list += item
        blank_finish = end == len(machine.input_lines) or not machine.input_lines[end - 1].strip()
        # docutils' list machine stops at the item's last line, or past the input's end.
        at_end = end == len(machine.input_lines)
        self.goto_line(machine.input_offset + (end if at_end else end - 1))
        if not blank_finish:
            self.parent += self.unindent_warning("Bullet list")
        return [], next_state, []

    states.Body.bullet = quick  # type: ignore[method-assign]
    _QUICK[0] = True
    try:
        yield
    finally:
        _QUICK[0] = False
        states.Body.bullet = bullet  # type: ignore[method-assign]


def _items(
    data: list[str], offset: int
) -> tuple[list[tuple[int, int, list[str], list[tuple[int, int]] | None]], int] | None:
    """The items of the bullet list whose first bullet is at `data[offset]`, each (its
    first line's index, its indent, its lines with the indent removed, its paragraphs'
    spans or None when it is not plain paragraphs), and the index of the line after the
    list; None when an item's text starts on its next line."""
    char = data[offset][0]
    items: list[tuple[int, int, list[str], list[tuple[int, int]] | None]] = []
    start, count = offset, len(data)
    while True:
        line = data[start]
        match = _BULLET.match(line)
        if match is None or line[0] != char:
            break  # another construct, or another bullet character: a new list
        indent = match.end()
        if not line[indent:]:
            return None  # (docutils then reads the item's indent from its next line)
        end = start + 1
        while end < count:  # `StringList.get_indented` with a known indent
            text = data[end]
            if text and (text[0] != " " or text[:indent].strip()):
                break
            end += 1
        lines = [line[indent:], *[text[indent:] for text in data[start + 1 : end]]]
        items.append((start, indent, lines, _plain_spans(lines)))
        if end == count or data[end][0] == " ":
            return items, end  # the input's end, or an indented line: the list's end
        start = end
    return items, start
