"""Read a Python file with Python's own parser: `ast` for the structure, the comment lexer
for comments (the standard `tokenize` is pure Python on 3.11 and costs twice the parse).

Every ``def``, ``async def`` and ``class`` is a definition, wherever it sits (in a class,
a function, an ``if`` or a ``try``): its lines run from its first decorator to its last
line, its signature is its header as written (``async def fetch(self, url: str) -> bytes``)
and its doc is its docstring, as written in the file. The module docstring is the
header; comments stay comments, but for one case: the block of comments directly above a
definition (on lines of their own at its indentation, no blank line between; above its
decorators) is the definition's, as a doc comment is in the languages without docstrings
(code_treesitter.py): its lines start there and the comment leads its text, before the
signature and docstring (`Definition.above`; the file's order). A remark written over a
function is about that function; as a passage of the enclosing class or module it was out
of the function's lines and trail (docs/BENCHMARKS.md § Ranking, sixteenth pass).

A module-level constant (``DEFAULT_POOLSIZE = 10``; an UPPER_CASE name, or any name
annotated, assigned once at the module's top, alone on its lines and no longer than a
signature) is a definition too: its trail is its name,
its signature the assignment as written (the value is often the answer: "how many
connections does the pool keep"), its lines the comment block above it (which leads its
text, as a function's does) to its last, its context the value's names and short
strings. As module code it pooled with its neighbours into one passage naming none of
them, and an answer a reader would cite as one line sat in a passage of twenty.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator

from credo.knowledge.chunk.code_fallback import (
    Fragment,
    comment_fragments,
    comment_paragraphs,
    is_noise,
)
from credo.knowledge.chunk.code_names import names, own_segments
from credo.knowledge.chunk.code_outline import (
    MAX_SIGNATURE_CHARS,
    Definition,
    Outline,
    Statement,
    is_commented_out_code,
    is_cut,
    is_licence,
    signature,
)
from credo.knowledge.chunk.model import MAX_PARAGRAPH_CHARS
from credo.knowledge.chunk.sentence import Line

_SCOPES = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
# A constant's name: UPPER_CASE, leading underscores allowed (``_DEFAULT_BLOCKSIZE``).
_CONSTANT_NAME = re.compile(r"_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_?")
# Builtins that make a container of data (``frozenset(["host", "user-agent"])``).
_CONTAINERS = frozenset({"frozenset", "set", "tuple", "list", "dict"})
_OPENING_QUOTE = re.compile(r"\s*[rRuUbBfF]{0,2}(\"\"\"|\'\'\'|\"|\')")

Scope = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def read_python(lines: list[str]) -> Outline | None:
    """The outline of a Python file, or None when it does not parse (the caller falls back)."""
    tree = _parse("\n".join(lines))
    if tree is None:
        return None
    fragments = comment_fragments(lines, "python")
    by_line = {fragment.number: fragment for fragment in fragments}
    taken: set[int] = set()  # lines whose comment a definition's header took
    found = list(_scopes(tree))
    definitions = [_definition(node, trail, lines, by_line, taken) for trail, node in found]
    _collect_names(lines, found, definitions)
    header = _docstring(tree, lines)
    body = tree.body[1:] if tree.body and _is_docstring(tree.body[0]) else tree.body
    constants = _constants(tree.body, lines, by_line)  # (the docstring is a neighbour too)
    # A constant takes nothing from the module's code and comments: its belief is one more,
    # in the value index (store/values.py), and the passages stay as they were without it.
    definitions += [_constant(node, text, lines, by_line, set()) for node, text in constants]
    left = [fragment for fragment in fragments if fragment.number not in taken]
    statements = _statements(body, lines, by_line)
    return Outline(definitions, header, left, _code_start(tree, len(lines)), statements)


def _parse(source: str) -> ast.Module | None:
    with warnings.catch_warnings():
        # Invalid escape sequences and the like warn at parse time; they are not ours.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def _scopes(tree: ast.Module) -> Iterator[tuple[tuple[str, ...], Scope]]:
    """Every class and function with its qualified-name trail, in source order."""
    # An explicit stack, not recursion: deeply nested input must not overflow. Only
    # statements with a body can hold a definition; expressions are never walked.
    stack: list[tuple[tuple[str, ...], ast.AST]] = [((), tree)]
    while stack:
        trail, node = stack.pop()
        if isinstance(node, _SCOPES):
            yield trail, node
        children: list[ast.AST] = []
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(node, field, None)
            if value:
                children.extend(c for c in value if hasattr(c, "body") or hasattr(c, "cases"))
        for child in reversed(children):
            if isinstance(child, _SCOPES):
                stack.append(((*trail, child.name), child))
            else:
                stack.append((trail, child))


def _definition(
    node: Scope,
    trail: tuple[str, ...],
    lines: list[str],
    by_line: dict[int, Fragment],
    taken: set[int],
) -> Definition:
    """The definition of `node`. Comments in its header (between parameters, after the
    colon, before the docstring) stay in the signature as written, so the text keeps the
    file's order, unless the signature's cap cuts it (then they are comments); pragmas
    there, and comments among its decorators, are dropped."""
    start = _first_line(node)
    end = max(node.end_lineno or node.lineno, start)
    taken.update(number for number in range(start, node.lineno) if number in by_line)
    body = node.body[0]
    # The header ends where its body starts: at the first decorator of a definition there,
    # or at the comment that leads that definition (``_lead``: the comment is its own).
    body_line = _first_line(body)
    if isinstance(body, _SCOPES) and (lead := _lead(body, body_line, lines, by_line, taken)):
        body_line = lead[0][0][0]
    header = _header(lines, node.lineno, node.col_offset, body, body_line)
    rows, said = _header_rows(header, by_line, lines, keep=True)
    written = signature(" ".join(rows))
    if said and is_cut(written):
        # The cap (`signature`) cut the header: its comments stay comments, whole, rather
        # than lose their words (urllib3's ``def request(...) -> None:`` took the body's
        # first comment, "Update the inner socket's timeout value to …").
        rows, said = _header_rows(header, by_line, lines, keep=False)
        written = signature(" ".join(rows))
    taken.update(said)
    definition = Definition(trail, start, end, written, _docstring(node, lines))
    definition.members = isinstance(node, ast.ClassDef)
    # (after the decorators' comments are taken: those above them are the definition's)
    if kept := _lead(node, start, lines, by_line, taken):
        first = kept[0][0][0]
        taken.update(range(first, start))  # (the block's lines: comments, one a line)
        definition.start_line = first
        definition.above = kept
    return definition


def _header_rows(
    header: list[tuple[int, int, str]], by_line: dict[int, Fragment], lines: list[str], keep: bool
) -> tuple[list[str], list[int]]:
    """A header's rows, with its comments kept as written (``keep``) or cut out (pragmas
    always), and the lines of the comments it takes."""
    rows, said = [], []
    for number, offset, row in header:
        comment = by_line.get(number)
        if comment is not None and offset <= comment.column < offset + len(row):
            noise = is_noise(comment, lines)
            if keep or noise:
                said.append(number)
            if noise or not keep:
                row = row[: comment.column - offset]
        rows.append(row)
    return rows, said


def _lead(
    node: ast.stmt, start: int, lines: list[str], by_line: dict[int, Fragment], taken: set[int]
) -> list[list[Line]]:
    """The paragraphs of the comment block above ``node`` (whose lines start at ``start``)
    that lead its text: its prose only, the paragraphs next to it, up to one of commented-out
    code or a licence notice, which stay as they were (skipped; a comment). (In Python a
    block at one column is one paragraph: such a block is judged whole.)"""
    column = _char_column(lines[node.lineno - 1], node.col_offset)
    above = _comments_above(start, column, lines, by_line, taken)
    kept: list[list[Line]] = []
    room = MAX_PARAGRAPH_CHARS + 1  # (the head's text keeps that much of it: code._capped)
    for paragraph in reversed(comment_paragraphs(above, lines)):
        if is_commented_out_code(paragraph) or is_licence(paragraph):
            break
        # Its last lines that fit: the first ones of a longer block stay a comment, whole,
        # instead of being cut from the index.
        fits = len(paragraph)
        while fits and (room := room - len(paragraph[fits - 1][1]) - 1) >= 0:
            fits -= 1
        if fits < len(paragraph):
            kept.insert(0, paragraph[fits:])
        if fits:
            break
    return kept


def _comments_above(
    start: int, column: int, lines: list[str], by_line: dict[int, Fragment], taken: set[int]
) -> list[Fragment]:
    """The block of comments directly above line ``start``, in order: on lines of their
    own at the definition's ``column``, no blank line, code, pragma or separator between."""
    above: list[Fragment] = []
    while (
        (comment := by_line.get(start - 1)) is not None
        and start - 1 not in taken
        and not comment.trailing
        and comment.column == column
        and not is_noise(comment, lines)
    ):
        above.append(comment)
        start -= 1
    above.reverse()
    return above


