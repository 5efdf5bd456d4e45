"""The title lane: a documentation section whose title is what the question is about.

"testing" asked of a project with a tests/ folder: the porter stem ``test`` is in every
test's path, class and function names, so about half the keyword index holds it, its idf
is near zero, and BM25 ranks the hits by length alone: the short test functions first, and
the page titled "Testing" (docs/testing.md, the answer) 552nd of 773 hits, never a
candidate (day-probe75, structlog). A word common in bodies can still be rare among titles:
a section a writer titled with the question's words is about them, whatever else holds the
words in passing.

A candidate's score is the best share, among the titles of its trail (the page's and each
section's above it), of a title's words that are the question's: "Testing" for "testing"
1, "Testing Flask Applications" a third, "structlog.testing Module" a third. Only
documentation passages (those with line statistics) are read: a code passage's trail
names definitions, which the definition lane reads.

The lane runs only where the keyword index cannot tell the hits apart (``is_flat``: the
candidate cut left hits out and the last one kept scores within ``TIED`` of the best), and
then also brings candidates: the documentation passages whose titles hold one of the
question's stems (``Store.titled``, a scan of the documentation passages' trails), the
best ``BROUGHT`` of them by share, scored by the keyword index like its other hits. Run on
every question, weighed 0.5, it moved 30 of the ranking benches' questions up and 45 down
and lowered each bench's mean doc nDCG@10 (day-rank76): where the keyword index ranks
well, a title sharing a word with the question is no better evidence than the passage's
own words. Run only when flat, no question of the other ranking benches moves (none is
flat); on bench/topics.py's blind questions, nox's and watchdog's "testing" reach their
pages (1st and 2nd, from none in 10) and no question drops.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from credo.retrieval.lanes.line import query_stems
from credo.store.fts import STOPWORDS
from credo.store.stem import stem, tokens
from credo.types import split_trail, trail_path

if TYPE_CHECKING:
    from credo.store import Store

# The keyword hits are flat when the last one kept scores at least this share of the best:
# the question's words are in so many passages that BM25's idf leaves nothing but the
# length norm to rank them ("testing": structlog 0.97, click 0.96, flask 0.96 with ~45% of
# each store a test; "how do I test my application" on flask 0.94; "configuration" on
# each of them 0.46 to 0.71).
TIED = 0.9
# Most passages a flat question's titles may bring (the graph lanes' bound is 60).
BROUGHT = 20
# Most trails read for them: a word in many titles is no topic of its own.
READ = 400


def title_share(trail: str, asked: frozenset[str]) -> float:
    """The best share, among ``trail``'s section titles, of a title's words (stems, without
    stopwords) that are among ``asked`` (the question's stems); 0 when none holds one."""
    best = 0.0
    for title in split_trail(trail).titles:
        words = {stem(t) for t in tokens(title) if t not in STOPWORDS}
        if words and (held := len(words & asked)):
            best = max(best, held / len(words))
    return best


def is_document(trail: str) -> bool:
    """Whether ``trail`` (a passage's) places it in a documentation file, by its name."""
    name = trail_path(trail).rsplit("/", 1)[-1]
    return name.rpartition(".")[2].lower() in _DOCUMENTS if "." in name else False


_DOCUMENTS = frozenset(("md", "markdown", "mdx", "rst", "rest", "txt", "text", "adoc"))


def is_flat(hits: dict[str, float], limit: int) -> bool:
    """Whether the keyword ``hits`` (id -> FTS5 score, best first, as the store ranks them)
    are flat: ``limit`` of them (the cut left others out), the ``limit``-th within ``TIED``
    of the best, so that BM25 told them apart by length, not by the question's words. (The
    user's own beliefs the cut left out follow them: store/own_pool.py.)"""
    if len(hits) < limit or limit <= 0:
        return False
    best = next(iter(hits.values()))
    if len(hits) == limit:
        return best > 0 and next(reversed(hits.values())) >= TIED * best
    return best > 0 and list(hits.values())[limit - 1] >= TIED * best


def brought(store: Store, terms: Iterable[str]) -> dict[str, float]:
    """id -> title share of up to ``BROUGHT`` documentation passages whose titles hold the
    question's words (``Store.titled``), best share first (then id)."""
    asked = frozenset(query_stems(terms))
    if not asked:
        return {}
    found = store.titled(sorted(asked), limit=READ)
    best = sorted((-s, i) for i, t in found.items() if (s := title_share(t, asked)))
    return {i: -s for s, i in best[:BROUGHT]}


def widened(
    store: Store,
    terms: Sequence[str],
    found: dict[str, float],
    known: dict[str, object],
    titled: dict[str, float],
) -> dict[str, float]:
    """``found`` with the pages ``brought`` (put in ``titled``) that the keyword cut left
    out, scored as FTS5 scores them: keyword hits like the others. ``known`` gains their
    rows (the pipeline's candidate rows)."""
    titled.update(brought(store, terms))
    if missing := [i for i in titled if i not in found]:
        known.update(store.live_unlocked(missing))
        found = {**found, **store.keyword_scores(terms, [i for i in missing if i in known])}
    return found


def title_scores(
    terms: Iterable[str], trails: Mapping[str, str], brought: Mapping[str, float]
) -> dict[str, float]:
    """id -> title share (``title_share``) of the documentation passages among ``trails``
    (id -> trail of the candidates) that have one, with those ``brought``."""
    asked = frozenset(query_stems(terms))
    if not asked:
        return dict(brought)
    scores = dict(brought)
    for i, trail in trails.items():
        if i not in scores and is_document(trail) and (share := title_share(trail, asked)):
            scores[i] = share
    return scores
