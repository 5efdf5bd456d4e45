"""The SQLite FTS5 baselines of ``bench/docs_multi.py``: how a corpus is cut into rows, what
context each row carries, and the bm25 query. Nothing here imports credo's parsers or
chunkers; the only credo import is ``query_terms``, so both sides search the same words.

Units (one FTS5 row each, with the file and the 1-based inclusive line range it covers):

    paragraphs        a maximal run of non-blank lines of the raw file (any file type).
    heading trail     the titles of the headings enclosing a paragraph's first line,
                      outermost first (a heading's own paragraph includes itself). Tracked
                      here: Markdown ATX ``#`` headings and setext underlines outside fenced
                      code; reStructuredText titles underlined (optionally overlined) by one
                      repeated punctuation character at least as long as the title, levels in
                      order of first appearance of each (overlined?, character) style.
    functions         Python (``ast``): every function, method and class definition at any
                      depth, its whole text from its first decorator to ``end_lineno``;
                      JavaScript (tree-sitter): function_declaration, generator function
                      declaration, class_declaration, method_definition, and a
                      ``const/let/var x = function / arrow`` declarator (its whole statement);
                      Go and Rust (tree-sitter): functions, methods (Go ``Receiver.method``,
                      Rust under its impl's type), type, struct, enum, trait, impl and mod
                      items, a Rust item from its first attribute.
                      Plus one row per paragraph of the module-level remainder (the lines no
                      outermost definition covers). A file that does not parse, or JavaScript
                      without tree-sitter installed, is cut into paragraphs only.
    path words        the relative path split on ``/ . _ -`` and at camelCase boundaries.
    symbol context    path words, the dotted module name (path without suffix, ``src.`` and
                      ``.__init__`` dropped), the qualified name ``module.Class.method``, and
                      the camelCase words of each name in it.
"""

from __future__ import annotations

import ast
import re
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from credo.store.fts import query_terms


@dataclass(frozen=True, slots=True)
class Unit:
    """One FTS5 row: where it is, its text, and what the context variants add to it."""

    path: str  # relative to the corpus folder, posix
    start: int  # 1-based, inclusive
    end: int
    text: str
    context: str = ""


# -- paragraphs ----------------------------------------------------------------------------


