"""The verb a Latin noun in -tion/-sion is made from, and that noun for the verb, where the
index's stemmer keeps the two apart.

Porter (1980), the keyword index's stemmer (store/stem.py), folds "validation" into
``valid`` with "validate", but a noun whose Latin stem changes shape on the way to English
keeps a stem of its own: "verification" is ``verif``, "verify" ``verifi``; "description"
``descript``, "describe" ``describ``; "permission" ``permiss``, "permit" ``permit``. A
reader who asks about verification then misses the page that says how to verify, and the
other way round. Each pair below is one such Latin alternation (-ficatio/-ficare,
-scriptio/-scribere, -solutio/-solvere, -missio/-mittere, -sumptio/-sumere,
-vocatio/-vocare, -clusio/-cludere, -finitio/-finire, -versio/-vertere): the ending alone
tells the pair, no list of words, no corpus. A word that only ends like one ("summit" ->
"summission") gives a word the index holds for nothing, which changes no score.

The same holds for an agent noun and its verb and for a comparative and its adjective, both
made with -er: Porter drops -er only after a stem of two syllables or more, so "formatter"
is ``formatt`` beside "format", "linter" ``linter`` beside "lint", "runner", "parser",
"starter", "writer" keep theirs, as do "older" and "faster" beside "old" and "fast"; and
-or never ("editor" beside "edit", "constructor" beside "construct").

Endings whose English words mostly are no such pair are left out, measured on the bench
corpora's own words: -ition/-ose ("position" -> "pose"), -ension/-end ("tension" ->
"tend", "extension" -> "extend": a file's extension is no extending), -ision/-ide
("provision" -> "provide"), -duction/-duce (an "introduction" is a page's first section,
"production" a place to deploy, not what "introduce" and "produce" ask for), -ation/-ate
(Porter folds it already).
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import re
from functools import cache

from credo.store.fts import STOPWORDS
from credo.store.stem import stem

# (the noun's ending, the verb's ending, the verb's stem's ending): "ification" / "ify" /
# "ifi" ("verify", "verifies", "verified" and "verifying" all stem to ``verifi``).
_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("ification", "ify", "ifi"),
    ("scription", "scribe", "scrib"),
    ("olution", "olve", "olv"),
    ("mission", "mit", "mit"),
    ("sumption", "sume", "sum"),
    ("vocation", "voke", "vok"),
    ("clusion", "clude", "clud"),
    ("finition", "fine", "fin"),
    ("version", "vert", "vert"),
)

# One C-level ``endswith`` for a noun or its plural: most query words are neither.
_NOUN_ENDINGS = tuple(noun + plural for noun, _, _ in _PAIRS for plural in ("", "s"))

# A verb and its inflections ("verify", "verifies", "verified", "verifying"; "permits"):
# not a word made from the verb that Porter also stems to it ("identifier" and
# "verifiable" are ``identifi`` and ``verifi`` too, and ask for no "identification").
_VERB_ENDINGS = (*(verb + s for _, verb, _ in _PAIRS for s in ("", "s")), "ed", "ing", "ies")

# A verb's stem at least this long ("permit", "solv" of "solve"): shorter ones are mostly
# no verb of the pair ("emit" aside, which is four).
_MIN_VERB_STEM = 4


def verb_of_noun(term: str) -> str | None:
    """The verb a -tion/-sion noun is made from, else None: "verification" -> "verify",
    "descriptions" -> "describe", "permission" -> "permit", "resolution" -> "resolve"."""
    if not term.endswith(_NOUN_ENDINGS):
        return None
    word = term[:-1] if term.endswith("s") else term
    for noun, verb, _ in _PAIRS:
        # the noun's ending with something before it: "mission" alone asks for no "mit"
        if word.endswith(noun) and len(word) > len(noun):
            return word[: -len(noun)] + verb
    return None


def noun_of_verb(term: str) -> str | None:
    """The -tion/-sion noun made from a verb, in any of its inflections, else None:
    "verify" / "verified" -> "verification", "describes" -> "description", "submitted" ->
    "submission", "includes" -> "inclusion"."""
    if not term.endswith(_VERB_ENDINGS):  # (most terms: no stemmer run)
        return None
    stemmed = stem(term)
    if len(stemmed) < _MIN_VERB_STEM or not term.startswith(stemmed[:-1]):
        return None
    for noun, _, verb_stem in _PAIRS:
        if stemmed.endswith(verb_stem) and len(stemmed) > len(verb_stem):
            return stemmed[: -len(verb_stem)] + noun
    return None


# An agent noun or comparative in -er (and -ier, the -y's: "easier", "copier"), and agent
# nouns in -or after the Latin participle stems that make them ("constructor", "processor",
# "editor", "executor"); other -or words are mostly no agent of a verb ("error", "color",
# "author" beside "auth", "minor", "mirror", "vendor", "behavior").
_AGENT_ENDINGS = tuple(
    ending + plural for ending in ("er", "ctor", "ssor", "itor", "utor") for plural in ("", "s")
)
# Bodies whose -er is the word's own, no agent's or comparative's: "whether", "rather",
# "other" (-ther), "never", "however" (-ever), "number", "member" (-mber). Each was a count
# read on many bench questions for a base the index holds nowhere ("wheth", "numb").
_NO_AGENT_BODIES = ("th", "ev", "mb")
# The verb or adjective's stem at least this long ("run", "old", "big"): "user" would ask
# for "use" (``us``), "later" for "lat".
_MIN_AGENT_BASE_STEM = 3


@cache
def _agent_shapes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A body of one syllable closed by one consonant; a doubled consonant at the end."""
    return (
        # "writ" of "writer", "clos" of "closer": the verb or adjective ends in a silent -e
        # the -er took (write, close); Porter restores it so before -ing ("hoping" -> hope).
        re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$"),
        # "runn" of "runner", "formatt" of "formatter", "bigg" of "bigger": the verb's single
        # consonant doubled before -er; l, s and z stay doubled ("caller", "passer").
        re.compile(r"([bdgkmnprt])\1$"),
    )


