"""Which splitter reads which file: the extension table and `split_file`."""

from __future__ import annotations

import re

from credo.errors import InvalidInputError
from credo.knowledge.chunk.model import Chunk
from credo.knowledge.chunk.text import split_text

# Extension (lower case, no dot) -> language. Kotlin, Scala and Swift share Java's comment
# and string rules (// and /* */, triple-quoted text blocks); C# and C++ share C's.
EXTENSIONS: dict[str, str] = {
    **dict.fromkeys(("md", "markdown", "mdown", "mkd", "mkdn", "mdx"), "markdown"),
    **dict.fromkeys(("py", "pyi", "pyw"), "python"),
    **dict.fromkeys(("c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "cs"), "c"),
    **dict.fromkeys(("js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"), "js"),
    "go": "go",
    "rs": "rust",
    **dict.fromkeys(("java", "kt", "kts", "scala", "swift", "groovy"), "java"),
    **dict.fromkeys(("sh", "bash", "zsh", "ksh"), "shell"),
    **dict.fromkeys(("rst", "rest"), "rst"),
    **dict.fromkeys(("txt", "text"), "text"),
    # Configuration (credo.knowledge.chunk.config). JSON with comments (tsconfig.json,
    # .jsonc) is JSON to its grammar; JSON5's bare keys are not, and are left out.
    **dict.fromkeys(("yaml", "yml"), "yaml"),
    "toml": "toml",
    **dict.fromkeys(("json", "jsonc"), "json"),
}
# The languages that are prose (pages, not code): their passages get line statistics, and
# their words are never read as code's abbreviations.
PROSE_LANGUAGES = frozenset({"markdown", "rst", "text"})
CONFIG_LANGUAGES = frozenset({"yaml", "toml", "json"})


def language_for(path: str) -> str | None:
    """The language of `path` from its extension (case-insensitive), None if unsupported.

    One of "markdown", "rst", "python", "c", "js", "go", "rust", "java", "shell", "text",
    "yaml", "toml", "json".
    """
    name = re.split(r"[/\\]", path)[-1]
    _, dot, extension = name.rpartition(".")
    if not dot or not _:
        return None  # no extension, or a dot file such as ".bashrc"
    return EXTENSIONS.get(extension.lower())


def split_file(path: str, text: str) -> list[Chunk]:
    """Chunks of a file's `text`, with the splitter `language_for(path)` picks.

    Raises:
        InvalidInputError: `path` has an extension credo does not read.
    """
    language = language_for(path)
    if language is None:
        known = ", ".join(f".{ext}" for ext in sorted(EXTENSIONS))
        raise InvalidInputError(f"cannot split {path!r}: unsupported file type; supported: {known}")
    # Each splitter is imported at the first file it reads: a Markdown tree never loads
    # the rst walker (~1% of ingesting black's docs), an rst tree never loads the Markdown
    # reader, and a documentation tree never loads the code splitters (ast, tree-sitter,
    # their tables: ~2% of a small tree's ingest).
    if language == "markdown":
        from credo.knowledge.chunk.markdown import split_markdown

        return split_markdown(text)
    if language == "rst":
        from credo.knowledge.chunk.rst import split_rst

        return split_rst(text)
    if language == "text":
        return split_text(text)
    if language in CONFIG_LANGUAGES:
        from credo.knowledge.chunk.config import split_config

        return split_config(text, language)
    from credo.knowledge.chunk.code import split_code

    return split_code(text, language)
