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

A comment mark inside a string is not a comment. One scan finds each mark (a prefix
search, in C, over the few characters that can open one) and decides in Python whether
it opens prose; a block never closed runs to the text's end, so the scan is linear on
any input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# Names of three characters or more; what a code example offers to type.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
# What may open prose, and strings (one-line ones whole), which hide any mark inside them.
# Every alternative starts with one of a few characters, so `search` skips the rest in C.
_MARK = re.compile(
    r'"""' + r"|'''" + r'|"(?:[^"\\\n]|\\.)*"?' + r"|'(?:[^'\\\n]|\\.)*'?" + r"|#+|//|/\*|<!--|--"
)
# Each mark that can open prose, as plain text: a code example holding none is all names.
_OPENERS = ("#", "//", "/*", "<!--", "--", '"""', "'''")
_CLOSES = {'"""': '"""', "'''": "'''", "/*": "*/", "<!--": "-->"}
_DOCSTRING_PREFIXES = frozenset("rRuU")  # r"""...""", u"""..."""


class ExampleWords(NamedTuple):
    """A code example's words: `names` outside its comments and docstrings, each once in
    first-seen order; `prose`, its comments' and docstrings' text, whitespace-normalised."""

    names: list[str]
    prose: str


def example_words(code: str) -> ExampleWords:
    """The names and the prose of the code example `code` (see the module docstring)."""
    if not any(mark in code for mark in _OPENERS):  # most examples: no scan at all
        return ExampleWords(list(dict.fromkeys(_NAME.findall(code))), "")
    code_parts: list[str] = []
    prose_parts: list[str] = []
    start = 0
    for begin, end in _prose_spans(code):
        code_parts.append(code[start:begin])
        prose_parts.append(code[begin:end])
        start = end
    code_parts.append(code[start:])
    names = list(dict.fromkeys(_NAME.findall(" ".join(code_parts))))
    return ExampleWords(names, " ".join(" ".join(prose_parts).split()))


def _prose_spans(code: str) -> Iterator[tuple[int, int]]:
    """The (start, end) offsets of `code`'s comments and docstrings, in order."""
    position = 0
    while (found := _MARK.search(code, position)) is not None:
        mark, begin, position = found.group(), found.start(), found.end()
        closing = _CLOSES.get(mark)
        if closing is not None:  # a block: a docstring or other triple-quoted string, a comment
            opens = _opens_block(code, begin, mark)
            if not opens and mark == "/*":
                continue  # a glob's "dir/*" is no comment: it hides nothing after it
            close = code.find(closing, position)
            position = len(code) if close < 0 else close + len(closing)
            if opens:
                yield begin, position
        elif mark[0] in "#/-" and _opens_line_comment(code, begin, position, mark):
            close = code.find("\n", position)
            position = len(code) if close < 0 else close
            yield begin, position


def _opens_block(code: str, begin: int, mark: str) -> bool:
    if mark == "<!--":
        return True
    if mark == "/*":
        return begin == 0 or code[begin - 1].isspace()  # not a glob's "dir/*"
    # A triple-quoted string is a docstring when it is a statement: it starts its line.
    if begin > 0 and code[begin - 1] in _DOCSTRING_PREFIXES:
        begin -= 1
    return _starts_line(code, begin)


def _opens_line_comment(code: str, begin: int, end: int, mark: str) -> bool:
    if begin > 0 and not code[begin - 1].isspace():
        return False  # "http://", "a--b", "x#y"
    if mark == "//":
        return True
    if end < len(code) and code[end] not in " \t\n":
        return False  # "#include", "#fff", "#!/bin/sh", "--verbose"
    # "--" comments SQL and Lua where it opens a line; elsewhere it is an option's end.
    return mark != "--" or _starts_line(code, begin)


def _starts_line(code: str, begin: int) -> bool:
    """Only spaces and tabs before `begin` on its line. Each call reads back over the
    blanks just before it alone, so the scan stays linear on a line of many marks."""
    while begin > 0 and code[begin - 1] in " \t":
        begin -= 1
    return begin == 0 or code[begin - 1] == "\n"
