"""Tastes that are no preference (``credo.knowledge.capture``).

A preference worth keeping names a kind of thing or a way of working ("I like small PRs",
"I'd rather you use `rg`"). The same words also say how the speaker feels about something
that is no part of the work to come, and those are praise, gripes and jokes:

- a taste for a referent of this turn ("I like the new sidebar", "I love how you split that")
  or for this conversation ("I'd rather not talk about the outage");
- the old joke's simile ("I prefer my bugs reproducible, unlike my sourdough");
- a wish about the thing at hand ("I'd like to understand it before I approve") or to
  change it ("I want to change how the width is computed": this turn's task);
- a taste for the speaker's own hours (round 12: "I prefer brewing stouts in winter"), and,
  round 14, for a time itself ("I hate Mondays", in three files by three authors);
- round 14: a wish not to think about something ("I prefer not to think about how many
  Caddyfiles we have"), to be elsewhere ("I'd rather be hiking"), a thing's feeling for the
  speaker ("this Monday hates me back"): feelings, not ways of working.

Each reads the lower-cased sentence without its lead-in words (``core``). Moved out of
``capture.py`` in round 14 (it was at the 600-line limit).
"""

from __future__ import annotations

import re

from credo.knowledge.signals import DURABLE

__all__ = ["feeling", "no_taste", "own_time", "wish_for_referent"]

_TASTE_VERB = r"(?:like|love|enjoy|hate|dislike|adore|prefer)"
_TASTE_FOR_REFERENT = re.compile(
    rf"^i\s+(?:really\s+|just\s+|much\s+)?{_TASTE_VERB}\s+"
    r"(?:the|this|that|these|those|your|how|what)\b"
    # negated, on a demonstrative: "I don't love this design" (round 15); "I don't love how
    # chatty your PR descriptions are" names a habit of the agent and stays a preference
    rf"|^i\s+(?:do\s+not|don'?t|didn'?t)\s+(?:really\s+)?{_TASTE_VERB}\s+(?:this|that|these|those)\b"
    r"|^(?:i'?m\s+)?not\s+(?:a\s+|the\s+)?(?:big\s+|huge\s+)?fan\s+of\s+(?:this|that|these|those)\b"
    r"|^(?:i'?d|i\s+would)\s+(?:much\s+)?rather\s+not\s+(?:talk|discuss|get\s+into|go\s+into)\b"
)
_SIMILE = re.compile(r"\b(?:prefer|like|love)\s+my\s+.+?\b(?:un)?like\s+(?:i\s+\w+\s+)?my\b")
# "I'd rather not know", "I prefer not to think about it": the speaker's feeling. "I'd rather
# be hiking" (four files, four authors): where the speaker wishes to be. "Jira hates me back": a
# thing's feeling for the speaker, a joke.
_FEELING = re.compile(
    r"\b(?:prefer|rather|like)\s+not\s+(?:to\s+)?(?:think|know|remember|imagine|picture|dwell)\b"
    r"|\brather\s+be\s+[a-z]+ing\b|\b(?:hates?|loves?)\s+me\b"
)
_WISH_FOR_REFERENT = re.compile(
    r"^(?:i'?d|i\s+would)\s+(?:really\s+)?(?:like|love|want)\s+to\s+[a-z]+\s+(?:it|this|that|them)\b"
)
# The change the speaker is about to make to the thing at hand ("I want to change how the width
# is computed", "I'd like to fix the sync retry"): this turn's task, not a way of working.
# A word for later sessions, the speaker's own part or the whole project keeps the taste: "I
# want to update the changelog myself", "I want to fix bugs before features, every time", "I
# want to remove the default exports everywhere", "... in all new repos", "... wherever
# possible", "... in the next major version" (review87), and any word ``DURABLE`` reads ("as
# a rule", "by default", "for all services").
_TASK_VERB = (
    r"(?:change|fix|add|refactor|rename|remove|rewrite|implement|modify|tweak|adjust|rework|"
    r"debug|extend|move|replace|update|improve|optimi[sz]e|simplify|split|speed\s+up|clean\s+up)"
)
_WISH_TO_CHANGE = re.compile(
    r"^(?:(?:i|we)\s+(?:really\s+|just\s+)?want|(?:i'?d|i\s+would|we'?d|we\s+would)\s+"
    rf"(?:really\s+)?like)\s+to\s+{_TASK_VERB}\s+"
    r"(?:how|what|where|why|which|when|the|this|that|these|those|its?)\b"
    r"(?!.*\b(?:always|never|whenever|every|each|any|from\s+now\s+on|going\s+forward|"
    r"in\s+general|myself|ourselves|first|before|everywhere|across|throughout|"
    r"in\s+(?:this|our|the\s+whole)\s+(?:repo|repository|codebase|project|app)|"
    r"(?:in|for)\s+all|wherever|where\s+possible|eventually|over\s+time|"
    r"in\s+(?:the\s+)?next\s+(?:major\s+|minor\s+)?(?:version|release))\b)"
)
_OWN_TIME = re.compile(
    r"^i\b.*\b(?:(?:in|during)\s+(?:the\s+)?(?:winter|summer|spring|autumn|fall|mornings?|"
    r"evenings?|afternoons?)|at\s+night|on\s+(?:the\s+)?weekends?|on\s+(?:holiday|vacation)|"
    r"after\s+midnight)\b"
    # a time as the taste's object: "I hate Mondays", "I love winter", "I prefer mornings"
    rf"|^i\s+(?:really\s+|just\s+|do\s+)?{_TASTE_VERB}s?\s+(?:(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)days|mornings|evenings|afternoons|nights|weekends|winters?|summers?|"
    r"autumns?|springtime|deadlines|meetings)\b"
    # the time is the whole object: "I hate winter deploys" is a taste for deploys
    r"(?=\W*$|\s*[,.;:!—–]|\s+(?:and|but|so|or|because|in|at|on|for|with|without|when|lol|haha)\b)"
)


def wish_for_referent(core: str) -> bool:
    """The speaker's wish about the thing at hand: "I'd like to understand it first", "I want
    to change how the width is computed"."""
    if _WISH_FOR_REFERENT.match(core):
        return True
    return _WISH_TO_CHANGE.match(core) is not None and DURABLE.search(core) is None


def no_taste(core: str, *, general: bool) -> bool:
    """Do the sentence's taste words say how the speaker feels rather than how to work? A
    taste for a referent counts only without a ``general`` scope ("I like the tests to run
    everywhere" is a preference); a simile or a feeling (``_FEELING``) never does."""
    if _SIMILE.search(core) or _FEELING.search(core):
        return True
    return not general and _TASTE_FOR_REFERENT.match(core) is not None


def feeling(core: str) -> bool:
    """A feeling in a taste's words ("I'd rather be hiking", "I prefer not to think about
    it", "Jira hates me back"): the caller drops the sentence when nothing but the taste and a
    contrast ("rather ... than") prescribes."""
    return _FEELING.search(core) is not None


def own_time(core: str) -> bool:
    """A taste bound to the speaker's own hours or to a time itself ("I prefer brewing stouts
    in winter", "I hate Mondays"): their life outside the work, when nothing else
    prescribes (the caller checks that)."""
    return _OWN_TIME.search(core) is not None
