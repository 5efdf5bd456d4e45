"""In code, a class's head after its members that rank with it.

A class's head passage (its signature, docstring and the lines outside its methods) says
what the class is; its members say what it does. A question about behaviour still meets
the head first: the docstring sums up what the members do, in the words a question uses,
and the heat lane spreads from the members that are hits to the head they all hang from
(DERIVED_FROM), so the head outranked the method asked about (docs/BENCHMARKS.md, issue
#14, day-defn42: rank 1 over a member on questions of every code set). A member in the
first ranks is the finer answer to such a question, and the head stays beside it.

So among the first `TOP` ranked, the head of a definition that declares members, ranked
above some of its own members (same file, their trail extends its trail, their lines
inside its lines), goes just below the last of those members. Its score becomes that
member's less the scores' rounding grain, and what it loses is listed as its part
``members`` (the parts still add up to the score). Nothing else moves: a member ranked
below a candidate of another file stays below it, and a class-level passage that is not
the head (a paragraph of a long docstring) keeps its place.

Which definitions declare members is told by the rows the definition lane read
(store/defn_stats.py), with no flag stored: a class's row counts its own lines only, its
members' lines left to their own rows, so a member's row holds some stem more often than
the class's row does (its name on its ``def`` line, at least). A function's row counts
every line of the functions nested in it, so it holds each of their stems at least as
often: a function never moves (what is nested in it is part of what it does). A head
told apart this way needs its row and a member's, both keyword hits the lane has read;
a candidate the lane did not read (a graph-lane candidate, or the lane switched off) is
left where it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from credo.retrieval.rank import Scored
from credo.retrieval.specific import GRAIN, TOP, by_id, by_score, sections
from credo.store.defn_stats import decode

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
    places = {s.id: sections(t) for s in top if (t := trails.get(s.id)) is not None}
    moved: set[str] = set()
    while (found := _next_head(top, places, rows, moved)) is not None:
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


def _next_head(
    top: list[Scored],
    places: Mapping[str, tuple[str, tuple[str, ...]]],
    rows: Mapping[str, list[DefnHit]],
    moved: set[str],
) -> tuple[int, int] | None:
    """The first (head, its last member) positions in ``top`` the rule moves, or None."""
    for a, candidate in enumerate(top):
        place = places.get(candidate.id)
        if candidate.id in moved or place is None or not place[1]:
            continue
        path, trail = place
        own = _row(rows, candidate.id, path)
        if own is None or not own[5]:
            continue  # (not the head of its definition, or not read)
        last = None
        declares = False
        for d in range(a + 1, len(top)):
            below = places.get(top[d].id)
            if below is None or below[0] != path or below[1][: len(trail)] != trail:
                continue
            if len(below[1]) <= len(trail):
                continue  # (the same definition's other passages: not a member)
            inner = _row(rows, top[d].id, path)
            if inner is None or not (own[1] <= inner[1] and inner[2] <= own[2]):
                continue
            last = d
            declares = declares or _holds_more(inner[3], own[3])
        if last is not None and declares:
            return a, last
    return None


def _row(rows: Mapping[str, list[DefnHit]], belief_id: str, path: str) -> DefnHit | None:
    """The definition ``belief_id`` sits in, in the file ``path``; None when not read."""
    return next((r for r in rows.get(belief_id, ()) if r[0] == path), None)


def _holds_more(inner: str, outer: str) -> bool:
    """Whether stored terms ``inner`` hold some stem more often than ``outer`` does."""
    around = decode(outer)
    return any(count > around.get(stem, 0) for stem, count in decode(inner).items())
