"""The chunk: one belief-sized piece of a file, with the exact lines it came from.

Shared by every splitter: the `Chunk` record, the size limits, how lines are counted,
whitespace normalisation, HTML entities and bare-URL detection.
"""

# Evaluated annotations (no `from __future__ import annotations`): typing.NamedTuple
# compiles each string annotation at import, paid by every ingest (credo/types.py).

import re
from typing import NamedTuple

ROLES = (
    "heading",
    "paragraph",
    "bullet",
    "sentence",
    "code_comment",
    "docstring",
    "definition",
    "statement",  # module-level code outside every definition (credo.knowledge.chunk.code)
    "text",
    "code",  # a code block of a document (credo.knowledge.chunk.markdown)
    "passage",  # consecutive chunks of one section joined (credo.knowledge.chunk.passage)
    "config",  # a configuration file's key block (credo.knowledge.chunk.config)
)

# A paragraph (or list item, comment block, docstring paragraph) whose cleaned text is
# longer than this is split into sentences: a belief should state one thing, and ~600
# characters is about four ordinary sentences.
MAX_PARAGRAPH_CHARS = 600

# A sentence shorter than this ("Yes.", "See below.") is glued to its neighbour so it
# does not become a belief that means nothing on its own.
MIN_SENTENCE_CHARS = 20

# A chunk needs at least this many letters or digits; "---", "***" or "1." are markup.
MIN_MEANINGFUL_CHARS = 3

# No leading \b: a literal prefix lets re skip ahead fast, and "xhttp://" never occurs.
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`\x00]+")
_URL_TAIL = ".,;:!?*_~"
# A character reference closed by its ";": HTML reads "&not" and "&copy" without one too,
# but "?a=1&copy=2" and "a &notice" are no entities to a Markdown reader (CommonMark).
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


class Chunk(NamedTuple):
    """One piece of a file that becomes one belief (a NamedTuple, not a dataclass: an
    ingest's fresh process would pay ~4M instructions to build that class, and ~29M to import
    `dataclasses` where no parser needs it).

    Attributes:
        text: The belief text: whitespace-normalised, markup that adds no meaning removed
            (a "code" chunk keeps its lines: `credo.knowledge.chunk.example`).
        start_line: First source line the text came from (1-based).
        end_line: Last source line the text came from (1-based, inclusive).
        role: "heading", "paragraph", "bullet", "sentence", "code_comment", "docstring",
            "definition", "statement" or "text".
        section: Heading path (Markdown) or qualified-name path (code) around the chunk.
        heading_index: Index, in the returned list, of the nearest enclosing heading
            chunk (in code: the docstring that introduces the chunk's scope); None at top
            level and for plain text.
        links: Link and image targets and bare URLs in the chunk, as written, in order,
            each once.
        context: Words that say what the chunk is about without being part of its text
            (in code: the identifiers a definition's body uses), indexed in the context
            field beside the path and the section trail, never shown.
        members: A code definition that declares members (a class, struct, interface...):
            the definitions nested in it are units of their own (``Definition.members``).
        value: A module-level constant's definition (``Definition.written``): its belief
            sits in the value index, not the passage index (store/values.py).

    Lines are counted as Python's universal-newlines mode counts them (``\\n``, ``\\r\\n``
    and ``\\r`` each end a line), so the numbers match a file read with ``open(path)``.
    """

    text: str
    start_line: int
    end_line: int
    role: str
    section: tuple[str, ...] = ()
    heading_index: int | None = None
    links: tuple[str, ...] = ()
    context: str = ""
    members: bool = False
    value: bool = False


def with_heading_index(chunk: Chunk, index: int | None) -> Chunk:
    """`chunk` pointing at the chunk ``index`` (its ``heading_index``): what
    ``chunk._replace`` gives, at under half its cost (a chunker relinks most of its
    chunks). Every field is named: a test checks that none is left out."""
    if chunk.heading_index == index:
        return chunk
    c = chunk
    return Chunk(
        c.text,
        c.start_line,
        c.end_line,
        c.role,
        c.section,
        index,
        c.links,
        c.context,
        c.members,
        c.value,
    )


def source_lines(text: str) -> list[str]:
    """Split `text` into lines the way universal-newlines mode does (see `Chunk`)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def normalise(text: str) -> str:
    """Collapse every run of whitespace (newlines included) to one space and trim."""
    return " ".join(text.split())


def decode_entities(text: str) -> str:
    """`text` with each HTML character reference (``&ensp;``, ``&mdash;``, ``&#39;``) as
    the character a rendered page shows; a name HTML does not know stays as written."""
    if "&" not in text or not _ENTITY.search(text):
        return text
    from html import unescape  # (its table of 2,000 names: only for text that has one)

    return _ENTITY.sub(lambda match: unescape(match.group()), text)


def is_meaningful(text: str, minimum: int = MIN_MEANINGFUL_CHARS) -> bool:
    """True when `text` holds at least `minimum` letters or digits."""
    count = 0
    for char in text:
        if char.isalnum():
            count += 1
            if count >= minimum:
                return True
    return False


def find_urls(text: str) -> list[str]:
    """Bare http(s) URLs in `text`, trailing sentence punctuation trimmed."""
    if "http" not in text:
        return []
    return [match.group().rstrip(_URL_TAIL) for match in _URL.finditer(text)]


def unique(items: list[str]) -> tuple[str, ...]:
    """`items` without repeats, first occurrence kept (deterministic order)."""
    if not items:
        return ()
    return tuple(dict.fromkeys(item for item in items if item))
