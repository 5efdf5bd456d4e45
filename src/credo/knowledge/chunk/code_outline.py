"""What a code reader returns: the file's outline, before it becomes chunks.

A reader (`code_python` over Python's `ast`, `code_treesitter` over a tree-sitter grammar)
finds the definitions, the module docstring or file header comment, and the comments left
over; `code.split_code` turns that outline into chunks. The helpers here are the rules the
readers share: how a signature and a name are tidied, what a licence or commented-out
code looks like.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from credo.knowledge.chunk.code_fallback import Fragment
from credo.knowledge.chunk.sentence import Line

if TYPE_CHECKING:
    from credo.knowledge.chunk.code_config import ConfigValue

# A signature longer than this (a generated or minified one) is cut at a word boundary.
MAX_SIGNATURE_CHARS = 300
# A name (one element of a section trail) longer than this is cut.
MAX_NAME_CHARS = 80
# A Rust reference type's borrow: "&", a lifetime, "mut" (`name`).
_REFERENCE = re.compile(r"^&\s*(?:'\w+\s*)?(?:mut\s+)?")

# Decorators, annotations and attributes written before a signature: not its words.
# An annotation ends at a space or the next annotation: "[Symbol.iterator]()" is a name.
_LEADING_ANNOTATIONS = re.compile(r"^(?:(?:@[\w.]+(?:\([^()]*\))?|\[[^\[\]]*\])(?:\s+|(?=[@\[])))+")
_OPEN_SPACE = re.compile(r"([(\[])\s+")
_SPACE_CLOSE = re.compile(r"\s+([)\]])")
# What a header cut at the cap keeps of its end: the return annotation after the parameters
# (``) -> TranscriptionDiarized``), which tells overloads apart (their long parameter lists
# differ past the cut: one text, one belief, the later overloads in none).
_RETURNS = re.compile(r"\) -> [^()]{1,80}$")
_DANGLING_COMMA = re.compile(r",\s*([)\]])")

_LICENSE = re.compile(
    r"copyright\b|\(c\)\s*\d{4}|©|licen[cs]ed\b|\blicen[cs]e\b|permission is hereby granted"
    r"|all rights reserved|without warranty",
    re.I,
)
# A comment line that is code, not prose: a statement or a call, as an editor comments
# out a line ("# x = compute(y)", "// return cache.get(key);", "#include <x.h>").
CODE_LINE = re.compile(
    r"""^(?:
        .*[;{]
      | [})\]]+[;,)]*
      | [\w.\[\]'"]+\s*(?:[-+*/%|&^]|//|<<|>>)?=\s*\S.*
      | [\w.]+\(.*\)[.,;]?
      | (?:import\s+[\w.]+(?:\s+as\s+\w+)?|from\s+[\w.]+\s+import\s+.+)
      | (?:(?:export|default|async|pub(?:\([\w:]+\))?|static|unsafe)\s+)*
        (?:def|class|function|func|fn)\s+\w+\s*[(<:].*
      | (?:if|elif|while|for|with|except)\b.*:
      | (?:if|while|for|switch)\s*\(.*
      | (?:const|let|var)\s+\w+\s*=.*
      | return\b.*
      | [\w$]+\??:\s*\S.*,
      | \#\s*include\s*[<"].*
    )$""",
    re.X,
)
# Three plain words in a row ("the value is") are prose, whatever else the line holds.
PROSE = re.compile(r"\b[A-Za-z]+ [a-z]+ [a-z]+\b")
# A definition's first line, commented out (``export function preprocess<A, U>(``,
# ``pub fn parse(input: &str) {``): code even where its keywords read as three plain words,
# as long as it ends as a signature does and what follows the name (group 1) is no sentence
# ("function render(view) is called once per frame (see loop)" is prose).
_OPENS_DEFINITION = re.compile(
    r"^(?:(?:export|default|async|pub(?:\([\w:]+\))?|static|unsafe)\s+)*"
    r"(?:def|class|function|func|fn)\s+\w+\s*([(<:].*[({:,)])$"
)
# A block comment written whole inside a line comment (``// /* ... */``).
_DISABLED_BLOCK = re.compile(r"/\*.*\*/")
# Rust as an editor comments it out (nom keeps a module of helpers in one ``/* */`` block,
# probe92): an attribute line, a path call (``String::from_utf8_lossy(&v[..]).into_owned()``)
# and a block's tail value (``true``, ``(off1, off2)``) are code whole; the keywords of a
# binding, a cast or a loop read as three plain words ("let mut v", "start as usize",
# "byte in chunk"), so PROSE reads the line without them (a loop only when it opens a
# block: "for example in this case:" is a sentence).
_RUST_WHOLE = re.compile(
    r"""\#!?\[[A-Za-z_][\w:]*(?:\s*\(.*\))?\]
    | [A-Za-z_]\w*(?:::[A-Za-z_][\w<>]*)+\s*\(.*\)[.,;?]?
    | (?:true|false|\((?:\s*[\w.&*]+\s*,)+\s*[\w.&*]+\s*\))[;,]?""",
    re.X,
)
_RUST_KEYWORDS = re.compile(
    r"\b(?:let|ref)\s+mut\b|&mut\b|\bas\s+(?:[ui](?:8|16|32|64|128|size)|f32|f64|char|bool)\b"
    r"|^for\s+&?\w+\s+in\b(?=.*\{$)"
)


# The three records below are plain classes with slots, not dataclasses: building a
# dataclass costs ~3.5M instructions at import (each method is source text compiled by
# exec), which every ingest of a code tree paid, and `dataclasses` itself another ~29M.


class Definition:
    """One function, class, method or type, as its reader found it.

    Lines are the whole definition: decorators, attributes and a doc comment above it
    included. `doc` is its docstring or doc comment as paragraphs of numbered lines, comment
    markers removed; `doc_first` says the doc is written above the signature (a comment),
    not below it (a docstring), so the chunk text keeps the file's order. `above` is a
    Python definition's comment block directly above it, beside its docstring: it leads
    the chunk text, for the same order. `members` says it declares members (a class,
    struct, interface, trait, namespace...): the definitions nested in it are its members,
    each a unit of its own, where a function's nested functions are part of what it does.
    `written` says its signature holds its body as written (a Python constant's value), so
    its context keeps only the words the text does not give the index already.
    """

    __slots__ = (
        "above",
        "doc",
        "doc_first",
        "end_line",
        "identifiers",
        "members",
        "signature",
        "start_line",
        "strings",
        "trail",
        "written",
    )

    def __init__(
        self,
        trail: tuple[str, ...],
        start_line: int,
        end_line: int,
        signature: str,
        doc: list[list[Line]] | None = None,
    ) -> None:
        self.trail = trail
        self.start_line = start_line
        self.end_line = end_line
        self.signature = signature
        self.doc: list[list[Line]] = [] if doc is None else doc
        self.doc_first = False
        self.above: list[list[Line]] = []
        self.identifiers: list[str] = []
        self.strings: list[str] = []  # its body's short strings
        self.members = False
        self.written = False


class Statement:
    """A piece of module-level code outside every definition (a table, a constant, a
    registration call), as written, comments on its lines left out: its lines and text (rows
    joined by newlines), with the names and short strings it uses."""

    __slots__ = ("end_line", "identifiers", "start_line", "strings", "text")

    def __init__(
        self, start_line: int, end_line: int, text: str, identifiers: list[str], strings: list[str]
    ) -> None:
        self.start_line = start_line
        self.end_line = end_line
        self.text = text
        self.identifiers = identifiers
        self.strings = strings


class Outline:
    """A file as a reader saw it.

    Attributes:
        definitions: In any order; `split_code` sorts.
        header: The module docstring or file header comment, as paragraphs.
        fragments: Comments that are neither a definition's doc nor the header.
        code_start: First line of code; comments above it may be a licence header.
        statements: Module-level code outside every definition, in pieces of at most
            `MAX_PARAGRAPH_CHARS` characters (only the Python reader finds them).
        configs: The configuration objects the module exports (`code_config.ConfigValue`;
            only JavaScript and TypeScript have them), read by key.
    """

    __slots__ = ("code_start", "configs", "definitions", "fragments", "header", "statements")

    def __init__(
        self,
        definitions: list[Definition],
        header: list[list[Line]],
        fragments: list[Fragment],
        code_start: int,
        statements: list[Statement] | None = None,
    ) -> None:
        self.definitions = definitions
        self.header = header
        self.fragments = fragments
        self.code_start = code_start
        self.statements: list[Statement] = [] if statements is None else statements
        self.configs: list[ConfigValue] = []


def signature(raw: str) -> str:
    """A definition's header as written, whitespace-normalised and tidied.

    Leading decorators, annotations and attributes go; so do the spaces a multi-line
    parameter list leaves inside brackets, a trailing comma before the closing one, and
    the ``:`` or ``{`` that opens the body.
    """
    text = " ".join(raw.split())
    text = _LEADING_ANNOTATIONS.sub("", text)
    text = _DANGLING_COMMA.sub(r"\1", _SPACE_CLOSE.sub(r"\1", _OPEN_SPACE.sub(r"\1", text)))
    text = text.rstrip(":{; ").rstrip()
    if len(text) > MAX_SIGNATURE_CHARS:
        cut = text.rfind(" ", 0, MAX_SIGNATURE_CHARS)
        cut = cut if cut > 0 else MAX_SIGNATURE_CHARS
        returns = _RETURNS.search(text, cut)
        text = text[:cut] + " …" + (f" {returns.group()}" if returns else "")
    return text


def is_cut(text: str) -> bool:
    """Whether `signature` cut this header at the cap."""
    return text.endswith(" …") or " … ) -> " in text


def name(raw: str) -> str:
    """One element of a section trail: whitespace and quotes removed, length capped. A Rust
    impl for a reference (``impl<'a> IntoIterator for &'a SetMatches``) is named by the
    type it borrows: its lifetime glued to the type read ``&'aSetMatches``."""
    text = "".join(_REFERENCE.sub("", raw.strip()).split()).strip("'\"`")
    return text[:MAX_NAME_CHARS] or "?"


def is_licence(paragraph: list[Line]) -> bool:
    """True for a licence or copyright notice: not what a reader asks the code about."""
    return any(_LICENSE.search(text) for _, text in paragraph)


def is_commented_out_code(paragraph: list[Line]) -> bool:
    """True when every line of a comment paragraph reads as code, not prose, or is a whole
    block comment (`is_disabled_block`)."""
    return all(
        (CODE_LINE.match(line := text.strip()) and not PROSE.search(_RUST_KEYWORDS.sub(" ", line)))
        or _opens_definition(line)
        or _DISABLED_BLOCK.fullmatch(line)
        or _RUST_WHOLE.fullmatch(line)
        for _, text in paragraph
    )


def _opens_definition(line: str) -> bool:
    """A definition's first line whose keywords may read as words, not a sentence after it."""
    opened = _OPENS_DEFINITION.match(line)
    return opened is not None and not PROSE.search(opened.group(1))


def is_disabled_block(paragraphs: list[list[Line]]) -> bool:
    """True when a line comment holds only whole block comments: ``// /** @deprecated ...
    */`` is a doc comment its author switched off, so it says nothing of the code below
    (read as its doc, zod's `preprocess` would read deprecated, the opposite)."""
    return bool(paragraphs) and all(
        _DISABLED_BLOCK.fullmatch(text.strip()) for paragraph in paragraphs for _, text in paragraph
    )
