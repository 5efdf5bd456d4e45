"""How much evidence a capture rests on (``credo.knowledge.capture``, round 18).

Round 18 scored every blind set again on the classifier of the round that met it blind
(fourteen sets, rounds 8 to 17: ``git archive`` of each round's ``src``, the set's sentences
through its ``sentence_cues`` and ``score``; docs/BENCHMARKS.md, "Round 18"), and split the
captures by the path that made them. One path is far below the rest on text its cues never
saw: a sentence whose **only** evidence is one fact cue (a bare or definite subject with a
present-tense verb, or "we use X", and nothing else: no marker of force, scope, contrast,
taste or correction). It made 71 true and 38 false positives over the fourteen sets
(precision 0.65, where every other capture is at 0.94; prompt level: every captured sentence
of the prompt on that path), with false positives in twelve of the fourteen sets, whatever
the round: "the old auth endpoint still gets ~200 calls a day", "we use it in the config
loader", "our app is rejected by apple review". In the development files, where the cues
were written against their false positives, the same path looks clean (0.95), which is why
no round saw it.

``lone`` asks for a second piece of evidence before such a sentence is captured. Two things
count as one besides the cues:

- a prompt that names a mistake of the agent (``capture._erred``: "You wrote `database` in
  the example env"): the bare fact is then the right one, restated, and that path held blind
  (19 true and 2 false positives), so the caller asks ``lone`` only of prompts that name none;
- a token of the code or the machine in the sentence (backticks, a path, snake_case, a
  dotted or camelCase name, a flag, a port): "Our API returns snake_case JSON", "the API base
  path is /api/v2" (blind 27 true and 4 false positives).

What is left, one fact cue in plain prose in a prompt that names no mistake, made 25 true and
32 false positives blind (0.44): "the exhibit list is 41 pages, the portal limit is 35",
"contrast on the grey placeholder is 3.9:1". Measured and not taken: counting a directive
read on the same words as a bare subject as no second piece ("wrap the sensor read in a
critical section": 5 true and 5 false positives blind), because labelled prohibitions have
that pair too ("Don't use 3.10+ syntax under tools/": 17 labelled statements of the
development files against 2 false positives).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from credo.knowledge.lazy_pattern import LazyPattern
from credo.knowledge.score import CONCEPTS

__all__ = ["COUNTING", "EVIDENCE", "OWNER_NOW", "ROLE", "lone", "role_then_ask"]

# The concepts that count for a capture (the positive side of ``score.WEIGHTS``; named here,
# not read from the fitted weights, so a refit cannot move the rule).
COUNTING = frozenset(
    {
        "round2",
        "taste",
        "agent",
        "directive",
        "correction",
        "fact",
        "general_fact",
        "general",
        "project",
        "future",
        "contrast",
        "deontic",
        "general_imperative",
        "reason",
    }
)
EVIDENCE = frozenset(cue for cue, concept in CONCEPTS.items() if concept in COUNTING)
_FACT = frozenset({"fact_subject", "bare_subject", "assertion"})
# A token of the code or the machine: backticks, a path, snake_case, a dotted or camelCase
# name, a call written "name()" ("external()": probe88), an option flag, a port number.
_TECHNICAL = re.compile(r"`|\w/\w|/\w|\w_\w|[a-z]\.\w|\w\.[a-z]|[a-z][A-Z]|\w\(\)|--\w|\bport\s+\d")


# Who holds a role on the project, named ("Maria is the release manager", "the release
# manager for this project is Dana", "our maintainer is Sam"): a person's name, capitalised,
# beside a role noun and a copula. Read on the sentence as written (the name's capital).
# The role noun ends its phrase ("Tom is the lead singer in a band" names no lead), and
# what it is of is the project's ("Dana is the owner of a bakery" is no role here). A role
# named first is ours or qualified ("our contact", "the release manager", "the owner for
# this repo"): "The owner is Google Cloud." names an owner of anything, by a capital that is
# as often a company's as a person's (review86).
_ROLE_NOUNS = ("manager", "maintainer", "owner", "lead", "reviewer", "admin", "contact", "champion")
_ROLE_NOUN = r"(?:manager|maintainer|owner|lead|reviewer|admin|administrator|contact|champion)"
_OF_OURS = r"(?:(?:for|of|on)\s+(?:this|the|our)\s+[\w-]+)"
_ROLE_ENDS = rf"(?:\s+{_OF_OURS})?(?=\s*(?:[.;,:!?]|$)|\s+(?:and|but|so|who)\b)"
# (a name ends its phrase: "Dana's friend", "Linux-savvy" are no names of a holder)
_NAME = r"[A-Z][a-z]+\b(?!\s+(?:[a-z])|['’-])"
# Who owns a part of the project: "Priya owns the scheduler code", "Tom owns the docs site",
# "Sam owns the rq/cli module": a name, "owns", then the project's part (a word for code or
# its tooling ending the phrase); "Tom owns a boat", "Dana owns the bakery", "She owns
# the code" (no name) are no owners of ours (days87). A part is read in any case: "Priya owns
# the API." (review88).
_PART = r"""(?i:code|module|modules|package|service|repo|repository|site|docs|documentation|
    pipeline|component|library|crate|api|cli|backend|frontend|infra|infrastructure|releases?|
    tests|test\s+suite|suite|ci|config|schema|migrations|integration|client|server|worker|
    workers|scheduler|parser|deploys?|deployments?)"""
_OWNER = r"(?!(?:She|He|It|They|This|That|Nobody|Everyone|Someone|Who)\b)[A-Z][a-z]+"
_OWNS = rf"""^{_OWNER}\s+owns\s+(?:the|our)\s+(?:[\w./-]+\s+){{0,3}}?{_PART}\b(?!['’-])
    {_ROLE_ENDS}"""
# A new owner told with "now" ("ken owns the scheduler now", a terse user's lowercase name):
# read on the lower-cased sentence, its "now" says since when (knowledge/replace.py rule 7).
_ANYONE = r"""(?!(?:she|he|it|they|this|that|nobody|everyone|everybody|someone|somebody|who|one|
    we|i|you)\b)"""
OWNER_NOW = LazyPattern(
    rf"""^{_ANYONE}(?P<owner>[a-z]+)\s+owns\s+(?:the|our)\s+(?P<part>(?:[\w./-]+\s+){{0,3}}?{_PART})
    \s+now\s*[.!]?$""",
    re.VERBOSE,
    gate=("owns",),
)
# Compiled only once a sentence names a role noun (or "owns"), which every match holds.
ROLE = LazyPattern(
    rf"""{_OWNS}
    |^(?:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+is\s+(?:the|our)\s+(?:[\w-]+\s+){{0,2}}?
    {_ROLE_NOUN}{_ROLE_ENDS}
    |^Our\s+(?:[\w-]+\s+){{0,2}}?{_ROLE_NOUN}\s+(?:{_OF_OURS}\s+)?is\s+{_NAME}
    |^The\s+(?:(?:[\w-]+\s+){{1,2}}?{_ROLE_NOUN}\s+(?:{_OF_OURS}\s+)?|{_ROLE_NOUN}\s+
    {_OF_OURS}\s+)is\s+{_NAME}""",
    re.VERBOSE,
    gate=(*_ROLE_NOUNS, "owns"),
)


# The user labels the sentence a decision ("Decision: we keep jobs in SQLAlchemy on our Postgres
# database."): the label is the second piece of evidence a bare fact lacks (probe88: "Decision:
# we keep hash as the default storage protocol." was lost, and so was its later change's target).
# Only beside how things are done here ("we keep", "our CI runs": ``assertion``): a subject cue
# may be the label itself read as a subject ("Decision: the server | is down", "Decision: we go
# with option B"), so the label would count twice (review89).
# The label may be set in bold or told with a dash ("**Decision**: we keep ...", "Decision —
# we keep ..."), not joined to a word ("decision-making"): review89.
_DECISION_LABEL = re.compile(
    r"[\W_]*(?:(?:our|the|team|final)\s+)?decision[*_]*\s*(?::|[—–]|-{1,2}\s)", re.IGNORECASE
)


def lone(fired: Iterable[str], sentence: str = "") -> bool:
    """Does ``sentence``, with these cues, rest on one fact cue alone, in prose that names
    nothing of the code ("the old endpoint still gets 200 calls a day", "we use it in the
    config loader")?"""
    evidence = EVIDENCE.intersection(fired)
    return (
        len(evidence) == 1
        and evidence <= _FACT
        and not _TECHNICAL.search(sentence)
        and not ROLE.search(sentence)
        and not (evidence == {"assertion"} and _DECISION_LABEL.match(sentence))
    )


# A role holder named, then what to do with them: "maria is the release manager; ask her
# before tagging a release" (the pronoun is the one named, not a third party's say).
_ROLE_THEN_ASK = re.compile(
    r"[^;,]+[;,]\s*(?:so\s+|and\s+)?(?:always\s+)?(?:ask|ping|tell|cc|loop|check\s+with|"
    r"talk\s+to|email|mention|notify|tag)\s+(?:him|her)\b"
)


def role_then_ask(sentence: str, core: str) -> bool:
    """Does ``sentence`` name who holds a role, then say to ask (ping, loop in ...) them
    (``core``: its lower-cased text without lead-in words)?"""
    return _ROLE_THEN_ASK.match(core) is not None and ROLE.match(sentence.strip()) is not None


def role_veto(veto: str | None, sentence: str, core: str) -> str | None:
    """``veto`` unless it is hearsay that names its own role holder: in "Maria is the release
    manager; ask her first", "her" is the one named, not a third party's say."""
    return None if veto == "third_person" and role_then_ask(sentence, core) else veto


def role_cues(sentence: str) -> set[str]:
    """The cues a statement of who holds a role adds ("the release manager for this project
    is Dana" is an assertion)."""
    return {"assertion"} if " is " in sentence and ROLE.match(sentence.strip()) else set()
