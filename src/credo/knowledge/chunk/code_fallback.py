"""The hand-written comment reader: comments of any language credo reads, without a parser.

It is what reads a file when its tree-sitter grammar is not installed or fails to load,
when a file is mostly not the language its extension says, and a Python file that does
not parse when tree-sitter-python is missing. The grammar readers share its paragraph
rules (`comment_paragraphs`), so a comment reads the same either way.

Rules:

- Comments are found by a small lexer that knows each language's strings, so a ``#`` or
  ``//`` inside a string is never a comment. Python, shell: ``#``; C, C++, C#, JS/TS, Go,
  Rust, Java, Kotlin, Swift: ``//`` and ``/* */``. Doc-comment marks (``///``, ``//!``,
  ``/**``) and the leading ``*`` of block-comment lines are removed.
- Consecutive full-line comments in the same column form one paragraph; a comment line
  with no letters or digits (``#``, ``# -----``) ends it. A comment after code on the same
  line (a trailing comment) is a paragraph of its own. Inside a block comment, lines with
  no letters or digits separate paragraphs.
- Doc lines (``///``, ``//!``): a code block's fences are skipped (the page shows none).
  In a Rust file, so are the lines rustdoc hides in a Rust code block (``# use std::io;``):
  another language's ``///`` example keeps its ``# comment`` lines (``rust``). Where the doc
  is read as Markdown (``markdown``), a code block's ``&`` is written as ``&amp;``, so the
  reader's decoding gives back the code as written (``&amp;`` in an example is literal).
  A Rust doc attribute between doc lines whose string is a fence (clap's
  ``#[cfg_attr(feature = "help", doc = " ```")]``, one per build: a pair is one fence)
  opens or closes a code block as a ``/// ```` line does, and a doc read in two parts (a
  module doc split by an ``#![doc = include_str!(...)]`` inside a block) keeps its fences.
- Skipped: the shebang line, Python encoding declarations on lines 1-2, and tool pragmas
  (``noqa``, ``type:``, ``pragma``, ``pylint:``, ``fmt:``, ``eslint``, ``@ts-``,
  ``go:build``, ``NOLINT``, ``SPDX-License-Identifier``...).
"""

# Evaluated annotations: typing.NamedTuple compiles string ones at import (credo/types.py).

import re
from functools import cache
from typing import NamedTuple

from credo.knowledge.chunk.sentence import Line


class _Syntax(NamedTuple):
    """What the comment lexer needs to know about one language."""

    marker: str  # regex of the line-comment marker
    marker_chars: str  # characters stripped from the start of a line comment's text
    quotes: tuple[tuple[str, bool, bool], ...]  # (delimiter, spans lines, backslash escapes)
    block: tuple[str, str] | None = None
    char_literals: bool = False  # ' opens a character literal ('x'), not a string

    def token(self) -> re.Pattern[str]:
        parts = [re.escape(q) for q, _, _ in sorted(self.quotes, key=lambda q: -len(q[0]))]
        if self.block:
            parts.append(re.escape(self.block[0]))
        if self.char_literals:
            parts.append("'")
        parts.append(self.marker)
        return re.compile("|".join(parts))


_C_QUOTES = (('"', False, True),)
SYNTAXES: dict[str, _Syntax] = {
    # "#:" opens a Sphinx attribute comment; the colon is markup.
    "python": _Syntax(
        "#",
        "#:",
        (('"""', True, True), ("'''", True, True), ('"', False, True), ("'", False, True)),
    ),
    # In shell, # starts a comment only at the start of a word ($#, ${#x} are not).
    "shell": _Syntax(r"(?<![^\s;|&(])#", "#", (("'", True, False), ('"', True, True))),
    "c": _Syntax("//", "/!", _C_QUOTES, ("/*", "*/"), char_literals=True),
    "js": _Syntax(
        "//", "/!", (('"', False, True), ("'", False, True), ("`", True, True)), ("/*", "*/")
    ),
    "go": _Syntax("//", "/", (('"', False, True), ("`", True, False)), ("/*", "*/"), True),
    "rust": _Syntax("//", "/!", (('"', True, True),), ("/*", "*/"), char_literals=True),
    "java": _Syntax(
        "//", "/!", (('"""', True, True), ('"', False, True)), ("/*", "*/"), char_literals=True
    ),
}


@cache
def _token(language: str) -> re.Pattern[str]:
    """The lexer's pattern for ``language``, compiled at its first file: a run reads
    one or two languages, and each pattern costs ~0.1M instructions to compile."""
    return SYNTAXES[language].token()


