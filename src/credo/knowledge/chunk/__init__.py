"""Pure splitting of files into belief-sized chunks, each with its exact line range.

No database and no file walking: text in, `Chunk` list out, deterministic, and no
splitter raises on any input text. `credo ingest` turns each chunk into one belief
anchored to its file and lines.

- `split_markdown`: section-aware Markdown (headings, paragraphs, list items, tables).
- `split_rst`: section-aware reStructuredText through docutils (Sphinx markup included).
- `split_code`: definitions (signature, doc, body names), docstrings and comments of
  Python (`ast`) and C/C++/C#, JS/TS, Go, Rust, Java and shell sources (tree-sitter).
- `split_text`: plain text by paragraph.
- `split_config`: YAML, TOML and JSON (with comments) by their keys (tree-sitter): a
  chunk per key block, its key path as the section; INI files, Dockerfiles, Makefiles,
  Justfiles, dotenv examples, Procfiles and version pins by their line structure
  (`config_lines`).
- `split_file`: picks one of the above by extension or file name (`language_for`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from credo.knowledge.chunk.language import EXTENSIONS, language_for, split_file
from credo.knowledge.chunk.model import (
    MAX_PARAGRAPH_CHARS,
    MIN_MEANINGFUL_CHARS,
    MIN_SENTENCE_CHARS,
    ROLES,
    Chunk,
    source_lines,
)
from credo.knowledge.chunk.text import split_text

if TYPE_CHECKING:
    from credo.knowledge.chunk.code import split_code
    from credo.knowledge.chunk.config import split_config
    from credo.knowledge.chunk.markdown import split_markdown
    from credo.knowledge.chunk.rst import split_rst

__all__ = [
    "EXTENSIONS",
    "MAX_PARAGRAPH_CHARS",
    "MIN_MEANINGFUL_CHARS",
    "MIN_SENTENCE_CHARS",
    "ROLES",
    "Chunk",
    "language_for",
    "source_lines",
    "split_code",
    "split_config",
    "split_file",
    "split_markdown",
    "split_rst",
    "split_text",
]


def __getattr__(name: str) -> Any:
    # The splitters are imported on first use (`split_file` does the same): an ingest
    # loads only those its files need.
    if name == "split_code":
        from credo.knowledge.chunk.code import split_code

        return split_code
    if name == "split_config":
        from credo.knowledge.chunk.config import split_config

        return split_config
    if name == "split_markdown":
        from credo.knowledge.chunk.markdown import split_markdown

        return split_markdown
    if name == "split_rst":
        from credo.knowledge.chunk.rst import split_rst

        return split_rst
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
