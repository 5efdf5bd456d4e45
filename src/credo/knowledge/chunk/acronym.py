"""The acronyms a project defines in its own prose: "version control system (VCS)".

A reader asks about "version control" where the pages say VCS, or about the CLI where the
pages say "command-line interface"; no stemmer brings the two together, and a general word
list was measured and rejected (bench/synonym_trial.md § 5). The project bridges the gap
itself where it spells an acronym out once: Schwartz and Hearst, "A simple algorithm for
identifying abbreviation definitions in biomedical text" (PSB 2003), find such a definition
as a short form in parentheses beside a long form whose words it abbreviates, or the
reverse ("VCS (version control system)").

Their matching finds the short form's characters in the long form in order, the first at
the start of a word. It is kept here in a stricter form for software prose, where
parentheses mostly hold code, defaults and asides ("(optional)", "(default)", "(e.g.
``x``)"):

- the short form is one token of 2-10 characters, a letter first, with at least two
  capital letters ("VCS", "CLI", "URLs", "reST"): a lower-case word in parentheses is
  nearly always a word, not an acronym;
- the long form is 2-6 plain words that start with letters and hold no capital letter
  past a word's first ("version control system", "Command Line Interface"), none of them
  the short form itself;
- every word of the long form starts one of the short form's letters, in order, save the
  stopwords Schwartz and Hearst let the match skip ("Grand Canal of China (GCC)"); a
  letter between two initials must sit inside the earlier word ("regular expression
  (RegEx)"). The character match alone takes a word for any letter it holds: "prints
  the full tree (CST)" would read "(CST)" as "prints the full tree".
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re

from credo.store.fts import STOPWORDS

# Parenthesised text after a space, on one line: the short form after the long ("version
# control system (VCS)") or the long after the short ("VCS (version control system)"). A
# call, "f(x)", has no space before its parenthesis: most of code's are never matched.
_PAREN = re.compile(r"[ \t]\(([^()\n]{2,80})\)")
_WORD = re.compile(r"[A-Za-z][\w'-]*")
# How far back a long form may start: six words of up to ~20 characters.
_LOOK_BACK = 120
_SHORT = re.compile(r"[A-Za-z][A-Za-z0-9]{1,9}")
_LONG_WORD = re.compile(r"[A-Za-z][a-z0-9]*(?:-[A-Za-z][a-z0-9]*)*")
# Words a long form may hold that give no letter to its short form (Schwartz and Hearst's
# own examples: "Grand Canal of China (GCC)", no "o").
_SKIPPED = frozenset({"of", "and", "the", "for", "to", "in", "on", "a", "an", "by", "with"})
_MAX_LONG_WORDS = 6


def definitions(text: str) -> list[tuple[str, str]]:
    """The acronym definitions of ``text``: (short form lower-cased and without a plural
    "s", long form's words lower-cased and joined by one space), each once, in order."""
    if " (" not in text and "\t(" not in text:  # (one C-level scan each: most chunks)
        return []
    found: dict[tuple[str, str], None] = {}
    for match in _PAREN.finditer(text):
        inside, end = match.group(1).strip(), match.start()
        # Either form has a short form just inside or just before the parenthesis: most
        # parentheses ("if (x > 0)", "(see below)") have neither, and no words are read.
        if not _is_short(inside) and not _is_short(_last_word(text, end)):
            continue
        before = _words_before(text, end)
        if not before:
            continue
        pair = _long_then_short(before, inside) or _short_then_long(before, inside)
        if pair is not None:
            found[pair] = None
    return list(found)


def _words_before(text: str, end: int) -> list[str]:
    """The run of plain words (at most six) that ends at ``end`` on its line: none when
    anything else ("systems, (VCS)", "x = (A)") sits just before."""
    start = max(text.rfind("\n", 0, end) + 1, end - _LOOK_BACK)
    tokens = text[start:end].split()
    if start > 0 and not text[start - 1].isspace() and tokens:
        tokens = tokens[1:]  # the look-back cut a word
    run: list[str] = []
    for token in reversed(tokens[-_MAX_LONG_WORDS:]):
        if _WORD.fullmatch(token) is None:
            break
        run.append(token)
    run.reverse()
    return run


def _long_then_short(before: list[str], inside: str) -> tuple[str, str] | None:
    """ "version control system (VCS)": the run of words ending at the parenthesis that the
    short form abbreviates, one word a letter where there is one ("see aa aa aa (AAA)" is
    "aa aa aa", not "aa aa" by an inner "a"), else the shortest."""
    if not _is_short(inside):
        return None
    letters = _letters(inside)
    if not _is_acronym(letters):
        return None
    # Schwartz and Hearst's window: at most min(|A| + 5, 2|A|) words.
    window = before[-min(len(letters) + 5, 2 * len(letters), _MAX_LONG_WORDS) :]
    found = None
    for size in range(2, len(window) + 1):
        words = window[-size:]
        if _abbreviates(letters, words):
            found = letters, " ".join(word.lower() for word in words)
            if sum(w.lower() not in _SKIPPED for w in words) == len(letters):
                break
    return found


def _short_then_long(before: list[str], inside: str) -> tuple[str, str] | None:
    """ "VCS (version control system)": the word before the parenthesis abbreviates all
    the words inside it."""
    short = before[-1]
    words = inside.split()
    if not _is_short(short) or not 2 <= len(words) <= _MAX_LONG_WORDS:
        return None
    letters = _letters(short)
    if not _is_acronym(letters) or not _abbreviates(letters, words):
        return None
    return letters, " ".join(word.lower() for word in words)


def _is_short(token: str) -> bool:
    """2-10 letters and digits, a letter first, two of them capitals."""
    return _SHORT.fullmatch(token) is not None and sum(map(str.isupper, token)) >= 2


def _last_word(text: str, end: int) -> str:
    """The last word before ``end``, if it is short enough to be a short form (else its
    tail, which the words before are read again for)."""
    words = text[max(0, end - 10) : end].split()
    return words[-1] if words else ""


def _letters(short: str) -> str:
    """The short form as the letters it abbreviates: lower case, a plural's "s" dropped
    ("URLs" -> "url")."""
    if short.endswith("s") and short[:-1].isupper():
        short = short[:-1]
    return short.lower()


def _is_acronym(letters: str) -> bool:
    """Not a word a query drops ("AT" for assistive technology: no reader's "at" asks
    for it)."""
    return letters not in STOPWORDS


def _abbreviates(letters: str, words: list[str]) -> bool:
    """Whether ``words`` are a long form of ``letters``: plain words, each a content word
    starting one of the letters in order or a skipped stopword, the first a content word,
    and the letters all found (Schwartz and Hearst's character walk)."""
    if not all(_LONG_WORD.fullmatch(word) for word in words):
        return False
    lowered = [word.lower() for word in words]
    if lowered[0] in _SKIPPED or letters in lowered:
        return False
    content = [word for word in lowered if word not in _SKIPPED]
    if len(content) < 2 or len(content) > len(letters):
        return False
    return _walk(letters, content)


def _walk(letters: str, words: list[str], at: int = 0) -> bool:
    """Whether each word's first letter is the next unmatched letter of ``letters`` (from
    ``at``), the letters between two initials found in order inside the earlier word, and
    every letter matched ("regular expression" -> "regex": r, e, g in "regular", then e, x
    in "expression"); the fewest letters inside a word are tried first."""
    if not words:
        return at == len(letters)
    word = words[0]
    if at >= len(letters) or word[0] != letters[at]:
        return False
    at += 1
    position = 1
    while not _walk(letters, words[1:], at):
        if at >= len(letters):
            return False
        position = word.find(letters[at], position) + 1
        if position == 0:
            return False
        at += 1
    return True
