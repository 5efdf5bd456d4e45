"""split_code, language_for and split_file: rule tables, properties, real source files."""

from __future__ import annotations

import sysconfig
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.errors import InvalidInputError
from credo.knowledge.chunk import language_for, split_code, split_file
from tests.test_chunk_markdown import brief, check_chunks, real_files

PYTHON = textwrap.dedent(
    '''\
    #!/usr/bin/env python3
    # -*- coding: utf-8 -*-
    """Load and check settings.

    Reads https://example.com/spec first.
    """
    import os  # noqa: F401

    # Why a cache: parsing is slow
    # on large trees.
    #
    # Second paragraph of the block.
    CACHE = {}  # type: dict[str, int]
    URL = "http://x # not a comment"
    BLOCK = """
    # not a comment either
    """


    class Config:
        """Settings holder."""

        def parse(self, path):  # trailing note
            """Read the settings file.

            >>> Config().parse("a")
            {}

            Args:
                path: Where the file lives.
            """
            # inside parse
            return {}
    '''
)


def test_python_rules() -> None:
    chunks = split_code(PYTHON, "python")
    assert brief(chunks) == [
        ("Load and check settings.", 3, 3, "docstring"),
        ("Reads https://example.com/spec first.", 5, 5, "docstring"),
        ("Why a cache: parsing is slow on large trees.", 9, 10, "code_comment"),
        ("Second paragraph of the block.", 12, 12, "code_comment"),
        ("Config: Settings holder.", 21, 21, "docstring"),
        ("trailing note", 23, 23, "code_comment"),
        ("Config.parse: Read the settings file.", 24, 24, "docstring"),
        ("Config.parse: Args: path: Where the file lives.", 29, 30, "docstring"),
        ("inside parse", 32, 32, "code_comment"),
    ]
    assert chunks[1].links == ("https://example.com/spec",)
    assert chunks[6].section == ("Config", "parse")
    assert chunks[8].section == ("Config", "parse")
    assert chunks[2].section == ()
    check_chunks(chunks, PYTHON)


def test_python_syntax_error_falls_back_to_comments() -> None:
    source = 'def broken(:\n    """Doc never parsed."""\n    # still found comment\n'
    assert brief(split_code(source, "python")) == [("still found comment", 3, 3, "code_comment")]


def test_python_nested_functions_and_async() -> None:
    source = textwrap.dedent(
        '''\
        async def outer():
            """Outer doc here."""
            def inner():
                """Inner doc here."""
        '''
    )
    texts = [c.text for c in split_code(source, "python")]
    assert texts == ["outer: Outer doc here.", "outer.inner: Inner doc here."]


def test_python_docstring_with_escaped_newlines_gets_whole_range() -> None:
    source = 'def f():\n    "First part.\\n\\nSecond part."\n'
    chunks = split_code(source, "python")
    assert [(c.text, c.start_line, c.end_line) for c in chunks] == [
        ("f: First part.", 2, 2),
        ("f: Second part.", 2, 2),
    ]


def test_long_docstring_is_split_into_sentences() -> None:
    body = " ".join(f"Sentence {n} explains one more detail here." for n in range(30))
    source = f'def f():\n    """{body}"""\n'
    chunks = split_code(source, "python")
    assert len(chunks) == 30
    assert all(c.role == "docstring" and c.text.startswith("f: Sentence") for c in chunks)


C_FAMILY_CASES = [
    pytest.param(
        "js",
        "/**\n * Adds numbers.\n * @param a first\n *\n * Second para.\n */\nfunction add() {}",
        [
            ("Adds numbers. @param a first", 2, 3, "code_comment"),
            ("Second para.", 5, 5, "code_comment"),
        ],
        id="jsdoc",
    ),
    pytest.param(
        "js",
        'const u = "http://x//y"; // real one\nlet t = `multi\n// not a comment`;',
        [("real one", 1, 1, "code_comment")],
        id="js-strings",
    ),
    pytest.param(
        "js",
        "// eslint-disable-next-line no-console\n// @ts-ignore\n// kept comment",
        [("kept comment", 3, 3, "code_comment")],
        id="js-pragmas",
    ),
    pytest.param(
        "c",
        "int x = 1; /* inline block */\nchar c = '\"'; // after char literal",
        [("inline block", 1, 1, "code_comment"), ("after char literal", 2, 2, "code_comment")],
        id="c-char-literal",
    ),
    pytest.param(
        "c",
        "// first line\n// second line\n\n// new group",
        [("first line second line", 1, 2, "code_comment"), ("new group", 4, 4, "code_comment")],
        id="c-groups",
    ),
    pytest.param(
        "c",
        "#include <stdio.h>\n/* one\n   two */",
        [("one two", 2, 3, "code_comment")],
        id="c-hash-is-not-comment",
    ),
    pytest.param(
        "go",
        "//go:build linux\n// Package x does things.\nvar s = `raw\n// no`",
        [("Package x does things.", 2, 2, "code_comment")],
        id="go",
    ),
    pytest.param(
        "rust",
        "/// Doc for foo.\n//! Crate doc.\nfn f<'a>(x: &'a str) {} // lifetime ok",
        [
            ("Doc for foo. Crate doc.", 1, 2, "code_comment"),
            ("lifetime ok", 3, 3, "code_comment"),
        ],
        id="rust",
    ),
    pytest.param(
        "java",
        'String s = """\n// text block\n""";\n// real',
        [("real", 4, 4, "code_comment")],
        id="java-text-block",
    ),
    pytest.param(
        "shell",
        "#!/bin/sh\necho $# ${#x} 'a # b' # yes here\n# next line",
        [("yes here", 2, 2, "code_comment"), ("next line", 3, 3, "code_comment")],
        id="shell",
    ),
    pytest.param(
        "shell",
        "# shellcheck disable=SC2034\n# ------\n# Section\n# ------",
        [("Section", 3, 3, "code_comment")],
        id="shell-separators",
    ),
]


