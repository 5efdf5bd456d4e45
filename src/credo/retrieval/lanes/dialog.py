"""The dialog lane: in a conversation, the answer to a question is the turn after it.

A question matches a query well (it repeats the words the query asks about) but states
nothing; the turn that follows it, its TEMPORAL_NEXT successor, holds the answer and often
shares few of the query's words ("What did you paint?" / "A sunrise over the lake"). So,
on the keyword (BM25F) scores, before the graph lanes pick their seeds:

    answered question q:   s'(q) = (1 - penalty) * s(q)
    its successor a:       s'(a) = max(s'(a) without this rule, transfer * s(q))

with s the keyword scores as found (so the result does not depend on the order questions
are visited in) and an answered question one with a live, unlocked successor. A question
nobody answered keeps its score. penalty 0.2 and transfer 1.0 were chosen on LoCoMo dev
conversations 26 and 30 and confirmed on 41, 42 and 43 (docs/RETRIEVAL.md).

The lane has no weight of its own: it changes the bm25f lane's scores. ``explain`` splits
the bm25f contribution back into what the keywords earned and what this rule changed, so
``--explain`` shows the rule's share as ``dialog``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from credo.store.fts import CandidateRow

if TYPE_CHECKING:
    from credo.retrieval.rank import Ranked, Weights
    from credo.store import Store

EDGE_TYPE = "TEMPORAL_NEXT"
PENALTY = 0.2
TRANSFER = 1.0
_CLOSERS = "\"')]}»”’"


def is_question(text: str) -> bool:
    """Whether ``text`` ends with a question mark (ASCII or full-width), closing quotes and
    brackets aside."""
    return text.rstrip().rstrip(_CLOSERS).endswith(("?", "？"))


def answered(
    keyword: Mapping[str, float],
    answers: Iterable[tuple[str, str]],
    *,
    penalty: float = PENALTY,
    transfer: float = TRANSFER,
) -> dict[str, float]:
    """The keyword scores after the rule above; ``answers`` are (question, successor) pairs
    with every question among ``keyword``'s keys. Successors may be new beliefs."""
    pairs = list(answers)
    out = dict(keyword)
    for question, _ in pairs:
        out[question] = keyword[question] * (1.0 - penalty)
    for question, successor in pairs:
        value = transfer * keyword[question]
        if value > out.get(successor, 0.0):
            out[successor] = value
    return out


def dialog_step(
    store: Store,
    keyword: dict[str, float],
    rows: dict[str, CandidateRow | None],
    *,
    limit: int,
) -> dict[str, float]:
    """The keyword scores after the rule, a new dict, or ``keyword`` itself when the rule
    changes nothing. One batched read of the questions' successors (at most ``limit``
    pairs), whose rows are added to ``rows`` (id -> row of the keyword hits)."""
    # (a text without a question mark is no question: most are passed over without a call)
    questions = [
        i
        for i in keyword
        if (row := rows.get(i)) is not None
        and ("?" in (text := row[0]) or "？" in text)
        and is_question(text)
    ]
    if not questions:
        return keyword
    pairs, found = store.successors(questions, edge_type=EDGE_TYPE, limit=limit)
    if not pairs:
        return keyword
    rows.update(found)
    return answered(keyword, pairs)


def explain(parts: dict[str, float], before: float, best: float, weight: float) -> None:
    """Split the bm25f contribution of a candidate whose keyword score the rule changed
    (``parts``: lane -> weighted score, edited in place) into the keywords' own share,
    ``bm25f``, and the rule's, ``dialog`` (negative for an answered question). ``before``
    is its keyword score as found (0 for a successor the keywords missed), ``best`` the
    lane's best score after the rule (what compose divided by), ``weight`` the lane's
    weight. The parts still add up to the same score."""
    total = parts.pop("bm25f", 0.0)
    own = weight * before / best
    if own:
        parts["bm25f"] = own
    parts["dialog"] = total - own


def explain_shares(
    ranked: list[Ranked],
    found: Mapping[str, float],
    keyword: Mapping[str, float],
    weights: Weights,
    candidates: Mapping[str, float],
) -> None:
    """Show the rule's share of each changed keyword score as its own part (``explain``):
    ``found`` the keyword scores before the rule, ``keyword`` after."""
    # The best as compose normalised by: over the candidates only.
    best = max((v for k, v in keyword.items() if k in candidates), default=0.0)
    weight = weights.lanes.get("bm25f", 0.0)
    if best <= 0 or not weight:
        return
    changed = {i for i, score in keyword.items() if score != found.get(i)}
    if not changed:
        return
    for belief_id, _, parts in ranked:
        if belief_id in changed:
            explain(parts, found.get(belief_id, 0.0), best, weight)
