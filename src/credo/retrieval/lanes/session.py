"""The session lane: beliefs of the sessions the query is about.

A session (a conversation, a work session: ``belief.session``) whose beliefs match the
query several times is likely the one the query is about, and its other beliefs, the
context around the matching ones, are likely relevant too. A session's score is the sum
of its ``TOP`` best keyword scores (after the dialog lane), so one strong hit counts, and
a few good ones count more, but a long session does not win by its length alone:

    S(g) = sum of the TOP best s_bm25f(b) over the keyword hits b in session g
    s_session(c) = S(session(c))   for every candidate c with a session

The lane adds no candidates (the graph and keyword lanes found them); it lifts those in
the sessions the keywords point at. Beliefs without a session, and stores without
sessions, are untouched. TOP = 3 and the weight (0.3, rank.DEFAULT_WEIGHTS) were chosen on
LoCoMo dev conversations 26 and 30 and confirmed on 41, 42 and 43 (docs/RETRIEVAL.md).
"""

from __future__ import annotations

from collections.abc import Mapping

TOP = 3


def session_scores(
    keyword: Mapping[str, float], session_of: Mapping[str, str | None], *, top: int = TOP
) -> dict[str, float]:
    """S(g) for each session with a keyword hit (hits missing from ``session_of``, or
    without a session, are left out). Each sum adds its scores best first, so the floats
    do not depend on the order the hits come in."""
    per: dict[str, list[float]] = {}
    for belief_id, score in keyword.items():
        session = session_of.get(belief_id)
        if session is not None:
            per.setdefault(session, []).append(score)
    return {g: sum(sorted(scores, reverse=True)[:top]) for g, scores in per.items()}


def session_lane(
    keyword: Mapping[str, float], session_of: Mapping[str, str], *, top: int = TOP
) -> dict[str, float]:
    """s_session of each candidate (``session_of``: candidate -> its session, for the
    candidates that have one) in a session that has keyword hits."""
    if not session_of:  # (no candidate has a session: no hit's is looked up, ~27k a query)
        return {}
    scores = session_scores(keyword, session_of, top=top)
    if not scores:
        return {}
    return {i: scores[g] for i, g in session_of.items() if g in scores}
