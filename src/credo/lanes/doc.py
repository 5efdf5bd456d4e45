"""The doc lane: beliefs anchored to a document the query names.

A query that mentions a path (``docs/deploy.md``, or a folder ``docs/ops/``), a file name
(``deploy.md``), a page name (``the glossary page``, ``the install docs``) or a URL scores
the beliefs whose anchors point there. A full path or URL scores 1.0, a bare file name 0.8
(it may name several files), a page name 0.6 (it is a guess). A bare word is a file name
only with a known extension, so "v1.2" or "e.g." never match; a word is a page name only
next to "page", "docs", "guide"..., so ordinary words such as "types" never match.
"""

from __future__ import annotations

import re

from credo.store.fts import STOPWORDS

_URL = re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)
_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]*|[\w-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,7})(?![\w/])"
)
# Extensions that make a bare word a file name rather than an abbreviation or version.
FILE_EXTENSIONS = frozenset(
    "md markdown rst txt py pyi js jsx ts tsx go rs java kt c h cc cpp hpp cs rb php sh bash "
    "zsh toml yaml yml json jsonl ini cfg conf sql html css scss vue svelte swift scala lua "
    "pl r ipynb lock mk dockerfile tf proto graphql xml csv".split()
)
MAX_MENTIONS = 8
_PAGE = re.compile(
    r"\b([A-Za-z][\w-]{2,40})\s+(?:page|docs?|documentation|guide|chapter|file)\b"
    r"|\b(?:page|doc|chapter|file)\s+(?:called\s+|named\s+)?[\"'`]?([A-Za-z][\w-]{2,40})",
    re.IGNORECASE,
)
PAGE_PREFIX = "page:"  # marks a page-name needle (a file stem, not a path)


def mentions(query: str) -> list[tuple[str, float]]:
    """Document references in the query, with the score a match on each earns."""
    found: dict[str, float] = {}
    for match in _URL.finditer(query):
        found.setdefault(match.group(0).rstrip(".,;:"), 1.0)
    rest = _URL.sub(" ", query)
    for match in _PATH.finditer(rest):
        token = match.group(1).strip(".")
        if not token:
            continue
        if "/" in token:
            found.setdefault(token.removeprefix("./"), 1.0)
        elif token.rsplit(".", 1)[-1].lower() in FILE_EXTENSIONS:
            found.setdefault(token, 0.8)
        if len(found) >= MAX_MENTIONS:
            break
    for match in _PAGE.finditer(rest):
        stem = (match.group(1) or match.group(2)).lower()
        if stem not in STOPWORDS and stem not in _NOT_PAGES and len(found) < MAX_MENTIONS:
            found.setdefault(PAGE_PREFIX + stem, 0.6)
    return list(found.items())


# Words that precede "page"/"docs" without naming one.
_NOT_PAGES = frozenset(
    "this that which what each every any another same whole first last "
    "next previous main home api python the".split()
)
