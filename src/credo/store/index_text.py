"""What the keyword index reads of a text: one rule, for the indexed text and the queries.

unicode61 (store/migrations.py) cuts text at anything that is not a letter or a digit.
Three kinds of text it cannot serve are rewritten first, the same way on both sides: the
FTS5 triggers and view call ``index_text`` as the SQL function ``credo_index_text``
(``register``), and ``fts.query_terms`` and ``stem.tokens`` call it in Python.

- CJK (Han, Hiragana, Katakana, Hangul) is written without spaces, so unicode61 makes a
  whole clause one token and a word inside it is never found. Each run of these letters
  becomes its overlapping character bigrams ("データベース" -> "デー ータ タベ ベー ース"),
  a lone letter itself: what Lucene's CJK analyzer does without a dictionary. A query's
  runs are cut the same way and the bigrams OR-ed like any terms.
- Emoji are symbols, which unicode61 drops. Each emoji becomes a token of its own: one
  private-use character (category Co, which unicode61 keeps) standing for it, so "🚀"
  finds "🚀" and nothing else. Variation selectors, joiners and skin tones are dropped
  ("👍🏽" finds "👍"). ©, ®, ™ and arrows are not emoji here: English text keeps them as
  separators, as before.
- ß and ẞ become "ss", as German writes them in capitals ("GRÖSSE" finds "Größe").

Any other text is returned as it is (all ASCII text among it), so an index of English
text is the same, byte for byte, as without this rule.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from bisect import bisect_right
from functools import cache
from itertools import groupby
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    import sqlite3

SQL_FUNCTION = "credo_index_text"
# The context column as the index reads it (m018: store/compound_words.py), and as schema 17
# read it (m017: store/context_migration.py). A store's view and triggers name the one its
# schema reads by, so a store not yet migrated (a backup restored, a crash mid-m018) is
# checked and written as its rows were indexed: a function never changes what it returns.
CONTEXT_SQL_FUNCTION = "credo_index_context_words"
V17_CONTEXT_SQL_FUNCTION = "credo_index_context"

# Letters written without spaces between words: the letters (Python's word characters, not
# the symbols and marks of these blocks: the katakana middle dot, the voicing marks) of
# Hangul Jamo, 々 〆 〇 and the Hangzhou numerals, Hiragana, Katakana, Hangul compatibility
# Jamo, the CJK unified ideographs (extensions A to G), Hangul syllables and Jamo extended,
# CJK compatibility ideographs, half-width Katakana and Hangul.
_CJK_RANGES = (
    (0x1100, 0x11FF), (0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x3038, 0x303C),
    (0x3041, 0x3096), (0x309D, 0x309F), (0x30A1, 0x30FA), (0x30FC, 0x30FF), (0x3131, 0x318E),
    (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97C), (0xAC00, 0xD7A3),
    (0xD7B0, 0xD7C6), (0xD7CB, 0xD7FB), (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0xFF66, 0xFFBE),
    (0xFFC2, 0xFFC7), (0xFFCA, 0xFFCF), (0xFFD2, 0xFFD7), (0xFFDA, 0xFFDC),
    (0x20000, 0x2A6DF), (0x2A700, 0x2B738), (0x2B740, 0x2B81D), (0x2B820, 0x2CEA1),
    (0x2CEB0, 0x2EBE0), (0x2F800, 0x2FA1D), (0x30000, 0x3134A),
)  # fmt: skip
# Unicode's Extended_Pictographic, less ©, ®, ‼, ⁉, ™, ℹ and the arrows (common in English).
_EMOJI_RANGES = (
    (0x231A, 0x231B), (0x2328, 0x2328), (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA),
    (0x25AA, 0x25AB), (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x2605),
    (0x2607, 0x2612), (0x2614, 0x2685), (0x2690, 0x2705), (0x2708, 0x2712), (0x2714, 0x2714),
    (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734),
    (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755),
    (0x2757, 0x2757), (0x2763, 0x2767), (0x2795, 0x2797), (0x27B0, 0x27B0), (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D),
    (0x3297, 0x3297), (0x3299, 0x3299), (0x1F000, 0x1F0FF), (0x1F10D, 0x1F1FF),
    (0x1F200, 0x1F3FA), (0x1F400, 0x1FAFF),
)  # fmt: skip
# What may follow an emoji and is part of it: variation selectors, the zero-width joiner
# of a sequence (each emoji of "👨‍👩‍👧" is a token) and skin tones. Separators to unicode61.
_EMOJI_TAIL = frozenset("\ufe0e\ufe0f\u200d\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")
# The private-use plane an emoji's token lives in (unicode61 keeps category Co).
_EMOJI_PLANE = 0xF0000
TOKEN_CHARS = "\U000f0000-\U000ffffd"  # for a Python pattern of word characters

# What a character is to the rule.
_SEPARATOR, _WORD, _CJK, _EMOJI, _TAIL = range(5)
_SHARP_S = ("ß", "ẞ")


def _within(ranges: tuple[tuple[int, int], ...], starts: list[int], code: int) -> bool:
    at = bisect_right(starts, code) - 1
    return at >= 0 and code <= ranges[at][1]


_CJK_STARTS = [r[0] for r in _CJK_RANGES]
_EMOJI_STARTS = [r[0] for r in _EMOJI_RANGES]


class _Kinds(dict[str, int]):
    """Character -> its kind, filled on a miss: the rule reads text a character at a time
    through this table (a C dict lookup), not a regular expression, whose classes of
    ~50,000 ideographs cost ~15 ms to compile in every fresh process."""

    def __missing__(self, char: str) -> int:
        code = ord(char)
        if _within(_CJK_RANGES, _CJK_STARTS, code):
            kind = _CJK
        elif _within(_EMOJI_RANGES, _EMOJI_STARTS, code):
            kind = _EMOJI
        elif char in _EMOJI_TAIL:
            kind = _TAIL
        elif char.isalnum() or 0xF0000 <= code <= 0xFFFFD:  # unicode61's L*, N* (and Co)
            kind = _WORD
        else:
            kind = _SEPARATOR
        self[char] = kind
        return kind


_KINDS = _Kinds()
_kind = _KINDS.__getitem__


def has_special(text: str) -> bool:
    """True when ``index_text`` changes ``text`` (never for ASCII text)."""
    if text.isascii():
        return False
    # Every call of the index's triggers asks, so a text's few quotes and dashes must cost
    # little: its UTF-8 less the ASCII bytes (two passes in C) is looked at, not the text.
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    if b"\xc3\x9f" in rest:  # ß
        return True
    leads = rest.translate(None, _BELOW_E1)  # the lead bytes of characters from U+1000
    if not leads:
        return False  # (Latin, Greek, Cyrillic...: nothing this rule reads otherwise)
    # From U+2000 to U+2FFF (lead byte E2) only the emoji from U+2300 are the rule's: the
    # punctuation ("“", "–", "…"), letterlike symbols and arrows are not.
    if not leads.strip(b"\xe2") and _e2_special().search(rest) is None:
        return False
    return any(_is_special(c) for c in set(rest.decode("utf-8", "surrogatepass")))


_ASCII_BYTES = bytes(range(0x80))
_BELOW_E1 = bytes(range(0xE1))


@cache
def _e2_special() -> "re.Pattern[bytes]":
    import re

    return re.compile(rb"\xe2[\x8c-\xbf]")  # U+2300 to U+2FFF


def _is_special(char: str) -> bool:
    return _kind(char) in (_CJK, _EMOJI) or char in _SHARP_S


def cjk_letters(text: str) -> int:
    """How many of ``text``'s characters are CJK letters (written without spaces)."""
    if text.isascii():
        return 0
    return sum(1 for char in text if _kind(char) == _CJK)


