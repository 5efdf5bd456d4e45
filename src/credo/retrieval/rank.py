"""Score composition: one formula over the lanes, a bounded posterior term, a floor.

    score(b) = h(b) * sum_lane  w_lane * s_lane(b)  +  w_post * (confidence(b) - 1/2)

Each lane score s_lane is in [0, 1] (the lane's raw score divided by its best raw score
among this query's candidates, so no lane's units dominate another's, and a belief that is
not a candidate, a locked one the graph lanes reached, cannot scale a lane down).
confidence = alpha / (alpha + beta), so the posterior term is bounded by +-w_post/2:
feedback reorders near-ties, it never lifts an irrelevant belief over a relevant one; it is
listed among a candidate's parts as ``posterior`` when it is not zero, so the parts always
add up to the score. h(b) is ``Weights.history`` for a passage of a changelog (a record of
past changes that repeats the words of the pages it changed: retrieval/prior.py), else 1;
what it takes off is listed as the part ``history``; likewise ``Weights.tests`` for a
project's test code (unless the question names tests), listed as the part ``tests``; and
``Weights.inner`` for a code passage inside a definition that is not the definition's own
(a docstring paragraph, a comment: retrieval/prior.py), listed as the part ``inner``. A
candidate is kept only if its score reaches ``floor`` times the best score of the query (a
relative relevance floor: weak matches never fill the budget just because it has room).
Ties are broken by belief id.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import sys
from collections.abc import Collection, Iterable, Mapping
from itertools import repeat
from math import isfinite
from operator import itemgetter
from types import MappingProxyType
from typing import Final, NamedTuple, TypeAlias

# The dialog lane has no weight: it changes the bm25f lane's scores (lanes/dialog.py).
DEFAULT_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "bm25f": 1.0,
        "line": 0.5,
        "defn": 0.3,
        "heat": 0.3,
        "bfs": 0.25,
        "hrr": 1.0,
        "doc": 0.8,
        "session": 0.3,
        "date": 0.5,
        "speaker": 0.2,
        "title": 0.5,
        "latest": 1.0,
    }
)


class Weights(NamedTuple):
    lanes: Mapping[str, float] = DEFAULT_WEIGHTS
    posterior: float = 0.05
    floor: float = 0.03
    # A changelog passage's lanes count this much (retrieval/prior.py): measured on the
    # docs bench's three changelogs at 0.85 and 0.7 (docs/BENCHMARKS.md).
    history: float = 0.85
    # Test code's lanes count this much (retrieval/prior.py): measured at 1, 0.85, 0.7, 0.5
    # and 0.3 on five held-out projects with their tests (docs/BENCHMARKS.md § Ranking,
    # fifteenth pass); 0.5 to 0.3 is a plateau.
    tests: float = 0.5
    # A passage inside a definition that is not its head (a docstring paragraph, a comment:
    # retrieval/prior.py) counts this much: measured at 0.9, 0.85, 0.7 and 0.5 on the code
    # sets (docs/BENCHMARKS.md § Ranking, day-code66); 0.85 and below lose urllib3-c01's
    # first file (doc nDCG 1.0 -> 0.5), 0.9 lowers no figure.
    inner: float = 0.9


# A ranked candidate: (its id, its score, its parts), a plain tuple. Every step from
# ``compose`` on makes and passes these. Read one by name through ``ID``, ``SCORE`` and
# ``PARTS``, or unpack it: ``for belief_id, score, parts in ranked``. It is not a NamedTuple
# because a tuple subclass costs ~1.1k instructions more to make (``tuple.__new__``'s
# argument-parsing wrapper, then an allocation outside the tuple free list). It also reads
# slower: ``s[1]`` on a subclass misses 3.11's exact-tuple fast path, and so does its
# unpacking. A warm first pass makes ~110-150 of them a query: -4% of its instructions at
# 10k (issue #17; cachegrind, 111 made: 44k plain, 158k as a NamedTuple).
Ranked: TypeAlias = tuple[str, float, dict[str, float]]
ID: Final = 0
SCORE: Final = 1
PARTS: Final = 2  # part -> its share of the score (each lane, ``posterior``, ...)


class Scored(NamedTuple):
    """A ``Ranked`` read by name: what ``compose_reference`` (the readable form) returns, and
    how tests may name a ranking. It equals the plain tuple of its three fields, so a
    ranking of these compares equal (``==``) to ``compose``'s. The pipeline never makes one."""

    id: str
    score: float
    lanes: dict[str, float]


