"""A section already shown yields to the sections not yet shown (issue #14, multi-fact).

A question that asks two things ("how do I copy an instance with one field changed, and why
does assigning to a frozen one fail?") needs a passage from each of two sections. The
keyword lanes score every passage of a section on the same words, so a long section whose
words the question shares fills the first ten with its second and third passages, and the
section that answers the other half waits at 11-20 (day-groups66's failure analysis of the
dev and spent sets: 27 of the 57 groups missed ranked 11-20, and in 27 of the 47 questions
that missed one the first ten held two or more passages of one section).

Only for a question that asks several things (``asks_several``): two question words ("how
... and where ..."), a clause joined by ", and", a semicolon, or a second sentence after a
question mark, or a question of ``LONG`` words or more. A question about one thing keeps a
section's passages together: there the answer is often a later passage of one long section
(bench/doc_linker.py, whose labels count every passage that holds the answer: the rule for
every question cost its belief nDCG@10 0.935 -> 0.924, and 0.934 with a factor of 0.9).

The rule: among the first ``WINDOW`` ranked, a passage whose section (its trail less the
line range: the path and headings, or in code the module, class and function names) already
has a passage above it counts ``AGAIN`` of its score; the section's best passage keeps its
whole score. The ranking is sorted again (stable: ties keep the order the steps before gave
them), and what a passage gives up is listed as its part ``again`` (below zero; the parts
still add up to the score). A belief without a trail (a note, a conversation turn) is its
own unit and never yields. Greedy diversification (Carbonell and Goldstein's MMR, SIGIR
1998) with the redundancy reduced to "same section": the greedy order and this static one
are the same, since a section's best passage always comes before its others.

Measured (day-groups66): on docs_multi, the six dev sets and the 14 spent held-out sets no
question lost a group, a hit or a rank; all-groups@10 on the dev sets 0.664 -> 0.679, the
spent eight 0.526 -> 0.542, the stop-58 six 0.854 -> 0.875. ``AGAIN`` from 0.5 down to 0
gave the same first ten; 0.8 the same groups and fewer ranks. A file already shown yielding
too (factors 0.99 to 0.92) lost groups: most multi-fact questions want two sections of one
file; a parent section already shown yielding (0.97 to 0.7) lost ranks and groups.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from credo.retrieval.base_terms import query_words
from credo.retrieval.rank import ID, PARTS, SCORE, Ranked
from credo.retrieval.specific import by_score, without_lines

AGAIN = 0.5  # the share of its score a section's second and later passages keep
# Only the first ranks are read (~110 candidates a query; the first ten are what the rule is
# for): 20 gave the same first ten as the whole ranking on every set (day-groups66).
WINDOW = 40
# A question of this many words or more (stopwords out) asks for more than one thing: the
# bench's questions run 4-21 (169 of 176 multi-fact ones pass the gate), doc_linker's short
# ones 2-10; 8 and 9 gave the same figures, 10 lost a group (day-groups66).
LONG = 8

_ASKS = re.compile(r"\b(?:how|where|what|which|why|when|whether|who)\b", re.IGNORECASE)
_JOINED = re.compile(r",\s+and\s|;\s|\?\s+\S")


def asks_several(text: str) -> bool:
    """Whether the question asks for several things: two question words, or clauses joined
    by ", and", a semicolon, or a question mark with more after it; or ``LONG`` words or more
    (``query_terms``: stopwords out)."""
    if len(query_words(text)) >= LONG:  # (first: the query's words as _rank read them, kept)
        return True
    return len(_ASKS.findall(text, 0, 2000)) >= 2 or _JOINED.search(text) is not None


@lru_cache(maxsize=8192)  # (asked of the first WINDOW's trails each query: a lookup when met)
def _place(trail: str) -> str:
    """A passage's section: its trail's path and titles, the lines dropped."""
    return without_lines(trail)


def spread(ranked: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``ranked`` with each section's passages after its best, among the first ``WINDOW``,
    counting ``AGAIN`` of their score, sorted again by score (stable); the same list when no
    section repeats there."""
    seen: set[str] = set()
    out: list[Ranked] | None = None
    for at, scored in enumerate(ranked[:WINDOW]):
        trail = trails.get(scored[ID])
        if not trail:
            continue
        place = _place(trail)
        if place not in seen:
            seen.add(place)
            continue
        if out is None:
            out = ranked.copy()
        score = round(scored[SCORE] * AGAIN, 9)
        parts = dict(scored[PARTS])
        parts["again"] = round(score - scored[SCORE], 9)
        out[at] = (scored[ID], score, parts)
    if out is None:
        return ranked
    out.sort(key=by_score, reverse=True)
    return out
