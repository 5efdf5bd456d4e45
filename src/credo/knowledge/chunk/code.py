"""Split source code into its prose: docstrings and comments.

Rules:

- Comments are found by a small lexer that knows each language's strings, so a ``#`` or
  ``//`` inside a string is never a comment. Python, shell: ``#``; C, C++, C#, JS/TS, Go,
  Rust, Java, Kotlin, Swift: ``//`` and ``/* */``. Doc-comment marks (``///``, ``//!``,
  ``/**``) and the leading ``*`` of block-comment lines are removed.
- Consecutive full-line comments in the same column form one paragraph; a comment line
  with no letters or digits (``#``, ``# -----``) ends it. A comment after code on the same
  line (a trailing comment) is a paragraph of its own. Inside a block comment, lines with
  no letters or digits separate paragraphs. Each paragraph is one "code_comment" chunk
  (split into sentences past `MAX_PARAGRAPH_CHARS`).
- Skipped: the shebang line, Python encoding declarations on lines 1-2, and tool pragmas
  (``noqa``, ``type:``, ``pragma``, ``pylint:``, ``fmt:``, ``eslint``, ``@ts-``,
  ``go:build``, ``NOLINT``, ``SPDX-License-Identifier``...).
- Python docstrings (module, class, function, found with `ast`) become "docstring"
  chunks, one per docstring paragraph (blank-line separated, doctest lines dropped), with
  exact line ranges; a docstring with backslash escapes is taken as written in the file.
  Class and function docstrings are prefixed with the qualified name,
  ``"Config.parse: Read the settings..."``, because the name is usually what a query
  asks about and the docstring rarely repeats it; module docstrings have no prefix.
  `Chunk.section` holds the qualified-name path, for comments too.
- A Python file that does not parse falls back to comment scanning only.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from credo.errors import InvalidInputError
from credo.knowledge.chunk.model import (
    Chunk,
    find_urls,
    is_meaningful,
    normalise,
    source_lines,
    unique,
)
from credo.knowledge.chunk.sentence import Line, split_paragraph


@dataclass(frozen=True, slots=True)
class _Syntax:
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
    "python": _Syntax(
        "#", "#", (('"""', True, True), ("'''", True, True), ('"', False, True), ("'", False, True))
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
_TOKENS = {name: syntax.token() for name, syntax in SYNTAXES.items()}
_ALIASES = {
    "py": "python",
    "javascript": "js",
    "typescript": "js",
    "ts": "js",
    "cpp": "c",
    "c++": "c",
    "csharp": "c",
    "bash": "shell",
    "sh": "shell",
    "kotlin": "java",
    "scala": "java",
    "swift": "java",
}

_CHAR_LITERAL = re.compile(r"'(?:\\[^'\n]{1,10}|[^\\'\n]{1,2})'")
_BLOCK_LINE_PREFIX = re.compile(r"\s*\*+(?!/)\s?")
_PRAGMA = re.compile(
    r"(?:noqa\b|type:|pragma\b|pylint:|fmt:|isort:|mypy:|pyright:|ruff:|nosec\b|flake8\b"
    r"|-\*-|vim?:|eslint|@ts-|tslint:|jshint|prettier-ignore|istanbul\b|nolint|clang-format"
    r"|go:|\+build\b|spdx-license-identifier|shellcheck\b|(?:end)?region\b)",
    re.I,
)
_ENCODING = re.compile(r"coding[:=]")
_OPENING_QUOTE = re.compile(r"\s*[rRuUbBfF]{0,2}(\"\"\"|\'\'\'|\"|\')")
_SCOPES = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True, slots=True)
class _Fragment:
    """One line's worth of comment text as the lexer found it."""

    number: int
    column: int
    text: str
    block: int | None  # id of the block comment it belongs to; None for line comments
    trailing: bool  # a line comment after code on the same line


def split_code(text: str, language: str) -> list[Chunk]:
    """Docstring and comment chunks of source `text`, in line order.

    `language` is one of "python", "c", "js", "go", "rust", "java", "shell" (or a common
    alias such as "typescript"). Never raises on any `text`; an unknown language raises
    `InvalidInputError`.
    """
    name = _ALIASES.get(language.lower(), language.lower())
    if name not in SYNTAXES:
        known = ", ".join(sorted(SYNTAXES))
        raise InvalidInputError(f"unsupported language {language!r}; use one of: {known}")
    lines = source_lines(text.replace("\x00", " "))
    if name == "python":
        return _split_python(lines)
    return _comment_chunks(lines, name, [()] * (len(lines) + 1))


