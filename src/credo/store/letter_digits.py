"""A name of letters and a number, written apart ("HTTP/2", "UTF-8", "OAuth 2") or joined
(``http2``, ``utf8``, ``oauth2``): a query in one form also asks for the other.

The index's tokenizer (unicode61) cuts "HTTP/2" into ``http`` and ``2`` but keeps
``http2`` whole: prose writes the protocol apart, code names it joined (``http2=True``,
``encoding="utf8"``), and a reader writes either. A query's joined word also asks for the
phrase ``"http 2"`` (which the index holds wherever the text says "HTTP/2" or "HTTP-2"),
and a name written apart asks for the joined word. A pair that is no name ("below 100",
``int64`` -> "int 64") gives a word or a phrase the index holds nowhere, which changes no
score; a space joins only after a capitalised word ("OAuth 2", "Python 2"), never after
prose ("lines 2", "port 80").
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from functools import cache

from credo.store.fts import MAX_QUERY_CHARS, MAX_QUERY_TERMS

# A number of at most this many digits names a version of the word before it ("HTTP/2",
# "SHA-256"); a longer one is a count, a port or a year.
_MAX_DIGITS = 3


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Letters then digits, apart (by /, - or a space after a capital) and joined; not a
    dotted version's first number ("Python 3.8", "OAuth 2.0": a release, not a name)."""
    digits = rf"\d{{1,{_MAX_DIGITS}}}(?!\w|\.\d)"
    return (
        re.compile(rf"\b(?:([A-Za-z]{{2,}})[-/]|([A-Z][A-Za-z]+) )({digits})"),
        re.compile(rf"([a-z]{{2,}})({digits})"),
    )


def letter_digit_forms(terms: list[str], text: str) -> list[str]:
    """The other form of each letters-and-number name of the query ``text`` and its
    ``terms``: the joined word of one written apart ("HTTP/2" -> "http2") and the phrase
    of one joined (``utf8`` -> "utf 8"), distinct, in first-seen order."""
    apart, joined = _patterns()
    forms = []
    if any(map(str.isdigit, terms)):  # a number written apart is a term of its own
        cut = text[:MAX_QUERY_CHARS]
        forms += [f"{m.group(1) or m.group(2)}{m.group(3)}".lower() for m in apart.finditer(cut)]
    forms += [
        f"{m.group(1)} {m.group(2)}"
        for t in terms
        if not t.isalpha() and (m := joined.fullmatch(t))
    ]
    return list(dict.fromkeys(forms))


def with_letter_digit_forms(terms: list[str], text: str) -> list[str]:
    """``terms``, then the ``letter_digit_forms`` that are not terms already, within
    ``MAX_QUERY_TERMS``; ``terms`` itself when there is none (most queries: no digit)."""
    # (most queries are letters only: one C-level test, ~3k instructions to a digit
    # regex's ~8k under cachegrind)
    if "".join(terms).isalpha():
        return terms
    extra = [f for f in letter_digit_forms(terms, text) if f not in terms]
    if not extra:
        return terms
    return [*terms, *extra][: max(MAX_QUERY_TERMS, len(terms))]
