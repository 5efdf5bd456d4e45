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
    # Project files read line by line (credo.knowledge.chunk.config_lines).
    **dict.fromkeys(("ini", "cfg"), "ini"),
    "mk": "make",
    "dockerfile": "dockerfile",  # api.dockerfile
}
# Files named, not extended: matched by their whole name, lower-cased. A real ``.env`` is
# never read: it holds the secrets themselves, and redaction goes by the shapes of secrets
# it knows (``sk-...``, ``PASSWORD=``), not by every name a project gives one
# (``PAYMENTS=...``); its example copies are what a project commits to say which variables
# it needs. LICENSE, COPYING and NOTICE are left out: the same legal text in every project,
# whose words ("use", "software", "file") match questions about anything (with an
# extension too: `_legal_text`).
NAMES: dict[str, str] = {
    **dict.fromkeys(("dockerfile", "containerfile"), "dockerfile"),
    **dict.fromkeys(("makefile", "gnumakefile"), "make"),
    **dict.fromkeys(("justfile", ".justfile"), "just"),
    **dict.fromkeys(
        (".flake8", ".coveragerc", ".editorconfig", ".pylintrc", "pylintrc", ".isort.cfg"), "ini"
    ),
    **dict.fromkeys((".env.example", ".env.sample", ".env.template"), "dotenv"),
    "procfile": "procfile",
    # Go's module and workspace files (go.sum, the checksums, is a lock file: ingest's walk)
    **dict.fromkeys(("go.mod", "go.work"), "gomod"),
    **dict.fromkeys(
        (
            ".nvmrc",
            ".node-version",
            ".python-version",
            ".ruby-version",
            ".tool-versions",
            ".go-version",
            ".java-version",
            ".terraform-version",
            "codeowners",
        ),
        "lines",
    ),
    **dict.fromkeys(
        ("readme", "changelog", "changes", "history", "news", "authors", "contributors"),
        "text",
    ),
}
# Words a file's name means to its ecosystem, which neither its name nor its lines say
# (``.nvmrc`` is nvm's node version): indexed in each passage's context.
NAME_WORDS: dict[str, str] = {
    ".nvmrc": "node version nvm",
    ".node-version": "node version nodenv",
    ".python-version": "python version pyenv",
    ".ruby-version": "ruby version rbenv",
    ".tool-versions": "tool versions asdf",
    ".go-version": "go version goenv",
    ".java-version": "java version jenv",
    ".terraform-version": "terraform version tfenv",
    "codeowners": "code owners review",
    "dockerfile": "docker image container",
    "containerfile": "container image podman docker",
    "makefile": "make target",
    "gnumakefile": "make target",
    "justfile": "just recipe",
    ".justfile": "just recipe",
    ".coveragerc": "coverage",
    ".editorconfig": "editor",
    ".pylintrc": "pylint",
    ".env.example": "environment variables",
    ".env.sample": "environment variables",
    ".env.template": "environment variables",
    "procfile": "process",
    "go.mod": "go module dependency versions",
    "go.work": "go workspace modules",
}
# The languages that are prose (pages, not code): their passages get line statistics, and
# their words are never read as code's abbreviations.
PROSE_LANGUAGES = frozenset({"markdown", "rst", "text"})
CONFIG_LANGUAGES = frozenset(
    {
        "yaml", "toml", "json", "ini", "dockerfile", "make", "just", "dotenv", "procfile",
        "gomod", "lines",
    }
)  # fmt: skip
_TEMPLATED_TEXT = PROSE_LANGUAGES | CONFIG_LANGUAGES