def paragraph_spans(
    lines: Sequence[str], keep: Sequence[bool] | None = None
) -> list[tuple[int, int]]:
    """1-based (start, end) of every maximal run of non-blank lines; with ``keep``, only lines
    whose flag is set take part (the rest break runs like blank lines)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for number, line in enumerate(lines, 1):
        inside = bool(line.strip()) and (keep is None or keep[number - 1])
        if inside and not start:
            start = number
        elif not inside and start:
            spans.append((start, number - 1))
            start = 0
    if start:
        spans.append((start, len(lines)))
    return spans


def text_of(lines: Sequence[str], start: int, end: int) -> str:
    return "\n".join(lines[start - 1 : end])


# -- words of paths and names --------------------------------------------------------------

_PATH_SPLIT = re.compile(r"[/._\-]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def camel_words(name: str) -> list[str]:
    return [w for w in _CAMEL.split(name) if w]


def path_words(relative: str) -> str:
    """``lib/helpers/buildURL.js`` -> ``lib helpers build URL js``."""
    words: list[str] = []
    for part in _PATH_SPLIT.split(relative):
        words.extend(camel_words(part))
    return " ".join(words)


def module_name(relative: str) -> str:
    """``src/urllib3/util/retry.py`` -> ``urllib3.util.retry``."""
    stem = relative.rsplit(".", 1)[0] if "." in relative.rsplit("/", 1)[-1] else relative
    name = stem.replace("/", ".")
    name = name.removeprefix("src.")
    return name.removesuffix(".__init__")


def symbol_context(relative: str, qualified: Sequence[str]) -> str:
    module = module_name(relative)
    parts = [path_words(relative), module]
    if qualified:
        parts.append(".".join([module, *qualified]))
        for name in qualified:
            split = camel_words(name)
            if len(split) > 1:
                parts.append(" ".join(split))
    return " ".join(parts)


# -- heading trails ------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")
_MARKUP = re.compile(r"[`*]")
_SPACE = re.compile(r"\s+")

Heading = tuple[int, int, str]  # (first line, level, title)


def _clean(title: str) -> str:
    return _SPACE.sub(" ", _MARKUP.sub("", title)).strip()


def markdown_headings(lines: Sequence[str]) -> list[Heading]:
    """ATX and setext headings outside fenced code blocks (a setext title is one line after
    a blank line or the start of the file)."""
    out: list[Heading] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        if m := _FENCE.match(line):
            marker = m.group(1)
            if fence is None:
                fence = marker
            elif (
                marker[0] == fence[0]
                and len(marker) >= len(fence)
                and not line.strip()[len(marker) :].strip()
            ):
                fence = None
            continue
        if fence is not None:
            continue
        if m := _ATX.match(line):
            out.append((i + 1, len(m.group(1)), _clean(m.group(2) or "")))
            continue
        if (
            line.strip()
            and not line.startswith("    ")
            and not _SETEXT.match(line)
            and (i == 0 or not lines[i - 1].strip())
            and i + 1 < len(lines)
            and (u := _SETEXT.match(lines[i + 1]))
        ):
            out.append((i + 1, 1 if u.group(1)[0] == "=" else 2, _clean(line)))
    return out


def rst_headings(lines: Sequence[str]) -> list[Heading]:
    """Section titles: a text line underlined, optionally overlined, by one repeated
    punctuation character at least as long as the title, or shorter but of 4 or more
    characters (docutils takes that as a title too, with a warning)."""
    out: list[Heading] = []
    styles: dict[tuple[bool, str], int] = {}
    i = 0
    while i + 1 < len(lines):
        line, under = lines[i], lines[i + 1]
        title = line.strip()
        u = _ADORNMENT.match(under)
        short = u is not None and len(under.rstrip()) < min(len(title), 4)
        if not title or _ADORNMENT.match(line) or u is None or short:
            i += 1
            continue
        char = u.group(1)
        over = i > 0 and (o := _ADORNMENT.match(lines[i - 1])) is not None and o.group(1) == char
        if over:
            if i > 1 and lines[i - 2].strip():
                i += 1
                continue
        elif line[:1].isspace() or (i > 0 and lines[i - 1].strip()):
            i += 1
            continue
        level = styles.setdefault((over, char), len(styles) + 1)
        out.append((i if over else i + 1, level, _clean(title)))
        i += 2
    return out


def headings(relative: str, lines: Sequence[str]) -> list[Heading]:
    if relative.endswith(".md"):
        return markdown_headings(lines)
    if relative.endswith(".rst"):
        return rst_headings(lines)
    return []


def trail_units(relative: str, lines: Sequence[str]) -> list[Unit]:
    """Every paragraph with path words and its heading trail as context."""
    events = headings(relative, lines)
    words = path_words(relative)
    out: list[Unit] = []
    stack: list[tuple[int, str]] = []
    e = 0
    for start, end in paragraph_spans(lines):
        while e < len(events) and events[e][0] <= start:
            _, level, title = events[e]
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            e += 1
        trail = " ".join(title for _, title in stack)
        out.append(
            Unit(relative, start, end, text_of(lines, start, end), f"{words} {trail}".strip())
        )
    return out


# -- definitions in code -------------------------------------------------------------------

Definition = tuple[int, int, tuple[str, ...], bool]  # (start, end, qualified name, outermost)


def python_definitions(source: str) -> list[Definition]:
    tree = ast.parse(source)
    out: list[Definition] = []

    def visit(node: ast.AST, qualified: tuple[str, ...], outermost: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                name = (*qualified, child.name)
                out.append((start, child.end_lineno or child.lineno, name, outermost))
                visit(child, name, False)
            else:
                visit(child, qualified, outermost)

    visit(tree, (), True)
    return out


_JS_PARSER: object | None = None
_JS_STATUS = ""


def javascript_parser() -> object | None:
    """A tree-sitter JavaScript parser, or None (said once on stderr) when not installed.
    The JavaScript grammar if present, else the TypeScript one credo depends on (TypeScript
    is a superset: it parses the same definitions with the same node types)."""
    global _JS_PARSER, _JS_STATUS
    if _JS_STATUS:
        return _JS_PARSER
    try:
        import tree_sitter

        try:
            import tree_sitter_javascript

            grammar, _JS_STATUS = tree_sitter_javascript.language(), "tree-sitter-javascript"
        except ImportError:
            import tree_sitter_typescript

            grammar = tree_sitter_typescript.language_typescript()
            _JS_STATUS = "tree-sitter-typescript"
        _JS_PARSER = tree_sitter.Parser(tree_sitter.Language(grammar))
    except Exception as exc:  # any failure means: no parser
        _JS_STATUS = f"unavailable ({type(exc).__name__}: {exc})"
        print(
            f"docs_multi: tree-sitter JavaScript parser {_JS_STATUS}; JavaScript files are "
            "cut into paragraphs only (pip install tree-sitter tree-sitter-javascript)",
            file=sys.stderr,
        )
    return _JS_PARSER


def javascript_status() -> str:
    javascript_parser()
    return _JS_STATUS


_JS_DEFS = {
    "abstract_class_declaration",
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "method_definition",
}
_JS_FUNCTION_VALUES = {"function_expression", "function", "arrow_function", "generator_function"}


def typescript_parser() -> object | None:
    """tree-sitter's TypeScript parser (a credo dependency): a TypeScript file is read with
    it whatever JavaScript grammar is installed, so the baselines' figures on a TypeScript
    corpus do not depend on tree-sitter-javascript (whose parse of type annotations is
    error recovery)."""
    return _tree_parser("typescript", "language_typescript")


def javascript_definitions(source: str, typescript: bool = False) -> list[Definition] | None:
    parser = typescript_parser() if typescript else javascript_parser()
    if parser is None:
        return None
    tree = parser.parse(source.encode("utf-8"))  # type: ignore[attr-defined]
    out: list[Definition] = []

    def name_of(node: object) -> str:
        field = node.child_by_field_name("name")  # type: ignore[attr-defined]
        return field.text.decode("utf-8", "replace") if field is not None else "?"

    def visit(node: object, qualified: tuple[str, ...], outermost: bool) -> None:
        for child in node.children:  # type: ignore[attr-defined]
            span: object | None = None
            if child.type in _JS_DEFS:
                span = child
            elif child.type == "variable_declarator":
                value = child.child_by_field_name("value")
                named = child.child_by_field_name("name")
                if value is not None and value.type in _JS_FUNCTION_VALUES and named is not None:
                    parent = child.parent
                    single = parent is not None and parent.named_child_count == 1
                    span = parent if single else child
            if span is None:
                visit(child, qualified, outermost)
                continue
            name = (*qualified, name_of(child))
            start = span.start_point[0] + 1  # type: ignore[attr-defined]
            end = span.end_point[0] + 1  # type: ignore[attr-defined]
            out.append((start, end, name, outermost))
            visit(child, name, False)

    visit(tree.root_node, (), True)  # type: ignore[attr-defined]
    return out


# Go and Rust (tree-sitter): functions, methods and type declarations; a Go method is named
# Receiver.method, a Rust impl or trait names what is in it (its type, from the field).
_TREE_DEFS = {
    "go": {"function_declaration", "method_declaration", "type_declaration"},
    "rust": {
        "function_item",
        "function_signature_item",
        "struct_item",
        "enum_item",
        "trait_item",
        "impl_item",
        "mod_item",
        "macro_definition",
    },
}
_TREE_PARSERS: dict[str, object | None] = {}


def _tree_parser(language: str, entry: str = "language") -> object | None:
    """``tree_sitter_<language>``'s parser (its grammar from ``entry``), made once."""
    if language not in _TREE_PARSERS:
        try:
            import importlib

            import tree_sitter

            module = importlib.import_module(f"tree_sitter_{language}")
            grammar = tree_sitter.Language(getattr(module, entry)())
            _TREE_PARSERS[language] = tree_sitter.Parser(grammar)
        except Exception as exc:  # any failure means: no parser
            _TREE_PARSERS[language] = None
            print(f"docs_multi: no tree-sitter {language} parser ({exc})", file=sys.stderr)
    return _TREE_PARSERS[language]