def _first_line(node: ast.stmt) -> int:
    """A statement's first line: its first decorator's, if it has any."""
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])


def _header(
    lines: list[str], line: int, column: int, body: ast.stmt, body_line: int
) -> list[tuple[int, int, str]]:
    """The source from a definition's keyword to its body (which starts on ``body_line``), as
    (line, offset, text) rows; `ast` gives byte columns, converted here to character offsets."""
    end_line = min(max(body_line, line), len(lines))
    rows: list[tuple[int, int, str]] = []
    for number in range(line, end_line + 1):
        text = lines[number - 1]
        start = _char_column(text, column) if number == line else 0
        end = _char_column(text, body.col_offset) if number == end_line else len(text)
        rows.append((number, start, text[start:end]))
    return rows


def _char_column(line: str, byte_column: int) -> int:
    """`ast` counts columns in UTF-8 bytes; strings index by character."""
    if line.isascii():
        return byte_column
    return len(line.encode("utf-8", "surrogatepass")[:byte_column].decode("utf-8", "ignore"))


def _docstring(node: ast.AST, lines: list[str]) -> list[list[Line]]:
    """Paragraphs of `node`'s docstring, taken as written between its quotes.

    As written, because the value is not the file's words: escapes ("\\n", "\\x86") turn
    into other characters and implicitly joined strings into words the file never holds,
    and the anchor checks find a belief's words in its lines."""
    body = getattr(node, "body", None)
    if not isinstance(body, list) or not body or not _is_docstring(body[0]):
        return []
    literal = body[0].value
    start, end = literal.lineno, min(literal.end_lineno or literal.lineno, len(lines))
    source = lines[start - 1 : end]
    if literal.end_col_offset is not None:
        source[-1] = source[-1][: _char_column(source[-1], literal.end_col_offset)]
    source[0] = source[0][_char_column(source[0], literal.col_offset) :]
    written = _rows_as_written(source)
    if written is None:  # never seen: the literal's own slice starts and ends with quotes
        return []
    return docstring_paragraphs([(start + k, row) for k, row in enumerate(written)])