def bigrams(run: str) -> list[str]:
    """The overlapping character bigrams of a CJK run; a lone character is itself."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def emoji_token(emoji: str) -> str:
    """The one character the index holds for an emoji (its code point's low 16 bits in
    the private-use plane: the emoji blocks above do not overlap there)."""
    return chr(_EMOJI_PLANE | (ord(emoji) & 0xFFFF))


def _sharp_s(word: str) -> str:
    return word.replace("ß", "ss").replace("ẞ", "ss") if "ß" in word or "ẞ" in word else word


def index_text(text: str) -> str:
    """``text`` as the keyword index reads it (the module's rule); ``text`` itself when the
    rule changes nothing. Its tokens are its own: a bigram, an emoji's token and "ss" are
    read again as themselves."""
    if not has_special(text):
        return text
    out: list[str] = []
    for kind, chars in groupby(text, _kind):
        run = "".join(chars)
        if kind == _CJK:
            out.append(" " + " ".join(bigrams(run)) + " ")
        elif kind == _EMOJI:
            out.append(" " + " ".join(map(emoji_token, run)) + " ")
        elif kind == _WORD:
            out.append(_sharp_s(run))
        elif kind == _SEPARATOR:
            out.append(run)
        else:  # an emoji's tail: a separator, as it is to unicode61
            out.append(" ")
    return "".join(out)


def index_words(text: str) -> list[tuple[int, str]]:
    """(offset in ``text``, token before folding) of each token the index reads from a
    text ``has_special`` is true for: what unicode61 makes of ``index_text(text)``, with
    where each token starts in ``text`` itself (a snippet marks the stored text)."""
    found: list[tuple[int, str]] = []
    at = 0
    for kind, chars in groupby(text, _kind):
        run = "".join(chars)
        if kind == _CJK:
            found += [(at + i, pair) for i, pair in enumerate(bigrams(run))]
        elif kind == _EMOJI:
            found += [(at + i, emoji_token(c)) for i, c in enumerate(run)]
        elif kind == _WORD:
            found.append((at, _sharp_s(run)))
        at += len(run)
    return found


def _sql_index_text(text: object) -> object:
    # NULL and non-text values pass through, as FTS5 would have read them.
    return index_text(text) if isinstance(text, str) else text


def _sql_index_context(content: object, context: object) -> object:
    # m018's context column: ``index_context``'s rule (store/compound_words.py); a
    # non-text value passes through, as FTS5 would have read it.
    if not isinstance(context, str) or not isinstance(content, str):
        return _sql_index_text(context)
    # (imported at a row's first write: a store's open imports this module, not that one)
    from credo.store.compound_words import index_context

    return index_context(content, context)


def _sql_v17_context(content: object, context: object) -> object:
    # m017's context column, as schema 17 read it (store/context_migration.py)
    if not isinstance(context, str) or not isinstance(content, str):
        return _sql_index_text(context)
    from credo.store.context_migration import v17_index_context

    return v17_index_context(content, context)


def register(conn: "sqlite3.Connection") -> None:
    """Make ``credo_index_text`` (and the context column's readings: m018's, m017's)
    callable on ``conn``: the store's FTS5 triggers and its ``beliefs_live`` view (m013,
    m017, m018) call them, so every connection that writes beliefs or checks the index
    needs them."""
    conn.create_function(SQL_FUNCTION, 1, _sql_index_text, deterministic=True)
    conn.create_function(CONTEXT_SQL_FUNCTION, 2, _sql_index_context, deterministic=True)
    conn.create_function(V17_CONTEXT_SQL_FUNCTION, 2, _sql_v17_context, deterministic=True)
