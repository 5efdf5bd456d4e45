"""Split plain text (``.txt``, ``.rst``) into paragraphs, and long paragraphs into sentences.

Rules: paragraphs are separated by blank lines. A line made of one punctuation character
repeated (an reStructuredText title adornment such as ``=====`` or ``-----``) also
separates paragraphs and is dropped, so a title becomes a chunk of its own. Each
paragraph is one "text" chunk, whitespace-normalised, with its bare URLs in `links`;
past `MAX_PARAGRAPH_CHARS` it is split into "sentence" chunks. No other markup is
interpreted.
"""

from __future__ import annotations

import re

from credo.knowledge.chunk.model import Chunk, find_urls, normalise, source_lines, unique
from credo.knowledge.chunk.sentence import Line, split_paragraph

_ADORNMENT = re.compile(r"\s*([!-/:-@\[-`{-~])\1{2,}\s*$")


def split_text(text: str) -> list[Chunk]:
    """Paragraph chunks of plain `text`. Pure, deterministic, never raises."""
    chunks: list[Chunk] = []
    for paragraph in _paragraphs(source_lines(text)):
        chunks.extend(split_paragraph(paragraph, "text", _clean))
    return chunks


def _paragraphs(lines: list[str]) -> list[list[Line]]:
    paragraphs: list[list[Line]] = []
    current: list[Line] = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or _ADORNMENT.match(line):
            current = []
            continue
        if not current:
            paragraphs.append(current)
        current.append((number, line))
    return paragraphs


def _clean(raw: str) -> tuple[str, tuple[str, ...]]:
    return normalise(raw), unique(find_urls(raw))
