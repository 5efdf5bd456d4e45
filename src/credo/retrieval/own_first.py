"""A question about the team's own setup is led by the user's own note that best matches it.

In a store of a project's documents and the notes its user adds, a note answers what the
documents cannot: how *this* team uses the library ("the retry limit for our crawls is 5").
The lanes judge a note by its keyword score alone, and the passages around it add what
only a passage can earn (its best line, its definition, its place in the graph of links),
so a note that matches a question as well as a passage ranks below it: on bench/own_notes.py
(three docs trees, 30 notes each) the question's note ranked 2nd-6th where a plain BM25
index put it first, and its MRR@10 was 0.13 (fts5 over docs and notes as one table: 0.21).

Lifting every note over passages that match no better crowds the documentation out of
documentation questions (22 notes entered the first ten of 60 doc questions, measured). So
only a question that speaks of the team ("we", "our", "us": the first person plural, which
a question about the library itself rarely uses) is led by the note: the candidate with no
trail (no passage of a file: a note, a captured statement, a conversation turn, as
``own_unit`` reads them) whose keyword score is the best of such candidates, moved to the
first place, what it gains listed as its part ``own`` (the parts still add up to the
score). Only in a store that holds both: among candidates that are all passages or all
notes (a docs store, a conversation) nothing moves. Ties by id: deterministic.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from collections.abc import Mapping
from math import inf, nextafter

from credo.retrieval.rank import Scored

# The first person plural: the question is about the team's own setup. ("us" in lower case
# only: "a US proxy" is a country.)
_OURS = re.compile(r"\b(?:(?i:we|our|ours|ourselves)|us|Us)\b")


def own_first(
    ranked: list[Scored], trails: Mapping[str, str], text: str, keyword: Mapping[str, float]
) -> list[Scored]:
    """``ranked`` with the best-matching note first, when ``text`` speaks of the team and
    the candidates hold passages (``trails``: id -> trail of those with one) and notes
    (``keyword``: the bm25f lane's raw scores). The same list when nothing moves."""
    if not trails or len(trails) >= len(ranked) or not _OURS.search(text):
        return ranked
    best: Scored | None = None
    best_keyword = 0.0
    for scored in ranked:
        if scored.id in trails:
            continue
        score = keyword.get(scored.id, 0.0)
        if score > best_keyword:  # (ranked by score then id: the first of a tie stays)
            best, best_keyword = scored, score
    if best is None or best is ranked[0]:
        return ranked
    lead = nextafter(ranked[0].score, inf)
    lanes = {**best.lanes, "own": round(lead - best.score, 9)}
    return [Scored(best.id, lead, lanes), *(s for s in ranked if s is not best)]
