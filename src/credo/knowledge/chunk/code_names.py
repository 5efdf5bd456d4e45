"""The names a definition's body uses, and the words of its short strings: its context.

A parser gives each body's byte or character range; a regex lexer then reads the names in
the parts of the body outside nested definitions (`own_segments`), skipping comments (the
chunker reads them as text), in C. Asking the tree for every identifier node costs several
times more, for the same words.

A body's one-line strings are words a reader may ask with: messages (``"Received response
with both Content-Length and Transfer-Encoding set"``), header names, methods, modes. Their
words follow the names in the context, with a cap of their own; a triple-quoted or long
string (a docstring, a template) is left out.

A word is written once, however often the body uses it, with one exception: a word the
body keeps coming back to, used at least twice and at least `SALIENT_SHARE` of all its
name words' uses, is written a second time at the end. That is what the body works on
(``timeout`` in ``Timeout.read_timeout``, ``decoder`` in ``_init_decoder``), and BM25 can
only tell it from a name used in passing by its count. Every use written out (a function
row's term frequencies) makes a long body's row long and lifts the comments and
docstrings around it: measured worse (docs/BENCHMARKS.md § Ranking, sixth pass).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from credo.store.fts import STOPWORDS
from credo.store.identifier import identifier_parts

# At most this many context words per definition: enough to name what a body works with,
# few enough that a long function does not drown its own signature in the context field.
MAX_CONTEXT_WORDS = 150
# Words of a body's strings, after its names: at most this many, from strings of at most
# `MAX_STRING_CHARS` characters on one line.
MAX_STRING_WORDS = 50
MAX_STRING_CHARS = 200
# A word that is at least this share of a body's name words' uses (and used twice) is
# written twice: what the body works on (see the module docstring).
SALIENT_SHARE = 0.05

# Keywords and primitive types of the languages credo reads: the lexers below see them as
# names, and they say nothing about one body.
KEYWORDS = frozenset(
    """abstract and as assert async auto await bool boolean break byte case catch char class
    const continue def default defer del delete do done double elif else enum esac except
    explicit export extends extern false fi final finally float fn for from func function global
    go goto if impl implements implicit import in inline instanceof int interface internal is
    lambda let long loop match mod mut namespace new nil nonlocal none not null of operator or
    override package partial pass private protected pub public raise readonly ref return sealed
    select self short signed sizeof static struct super switch template then this throw throws
    trait true try type typename typeof undefined unsafe unsigned use using var virtual void
    volatile where while with yield""".split()
)
# C-family type and scope words (C, C++, C#, Java): keywords there, but in a Python or
# JavaScript / TypeScript body a name a reader asks with (commander's ``option.long`` and
# ``option.short``, invoke's ``namespace``), so those lexers read them as names; the
# language's own primitive types among them (Python's ``int``, TypeScript's ``boolean``)
# stay keywords.
C_FAMILY_WORDS = frozenset(
    """auto bool boolean byte char double explicit extern float int long namespace short
    signed sizeof struct template typename unsigned virtual volatile""".split()
)
LEXER_KEYWORDS: dict[str, frozenset[str]] = {
    "python": KEYWORDS - (C_FAMILY_WORDS - {"bool", "float", "int"}),
    "js": KEYWORDS - (C_FAMILY_WORDS - {"boolean"}),
    "c": KEYWORDS,
    "shell": KEYWORDS,
}
"""Per `lexer` key: the words a body's lexer skips as keywords."""

# Each lexer: a comment matches an alternative without a group (findall gives ""), a
# string the first group, a name the second. Every string and comment alternative also
# ends at the text's end when its closing delimiter is missing, so a scan is linear on
# any input.
_C_COMMENTS = r"/\*[\s\S]*?(?:\*/|$)|//[^\n]*"
_C_STRINGS = r'"(?:[^"\\\n]|\\.)*"?' + r"|'(?:[^'\\\n]|\\.){0,8}'" + r"|`[\s\S]*?(?:`|$)"
_JS_STRINGS = r'"(?:[^"\\\n]|\\.)*"?' + r"|'(?:[^'\\\n]|\\.)*'?" + r"|`(?:[^`\\]|\\[\s\S])*`?"
_PYTHON_STRINGS = (
    r"[rRbBuUfF]{0,3}(?:"
    + r'"""[\s\S]*?(?:"""|$)'
    + r"|'''[\s\S]*?(?:'''|$)"
    + r'|"(?:[^"\\\n]|\\.)*"?'
    + r"|'(?:[^'\\\n]|\\.)*'?)"
)
_PYTHON_COMMENTS = r"#[^\n]*"
_SHELL_STRINGS = r"'[^']*'?" + r'|"(?:[^"\\]|\\[\s\S])*"?'
_SHELL_COMMENTS = r"(?<![\w$])#[^\n]*"


def _lexer(comments: str, strings: str, name: str) -> str:
    return f"{comments}|({strings})|({name})"