_CHAR_LITERAL = re.compile(r"'(?:\\[^'\n]{1,10}|[^\\'\n]{1,2})'")
BLOCK_LINE_PREFIX = re.compile(r"^\s*\*+(?!/)\s?")
_PRAGMA = re.compile(
    r"(?:noqa\b|type:|pragma\b|pylint:|fmt:|isort:|mypy:|pyright:|ruff:|nosec\b|flake8\b"
    r"|-\*-|vim?:|eslint|@ts-|tslint:|jshint|prettier-ignore|istanbul\b|nolint|clang-format"
    r"|go:|\+build\b|spdx-license-identifier|shellcheck\b|(?:end)?region\b|[@#]__\w+__)",
    re.I,
)
# Tool directives written as block comments (/* eslint-disable */, /* istanbul ignore */),
# and a bundler's annotations (/*@__PURE__*/, /* #__NO_SIDE_EFFECTS__ */): words for the
# minifier, never for a reader.
_BLOCK_PRAGMA = re.compile(
    r"(?:eslint|global\s|globals\s|jshint|jscs:|istanbul\b|c8\s|prettier-ignore|tslint:|@ts-"
    r"|webpack\w*:|spdx-license-identifier|clang-format|nolint|[@#]__\w+__)",
    re.I,
)
_ENCODING = re.compile(r"coding[:=]")
# A banner comment's closing run of markers ("/////  ZodString  /////", "####  Setup  ####"):
# decoration, which would end every passage under such a banner (zod has hundreds).
_CLOSING_RULE = re.compile(r"\s+(?:/{2,}|#{2,})$")
# A diagram's strokes: box drawing, blocks and shapes (pino's worker.js draws its threads
# in 60 lines of "│ ──────► │ PassThrough ├───┼────┤"). Its labels are words, its strokes
# are not; a line left without a word (a vertical label's "p") is no line of text. An
# arrow of prose ("::ffff:127.0.0.1 → ::ffff:7f00:1", axios) says "becomes": it stays.
_DRAWING = re.compile("[\u2500-\u25ff]+")
_WORD = re.compile(r"[^\W\d_]{2}")


class Fragment(NamedTuple):
    """One line's worth of comment text, as a lexer or a grammar found it."""

    number: int  # 1-based line
    column: int
    text: str  # comment markers removed
    block: int | None  # id of the block comment it belongs to; None for line comments
    trailing: bool  # a line comment after code on the same line


def comment_fragments(lines: list[str], language: str) -> list[Fragment]:
    """Every comment line of `lines` in `language` (a key of `SYNTAXES`)."""
    return _CommentLexer(lines, SYNTAXES[language], _token(language)).run()


def comment_paragraphs(
    fragments: list[Fragment], lines: list[str], *, rust: bool = False, markdown: bool = False
) -> list[list[Line]]:
    """Group fragments into paragraphs (see the module docstring for the rules). `rust`: the
    file is Rust (rustdoc's hidden lines); `markdown`: its docs are read as Markdown, whose
    entities the reader decodes (`doc_markup.read_markdown`)."""
    paragraphs: list[list[Line]] = []
    current: list[Line] = []
    last: tuple[object, int] | None = None
    fence = _DocFence(lines, rust)
    for fragment in fragments:
        if fence.hides(fragment):
            continue
        if is_noise(fragment, lines):
            current, last = [], None
            continue
        text = fragment.text.strip()
        if fragment.block is None:
            text = _CLOSING_RULE.sub("", text)
        if markdown and fence.code is not None and "&" in text:
            text = text.replace("&", "&amp;")  # (decoded back to the code as written)
        key = ("block", fragment.block) if fragment.block is not None else fragment.column
        if _DRAWING.search(text):
            text = " ".join(_DRAWING.sub(" ", text).split())
            if not _WORD.search(text):  # (it keeps the paragraph going, as a stroke would)
                last = None if fragment.trailing else (key, fragment.number)
                continue
        if not (current and not fragment.trailing and last == (key, fragment.number - 1)):
            current = []
            paragraphs.append(current)
        current.append((fragment.number, text))
        last = None if fragment.trailing else (key, fragment.number)
    return paragraphs


