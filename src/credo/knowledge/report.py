"""A bare statement that reports what happened or holds now (``credo.knowledge.capture``,
round 16).

A sentence with no prescribing word is captured on the form of a fact alone ("Timestamps are
UTC everywhere."). The fifteenth blind set's largest class of false positives had that form and
reported an event or a passing state instead: "deleted it and it runs", "the code works without
it", "the rest is still in there", "the feed is two weeks stale again". A standing fact about the
project is told in the simple present of a generic or named subject; these are told by grammar
that ties them to one moment. Each form is read only when nothing in the sentence prescribes
(the caller checks that): "never assume integer ids again" and "Nope, wrong again: ..." keep
their force.

- **Iterative aspect**: "again" says an event recurs, so it is an event, not a standing fact.
- **The speaker's own act**: a subjectless past verb on a pronoun or a determiner ("deleted it
  and it runs", "tried the second config"): the speaker reports what they just did. A
  participle before a noun is an adjective and left alone ("Deleted users' data is never
  restored").
- **An outcome**: a verb of working or failing with no object, at the end of its clause or
  before a circumstance ("the code works without it", "it compiles now", "the build passes
  locally"): how one attempt turned out. "the works council agreement" is a noun.
- **A subject with no head noun**: "the rest", "the others", "the other one", "the first
  one": it points back to something named outside the sentence.

``one_incident`` is asked of every sentence, prescribing or not: a definite singular noun of an
event as the subject ("the error is in the worker logs, not the API logs", "no, the bug is in
the lexer", "the real problem is the connection storm") places one incident of the work at
hand; the README's one-off correction of this turn's referent. A word for later lifts it ("the
bug is in the parser, so always validate dates in the schema layer"); "the error message",
"the bug tracker" have another head noun.
"""

from __future__ import annotations

import re

__all__ = ["one_incident", "reports"]

_AGAIN = re.compile(r"\bagain\b")
_YOU = re.compile(r"\byou(?:'ve|'re|'d)?\b")
# A subjectless past verb (the speaker's): "-ed" or a few irregular pasts, then what it acted on.
_OWN_ACT = re.compile(
    r"""^(?:(?:just|then|and|so|finally|already)\s+)?
    (?:[a-z]{3,}ed|ran|made|took|got|put|wrote|broke|threw|gave|built|found|saw|did)\s+
    (?:it|them|that|this|those|these|the|a|an|my|our|everything|all|both)\b""",
    re.VERBOSE,
)
_OUTCOME = re.compile(
    r"""\b(?:works|worked|compiles|compiled|passes|passed|fails|failed|crashes|crashed|
    hangs|breaks)
    (?=\W*$|\s*[,;—–]|\s+(?:now|again|fine|ok|okay|locally|without|anyway|too|either|
    but|and\s+(?:it|that|this)\b|on\s+my\b|for\s+me\b))""",
    re.VERBOSE,
)
# ... in the main clause: "so a rollback still works" is a rule's reason, "how my brain works"
# is a clause that names a thing.
_SUBORDINATE = re.compile(
    r"\b(?:so|because|since|when|whenever|if|once|after|until|unless|how|what|which|that|where)"
    r"\s+(?:[\w`'.-]+\s+){0,6}?$"
)
_HEADLESS = re.compile(
    r"""^(?:the\s+(?:rest|others|other\s+ones?|(?:first|second|third|last|new|old|same|other)\s+
    ones?|former|latter)|both\s+of\s+them)\b""",
    re.VERBOSE,
)


def reports(core: str) -> str | None:
    """The report form the lower-cased ``core`` takes (its lead-in words gone), or ``None``.
    The caller asks only of a sentence with no prescribing concept. A sentence about what
    "you" did is a reproach ("you ran the full suite again"), read as a correction elsewhere."""
    if _YOU.search(core):
        return None
    if "again" in core and _AGAIN.search(core):
        return "again"
    if _OWN_ACT.match(core):
        return "own_act"
    outcome = _OUTCOME.search(core)
    if outcome and not _SUBORDINATE.search(core, 0, outcome.start()):
        return "outcome"
    if _HEADLESS.match(core):
        return "headless"
    return None


_INCIDENT = re.compile(
    r"""^the\s+(?:[\w-]+\s+)?
    (?:error|bug|crash|failure|exception|problem|issue|regression|outage|leak|flake)
    (?:'s|\s+is|\s+was|\s+lives|\s+sits|\s+comes)\b""",
    re.VERBOSE,
)
_LATER = re.compile(r"\b(?:always|never|whenever|every|each|any|from\s+now\s+on|going\s+forward)\b")


def one_incident(core: str) -> bool:
    """Does the lower-cased ``core`` (the sentence without its lead-in words: "no, ...") place
    one incident of the work at hand, with no word for later?"""
    return _INCIDENT.match(core) is not None and not _LATER.search(core)
