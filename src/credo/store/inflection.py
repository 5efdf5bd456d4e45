"""What a query word asks for beside itself: the word it is made from, where the index's
stemmer keeps the two apart.

Porter (1980), the keyword index's stemmer (store/stem.py), folds many inflections
("loading" -> load) but not all: an -ly adverb ("lazily"), a strong verb's past participle
("overwritten"), a superlative ("fastest") keep stems of their own, and a reader's word
then misses the page that uses the plain one. Each rule here is English morphology over the
query's own words, no list, no corpus; a base that is no word matches nothing the index
holds and changes no score. ``with_base_words`` is what the keyword lane and the snippet
ask the index for.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.
# The patterns are compiled on first use (`cache`): each runs only for a word with its
# ending, and the nine together cost a fresh process ~4M instructions to compile, which a
# hook whose prompt has no such word need not pay.

import re
from functools import cache, lru_cache

from credo.store.fts import MAX_QUERY_CHARS, MAX_QUERY_TERMS, STOPWORDS
from credo.store.stem import stem

# An adverb's adjective is at least this long as a stem: shorter stems are mostly not
# adjectives ("early" -> ear, "daily" -> dai, "holy" -> ho), and "-ply" words are verbs
# ("apply", "reply", "supply": never app, rep, supp).
_MIN_ADJECTIVE_STEM = 4


def adjective_of(term: str) -> str | None:
    """The adjective an ``-ly`` adverb is made from, when the index's stemmer keeps the two
    apart, else None: "lazily" -> "lazy", "exactly" -> "exact", "explicitly" -> "explicit".

    Porter (1980) folds some adverbs into their adjectives (-ally, -ently, -ously, -ely,
    -bly: "usually" and "usual" are both ``usual``) but not the rest ("lazily" is
    ``lazili``, "lazy" ``lazi``; "exactly" is ``exactli``). A reader who asks how a group
    loads "lazily" is asking about lazy loading, so the query asks for the adjective too.
    A rule of English morphology over the query's own words: no list, no corpus.
    """
    if len(term) < 6 or not term.endswith("ly") or term.endswith("ply"):
        return None
    stemmed = stem(term)
    if not stemmed.endswith("li"):  # the stemmer joined them already (or not an adverb)
        return None
    return _apart(term[:-3] + "y" if term.endswith("ily") else term[:-2], stemmed)


# Past participles of strong verbs, which Porter (1980) leaves apart from their verbs
# ("overwritten" is ``overwritten``, "overwrite" ``overwrit``; "taken" / ``take``): a doubled
# consonant before -en drops it and takes an -e (written, hidden, overridden), -aken and
# -iven drop the -n (taken, given, driven), -osen is -oose (chosen), and -own after h, n, hr,
# gr or l drops the -n (shown, known, thrown, grown, flown; not brown, crown, down).
@cache
def _participles() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A doubled consonant before -en; -aken and -iven; -own after h, n, hr, gr or l."""
    return (
        re.compile(r"([bdgkmnprt])\1en$"),
        re.compile(r"(ak|iv)en$"),
        re.compile(r"(h|n|hr|gr|l)own$"),
    )


def verb_of(term: str) -> str | None:
    """The verb a past participle in -en or -own is made from, when the index's stemmer
    keeps the two apart, else None: "overwritten" -> "overwrite", "taken" -> "take".

    A reader asks whether values are "overwritten"; the code says ``overwrite=False``. The
    same rule as ``adjective_of``: English morphology over the query's own words, no list,
    no corpus. A base that is no word ("happen" -> "hape", "forgotten" -> "forgote",
    "unknown" -> "unknow") matches nothing the index holds and changes no score.
    """
    if not term.endswith(("en", "own")):  # (most terms: no regex run)
        return None
    doubled_en, en, own = _participles()
    if len(term) >= 6 and doubled_en.search(term):
        base = term[:-3] + "e"
    elif len(term) >= 5 and en.search(term):
        base = term[:-1]
    elif len(term) >= 6 and term.endswith("osen"):
        base = term[:-3] + "ose"
    elif own.search(term):
        base = term[:-1]
    else:
        return None
    return _apart(base, stem(term))


