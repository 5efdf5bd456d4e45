"""A number the question says alone is not matched by a dotted number's part.

FTS5's tokenizer reads "4.10.2" as the tokens 4, 10 and 2, so a question about "lines 2 and
4" or a block "starting at 10" matches every release heading of a changelog that holds those
digits, in the passage's text and again in its trail (pymdown-m02: three "4.10.2"-like
release passages in the first 10, the section answering the question's second part at 11;
docs/BENCHMARKS.md § "Stop 42"). A release the question names whole ("26.1.0") is a place,
which the doc lane scores (lanes/doc.py); a number the question writes on its own is a
count, a port, a status or a line, and a later part of a dotted number is none of those.
A dotted number's first part is different: it is what the rest refines ("version 3" asks
for release 3.0.0, "Python 3" for Python 3.8, "section 2" for 2.1), so the text holds
that number on its own too; so is the year that ends a date written with dots ("04.10.2023":
a question's 2023 asks for it), four digits no release's later part has.

So for each keyword hit whose text and trail hold such a number only as a later part of
dotted numbers, what those numbers score for it (BM25 is a sum over the query's terms:
``keyword_scores`` gives the part exactly) is taken off its keyword score before any lane
reads it. A hit that also holds the number on its own anywhere the index reads keeps it
all: the rest of what the index holds of it (its anchor text, its context past the trail:
a code example's names, "step_2") is read for the few hits about to lose a number. A hit
left with nothing is no keyword hit. A question without a number on its own costs one
regular-expression pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping

from credo.types import split_lines

_DIGITS = re.compile(r"\d+")


def _numbers(text: str, wanted: Collection[str]) -> Iterator[tuple[str, bool, bool]]:
    """(digits, whether a later part of a dotted number, whether its first part) for each
    number of ``wanted`` that ``text`` holds as a token of its own: not inside a word
    ("v2", "h2o", "2²": FTS5's unicode61 keeps letters and every kind of number in a token,
    so ``str.isalnum``, not ``isalpha``), as FTS5's tokenizer reads it (an underscore
    parts tokens there too)."""
    end_of_text = len(text)
    for m in _DIGITS.finditer(text):
        digits = m.group()
        if digits not in wanted:
            continue
        start, end = m.span()
        if (start and text[start - 1].isalnum()) or (end < end_of_text and text[end].isalnum()):
            continue
        later = start >= 2 and text[start - 1] == "." and text[start - 2].isdigit()
        dot_after = end + 1 < end_of_text and text[end] == "." and text[end + 1].isdigit()
        if later and not dot_after and _is_year(digits):
            later = False  # a dotted date's year ("04.10.2023"): a year said, no release's part
        yield digits, later, not later and dot_after


def _is_year(digits: str) -> bool:
    """Four digits of the 1900s or 2000s: what ends a date written with dots, and what no
    release's later part is."""
    return len(digits) == 4 and digits.startswith(("19", "20"))


def alone_numbers(text: str, terms: Iterable[str]) -> list[str]:
    """The query ``terms`` that are numbers ``text`` writes on their own at least once
    (not only as a part of a dotted number), in ``terms``' order."""
    terms = list(terms)
    wanted = {t for t in terms if t.isdigit()}
    if not wanted:
        return []
    alone = {digits for digits, later, first in _numbers(text, wanted) if not (later or first)}
    return [t for t in terms if t in alone]


def only_dotted(text: str, numbers: Iterable[str]) -> list[str]:
    """Those of ``numbers`` that ``text`` holds, and holds only as later parts of dotted
    numbers ("2" and "10" in "4.10.2"; "4", the release's first part, is held: see the
    module docstring)."""
    numbers = list(numbers)
    seen: dict[str, bool] = {}  # number -> every occurrence so far a later part
    for digits, later, _ in _numbers(text, numbers):
        seen[digits] = seen.get(digits, True) and later
    return [n for n in numbers if seen.get(n)]


def without_dotted(
    text: str,
    terms: list[str],
    found: Mapping[str, float],
    text_of: Callable[[str], str],
    trails_of: Callable[[list[str]], Mapping[str, str]],
    scores_of: Callable[[list[str], list[str]], Mapping[str, float]],
    extras_of: Callable[[list[str]], Mapping[str, str]],
) -> dict[str, float]:
    """The keyword hits ``found`` (id -> score), each less what the question's numbers on
    their own score for it where it holds them only as later parts of dotted numbers; hits
    left with nothing dropped. ``text_of(id)``: a hit's text; ``trails_of(ids)``: their
    trails; ``scores_of(terms, ids)``: BM25F of ``terms`` for ``ids``
    (``Store.keyword_scores``); ``extras_of(ids)``: the rest the index holds of them
    (``Store.index_extras``), asked only of the hits about to lose a number. A new dict,
    equal to ``found`` when nothing changes."""
    numbers = alone_numbers(text, terms)
    if not numbers or not found:
        return dict(found)
    trails = trails_of(sorted(found))
    flagged: dict[str, tuple[str, list[str]]] = {}  # id -> (what was read, its numbers)
    for belief_id in sorted(found):
        # (a trail's line range, "L12-L30", holds no token of its own: left out, so that the
        # substring test below passes only where the number may be a token; a trail without
        # one is kept whole, and is read whole below before a hit loses)
        held = f"{text_of(belief_id)}\n{split_lines(trails.get(belief_id, ''))[0]}"
        if not any(n in held for n in numbers):  # (a C-level test: most hits hold none)
            continue
        spurious = only_dotted(held, numbers)
        if spurious:
            flagged[belief_id] = (held, spurious)
    if not flagged:
        return dict(found)
    extras = extras_of(list(flagged))
    by_numbers: dict[tuple[str, ...], list[str]] = {}
    for belief_id, (held, spurious) in flagged.items():
        extra = extras.get(belief_id)
        if extra:  # (the anchor text and the whole context: a number there alone is held)
            spurious = only_dotted(f"{held}\n{extra}", spurious)
        if spurious:
            by_numbers.setdefault(tuple(spurious), []).append(belief_id)
    out = dict(found)
    for spurious_numbers, ids in by_numbers.items():
        parts = scores_of(list(spurious_numbers), ids)
        for belief_id in ids:
            left = out[belief_id] - parts.get(belief_id, 0.0)
            if left > 0:
                out[belief_id] = left
            else:
                del out[belief_id]
    return out
