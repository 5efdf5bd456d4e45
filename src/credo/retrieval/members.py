"""In code, a class's head after its members that rank with it.

A class's head passage (its signature, docstring and the lines outside its methods) says
what the class is; its members say what it does. A question about behaviour still meets
the head first: the docstring sums up what the members do, in the words a question uses,
and the heat lane spreads from the members that are hits to the head they all hang from
(DERIVED_FROM), so the head outranked the method asked about (docs/BENCHMARKS.md, issue
#14, day-defn42: rank 1 over a member on questions of every code set). A member in the
first ranks is the finer answer to such a question, and the head stays beside it.

So among the first `TOP` ranked, the head of a definition that declares members, ranked
above (or on the score of) some of its own members (passages whose definition is nested
in its definition), goes just below the last of those members: the weakest member in the
first `TOP`, so the head can fall up to nine places. Its score becomes that member's less
the scores' rounding grain, and what it loses is listed as its part ``members`` (the
parts still add up to the score; a head moved twice adds both losses there). A head moved
may move again: a nested class it went below moves below its own member to the same
score, and the class around it then follows it, so nested classes end inner first,
whatever their ids. When anything moved, the list is sorted again as the pipeline sorts
(score, then id): a head moved to the edge may tie with the candidate past it. Nothing
else moves: a member ranked below a candidate of another file stays below it, and a
class-level passage that is not the head (a paragraph of a long docstring) keeps its
place. (Measured, day-defn42: the members lifted above the head instead pushed the answer
in another file down, ws-c05 and requests-c08; docstring paragraphs moved too cost
urllib3's doc nDCG 0.892 -> 0.879; moving any definition's passages below what is nested
in it, functions included, lost five axios questions. Day-members42: the head just below
its *best* member, above the rest, kept 1 of the 12 questions this rule lifted, 1 in part.)

Which definitions declare members is told by the rows the definition lane read
(store/defn_stats.py), with no flag stored: a class's row counts its own lines only, its
members' lines left to their own rows, so a member's row holds a stem of its own name more
often than the class's row does (the name is on the member's first line, and the class
counts it only where its own lines use it). A function's row counts every line of the
functions nested in it, so it holds each of their stems at least as often: a function
never moves (what is nested in it is part of what it does). A class whose own lines name
a member as often as the member does is taken for a function, and its head stays. A head
told apart this way needs its row and a member's, both keyword hits the lane has read;
a candidate the lane did not read (a graph-lane candidate, or the lane switched off) is
left where it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from credo.retrieval.rank import ID, SCORE, Ranked, rescored
from credo.retrieval.specific import GRAIN, TOP, by_id, by_score, sections
from credo.store.defn_stats import term_count
from credo.store.stem import stem, tokens

if TYPE_CHECKING:
    from credo.store.defns import DefnHit


class _Span(NamedTuple):
    """A candidate's definition: where it is, its stored terms, and whether the candidate
    is the definition's head."""

    file: str
    first: int
    last: int
    terms: str
    is_head: bool
    candidate: str


def _span(candidate: str, row: DefnHit) -> _Span:
    file, first, last, terms, _length, head = row
    return _Span(file, first, last, terms, head, candidate)


def members_first(
    ranked: list[Ranked], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> list[Ranked]:
    """``ranked`` with each class head that the rule above moves just below its last
    member in the first ``TOP`` (best first, in the pipeline's order of score then id; the
    same list when none moves). ``rows``: the definitions the keyword hits sit in
    (``Store.passage_definitions``)."""
    if len(ranked) < 2 or not rows:
        return ranked
    top = ranked[:TOP]
    classes = _classes(top, trails, rows)
    if not classes:
        return ranked  # (no class head with a member among them: most queries)
    moved = False
    # (a head moved may move again: a nested class it went below moves below its own
    # member, to the same score; scores only fall and nesting is finite, so this ends)
    while (found := _next_move(top, classes)) is not None:
        head, target = found
        old = top[head]
        top[head] = rescored(old, round(top[target][SCORE] - GRAIN, 9), "members")
        moved = True
        _in_order(top)
    if not moved:
        return ranked
    out = top + ranked[TOP:]
    _in_order(out)  # (a head moved to the edge may tie with the candidate after it)
    return out


def _in_order(ranked: list[Ranked]) -> None:
    """Sort ``ranked`` in place as the pipeline does: score, best first, then id."""
    ranked.sort(key=by_id)
    ranked.sort(key=by_score, reverse=True)


def _classes(
    top: list[Ranked], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> dict[str, frozenset[str]]:
    """Each head in ``top`` whose definition declares members -> its members in ``top``:
    the candidates whose definition (a row: file and lines) is nested in the head's."""
    # In (file, first line, longest first) order, what is nested in a definition follows
    # it: the spans starting before it ends (definitions nest or stand apart).
    placed = sorted((_span(c[ID], row) for c in top for row in rows.get(c[ID], ())), key=_place)
    out: dict[str, frozenset[str]] = {}
    for at, own in enumerate(placed):
        if not own.is_head:
            continue  # (not the head of its definition)
        members: list[_Span] = []
        for other in placed[at + 1 :]:
            if other.file != own.file or other.first > own.last:
                break
            if other.last <= own.last and (other.first, other.last) != (own.first, own.last):
                members.append(other)  # (its own other passages are no members)
        if any(_named_more(trails.get(m.candidate), m.terms, own.terms) for m in members):
            out[own.candidate] = frozenset(m.candidate for m in members)
    return out


def _place(span: _Span) -> tuple[str, int, int, str]:
    """A span's sort key: file, first line, the longer of two spans starting together
    first, then its candidate (two candidates may share a definition)."""
    return span.file, span.first, -span.last, span.candidate


def _next_move(top: list[Ranked], classes: Mapping[str, frozenset[str]]) -> tuple[int, int] | None:
    """The first (class head, its last member below it) positions in ``top``, or None
    when every class head scores below all of its members there. (A member on the head's
    own score counts as below it: only the ids would order the two, so a nested class
    and the class around it would end in the order of their ids.)"""
    for a, head in enumerate(top):
        members = classes.get(head[ID])
        if members is None:
            continue
        below = [
            d
            for d, other in enumerate(top)
            if other[ID] in members and (d > a or other[SCORE] == head[SCORE])
        ]
        if below:
            return a, below[-1]
    return None


def _named_more(trail: str | None, inner: str, outer: str) -> bool:
    """Whether the stored terms ``inner`` (a member's definition, whose passage has the
    ``trail``) hold a stem of the member's own title more often than ``outer`` (the
    definition around it) does. Only the title's stems are looked up (a find each, not a
    decode of two long rows): a function holds them as often as what is nested in it, and
    a member uses its own name at least on its first line, which its class's row does not
    count."""
    if trail is None:
        return False
    titles = sections(trail)[1]
    own = {stem(w) for w in tokens(titles[-1])} if titles else ()
    return any(term_count(inner, t) > term_count(outer, t) for t in own)