def as_scored(ranked: Iterable[Ranked]) -> list[Scored]:
    """``ranked`` read by name (the reference forms, tests, a person debugging): the same
    tuples, equal to them, as ``Scored``."""
    return [Scored(*s) for s in ranked]


def rescored(s: Ranked, score: float, part: str) -> Ranked:
    """``s`` at ``score``, the change added to its part ``part`` (rounded as compose rounds),
    so its parts still add up to its score: how a step after compose moves a candidate."""
    parts = dict(s[PARTS])
    parts[part] = round(parts.get(part, 0.0) + score - s[SCORE], 9)
    return (s[ID], score, parts)


def brought_along(belief_id: str, score: float) -> Ranked:
    """A belief in the pack only as a conflict of a relevant one (retrieval/currency.py):
    at its group's ``score``, all of it the part ``contradicts``."""
    return (belief_id, score, {"contradicts": score})


def normalise(raw: Mapping[str, float], among: Mapping[str, object]) -> dict[str, float]:
    """The values of the keys ``among`` (the candidates) divided by the best of them; a lane
    with no positive value among them contributes nothing."""
    kept = {k: v for k, v in raw.items() if k in among}  # (one pass over the lane's scores)
    best = max((v for v in kept.values() if v > 0), default=0.0)  # a NaN is no score
    if best <= 0:
        return {}
    return {k: v / best for k, v in kept.items() if v > 0}