# The Python reader works on text; the tree-sitter reader on UTF-8 bytes.
PYTHON_NAMES = re.compile(_lexer(_PYTHON_COMMENTS, _PYTHON_STRINGS, r"[^\W\d]\w*"))
_LEXER_SOURCES: dict[str, str] = {
    "c": _lexer(_C_COMMENTS, _C_STRINGS, r"[A-Za-z_]\w*"),
    "js": _lexer(_C_COMMENTS, _JS_STRINGS, r"[A-Za-z_$][\w$]*"),
    "python": _lexer(_PYTHON_COMMENTS, _PYTHON_STRINGS, r"[A-Za-z_]\w*"),
    "shell": _lexer(_SHELL_COMMENTS, _SHELL_STRINGS, r"[A-Za-z_]\w*"),
}
LEXERS = frozenset(_LEXER_SOURCES)
"""The lexers `lexer` knows."""


@functools.cache
def lexer(key: str) -> re.Pattern[bytes]:
    """The compiled lexer ``key`` (one of `LEXERS`), compiled on first use: a process
    reads one or two languages, and each pattern costs ~0.2 ms to compile."""
    return re.compile(_LEXER_SOURCES[key].encode())


class BodyWords(NamedTuple):
    """What a body says: its names (keywords left out), each as many times as the body
    uses it, in the order of their first use (how often a name is used is what
    `context_words` reads salience from), and its one-line strings of at most
    `MAX_STRING_CHARS` characters (each once, quotes included)."""

    names: list[str]
    strings: list[str]


def _one_line(string: str) -> bool:
    """A string worth reading: short, on one line, not triple-quoted (a docstring)."""
    return (
        0 < len(string) <= MAX_STRING_CHARS
        and "\n" not in string
        and not string.endswith(("'''", '"""'))
    )


def _body_words(found: Iterable[tuple[str, str]], keywords: frozenset[str] = KEYWORDS) -> BodyWords:
    names_: list[str] = []
    strings: list[str] = []
    for (string, name), count in Counter(found).items():
        if name:
            if name not in keywords:
                names_.extend([name] * count)
        elif _one_line(string):
            strings.append(string)
    return BodyWords(names_, strings)


def own_segments(bodies: Sequence[tuple[int, int] | None]) -> list[list[tuple[int, int]]]:
    """For each body (start and end offsets; None for a definition without one), the
    parts of it outside the bodies nested in it: the code that is that definition's own."""
    segments: list[list[tuple[int, int]]] = [[] for _ in bodies]
    spans = [span or (0, 0) for span in bodies]
    order = sorted((spans[i][0], -spans[i][1], i) for i, span in enumerate(bodies) if span)
    stack: list[list[int]] = []  # [index, where its own text resumes]

    def close() -> None:
        index, resume = stack.pop()
        end = spans[index][1]
        if end > resume:
            segments[index].append((resume, end))
        if stack:
            stack[-1][1] = max(stack[-1][1], end)

    for start, _, index in order:
        while stack and spans[stack[-1][0]][1] <= start:
            close()
        if stack and start > stack[-1][1]:
            segments[stack[-1][0]].append((stack[-1][1], start))
        stack.append([index, start])
    while stack:
        close()
    return segments


def names(text: str, segments: list[tuple[int, int]]) -> BodyWords:
    """The Python names and strings in `text`'s segments (see `BodyWords`)."""
    found: list[tuple[str, str]] = []
    for start, end in segments:
        found.extend(PYTHON_NAMES.findall(text, start, end))
    return _body_words(found, LEXER_KEYWORDS["python"])


def names_in_bytes(
    source: bytes,
    segments: list[tuple[int, int]],
    lexer: re.Pattern[bytes],
    keywords: frozenset[str] = KEYWORDS,
) -> BodyWords:
    """The names and strings `lexer` (one of `LEXERS`) finds in `source`'s segments, as
    `names`, skipping `keywords` (the lexer's `LEXER_KEYWORDS`)."""
    found: list[tuple[bytes, bytes]] = []
    for start, end in segments:
        found.extend(lexer.findall(source, start, end))
    decoded = (
        (string.decode("utf-8", "replace"), name.decode("ascii", "replace"))
        for string, name in found
    )
    return _body_words(decoded, keywords)


def context_words(identifiers: Iterable[str], strings: Iterable[str] = ()) -> str:
    """The words of `identifiers` (a body's name uses, repeats included), split at ``_``
    and case changes, lower-cased, each once in first-seen order, at most
    `MAX_CONTEXT_WORDS`; then the words of `strings` not already there, at most
    `MAX_STRING_WORDS`; then the salient words once more (used twice or more and at least
    `SALIENT_SHARE` of the uses; see the module docstring). Single letters and numbers
    dropped."""
    uses: dict[str, int] = {}  # first-seen order
    for identifier, count in Counter(identifiers).items():  # first-seen order too
        for word in identifier_parts(identifier):
            uses[word] = uses.get(word, 0) + count
    words = list(uses)[:MAX_CONTEXT_WORDS]
    seen = dict.fromkeys(words)
    limit = len(seen) + MAX_STRING_WORDS
    for string in strings:
        for word in identifier_parts(string):
            if len(seen) >= limit:
                break
            if word not in seen and word not in STOPWORDS:
                seen[word] = None
    least = max(2.0, SALIENT_SHARE * sum(uses.values()))
    salient = [word for word in words if uses[word] >= least]
    return " ".join([*seen, *salient])
