"""The pieces `split_rst`'s walker builds a chunk of, and where it looks for them.

A chunk is one or more parts (a term and its definition's first paragraph, a row's
cells), each rendered (`rst_render`) and placed in the source (`rst_lines`) on its own;
the chunk's words and lines are the parts' joined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from credo.knowledge.chunk.model import unique
from credo.knowledge.chunk.rst_lines import Span


@dataclass(slots=True)
class Part:
    """One rendered piece of a chunk: its text, (link, anchor text) pairs, lines and
    (role target, title) pairs."""

    text: str
    links: list[tuple[str, str]]
    span: Span | None
    checked: bool = False  # the span is known to hold the text's words
    needle: list[str] | None = None  # `words(text)`, when known (placing needed them)
    targets: list[tuple[str, str]] = field(default_factory=list)  # for the context


def joined_words(parts: list[Part]) -> list[str] | None:
    """`words` of the parts' texts joined by a separator without a letter or digit (" ",
    ": ", " | "): each part's words in turn, when all of them are known."""
    if len(parts) == 1:
        return parts[0].needle
    needles = [part.needle for part in parts]
    return None if None in needles else list(chain.from_iterable(needles))  # type: ignore[arg-type]


def union(spans: list[Span | None]) -> Span:
    if len(spans) == 1 and spans[0] is not None:
        return spans[0]  # (the usual case: a chunk of one part)
    found = [span for span in spans if span is not None]
    return min(start for start, _ in found), max(end for _, end in found)


def role_context(targets: list[tuple[str, str]]) -> str:
    """A chunk's context: its roles' explicit targets (`rst_import.TARGET`), each once."""
    return " ".join(unique([target for target, _ in targets])) if targets else ""


def hint(node: Any) -> int | None:
    """docutils' line for `node`, else its nearest ancestor's."""
    while node is not None:
        if isinstance(node.line, int) and node.line > 0:
            return int(node.line)
        node = node.parent
    return None


def raw(node: Any) -> str:
    """The source text docutils kept for `node`, if any."""
    source = getattr(node, "rawsource", "")
    return source if isinstance(source, str) else ""