def _rows_as_written(rows: list[str]) -> list[str] | None:
    """The literal's source lines without its outer quotes (None if they cannot be found)."""
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


def docstring_paragraphs(numbered: list[Line]) -> list[list[Line]]:
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


def _constants(
    body: list[ast.stmt], lines: list[str], by_line: dict[int, Fragment]
) -> list[tuple[ast.stmt, str]]:
    """The module-level constants (`_constant_name`) with their text as written, those
    alone on their lines and short enough to be a signature whole. One that shares a line
    with another statement (``A = 1; B = 2``) stays module code, since a definition's text
    is its lines' and would hold its neighbour's; so does a longer one (a help text, a
    table of keywords), whose text module code keeps whole where a signature is cut."""
    found: list[tuple[ast.stmt, str]] = []
    for index, node in enumerate(body):
        if not _constant_name(node) or not is_data(getattr(node, "value", None)):
            continue
        before = (body[index - 1].end_lineno or 0) if index else 0
        after = body[index + 1].lineno if index + 1 < len(body) else None
        end = min(max(node.end_lineno or node.lineno, node.lineno), len(lines))
        if before >= node.lineno or (after is not None and after <= end):
            continue
        rows = []
        for number in range(node.lineno, end + 1):
            comment = by_line.get(number)
            row = lines[number - 1]
            rows.append(row if comment is None else row[: comment.column])
        written = " ".join(" ".join(rows).split())
        if len(written) <= MAX_SIGNATURE_CHARS:
            found.append((node, written))
    return found


