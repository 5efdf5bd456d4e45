"""The doc lane: beliefs anchored to a document the query names.

A query that mentions a path (``docs/deploy.md``, or a folder ``docs/ops/``), a file name
(``deploy.md``), a page name (``the glossary page``, ``the install docs``) or a URL scores
the beliefs whose anchors point there. A full path or URL scores 1.0, a bare file name 0.8
(it may name several files), a page name 0.6 (it is a guess). A bare word is a file name
only with a known extension, so "v1.2" or "e.g." never match; a word is a page name only
next to "page", "docs", "guide"... (beside "file" only when written as a name: "the source
file" is a kind of file), so ordinary words such as "types" never match, or when
it is a project file's conventional name written as such, in capitals (``the README``,
``CHANGES: which release...``). A release the query names (``26.1.0``, ``4.0``) is a
place too: the passages whose own section trail names that release add ``RELEASE_SCORE``
to what a named file gives them (``release_scores``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from credo.retrieval.last_answer import keeps_last
from credo.store.fts import STOPWORDS, query_terms
from credo.types import TRAIL_SEPARATOR, split_lines

if TYPE_CHECKING:
    from credo.store import Store

# Extensions that make a bare word a file name rather than an abbreviation or version.
FILE_EXTENSIONS = frozenset(
    "md markdown rst txt py pyi js jsx ts tsx go rs java kt c h cc cpp hpp cs rb php sh bash "
    "zsh toml yaml yml json jsonl ini cfg conf sql html css scss vue svelte swift scala lua "
    "pl r ipynb lock mk dockerfile tf proto graphql xml csv".split()
)
MAX_MENTIONS = 8
PAGE_PREFIX = "page:"  # marks a page-name needle (a file stem, not a path)
# The words a page name must stand beside (lower case; "doc" covers docs and documentation).
_PAGE_WORDS = ("page", "doc", "guide", "chapter", "file")


# The patterns are compiled on first use, and only for a query that could match them (the
# checks in `mentions`): together they cost ~1.3 ms to compile, which a process whose
# queries name no document (a hook run, a one-shot search) need not pay.
@cache
def _url() -> re.Pattern[str]:
    return re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)


@cache
def _path() -> re.Pattern[str]:
    return re.compile(
        r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]*|[\w-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,7})(?![\w/])"
    )


@cache
def _page() -> re.Pattern[str]:
    # "file" is a page word only beside a name: "the source file", "a data file", "the
    # file object" say what kind of file, not which page (a page ``source.rst`` then took
    # the doc lane for a question about combining data). A word written as a name
    # (``release_process file``, ``shell-completion file``) or one the question calls it
    # by (``a file named deploy``) still names one.
    return re.compile(
        r"\b([A-Za-z][\w-]{2,40})\s+(?:page|docs?|documentation|guide|chapter)\b"
        r"|\b(?:page|doc|chapter)\s+(?:called\s+|named\s+)?[\"'`]?([A-Za-z][\w-]{2,40})"
        r"|\b([A-Za-z]\w*[_-][\w-]{1,40})\s+file\b"
        r"|\bfile\s+(?:called\s+|named\s+)[\"'`]?([A-Za-z][\w-]{2,40})",
        re.IGNORECASE,
    )


def page_stem(match: re.Match[str]) -> str:
    """The page name a `_page` match holds, lower-cased (whichever alternative matched)."""
    return next(group for group in match.groups() if group).lower()


# A project's conventional top-level files, named in capitals without their extension.
_CONVENTIONAL_NAMES = (
    "README",
    "CHANGES",
    "CHANGELOG",
    "HISTORY",
    "SECURITY",
    "CONTRIBUTING",
    "LICENSE",
    "AUTHORS",
    "INSTALL",
    "NOTICE",
    "MAINTAINERS",
    "CODE_OF_CONDUCT",
)


@cache
def _conventional() -> re.Pattern[str]:
    """One of ``_CONVENTIONAL_NAMES`` as a whole word (compiled on first use, as above)."""
    return re.compile(r"\b(" + "|".join(_CONVENTIONAL_NAMES) + r")\b")


def _may_name_page(text: str) -> bool:
    """False only when `_page` cannot match: no page word in any case. Outside ASCII,
    IGNORECASE also matches letters such as "ı" and "ſ", so such text is always matched."""
    if not text.isascii():
        return True
    lowered = text.lower()
    return any(word in lowered for word in _PAGE_WORDS)


@keeps_last  # (read by the doc lane, then by the "what does FILE do" gate: retrieval/head.py)
def mentions(query: str) -> list[tuple[str, float]]:
    """Document references in the query, with the score a match on each earns."""
    found: dict[str, float] = {}
    rest = query
    if "://" in query:
        url = _url()
        for match in url.finditer(query):
            found.setdefault(match.group(0).rstrip(".,;:"), 1.0)
            if len(found) >= MAX_MENTIONS:
                break  # each mention costs a read: a pasted list of links stays bounded
        rest = url.sub(" ", query)
    # A path holds a slash, a file name a dot.
    if len(found) < MAX_MENTIONS and ("/" in rest or "." in rest):
        for match in _path().finditer(rest):
            token = match.group(1).strip(".")
            if not token:
                continue
            if "/" in token:
                found.setdefault(token.removeprefix("./"), 1.0)
            elif token.rsplit(".", 1)[-1].lower() in FILE_EXTENSIONS:
                found.setdefault(token, 0.8)
            if len(found) >= MAX_MENTIONS:
                break
    if _may_name_page(rest):
        for match in _page().finditer(rest):
            stem = page_stem(match)
            if stem not in STOPWORDS and stem not in _NOT_PAGES and len(found) < MAX_MENTIONS:
                found.setdefault(PAGE_PREFIX + stem, 0.6)
    if any(name in rest for name in _CONVENTIONAL_NAMES):  # (most queries: no regex run)
        for match in _conventional().finditer(rest):
            if len(found) < MAX_MENTIONS:
                found.setdefault(PAGE_PREFIX + match.group(1).lower(), 0.6)
    return list(found.items())


# Words that precede "page"/"docs" without naming one.
_NOT_PAGES = frozenset(
    "this that which what each every any another same whole first last "
    "next previous main home api python the".split()
)

# Anchors one named document may contribute. The scan is an index range (or one LIKE pass),
# so this is cheap; a small cap would cut a long file at an arbitrary point (rows come in
# doc_uri order, and "#L1000" sorts before "#L2"), leaving most of the named file unscored.
DOC_LANE_LIMIT = 20_000
# A folder names many documents at once: fewer rows, and a lower score than a named file.
FOLDER_LIMIT = 2_000
FOLDER_SCORE = 0.6


def without_named(terms: list[str], paths: list[str], text: str) -> list[str]:
    """The query's terms without the words of the paths it names that the store holds
    (``docs/integrations/github_actions.md: what outputs...`` keeps ``outputs``...), save
    those the question ``text`` also says outside the paths.

    The doc lane scores the named document's passages already. Left in the keyword query,
    the path's words match the trail of every one of its passages alike, and BM25's length
    norm turns that constant into a lift for the shortest of them, over the passage the
    rest of the question is about. A bare file name or a page name is a guess (it may be
    the topic: "the settings in my pyproject.toml"), and a URL names a page the passages
    link to, often in its own words ("the package environ-config"): their words stay; so
    do all of them when nothing else is left. A path word the question says again on its
    own ("extensions/pathconverter.md: what is PathConverter for?") is its topic too: taken
    out, the passages of the page it names lost their subject's word to pages that merely
    share the question's other words."""
    if not paths:
        return terms
    named = {term for path in paths for term in query_terms(path)}
    rest = text
    # (each is a substring of ``text``: ``mentions`` cut it from there; the longest first,
    # so a path inside another leaves no part of the other behind as "said")
    for path in sorted(paths, key=len, reverse=True):
        rest = rest.replace(path, " ")
    named.difference_update(query_terms(rest))
    return [t for t in terms if t not in named] or terms


