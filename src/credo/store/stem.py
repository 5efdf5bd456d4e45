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
from functools import lru_cache

# unicode61: ASCII letters and digits are token characters, every other ASCII byte
# separates; a non-ASCII letter or digit is a token character (its category, L* or N*).
ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+")
_UNICODE_TOKEN = re.compile(r"[^\W_]+")
_MAX_TOKEN_BYTES = 64  # porter passes longer tokens through unstemmed
_VOWELS = frozenset(b"aeiou")


def fold(word: str) -> str:
    """Lower case without diacritics, as unicode61 with ``remove_diacritics 2`` folds."""
    if word.isascii():
        return word.lower()
    import unicodedata  # only for non-ASCII text

    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    """The folded tokens of ``text`` in order, before stemming."""
    if text.isascii():  # (folding ASCII is lower-casing: once for the whole text)
        return ASCII_TOKEN.findall(text.lower())
    return [fold(m) for m in _UNICODE_TOKEN.findall(text)]


@lru_cache(maxsize=16_384)
def stem(token: str) -> str:
    """The porter stem of one folded token (the Porter 1980 algorithm as SQLite's FTS5
    applies it: over the token's UTF-8 bytes, only to tokens of 3 to 64 bytes)."""
    data = token.encode("utf-8")
    if not 3 <= len(data) <= _MAX_TOKEN_BYTES:
        return token
    word = bytearray(data)
    _step1a(word)
    if _step1b(word):
        _step1b2(word)
    if word[-1:] == b"y" and _has_vowel(word, len(word) - 1):
        word[-1] = ord("i")
    _rules(word, _STEP2)
    _rules(word, _STEP3)
    _rules(word, _STEP4)
    if word[-1:] == b"e":
        n = len(word) - 1
        m = _measure(word, n)
        if m > 1 or (m == 1 and not _cvc(word, n)):
            del word[-1]
    if len(word) > 1 and word[-2:] == b"ll" and _measure(word, len(word) - 1) > 1:
        del word[-1]
    return word.decode("utf-8")


def _consonant(word: bytearray, i: int, previous_consonant: bool) -> bool:
    c = word[i]
    if c in _VOWELS:
        return False
    # "y" is a vowel after a consonant (SQLite: after a consonant, or never at the start).
    return not (c == ord("y") and previous_consonant)


def _pattern(word: bytearray, n: int) -> list[bool]:
    """Consonant flags of ``word[:n]``, SQLite's way: a "y" is a vowel after a consonant."""
    flags: list[bool] = []
    previous = False  # the start counts as a vowel before: a leading "y" is a consonant
    for i in range(n):
        previous = _consonant(word, i, previous)
        flags.append(previous)
    return flags


def _measure(word: bytearray, n: int) -> int:
    """m in [C](VC)^m[V] of ``word[:n]``."""
    m = 0
    seen_vowel = False
    for consonant in _pattern(word, n):
        if not consonant:
            seen_vowel = True
        elif seen_vowel:
            m += 1
            seen_vowel = False
    return m


def _has_vowel(word: bytearray, n: int) -> bool:
    """*v*: ``word[:n]`` holds a vowel ("y" counts after the first letter)."""
    return any(word[i] in _VOWELS or (i > 0 and word[i] == ord("y")) for i in range(n))


def _cvc(word: bytearray, n: int) -> bool:
    """*o: ``word[:n]`` ends consonant-vowel-consonant, the last not w, x or y."""
    if n < 1 or word[n - 1] in b"wxy":
        return False
    flags = _pattern(word, n)
    return len(flags) >= 3 and flags[-3] and not flags[-2] and flags[-1]


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


def _rules(word: bytearray, table: dict[int, tuple[_Rule, ...]]) -> None:
    if len(word) < 2:
        return
    for suffix, condition, output in table.get(word[-2], ()):
        if len(word) > len(suffix) and word.endswith(suffix):
            stem_length = len(word) - len(suffix)
            if condition(word, stem_length):  # type: ignore[operator]
                word[stem_length:] = output
            return
