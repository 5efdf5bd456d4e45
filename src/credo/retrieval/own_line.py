"""A note that holds as much of the question as any passage's best line is scored as a line.

In a store of documents and the user's own notes (store/own_pool.py) a passage that matches
a question as well as a note adds its best line (lanes/line.py); a note earns only its
keyword share in a unit lane (own_unit.py), so a note that answers ranks under passages that
only share the question's words. Scoring every note as a one-line passage lifted the notes
that answer, and as much the notes that only share a rare word with a docs question (stop
65: black's doc MRR@10 0.715 -> 0.689 with other teams' notes beside its docs).

What tells the two apart is how much of the question a unit holds: its coverage, the share
of the question's idf mass that the unit's words hold (coordination level, Salton & Buckley
1988, each query stem weighted by its idf over the store's documentation lines, the line
lane's statistics):

    coverage(u) = sum of idf(t) over query stems t in u / sum of idf(t) over query stems t

A passage's line is judged with its context (trail, path words), as the line lane scores it.
A note whose coverage is at least that of every candidate passage's best-covering line is
scored in the line lane as a one-line passage (``best_lines`` over its stems, no context:
the floor keeps a short note from scoring as more than an ordinary line): it ranks as a
passage whose best line holds as much. A note that holds one rare word of a six-word
question, beside passages whose lines hold three of its words, keeps its keyword share
alone. (Measured, stop 66: of 1168 pairs of a docs question and another team's note none
holds as much as the best line, of 93 pairs of a note question and its note 15 do.)

Only the notes (no trail) among the keyword hits, and only when the line lane scored a
passage: a store of documents alone or of notes alone never reaches the step, and answers
byte-identically. It reads what the line lane read a moment before (``line_counts``,
``passage_lines``: ``LineRead``), which every backend answers alike, and nothing else.

A note so scored that is one of the heat lane's seeds keeps its seed there (``own_heat``):
the lane's series leaves e^-t of a seed with no link, where linked passages gather more.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Iterable, Mapping
from itertools import repeat

from credo.retrieval.lanes.line import LineReads, best_lines, fts5_idf
from credo.store.line_stats import LINES
from credo.store.stem import stem, tokens


def coverage(words: Iterable[str], idf: Mapping[str, float]) -> float:
    """The share of the question's idf mass (``idf``: query stem -> idf) that ``words``
    (stems) hold: 0.0 to 1.0."""
    total = sum(idf.values())
    if total <= 0:
        return 0.0
    return _mass(idf.keys() & set(words), idf) / total


def best_line_coverage(lines: str, context: str, idf: Mapping[str, float]) -> float:
    """The coverage of a passage's best-covering line (stored stems, one line a row) with
    its ``context``."""
    total = sum(idf.values())
    if total <= 0:
        return 0.0
    wanted = set(idf)
    around = wanted.intersection(context.split())
    # (C-level intersections; lines holding the same query stems are summed once)
    held = {
        frozenset(around.union(wanted.intersection(line.split()))) for line in lines.split("\n")
    }
    return max(map(_mass, held, repeat(idf))) / total


def _mass(held: Iterable[str], idf: Mapping[str, float]) -> float:
    """The idf mass of the query stems ``held``, summed in one order (bytes-identical)."""
    return sum(idf[t] for t in sorted(held))


def note_line(text: str) -> str:
    """A note's text as the line lane stores a line: its stems, space-separated."""
    return " ".join(stem(t) for t in tokens(text))


def own_line_scores(
    query: list[str],
    counts: Mapping[str, int],
    passages: Mapping[str, tuple[str, str]],
    notes: Mapping[str, str],
) -> dict[str, float]:
    """The line-lane score, as a one-line passage, of each of ``notes`` (id -> text) that
    covers ``query`` (its distinct stems) at least as well as the best-covering line of each
    of ``passages`` (id -> stored (lines, context), the line lane's rows); ``counts``:
    ``line_counts``'. Pure."""
    lines_total = counts.get(LINES, 0)
    if not notes or not passages or lines_total <= 0 or not query:
        return {}
    idf = {t: fts5_idf(lines_total, counts.get(t, 0)) for t in query}
    held = {i: note_line(text) for i, text in sorted(notes.items())}
    covered = {i: coverage(line.split(), idf) for i, line in held.items()}
    most = max(covered.values())
    best = 0.0  # the best-covering line's coverage so far
    wanted = set(idf)
    for lines, context in passages.values():
        # (a passage whole covers at least its best line: one that cannot beat the best so
        # far is not read line by line; once a line beats every note, none is scored)
        whole = wanted.intersection(lines.split()).union(wanted.intersection(context.split()))
        if coverage(whole, idf) <= best:
            continue
        best = max(best, best_line_coverage(lines, context, idf))
        if best > most:
            return {}
    kept = {i: (line, "") for i, line in held.items() if covered[i] >= best and covered[i] > 0}
    return best_lines(kept, query, counts) if kept else {}


def with_own_lines(
    read: LineReads | None,
    lane_scores: dict[str, dict[str, float]],
    keyword: Mapping[str, float],
    trails: Mapping[str, str],
    texts: Mapping[str, str],
    seeds: Mapping[str, float],
) -> dict[str, dict[str, float]]:
    """``lane_scores`` with the line lane raised to ``own_line_scores`` for the notes (no
    trail in ``trails``; their text in ``texts``) among the ``keyword`` hits, and the heat
    lane to ``own_heat`` for those of them among the graph lanes' ``seeds`` (id -> keyword
    score); a lane's dict is replaced, never changed in place. The same mapping when
    nothing is added.
    ``read``: what the line lane read for its scores (``lanes.line.LineRead.read``: the
    query's stems, their ``line_counts`` and the hits' ``passage_lines``), taken as they
    are: the step reads nothing of its own."""
    scored = lane_scores.get("line")
    if not scored or read is None:  # (no passage has lines: a store of notes, or of code)
        return lane_scores
    if keyword.keys() <= trails.keys():  # (a store of documents alone: C-level)
        return lane_scores
    notes = {i: texts[i] for i in keyword if i not in trails and i in texts}
    if not notes:
        return lane_scores
    query, counts, rows = read
    passages = {i: row for i, row in rows.items() if i in trails}
    answering = own_line_scores(query, counts, passages, notes)
    raised = {i: score for i, score in answering.items() if score > scored.get(i, 0.0)}
    out = {**lane_scores, "line": {**scored, **raised}} if raised else lane_scores
    heat = lane_scores.get("heat")
    if answering and heat and (held := own_heat(answering, heat, seeds, trails)):
        return {**out, "heat": {**heat, **held}}
    return out


def own_heat(
    notes: Iterable[str],
    heat: Mapping[str, float],
    seeds: Mapping[str, float],
    trails: Mapping[str, str],
) -> dict[str, float]:
    """The heat lane's score of each of ``notes`` (those the gate scored as a line) that is
    one of the lane's ``seeds`` (``_rank``'s: the best keyword hits, id -> keyword score),
    where it is above what the lane gave it: its seed, the keyword score over the best
    seed's (what a unit with no link keeps under Chung's normalised Laplacian, whose row of
    an isolated vertex is zero), and never more than the best passage's heat (the lane's
    normaliser stays a passage's). Pure."""
    best = max(seeds.values(), default=0.0)
    top = max((v for i, v in heat.items() if i in trails), default=0.0)
    if not best > 0 or not top > 0:
        return {}
    found = {}
    for i in sorted(notes):
        if i in seeds and (value := min(seeds[i] / best, top)) > heat.get(i, 0.0):
            found[i] = value
    return found
