"""The definition lane: a code passage scored by BM25 over its definition as written.

A code passage holds a definition's signature and doc (or a comment inside it), and its
body only as the names it uses, each once (the context field). A question about what a
function does often names what its body keeps coming back to: ``wait_for_socket`` uses
"select" four times and "poll" three, and the function baselines of issue #14, which index
whole definitions, win such questions. This lane adds that unit as evidence of its own
(docs/BENCHMARKS.md § Ranking, ninth pass): each keyword hit that sits in a definition
(store/defn_stats.py: its innermost one) is scored by BM25 over the definition's stem
counts, every use counted,

    f(t, d) = tf(t, d) / (1 - b + b * |d| / avg|d|)
    score(d) = sum over query stems t of idf(t) * f * (k1 + 1) / (f + k1)

with idf over the store's definitions (FTS5's form, floored at 1e-6) and avg|d| their mean
length in tokens. A class (any definition that declares members) is its own lines: its
methods are definitions of their own, and counted in it too they gave the class's head the
evidence of the method a question asked about (day-code42). One passage per definition, as
the baselines hold one row per definition: the body is one piece of evidence, counted
once, and a long definition's passages do not all rise together. That passage is the
definition's own (its head: the signature and doc, anchored at the whole definition), and
only when the head is a keyword hit that shows what is asked: by its own words (its text,
signature and doc, holds a query stem), or as the best keyword hit within the definition's
lines, the passages of the definitions nested in it included (a class's methods, a
function's inner functions: issue #14, day-code41). The score is the whole body's
evidence, and the head is what it describes. Given to a docstring paragraph or a comment
inside the definition, it lifted a passage about one detail (a ``:param historic:``
paragraph, a comment of ``TimestampSigner.unsign``, a class docstring's list of its
methods) over the definitions questions were about (docs/BENCHMARKS.md § Ranking,
fourteenth pass and day-code21's pass). A head that is a hit only through its context
field, below a passage inside it, matched the body's names once each: the evidence this
lane counts already, and no sign that the head shows what the question asks. Such heads
are the containing ones (``async function dispatchHttpRequest(resolve, reject, onDone)``
over 929 lines, ``class ReceiveBuffer`` over its methods). Then, and when the head is no
hit at all, no passage carries the definition: the passages inside it keep their own
scores. A passage whose text is in two files sits in a definition of each, and takes the
best score of those it carries. Documentation, notes, and code passages outside every
definition (module docstrings, module-level comments and statements) get no score.
``compose`` normalises the lane among the candidates like every lane.

All the statistics are lookups (two indexed queries); a store without definitions (known
per store version) asks nothing beyond that. The only text tokenised at query time is a
head's, and only when another passage within its definition is the better keyword hit (the
one case where the choice matters): a signature and its doc, already in memory with the hit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from credo.retrieval.lanes.line import QueryStems, fts5_idf
from credo.store.defn_stats import DEFINITIONS, LENGTH
from credo.store.stem import stem, tokens

if TYPE_CHECKING:
    from credo.store import Store
    from credo.store.defns import DefnHit

Key = tuple[str, int, int]
"""A definition: (file, first line, last line)."""

# The middle of the region measured (docs/BENCHMARKS.md § Ranking, ninth pass): b over
# 0.2-0.4 and the weight (retrieval/rank.py) over 0.15-0.3 hold every figure but axios-c15.
# With a sixth corpus (requests) the weight moved to 0.3, the middle of 0.25-0.35, where
# all six corpora hold (twelfth pass).
K1 = 1.2
B = 0.3


class DefnRead(NamedTuple):
    """The lane's scores, and the rows it read: the definitions the keyword hits sit in
    (``Store.passage_definitions``), which retrieval/members.py reads too."""

    scores: dict[str, float]
    rows: Mapping[str, list[DefnHit]]


def nothing_read() -> DefnRead:
    """No scores and no rows: fresh dicts each time (the scores end up in a query's
    lane_scores, where a shared one would carry a change into the next query)."""
    return DefnRead({}, {})


def defn_scores(
    store: Store, terms: Iterable[str], hits: Mapping[str, float], text: Callable[[str], str]
) -> DefnRead:
    """Each keyword hit that carries its definition -> the definition's score (``text``:
    a hit's text, read with it), and the rows read for them. ``terms``: the query's, or a
    ``QueryStems`` of them (the caller's, shared)."""
    if not hits:
        return nothing_read()
    asked = terms if isinstance(terms, QueryStems) else QueryStems(terms)
    # (first: a store without code has nothing to read, and its stems are never made)
    counts = store.defn_counts(asked)
    if not counts.get(DEFINITIONS):
        return nothing_read()
    query = asked.stems()
    if not query:
        return nothing_read()
    rows = store.passage_definitions(hits)
    if not rows:
        return nothing_read()
    return DefnRead(best_definitions(rows, hits, query, counts, text), rows)


def best_definitions(
    rows: Mapping[str, list[DefnHit]],
    hits: Mapping[str, float],
    query: list[str],
    counts: Mapping[str, int],
    text: Callable[[str], str],
) -> dict[str, float]:
    """The lane over stored rows (passage id -> the definitions it sits in, and whether it
    is each one's head) with the keyword ``hits``' scores, ``defn_df``'s ``counts`` and
    the hits' ``text``: pure, so its invariants are tested without a store."""
    total = counts.get(DEFINITIONS, 0)
    if total <= 0 or not query:
        return {}
    mean = max(counts.get(LENGTH, 0) / total, 1.0)
    # (each stem as the stored terms spell it, `` stem:``, with its idf: found by a search)
    # (a stem no definition holds is in none of them: not searched for)
    needles = [(f" {t}:", fts5_idf(total, counts[t])) for t in query if counts.get(t, 0) > 0]
    if not needles:
        return {}
    scored: dict[Key, float] = {}
    best: dict[Key, str] = {}  # the best keyword hit
    heads: dict[Key, list[str]] = {}  # the head among the hits (one, but for a shared span)
    for belief_id in sorted(rows):
        for file, start, end, terms, length, head in rows[belief_id]:
            key = (file, start, end)
            if key not in scored:
                scored[key] = _score(terms, length, mean, needles)
            held = best.get(key)
            if held is None or hits.get(belief_id, 0.0) > hits.get(held, 0.0):
                best[key] = belief_id  # (ids in order: a tie keeps the smaller id)
            if head:
                heads.setdefault(key, []).append(belief_id)
    wanted = frozenset(query)
    out: dict[str, float] = {}
    for key, belief_id in _best_within(best, hits).items():
        score = scored[key]
        carrier = _carrier(belief_id, heads.get(key, ()), wanted, text)
        if carrier is not None and score > 0 and score > out.get(carrier, 0.0):
            out[carrier] = score
    return out


def _best_within(best: Mapping[Key, str], hits: Mapping[str, float]) -> dict[Key, str]:
    """Each definition -> its best keyword hit among all the hits within its lines, those
    of the definitions nested in it included (``best``: each definition's best among the
    hits it is the innermost definition of). A class is the innermost definition of its
    head and the comments between its methods only, so by those alone its head was nearly
    always its best hit, and carried the score of the whole class, methods and all, on
    any hit through its context field. A tie keeps the definition's own best."""
    out = dict(best)
    # In (file, start, longest first) order, the definitions nested in one follow it:
    # those starting before it ends (a reader's definitions nest or stand apart).
    order = sorted(best, key=lambda k: (k[0], k[1], -k[2]))
    for at, key in enumerate(order):
        file, _, end = key
        winner = best[key]
        for next_at in range(at + 1, len(order)):  # (no skip, no copy of what follows)
            inner = order[next_at]
            if inner[0] != file or inner[1] > end:
                break
            if inner[2] <= end and hits.get(best[inner], 0.0) > hits.get(winner, 0.0):
                winner = best[inner]
        out[key] = winner
    return out


def _carrier(
    best: str, heads: Sequence[str], wanted: frozenset[str], text: Callable[[str], str]
) -> str | None:
    """The passage that takes one definition's score: its head (``heads``: those among the
    hits, ids in order) when the head is the ``best`` keyword hit or its own words hold a
    query stem; else none (a passage inside it, not the definition, matched)."""
    if not heads:
        return None  # (the head is no hit: nothing stands for the definition)
    if heads[0] == best == heads[-1]:
        return best  # (the head is the best hit: no text to read)
    for belief_id in heads:
        if speaks(text(belief_id), wanted):
            return belief_id
    return best if best in heads else None


def speaks(text: str, wanted: frozenset[str]) -> bool:
    """Whether ``text``, tokenised and stemmed as FTS5 indexes it, holds a stem of ``wanted``."""
    return any(stem(t) in wanted for t in tokens(text))


def _score(terms: str, length: int, mean: float, needles: list[tuple[str, float]]) -> float:
    norm = 1 - B + B * length / mean
    score = 0.0
    for needle, idf in needles:  # (the query's order: the sum is the same float every run)
        at = terms.find(needle)
        if at >= 0:
            at += len(needle)
            f = int(terms[at : terms.index(" ", at)]) / norm
            score += idf * f * (K1 + 1) / (f + K1)
    return score
