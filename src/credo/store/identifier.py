"""The words of a code identifier, as ingest writes them and as a query asks for them.

Ingest writes the names a definition's body uses into its context split into words
(``checkRateLimit`` -> "check rate limit"; knowledge/chunk/code_names.py), since a reader
asks with words. A query word such as ``checkRateLimit`` is one token to FTS5, which finds
the definition (its name as written) but none of its callers, whose context holds only the
words. A snake_case query word needs nothing: FTS5 cuts it at ``_`` into the phrase
``"check rate limit"``, which the callers' context holds. `identifier_phrases` gives a
camelCase or PascalCase query word beside a word that asks who uses it that phrase too,
so "what calls checkRateLimit" finds the callers in TypeScript, Go or Java as "what calls
check_rate_limit" does in Python.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from credo.store.fts import MAX_QUERY_CHARS, MAX_QUERY_TERMS

# Words an identifier splits into: "HTTPConnectionPool" -> HTTP, Connection, Pool;
# "get_backoff_time" -> get, backoff, time; "sha256" -> sha256; an acronym's plural is one
# word: "combineURLs" -> combine, URLs (not UR, Ls), "UUIDs" -> UUIDs; digits join the
# word before them, a plural's as any ("getURLs2" -> get, URLs2, as ingest/context.py reads it);
# an acronym's version is one word with it, as prose writes it: "IPv6Address" -> IPv6,
# Address, "PROTOCOL_TLSv1" -> PROTOCOL, TLSv1 (read as an acronym and a word, "IPv6" was
# I, Pv6: "pv6" alone was indexed, a word nobody asks by).
_WORD_PART = r"[A-Z]{2,}(?:s\d*|v\d+)(?![a-z])|[A-Z]+\d*(?![a-z])|[A-Z]?[a-z]+\d*|\d+"
# Receivers and literals every body names: they say nothing about this one.
NOISE_WORDS = frozenset("self cls this super none true false null nil undefined new".split())
# Query words that ask who uses a name: "what calls checkRateLimit", "where is getUser
# used", "callers of GetUser", "usages of HTTPHeaderDict".
USAGE_WORDS = frozenset(
    """call calls called calling caller callers invoke invokes invoked invoking invocation
    invocations usage usages uses used reference references referenced""".split()
)
# How many words apart a usage word and the name it asks about may stand ("where is the
# getUser helper called": three).
USAGE_REACH = 3
_QUERY_WORD = r"\w+"
# A word whose case changes inside it: a lower-case letter or digit before an upper-case
# one ("checkRateLimit", "GetUser"), or an acronym before a word ("HTTPHeaderDict").
_CASE_CHANGE = r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The word part, query word and case change patterns, compiled at first use: the hook
    imports this module for every prompt, and few prompts ask who uses a name."""
    return re.compile(_WORD_PART), re.compile(_QUERY_WORD), re.compile(_CASE_CHANGE)


class _Shapes(dict[int, str]):
    """A character's shape for `_WORD_PART`, as ``str.translate`` asks for it: an upper-case
    letter of any script is "A", a lower-case one (or a mark on a letter) "a", a digit "0";
    anything else (``_``, a letter without case: CJK, Thai) "_", between words. Found once
    per character."""

    def __missing__(self, code: int) -> str:
        import unicodedata

        char = chr(code)
        if char.isupper():
            shape = "A"
        elif char.isdecimal():
            shape = "0"
        elif char.islower() or (char.isalpha() and char != char.upper()):
            shape = "a"  # (a title-case letter as lower: it starts no word of its own)
        elif unicodedata.category(char).startswith("M"):
            shape = "a"  # a combining mark: part of the letter before it ("naïve" in NFD)
        else:
            shape = "_"
        self[code] = shape
        return shape


_SHAPES = _Shapes()


def letter_shapes(text: str) -> str:
    """``text`` with each character as its shape for `_WORD_PART` ("caféLatte" ->
    "aaaaAaaaa", "ΑλφαΒήτα" -> "AaaaAaaa"): ASCII patterns find names and case changes of
    any script in it, at the same places."""
    return text.translate(_SHAPES)


