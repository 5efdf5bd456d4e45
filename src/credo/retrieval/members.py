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


Unit = tuple[str, tuple[str, ...], "DefnHit"]
"""A candidate the rule can read: its file, its trail's titles, and the definition it sits
in there (the lane's row)."""


def members_first(
    ranked: list[Scored], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> list[Scored]:
    """``ranked`` with each class head that the rule above moves just below its last
    member in the first ``TOP`` (best first; the same list when none moves). ``rows``:
    the definitions the keyword hits sit in (``Store.passage_definitions``)."""
    if len(ranked) < 2 or not rows:
        return ranked
    top = ranked[:TOP]
    classes = _classes(_units(top, trails, rows))
    if not classes:
        return ranked  # (no class head with a member among them: nearly every query)
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


def _units(
    top: list[Scored], trails: Mapping[str, str], rows: Mapping[str, list[DefnHit]]
) -> dict[str, Unit]:
    """The candidates of ``top`` with a trail under some title and a row read in its file."""
    units: dict[str, Unit] = {}
    for candidate in top:
        found = rows.get(candidate.id)
        trail = trails.get(candidate.id)
        if found is None or trail is None:
            continue
        path, titles = sections(trail)
        row = next((r for r in found if r[0] == path), None)
        if row is not None and titles:
            units[candidate.id] = (path, titles, row)
    return units


def _classes(units: Mapping[str, Unit]) -> dict[str, frozenset[str]]:
    """Each head among ``units`` whose definition declares members -> its members among
    them (same file, a longer trail under its own, lines inside its lines)."""
    out: dict[str, frozenset[str]] = {}
    for head_id, (path, titles, own) in units.items():
        if not own[5]:
            continue  # (not the head of its definition)
        depth = len(titles)
        members = [
            (member_id, unit)
            for member_id, unit in units.items()
            if unit[0] == path
            and len(unit[1]) > depth  # (the same definition's other passages: not members)
            and unit[1][:depth] == titles
            and own[1] <= unit[2][1]
            and unit[2][2] <= own[2]
        ]
        if any(_named_more(unit[1][-1], unit[2][3], own[3]) for _, unit in members):
            out[head_id] = frozenset(member_id for member_id, _ in members)
    return out


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


def _named_more(title: str, inner: str, outer: str) -> bool:
    """Whether the stored terms ``inner`` (a member's definition, titled ``title``) hold a
    stem of its title more often than ``outer`` (the definition around it) does. Only the
    title's stems are looked up (a find each, not a decode of two long rows): a function
    holds them as often as what is nested in it, and a member uses its own name at least
    on its first line, which its class's row does not count."""
    return any(
        term_count(inner, t) > term_count(outer, t) for t in {stem(w) for w in tokens(title)}
    )