def base_of_agent(term: str) -> str | None:
    """The verb an agent noun is made from, or the adjective of a comparative, else None:
    "formatter" -> "format", "linters" -> "lint", "runner" -> "run", "parser" -> "pars"
    (``pars``, as "parse"), "writer" -> "write", "older" -> "old", "easier" -> "easy",
    "constructor" -> "construct", "executor" -> "execute"."""
    if len(term) < 5 or not term.endswith(_AGENT_ENDINGS) or term in STOPWORDS:
        return None
    word = term[:-1] if term.endswith("s") else term
    body = word[:-2]
    if body.endswith(_NO_AGENT_BODIES):
        return None
    if word.endswith("or"):
        base = body + "e" if body.endswith("ut") else body
    elif body.endswith("i"):  # "easier" -> easy, "copier" -> copy
        base = body[:-1] + "y"
    else:
        cvc, doubled = _agent_shapes()
        base = body[:-1] if doubled.search(body) else body + "e" if cvc.match(body) else body
    base_stem = stem(base)
    if base in STOPWORDS or len(base_stem) < _MIN_AGENT_BASE_STEM:
        return None
    # Porter folds it already by another route ("tokenizer" and "tokenize" are ``token``):
    # the body's own stem would be a word of no one's ("tokeniz").
    if stem(body + "e") == stem(term) != stem(body):
        return None
    return base


def derived_of(term: str) -> str | None:
    """The noun's verb or the verb's noun (``verb_of_noun``, ``noun_of_verb``), or an agent
    noun's verb or a comparative's adjective (``base_of_agent``), when the stemmer keeps the
    two apart, else None."""
    other = verb_of_noun(term) or noun_of_verb(term) or base_of_agent(term)
    if other is None or stem(other) == stem(term):
        return None
    return other
