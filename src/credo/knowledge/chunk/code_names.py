"""The names a definition's body uses: its context words.

A parser gives each body's byte or character range; a regex lexer then reads the names in
the parts of the body outside nested definitions (`own_segments`), skipping strings and
comments, in C. Asking the tree for every identifier node costs several times more, for
the same words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

# At most this many context words per definition: enough to name what a body works with,
# few enough that a long function does not drown its own signature in the context field.
MAX_CONTEXT_WORDS = 150

# Words an identifier splits into: "HTTPConnectionPool" -> HTTP, Connection, Pool;
# "get_backoff_time" -> get, backoff, time; "sha256" -> sha256.
_WORD_PART = re.compile(r"[A-Z]+\d*(?![a-z])|[A-Z]?[a-z]+\d*|\d+")
# Receivers and literals every body names: they say nothing about this one.
_NOISE_WORDS = frozenset("self cls this super none true false null nil undefined new".split())
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

# Each lexer: a string or a comment matches an alternative without a group (findall gives
# ""), a name matches the group. Every string and comment alternative also ends at the
# text's end when its closing delimiter is missing, so a scan is linear on any input.
_C_COMMENTS = r"/\*[\s\S]*?(?:\*/|$)|//[^\n]*"
_C_STRINGS = r'"(?:[^"\\\n]|\\.)*"?' + r"|'(?:[^'\\\n]|\\.){0,8}'" + r"|`[\s\S]*?(?:`|$)"
_JS_STRINGS = r'"(?:[^"\\\n]|\\.)*"?' + r"|'(?:[^'\\\n]|\\.)*'?" + r"|`(?:[^`\\]|\\[\s\S])*`?"
_PYTHON_STRINGS = (
    r"[rRbBuUfF]{0,3}(?:"
    + r'"""[\s\S]*?(?:"""|$)'
    + r"|'''[\s\S]*?(?:'''|$)"
    + r'|"(?:[^"\\\n]|\\.)*"?'
    + r"|'(?:[^'\\\n]|\\.)*'?)"
    + r"|#[^\n]*"
)
_SHELL_STRINGS = r"'[^']*'?" + r'|"(?:[^"\\]|\\[\s\S])*"?' + r"|(?<![\w$])#[^\n]*"

# The Python reader works on text; the tree-sitter reader on UTF-8 bytes.
PYTHON_NAMES = re.compile(_PYTHON_STRINGS + r"|([^\W\d]\w*)")
LEXERS: dict[str, re.Pattern[bytes]] = {
    "c": re.compile((_C_COMMENTS + "|" + _C_STRINGS + r"|([A-Za-z_]\w*)").encode()),
    "js": re.compile((_C_COMMENTS + "|" + _JS_STRINGS + r"|([A-Za-z_$][\w$]*)").encode()),
    "python": re.compile((_PYTHON_STRINGS + r"|([A-Za-z_]\w*)").encode()),
    "shell": re.compile((_SHELL_STRINGS + r"|([A-Za-z_]\w*)").encode()),
}


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


def names(text: str, segments: list[tuple[int, int]]) -> list[str]:
    """The Python names in `text`'s segments, each once, keywords left out."""
    found: list[str] = []
    for start, end in segments:
        found.extend(PYTHON_NAMES.findall(text, start, end))
    return [name for name in dict.fromkeys(found) if name and name not in KEYWORDS]


def names_in_bytes(
    source: bytes, segments: list[tuple[int, int]], lexer: re.Pattern[bytes]
) -> list[str]:
    """The names `lexer` (one of `LEXERS`) finds in `source`'s segments, as `names`."""
    found: list[bytes] = []
    for start, end in segments:
        found.extend(lexer.findall(source, start, end))
    decoded = (raw.decode("ascii", "replace") for raw in dict.fromkeys(found) if raw)
    return [name for name in decoded if name not in KEYWORDS]


@functools.lru_cache(maxsize=65_536)
def _parts(identifier: str) -> tuple[str, ...]:
    words = (part.lower() for part in _WORD_PART.findall(identifier))
    return tuple(w for w in words if len(w) > 1 and not w.isdigit() and w not in _NOISE_WORDS)


def context_words(identifiers: Iterable[str]) -> str:
    """The words of `identifiers`, split at ``_`` and case changes, lower-cased, each once
    in first-seen order, at most `MAX_CONTEXT_WORDS`; single letters and numbers dropped."""
    seen: dict[str, None] = {}
    for identifier in identifiers:
        for word in _parts(identifier):
            if word not in seen:
                seen[word] = None
                if len(seen) >= MAX_CONTEXT_WORDS:
                    return " ".join(seen)
    return " ".join(seen)
