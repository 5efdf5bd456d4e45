"""A near tie between two files' passages goes to the file more of the first ranks hold.

compose ranks passages one by one: two passages of different files a few parts in ten
thousand apart are told apart by noise in the lanes' sums (a word's idf, a trail a little
longer), and an exact tie by their ids alone. The other passages of each file among the
first ``TOP`` ranked are evidence the ranking already holds: the file a question reaches
again and again is the likelier answer (passage-level evidence for a document, Callan,
SIGIR 1994; a document's score from its best passages). So each file's first passage in
the first ``TOP`` gains ``SHARE`` of its score for each other passage of its file there,
listed as its part ``support`` (the parts still add up to the score): at most 9 x 0.05%,
enough to settle a near tie and nothing wider. Only a file's first passage moves (with
those of its file tied with it, which gain alike: an exact tie inside one file stays one,
for ``head.by_line_in_ties`` to order), and only up: a file's own passages keep their
order, and a passage with no trail (a note) is left as it is.

Measured (day-ndcg66; docs_multi, the six dev sets, the spent fourteen, topics, constants,
config, project_files, doc_linker, LoCoMo, own_notes): two questions move, each an exact
or near tie at rank 1 between the answer's file and a one- or two-passage neighbour
(black-p12: README.md against docs/index.md, ws-c14: lib/websocket.js against
lib/stream.js; the answer 2nd -> 1st); no other question's metrics change. A wider share
moves more: 0.1% and 0.2% each cost a spent corpus's MRR (scikit-build-core-m04 3rd ->
4th; and pip-t12), and a file-level gain near 5% moves 79 questions, 49 up and 30 down,
14 corpus metrics down: measured, not shipped (docs/BENCHMARKS.md § "Stop 66").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from credo.retrieval.rank import SCORE, Ranked, rescored
from credo.retrieval.specific import TOP, by_id, by_score
from credo.types import trail_path

SHARE = 0.0005  # of a file's first passage's score, per other passage of its file in TOP


def by_file_support(ranked: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``ranked`` (score desc) with each file's first passage in the first ``TOP`` (and those
    of its file tied with it) raised by ``SHARE`` of its score per other passage of its file
    there, then in score order again (stable: a tie keeps the order it had); the same list
    when none gains."""
    if not trails:  # (no passage of a file: a store of notes or conversations)
        return ranked
    top = ranked[:TOP]
    files = list(map(_file, map(trails.get, map(by_id, top))))
    named = [f for f in files if f is not None]
    if len(set(named)) == len(named):
        return ranked  # (every file once: nothing to weigh)
    held = dict.fromkeys(named, 0)  # (a Counter's isinstance checks cost more than ten adds)
    for file in named:
        held[file] += 1
    out = list(top)
    first: dict[str, float] = {}  # each file's first passage's score
    for at, (s, file) in enumerate(zip(top, files, strict=True)):
        if file is None or (more := held[file] - 1) == 0:
            continue
        if first.setdefault(file, s[SCORE]) != s[SCORE]:
            continue  # (a later passage, not in a tie with the file's first)
        out[at] = rescored(s, round(s[SCORE] * (1.0 + SHARE * more), 9), "support")
    out.sort(key=by_score, reverse=True)  # (stable, and stable under reverse)
    return out + ranked[TOP:]


def _file(trail: str | None) -> str | None:
    """The file of a trail (``file_of``), None without one."""
    return file_of(trail) if trail else None


# The file of a trail (``types.trail_path``), asked of the first ranks' trails each query:
# a lookup when met.
file_of = lru_cache(maxsize=8192)(trail_path)
