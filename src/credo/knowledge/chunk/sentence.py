"""Turn one paragraph into chunks: whole when short, one chunk per sentence when long.

A paragraph arrives as its source lines (line number, content with block markup already
removed), so every sentence can report the exact lines it touches.

Sentence rule: a sentence ends at ``.``, ``!`` or ``?`` (plus any closing quotes or
brackets) followed by whitespace and a capital letter or digit (optionally behind an
opening quote, bracket or emphasis mark), or at a CJK full stop. Not a boundary: a period
after a known abbreviation ("e.g.", "Dr.", "vs."), after a single letter ("J. Smith") or
inside a protected span (Markdown links and code spans). A piece shorter than
`MIN_SENTENCE_CHARS` is glued to its neighbour.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from credo.knowledge.chunk.model import (
    MAX_PARAGRAPH_CHARS,
    MIN_SENTENCE_CHARS,
    Chunk,
    is_meaningful,
)

Line = tuple[int, str]
# Turns a raw piece of source into (belief text, links).
Cleaner = Callable[[str], tuple[str, tuple[str, ...]]]

_BOUNDARY = re.compile(r"[.!?][\"'”’)\]*_]*(?=\s+[\"'“‘(\[*_`]*[A-Z0-9\u00c0-\u00de])|[。！？]")
_ABBREVIATIONS = frozenset(
    "e.g. i.e. cf. vs. mr. mrs. ms. dr. prof. st. no. fig. figs. approx. "
    "inc. ltd. jr. sr. vol. ch. sec. eq. al. resp. min. max.".split()
)
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+$")


def split_paragraph(
    lines: Sequence[Line],
    role: str,
    clean: Cleaner,
    section: tuple[str, ...] = (),
    heading_index: int | None = None,
    protect: re.Pattern[str] | None = None,
) -> list[Chunk]:
    """Chunks of one paragraph: one chunk, or one per sentence past `MAX_PARAGRAPH_CHARS`.

    Sentence chunks take the role "sentence" except docstring pieces, which stay
    "docstring" so the qualified-name prefix keeps its meaning. Pieces whose cleaned text
    is not meaningful are dropped.
    """
    lines = _trim_blank_edges(lines)
    if not lines:
        return []
    raw = "\n".join(content for _, content in lines)
    text, links = clean(raw)
    if not is_meaningful(text):
        return []
    if len(text) <= MAX_PARAGRAPH_CHARS:
        return [Chunk(text, lines[0][0], lines[-1][0], role, section, heading_index, links)]
    piece_role = "docstring" if role == "docstring" else "sentence"
    chunks = []
    for piece, start, end in split_sentences(lines, protect):
        piece_text, piece_links = clean(piece)
        if is_meaningful(piece_text):
            chunks.append(
                Chunk(piece_text, start, end, piece_role, section, heading_index, piece_links)
            )
    return chunks


def _trim_blank_edges(lines: Sequence[Line]) -> Sequence[Line]:
    """Drop leading and trailing lines with no content: a range covers only lines with text."""
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]


def split_sentences(
    lines: Sequence[Line], protect: re.Pattern[str] | None = None
) -> list[tuple[str, int, int]]:
    """Raw sentences of a paragraph with the first and last source line each touches."""
    joined = "\n".join(content for _, content in lines)
    line_starts = _line_starts(lines)
    spans = _merge_short(_sentence_spans(joined, protect), joined)
    return [
        (
            joined[start:end],
            lines[bisect_right(line_starts, start) - 1][0],
            lines[bisect_right(line_starts, end - 1) - 1][0],
        )
        for start, end in spans
    ]


def _line_starts(lines: Sequence[Line]) -> list[int]:
    starts = []
    offset = 0
    for _, content in lines:
        starts.append(offset)
        offset += len(content) + 1
    return starts


def _sentence_spans(joined: str, protect: re.Pattern[str] | None) -> list[tuple[int, int]]:
    """(start, end) offsets of each sentence, trimmed of surrounding whitespace."""
    guarded = [m.span() for m in protect.finditer(joined)] if protect else []
    spans = []
    start = 0
    for match in _BOUNDARY.finditer(joined):
        end = match.end()
        if _inside(match.start(), guarded) or _after_abbreviation(joined, match.start()):
            continue
        spans.append((start, end))
        start = end
    spans.append((start, len(joined)))
    return [trimmed for span in spans if (trimmed := _trim(joined, *span))]


def _inside(offset: int, guarded: list[tuple[int, int]]) -> bool:
    return any(start <= offset < end for start, end in guarded)


def _after_abbreviation(joined: str, dot: int) -> bool:
    """True when the period at `dot` closes an abbreviation or an initial, not a sentence."""
    if joined[dot] != ".":
        return False
    word_start = max(joined.rfind(" ", 0, dot), joined.rfind("\n", 0, dot)) + 1
    word = joined[word_start : dot + 1].lstrip("(\"'“‘[")
    return word.lower() in _ABBREVIATIONS or bool(_INITIALS.match(word))


def _trim(joined: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and joined[start].isspace():
        start += 1
    while end > start and joined[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _merge_short(spans: list[tuple[int, int]], joined: str) -> list[tuple[int, int]]:
    """Glue each too-short piece to the previous one (the first one to the next)."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and (end - start < MIN_SENTENCE_CHARS or _short(merged[-1])):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _short(span: tuple[int, int]) -> bool:
    return span[1] - span[0] < MIN_SENTENCE_CHARS