def compose(
    lane_scores: Mapping[str, Mapping[str, float]],
    confidence: Mapping[str, float],
    weights: Weights,
    history: Collection[str] = (),
    tests: Collection[str] = (),
    inner: Collection[str] = (),
    *,
    by_id: bool = False,
) -> list[Ranked]:
    """Rank candidates (the keys of ``confidence``) by the formula above, best first.
    ``by_id``: the caller knows ``confidence``'s keys come in id order (the pipeline's
    candidates do), so the sort by id below would find them so and is skipped.

    The result of ``compose_reference``, float for float (tested), with less work per
    candidate: each lane's scores are walked once (lane by lane, not a lookup per lane per
    candidate), in lane-name order, so each candidate's parts are inserted in the order
    they are summed in and need no sort, and the ranking is two stable C-keyed sorts
    instead of a tuple key per candidate. A lane whose scores are all finite, above zero
    and of candidates has its parts made with no test per entry; with no part taken off
    and one confidence for all (no feedback given), the totals are the lanes' sums
    (C-level).
    """
    # Each candidate's parts, in the candidates' order (usually by id: the sort by id
    # below then finds a single run), filled lane by lane in lane-name order.
    parts_of: dict[str, dict[str, float]] = {i: {} for i in confidence}
    keys = confidence.keys()
    for lane in sorted(lane_scores):
        raw = lane_scores[lane]
        if not raw:
            continue
        weight = weights.lanes.get(lane, 0.0)
        values = raw.values()
        # The usual lane: every key a candidate, every score finite and above zero, none
        # so small against the best that its share is zero: each share made without a test.
        if isfinite(sum(values)) and raw.keys() <= keys:
            # (both ends by one sort of finite numbers: its float compares are inlined,
            # ~29k a query's ~190 scores fewer than ``max`` and ``min``'s rich compares;
            # the same values, and only +-0.0 are equal floats told apart: not above zero)
            ordered = sorted(values)
            best = ordered[-1]
            low = ordered[0]
            if low > 0 and low / best > 0:
                # (a plain loop: its subscripts and float operations are specialised
                # bytecode, ~500 instructions an entry fewer than four ``map`` layers
                # calling ``truediv``, ``mul``, ``__getitem__`` and ``setitem``)
                for belief_id, score in raw.items():
                    parts_of[belief_id][lane] = weight * (score / best)
                continue
        # Else ``normalise`` without its two dicts: the best among the candidates (a C-level
        # pass), then each value in the lane's order divided by it as the loop meets it.
        best = max(map(raw.__getitem__, filter(confidence.__contains__, raw)), default=0.0)
        if best != best:  # a NaN first (max keeps it): the best of the scores above zero
            best = max((v for k, v in raw.items() if k in confidence and v > 0), default=0.0)
        if best <= 0:
            continue
        for belief_id, score in raw.items():
            if score > 0 and belief_id in confidence and (value := score / best):
                parts_of[belief_id][lane] = weight * value
    if not all(parts_of.values()):  # a candidate no lane scored is not ranked
        parts_of = {i: parts for i, parts in parts_of.items() if parts}
    posterior = weights.posterior
    totals: list[float] | None = None
    if (
        (not history or weights.history == 1.0)
        and (not tests or weights.tests == 1.0)
        and (not inner or weights.inner == 1.0)
    ):
        # No part taken off: a total is its lanes' sum plus its prior, and every candidate
        # usually has the same confidence (no feedback yet), so the same prior.
        # (one confidence: all equal to the first, as a set would tell, without hashing
        # each float; a prior of zero: no part ``posterior``, nothing added but to -0.0)
        given = list(confidence.values())
        if given and given.count(given[0]) == len(given) and not posterior * (given[0] - 0.5):
            # (a float start: ``sum`` then skips adding its int 0 to the first float, ~230
            # instructions a candidate; the same floats on 3.11 and 3.12+'s compensated sum)
            sums = list(map(sum, map(dict.values, parts_of.values()), repeat(0.0)))
            if 0.0 not in sums:  # (x + 0.0 is x but for x = -0.0)
                totals = sums
    if totals is None:
        totals = []
        for belief_id, parts in parts_of.items():
            prior = posterior * (confidence[belief_id] - 0.5)
            total = sum(parts.values())
            if belief_id in history and weights.history != 1.0:
                taken = (weights.history - 1.0) * total
                total += taken
                parts["history"] = taken
            elif belief_id in tests and weights.tests != 1.0:
                taken = (weights.tests - 1.0) * total
                total += taken
                parts["tests"] = taken
            elif belief_id in inner and weights.inner != 1.0:
                taken = (weights.inner - 1.0) * total
                total += taken
                parts["inner"] = taken
            total += prior
            if prior:
                parts["posterior"] = prior  # after the sum: the lanes' parts are summed first
            totals.append(total)
    scores = rounded(totals)
    ranked: list[Ranked] = list(zip(parts_of, scores, parts_of.values(), strict=True))
    # (score desc, id asc): sort by id, then stably by score, best first.
    if not by_id:  # (~34k a query's ~110 candidates: their key calls)
        ranked.sort(key=_by_id)
    ranked.sort(key=_by_score, reverse=True)
    if not ranked:
        return ranked
    threshold = weights.floor * ranked[0][SCORE]
    return above_floor(ranked, scores, threshold)


def above_floor(ranked: list[Ranked], scores: list[float], threshold: float) -> list[Ranked]:
    """The candidates of ``ranked`` (best first) whose score reaches ``threshold`` and is
    above zero. ``scores``: the same scores, in any order.

    When every score is finite (their sum is: a NaN or an infinity makes it not), the
    ranking is sorted and what passes is a prefix: nearly always all of it (the floor is
    3% of the best), told by the last alone, else cut where the first fails. A query's
    ~110 candidates then cost one C-level sum, not a test each."""
    if not isfinite(sum(scores)):
        return [s for s in ranked if s[SCORE] >= threshold and s[SCORE] > 0]
    last = ranked[-1][SCORE]
    if last >= threshold and last > 0:
        return ranked
    cut = 0
    for s in ranked:
        if not (s[SCORE] >= threshold and s[SCORE] > 0):
            break
        cut += 1
    return ranked[:cut]


_by_id = itemgetter(ID)  # of a Ranked: its id
_by_score = itemgetter(SCORE)  # its score


