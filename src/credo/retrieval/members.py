"""In code, a class's head after its members that rank with it.

A class's head passage (its signature, docstring and the lines outside its methods) says
what the class is; its members say what it does. A question about behaviour still meets
the head first: the docstring sums up what the members do, in the words a question uses,
and the heat lane spreads from the members that are hits to the head they all hang from
(DERIVED_FROM), so the head outranked the method asked about (docs/BENCHMARKS.md, issue
#14, day-defn42: rank 1 over a member on questions of every code set). A member in the
first ranks is the finer answer to such a question, and the head stays beside it.

So among the first `TOP` ranked, the head of a definition that declares members, ranked
above some of its own members (passages whose definition is nested in its definition),
goes just below the last of those members. Its score becomes that
member's less the scores' rounding grain, and what it loses is listed as its part
``members`` (the parts still add up to the score). Nothing else moves: a member ranked
below a candidate of another file stays below it, and a class-level passage that is not
the head (a paragraph of a long docstring) keeps its place. (Measured, day-defn42: the
members lifted above the head instead pushed the answer in another file down, ws-c05
and requests-c08; docstring paragraphs moved too cost urllib3's doc nDCG 0.892 -> 0.879;
moving any definition's passages below what is nested in it, functions included, lost
five axios questions.)

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
from typing import TYPE_CHECKING

from credo.retrieval.rank import Scored
from credo.retrieval.specific import GRAIN, TOP, by_id, by_score, sections
from credo.store.defn_stats import term_count
from credo.store.stem import stem, tokens

if TYPE_CHECKING:
    from credo.store.defns import DefnHit


def members_first(
    ranked: list[Scored], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> list[Scored]:
    """``ranked`` with each class head that the rule above moves just below its last
    member in the first ``TOP`` (best first; the same list when none moves). ``rows``:
    the definitions the keyword hits sit in (``Store.passage_definitions``)."""
    if len(ranked) < 2 or not rows:
        return ranked
    top = ranked[:TOP]
    classes = _classes(top, trails, rows)
    if not classes:
        return ranked  # (no class head with a member among them: most queries)
    moved: set[str] = set()
    while (found := _next_head(top, classes, moved)) is not None:
        head, last = found
        old = top[head]
        score = round(top[last].score - GRAIN, 9)
        parts = dict(old.lanes)
        parts["members"] = round(score - old.score, 9)
        top[head] = Scored(old.id, score, parts)
        moved.add(old.id)
        top.sort(key=by_id)
        top.sort(key=by_score, reverse=True)
    return top + ranked[TOP:] if moved else ranked


def _classes(
    top: list[Scored], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> dict[str, frozenset[str]]:
    """Each head in ``top`` whose definition declares members -> its members in ``top``:
    the candidates whose definition (a row: file and lines) is nested in the head's."""
    # In (file, first line, longest first) order, what is nested in a definition follows
    # it: the rows starting before it ends (definitions nest or stand apart).
    placed = sorted(
        ((row[0], row[1], -row[2], c.id, row) for c in top for row in rows.get(c.id, ())),
        key=_place,
    )
    out: dict[str, frozenset[str]] = {}
    for at, (file, first, _, head_id, own) in enumerate(placed):
        if not own[5]:
            continue  # (not the head of its definition)
        members = []
        for other in placed[at + 1 :]:
            row = other[4]
            if other[0] != file or row[1] > own[2]:
                break
            if row[2] <= own[2] and (row[1], row[2]) != (first, own[2]):
                members.append((other[3], row))  # (its own other passages are no members)
        if any(_named_more(trails.get(i), row[3], own[3]) for i, row in members):
            out[head_id] = frozenset(i for i, _ in members)
    return out


def _place(entry: tuple[str, int, int, str, DefnHit]) -> tuple[str, int, int, str]:
    return entry[:4]


def _next_head(
    top: list[Scored], classes: Mapping[str, frozenset[str]], moved: set[str]
) -> tuple[int, int] | None:
    """The first (class head, its last member below it) positions in ``top``, or None."""
    for a, candidate in enumerate(top):
        members = classes.get(candidate.id)
        if members is None or candidate.id in moved:
            continue
        below = [d for d in range(a + 1, len(top)) if top[d].id in members]
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
