"""A paired-delimiter pattern's substitution (``**strong**``, ``~~struck~~``) in near-linear
time on long text.

A pattern such as ``(\\*\\*)(?=\\S)(.+?)(?<=\\S)\\*\\*`` scans lazily from each opening
delimiter to the end of the text when no closing one follows it: a paragraph of 20,000
``**a `` took 28 s to clean (each opener's scan failed at the end; review91). Whether a closing
delimiter follows an opening one is a lookup in the sorted positions of the closing ones, so
the pattern is run only from an opener it matches at, and its scan ends at that closer.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping
from re import Match, Pattern

# Shorter text is substituted by the pattern itself (its worst case is small there, and
# most paragraphs are shorter: no lookup is built for them).
LONG_TEXT = 2_000


def sub_paired(
    pattern: Pattern[str],
    openers: str,
    closers: Mapping[str, str],
    repl: str | Callable[[Match[str]], str],
    text: str,
) -> str:
    """``pattern.sub(repl, text)``, for a ``pattern`` of two-character delimiters around at
    least one character.

    ``openers`` finds (zero-width) each position where ``pattern`` could start; ``closers``,
    by the opening delimiter's first character, each position where a closing delimiter
    that ``pattern`` accepts starts. ``pattern`` matches at an opener exactly when a closer
    starts three or more characters after it. (``openers`` and ``closers`` are compiled on
    the first long text, by re's cache: a compile at import costs every ingest.)"""
    if len(text) < LONG_TEXT:
        return pattern.sub(repl, text)
    ends = {
        char: [m.start() for m in re.finditer(closer, text)] for char, closer in closers.items()
    }
    out: list[str] = []
    done = 0
    for opener in re.finditer(openers, text):
        start = opener.start()
        if start < done:
            continue
        found = ends.get(text[start], [])
        if bisect_left(found, start + 3) == len(found):
            continue
        match = pattern.match(text, start)
        if match is None:  # (never: the closer says it matches)
            continue
        out.append(text[done:start])
        out.append(match.expand(repl) if isinstance(repl, str) else repl(match))
        done = match.end()
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)