def name_parts(name: str) -> list[str]:
    """The parts of ``name`` as written, split at case changes and ``_`` (the words of
    `identifier_parts` before they are lower-cased and sifted): of a name of ASCII letters
    and digits, every character is in one part ("SQLAlchemyJobStore" -> SQL, Alchemy, Job,
    Store), so the parts joined give it back. A letter of any script with a case is a
    letter ("İstanbulCity" -> İstanbul, City; "naïveBayes" -> naïve, Bayes): the shapes of
    the characters are split as an ASCII name's, and the parts read from ``name``."""
    part = _patterns()[0]
    if name.isascii():
        return part.findall(name)
    return [name[m.start() : m.end()] for m in part.finditer(letter_shapes(name))]


@lru_cache(maxsize=65_536)
def identifier_parts(identifier: str) -> tuple[str, ...]:
    """The lower-cased words of ``identifier``, split at ``_`` and case changes; single
    letters, numbers and `NOISE_WORDS` left out (they are never written to a context)."""
    # (an ASCII name's parts read here: ``name_parts``' call costs more than its findall)
    parts = _patterns()[0].findall(identifier) if identifier.isascii() else name_parts(identifier)
    words = (part.lower() for part in parts)
    return tuple(w for w in words if len(w) > 1 and not w.isdigit() and w not in NOISE_WORDS)


def identifier_phrases(text: str) -> list[str]:
    """The phrase of words (``"check rate limit"``) of each camelCase or PascalCase word of
    the query ``text`` that splits into two or more and stands within `USAGE_REACH` words
    of a `USAGE_WORDS` word, distinct, in first-seen order.

    Only such a name: the phrase finds the rows that use it (a caller's context), and a
    question about the name itself finds its definition and its mentions by the whole word
    already. Asked for every such word, the phrase counts the name a second time in every
    row that holds both (a definition; a section titled ``GitHub Action``) and a brand word
    of prose (``GitHub``, ``PowerShell``, ``RuntimeError``) a second time too: measured, it
    lost on six of the ten docs and development corpora and won on none; asked whenever
    the query holds a usage word anywhere, it still lost one ("...calling a group ... in
    PowerShell", click). docs/RETRIEVAL.md § Identifiers in a query."""
    phrases: dict[str, None] = {}
    case_change = _patterns()[2]
    for word in _names_asked_about(text):
        if case_change.search(word):
            phrases[" ".join(identifier_parts(word))] = None
    return list(phrases)


def _names_asked_about(text: str) -> list[str]:
    """The words of the query ``text`` of two or more words by `identifier_parts` (camelCase,
    PascalCase, snake_case) standing within `USAGE_REACH` words of a `USAGE_WORDS` word,
    distinct, in first-seen order."""
    words = _patterns()[1].findall(text[:MAX_QUERY_CHARS])
    usage = [i for i, word in enumerate(words) if word.lower() in USAGE_WORDS]
    if not usage:
        return []
    return list(
        dict.fromkeys(
            word
            for i, word in enumerate(words)
            if any(abs(i - u) <= USAGE_REACH for u in usage) and len(identifier_parts(word)) >= 2
        )
    )


def with_identifier_phrases(terms: list[str], text: str) -> list[str]:
    """``terms`` (the query's lower-cased words, as `fts.query_terms` gives them, and more),
    then the `identifier_phrases` of the query ``text``, then the words of
    every name it asks who uses (snake_case ones too), those that are not terms already,
    within ``MAX_QUERY_TERMS``.

    The words too: a body's context writes each word once, where the body first uses it,
    so a caller that names a word of the callee first (``RateLimits.checkRateLimit(...)``
    writes "rate limits check limit") holds the words but not the phrase; about half the
    multi-word names axios's and urllib3's bodies use are so. The phrase ranks the callers
    that hold it first; the words find the others."""
    if USAGE_WORDS.isdisjoint(terms):  # (most queries: no scan of the text)
        return terms
    phrases = identifier_phrases(text)  # (a snake_case word is its phrase already)
    words = [w for name in _names_asked_about(text) for w in identifier_parts(name)]
    extra = [p for p in dict.fromkeys([*phrases, *words]) if p not in terms]
    if not extra:
        return terms
    return [*terms, *extra][: max(MAX_QUERY_TERMS, len(terms))]