@cache
def _release() -> re.Pattern[str]:
    """A release: two to four dotted numbers, whole (not the "1.0" of "1.0.2", nor a part
    of a word or a path); a final full stop ends the sentence, not the number. Compiled at
    the first query with a dot, as the patterns above are."""
    return re.compile(r"(?<![\w./-])v?(\d+(?:\.\d+){1,3})(?![\w/-]|\.\d)")


# A named release's passages: as much as a full path, added to what their file is given.
RELEASE_SCORE = 1.0
MAX_RELEASES = 4


def releases(text: str) -> list[str]:
    """The release numbers the query names, distinct, in order (at most ``MAX_RELEASES``)."""
    if "." not in text:
        return []
    found = dict.fromkeys(m.group(1) for m in _release().finditer(text))
    return list(found)[:MAX_RELEASES]


def _titles(trail: str) -> str:
    """A trail's section titles (``path › A › B L4-L9`` -> ``A › B``): the path and the
    line range left out, so a release in a file name or a line number never matches."""
    return split_lines(trail)[0].partition(TRAIL_SEPARATOR)[2]


def release_scores(store: Store, text: str) -> dict[str, float]:
    """``RELEASE_SCORE`` for each passage whose section trail names a release of the query.

    A changelog's sections are its releases, and its passages repeat the same words
    (added, fixed, Python...) release after release: BM25 reads the release's number as
    separate digits, which every date and other release in a trail hold too. So a question
    about "26.1.0" is answered by the passages under that heading, found by the number as
    a phrase in the context field and kept only where a title holds it whole."""
    out: dict[str, float] = {}
    for release in releases(text):
        whole = re.compile(rf"(?<![\w.])v?{re.escape(release)}(?![\w]|\.\d)")  # "v2.1.0" too
        # ("v2.1.0" is the tokens v2, 1 and 0)
        ids = store.context_phrase_ids([release, f"v{release}"], limit=FOLDER_LIMIT)
        for belief_id, trail in store.trails(ids).items() if ids else ():
            if whole.search(_titles(trail)):
                out[belief_id] = RELEASE_SCORE
    return out


def doc_scores(store: Store, text: str) -> tuple[dict[str, float], list[str]]:
    """The doc lane's scores, and the full paths of the query that matched."""
    found = mentions(text)
    named = release_scores(store, text)
    if not found:
        return named, []
    scores: dict[str, float] = {}
    paths: list[str] = []
    for needle, value in found:
        folder = needle.endswith("/")
        limit, score = (
            (FOLDER_LIMIT, min(value, FOLDER_SCORE)) if folder else (DOC_LANE_LIMIT, value)
        )
        matched = False
        for belief_id, _uri in store.doc_anchor_matches([needle], limit=limit):
            scores[belief_id] = max(scores.get(belief_id, 0.0), score)
            matched = True
        # A path (mentions scores a guess below 1); not a URL, which names a page the
        # passages link to, often by its words, not one whose trail they carry.
        if matched and value >= 1.0 and "://" not in needle:
            paths.append(needle)
    for belief_id, value in named.items():  # a named release adds to its file's score
        scores[belief_id] = scores.get(belief_id, 0.0) + value
    return scores, paths