# A doc comment's code block, and in a Rust file the lines of a Rust code block (rustdoc
# reads an untagged one, or one tagged with its attributes, as Rust) that rustdoc hides from
# the page: "#" alone or "# " before code, the example's scaffolding (imports, stubs, a
# `# Ok(())`).
_FENCE = re.compile(r"(`{3,}|~{3,})\s*([^`]*)$")
_RUST_BLOCK = re.compile(
    r"(?:rust|ignore|should_panic|no_run|compile_fail|test_harness|standalone_crate"
    r"|edition\d{4}|[\s,])*"
)
# A line of a Rust doc (a doc comment or a doc attribute), and a doc line that is a fence.
_DOC_RUN = re.compile(r"\s*(?:///|//!|#!?\[(?:cfg_attr\(.*,\s*)?doc\s*=)")
_DOC_FENCE = re.compile(r"\s*//[/!](?!/)\s*(?:`{3,}|~{3,})\s*([^`]*)$")
_RUN_LINES = 5_000  # how far up a doc run is read (a crate doc of a few thousand lines)
# A doc attribute (or an inner one, ``#![...]``, in a crate doc) whose string is a fence:
# ``#[doc = " ```"]``, or one a ``cfg_attr`` sets (``#[cfg_attr(not(unix), doc = "
# ```ignore")]``, group 1), its tag in group 2.
_ATTRIBUTE_FENCE = re.compile(
    r'\s*#!?\[(cfg_attr\(.*,\s*)?doc\s*=\s*" ?(?:`{3,}|~{3,})([^"`]*)"\)?\]\s*$'
)


def _run_fences(lines: list[str], *, doc_lines: bool) -> list[str]:
    """The tags of the fences among `lines`, in order: doc attributes', and with
    `doc_lines` the ``///`` / ``//!`` lines' (above the first fragment of a call; between two
    fragments a doc line would be a fragment itself, so one there sits in a string). Two
    ``cfg_attr`` fences in a row are one fence written once per build (clap's
    ``not(feature)`` / ``feature`` pair; the last one's tag kept); two plain ``#[doc = "
    ```"]`` in a row are a block's two fences (review87)."""
    tags: list[str] = []
    paired = False  # the line above was a cfg_attr fence
    for line in lines:
        if doc_lines and (fence := _DOC_FENCE.match(line)):
            tags.append(fence.group(1))
            paired = False
        elif attribute := _ATTRIBUTE_FENCE.match(line):
            if paired and attribute.group(1):
                tags[-1] = attribute.group(2)
            else:
                tags.append(attribute.group(2))
            paired = attribute.group(1) is not None
        else:
            paired = False
    return tags


class _DocFence:
    """Which doc lines (``///``, ``//!``, a ``/** */`` or ``/*! */`` block's) are a code
    block's fences, or, in a Rust file, hidden lines of a Rust code block: rustdoc shows
    none of them, so they are no words of the page (anyhow's ``downcast_ref`` read twenty
    lines of ``# enum DataStoreError {`` stubs, day-probe76; regex's ``/*!`` crate doc read
    ``# use regex::Regex; # fn main() {``, probe81). The hidden-line rule is rustdoc's
    alone: a C++ or Swift ``///`` example's ``# run from the root`` is shown. Fragments come
    in file order; a line that is no doc line ends a block. ``code`` tells whether the last
    line seen is in one. In a Rust file, a doc attribute whose string is a fence is one, and
    the first fragment takes up the fences of the doc run above it: a doc may be read in two
    parts (``resume``; probe87, clap)."""

    def __init__(self, lines: list[str], rust: bool) -> None:
        self.lines = lines
        self.rust = rust  # the file is Rust
        self.code: bool | None = None  # inside a code block: whether its # lines are hidden
        self.block: int | None = None  # the block comment the last fragment was in
        self.doc_block = False  # whether that block is a doc comment
        self.last = 0  # the line of the last fragment seen

    def hides(self, fragment: Fragment) -> bool:
        line = self.lines[fragment.number - 1] if fragment.number <= len(self.lines) else ""
        marker = line[fragment.column : fragment.column + 4]
        if fragment.block != self.block:  # (a block's first line holds its opening)
            self.block, self.code = fragment.block, None
            self.doc_block = marker[:3] in ("/**", "/*!") and marker not in ("/**/", "/***")
        if (
            (fragment.block is not None and not self.doc_block)
            or (fragment.block is None and marker[:3] not in ("///", "//!"))
            or marker == "////"
        ):
            self.code = None
            return False
        above, self.last = self.last, fragment.number
        if self.rust and fragment.block is None:
            self.resume(fragment.number, above)
        text = fragment.text.strip()
        if fence := _FENCE.match(text):  # markup, shown by no page ("```rust", "```toml")
            self.toggle(fence.group(2))
            return True
        return bool(self.code) and (text == "#" or text.startswith("# "))

    def toggle(self, tag: str) -> None:
        """A fence with `tag`: it opens a code block, or closes the open one."""
        opening = self.code is None
        self.code = (self.rust and bool(_RUST_BLOCK.fullmatch(tag))) if opening else None

    def resume(self, number: int, above: int) -> None:
        """Take up the fences of the doc attributes, and the doc lines no fragment of this
        call holds, right above line `number` (down to line `above`, the last fragment seen):
        clap's ``#[cfg_attr(feature = "help", doc = " ```")]`` pairs, however many
        ``#[doc = " # use x;"]`` lines follow them, and a doc read in two parts (its module
        doc: ``//! ```rust``, then ``#![doc = include_str!(...)]``, which is code, then ``//!
        ````: the first fragment goes on the run above it)."""
        start = number - 1
        while (
            start > above and number - start < _RUN_LINES and _DOC_RUN.match(self.lines[start - 1])
        ):
            start -= 1
        for tag in _run_fences(self.lines[start : number - 1], doc_lines=not above):
            self.toggle(tag)


