"""A query's answer kept for the next read of the same query.

Some pure functions of the query's text are read by two steps of one retrieve: its terms
with their base words (``_rank``, then ``snippet.Terms`` when the pack renders a long
candidate) and the documents it names (the doc lane, then the "what does FILE do" gate,
retrieval/head.py). Keeping the last text's answer makes the second read a lookup.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

T = TypeVar("T")


def keeps_last(make: Callable[[str], list[T]]) -> Callable[[str], list[T]]:
    """``make`` with the last text's answer kept: a new list each call (a caller may change
    its own)."""
    # (text, its answer): one tuple, so a thread reads a text with its own answer
    last: tuple[str | None, tuple[T, ...]] = (None, ())

    @wraps(make)
    def kept(text: str) -> list[T]:
        nonlocal last
        seen = last
        if seen[0] == text:
            return list(seen[1])
        answer = make(text)
        last = (text, tuple(answer))
        return answer

    return kept
