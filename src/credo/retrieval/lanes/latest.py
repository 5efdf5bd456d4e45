"""The latest lane: "what changed in the latest release" asks for a changelog's newest section.

The question names no version, so no word of it tells the newest section from any other:
on structlog, CHANGELOG.md's 22.2.0 "Changed" ranked first (its text says "heavily
overhauled ... lately") and the newest section, 26.1.0, twelfth; on click, CHANGES.rst's
8.1.8 was no candidate at all (day-probe75, day-rank76). What the question does say is
*which* release: the newest, and the changelog tells it by its version numbers.

A question asks for it when it says latest, newest, most recent, last or current before
release, version, changes, changelog or update (``asks_latest``). Then each changelog file
(retrieval/prior.py's ``is_history``) among the keyword hits, or else each file named as a
changelog is, is read whole (its passages by their anchors, then their trails). A passage
belongs to the first of its trail's titles that holds a version number (``1.0``,
``26.1.0``, ``v2.3.4``; a title without one, "Unreleased", to none), and the passages of
the greatest version, compared as numbers (``10.0`` after ``9.2``: whether the file lists
newest first or last), score 1: they join the candidates, and once ranked they lead
(``latest_first``), in the order the other lanes give them: the question asks for that
release, and a word it shares with an older entry ("changed" in 22.2.0's "Changed") says
nothing of which release it means. On bench/topics.py's blind questions it takes every
"latest release" question from no matching section in 10 to the newest release first;
no question of the other ranking benches asks for it, and none moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from credo.retrieval.prior import is_history
from credo.retrieval.rank import ID, PARTS, SCORE, Ranked
from credo.retrieval.specific import GRAIN, by_id, by_score
from credo.store.changelog import changelog_stems, is_changelog_path
from credo.types import TRAIL_SEPARATOR, split_trail, trail_path

if TYPE_CHECKING:
    from credo.store import Store

# Read on the lowered question, after the cue words (``asks_latest``).
_ASKS = re.compile(
    r"\b(?:latest|newest|most\s+recent|last|current)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:release|version|changes|changelog|update)s?\b"
)
_VERSION = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+)(?![\w.])")
# Most passages read of one changelog (the largest measured: ~1,200 in flask's CHANGES.rst).
READ = 5000


def asks_latest(text: str) -> bool:
    """Whether the question asks for the newest release ("what changed in the latest
    release", "what's in the newest version", "most recent changes")."""
    folded = text.lower()
    # Every match holds one of these words, and most questions none: five substring tests
    # (written out: a generator over them costs more than the tests) skip the pattern's
    # attempt at every position. Instructions a query over the latency bench's questions:
    # the case-insensitive pattern alone 10.5k, these tests first 2.6k.
    if not (
        "last" in folded
        or "latest" in folded
        or "newest" in folded
        or "recent" in folded
        or "current" in folded
    ):
        return False
    return _ASKS.search(folded) is not None


def release_of(trail: str) -> tuple[int, ...] | None:
    """The version of the first of ``trail``'s titles that holds one (``Changelog › 26.1.0 -
    2026-06-06 › Changed`` -> (26, 1, 0)), or None."""
    for title in split_trail(trail).titles:
        if found := _VERSION.search(title):
            return tuple(int(part) for part in found.group(1).split("."))
    return None


def newest(trails: Mapping[str, str]) -> set[str]:
    """The ids among ``trails`` (id -> trail, one changelog's passages) under its greatest
    version; none when no title holds a version."""
    versions = {i: v for i, t in trails.items() if (v := release_of(t)) is not None}
    if not versions:
        return set()
    top = max(versions.values())
    return {i for i, v in versions.items() if v == top}


def latest_scores(store: Store, hit_trails: Mapping[str, str]) -> dict[str, float]:
    """id -> 1 for the newest release's passages of each changelog among ``hit_trails``
    (id -> trail of the keyword hits); when none is, of each file named as a changelog is
    (``CHANGES.md``, ``HISTORY.rst``: a question of no word a changelog holds, "what's new
    in the newest version", still asks for it)."""
    files = _changelogs(hit_trails.values())
    if files:
        found = store.doc_anchor_matches(files, limit=READ)
    else:
        stems = [f"page:{stem}" for stem in sorted(changelog_stems())]
        found = store.doc_anchor_matches(stems, limit=READ)
    by_file: dict[str, list[str]] = {}
    for belief_id, uri in found:
        path = uri.split("#", 1)[0]
        if is_changelog_path(path):
            by_file.setdefault(path, []).append(belief_id)
    scores: dict[str, float] = {}
    for path, ids in by_file.items():
        read = store.trails(ids)
        mine = {i: t for i, t in read.items() if t.split(TRAIL_SEPARATOR, 1)[0] == path}
        scores.update(dict.fromkeys(sorted(newest(mine)), 1.0))
    return scores


def _changelogs(trails: Iterable[str]) -> list[str]:
    """The changelog files (paths) the ``trails`` place passages in, first met first."""
    files: dict[str, None] = {}
    for trail in trails:
        if is_history(trail):
            files.setdefault(trail_path(trail))
    return list(files)


def latest_first(ranked: list[Ranked], newest: Mapping[str, float]) -> list[Ranked]:
    """``ranked`` (score desc, id asc) with the ``newest`` release's passages above every
    other candidate, in their own order: each lifted by the same amount, listed as its part
    ``latest`` (added to the lane's), so the parts still add up to the score. The same list
    when they lead already (or none is ranked)."""
    mine = [s for s in ranked if s[ID] in newest]
    others = [s for s in ranked if s[ID] not in newest]
    if not mine or not others or mine[-1][SCORE] > others[0][SCORE]:
        return ranked
    lift = round(others[0][SCORE] - mine[-1][SCORE] + GRAIN, 9)
    lifted = [
        (
            s[ID],
            round(s[SCORE] + lift, 9),
            {**s[PARTS], "latest": round(s[PARTS].get("latest", 0.0) + lift, 9)},
        )
        for s in mine
    ]
    out = [*lifted, *others]
    out.sort(key=by_id)
    out.sort(key=by_score, reverse=True)
    return out
