"""A named file's head first, when the question asks for the file and nothing else.

"what does src/structlog/dev.py do" names a file and asks what it is for: the passage that
says so is the file's head (a module's docstring, a page's title section, a README's
opening). Every passage of the file has the doc lane's score, and the keyword lane meets
the path's words in each one's context alike: BM25's length norm then lifts the shortest
(``_SENTINEL = object()`` first), and its candidate limit cut the docstring out of the
keyword hits, 35th (day-probe71). The question tells none of the file's passages apart,
so the one that opens the file leads them: it is moved to just above the file's best
passage, and what it gains is listed as its part ``head`` (the parts still add up to the
score). Only when every term of the question is a word of the files it names, or one of a
few words that ask what a file is ("explain", "purpose": ``ABOUT_A_FILE``): a full path the
store holds (``doc_scores``'s paths) or a bare file name ("what does dev.py do", "what is
conftest.py for"), whose every file of that name leads with its own head. No bench query
is such a question (day-left73: none of the 712 distinct queries under bench/ passes).

And for every question, an exact tie among one file's passages is broken by where they
stand in the file (first line, then id), not by id alone (``by_line_in_ties``): compose
still ranks (score desc, id asc), and only the places a file's passages hold in a tie are
filled again. Measured (day-filehead72): docs_multi and the six dev sets unchanged query
for query, project_files' cove-f03 2nd -> 1st.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from operator import eq

from credo.retrieval.lanes.doc import mentions
from credo.retrieval.rank import ID, PARTS, SCORE, Ranked
from credo.retrieval.specific import GRAIN, by_id, by_score, sections
from credo.store.fts import query_terms
from credo.store.inflection import with_base_words
from credo.types import line_span, split_lines

# Words that ask what a file is, not about a thing in it: "explain src/x.py", "describe the
# purpose of setup.cfg", "what is dev.py used for" ("what", "does", "for" are stopwords). A
# closed list: any other word names a topic, and the passage about it is the answer.
ABOUT_A_FILE = frozenset(
    "explain explains describe describes purpose role job overview summary summarize "
    "summarise file module script used use contain contains contents".split()
)


def names_only(terms: list[str], paths: list[str]) -> bool:
    """Whether ``terms`` (the question's) are all words of the named ``paths`` (or their
    base words: "conftest.py" asks for "conft" too, ``with_base_words``) or words that ask
    what a file is (``ABOUT_A_FILE``), one of them at least a path's."""
    if not paths or not terms:
        return False
    named = {term for path in paths for term in with_base_words(query_terms(path), path)}
    return any(term in named for term in terms) and all(
        term in named or term in ABOUT_A_FILE for term in terms
    )


def asked_files(terms: list[str], paths: list[str], text: str) -> list[str]:
    """The files a question asks for and nothing else ("what does src/x.py do", "what is
    conftest.py for"): the full ``paths`` it names that the store holds (``doc_scores``'s),
    and the bare file names it says (``mentions``' guesses: "dev.py" may be any file of
    that name; ``head_first`` finds those the store holds), when ``names_only``; else none."""
    if not paths and "." not in text:  # (most questions: no file named, no regex run)
        return []
    bare = [name for name, value in mentions(text) if value < 1.0 and _is_file_name(name)]
    named = paths + [name for name in bare if name not in paths]
    return named if names_only(terms, named) else []


def _is_file_name(name: str) -> bool:
    """A bare file name (``dev.py``), not a page's name (``page:readme``) nor a URL."""
    return "/" not in name and ":" not in name and "." in name


def first_line(trail: str) -> int | None:
    """The first line of a trail's range (``path › A L4-L9`` -> 4); None without one."""
    lines = line_span(split_lines(trail)[1])
    return lines[0] if lines else None


def head_first(ranked: list[Ranked], trails: Mapping[str, str], paths: list[str]) -> list[Ranked]:
    """``ranked`` (score desc, id asc) with each named file's head passage (its lowest
    first line, then id) just above the file's best passage; the same list when none moves.
    A trail's path is the file's path from the store's root, or ends with the named one
    (a bare name, ``dev.py``, may be several files: each one's head leads it)."""
    moved = False
    out = list(ranked)
    files: dict[str, list[tuple[int, int, str]]] = {}  # each named file's passages
    for path in paths:
        if path.endswith("/"):  # a folder: no one head
            continue
        for at, s in enumerate(out):
            if (
                (trail := trails.get(s[ID]))
                and ((file := sections(trail)[0]) == path or file.endswith("/" + path))
                and (line := first_line(trail)) is not None
            ):
                files.setdefault(file, []).append((at, line, s[ID]))
    for passages in files.values():  # ("conftest.py": each file of that name its own head)
        mine = list(dict.fromkeys(passages))  # (a file two named paths both match)
        at, _, _ = min(mine, key=lambda m: (m[1], m[2]))
        best = min(m[0] for m in mine)
        if at == best:
            continue
        head = out[at]
        score = round(out[best][SCORE] + GRAIN, 9)
        lanes = {**head[PARTS], "head": round(score - head[SCORE], 9)}
        out[at] = (head[ID], score, lanes)
        moved = True
    if not moved:
        return ranked
    out.sort(key=by_id)
    out.sort(key=by_score, reverse=True)
    return out


def by_line_in_ties(ranked: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``ranked`` (score desc, id asc) with each exact tie's passages of one file in the
    order the file reads (first line, then id), in the places that file's passages hold in
    the tie; the same list when nothing moves. Two passages of a file the question scores
    alike (the same lanes, the same words) are told apart by nothing but their ids: the
    earlier one in the file is the one a reader meets first, a key before its value
    (project_files cove-f03: ``.editorconfig``'s ``[*.py]`` line length, 2nd -> 1st).
    Ties are found at C level (most queries: a few runs of the doc lane's equal scores)."""
    if not trails:  # (a store of notes: no passage has a place in a file)
        return ranked
    scores = list(map(by_score, ranked))
    tied = list(compress(range(len(scores) - 1), map(eq, scores, scores[1:])))
    if not tied:
        return ranked
    out = ranked
    start = end = tied[0]
    for at in [*tied[1:], -2]:  # (-2: a sentinel that ends the last run)
        if at == end + 1:
            end = at
            continue
        run = ranked[start : end + 2]
        again = _in_file_order(run, trails)
        if again is not run:
            if out is ranked:
                out = list(ranked)
            out[start : end + 2] = again
        start = end = at
    return out


def _in_file_order(run: list[Ranked], trails: Mapping[str, str]) -> list[Ranked]:
    """``run`` (tied, by id) with each file's passages in its places by (first line, id)."""
    slots: dict[str, list[int]] = {}
    for at, s in enumerate(run):
        if trail := trails.get(s[ID]):
            slots.setdefault(sections(trail)[0], []).append(at)
    out = run
    for places in slots.values():
        if len(places) < 2:
            continue
        mine = [run[at] for at in places]
        ordered = sorted(mine, key=lambda s: (_line_key(trails[s[ID]]), s[ID]))
        if ordered != mine:
            if out is run:
                out = list(run)
            for at, s in zip(places, ordered, strict=True):
                out[at] = s
    return out


def _line_key(trail: str) -> int:
    line = first_line(trail)
    return _NO_LINE if line is None else line


_NO_LINE = 1 << 62  # a passage with no line range after those with one
