"""Someone else's rule passed on, and a line of a tool's frame (``credo.knowledge.capture``,
round 19).

Two forms left among round 18's false positives on the three sets written after it (now
``dev23``-``dev25``); each costs no true positive and no labelled statement in any of the 25
development files, and each is a form, not a phrasing:

- ``relayed``: a rule reported as someone else's, with nothing of the speaker's own: a
  leading "apparently" / "supposedly" / "allegedly" / "reportedly" ("Apparently the art team
  wants all textures to be power of two from now on."), or an indefinite or earlier third party
  as the subject of a verb of saying ("Someone on reddit said you should always set ...", "The
  previous agent insisted we always use ..."). The older hearsay checks
  (``shape_negative``, ``guards.HYPOTHETICAL``) know "someone said" and "my lead says" but
  not a place between subject and verb, nor "insisted". Any other third party counts when it
  wants, said or suggested a norm for "we", "you" or "all" ("Rahul suggested we should always
  run the HIL tests before merge": blind false positives in dev15, dev18 and dev23, no true
  positive anywhere). "legal said any third-party font needs its licence file ..., and that
  applies to every font we add" is left alone: users relay their own team's rules.
- ``boxed``: a line that opens with a box-drawing character or a checklist box ("│ The
  -target option is not for routine use", "[ ] Image elements do not have `[alt]` attributes"):
  a tool's framed warning or an audit's checklist, pasted.
"""

from __future__ import annotations

import re

__all__ = ["boxed", "relayed"]

_RELAYED = re.compile(
    r"""^\W*(?:apparently|supposedly|allegedly|reportedly)\b
    |^\W*(?:someone|somebody|people|some\s+[\w-]+|a\s+[\w-]+
    |the\s+(?:previous|last|old|other|former)\s+[\w-]+)
    \s+(?:(?:on|at|in|from)\s+[\w.-]+\s+)?
    (?:said|says|insisted|insists|claimed|claims|swears|swore|reckons|wants|told\s+(?:me|us))\b""",
    re.IGNORECASE | re.VERBOSE,
)
# A third party (not "I", "we", "you") who wants, said or suggested a norm for "we", "you" or
# "all": "Rahul suggested we should always run the HIL tests before merge", "opposing counsel
# wants all productions as native files from now on".
_THIRD_NORM = re.compile(
    r"""^\W*(?!(?:i|we|you|it|this|that|there)\b)(?:(?:the|our|my|a|an)\s+)?(?:[\w'-]+\s+){0,2}?
    (?:wants|suggested|suggests|said|says|insisted|insists|recommended|recommends|proposed|
    proposes)\s+(?:that\s+)?(?:we|you|all|every|everything|everyone)\b""",
    re.IGNORECASE | re.VERBOSE,
)
_BOXED = re.compile(r"^\s*(?:[\u2500-\u257f]|\[[ xX]\]\s)")


def relayed(sentence: str) -> bool:
    """Is ``sentence`` a rule passed on from someone else ("Someone on reddit said you should
    always ...")?"""
    return bool(_RELAYED.search(sentence) or _THIRD_NORM.search(sentence))


def boxed(sentence: str) -> bool:
    """Does ``sentence`` open with a box-drawing character or a checklist box ("│ The -target
    option is not for routine use")?"""
    return bool(_BOXED.search(sentence))