def rounded(values: list[float]) -> list[float]:
    """``round(v, 9)`` of each of ``values``, the very same floats, as whole-array steps
    when numpy is loaded already (a warm process; ``round`` with digits formats each float
    as decimal digits, ~0.3 us each).

    ``rint(v * 1e9) / 1e9`` is ``round(v, 9)`` when ``v * 1e9`` rounds to the integer the
    exact product rounds to: ``round`` rounds the exact decimal value to 9 places and
    returns the double nearest to it, and an integer below 2**40 divided by 1e9 (both
    exact) is that double, correctly rounded. The product is within half an ulp (at most
    2**-13 below 2**40) of the exact one, so when it is more than 2**-10 from a half the
    integers agree; the rest (ties, huge, NaN, inf) are given to ``round``.

    Scores are small: when every value is within +-``_SMALL`` (no NaN, no infinity), no
    step can overflow or meet a NaN, so no floating-point warning needs silencing
    (``numpy.errstate`` costs ~11k instructions, a tenth of the whole) and every product
    is below 2**40; the checks are whole-array reductions, not a test per value."""
    if len(values) < _FEW or "numpy" not in sys.modules:
        return [round(v, 9) for v in values]
    import numpy

    given = numpy.fromiter(values, numpy.float64, len(values))
    if numpy.maximum.reduce(numpy.abs(given)) < _SMALL:  # (a NaN makes the maximum NaN)
        scaled = given * 1e9
        near = numpy.rint(scaled)
        out: list[float] = (near / 1e9).tolist()
        off = numpy.abs(scaled - near)
        if numpy.maximum.reduce(off) < _SURE:
            return out
        unsure = off >= _SURE
    else:
        with numpy.errstate(all="ignore"):
            scaled = given * 1e9
            near = numpy.rint(scaled)
            out = (near / 1e9).tolist()
            unsure = ~((numpy.abs(scaled - near) < _SURE) & (numpy.abs(scaled) < _BELOW))
        if not unsure.any():
            return out
    for at in numpy.flatnonzero(unsure).tolist():
        out[at] = round(values[at], 9)
    return out


_FEW = 16  # fewer values: ``round`` one by one costs less than the arrays
_SURE = 0.5 - 2.0**-10
_BELOW = 2.0**40
_SMALL = 1e3  # times 1e9: below 2**40 (~1.1e12)


def compose_reference(
    lane_scores: Mapping[str, Mapping[str, float]],
    confidence: Mapping[str, float],
    weights: Weights,
    history: Collection[str] = (),
    tests: Collection[str] = (),
    inner: Collection[str] = (),
) -> list[Scored]:
    """Rank candidates (the keys of ``confidence``) by the formula above, best first: the
    readable form of ``compose``, which must return exactly the same (tested). The parts
    of each candidate are listed, and summed, in lane-name order."""
    normalised = {lane: normalise(lane_scores[lane], confidence) for lane in sorted(lane_scores)}
    ranked: list[Scored] = []
    for belief_id, conf in confidence.items():
        parts: dict[str, float] = {}
        for lane, scores in normalised.items():
            value = scores.get(belief_id)
            if value:
                parts[lane] = weights.lanes.get(lane, 0.0) * value
        if not parts:
            continue
        prior = weights.posterior * (conf - 0.5)
        total = sum(parts[k] for k in sorted(parts))
        if belief_id in history and weights.history != 1.0:
            parts["history"] = (weights.history - 1.0) * total
            total += parts["history"]
        elif belief_id in tests and weights.tests != 1.0:
            parts["tests"] = (weights.tests - 1.0) * total
            total += parts["tests"]
        elif belief_id in inner and weights.inner != 1.0:
            parts["inner"] = (weights.inner - 1.0) * total
            total += parts["inner"]
        total += prior
        if prior:
            parts["posterior"] = prior
        ranked.append(Scored(belief_id, round(total, 9), parts))
    ranked.sort(key=lambda s: (-s.score, s.id))
    if not ranked:
        return ranked
    threshold = weights.floor * ranked[0].score
    return [s for s in ranked if s.score >= threshold and s.score > 0]
