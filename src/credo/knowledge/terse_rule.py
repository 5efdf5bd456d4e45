"""A terse user's standing rule without "always" (twice87): "dont mock redis in tests, use
fakeredis", "use npm for the docs tooling" (``credo.knowledge.shape``'s cues; scored as a
contrast: ``credo.knowledge.score``).

- ``instead_named``: a named thing put in a practice's place ("dont X, use NAME"): X is ruled
  out as "use NAME, not X" rules it out. Not a thing at hand undone ("dont delete it, use git
  mv"), nor an alternative told as one ("use the draft", "use whatever").
- ``tool_role``: a tool given its role ("use NAME for a purpose"): the others are ruled out
  for it, as "we decided to use black for formatting" rules them out.

Either is the whole sentence, with a name (no article, pronoun or number: "use the logger",
"use 900 for the timeout") and no word that ties it to this turn ("here", "this time", "yet",
"for now", "this one", "in this test").
"""

from __future__ import annotations

import re

from credo.knowledge.lazy_pattern import LazyPattern

__all__ = ["INSTEAD_NAMED", "TOOL_ROLE"]

_I = re.VERBOSE  # the cues read the lower-cased sentence without its lead-in words

# A name: not a determiner, pronoun or number ("use the draft", "use it", "use 900").
_NAME = r"""(?!(?:the|a|an|this|that|these|those|my|your|our|their|its|it|them|some|any|what|
    whatever|which|one|another|each|every|both|all|cached)\b)(?!\d)[\w`.@/-]*[a-z][\w`.@/-]*"""
# Words that tie a sentence to this turn.
_NOT_THIS_TURN = r"""(?!.*\b(?:here|now|today|tonight|yet|this|that|these|those|it|them|
    again|first|anymore)\b)"""

INSTEAD_NAMED = LazyPattern(
    rf"""^{_NOT_THIS_TURN}(?:don'?t|do\s+not)\s+(?!worry\b|wait\b|bother\b)[a-z]+\s+
    [^,;]{{1,40}}?[,;]\s+(?:just\s+)?use\s+{_NAME}(?:\s+instead)?\s*[.!]?$""",
    _I,
    gate=("use ",),
)
TOOL_ROLE = LazyPattern(
    rf"""^{_NOT_THIS_TURN}use\s+{_NAME}\s+for\s+(?!(?:the\s+)?(?:moment|time\s+being|demo|run|
    test|pr|while|bit|one)\b)(?!a\s|an\s|my\s|your\s)[a-z][\w\s.@/-]{{1,40}}?\s*[.!]?$""",
    _I,
    gate=("use ",),
)