def _split_python(lines: list[str]) -> list[Chunk]:
    tree = _parse_python("\n".join(lines))
    if tree is None:
        return _comment_chunks(lines, "python", [()] * (len(lines) + 1))
    scopes = _python_scopes(tree)
    chunks = _comment_chunks(lines, "python", _scope_by_line(scopes, len(lines)))
    for path, node in scopes:
        chunks.extend(_docstring_chunks(node, path, lines))
    return _link_scopes(sorted(chunks, key=lambda chunk: (chunk.start_line, chunk.end_line)))


def _link_scopes(chunks: list[Chunk]) -> list[Chunk]:
    """Give code the structure headings give Markdown: ``heading_index`` points at the
    docstring that introduces the chunk's scope. A docstring's later paragraphs point at its
    first; a first paragraph at the nearest enclosing scope's docstring (method -> class ->
    module); a comment at its own scope's docstring, else the nearest enclosing one. Ingest
    turns these into DERIVED_FROM edges, so a class and its methods form one cluster."""
    first_doc: dict[tuple[str, ...], int] = {}
    for index, chunk in enumerate(chunks):
        if chunk.role == "docstring":
            first_doc.setdefault(chunk.section, index)
    linked: list[Chunk] = []
    for index, chunk in enumerate(chunks):
        own = first_doc.get(chunk.section)
        parent: int | None
        if chunk.role != "docstring":
            parent = _enclosing_doc(chunk.section, first_doc)
        elif own != index:
            parent = own
        else:  # a scope's first docstring paragraph: the enclosing scope's, if any
            parent = _enclosing_doc(chunk.section[:-1], first_doc) if chunk.section else None
        if parent is not None and parent >= index:
            parent = None  # e.g. a licence comment above the module docstring
        linked.append(dataclasses.replace(chunk, heading_index=parent))
    return linked


def _enclosing_doc(scope: tuple[str, ...], first_doc: dict[tuple[str, ...], int]) -> int | None:
    while True:
        if scope in first_doc:
            return first_doc[scope]
        if not scope:
            return None
        scope = scope[:-1]


def _parse_python(source: str) -> ast.Module | None:
    """The module's AST, or None when it does not parse (the caller falls back)."""
    with warnings.catch_warnings():
        # Invalid escape sequences and the like warn at parse time; they are not ours.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def _python_scopes(tree: ast.Module) -> list[tuple[tuple[str, ...], ast.AST]]:
    """The module and every class or function, with its qualified-name path, outer first."""
    found: list[tuple[tuple[str, ...], ast.AST]] = [((), tree)]
    stack: list[tuple[tuple[str, ...], ast.AST]] = [((), tree)]
    # An explicit stack, not recursion: deeply nested input must not overflow.
    while stack:
        path, node = stack.pop()
        for child in reversed(list(_child_statements(node))):
            if isinstance(child, _SCOPES):
                child_path = (*path, child.name)
                found.append((child_path, child))
                stack.append((child_path, child))
            else:
                stack.append((path, child))
    return found


def _child_statements(node: ast.AST) -> Iterator[ast.AST]:
    """Statements directly inside `node` (expressions are never walked: faster)."""
    for name in ("body", "orelse", "finalbody", "handlers", "cases"):
        value = getattr(node, name, None)
        if isinstance(value, list):
            yield from (child for child in value if isinstance(child, ast.AST))


def _scope_by_line(
    scopes: list[tuple[tuple[str, ...], ast.AST]], count: int
) -> list[tuple[str, ...]]:
    """Qualified-name path of the innermost class or function around each line."""
    by_line: list[tuple[str, ...]] = [()] * (count + 1)
    for path, node in scopes[1:]:  # outer scopes come first, so inner ones overwrite them
        start, end = getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or 0
        by_line[start : min(end, count) + 1] = [path] * max(0, min(end, count) + 1 - start)
    return by_line