# English makes -est superlatives of one-syllable adjectives ("fast", "large") and of
# two-syllable ones in -y or -le ("easy" -> easiest, "simple" -> simplest); the rest take
# "most". A body of two vowel groups ("inter" of "interest", "requ" of "request") is no
# superlative's (a -y's -i aside).
@cache
def _superlatives() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """One syllable; one closed by one consonant; a doubled consonant at the end."""
    return (
        re.compile(r"^[^aeiou]*[aeiou]+[^aeiou]*$"),
        # A superlative's body that is one syllable closed by one consonant ("clos", "fin",
        # "lat"): the adjective ends in a silent -e that the -est took ("closest" -> close,
        # "finest" -> fine), the same cvc test Porter (1980) applies when it restores the -e
        # of "hoping" -> hope. A w, x or y never closes such a syllable ("newest" -> new).
        re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$"),
        # A consonant doubled before -est is the adjective's single one ("thin" ->
        # thinnest), as Porter undoubles before -ed and -ing; l, s and z stay doubled
        # ("small", "full", "crass").
        re.compile(r"([bdgkmnprt])\1$"),
    )


def positive_of(term: str) -> str | None:
    """The adjective a superlative in -est is made from, when the index's stemmer keeps the
    two apart, else None: "fastest" -> "fast", "easiest" -> "easy", "closest" -> "close".

    Porter (1980) has no rule for -est ("fastest" is ``fastest``, "fast" ``fast``), so a
    reader who asks for the fastest setup does not reach the page that says what is fast.
    The same rule as ``adjective_of``: English morphology over the query's own words, no
    list, no corpus. A word that only ends like one is mostly told by its body's length
    ("request", "interest": two syllables before -est); the rest ("suggest" -> "sugg")
    give a base the index holds for no word, which changes no score. A base whose stem is
    under four letters ("newest", "biggest") is not read.
    """
    if len(term) < 6 or not term.endswith("est"):
        return None
    body = term[:-3]
    one_syllable, cvc, doubled_est = _superlatives()
    if not one_syllable.match(body[:-1] if body.endswith("i") else body):
        return None
    if body.endswith("i"):  # "easiest" -> easy, "earliest" -> early
        base = body[:-1] + "y"
    elif doubled_est.search(body):  # "thinnest" -> thin, "flattest" -> flat
        base = body[:-1]
    elif cvc.match(body):
        base = body + "e"
    else:
        base = body
    return _apart(base, stem(term))


def comparative_of(term: str) -> str | None:
    """The comparative beside a superlative's adjective (``positive_of``), else None:
    "fastest" -> "faster", "easiest" -> "easier", "closest" -> "closer". Text that answers
    a question about the fastest way often compares ("faster than"), and Porter folds
    neither "faster" nor "fastest" into "fast". The body before -est takes -er as it is:
    the adjective's silent -e and its -y (as -i) are already in it."""
    if positive_of(term) is None:
        return None
    comparative = term[:-3] + "er"
    return comparative if stem(comparative) != stem(term) else None


def _apart(base: str, term_stem: str) -> str | None:
    """``base`` when it is a word the stemmer keeps apart from the term (stemmed
    ``term_stem``): a stem long enough to be one, a different stem, no stopword; else None."""
    base_stem = stem(base)
    if len(base_stem) < _MIN_ADJECTIVE_STEM or base_stem == term_stem or base in STOPWORDS:
        return None
    return base


def base_word(term: str, *, compound: bool = False) -> str | None:
    """The word a query term is made from that the stemmer does not fold it into: an
    adverb's adjective (``adjective_of``), a superlative's adjective (``positive_of``) or a
    participle's verb (``verb_of``), else None.
    A participle closing a hyphenated ``compound`` ("hand-written", "well-known") is an
    adjective naming a kind of thing, not an act the text may describe: it asks for no verb."""
    return adjective_of(term) or positive_of(term) or (None if compound else verb_of(term))