def tree_definitions(source: str, language: str) -> list[Definition] | None:
    parser = _tree_parser(language)
    if parser is None:
        return None
    tree = parser.parse(source.encode("utf-8"))  # type: ignore[attr-defined]
    kinds = _TREE_DEFS[language]
    out: list[Definition] = []

    def text(node: object | None) -> str:
        return node.text.decode("utf-8", "replace") if node is not None else "?"  # type: ignore[attr-defined]

    def name_of(node: object) -> str:
        kind = node.type  # type: ignore[attr-defined]
        if kind == "type_declaration":
            spec = next((c for c in node.named_children if c.type == "type_spec"), None)  # type: ignore[attr-defined]
            return text(spec.child_by_field_name("name") if spec is not None else None)
        if kind == "impl_item":
            return re.sub(r"<.*", "", text(node.child_by_field_name("type")))  # type: ignore[attr-defined]
        return text(node.child_by_field_name("name"))  # type: ignore[attr-defined]

    def visit(node: object, qualified: tuple[str, ...], outermost: bool) -> None:
        for child in node.children:  # type: ignore[attr-defined]
            if child.type not in kinds:
                visit(child, qualified, outermost)
                continue
            name = (*qualified, name_of(child))
            if child.type == "method_declaration":
                receiver = text(child.child_by_field_name("receiver"))
                found = re.findall(r"\w+", receiver)
                name = (*qualified, found[-1] if found else "?", name_of(child))
            start = child.start_point[0] + 1
            # a Rust item's attributes (#[test], #[derive]) are siblings just above it
            above = child.prev_named_sibling
            while above is not None and above.type == "attribute_item":
                start = above.start_point[0] + 1
                above = above.prev_named_sibling
            out.append((start, child.end_point[0] + 1, name, outermost))
            visit(child, name, False)

    visit(tree.root_node, (), True)  # type: ignore[attr-defined]
    return out


