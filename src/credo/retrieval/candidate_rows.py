"""What ranking reads of its candidates' rows, in one pass: the rows, confidences, sessions.

``_rank`` (retrieval/pipeline.py) needs, for each candidate with a row (a locked belief has
none), the row itself, its confidence alpha / (alpha + beta) for composition and its
session for the session lane. Three comprehensions walked the ~110 candidates three times;
one loop filling the three dicts costs ~20% fewer instructions (measured by cachegrind on a
query's recorded rows: ~233k -> ~190k). The dicts hold the same keys, values and order.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Iterable, Mapping

from credo.store.fts import CandidateRow


def candidate_rows(
    candidates: Iterable[str], known: Mapping[str, CandidateRow | None]
) -> tuple[dict[str, CandidateRow], dict[str, float], dict[str, str]]:
    """For each of ``candidates`` (in their order) with a row in ``known`` (None: a locked
    belief, missing: not live): id -> row, id -> its confidence, and id -> its session for
    those that have one."""
    rows: dict[str, CandidateRow] = {}
    confidence: dict[str, float] = {}
    sessions: dict[str, str] = {}
    for belief_id in candidates:
        row = known.get(belief_id)
        if row is not None:
            rows[belief_id] = row
            confidence[belief_id] = row[1] / (row[1] + row[2])
            if row[3] is not None:
                sessions[belief_id] = row[3]
    return rows, confidence, sessions
