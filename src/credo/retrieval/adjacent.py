"""A near tie goes to the passage that holds two of the question's words side by side.

BM25F scores each query word alone. So a passage that says "environment variables" and
one that says "environment" in one sentence and "variables" in another score alike. Term
proximity is the evidence the bag of words drops (Metzler and Croft's sequential
dependence model, SIGIR 2005; Tao and Zhai, SIGIR 2007). Here the question's words, less
stopwords and stemmed as the index stems them, are read in order, and each two
consecutive ones make a pair. A passage holds a pair when the two stems stand next to each
other (stopwords aside) in its text, in its trail's section titles, or in the rest of its
context (a named path's words are the doc lane's: its own path never counts). Each of the
three is read alone: a pair never spans two of them. Among the first ``TOP`` ranked,
each passage of a file that is not code gains ``SHARE`` of its score for each pair it
holds. The gain is listed as its part ``adjacent``, so the parts still add up to the
score. Code is left out: identifiers side by side are syntax, not phrasing. A note (no
trail) is left as it is too.

Measured (day-sect67; docs_multi, the six dev sets, the spent fourteen, topics,
constants, config, project_files, doc_linker, LoCoMo, agent_day, capture, own_notes and
docs_multi with the three teams' notes beside it):
- At 0.6% three questions move, all up: click-m12 2nd -> 1st (the Deprecating Commands
  section over a changelog entry), setuptools-t02 3rd -> 2nd, undici-m08 9th -> 8th.
  Nothing else moves a figure (75 questions' orders inside the first 10 move).
- Simulated over credo's first 40, the gain moves more questions up than down at every
  share: 1% 5 up / 1 down, 2% 12 / 3, 4% 19 / 9, 6% 23 / 12. From 0.8% up, flask-t02
  falls (its 2.1.0 changelog entry says the answer's words side by side); at 2%
  pip-t02 falls too.
- In code, 1% moves 6 up / 3 down and 3% 16 / 15.
- Read in prose files alone (not config files), 0.6% costs config's black-config MRR
  (0.606 -> 0.593): the changelog gains "line length" beside pyproject.toml, which then
  gained nothing.
Measurements: docs/BENCHMARKS.md § "Stop 67".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from itertools import pairwise

from credo.retrieval.rank import ID, SCORE, Ranked, rescored
from credo.retrieval.specific import by_score, sections
from credo.store.fts import STOPWORDS
from credo.store.identifier import name_parts
from credo.store.stem import stem, tokens
from credo.types import is_code_path, trail_path

TOP = 40  # the ranks read (as spread.py reads them): a near tie past 10 may enter the 10
SHARE = 0.006  # of a passage's score, per pair of the question's words it holds side by side
_NAME = re.compile(r"[^\W_]+")  # (a path's names: ``name_parts`` splits each at case changes)

Extras = Callable[[Iterable[str]], Mapping[str, str]]  # ``Store.index_extras``


def adjacent_first(
    ranked: list[Ranked],
    query: str,
    texts: Mapping[str, str],
    trails: Mapping[str, str],
    extras: Extras,
) -> list[Ranked]:
    """``ranked`` (score desc) with each passage of a non-code file among the first ``TOP``
    raised by ``SHARE`` of its score per pair of ``query``'s words it holds side by side,
    then in score order again (stable: a tie keeps the order it had); the same list when
    none gains. ``texts``: id -> text; ``trails``: id -> trail; ``extras``: what the index
    holds of some ids besides their text (anchor text, then the context: its first line is
    the trail)."""
    if not trails:  # (no passage of a file: a store of notes or conversations)
        return ranked
    asked = _pairs(query)
    if not asked:
        return ranked
    top = ranked[:TOP]
    prose = [s[ID] for s in top if (t := trails.get(s[ID])) is not None and not _code(t)]
    if not prose:
        return ranked
    held = extras(prose)
    gains: dict[str, int] = {}
    for belief_id in prose:
        # The context past its trail (of the trail, its titles alone: a path's words are not
        # phrasing, and a path the question names is the doc lane's). The anchor text comes
        # first and may hold a line break of its own (a link's): cut at the trail's line.
        trail = trails[belief_id]
        _, cut, rest = held.get(belief_id, "").rpartition(f"\n{trail}\n")
        own, titles = _pairs(texts.get(belief_id, "")), _title_pairs(trail)
        more, path = (_pairs(rest), _path_pairs(trail)) if cut else (frozenset(), frozenset())
        if n := sum(1 for p in asked if p in own or p in titles or (p in more and p not in path)):
            gains[belief_id] = n
    if not gains:
        return ranked
    out = list(top)
    for at, s in enumerate(top):
        if (n := gains.get(s[ID])) is None:
            continue
        out[at] = rescored(s, round(s[SCORE] * (1.0 + SHARE * n), 9), "adjacent")
    out.sort(key=by_score, reverse=True)  # (stable, and stable under reverse)
    return out + ranked[TOP:]


@lru_cache(maxsize=8192)  # (a passage met again: its pairs read once)
def _pairs(text: str) -> frozenset[tuple[str, str]]:
    """The pairs of consecutive stems of ``text``'s words, stopwords left out."""
    stems = [stem(t) for t in tokens(text) if t not in STOPWORDS]
    return frozenset(pairwise(stems))


@lru_cache(maxsize=8192)  # (asked of the first TOP's trails each query: a lookup when met)
def _title_pairs(trail: str) -> frozenset[tuple[str, str]]:
    """The pairs of a trail's section titles (read as one text, as the trail writes them)."""
    return _pairs(" ".join(sections(trail)[1]))


@lru_cache(maxsize=8192)  # (the same)
def _path_pairs(trail: str) -> frozenset[tuple[str, str]]:
    """The pairs of a trail's path, its names split at case changes as ingest repeats them
    in the context's second line ("environmentVariables.md": environment, variables): the
    path never counts there either."""
    return _pairs(" ".join(p for w in _NAME.findall(sections(trail)[0]) for p in name_parts(w)))


@lru_cache(maxsize=8192)  # (the same)
def _code(trail: str) -> bool:
    return is_code_path(trail_path(trail))  # (a code file's passages gain nothing)
