"""A body's names that are keywords only in another language family (code68): C's and
Java's ``long``, ``short`` and C++'s ``namespace`` are names in a Python or JavaScript
body (commander's ``option.long`` / ``option.short``), and stay keywords in C-family code."""

from __future__ import annotations

import textwrap

import pytest

from credo.knowledge.chunk import split_code
from credo.knowledge.chunk.code_names import C_FAMILY_WORDS, KEYWORDS, LEXER_KEYWORDS

PYTHON = textwrap.dedent(
    """\
    def register(option, seen):
        if option.long in seen or option.short in seen:
            raise ValueError(option.namespace)
    """
)
JS = textwrap.dedent(
    """\
    function registerOption(option, seen) {
      if (seen.has(option.long) || seen.has(option.short)) {
        throw new Error(option.namespace);
      }
    }
    """
)
JAVA = textwrap.dedent(
    """\
    class Sizes {
      long total(short count, long size) {
        long sum = count * size;
        return sum;
      }
    }
    """
)


def _context(text: str, language: str, name: str) -> list[str]:
    [chunk] = [
        c
        for c in split_code(text, language)
        if c.section and c.section[-1] == name and c.role == "definition"
    ]
    return chunk.context.split()


@pytest.mark.parametrize(
    ("text", "language", "name"), [(PYTHON, "python", "register"), (JS, "js", "registerOption")]
)
def test_c_family_words_are_names_in_python_and_javascript_bodies(
    text: str, language: str, name: str
) -> None:
    words = _context(text, language, name)
    assert {"long", "short", "namespace", "option", "seen"} <= set(words), words
    # the language's own keywords stay out
    assert not {"raise", "throw", "new", "if"} & set(words), words


def test_c_family_words_stay_keywords_in_c_family_code() -> None:
    words = _context(JAVA, "java", "total")
    assert "long" not in words and "short" not in words, words
    assert {"sum", "count", "size"} <= set(words), words


def test_lexer_keywords() -> None:
    assert LEXER_KEYWORDS["c"] == KEYWORDS == LEXER_KEYWORDS["shell"]
    assert LEXER_KEYWORDS["python"] < KEYWORDS and LEXER_KEYWORDS["js"] < KEYWORDS
    assert {"long", "short", "namespace"} <= C_FAMILY_WORDS
    # a language's own primitive types stay keywords
    assert {"int", "float", "bool"} <= LEXER_KEYWORDS["python"]
    assert "boolean" in LEXER_KEYWORDS["js"]
