"""A document's code example read as words: the names it uses and the prose written in it.

A reader takes two things from an example in a page: the names to type, and the comments
that say what each part does (``# Key is the short name.``). A question in the reader's
own words ("how do I supply my own index of names?") should match those comments as it
matches the page's paragraphs, so a comment is prose: every word of it, as often as it is
written. A docstring (a triple-quoted string that starts its line: a string statement) is
prose the same way. Other strings are not: in an example they are data (keys, sample
values, file names), and their words stay among the names, each once.

Examples are read without trusting their language: a fence's info string is often missing
or wrong, and one page mixes Python, shell, YAML and JavaScript. So the comment forms
are those that read the same in every common language, each needing the mark to stand
apart (after a space or at a line's start, before a space or the line's end), which keeps
``#include``, ``#fff``, ``#!/bin/sh`` and ``http://`` out:

- ``#`` (Python, shell, YAML, TOML, Ruby; a Markdown example's heading is prose too);
- ``//`` and ``/* ... */`` (C, JavaScript, Go, Rust, Java, CSS);
- ``<!-- ... -->`` (HTML, XML, Markdown);
- ``--`` opening a line (SQL, Lua, Haskell).

A comment mark inside a one-line string is not a comment (strings are matched first where
they start first). Every block form also ends at the text's end when its closing mark is
missing, so one scan is linear on any input.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Names of three characters or more; what a code example offers to type.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
# One scan: the prose group matches a comment or a docstring; a one-line string matches
# no group, so a comment mark inside it is skipped with it.
_PROSE = re.compile(
    r"""(?P<prose>
        ^[ \t]*[rRuU]?(?:\"\"\"[\s\S]*?(?:\"\"\"|\Z)|'''[\s\S]*?(?:'''|\Z))
      | (?<!\S)\#+(?=[ \t]|$)[^\n]*
      | (?<!\S)//[^\n]*
      | (?<!\S)/\*[\s\S]*?(?:\*/|\Z)
      | <!--[\s\S]*?(?:-->|\Z)
      | ^[ \t]*--(?=[ \t]|$)[^\n]*
    )
    | "(?:[^"\\\n]|\\.)*"?
    | '(?:[^'\\\n]|\\.)*'?
    """,
    re.MULTILINE | re.VERBOSE,
)


class ExampleWords(NamedTuple):
    """A code example's words: `names` outside its comments and docstrings, each once in
    first-seen order; `prose`, its comments' and docstrings' text, whitespace-normalised."""

    names: list[str]
    prose: str


def example_words(code: str) -> ExampleWords:
    """The names and the prose of the code example `code` (see the module docstring)."""
    code_parts: list[str] = []
    prose_parts: list[str] = []
    start = 0
    for match in _PROSE.finditer(code):
        prose = match.group("prose")
        if prose is None:
            continue  # a one-line string: code, read for names
        code_parts.append(code[start : match.start()])
        prose_parts.append(prose)
        start = match.end()
    code_parts.append(code[start:])
    names = list(dict.fromkeys(_NAME.findall(" ".join(code_parts))))
    return ExampleWords(names, " ".join(" ".join(prose_parts).split()))