def is_data(value: ast.expr | None) -> bool:
    """Whether a value is data written out: literals, names and attributes, and what
    containers and operators build of them (``2**16``, ``{"http": 80}``, ``(codes.moved,
    codes.found)``, ``frozenset(["host"])``). A value a call computes (``re.compile(...)``,
    ``logging.getLogger(...)``) or a comprehension builds is setup code, not a setting: its
    text is a pattern or an expression a reader asks about as part of the code that uses it."""
    if value is None:
        return False
    if isinstance(value, ast.Constant | ast.Name | ast.Attribute):
        return True
    if isinstance(value, ast.Tuple | ast.List | ast.Set):
        return all(is_data(item) for item in value.elts)
    if isinstance(value, ast.Dict):
        return all(is_data(k) and is_data(v) for k, v in zip(value.keys, value.values, strict=True))
    if isinstance(value, ast.UnaryOp):
        return is_data(value.operand)
    if isinstance(value, ast.BinOp):
        return is_data(value.left) and is_data(value.right)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return (
            value.func.id in _CONTAINERS
            and not value.keywords
            and all(is_data(arg) for arg in value.args)
        )
    return False


def _constant_name(node: ast.stmt) -> str | None:
    """The name a module-level statement declares as a constant: one UPPER_CASE name
    assigned (``A = B = 1`` and ``a, b = ...`` name no one value), or any name annotated
    with a value (``timeout: float = 3.0``); else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if isinstance(target, ast.Name) and _CONSTANT_NAME.fullmatch(target.id):
            return target.id
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
        return node.target.id
    return None


def _constant(
    node: ast.stmt, written: str, lines: list[str], by_line: dict[int, Fragment], taken: set[int]
) -> Definition:
    """The definition of a module-level constant (`_constants`): the assignment as
    ``written`` (comments on its lines left out: they are comments in its trail), led by
    the comment block above it."""
    start, end = node.lineno, min(max(node.end_lineno or node.lineno, node.lineno), len(lines))
    name = _constant_name(node) or "?"
    definition = Definition((name,), start, end, signature(written))
    definition.written = True
    value = getattr(node, "value", None)
    if value is not None:
        text = "\n".join(lines[value.lineno - 1 : end])
        offset = _char_column(lines[value.lineno - 1], value.col_offset)
        words = names(text, [(offset, len(text))])
        definition.identifiers, definition.strings = words.names, words.strings
    if kept := _lead(node, start, lines, by_line, taken):
        first = kept[0][0][0]
        taken.update(range(first, start))
        definition.start_line = first
        definition.above = kept
    return definition


def _statements(
    body: list[ast.stmt], lines: list[str], by_line: dict[int, Fragment]
) -> list[Statement]:
    """The module's own code: its top-level statements but definitions, imports and the
    statements holding one (``try: import ...``, ``if TYPE_CHECKING:``; their definitions
    are read as definitions), as written, each line's comment left out (it is a comment
    chunk of its own, and ends the piece, so the two keep the file's order). Statements
    sharing a line are one; a statement longer than `MAX_PARAGRAPH_CHARS` is cut at line
    ends (and at blank lines) into pieces, each with its own lines."""
    spans: list[list[int]] = []
    for node in body:
        if _holds_definition_or_import(node):
            continue
        start, end = node.lineno, min(max(node.end_lineno or node.lineno, node.lineno), len(lines))
        if spans and start <= spans[-1][1]:  # (``a = 1; b = 2``: one line, one statement)
            spans[-1][1] = max(spans[-1][1], end)
        elif start <= end:
            spans.append([start, end])
    pieces: list[Statement] = []
    for start, end in spans:
        rows: list[tuple[int, str]] = []
        size = 0
        for number in range(start, end + 1):
            row = lines[number - 1]
            comment = by_line.get(number)
            if comment is not None:
                row = row[: comment.column]
            row = row.rstrip()
            if rows and (size + 1 + len(row.strip()) > MAX_PARAGRAPH_CHARS or not row.strip()):
                pieces.append(_statement(rows))
                rows, size = [], 0
            if row.strip():
                rows.append((number, row))
                size += len(row.strip()) + (1 if size else 0)
            if comment is not None and rows:
                # A comment ends the piece: its chunk comes next, so a passage that joins
                # them keeps the file's order of words.
                pieces.append(_statement(rows))
                rows, size = [], 0
        if rows:
            pieces.append(_statement(rows))
    return pieces


def _statement(rows: list[tuple[int, str]]) -> Statement:
    text = "\n".join(row for _, row in rows)
    words = names(text, [(0, len(text))])
    return Statement(rows[0][0], rows[-1][0], text, words.names, words.strings)


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _holds_definition_or_import(node: ast.stmt) -> bool:
    """Whether `node` is, or holds, a definition or an import (walked without recursion)."""
    stack: list[ast.AST] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (*_SCOPES, ast.Import, ast.ImportFrom)):
            return True
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(item, field, None)
            if isinstance(value, list):
                stack.extend(c for c in value if isinstance(c, ast.AST))
    return False


def _code_start(tree: ast.Module, count: int) -> int:
    if not tree.body:
        return count + 1
    first = tree.body[0]
    return min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))])


def _collect_names(
    lines: list[str], found: list[tuple[tuple[str, ...], Scope]], definitions: list[Definition]
) -> None:
    """Give each definition the names its own body uses (nested definitions' bodies are
    theirs; a class gets its methods' names and parameters, from their headers)."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(line: int, byte_column: int) -> int:
        line = min(max(line, 1), len(lines))
        return starts[line - 1] + _char_column(lines[line - 1], byte_column)

    bodies: list[tuple[int, int] | None] = []
    for _, node in found:
        first, end_line = node.body[0], node.end_lineno or node.lineno
        bodies.append(
            (offset(first.lineno, first.col_offset), offset(end_line, node.end_col_offset or 0))
        )
    text = "\n".join(lines)
    for (_, node), definition, segments in zip(
        found, definitions, own_segments(bodies), strict=True
    ):
        words = names(text, segments)
        definition.identifiers = words.names
        definition.strings = [*_option_help(node), *words.strings]


def _option_help(node: Scope) -> list[str]:
    """The strings of the decorators that document an option (a call with a ``help=``
    string: click's and typer's ``@option("--follow-redirects", help="...")``): a command's
    documentation, written above its ``def`` and outside its body, so no index field read
    it (a search for the help's own words missed the command)."""
    found: list[str] = []
    for decorator in node.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        helps = [t for k in decorator.keywords if k.arg == "help" and (t := _text(k.value))]
        if helps:
            found += [t for arg in decorator.args if (t := _text(arg))]
            found += helps
    return found


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
