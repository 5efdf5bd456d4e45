"""How a sentence opens: the words before its content ("No,", "From now on", "Actually")
and the leads that correct the agent. "We changed our mind on X:" is both; only a sentence
with "mind" can hold it, so only such a sentence compiles the patterns that read it
(``credo.knowledge.lazy_pattern``: every hook worker imports capture afresh).
"""

from __future__ import annotations

import re

from credo.knowledge.lazy_pattern import LazyPattern
from credo.knowledge.signals import CORRECTION_LEAD

__all__ = ["correction_lead", "lead_in"]

_LEAD_WORDS = r"""(?:no|nope|nah|actually|ok|okay|also|and|but|so|anyways?|btw|fyi|note|important|
    heads\s+up|change\s+of\s+plans?|reminder|pro\s+tip|one\s+more\s+thing|oh|hey|well|again|please\s+note|
    (?:(?:our|the|final)\s+)?decision(?=[*_]*\s*(?::|[—–]|-{1,2}\s))[*_]*|
    tbh|honestly|seriously|fwiw|imo|imho|to\s+be\s+honest|
    just\s+so\s+you\s+know|for\s+the\s+record|as\s+a\s+reminder|wait|hm+|um+|uh+|
    like(?=,?\s+(?:is|are|was|were|do|does|did|can|could|would|will|should|how|what|why|where)\b)|
    from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|
    in\s+(?:the\s+)?future|in\s+general|generally|by\s+default|as\s+a\s+rule|
    (?:in|for|across)\s+(?:this|our|the)\s+(?:repo|repository|project|codebase|team|monorepo)|
    (?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|it'?s)\s+(?:wrong|incorrect|not\s+right)"""
# A label "Decision:" ("**Decision**:", "Our decision:") opens what is decided, as "Heads up:"
# opens the news: read with it, "Decision: we keep it." was long enough to count (review89).
# "We changed our mind on X:" opens what the mind is changed to (days86).
_CHANGED_MIND = r"""|(?:we|i)(?:'ve|\s+have)?\s+changed\s+(?:our|my)\s+minds?
    (?:\s+(?:on|about)\s+(?:the\s+|our\s+)?[\w.'-]+(?:\s+[\w.'-]+){0,3}?)?(?=\s*[,:;—–-])"""
_FORM = r"""^(?:[\W_]+|%s)(?:[\s,:;.!—–-]+|$))+"""
_LEAD_IN = re.compile(_FORM % _LEAD_WORDS, re.VERBOSE)
_LEAD_IN_MIND = LazyPattern(_FORM % (_LEAD_WORDS + _CHANGED_MIND), re.VERBOSE)
# "We changed our mind on X: ..." corrects what was decided, as "No, ..." does.
_CHANGED_MIND_LEAD = LazyPattern(
    r"^(?:so\s+)?(?:we|i)(?:'ve|\s+have)?\s+changed\s+(?:our|my)\s+minds?\b"
    r"(?=[^,:;—–-]{0,40}[,:;—–-])",
    gate=("mind",),
)


def lead_in(clean: str) -> str:
    """The lower-cased sentence ``clean`` without its lead-in words."""
    return (_LEAD_IN_MIND if "mind" in clean else _LEAD_IN).sub("", clean)


def correction_lead(clean: str) -> bool:
    """Does the lower-cased sentence ``clean`` open by correcting the agent?"""
    return CORRECTION_LEAD.match(clean) is not None or _CHANGED_MIND_LEAD.match(clean) is not None
