"""A taste that passes with the day, a wish for this turn, assent going on (round 19).

Three forms that the taste cues read as a preference, each a form and not a phrasing, each
costing no true positive in the 25 development files (but see "first"):

- ``day_feeling``: a feeling about a day, a season or the clock ("I hate Mondays", "i hate
  daylight saving time so much"): a mood, not a way of working. Seven sentences in six files
  (dev4, dev11, dev14, dev17, dev18, dev20), all negatives; blind false positives in dev14,
  dev18 and dev20.
- ``first_for_now``: "I want to look at the diff first", "I want to try my idea first": the
  speaker orders this turn's steps. Unless the sentence has a scope of its own ("every bug",
  "when a query is slow", "in general", "always"): "In general I want to see the failing test
  first, then the fix" is a rule. Blind false positives in dev15 (two) and dev23.
- ``try_out``: "I want to call foo() to see what it returns": a wish tried out on this turn
  for what it shows, with the same exception (review89).
- ``assent_going_on``: "that works for me, carry on with the tests": round 18's assent
  (``beyond``) with a go-ahead after it; the go-ahead is this turn's.
"""

from __future__ import annotations

import re

from credo.knowledge.lazy_pattern import LazyPattern

__all__ = ["passing"]

_DAY_FEELING = re.compile(
    r"""\bi\s+(?:really\s+)?(?:hate|love|loathe|adore|can'?t\s+stand|dread)\s+(?:\w+\s+)?
    (?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|
    mornings?|evenings?|winters?|summers?|autumn|daylight\s+saving|dst)\b""",
    re.IGNORECASE | re.VERBOSE,
)
# ("I'd like" has no blank before "'d"; a call among the words: "I want to look at parse()
# first", review89)
_I_WANT_TO = r"\bi(?:\s+(?:want|need|would\s+like)|'d\s+like)\s+to\s+"
_FIRST = re.compile(_I_WANT_TO + r"[\w\s().]{1,40}?\bfirst\b", re.IGNORECASE)
# A wish tried out on this turn, for what it will show: "I want to call foo() to see what it
# returns", "I'd like to run the tests to see if the fix holds" (review89). It reads the
# lower-cased sentence, compiled on first use (``credo.knowledge.lazy_pattern``).
_TRY_OUT = LazyPattern(
    _I_WANT_TO
    + r"[^;!?]{1,60}?\bto\s+(?:see|check|find\s+out)\s+(?:if|whether|what|how|why|where)\b",
    gate=("see", "check", "find"),
)
_OWN_SCOPE = re.compile(
    r"\b(?:every|each|all|any|when|whenever|always|never|in\s+general|generally)\b",
    re.IGNORECASE,
)
_ASSENT_GOING_ON = re.compile(
    r"""^\W*(?:(?:ok|okay|cool|great|sure|fine|yes|yep|yeah)\W+)*
    (?:that|this|it)\s+(?:works|is\s+fine|sounds\s+good)\s+(?:for|with|to)\s+me\W+(?:so\s+)?
    (?:carry\s+on|go\s+ahead|continue|proceed|keep\s+going|go\s+on)\b""",
    re.IGNORECASE | re.VERBOSE,
)


def passing(sentence: str) -> bool:
    """Is ``sentence`` a feeling about a day, a wish to do something first in this turn or to
    try it out, or assent with a go-ahead?"""
    if _DAY_FEELING.search(sentence) or _ASSENT_GOING_ON.search(sentence):
        return True
    wish = _FIRST.search(sentence) or _TRY_OUT.search(sentence.lower())
    return bool(wish) and not _OWN_SCOPE.search(sentence)