# British and American spellings of one word, which Porter (1980) stems apart
# ("normalised" is ``normalis``, "normalized" ``normal``; "behaviour" ``behaviour``,
# "behavior" ``behavior``): -ise/-ize and -yse/-yze both ways, with their inflections and
# -ation; -our to -or one way only (the other way would touch every -or word: "error",
# "iterator"). A root that only ends like one ("promise" -> promize, "detour" -> detor)
# gives a word the index holds for nothing.
@cache
def _spellings() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """-ise/-ize, -yse/-yze and their inflections; -our and its inflections."""
    return (
        re.compile(r"(?<=\w{3})([iy])([sz])(e|es|ed|ing|er|ers|ation|ations)$"),
        re.compile(r"(?<=\w{2})our(s|ed|ing|ite|ites|able|er|ers)?$"),
    )


# The same endings for one C-level ``endswith``: most query words have none of them, and
# this runs on every word of every query (two regex searches a word cost ~10 us a query).
_SPELLING_ENDINGS = tuple(
    f"{vowel}{letter}{ending}"
    for vowel in "iy"
    for letter in "sz"
    for ending in ("e", "es", "ed", "ing", "er", "ers", "ation", "ations")
) + tuple(f"our{ending}" for ending in ("", "s", "ed", "ing", "ite", "ites", "able", "er", "ers"))


def spelling_of(term: str) -> str | None:
    """The other spelling of a word English writes two ways, when the index's stemmer
    keeps the two apart, else None: "normalised" -> "normalized", "serialize" ->
    "serialise", "analyse" -> "analyze", "behaviours" -> "behaviors".

    A reader writes the spelling of their own country; the project's text is in one of
    the two, most often the American. The same kind of rule as ``adjective_of``: English
    orthography over the question's own words, no list, no corpus."""
    if len(term) < 6 or not term.endswith(_SPELLING_ENDINGS):  # "size", "hours": too short
        return None
    ise_ize, our = _spellings()
    if (m := ise_ize.search(term)) is not None:
        other = "z" if m.group(2) == "s" else "s"
        return _apart(f"{term[: m.start()]}{m.group(1)}{other}{m.group(3)}", stem(term))
    if (m := our.search(term)) is not None:
        return _apart(f"{term[: m.start()]}or{m.group(1) or ''}", stem(term))
    return None


def base_words(term: str, *, compound: bool = False) -> tuple[str, ...]:
    """``base_word``, for a superlative its comparative (``comparative_of``), and the
    word's other spelling (``spelling_of``): every word the query asks for beside ``term``
    itself, in that order; () when there is none."""
    word = base_word(term, compound=compound)
    # (a comparative only where the base word is a superlative's: one -est test, no more)
    comparative = comparative_of(term) if word is not None and term.endswith("est") else None
    other = spelling_of(term)
    if other is None:
        return () if word is None else (word,) if comparative is None else (word, comparative)
    return tuple(w for w in (word, comparative, other) if w is not None)


@cache
def _compound_tail() -> re.Pattern[str]:
    """The word after a hyphen inside a compound ("hand-written": "written")."""
    return re.compile(r"(?<=\w-)\w+")


# A query's words recur across queries (a warm process answers thousands): each term's
# base words are a function of the term alone, made once while it stays among the last few
# thousand asked (~10k instructions a term otherwise: the stemmer and the ending patterns).
_TERMS_KEPT = 4096


@lru_cache(maxsize=_TERMS_KEPT)
def _base_words_of(term: str, compound: bool) -> tuple[str, ...]:
    return base_words(term, compound=compound)


def with_base_words(terms: list[str], text: str = "") -> list[str]:
    """``terms``, then the base words of each among them (``base_words``) that are not terms
    already, within ``MAX_QUERY_TERMS``; ``text`` is the query they were read from, which
    tells a compound's participle. Without a base word: ``terms`` itself."""
    tails = (
        {m.group(0).lower() for m in _compound_tail().finditer(text[:MAX_QUERY_CHARS])}
        if "-" in text
        else ()
    )
    extra = [a for t in terms for a in _base_words_of(t, t in tails) if a not in terms]
    if not extra:
        return terms
    return list(dict.fromkeys(terms + extra))[: max(MAX_QUERY_TERMS, len(terms))]
