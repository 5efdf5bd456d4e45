"""The user taking back something they said (docs/AGENT.md § Taking a statement back).

"Forget what I said about the release manager.", "Scratch what I said about the port",
"forget the thing about the cache" (a terse user's, days87),
"Never mind the pytz exception, keep the package free of dependencies." name an earlier
statement of the user's and withdraw it. Which stored belief that was is a guess, so nothing
here deletes: ``taken_back`` reads what the user takes back (its words), the hook names the
user's beliefs that hold those words to the agent, which can forget them (``forget_belief``).
Only a retraction that names a rule by its kind ("the pytz exception", "the no-mocks rule")
and says what holds instead (", keep the package free of dependencies") is a statement in
its own right: capture keeps it, and it replaces the belief it takes back by the usual rule
(``credo.knowledge.replace``: its object's name is what it rules out).

"never mind the lint warnings for now", "never mind, I found it" take back no statement: the
first names a task, the second nothing.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["NOT_A_RULE_TAKEN_BACK", "RULE_RETRACTION", "taken_back"]

_LEAD = r"^\W*(?:(?:ok|okay|actually|so|and|oh|also|please)[\s,]+)*"
# "forget what I said about X", "ignore what I told you about X", "I take back what I said on X";
# a thing not told as said ("forget the thing about X", "drop the stuff about X") is taken
# back by a verb of memory ("drop" with "about"): "ignore the part on line 5", "drop the note
# on the PR", "drop the part about caching from the docs" ask for work on an artefact
# (review88).
_THING = r"(?:the|that)\s+(?:thing|bit|stuff|part|note)\s+"
_SAID = (
    _LEAD
    + rf"""(?:(?:forget|ignore|disregard|scratch|drop|i\s+take\s+back|take\s+back)\s+
    (?:what\s+i\s+(?:said|told\s+you|wrote)|my\s+(?:earlier\s+|last\s+)?(?:note|point|comment|
    remark|rule|instruction)|{_THING}i\s+said)\s*(?:earlier\s+)?(?:about|on|regarding)\s+
    |(?:(?:forget|disregard|scratch)\s+{_THING}(?:about|on|regarding)|drop\s+{_THING}(?:about|
    regarding))\s+(?![^,;:.!?—–]*\sfrom\s))
    (?P<object>(?:[^,;:.!?—–]|\.(?=\w)){{2,60}})"""
)
# A rule named by its kind: "the pytz exception", "that no-mocks rule", "my tabs preference".
_KINDS = r"(?:exception|rule|convention|decision|policy|preference|requirement|guideline)s?"
# What holds instead, said as a rule: "keep the package free of dependencies", "we use tabs",
# "we run plain pytest" (probe82), "always ...". A reason ("it's noisy", "it was a flaky
# network") or a plan ("we'll revisit it") says nothing that holds.
_INSTEAD = r"""(?:(?:just|please|so|and)\s+)?(?:(?:we|our\s+\w+)\s+)?(?:keep|use|uses|stick|stay|
    go|always|never|don'?t|do\s+not|prefer|require|requires|allow|stays|run|runs)\b"""
RULE_RETRACTION = re.compile(
    _LEAD
    + rf"""(?:never\s*mind|forget|scratch|disregard)\s+(?:about\s+)?
    (?:the|that|this|my|our)\s+(?P<object>(?:[\w`'./@+-]+\s+){{1,4}}?){_KINDS}\b
    (?!\s+for\s+(?:now|this|today))(?P<after>\s*[,;:—–]\s*{_INSTEAD}.*)?""",
    re.IGNORECASE | re.VERBOSE,
)
# After "never mind": not a rule taken back with what holds instead (the one-off vetoes and
# guards that read "never mind" as a repair or a report leave that form to this module).
NOT_A_RULE_TAKEN_BACK = rf"""(?!\s+(?:about\s+)?(?:the|that|this|my|our)\s+
    (?:[\w`'./@+-]+\s+){{1,4}}?{_KINDS}\b(?!\s+for\s+(?:now|this|today))\s*[,;:—–]\s*
    {_INSTEAD})"""
_NOT_NAME = frozenset("the a an that this my our your its it them old new earlier last".split())


@cache
def _said() -> re.Pattern[str]:
    """``_SAID`` compiled on first use: only the hook asks, and only for a prompt that may
    take something back (capture reads ``RULE_RETRACTION`` alone)."""
    return re.compile(_SAID, re.IGNORECASE | re.VERBOSE)


def taken_back(sentence: str) -> str | None:
    """The words of what ``sentence`` takes back ("the release manager", "pytz"), if it
    retracts a statement of the user's; ``None`` otherwise."""
    found = _said().match(sentence) or RULE_RETRACTION.match(sentence)
    if found is None:
        return None
    words = [w for w in found.group("object").split() if w.lower() not in _NOT_NAME]
    return " ".join(words) or None