def language_for(path: str) -> str | None:
    """The language of `path` from its extension (case-insensitive), None if unsupported.

    One of "markdown", "rst", "python", "c", "js", "go", "rust", "java", "shell", "text",
    "yaml", "toml", "json", "ini", "dockerfile", "make", "just", "dotenv", "procfile",
    "gomod", "lines" (a file by its name: `NAMES`; ``Dockerfile.dev`` is a Dockerfile). A pip-tools
    input is told by its folder too (``requirements/dev.in``): pass the path, not the name.
    A template of a page or configuration file (``alembic.ini.mako``) is "text".
    """
    parts = re.split(r"[/\\]", path)
    name = parts[-1]
    lower = name.lower()
    named = NAMES.get(lower)
    if named is not None:
        return named
    stem, dot, extension = name.rpartition(".")
    if stem.lower() in ("dockerfile", "containerfile"):
        return "dockerfile"  # Dockerfile.dev, Containerfile.prod
    if not dot or not stem:
        return None  # no extension, or a dot file such as ".bashrc"
    if _legal_text(stem, extension.lower()):
        return None
    if extension.lower() == "in":
        return "text" if _requirements_input(stem, parts[-2] if len(parts) > 1 else "") else None
    if extension.lower() in _TEMPLATE_EXTENSIONS:
        return "text" if language_for(stem) in _TEMPLATED_TEXT else None
    return EXTENSIONS.get(extension.lower())


# Mako and Jinja templates of a page or a configuration file (``alembic.ini.mako``, an
# Ansible role's ``config.yaml.j2``): the commented options and their defaults a user asks
# about (day-probe78: alembic's templates document every alembic.ini key), read as text,
# whose reader takes ``${name}`` and ``{% if %}`` lines as words. A template of code or of
# HTML (``script.py.mako``, ``base.html.j2``) is left out: its reader would choke on them.
_TEMPLATE_EXTENSIONS = frozenset(("mako", "j2", "jinja", "jinja2"))


def _requirements_input(stem: str, folder: str) -> bool:
    """pip-tools' inputs (``requirements.in``, ``dev-requirements.in``, ``requirements/
    docs.in``): the dependencies a person writes, read as text as the ``requirements*.txt``
    pip-compile makes of them are (day-probe77: flask's requirements/*.in were left out,
    their compiled copies read). Other ``.in`` files are templates (``Makefile.in``,
    ``config.h.in``) or setuptools' ``MANIFEST.in``: left out. ``folder``: the file's own."""
    return "requirements" in stem.lower() or folder.lower() == "requirements"


# LICENSE, COPYING and NOTICE with an extension (LICENSE.txt, LICENSE.md, LICENSE-MIT.txt)
# are the same legal text as without one (`NAMES` leaves those out). A lower-case page of a
# docs site (docs/license.rst: "BSD-3-Clause License" and an include) is the project's own
# page and is read; a .txt is never such a page.
# (Compiled on first use, by `re`'s cache: the extension test turns most files away first.)
_LEGAL_STEM = r"(?:licen[cs]e|copying|notice)(?:[-_.][\w.-]*)?"
# webpack's extracted licence comments beside a bundle: main.js.LICENSE.txt (Terser's
# extractComments), the "/*! Bootstrap v5 | MIT License */" banners of everything bundled.
_BUNDLE_LEGAL_STEM = r"[\w.-]+\.[mc]?js\.licen[cs]e"


def _legal_text(stem: str, extension: str) -> bool:
    if extension not in _PROSE_EXTENSIONS:
        return False
    if not re.fullmatch(_LEGAL_STEM, stem, re.I):
        return extension == "txt" and re.fullmatch(_BUNDLE_LEGAL_STEM, stem, re.I) is not None
    return extension in ("txt", "text") or stem != stem.lower()


_PROSE_EXTENSIONS = frozenset(("txt", "text", "md", "markdown", "rst", "rest"))


def name_words(path: str) -> str:
    """What the file at `path` is to its ecosystem, by its name (`NAME_WORDS`), or ""."""
    name = re.split(r"[/\\]", path)[-1].lower()
    words = NAME_WORDS.get(name)
    if words is None and name.partition(".")[0] in ("dockerfile", "containerfile"):
        words = NAME_WORDS[name.partition(".")[0]]
    return words or ""


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

        return split_markdown(text, mdx=path.lower().endswith(".mdx"))
    if language == "rst":
        from credo.knowledge.chunk.rst import split_rst

        return split_rst(text)
    if language == "text":
        return split_text(text)
    if language in CONFIG_LANGUAGES:
        from credo.knowledge.chunk.config import split_config

        return split_config(text, language, name_words(path))
    from credo.knowledge.chunk.code import split_code

    return split_code(text, language)
