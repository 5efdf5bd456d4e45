"""The keyword index's tokenizer, in Python: the terms and stems FTS5 indexes.

The index is ``tokenize='porter unicode61 remove_diacritics 2'`` (store/migrations.py):
unicode61 cuts text into runs of letters and digits (anything else, ``_`` included,
separates), lower-cases them and strips diacritics; porter then stems each token of 3 to 64
bytes. Retrieval's compress stage (retrieval/compress.py) needs to know which words of a
passage are the query's terms *as the index sees them*, for every candidate it renders,
without a round trip to SQLite. This module gives the same tokens (tested against FTS5
itself, tests/test_compress.py), so "a sentence carries a query term" means what the
keyword lane's match means.

Pure functions; ``stem`` is cached (words repeat across queries and passages).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from functools import cache, lru_cache

from credo.store.index_text import has_special, index_words

# unicode61: ASCII letters and digits are token characters, every other ASCII byte
# separates; a non-ASCII letter or digit is a token character (its category, L* or N*).
# The ASCII tokens without a regular expression: `str.translate` lower-cases ASCII letters
# and makes every other ASCII character but "\n" a space, then `str.split` cuts the runs
# (a third of `findall`'s work, which was ~6% of ingesting a Markdown tree). "\n" is kept
# for a caller that cuts lines first; `split` takes it as a space.
ASCII_FOLD = str.maketrans(
    {c: c.lower() if c.isalnum() else " " for c in map(chr, range(128)) if c != "\n"}
)


# This pattern and `_vowel`'s are compiled on first use (`cache`): a fresh process that
# stems only ASCII words without a final "y", -ed or -ing (a hook's prompt, often) compiles
# neither (~0.7M instructions).
@cache
def _unicode_token() -> re.Pattern[str]:
    return re.compile(r"[^\W_]+")


_MAX_TOKEN_BYTES = 64  # porter passes longer tokens through unstemmed
_VOWELS = frozenset(b"aeiou")


def fold(word: str) -> str:
    """Lower case without diacritics, as unicode61 with ``remove_diacritics 2`` folds."""
    if word.isascii():
        return word.lower()
    import unicodedata  # only for non-ASCII text

    lowered = word.lower()
    if max(lowered) >= _NO_MARKS:  # kana, Han, Hangul: kept whole
        return "".join(c if c >= _NO_MARKS else _strip(c) for c in lowered)
    decomposed = unicodedata.normalize("NFD", lowered)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# unicode61 removes the diacritics of Latin, Greek and Cyrillic letters, not the voicing
# marks of kana ("デ" stays "デ") nor anything of Hangul ("데" stays whole): from here on,
# a character folds to itself but for its case.
_NO_MARKS = "\u3000"


def _strip(c: str) -> str:
    import unicodedata

    return "".join(x for x in unicodedata.normalize("NFD", c) if not unicodedata.combining(x))


def tokens(text: str) -> list[str]:
    """The folded tokens of ``text`` in order, before stemming (CJK as its bigrams, an
    emoji as its token: store/index_text.py)."""
    if text.isascii():  # (folding ASCII is lower-casing: once for the whole text)
        return text.translate(ASCII_FOLD).split()
    if (plain := _plain(text)) is not None:
        return plain.translate(ASCII_FOLD).split()
    if has_special(text):
        return [fold(word) for _, word in index_words(text)]
    return [fold(m) for m in _unicode_token().findall(text)]


# Non-ASCII characters that only separate, common in English prose, and the "›" of
# credo's trails, which every document passage's context holds: none is a letter or a
# digit (a token character) nor a character `index_text` rewrites, so a text whose only
# non-ASCII characters are these has the tokens of the ASCII text with each one a space.
# Read that way, a context costs a few scans in C instead of a regular expression and a
# call per word (scrapy's docs: 163M -> 49M instructions for its 1,551 contexts, of a
# writer's ~3.4G).
SEPARATORS = "\u203a\u2039\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u00a0"


def _plain(text: str) -> str | None:
    """``text`` with each of `SEPARATORS` a space, when that leaves it ASCII; else None."""
    for separator in SEPARATORS:
        if separator in text:
            text = text.replace(separator, " ")
    return text if text.isascii() else None


def token_count(text: str, at_most: int) -> int:
    """``min(len(tokens(text)), at_most)``, without building the tokens past ``at_most``
    (ingest asks whether a passage is shorter than a floor: most are far longer)."""
    if not text.isascii() and (plain := _plain(text)) is not None:
        text = plain  # (a passage's context, when it is short: `tokens`)
    if text.isascii():  # a split stopped after `at_most` cuts: the rest is one more part
        return min(len(text.translate(ASCII_FOLD).split(None, at_most)), at_most)
    if has_special(text):
        return min(len(index_words(text)), at_most)
    return min(len(_unicode_token().findall(text)), at_most)  # (folding keeps the count)


@lru_cache(maxsize=16_384)
def stem(token: str) -> str:
    """The porter stem of one folded token (the Porter 1980 algorithm as SQLite's FTS5
    applies it: over the token's UTF-8 bytes, only to tokens of 3 to 64 bytes)."""
    data = token.encode("utf-8")
    if not 3 <= len(data) <= _MAX_TOKEN_BYTES or data[-1] not in _ENDINGS:
        return token
    word = bytearray(data)
    if word[-1] == _S:  # (step 1a removes only a final s; step 1b's suffixes end in d, g)
        _step1a(word)
    if (word[-1] == _D or word[-1] == _G) and _step1b(word):
        _step1b2(word)
    if word[-1:] == b"y" and _has_vowel(word, len(word) - 1):
        word[-1] = _I
    for table in _STEPS:  # most words match no suffix: only a table lookup, no call
        rules = table.get(word[-2]) if len(word) > 1 else None
        if rules is not None:
            _rules(word, rules)
    if word[-1:] == b"e":
        n = len(word) - 1
        m = _measure(word, n)
        if m > 1 or (m == 1 and not _cvc(word, n)):
            del word[-1]
    if len(word) > 1 and word[-2:] == b"ll" and _measure(word, len(word) - 1) > 1:
        del word[-1]
    return word.decode("utf-8")


class _Stems(dict[str, str]):
    """token -> `stem`, filled on a miss: a hit is one dict lookup in C, about half the
    cost of a call through `stem`'s lru wrapper, and ingest stems every token of every
    passage and definition (store/line_stats.py, store/defn_stats.py). Emptied when full,
    so a long-lived writer stays bounded."""

    def __missing__(self, token: str) -> str:
        if len(self) >= _STEMS_MAX:
            self.clear()
        found = self[token] = stem(token)
        return found


_STEMS_MAX = 65_536
STEMS = _Stems()
"""`stem` as a table: ``STEMS[token]`` (or ``map(STEMS.__getitem__, tokens)``) for a hot loop."""

# Each byte's kind for `_kinds`: "v" for a, e, i, o, u; "y" for y (its kind depends on the
# byte before it); "c" for any other byte (digits and UTF-8 bytes too, as in SQLite).
_KIND = bytes(
    ord("v") if b in _VOWELS else ord("y") if b == ord("y") else ord("c") for b in range(256)
)
_C, _V, _Y = ord("c"), ord("v"), ord("y")


@cache
def _vowel() -> re.Pattern[bytes]:
    """*v* of step 1b: a vowel, or a "y" after the first byte."""
    return re.compile(rb"[aeiou]|(?s:.)y")


def _kinds(word: bytearray, n: int) -> bytearray:
    """The kind of each byte of ``word[:n]``, "c" (consonant) or "v" (vowel), SQLite's
    way: a "y" is a vowel after a consonant. One ``translate`` in C; only a word with a
    "y" takes the loop."""
    kinds = word[:n].translate(_KIND)
    if _Y in kinds:
        previous = False  # the start counts as a vowel before: a leading "y" is a consonant
        for i, kind in enumerate(kinds):
            if kind == _Y:
                kinds[i] = _V if previous else _C
                previous = not previous
            else:
                previous = kind == _C
    return kinds


def _measure(word: bytearray, n: int) -> int:
    """m in [C](VC)^m[V] of ``word[:n]``: each vowel run that a consonant ends."""
    return _kinds(word, n).count(b"vc")


def _has_vowel(word: bytearray, n: int) -> bool:
    """*v*: ``word[:n]`` holds a vowel ("y" counts after the first letter)."""
    return _vowel().search(word, 0, n) is not None


def _cvc(word: bytearray, n: int) -> bool:
    """*o: ``word[:n]`` ends consonant-vowel-consonant, the last not w, x or y."""
    if n < 3 or word[n - 1] in b"wxy":
        return False
    return _kinds(word, n)[n - 3 :] == b"cvc"


def _step1a(word: bytearray) -> None:
    n = len(word)
    if word[-1] != ord("s"):
        return
    if word[-2] == ord("e"):
        if (n > 4 and word[-4:-2] == b"ss") or (n > 3 and word[-3] == ord("i")):
            del word[-2:]
        else:
            del word[-1]
    elif word[-2] != ord("s"):
        del word[-1]


def _step1b(word: bytearray) -> bool:
    """-eed, -ed, -ing; True when -ed or -ing was removed (step 1b's second part runs)."""
    n = len(word)
    if word.endswith(b"eed") and n > 3:
        if _measure(word, n - 3) > 0:
            del word[-1]
        return False
    for suffix in (b"ed", b"ing"):
        if word.endswith(suffix) and n > len(suffix):
            if word[-2] != suffix[-2]:
                continue
            if _has_vowel(word, n - len(suffix)):
                del word[-len(suffix) :]
                return True
            return False
    return False


def _step1b2(word: bytearray) -> None:
    for suffix in (b"at", b"bl", b"iz"):
        if word.endswith(suffix) and len(word) > 2:
            word.append(ord("e"))
            return
    last = word[-1]
    if last not in _VOWELS and last not in b"lsz" and len(word) > 1 and last == word[-2]:
        del word[-1]
    elif _measure(word, len(word)) == 1 and _cvc(word, len(word)):
        word.append(ord("e"))


def _m_gt0(word: bytearray, n: int) -> bool:
    return _measure(word, n) > 0


def _m_gt1(word: bytearray, n: int) -> bool:
    return _measure(word, n) > 1


def _m_gt1_s_or_t(word: bytearray, n: int) -> bool:
    return n > 0 and word[n - 1] in b"st" and _measure(word, n) > 1


# Each step: the letter before the last -> its rules (suffix, condition on the stem, output),
# tried in order; the first suffix that matches is the only one tried (as SQLite's tables).
_Rule = tuple[bytes, object, bytes]
_STEP2: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"ational", _m_gt0, b"ate"), (b"tional", _m_gt0, b"tion")),
    ord("c"): ((b"enci", _m_gt0, b"ence"), (b"anci", _m_gt0, b"ance")),
    ord("e"): ((b"izer", _m_gt0, b"ize"),),
    ord("g"): ((b"logi", _m_gt0, b"log"),),
    ord("l"): (
        (b"bli", _m_gt0, b"ble"),
        (b"alli", _m_gt0, b"al"),
        (b"entli", _m_gt0, b"ent"),
        (b"eli", _m_gt0, b"e"),
        (b"ousli", _m_gt0, b"ous"),
    ),
    ord("o"): (
        (b"ization", _m_gt0, b"ize"),
        (b"ation", _m_gt0, b"ate"),
        (b"ator", _m_gt0, b"ate"),
    ),
    ord("s"): (
        (b"alism", _m_gt0, b"al"),
        (b"iveness", _m_gt0, b"ive"),
        (b"fulness", _m_gt0, b"ful"),
        (b"ousness", _m_gt0, b"ous"),
    ),
    ord("t"): ((b"aliti", _m_gt0, b"al"), (b"iviti", _m_gt0, b"ive"), (b"biliti", _m_gt0, b"ble")),
}
_STEP3: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"ical", _m_gt0, b"ic"),),
    ord("s"): ((b"ness", _m_gt0, b""),),
    ord("t"): ((b"icate", _m_gt0, b"ic"), (b"iciti", _m_gt0, b"ic")),
    ord("u"): ((b"ful", _m_gt0, b""),),
    ord("v"): ((b"ative", _m_gt0, b""),),
    ord("z"): ((b"alize", _m_gt0, b"al"),),
}
_STEP4: dict[int, tuple[_Rule, ...]] = {
    ord("a"): ((b"al", _m_gt1, b""),),
    ord("c"): ((b"ance", _m_gt1, b""), (b"ence", _m_gt1, b"")),
    ord("e"): ((b"er", _m_gt1, b""),),
    ord("i"): ((b"ic", _m_gt1, b""),),
    ord("l"): ((b"able", _m_gt1, b""), (b"ible", _m_gt1, b"")),
    ord("n"): (
        (b"ant", _m_gt1, b""),
        (b"ement", _m_gt1, b""),
        (b"ment", _m_gt1, b""),
        (b"ent", _m_gt1, b""),
    ),
    ord("o"): ((b"ion", _m_gt1_s_or_t, b""), (b"ou", _m_gt1, b"")),
    ord("s"): ((b"ism", _m_gt1, b""),),
    ord("t"): ((b"ate", _m_gt1, b""), (b"iti", _m_gt1, b"")),
    ord("u"): ((b"ous", _m_gt1, b""),),
    ord("v"): ((b"ive", _m_gt1, b""),),
    ord("z"): ((b"ize", _m_gt1, b""),),
}


_STEPS = (_STEP2, _STEP3, _STEP4)
_D, _G, _I, _S = ord("d"), ord("g"), ord("i"), ord("s")
# The last bytes a step can act on: step 1a's "s", 1b's "d" and "g", 1c's "y", step 5's
# "e" and "l", and the last byte of every suffix of steps 2 to 4. A word that ends in any
# other byte (a digit: half the distinct tokens of a Sphinx tree, "l40", "2019") is its own
# stem, found without the steps' work.
_ENDINGS = frozenset(
    b"sdgyel" + bytes(rule[0][-1] for table in _STEPS for rules in table.values() for rule in rules)
)


def _rules(word: bytearray, rules: tuple[_Rule, ...]) -> None:
    """The first of ``rules`` whose suffix ends ``word``, applied if its condition holds."""
    for suffix, condition, output in rules:
        if len(word) > len(suffix) and word.endswith(suffix):
            stem_length = len(word) - len(suffix)
            if condition(word, stem_length):  # type: ignore[operator]
                word[stem_length:] = output
            return
