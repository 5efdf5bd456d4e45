"""An instruction about a thing of this turn, on thin evidence (``credo.knowledge.capture``,
round 19).

Round 19 split the captures of seventeen blind runs (sets 8 to 24, each on the round that met
it blind, with round 18's ``evidence.lone`` added; docs/BENCHMARKS.md, "Round 19") by the
concepts of their best sentence. Two paths that rest on a directive and one other piece were
far below the rest: a directive with one contrast ("Deploy the handbook to the preview only,
not prod.": 21 true and 9 false positives) and a directive read with one fact cue ("only run
the tests in tests/etl, the rest are slow": 12 and 6). Their false positives are tasks for
now, and what marks them is the object: a thing of this turn, named definitely or pointed at
("the handbook", "the fixture", "these", "it", "there"), where the rules on the same paths
speak of kinds ("Show diffs, not whole files.", "Don't reformat files you aren't otherwise
changing."). A rule about a kind carries beyond the turn; an act on the thing at hand does not.

``specific`` asks that of a sentence whose evidence is exactly a directive and one contrast or
one fact concept, in its first clause only (a reason after a comma, "the release tooling parses
them", does not make the instruction a task). Not asked:

- "prefer X to Y", which states a taste whatever its object, and a fact cue that frames a
  lasting truth itself ("Remember that the search index lags the database by a minute.");
- "the first/third time" (emphasis: "For the third time: do NOT run `terraform apply`.") and
  existential "there is/are" ("when there are more than three rows").

Blind, on the seventeen runs: 2 true and 12 false positives in eight sets (of 2,093 and 139);
the same rule on other paths (one contrast alone, a contrast with a correction, a universal
imperative) removed more true positives than false ones and is not asked there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from credo.knowledge.evidence import COUNTING, lone
from credo.knowledge.passing import passing
from credo.knowledge.relay import boxed, relayed
from credo.knowledge.score import concepts

__all__ = ["parts_at_hand", "specific", "thin", "thin_evidence"]

# The evidence besides a directive: exactly one of these, and nothing else that counts.
_OTHER = ("contrast", "fact")
# The concepts that count for a capture, the second round's frame aside.
_COUNTS = COUNTING - {"round2"}
_DEFINITE = re.compile(
    r"""\b(?:the(?!\s+(?:first|second|third|fourth|fifth|last|nth|\d+(?:st|nd|rd|th))\s+time\b)
    |these|those|this|it
    |there(?!\s+(?:is|are|was|were|will|isn|aren|wasn|weren)\b|'s|'re))\b""",
    re.IGNORECASE | re.VERBOSE,
)
# Fact cues that frame a lasting truth themselves ("Remember that ...", "X always ..."):
# the second piece is there.
_FRAMED = frozenset({"memo", "habitual", "law", "negated_habit"})
# A noun phrase then "is"/"are": a statement whose first word only looks like a verb ("Build
# agents are ready-made images ...", "Release builds of the iOS app are only cut from ...").
_DECLARATIVE = re.compile(r"\W*(?:(?!it\b)[\w'./-]+\s+){1,6}?(?:is|are)\b", re.IGNORECASE)
_PREFER = re.compile(r"\bprefer", re.IGNORECASE)
_UNIVERSAL_PATH = frozenset({"directive", "general", "general_imperative"})
# The first clause: up to a comma, semicolon, colon, bracket or a dash between spaces.
_CLAUSE = re.compile(r"[,;:()]|\s[\u2014\u2013-]\s")


def specific(fired: Iterable[str], sentence: str) -> bool:
    """Is ``sentence`` a directive with one contrast or one fact cue and nothing else, about a
    thing of this turn ("format only the files you changed, not the whole repo", "do NOT
    commit these to main")?"""
    found = concepts(fired) & _COUNTS
    if "directive" not in found or len(found) != 2 or not found & set(_OTHER):
        return False
    if _PREFER.search(sentence) or _FRAMED.intersection(fired):
        return False
    head = _CLAUSE.split(sentence, maxsplit=1)[0]
    return bool(_DEFINITE.search(head)) and not _DECLARATIVE.match(head)


_EVERY = re.compile(r"\b(?:every|each|all)\b", re.IGNORECASE)
# Other words of scope: time ("always", "whenever"), free choice ("any"), none ("never", "no").
_SCOPE = re.compile(
    r"\b(?:always|never|ever|whenever|any|anything|anyone|nothing|no|don'?t|do\s+not)\b",
    re.IGNORECASE,
)
# Instances still to come: "every new table", "every element you add".
_TO_COME = re.compile(
    r"\b(?:every|each|all|any)\s+new\b|\byou\s+(?:add|write|create|make|touch|change|open|ship)\b",
    re.IGNORECASE,
)
_AT_HAND = re.compile(r"\b(?:the|these|those|this|it)\b", re.IGNORECASE)


def parts_at_hand(fired: Iterable[str], sentence: str) -> bool:
    """Is ``sentence`` an instruction whose only scope is "every/each/all" over the parts of a
    thing at hand ("check every screen in the onboarding flow", "Rename `amt` ... in the
    refunds module, all usages", "write the docstring ..., with the units of every
    parameter")? Not when the quantifier reaches things to come ("every new table", "every
    element you add"), nor with a word of time, free choice or prohibition."""
    found = concepts(fired) & _COUNTS
    if not ("directive" in found and "general" in found) or not found <= _UNIVERSAL_PATH:
        return False
    if {"durable", "generic"}.intersection(fired) or not _EVERY.search(sentence):
        return False
    if _SCOPE.search(sentence) or _TO_COME.search(sentence):
        return False
    return bool(_AT_HAND.search(sentence))


def thin(fired: Iterable[str], sentence: str) -> bool:
    """Round 19's checks on a scored sentence: either form above, or a rule passed on from
    someone else, a line of a tool's frame (``knowledge/relay``), or a passing taste or
    wish (``knowledge/passing``)."""
    fired = set(fired)
    if relayed(sentence) or boxed(sentence) or passing(sentence):
        return True
    return specific(fired, sentence) or parts_at_hand(fired, sentence)


def thin_evidence(fired: set[str], sentence: str, erred: bool) -> bool:
    """Too little evidence for a scored sentence to be captured: one fact cue alone in plain
    prose when the prompt names no mistake of the agent (``knowledge/evidence``), or
    ``thin``."""
    return (not erred and lone(fired, sentence)) or thin(fired, sentence)
