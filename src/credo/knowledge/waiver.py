"""Sentences that waive their own force (``credo.knowledge.capture``, round 11).

Round 11 looked for what the confident false positives of the tenth blind set share, rather
than one more phrase per near miss. Three forms take back what the rule words seem to say:

- a *waiver*: the speaker says the point does not bind ("it's fine", "fine as is", "no strong
  opinion", "opinion, not a decision", "not now", "none of this needs to be perfect") or is
  not theirs to set ("their repo, not mine", "not my call", round 14: "not our problem"), or
  disclaims the rule its own words state ("I'm not saying we should always use snapshots",
  round 13);
- the *speaker's own mistake*: the correction is of the speaker, not of the agent ("my
  fault", "my bad", "I exported the wrong file");
- an *evaluation of state* in a sentence with no prescribing cue: "X returns garbage", "the
  predictions are off by 12 minutes" judge how things are today, no one is told anything.

Each reads the lower-cased, cleaned sentence. Written after studying the tenth blind set
(``dev11``); each pattern names a form, not a phrase of one prompt.
"""

from __future__ import annotations

import re

__all__ = ["waived"]

_WAIVER = re.compile(
    r"""\b(?:it'?s|that'?s|thats|that\s+is|it\s+is)\s+(?:totally\s+|perfectly\s+|all\s+)?fine
    (?!\s+(?:to|for|if|when|as\s+long)\b)
    |\bfine\s+as\s+is\b
    |\bno\s+strong\s+(?:opinion|feelings?|preference)\b
    |\b(?:opinion|preference|thought|suggestion|idea|hunch),?\s+not\s+a\s+
    (?:decision|rule|requirement|request)\b
    |\bnot\s+now\b(?!\s+(?:that|when))
    |\b(?:none\s+of\s+this|it|this)\s+(?:needs?|has)\s+to\s+be\s+perfect\b
    |\bnot\s+(?:mine|ours|(?:my|our)\s+(?:call|problem|decision|repo|project|codebase|
    concern|department|job|responsibility))\b
    |\b(?:their|his|her)\s+(?:call|problem|decision)\b
    |^(?:i'?m|i\s+am)\s+(?:just\s+)?not\s+saying\b""",
    re.VERBOSE,
)
_OWN_MISTAKE = re.compile(
    r"""\bmy\s+(?:fault|bad|mistake)\b
    |\bi\s+(?:\w+ed|sent|gave|took|got|made|put)\s+(?:you\s+)?the\s+wrong\b
    |\bi\s+was\s+wrong\b""",
    re.VERBOSE,
)
_BUT = re.compile(r"\W*(?:but|as\s+long\s+as)\b")
# A judgement of how a thing behaves or looks today, not a convention: in the predicate ("X
# returns garbage", "the numbers are off by 12"), not on the subject ("Flaky tests go in the
# quarantine suite", "Junk files are deleted after 30 days" are rules).
_EVALUATION = re.compile(
    r"""\b(?:is|are|was|were|returns?|gives?|looks?|seems?|gets?|got|has|have|went|spits?\s+out)
    \s+(?:[\w'-]+\s+){0,2}?(?:garbage|junk|broken|busted|flaky|wonky|messed\s+up|a\s+mess|
    off\s+by|ugly|weird)\b""",
    re.VERBOSE,
)


def waived(clean: str, *, prescribes: bool) -> str | None:
    """The name of the form that takes back the sentence's force, if any. ``prescribes``: a
    prescribing cue fired (a directive, a deontic verb, a taste, a contrast, a correction...);
    an evaluation vetoes only a sentence without one."""
    waiver = _WAIVER.search(clean)
    if waiver and not _BUT.match(clean, waiver.end()):
        return "waiver"  # "X is fine, but code stays in English": conceded, then prescribed
    if _OWN_MISTAKE.search(clean):
        return "own_mistake"
    if not prescribes and _EVALUATION.search(clean):
        return "evaluation"
    return None