def function_units(relative: str, lines: Sequence[str], problems: list[str]) -> list[Unit]:
    """Definitions (with symbol context) and module-level remainder paragraphs."""
    source = "\n".join(lines) + "\n"
    definitions: list[Definition] | None
    try:
        if relative.endswith(".py"):
            definitions = python_definitions(source)
        elif relative.endswith((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")):
            # (TypeScript too, always with the TypeScript grammar: its classes and functions
            # are JavaScript's node types)
            typescript = relative.endswith((".ts", ".mts", ".cts"))
            definitions = javascript_definitions(source, typescript)
        elif relative.endswith((".go", ".rs")):
            definitions = tree_definitions(source, "go" if relative.endswith(".go") else "rust")
        else:
            definitions = None
    except SyntaxError as exc:
        problems.append(f"{relative}: does not parse ({exc.msg}); paragraphs only")
        definitions = None
    definitions = definitions or []
    covered = [False] * len(lines)
    units: list[tuple[int, int, Unit]] = []  # (start, order, unit): rows in line order
    for order, (start, end, qualified, outermost) in enumerate(definitions):
        end = min(end, len(lines))
        if outermost:
            for n in range(start - 1, end):
                covered[n] = True
        context = symbol_context(relative, qualified)
        units.append(
            (start, order, Unit(relative, start, end, text_of(lines, start, end), context))
        )
    keep = [not c for c in covered]
    context = symbol_context(relative, ())
    for start, end in paragraph_spans(lines, keep):
        units.append((start, -1, Unit(relative, start, end, text_of(lines, start, end), context)))
    units.sort(key=lambda row: (row[0], row[1]))
    return [unit for _, _, unit in units]


def paragraph_units(relative: str, lines: Sequence[str]) -> list[Unit]:
    return [
        Unit(relative, s, e, text_of(lines, s, e), path_words(relative))
        for s, e in paragraph_spans(lines)
    ]


# -- the FTS5 index ------------------------------------------------------------------------


def match_terms(query: str) -> str | None:
    """OR of double-quoted terms (credo's ``query_terms``), or None when there are none."""
    terms = query_terms(query)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) if terms else None


class FtsIndex:
    """One in-memory FTS5 table (porter unicode61); rowid i+1 is unit i.

    ``columns`` is ``text`` (the unit alone), ``joined`` (context + " " + text in one
    column) or ``split`` (columns text and context, bm25 weights 1.0 and 0.5)."""

    def __init__(self, units: Iterable[Unit], columns: str) -> None:
        self.units = list(units)
        self.columns = columns
        self.conn = sqlite3.connect(":memory:")
        if columns == "split":
            self.conn.execute(
                "CREATE VIRTUAL TABLE rows USING fts5(text, context, tokenize='porter unicode61')"
            )
            data: Iterable[tuple[object, ...]] = (
                (i, u.text, u.context) for i, u in enumerate(self.units, 1)
            )
            self.conn.executemany("INSERT INTO rows(rowid, text, context) VALUES (?, ?, ?)", data)
            self.order = "bm25(rows, 1.0, 0.5)"
        else:
            self.conn.execute(
                "CREATE VIRTUAL TABLE rows USING fts5(text, tokenize='porter unicode61')"
            )
            joined = columns == "joined"
            data = (
                (i, f"{u.context} {u.text}" if joined else u.text)
                for i, u in enumerate(self.units, 1)
            )
            self.conn.executemany("INSERT INTO rows(rowid, text) VALUES (?, ?)", data)
            self.order = "bm25(rows)"
        self.conn.commit()

    def search(self, query: str, limit: int) -> list[Unit]:
        expression = match_terms(query)
        if expression is None:
            return []
        rows = self.conn.execute(
            f"SELECT rowid FROM rows WHERE rows MATCH ? ORDER BY {self.order}, rowid LIMIT ?",
            (expression, limit),
        )
        return [self.units[r[0] - 1] for r in rows]

    def close(self) -> None:
        self.conn.close()


DOC_LAYOUTS = ("fts5-para", "fts5-trail", "fts5-trail2")
CODE_LAYOUTS = ("fts5-para", "fts5-func", "fts5-func-sym", "fts5-func-sym2")


def layouts(
    kind: str, texts: dict[str, list[str]], problems: list[str]
) -> dict[str, tuple[list[Unit], str]]:
    """Each baseline of a corpus of this kind ("docs" or "code"): its rows and columns
    (``FtsIndex`` layout), over the corpus files' lines keyed by relative path."""
    para = [u for rel, lines in texts.items() for u in paragraph_units(rel, lines)]
    if kind == "code":
        func = [u for rel, lines in texts.items() for u in function_units(rel, lines, problems)]
        units = (para, func, func, func)
        columns = ("text", "text", "joined", "split")
        return dict(zip(CODE_LAYOUTS, zip(units, columns, strict=True), strict=True))
    trail = [u for rel, lines in texts.items() for u in trail_units(rel, lines)]
    units = (para, trail, trail)
    columns = ("text", "joined", "split")
    return dict(zip(DOC_LAYOUTS, zip(units, columns, strict=True), strict=True))


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()