def _docstring_chunks(node: ast.AST, path: tuple[str, ...], lines: list[str]) -> list[Chunk]:
    """One "docstring" chunk per docstring paragraph, prefixed with the qualified name."""
    literal = _docstring(node)
    if literal is None or literal.end_lineno is None:
        return []
    value, start, end = str(literal.value), literal.lineno, literal.end_lineno
    rows = value.split("\n")
    # With no escaped newlines and no implicit concatenation, row k is line start + k.
    exact = len(rows) == end - start + 1
    if exact and any("\\" in line for line in lines[start - 1 : end]):
        # Escapes ("\x86", "\a") would turn into other characters: keep the text as written.
        rows = _rows_as_written(lines[start - 1 : end]) or rows
    numbered = [(start + k if exact else start, row) for k, row in enumerate(rows)]
    prefix = ".".join(path) + ": " if path else ""

    def clean(raw: str) -> tuple[str, tuple[str, ...]]:
        text = normalise(raw)
        return (prefix + text if is_meaningful(text) else ""), unique(find_urls(raw))

    chunks = []
    for paragraph in _docstring_paragraphs(numbered):
        chunks.extend(split_paragraph(paragraph, "docstring", clean, path))
    if not exact:
        chunks = [dataclasses.replace(c, start_line=start, end_line=end) for c in chunks]
    return chunks


def _rows_as_written(rows: list[str]) -> list[str] | None:
    """The docstring's source lines without its quotes (None if they cannot be found)."""
    opening = _OPENING_QUOTE.match(rows[0])
    if opening is None:
        return None
    quote = opening.group(1)
    rows = [rows[0][opening.end() :], *rows[1:]]
    closing = rows[-1].rfind(quote)
    if closing < 0:
        return None
    rows[-1] = rows[-1][:closing]
    return rows


def _docstring(node: ast.AST) -> ast.Constant | None:
    body = getattr(node, "body", None)
    if not isinstance(body, list) or not body or not isinstance(body[0], ast.Expr):
        return None
    value = body[0].value
    return value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _docstring_paragraphs(numbered: list[Line]) -> list[list[Line]]:
    """Blank-line separated paragraphs; a doctest (``>>>`` to the next blank) is dropped."""
    paragraphs: list[list[Line]] = []
    current: list[Line] = []
    in_doctest = False
    for number, row in numbered:
        stripped = row.strip()
        if not stripped:
            current, in_doctest = [], False
            continue
        in_doctest = in_doctest or stripped.startswith(">>>")
        if in_doctest:
            current = []
            continue
        if not current:
            paragraphs.append(current)
        current.append((number, stripped))
    return paragraphs


def _comment_chunks(
    lines: list[str], language: str, scope_by_line: list[tuple[str, ...]]
) -> list[Chunk]:
    syntax = SYNTAXES[language]
    fragments = _CommentLexer(lines, syntax, _TOKENS[language]).run()
    chunks = []
    for paragraph in _comment_paragraphs(fragments, lines):
        section = scope_by_line[paragraph[0][0]]
        chunks.extend(split_paragraph(paragraph, "code_comment", _clean_comment, section))
    return chunks


def _clean_comment(raw: str) -> tuple[str, tuple[str, ...]]:
    return normalise(raw), unique(find_urls(raw))


def _comment_paragraphs(fragments: list[_Fragment], lines: list[str]) -> list[list[Line]]:
    """Group fragments into paragraphs (see the module docstring for the rules)."""
    paragraphs: list[list[Line]] = []
    current: list[Line] = []
    last: tuple[object, int] | None = None
    for fragment in fragments:
        text = fragment.text.strip()
        if _is_noise(fragment, text, lines):
            current, last = [], None
            continue
        key = ("block", fragment.block) if fragment.block is not None else fragment.column
        if not (current and not fragment.trailing and last == (key, fragment.number - 1)):
            current = []
            paragraphs.append(current)
        current.append((fragment.number, text))
        last = None if fragment.trailing else (key, fragment.number)
    return paragraphs


def _is_noise(fragment: _Fragment, text: str, lines: list[str]) -> bool:
    """Separators, pragmas, shebangs and encoding lines: never beliefs, they end a paragraph."""
    if not is_meaningful(text, 1):
        return True
    if fragment.block is None and _PRAGMA.match(text):
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
        self.fragments: list[_Fragment] = []

    def run(self) -> list[_Fragment]:
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
        self._add(number, 0, _BLOCK_LINE_PREFIX.sub("", text, count=1).rstrip("*"), self.open_block)
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
        self.fragments.append(_Fragment(number, match.start(), text, None, trailing))

    def _add(self, number: int, column: int, text: str, block: int) -> None:
        self.fragments.append(_Fragment(number, column, text, block, False))


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
