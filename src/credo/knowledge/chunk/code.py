"""Split source code by its structure: definitions, docstrings and comments.

A file is read by a well-kept parser: Python by its own `ast` (`code_python`), the other
languages by their tree-sitter grammars (`code_treesitter`). A language whose grammar is
not installed or fails to load, a file that is mostly not the language its extension
says, and a Python file that does not parse when tree-sitter-python is missing are read
by the hand-written comment reader (`code_fallback`): comments only.

Chunks, in document order (by first line; on one line, definitions first, outer before
inner, then the rest in the file's order):

- "definition": one per function, method, class and type (and nested function), per
  module-level constant with a doc comment (`code_values`) and per Python module-level
  constant (`code_python`; its context, as a statement's, only what its text lacks). The
  text is the signature as written, whitespace-normalised, without the body, with the
  doc in the file's order: ``def get_backoff_time(self) -> float: Formula for ...``
  (a docstring follows its signature), ``Build the URL. @param url ... function
  buildURL(url, params, options)`` (a doc comment precedes it; past
  `MAX_PARAGRAPH_CHARS` its tail is dropped, since a separate chunk for it would sit after
  the signature). The lines are the whole definition, decorators and doc comment
  included, so an anchor points at the function; `section` is the qualified trail
  including itself (``("Retry", "get_backoff_time")``); `context` holds the words of the
  identifiers its body uses, then of its short strings, then its salient names once more
  (`code_names`).
- "docstring": the module docstring or file header comment (section ``()``), and a
  docstring's later paragraphs (section = its definition's trail). A paragraph past
  `MAX_PARAGRAPH_CHARS` is split into sentences.
- "code_comment": every other comment, paragraphs as `code_fallback` groups them, with
  the trail of the innermost definition around it. Licence headers and commented-out code
  are skipped.
- "statement" (Python): the module's own code outside every definition, as written: a
  table, a constant, a registration call (``Resolver.add_implicit_resolver('...bool',
  re.compile('yes|Yes|...'))``). Imports, and the statements that hold an import or a
  definition (``try: import ssl``; their definitions are read as definitions), are left
  out; comments on its lines are comment chunks and cut it, so the two keep the file's
  order. Its `context` is the words of the names and short strings it uses that its
  text does not hold already (those inside compound names), so no word counts twice.
  Without it, what a module sets up at import time was in no chunk at all, though
  whole-file and function-level indexes hold it (docs/RETRIEVAL.md § What a document
  contributes).

Doc text is read as its page shows it (`doc_markup`): a Python docstring's reST
directives as their names; the doc comments and comments of the other languages as
Markdown (code spans, links: their text; a link target that is no URL in the context).

`heading_index` gives code the structure headings give Markdown: a definition, comment or
docstring points at the innermost definition around it, else at the module docstring.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from credo.errors import InvalidInputError
from credo.knowledge.chunk.code_fallback import comment_fragments, comment_paragraphs
from credo.knowledge.chunk.code_fields import FIELD_GRAMMARS, field_under
from credo.knowledge.chunk.code_names import context_words
from credo.knowledge.chunk.code_outline import (
    Definition,
    Outline,
    Statement,
    is_commented_out_code,
    is_licence,
)
from credo.knowledge.chunk.code_python import read_python
from credo.knowledge.chunk.doc_markup import (
    clean_markdown,
    clean_rest,
    has_links,
    link_targets,
)
from credo.knowledge.chunk.model import (
    MAX_PARAGRAPH_CHARS,
    Chunk,
    find_urls,
    is_meaningful,
    normalise,
    source_lines,
    unique,
    with_heading_index,
)
from credo.knowledge.chunk.sentence import Cleaner, Line, split_paragraph
from credo.store.stem import STEMS, tokens

if TYPE_CHECKING:
    from credo.knowledge.chunk.code_config import ConfigValue

# Language name -> (the fallback reader's syntax, the grammar: "" for none, None to tell
# from the text, since one extension family covers several grammars).
_LANGUAGES: dict[str, tuple[str, str | None]] = {
    **dict.fromkeys(("python", "py"), ("python", "python")),
    **dict.fromkeys(("shell", "bash", "sh", "zsh", "ksh"), ("shell", "bash")),
    **dict.fromkeys(("js", "javascript", "jsx"), ("js", None)),
    **dict.fromkeys(("typescript", "ts"), ("js", "typescript")),
    "tsx": ("js", "tsx"),
    "c": ("c", None),
    **dict.fromkeys(("cpp", "c++"), ("c", "cpp")),
    **dict.fromkeys(("csharp", "c#", "cs"), ("c", "c_sharp")),
    "go": ("go", "go"),
    **dict.fromkeys(("rust", "rs"), ("rust", "rust")),
    "java": ("java", None),
    **dict.fromkeys(("kotlin", "scala", "swift", "groovy"), ("java", "")),
}
_SNIFF_CHARS = 20_000
# JSX: a closing or self-closing tag. Plain JS and TS read with the TypeScript grammar,
# whose generic arrows (<T>(x) => x) the TSX grammar would take for tags.
_JSX = r"</[A-Za-z]|/>"
_CSHARP = (
    r"^[ \t]*(?:using[ \t]+(?:static[ \t]+)?[A-Z][\w.]*[ \t]*;|namespace[ \t]+\w+(?:\.\w+)+"
    r"|namespace[ \t]+[\w.]+[ \t]*;|\[assembly:"
    r"|(?:(?:public|internal|sealed|abstract|static|partial)[ \t]+)+"
    r"(?:class|interface|struct|enum|record)[ \t]+\w)"
)


@functools.cache
def _doc_markup() -> re.Pattern[str]:
    """Markup of doc comments (C# XML docs, Javadoc and JSDoc HTML): tags, not words.
    Compiled at the first doc comment above a signature (~0.7 ms): Python has none.

    A tag's name ends at a space, ``/`` or ``>``, as HTML and XML write it: so a type's
    parameters (``ContextError<C, E>``, ``Foo<A, B>``) are no tag. Nor is an opening
    "tag" glued to a name and capitalised (``ManuallyDrop<C>``, ``Vec<Item>``,
    ``Option<Value>``): a generic's argument, as every language writes one, which a
    comment names in its own words (day-probe76: anyhow's ``// Safety: ... match
    ErrorImpl<ContextError<C, E>>`` lost its ``<C, E>``). A closing tag is always one."""
    names = (
        r"(?:summary|remarks|returns?|param|paramref|typeparam|typeparamref|see|seealso|c"
        r"|code|para|example|exception|value|inheritdoc|list|item|description|term|p|br|b|i|em"
        r"|strong|ul|ol|li|pre|tt|a|u)(?=[\s/>])"
    )
    closing = rf"</{names}[^<>]*>"
    opening = rf"(?<!\w)<{names}[^<>]*>"
    glued = rf"(?<=\w)<(?-i:(?=[a-z])){names}[^<>]*>"  # "text<b>bold</b>", never "Vec<Item>"
    return re.compile(f"{closing}|{opening}|{glued}", re.I)


# A C# XML doc's reference: the page shows what it names (``<see cref="Normalize"/>``,
# ``<paramref name="count"/>``, ``<see langword="null"/>``), a member's id prefix (``T:``)
# left out. A parameter's or an exception's name leads its description the same way
# (``<param name="count">``, ``<exception cref="ArgumentNullException">``), as JSDoc's
# ``@param count`` keeps its name.
_REFERENCE = re.compile(
    r"<(?:see|seealso|paramref|typeparamref|param|typeparam|exception)"
    r'\s[^<>]*?\b(?:cref|name|langword)\s*=\s*"'
    r'(?:[A-Z]:)?([^"<>]*)"[^<>]*>',
    re.I,
)


def _without_markup(text: str) -> str:
    """`text` with its doc markup out (`_doc_markup`), a reference tag read as the name it
    holds (day-code89: pythonnet's ``see <see cref="Normalize"/>`` read "see ." while its
    page shows "see Normalize")."""
    return _doc_markup().sub(" ", _REFERENCE.sub(r" \1 ", text))


# Kotlin, Scala, Swift and Groovy share Java's extension family but not its grammar.
_NOT_JAVA = (
    r"^[ \t]*(?:[\w@]+[ \t]+)*(?:fun|func|def|object|trait)[ \t]+\w"
    r"|^[ \t]*import[ \t]+(?:Foundation|UIKit|SwiftUI)\b"
)


def split_code(text: str, language: str) -> list[Chunk]:
    """Definition, docstring and comment chunks of source `text`, in document order.

    `language` is one of "python", "c", "js", "go", "rust", "java", "shell", or a more
    precise name ("typescript", "tsx", "cpp", "csharp", "kotlin"...). Never raises on any
    `text`; an unknown language raises `InvalidInputError`.
    """
    key = language.lower()
    if key not in _LANGUAGES:
        known = ", ".join(sorted(_LANGUAGES))
        raise InvalidInputError(f"unsupported language {language!r}; use one of: {known}")
    syntax, grammar = _LANGUAGES[key]
    lines = source_lines(text.replace("\x00", " "))
    if grammar is None:
        grammar = _sniff(syntax, text[:_SNIFF_CHARS])
    outline = read_python(lines) if grammar == "python" else None
    if outline is None and grammar:
        # Imported here: a tree of Python files alone never loads it (~2.5 ms a process).
        from credo.knowledge.chunk.code_treesitter import read_tree

        outline = read_tree(lines, grammar)
    if outline is None:
        fragments = comment_fragments(lines, syntax)
        chunks = _comment_chunks(comment_paragraphs(fragments, lines, rust=syntax == "rust"))
        values: list[Chunk] = []
    else:
        # A module-level constant (``Definition.written``) is read apart: the file's other
        # chunks are made and linked as without it (``_link``), and its own chunk is a
        # passage alone (``Chunk.value``: in the value index, store/values.py).
        kept = [d for d in outline.definitions if not d.written]
        values = [
            _definition_chunks(d, _doc_cleaner(grammar))[0]._replace(value=True)
            for d in outline.definitions
            if d.written
        ]
        outline.definitions = kept
        chunks = _outline_chunks(outline, lines, _doc_cleaner(grammar), grammar)
    chunks += values
    chunks.sort(key=_document_order)
    return _link(chunks)


def _document_order(chunk: Chunk) -> tuple[int, int, int]:
    """By first line; on one line, definitions first (outer before inner), then the rest in
    the order they were made, which is the file's (sentences of one paragraph share lines)."""
    if chunk.role == "definition":
        return (chunk.start_line, 0, -chunk.end_line)
    return (chunk.start_line, 1, 0)


def _sniff(syntax: str, head: str) -> str:
    """The grammar for a file of an extension family that several languages share."""
    if syntax == "js":
        return "tsx" if _sniffer(_JSX).search(head) else "typescript"
    if syntax == "c":
        return "c_sharp" if _sniffer(_CSHARP).search(head) else "cpp"
    return "" if _sniffer(_NOT_JAVA).search(head) else "java"


@functools.cache
def _sniffer(pattern: str) -> re.Pattern[str]:
    """`_sniff`'s patterns, compiled on first use: a tree of Python files needs none."""
    return re.compile(pattern, re.M)


def _doc_cleaner(grammar: str) -> Cleaner:
    """How a docstring or doc comment is read: Python's as reST, the others' as Markdown."""
    return clean_rest if grammar == "python" else clean_markdown


def _outline_chunks(
    outline: Outline, lines: list[str], clean: Cleaner, grammar: str = ""
) -> list[Chunk]:
    chunks = _doc_chunks([p for p in outline.header if not is_licence(p)], (), clean)
    for definition in sorted(outline.definitions, key=lambda d: (d.start_line, -d.end_line)):
        chunks.extend(_definition_chunks(definition, clean))
    scope = _Scopes(outline.definitions, len(lines))
    paragraphs = [
        paragraph
        for paragraph in comment_paragraphs(
            outline.fragments, lines, rust=grammar == "rust", markdown=clean is clean_markdown
        )
        if not (paragraph[-1][0] < outline.code_start and is_licence(paragraph))
        and not is_commented_out_code(paragraph)
    ]
    # (statements before comments: on one line, the code is written before its comment)
    chunks.extend(_statement_chunks(outline.statements))
    # Comments in languages whose doc comments are Markdown are written in it too.
    comments = _comment_chunks(paragraphs, scope, _clean if clean is clean_rest else clean)
    if grammar in FIELD_GRAMMARS:
        comments = _field_comments(comments, scope, lines, grammar)
    chunks.extend(comments)
    if outline.configs:
        chunks.extend(_config_chunks(outline.configs, lines))
    return chunks


def _config_chunks(configs: list[ConfigValue], lines: list[str]) -> list[Chunk]:
    """An exported configuration object's key blocks (`code_config`), cut as a JSON file's
    are (`config.key_chunks`), its code rows (function values) left out of the text."""
    from credo.knowledge.chunk.config import JS_COMMENT_MARKS, is_camel, key_chunks

    chunks: list[Chunk] = []
    for config, (before, after) in zip(configs, _shared_rows(configs), strict=True):
        rows = list(lines)  # (a copy, then its holes blanked: one pass per hole, not per line)
        for row in config.holes:
            if row < len(rows):
                rows[row] = ""
        _own_part(rows, config, before, after)
        blank = range(config.first, min(config.last, len(lines) - 1) + 1)
        paragraphs = frozenset(row for row in blank if not lines[row].strip())
        for chunk in key_chunks(
            rows, config.entries, config.first, config.last, marks=JS_COMMENT_MARKS, held=True,
            paragraphs=paragraphs,
        ):  # fmt: skip
            # (a JSDoc block's `` * `` lines sit a column right of the key they document)
            chunk = chunk._replace(text=chunk.text.strip())
            if config.name:  # a named export's blocks: ``elems › svg › defaults``
                context = chunk.context
                if is_camel(config.name) and config.name not in context.split():
                    context = f"{context} {config.name}".strip()
                chunk = chunk._replace(section=(config.name, *chunk.section), context=context)
            chunks.append(chunk)
    return chunks


def _shared_rows(configs: list[ConfigValue]) -> list[tuple[bool, list[int]]]:
    """For each config: whether another export's text is on its first row before it (one
    that starts earlier and ends on or after that row), and the columns where others start
    later on its last row. One sort and a running maximum: a minified module holds
    thousands of exports, and a scan of all of them for each was quadratic."""
    order = sorted(range(len(configs)), key=lambda i: configs[i].start)
    starts_on: dict[int, list[tuple[int, int]]] = {}
    for config in configs:
        starts_on.setdefault(config.start[0], []).append(config.start)
    shared: list[tuple[bool, list[int]]] = [(False, [])] * len(configs)
    reach = -1  # the furthest last row of the exports that start strictly before
    position = 0
    while position < len(order):
        start = configs[order[position]].start
        group = position
        while group < len(order) and configs[order[group]].start == start:
            group += 1
        for index in order[position:group]:
            config = configs[index]
            after = [s[1] for s in starts_on.get(config.last, ()) if s > start]
            shared[index] = (reach >= start[0], after)
        reach = max(reach, *(configs[i].last for i in order[position:group]))
        position = group
    return shared


def _own_part(rows: list[str], config: ConfigValue, before: bool, after: list[int]) -> None:
    """Exports that share a row (``exports.a={...};exports.b={...}``, a minified module)
    each keep their own part of it: from where `config` starts, when another export's text
    is on that row before it (``before``), to where the next export starts on its last row
    (the least of ``after``). Else their passages would hold the same line, and one belief
    both names."""
    row, column = config.start
    if not (before or after) or config.last >= len(rows):
        return
    if before and rows[row]:
        line = rows[row].encode("utf-8", "replace")  # (tree-sitter's columns are bytes)
        rows[row] = " " * column + line[column:].decode("utf-8", "replace")
    if after and rows[config.last]:
        line = rows[config.last].encode("utf-8", "replace")
        rows[config.last] = line[: min(after)].decode("utf-8", "replace")


def _statement_chunks(statements: list[Statement]) -> list[Chunk]:
    """Module-level code as "statement" chunks: the text as written (whitespace-normalised;
    past `MAX_PARAGRAPH_CHARS`, a single long line is cut), the names and short strings it
    uses as its context, as a definition's body gives its own."""
    chunks: list[Chunk] = []
    for statement in statements:
        text = _capped(normalise(statement.text))
        if not is_meaningful(text):
            continue
        context = _unwritten(context_words(statement.identifiers, statement.strings), text)
        links = unique(find_urls(statement.text))
        start, end = statement.start_line, statement.end_line
        chunks.append(Chunk(text, start, end, "statement", (), None, links, context))
    return chunks


def _unwritten(context: str, text: str) -> str:
    """The words of ``context`` whose stem ``text`` does not hold as the index reads it,
    each once.

    A statement's text is its code, so every name it uses is indexed already; a context
    that wrote them again would count each twice (the two columns weigh the same), which
    a body's names, kept out of its definition's text, never are. What the text does not
    give the index is the words inside compound names (``knownAdapters``: "known",
    "adapters"), the words a context adds to any passage (ingest/context.py)."""
    known = STEMS.__getitem__
    written = frozenset(map(known, tokens(text)))
    return " ".join(word for word in dict.fromkeys(context.split()) if known(word) not in written)


def _definition_chunks(definition: Definition, clean: Cleaner) -> list[Chunk]:
    """The definition chunk, then its doc's later paragraphs as "docstring" chunks."""
    pieces = _doc_chunks(definition.doc, definition.trail, clean)
    signature = definition.signature or definition.trail[-1]
    hidden = ""
    if definition.doc_first:
        # The doc is above the signature: it leads the text, whole up to the paragraph cap,
        # so the text keeps the file's order (anchors are checked word by word, in order).
        doc = _capped(normalise(_without_markup(" ".join(p.text for p in pieces))))
        text = f"{doc} {signature}" if doc else signature
        links = unique([link for piece in pieces for link in piece.links])
        hidden = _kept_targets(pieces)
        pieces = []
    elif pieces:
        text, links = f"{signature}: {pieces[0].text}", pieces[0].links
        hidden = pieces[0].context
        pieces = pieces[1:]
    else:
        text, links = signature, ()
    lead = _doc_chunks(definition.above, definition.trail, _clean)  # (a Python comment above it)
    if lead := [piece for piece in lead if piece.text]:  # it leads: the file's order
        text = f"{_capped(normalise(' '.join(p.text for p in lead)))} {text}"
        links = unique([*(link for piece in lead for link in piece.links), *links])
    context = " ".join(
        filter(None, (context_words(definition.identifiers, definition.strings), hidden))
    )
    if definition.written:  # (its value is its text: a statement's rule)
        context = _unwritten(context, text)
    head = Chunk(
        text,
        definition.start_line,
        definition.end_line,
        "definition",
        definition.trail,
        None,
        links,
        context,
        definition.members,
    )
    return [head, *pieces]


def _kept_targets(pieces: list[Chunk]) -> str:
    """The link targets of the doc pieces that `_capped` keeps whole: a dropped tail's
    words stay out of the row (adding words to a definition's row lost, code69)."""
    kept: list[str] = []
    end = -1
    for piece in pieces:
        end += len(piece.text) + 1
        if end > MAX_PARAGRAPH_CHARS:
            break
        if piece.context:
            kept.append(piece.context)
    return " ".join(kept)


def _capped(text: str) -> str:
    """`text` cut after its last sentence end (else word) within `MAX_PARAGRAPH_CHARS`."""
    if len(text) <= MAX_PARAGRAPH_CHARS:
        return text
    cut = text[:MAX_PARAGRAPH_CHARS]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    if end < MAX_PARAGRAPH_CHARS // 3:
        end = cut.rfind(" ")
    return cut[: end + 1].rstrip() if end > 0 else cut


def _doc_chunks(
    paragraphs: list[list[Line]], trail: tuple[str, ...], clean: Cleaner
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for paragraph in paragraphs:
        pieces = split_paragraph(paragraph, "docstring", clean, trail)
        if clean is clean_markdown and any(has_links(row) for _, row in paragraph):
            pieces = [_with_targets(piece, paragraph) for piece in pieces]
        chunks.extend(pieces)
    return chunks


def _with_targets(piece: Chunk, paragraph: list[Line]) -> Chunk:
    """`piece` with the targets of its lines' Markdown links (no URLs) as its context."""
    raw = "\n".join(
        row for number, row in paragraph if piece.start_line <= number <= piece.end_line
    )
    targets = link_targets(raw)
    return piece._replace(context=" ".join(targets)) if targets else piece


def _comment_chunks(
    paragraphs: list[list[Line]], scope: _Scopes | None = None, clean: Cleaner | None = None
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for paragraph in paragraphs:
        section = scope.around(paragraph[0][0], paragraph[-1][0]) if scope else ()
        pieces = split_paragraph(paragraph, "code_comment", clean or _clean, section)
        if clean is clean_markdown and any(has_links(row) for _, row in paragraph):
            pieces = [_with_targets(piece, paragraph) for piece in pieces]
        chunks.extend(pieces)
    return chunks


def _field_comments(
    comments: list[Chunk], scope: _Scopes, lines: list[str], grammar: str
) -> list[Chunk]:
    """`comments` with each one written above a field of a struct (or interface) taking
    the field's name into its trail and its line into its text (`code_fields`)."""
    named: list[Chunk] = []
    for index, chunk in enumerate(comments):
        holder = scope.holder(chunk.start_line, chunk.end_line)
        field = field_under(grammar, lines, chunk.end_line) if holder and holder.members else None
        if field is None:
            named.append(chunk)
            continue
        name, number = field
        own = chunk._replace(section=(*chunk.section, name))
        last_piece = index + 1 == len(comments) or comments[index + 1].start_line > number
        if last_piece:  # (a long comment's sentences: the field's line ends the last one)
            declaration = normalise(lines[number - 1])
            own = own._replace(text=f"{own.text} {declaration}", end_line=number)
        named.append(own)
    return named


def _clean(raw: str) -> tuple[str, tuple[str, ...]]:
    return normalise(raw), unique(find_urls(raw))


class _Scopes:
    """The innermost definition around each line, and the one each definition lies in: what
    a comment paragraph's trail is read from (``around``)."""

    def __init__(self, definitions: list[Definition], count: int) -> None:
        # Outer definitions first, so inner ones overwrite them line by line.
        self._definitions = sorted(definitions, key=lambda d: (d.start_line, -d.end_line))
        self._outer: list[int] = []  # index of the definition holding each one, or -1
        self._by_line = [-1] * (count + 2)
        open_ones: list[int] = []
        for index, definition in enumerate(self._definitions):
            while open_ones and not _holds(self._definitions[open_ones[-1]], definition):
                open_ones.pop()
            self._outer.append(open_ones[-1] if open_ones else -1)
            open_ones.append(index)
            start, end = definition.start_line, min(definition.end_line, count)
            if end >= start:
                self._by_line[start : end + 1] = [index] * (end + 1 - start)

    def around(self, first: int, last: int) -> tuple[str, ...]:
        """The trail of the innermost definition whose lines hold lines ``first`` to
        ``last`` (a comment may begin inside a definition and run past its end), else ()."""
        holder = self.holder(first, last)
        return holder.trail if holder else ()

    def holder(self, first: int, last: int) -> Definition | None:
        """The innermost definition whose lines hold lines ``first`` to ``last``."""
        index = self._by_line[first]
        while index >= 0 and self._definitions[index].end_line < last:
            index = self._outer[index]
        return self._definitions[index] if index >= 0 else None


def _link(chunks: list[Chunk]) -> list[Chunk]:
    """Point each chunk at the innermost definition whose lines hold it, else at the
    module docstring's first chunk; a docstring's later pieces at its definition or, in
    the header, at its first piece. Ingest turns these into DERIVED_FROM edges."""
    linked: list[Chunk] = []
    open_definitions: list[int] = []  # indices of definitions whose lines are still open
    header: int | None = None
    for index, chunk in enumerate(chunks):
        if chunk.value:  # (a constant's chunk: no link, and no definition holding others)
            linked.append(chunk)
            continue
        while open_definitions and not _holds(chunks[open_definitions[-1]], chunk):
            open_definitions.pop()
        parent = open_definitions[-1] if open_definitions else header
        if chunk.role == "docstring" and not chunk.section and header is None:
            header, parent = index, None
        linked.append(with_heading_index(chunk, parent))
        if chunk.role == "definition":
            open_definitions.append(index)
    return linked


def _holds(outer: Chunk | Definition, inner: Chunk | Definition) -> bool:
    """Whether ``outer``'s lines hold ``inner``'s."""
    return outer.start_line <= inner.start_line and inner.end_line <= outer.end_line