def is_noise(fragment: Fragment, lines: list[str]) -> bool:
    """Separators, pragmas, shebangs and encoding lines: never beliefs, they end a paragraph."""
    text = fragment.text.strip()
    if not any(char.isalnum() for char in text):
        return True
    if (_BLOCK_PRAGMA if fragment.block is not None else _PRAGMA).match(text):
        return True
    if fragment.number == 1 and lines[0].startswith("#!"):
        return True
    return fragment.number <= 2 and bool(_ENCODING.search(text))


class _CommentLexer:
    """Finds comments line by line, skipping string literals (which may span lines)."""

    def __init__(self, lines: list[str], syntax: _Syntax, token: re.Pattern[str]) -> None:
        self.lines = lines
        self.syntax = syntax
        self.token = token
        self.quotes = {q: (spans, escapes) for q, spans, escapes in syntax.quotes}
        self.open_quote: str | None = None  # a string literal still open at line end
        self.open_block: int | None = None  # id of a block comment still open at line end
        self.blocks = 0
        self.fragments: list[Fragment] = []

    def run(self) -> list[Fragment]:
        for number, line in enumerate(self.lines, 1):
            position = self._resume(number, line)
            if position >= 0:
                self._scan(number, line, position)
        return self.fragments

    def _resume(self, number: int, line: str) -> int:
        """Where scanning starts on this line after a string or block left open (-1: none)."""
        if self.open_quote is not None:
            end = _closing(line, 0, self.open_quote, self.quotes[self.open_quote][1])
            if end < 0:
                return -1
            self.open_quote = None
            return end
        if self.open_block is not None:
            return self._continue_block(number, line)
        return 0

    def _continue_block(self, number: int, line: str) -> int:
        assert self.syntax.block is not None and self.open_block is not None
        close = line.find(self.syntax.block[1])
        text = line if close < 0 else line[:close]
        self._add(number, 0, BLOCK_LINE_PREFIX.sub("", text, count=1).rstrip("*"), self.open_block)
        if close < 0:
            return -1
        self.open_block = None
        return close + len(self.syntax.block[1])

    def _scan(self, number: int, line: str, position: int) -> None:
        while (match := self.token.search(line, position)) is not None:
            found = match.group()
            if found in self.quotes:
                position = self._skip_string(line, match.end(), found)
            elif found == "'":
                literal = _CHAR_LITERAL.match(line, match.start())
                position = literal.end() if literal else match.end()
            elif self.syntax.block and found == self.syntax.block[0]:
                position = self._block_comment(number, line, match)
            else:
                self._line_comment(number, line, match)
                position = -1
            if position < 0:
                return

    def _skip_string(self, line: str, start: int, quote: str) -> int:
        spans, escapes = self.quotes[quote]
        end = _closing(line, start, quote, escapes)
        if end < 0 and spans:
            self.open_quote = quote
        return end

    def _block_comment(self, number: int, line: str, match: re.Match[str]) -> int:
        assert self.syntax.block is not None
        self.blocks += 1
        close = line.find(self.syntax.block[1], match.end())
        text = line[match.end() : close if close >= 0 else len(line)].lstrip("*!").rstrip("*")
        self._add(number, match.start(), text, self.blocks)
        if close < 0:
            self.open_block = self.blocks
            return -1
        return close + len(self.syntax.block[1])

    def _line_comment(self, number: int, line: str, match: re.Match[str]) -> None:
        text = line[match.end() :].lstrip(self.syntax.marker_chars)
        trailing = bool(line[: match.start()].strip())
        self.fragments.append(Fragment(number, match.start(), text, None, trailing))

    def _add(self, number: int, column: int, text: str, block: int) -> None:
        self.fragments.append(Fragment(number, column, text, block, False))


def _closing(line: str, start: int, quote: str, escapes: bool) -> int:
    """Offset just past the delimiter closing a string opened before `start` (-1: none)."""
    while (found := line.find(quote, start)) >= 0:
        if escapes:
            backslashes = 0
            while found - backslashes - 1 >= start and line[found - backslashes - 1] == "\\":
                backslashes += 1
            if backslashes % 2:
                start = found + 1
                continue
        return found + len(quote)
    return -1
