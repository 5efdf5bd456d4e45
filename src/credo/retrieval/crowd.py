"""One file crowding the first ten yields its last place there to a new file (issue #14).

A question that asks for several things is answered from several files as often as from
one; when one file holds half the first ten or more, its last passage there (at rank 6-10)
adds less than the best passage of a file the ten do not show, on nearly the same score.
So, once: when one file holds ``CROWD`` or more of the first ten (the file met first on a
tie in counts), and its last passage there is at rank ``LOW`` + 1 or below, the best passage
ranked 11-``REACH`` whose file is not in the ten takes that passage's place, if its score
is at least ``NEAR`` of it. It takes the yielding passage's score (a tie, placed before it);
what it gains is its part ``crowd`` (the parts still add up to the score); the passages
from that place to rank 10 move down one. A passage with no trail (a note) has no file: it
neither crowds nor takes a place.

The caller gates it on ``spread.asks_several`` (without the gate flask-t15 lost its first
match). Measured (day-mf68's offline simulation, then the whole bench, day-crowd68): the
rule fires in about a quarter of the dev and spent questions, and in four a file of the
answer takes the place: doc nDCG@10 rises on scrapy-m06 (its first match into the ten),
attrs-c14, cibuildwheel-m01 and undici-t03; nothing falls, no group moves. ``NEAR`` 0.8
gives the same; 0.9 loses cibuildwheel-m01's gain; 0.7 lost black's and axios' nDCG, and a
second swap lost mistune-m04's and undici-m05's groups (docs/BENCHMARKS.md, "#14: a
crowded file yields a place").
"""

from __future__ import annotations

from collections.abc import Mapping

from credo.retrieval.rank import ID, SCORE, Ranked, rescored
from credo.retrieval.specific import TOP
from credo.retrieval.support import file_of

CROWD = 5  # passages of one file among the first TOP that crowd them
LOW = 5  # only a place at rank LOW + 1 or below yields (0-based index LOW)
REACH = 20  # the ranks a new file's passage is taken from: TOP + 1 .. REACH
NEAR = 0.85  # the new passage's score at least this share of the yielding one's


def crowd_yields(ranked: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``ranked`` with one crowded file's last place among the first ``TOP`` given to the
    best passage of a new file at ranks ``TOP`` + 1 .. ``REACH`` (as the module says); the
    same list when no file crowds, or no new file's passage is near enough."""
    if len(ranked) <= TOP:
        return ranked
    files = [file_of(t) if (t := trails.get(s[ID])) else None for s in ranked[:TOP]]
    held: dict[str, int] = {}
    for file in files:
        if file is not None:
            held[file] = held.get(file, 0) + 1
    if not held:
        return ranked
    most = max(held.values())
    if most < CROWD:
        return ranked
    crowded = next(f for f in held if held[f] == most)  # (the first met on a tie)
    at = max(i for i, f in enumerate(files) if f == crowded)
    if at < LOW:
        return ranked
    shown = set(held)
    new = None
    for i in range(TOP, min(REACH, len(ranked))):
        trail = trails.get(ranked[i][ID])
        if trail and file_of(trail) not in shown:
            new = i
            break
    if new is None:
        return ranked
    yielding, taking = ranked[at], ranked[new]
    if taking[SCORE] < NEAR * yielding[SCORE]:
        return ranked
    moved = rescored(taking, yielding[SCORE], "crowd")
    return [*ranked[:at], moved, *ranked[at:new], *ranked[new + 1 :]]
