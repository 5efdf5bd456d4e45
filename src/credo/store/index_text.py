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

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

SQL_FUNCTION = "credo_index_text"

# Letters written without spaces between words: the letters (Python's word characters, not
# the symbols and marks of these blocks: the katakana middle dot, the voicing marks) of
# Hangul Jamo, 々 〆 〇 and the Hangzhou numerals, Hiragana, Katakana, Hangul compatibility
# Jamo, the CJK unified ideographs (extensions A to G), Hangul syllables and Jamo extended,
# CJK compatibility ideographs, half-width Katakana and Hangul.
#
# Each class is listed as ranges, and its code points below U+10000 apart from those above:
# a class of only the first is a bitmap to `re` (one lookup a character), a class mixing
# both a list it walks. Checking a non-ASCII English text (curly quotes, dashes) thus costs
# ~4 us for 200 characters, not ~30.
_CJK_BMP = (
    "\u1100-\u11ff\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3041-\u3096"
    "\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3131-\u318e\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uf900-\ufa6d"
    "\ufa70-\ufad9\uff66-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc"
)
_CJK_ASTRAL = (
    "\U00020000-\U0002a6df\U0002a700-\U0002b738\U0002b740-\U0002b81d\U0002b820-\U0002cea1"
    "\U0002ceb0-\U0002ebe0\U0002f800-\U0002fa1d\U00030000-\U0003134a"
)
_CJK = f"(?:[{_CJK_BMP}]|[{_CJK_ASTRAL}])"
# Unicode's Extended_Pictographic, less ©, ®, ‼, ⁉, ™, ℹ and the arrows (common in English).
_EMOJI_BMP = (
    "\u231a\u231b\u2328\u23cf\u23e9-\u23f3\u23f8-\u23fa\u25aa\u25ab\u25b6\u25c0"
    "\u25fb-\u25fe\u2600-\u2605\u2607-\u2612\u2614-\u2685\u2690-\u2705\u2708-\u2712"
    "\u2714\u2716\u271d\u2721\u2728\u2733\u2734\u2744\u2747\u274c\u274e\u2753-\u2755"
    "\u2757\u2763-\u2767\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55\u3030\u303d"
    "\u3297\u3299"
)
_EMOJI_ASTRAL = (
    "\U0001f000-\U0001f0ff\U0001f10d-\U0001f1ff\U0001f200-\U0001f3fa\U0001f400-\U0001faff"
)
_EMOJI = f"(?:[{_EMOJI_BMP}]|[{_EMOJI_ASTRAL}])"
# What may follow an emoji and is part of it: variation selectors, the zero-width joiner
# of a sequence (each emoji of "👨‍👩‍👧" is a token) and skin tones.
_EMOJI_TAIL = "[\ufe0e\ufe0f\u200d\U0001f3fb-\U0001f3ff]*"
_SHARP_S = "ßẞ"
# The private-use plane an emoji's token lives in (unicode61 keeps category Co).
_EMOJI_PLANE = 0xF0000
TOKEN_CHARS = "\U000f0000-\U000ffffd"  # for a Python pattern of word characters


@cache
def _special_bmp() -> re.Pattern[str]:
    """Any character below U+10000 this rule rewrites (compiled on first non-ASCII text)."""
    return re.compile(f"[{_CJK_BMP}{_EMOJI_BMP}{_SHARP_S}]")


@cache
def _special_astral() -> re.Pattern[str]:
    return re.compile(f"[{_CJK_ASTRAL}{_EMOJI_ASTRAL}]")


@cache
def _astral() -> re.Pattern[str]:
    return re.compile("[\U00010000-\U0010ffff]")


@cache
def _parts() -> re.Pattern[str]:
    return re.compile(f"(?P<cjk>{_CJK}+)|(?P<emoji>{_EMOJI}){_EMOJI_TAIL}|[{_SHARP_S}]")


@cache
def _words() -> re.Pattern[str]:
    """The index's words of a text this rule rewrites, in place: a CJK run, an emoji, or
    a run of other letters and digits (a ß among them)."""
    other = f"(?:[^\\W_{_CJK_BMP}{_CJK_ASTRAL}]|[{TOKEN_CHARS}])+"
    return re.compile(f"(?P<cjk>{_CJK}+)|(?P<emoji>{_EMOJI}){_EMOJI_TAIL}|{other}")


def has_special(text: str) -> bool:
    """True when ``index_text`` changes ``text`` (never for ASCII text)."""
    if text.isascii():
        return False
    if _special_bmp().search(text) is not None:
        return True
    special = _special_astral()  # (a text without a character above U+FFFF: one range)
    return special.search(text) is not None if _astral().search(text) else False


def cjk_letters(text: str) -> int:
    """How many of ``text``'s characters are CJK letters (written without spaces)."""
    if text.isascii():
        return 0
    return sum(len(run) for run in _cjk_runs().findall(text))


@cache
def _cjk_runs() -> re.Pattern[str]:
    return re.compile(f"{_CJK}+")


def bigrams(run: str) -> list[str]:
    """The overlapping character bigrams of a CJK run; a lone character is itself."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def emoji_token(emoji: str) -> str:
    """The one character the index holds for an emoji (its code point's low 16 bits in
    the private-use plane: the emoji blocks above do not overlap there)."""
    return chr(_EMOJI_PLANE | (ord(emoji) & 0xFFFF))


def _rewrite(match: re.Match[str]) -> str:
    run = match.group("cjk")
    if run is not None:
        return " " + " ".join(bigrams(run)) + " "
    emoji = match.group("emoji")
    if emoji is not None:
        return " " + emoji_token(emoji) + " "
    return "ss"


def index_text(text: str) -> str:
    """``text`` as the keyword index reads it (the module's rule); ``text`` itself when the
    rule changes nothing. Its tokens are its own: a bigram, an emoji's token and "ss" are
    read again as themselves."""
    if not has_special(text):
        return text
    return _parts().sub(_rewrite, text)


def index_words(text: str) -> list[tuple[int, str]]:
    """(offset in ``text``, token before folding) of each token the index reads from a
    text ``has_special`` is true for: what unicode61 makes of ``index_text(text)``, with
    where each token starts in ``text`` itself (a snippet marks the stored text)."""
    found: list[tuple[int, str]] = []
    for match in _words().finditer(text):
        start = match.start()
        run = match.group("cjk")
        if run is not None:
            found += [(start + i, pair) for i, pair in enumerate(bigrams(run))]
            continue
        emoji = match.group("emoji")
        if emoji is not None:
            found.append((start, emoji_token(emoji)))
        else:
            word = match.group()
            found.append((start, word.replace("ß", "ss").replace("ẞ", "ss")))
    return found


def _sql_index_text(text: object) -> object:
    # NULL and non-text values pass through, as FTS5 would have read them.
    return index_text(text) if isinstance(text, str) else text


def register(conn: "sqlite3.Connection") -> None:
    """Make ``credo_index_text`` callable on ``conn``: the store's FTS5 triggers and its
    ``beliefs_live`` view (m013) call it, so every connection that writes beliefs or
    checks the index needs it."""
    conn.create_function(SQL_FUNCTION, 1, _sql_index_text, deterministic=True)
