"""A named file's head first, when the question asks for the file and nothing else.

"what does src/structlog/dev.py do" names a file and asks what it is for: the passage that
says so is the file's head (a module's docstring, a page's title section, a README's
opening). Every passage of the file has the doc lane's score, and the keyword lane meets
the path's words in each one's context alike: BM25's length norm then lifts the shortest
(``_SENTINEL = object()`` first), and its candidate limit cut the docstring out of the
keyword hits, 35th (day-probe71). The question tells none of the file's passages apart,
so the one that opens the file leads them: it is moved to just above the file's best
passage, and what it gains is listed as its part ``head`` (the parts still add up to the
score). Only when every term of the question is a word of the full paths it names (and
the store holds them: ``doc_scores``'s paths); no bench query is such a question.
"""

from __future__ import annotations

from collections.abc import Mapping

from credo.retrieval.rank import Scored
from credo.retrieval.specific import GRAIN, by_id, by_score, sections
from credo.store.fts import query_terms


def names_only(terms: list[str], paths: list[str]) -> bool:
    """Whether ``terms`` (the question's) are all words of the named ``paths``."""
    if not paths or not terms:
        return False
    named = {term for path in paths for term in query_terms(path)}
    return all(term in named for term in terms)


def first_line(trail: str) -> int | None:
    """The first line of a trail's range (``path › A L4-L9`` -> 4); None without one."""
    _, _, lines = trail.rpartition(" L")
    start = lines.split("-", 1)[0]
    return int(start) if start.isdigit() else None


def head_first(ranked: list[Scored], trails: Mapping[str, str], paths: list[str]) -> list[Scored]:
    """``ranked`` (score desc, id asc) with each named file's head passage (its lowest
    first line, then id) just above the file's best passage; the same list when none moves.
    A trail's path is the file's path from the store's root, or ends with the named one."""
    moved = False
    out = list(ranked)
    for path in paths:
        if path.endswith("/"):  # a folder: no one head
            continue
        mine = [
            (at, line, s.id)
            for at, s in enumerate(out)
            if (trail := trails.get(s.id))
            and ((file := sections(trail)[0]) == path or file.endswith("/" + path))
            and (line := first_line(trail)) is not None
        ]
        if not mine:
            continue
        at, _, _ = min(mine, key=lambda m: (m[1], m[2]))
        best = min(m[0] for m in mine)
        if at == best:
            continue
        head = out[at]
        score = round(out[best].score + GRAIN, 9)
        lanes = {**head.lanes, "head": round(score - head.score, 9)}
        out[at] = Scored(head.id, score, lanes)
        moved = True
    if not moved:
        return ranked
    out.sort(key=by_id)
    out.sort(key=by_score, reverse=True)
    return out
