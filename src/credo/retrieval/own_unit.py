"""A belief that is no passage of a file is a unit of its own, for the unit lanes too.

Two lanes add evidence that only a passage of a file can earn: the line lane (a
documentation passage by its best line, lanes/line.py) and the definition lane (a code
passage by the whole definition it heads, lanes/defn.py). Both restore what cutting a
file into passages lost: the unit a question is about is a line inside the passage, or the
definition around it. A note the user stated, a captured correction or a conversation turn
(a belief with no trail) was never cut: it is its own best line and its own whole unit.
Scored as if those lanes had judged it zero, it lost every query to passages that only
match as well, by the bonus they alone could earn: ``credo remember "No, the default timeout
is 5 seconds, not 10"`` ranked 17th for "what is the default timeout" on httpx, its keyword
score above eleven ``def get/head/delete/options(..., timeout=USE_CLIENT_DEFAULT)``
signatures that each took the definition lane's 0.263 on top (the part the note could
never have).

So such a belief takes, in the lighter of the unit lanes that scored a candidate, the
lightest unit lane's weight (the definition lane's 0.3: what a passage of either kind could
earn at least) times its keyword share: its bm25f score over the best bm25f score among the
candidates. It is placed in the lane's raw units, so that ``compose``'s normalising and
weighing give exactly that part. Never more than the best passage's part, never more than
any passage could have; a store of notes alone, or of conversation (no line or definition
statistics: no unit lane scores), ranks as before. The part is listed under the lane's own
name, like every part. (Measured: with the line lane's 0.5 in a store of documents, 300
chit-chat notes added to each dev-set store cost pymdown-m03 a rank; at 0.3 nothing moved.)
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Collection, Mapping

UNIT_LANES = ("defn", "line")  # the lanes only a passage of a file can earn


def with_own_units(
    lane_scores: dict[str, dict[str, float]],
    candidates: Collection[str],
    trails: Mapping[str, str],
    weights: Mapping[str, float],
) -> dict[str, dict[str, float]]:
    """``lane_scores`` with each candidate that has no trail (``trails``: id -> trail of
    the passages among ``candidates``, and of no other) scored in the lightest unit lane that
    scored a candidate (``weights``: each lane's weight), by its keyword share; the lane's
    dict is replaced, never changed in place. The same mapping when nothing is added."""
    keyword = lane_scores.get("bm25f")
    # (a store of documents: every candidate has a trail; of notes or turns: no unit lane)
    if not keyword or len(trails) >= len(candidates) or not any(map(lane_scores.get, UNIT_LANES)):
        return lane_scores
    own = [i for i in candidates if i not in trails and keyword.get(i, 0.0) > 0]
    if not own:
        return lane_scores
    # (weight, lane, its best among the candidates) of each unit lane that scored one
    active = [
        (weight, lane, top)
        for lane in UNIT_LANES
        if (weight := weights.get(lane, 0.0)) > 0
        and (top := _best(lane_scores.get(lane, {}), candidates)) > 0
    ]
    if not active:
        return lane_scores
    weight, lane, top = min(active)
    # (in the lane's raw units, the share of the lightest unit lane's weight: a store of
    # documents alone has only the line lane, and a note there takes no more than in code)
    top *= min(weights.get(n, 0.0) for n in UNIT_LANES) / weight
    scores = lane_scores[lane]
    best_keyword = _best(keyword, candidates)
    added = dict(scores)
    for belief_id in own:
        share = keyword[belief_id] / best_keyword
        if share > 0 and share * top > added.get(belief_id, 0.0):
            added[belief_id] = share * top
    return {**lane_scores, lane: added}


def _best(scores: Mapping[str, float], candidates: Collection[str]) -> float:
    """The best score above zero among ``candidates`` (0.0 for none): ``compose``'s
    normaliser."""
    # (C-level passes: no generator step per score)
    found = map(scores.__getitem__, filter(candidates.__contains__, scores))
    return max(filter(_ZERO.__lt__, found), default=0.0)


_ZERO = 0.0