@pytest.mark.parametrize(("language", "source", "expected"), C_FAMILY_CASES)
def test_comment_rules(language: str, source: str, expected: list[object]) -> None:
    chunks = split_code(source, language)
    assert brief(chunks) == expected
    check_chunks(chunks, source)


def test_unknown_language_raises() -> None:
    with pytest.raises(InvalidInputError, match="cobol"):
        split_code("x", "cobol")


def test_language_aliases() -> None:
    assert split_code("// hi there", "TypeScript") == split_code("// hi there", "js")


LANGUAGE_CASES = [
    ("README.md", "markdown"),
    ("docs/Guide.MARKDOWN", "markdown"),
    ("src/credo/chunk/code.py", "python"),
    ("stubs/x.pyi", "python"),
    ("a/b.c", "c"),
    ("a\\b\\lib.hpp", "c"),
    ("app.tsx", "js"),
    ("index.mjs", "js"),
    ("main.go", "go"),
    ("lib.rs", "rust"),
    ("Main.java", "java"),
    ("build.kts", "java"),
    ("install.sh", "shell"),
    ("notes.txt", "text"),
    ("index.rst", "text"),
    ("Makefile", None),
    (".bashrc", None),
    ("image.png", None),
    ("archive.tar.gz", None),
    ("", None),
]


@pytest.mark.parametrize(("path", "language"), LANGUAGE_CASES)
def test_language_for(path: str, language: str | None) -> None:
    assert language_for(path) == language


def test_split_file_dispatches() -> None:
    assert split_file("a.md", "# Heading")[0].role == "heading"
    assert split_file("a.py", "# a comment")[0].role == "code_comment"
    assert split_file("a.txt", "plain words")[0].role == "text"


def test_split_file_rejects_unsupported_path() -> None:
    with pytest.raises(InvalidInputError, match=r"picture\.png"):
        split_file("picture.png", "x")


_LANGUAGES = ("python", "c", "js", "go", "rust", "java", "shell")
_CODE_ALPHABET = "#/*'\"`\\!\n \tabcXYZ19:;=(){}<>-r"


@given(st.text(), st.sampled_from(_LANGUAGES))
def test_arbitrary_text_never_raises(text: str, language: str) -> None:
    chunks = split_code(text, language)
    check_chunks(chunks, text)
    assert split_code(text, language) == chunks


@given(st.text(alphabet=_CODE_ALPHABET, max_size=300), st.sampled_from(_LANGUAGES))
@settings(max_examples=300)
def test_comment_soup_properties(text: str, language: str) -> None:
    chunks = split_code(text, language)
    check_chunks(chunks, text)


_IDENTIFIERS = st.sampled_from(["load", "Config", "parse_path", "run", "Helper"])
_PROSE = st.lists(st.sampled_from(["Reads", "the", "file", "e.g.", "Fast.", "x1"]), min_size=1)


@st.composite
def _python_module(draw: st.DrawFn) -> str:
    lines: list[str] = []
    indent = ""
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["def", "class", "doc", "comment", "code", "dedent", "blank"]))
        prose = " ".join(draw(_PROSE))
        if kind in ("def", "class"):
            keyword = "def" if kind == "def" else "class"
            suffix = "():" if kind == "def" else ":"
            lines.append(f"{indent}{keyword} {draw(_IDENTIFIERS)}{suffix}")
            indent += "    "
            lines.append(f'{indent}"""{prose}\n\n{indent}{prose}"""')
        elif kind == "doc":
            lines.append(f'{indent}"""{prose}"""')
        elif kind == "comment":
            lines.append(f"{indent}# {prose}")
        elif kind == "code":
            lines.append(f"{indent}x = '{prose} # in string'  # {prose}")
        elif kind == "dedent":
            indent = indent[:-4]
        else:
            lines.append("")
    return "\n".join(lines) + "\n"


@given(_python_module())
def test_generated_python_properties(source: str) -> None:
    chunks = split_code(source, "python")
    check_chunks(chunks, source)
    assert all(c.role in ("docstring", "code_comment") for c in chunks)
    assert not any("in string" in c.text for c in chunks)


def _stdlib_sample() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(root.glob("*.py"))[::8]


@pytest.mark.parametrize("path", _stdlib_sample(), ids=lambda p: p.name)
def test_real_python_files(path: Path) -> None:
    source = path.read_text(encoding="utf-8", errors="replace")
    chunks = split_code(source, "python")
    check_chunks(chunks, source)


_JS_FILES = real_files((".js", ".ts", ".go", ".rs", ".java", ".c", ".h", ".sh"), limit=80)


@pytest.mark.skipif(not _JS_FILES, reason="no C-family sources on this machine")
def test_real_c_family_files() -> None:
    for path in _JS_FILES:
        language = language_for(str(path))
        assert language is not None
        source = path.read_text(encoding="utf-8", errors="replace")
        check_chunks(split_code(source, language), source)
