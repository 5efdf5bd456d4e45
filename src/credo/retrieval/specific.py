"""A section before the section around it, when only the heading they share set them apart.

A documentation passage's context holds its trail (path, then every section title above
it) and its own title once more, and its text starts with its heading: so a section's
title counts three times for its own passage and once for each passage below it. When a
question uses the words of a parent's heading, the parent's passage (often a short
introduction) then outranks the child section that answers, though the child sits under
that same heading (docs/BENCHMARKS.md § Ranking, seventeenth pass: 13 of the 54 documentation
questions whose label ranks 2-10 had its parent above it).

The parent's heading words are the lineage's, so they should not decide between the parent
and its descendant. Among the first `TOP` ranked, for an ancestor A ranked above a
descendant D (same file, A's sections a proper prefix of D's), D goes just above A when

- D's own heading holds a query term that no heading above it holds and that scores more
  for D than for A (D is the more specific match: a child whose title only repeats its
  ancestors' words, a "Vim plugin" under "Official plugin", is not; nor one whose new word
  is in more than half the index, where BM25 gives it no weight: "Slotted Classes" under
  "Immutability" for "make an attrs class immutable"), and
- D's score reaches A's once A's bm25f part is taken down by what the query terms of A's own
  heading score for A beyond what they score for D (both credited alike).

No weight is tuned: the comparison is the composed score, with one lane's evidence counted
once. D takes A's score plus the scores' rounding grain, listed as its part ``specific``
(the parts still add up to the score). What reaches this is rare (a documentation question
with both in its top 10): one keyword read of two beliefs for each such pair.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from credo.retrieval.rank import ID, PARTS, SCORE, Ranked, Weights
from credo.store.stem import stem, tokens
from credo.types import split_lines, split_trail

if TYPE_CHECKING:
    from credo.store import Store

TOP = 10  # the ranks a question's answer is read in (the bench's @10 metrics)
GRAIN = 1e-9  # compose rounds scores to 9 digits: the next score up
# FTS5's floor idf times the most its tf part gives (k1 + 1, k1 = 1.2: fts5_aux.c, as
# store/bm25_mirror.py's K1, not imported: the hook's light path does not load that module).
NO_EVIDENCE = 1e-6 * (1.2 + 1.0)


@lru_cache(maxsize=8192)  # (asked of the first ranks' trails each query: a lookup when met)
def sections(trail: str) -> tuple[str, tuple[str, ...]]:
    """(path, section titles) of a trail ``path › A › B L4-L9``; the line range dropped
    (``types.split_trail``: a range-less trail's last title is whole, "Using Lua")."""
    path, titles, _ = split_trail(trail)
    return path, titles


def without_lines(trail: str) -> str:
    """``trail`` less the line range ingest ends it with (`` L4-L9``). A trail without one
    (a context imported from records) is whole: its last title may hold " L" ("Using Lua",
    "› Logging"), which is not a range (``types.split_lines``)."""
    return split_lines(trail)[0]


def _stems(text: str) -> set[str]:
    return {stem(t) for t in tokens(text)}


def _held(term: str, stems: set[str]) -> bool:
    """Whether every token of ``term`` is, stemmed, among ``stems``."""
    parts = tokens(term)
    return bool(parts) and all(stem(p) in stems for p in parts)


def specific_first(
    ranked: list[Ranked],
    trails: Mapping[str, str],
    terms: list[str],
    keyword: Mapping[str, float],
    scores_of: Callable[[list[str], list[str]], dict[str, float]],
    factor: Callable[[str], float],
) -> list[Ranked]:
    """``ranked`` with each descendant the rule above lifts just over its ancestor (best
    first; the same list when none is). ``keyword``: the bm25f lane's raw scores;
    ``scores_of(terms, ids)``: BM25F of ``terms`` for ``ids`` (``Store.keyword_scores``);
    ``factor(id)``: what multiplies a candidate's lanes (the history, tests or inner weight)."""
    if not terms or len(ranked) < 2:
        return ranked
    top = ranked[:TOP]
    places = {s[ID]: sections(t) for s in top if (t := trails.get(s[ID])) is not None}
    if len(places) < 2:
        return ranked
    done: set[tuple[str, str]] = set()
    lifted = False
    while True:
        pair = _next_pair(top, places, terms, keyword, scores_of, factor, done)
        if pair is None:
            break
        above, below = pair
        score = round(top[above][SCORE] + GRAIN, 9)
        moved = top[below]
        parts = dict(moved[PARTS])
        parts["specific"] = round(score - moved[SCORE], 9)
        top[below] = (moved[ID], score, parts)
        top.sort(key=by_id)
        top.sort(key=by_score, reverse=True)
        lifted = True
    return top + ranked[TOP:] if lifted else ranked


def _next_pair(
    top: list[Ranked],
    places: Mapping[str, tuple[str, tuple[str, ...]]],
    terms: list[str],
    keyword: Mapping[str, float],
    scores_of: Callable[[list[str], list[str]], dict[str, float]],
    factor: Callable[[str], float],
    done: set[tuple[str, str]],
) -> tuple[int, int] | None:
    """The first (ancestor, descendant) positions in ``top`` the rule lifts, or None."""
    for a, anc in enumerate(top):
        a_place = places.get(anc[ID])
        bm25f = anc[PARTS].get("bm25f", 0.0)
        raw = keyword.get(anc[ID], 0.0)
        if a_place is None or not a_place[1] or bm25f <= 0 or raw <= 0:
            continue
        path, a_sections = a_place
        depth = len(a_sections)
        for d in range(a + 1, len(top)):
            desc = top[d]
            d_place = places.get(desc[ID])
            if (
                d_place is None
                or d_place[0] != path
                or len(d_place[1]) <= depth
                or d_place[1][:depth] != a_sections
                or (anc[ID], desc[ID]) in done
            ):
                continue
            done.add((anc[ID], desc[ID]))
            *outer, own = d_place[1]
            own_stems, outer_stems = _stems(own), _stems(" ".join(outer))
            added = [t for t in terms if _held(t, own_stems) and not _held(t, outer_stems)]
            if not any(_evidence(t, anc[ID], desc[ID], scores_of) for t in added):
                continue  # D's own heading adds no telling query word to its ancestors'
            a_heading = _stems(a_sections[-1])
            shared = [t for t in terms if _held(t, a_heading)]
            if not shared:
                continue
            got = scores_of(shared, [anc[ID], desc[ID]])
            excess = got.get(anc[ID], 0.0) - got.get(desc[ID], 0.0)
            if excess <= 0:
                continue
            taken = bm25f * excess / raw * factor(anc[ID]) * _since_compose(anc)
            if anc[SCORE] - taken < desc[SCORE]:
                return a, d
    return None


def _since_compose(scored: Ranked) -> float:
    """What the steps between compose and this one multiplied ``scored``'s whole score by:
    spread's ``AGAIN`` (its part ``again``) and support's gain (its part ``support``), 1.0
    when neither moved it. Its lanes' parts are compose's, so a part of its score they
    stand for is scaled alike (retrieval/spread.py, retrieval/support.py)."""
    moved = scored[PARTS].get("again", 0.0) + scored[PARTS].get("support", 0.0)
    before = scored[SCORE] - moved
    return scored[SCORE] / before if moved and before > 0 else 1.0


def _evidence(
    term: str,
    anc: str,
    desc: str,
    scores_of: Callable[[list[str], list[str]], dict[str, float]],
) -> bool:
    """Whether ``term`` counts for the descendant more than for the ancestor, and counts at
    all: a term in more than half the index gets FTS5's floor idf (1e-6), so it scores at
    most ``NO_EVIDENCE`` ("class" in a library's docs, the project's own name)."""
    got = scores_of([term], [anc, desc])
    mine = got.get(desc, 0.0)
    return mine > NO_EVIDENCE and mine > got.get(anc, 0.0)


# A ranked belief's id and score, as sort keys: C-level (a Python function as a key is one
# call per item: ~110 candidates a query, sorted again by several steps).
by_id: Callable[[Ranked], str] = itemgetter(ID)
by_score: Callable[[Ranked], float] = itemgetter(SCORE)


def lift(
    store: Store,
    ranked: list[Ranked],
    trails: Mapping[str, str],
    terms: list[str],
    keyword: Mapping[str, float],
    weights: Weights,
    weighed: tuple[Collection[str], Collection[str], Collection[str]],
) -> list[Ranked]:
    """``specific_first`` over ``store``'s keyword index, for the pipeline. ``weighed``:
    the candidates whose lanes ``compose`` weighed by ``weights.history``, ``.tests`` and
    ``.inner`` (retrieval/prior.py), in that order of precedence."""
    history, tests, inner = weighed

    def factor(belief_id: str) -> float:
        if belief_id in history:
            return weights.history
        if belief_id in tests:
            return weights.tests
        return weights.inner if belief_id in inner else 1.0

    return specific_first(ranked, trails, terms, keyword, store.keyword_scores, factor)
