"""Frames: whole constructions that state a durable rule on their own (``credo.knowledge.capture``).

Signal classes (``credo.knowledge.signals``) are single words and phrases, and two of them
must agree. Some constructions carry that agreement in their grammar, so one is enough:

- ``preference frame``: a first-person, present-tense statement of taste with a general
  object ("I prefer table-driven tests", "I don't like magic numbers", "I'd rather you never
  ...", "I'd rather not <use/add/mock ...> ...", "my preference is ..."). Praise of this
  turn's work ("I love how you ...", "I like the new layout"), the speaker's own habits ("I
  like to ...", "we like to move fast") and banter ("..., lol") are not frames.
- ``law``: a quantified subject with a present-tense verb, the shape of a generic rule
  ("every PR needs one approval", "all timestamps are UTC", "any change to X needs Y",
  "no one pushes to main").
- ``negated habit``: "we don't / never / no longer <verb>", the team's standing prohibition
  ("we don't squash-merge"), but not a report of what we did or know ("we never got around
  to", "we don't know").
- ``future frame``: an explicit framing for later sessions ("from now on", "going forward",
  "for future sessions", "rule of thumb for this project") followed by content.
- ``memo``: "remember that / remember: <present-tense clause>", a fact asked to be kept
  (not one about the past: "remember that the tests were failing").

And a class for the sentence's subject:

- ``habitual``: a bare plural subject with a present-tense verb ("API versions are never
  removed", "handlers never open a session"): generic, about a kind of thing, not about one
  thing now. It counts with a second class (``durable``, ``assertion``), never alone, since
  "tests are green now" has the same shape.

Guards that only frames need: a clause about now ("now", "currently", "still", "again",
"yesterday") is a report of state, not a law.
"""

from __future__ import annotations

import re

# The patterns read lower-cased text (``credo.knowledge.capture`` lowers each sentence once):
# without IGNORECASE the regex engine can skip ahead on literal prefixes.
_L = 0

# Objects of "like"/"love"/"hate" that point at this turn's work or are not a taste at all.
_DEICTIC_OBJECT = r"(?:how|it|that|this|these|those|what|the|your|when\s+(?!you|we)|you\b(?!\s+to))"
# "I prefer the second option": a choice among this turn's alternatives.
_CHOICE = r"""(?:it|that|this|how|what|your|option|approach|version|one|
    the\s+(?:first|second|third|last|other|former|latter|previous|original|new|old|one)|
    (?:the\s+)?(?:former|latter))"""

PREFERENCE_FRAME = re.compile(
    rf"""^(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+|do\s+|also\s+)?
        prefer\s+(?!{_CHOICE}\b)\S+\s+\S
        |^i\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+|do\s+|also\s+)?
        (?:like|hate|dislike|don'?t\s+like|do\s+not\s+like|can'?t\s+stand)\s+
        (?!{_DEICTIC_OBJECT}\b|to\b)\S+\s+\S
        |^(?:i'?d|i\s+would|we'?d)\s+(?:much\s+)?rather\s+(?:you|we)\s+
        (?:didn'?t|not|never|always|avoid)\b
        |^(?:i'?d|i\s+would|we'?d)\s+(?:much\s+)?rather\s+not\s+(?:use|add|have|write|run|mix|rely|
        depend|pull\s+in|introduce|mock|commit|push|ship|store|keep|put|import|call|vendor|pin)\b
        |^(?:i'?d|i\s+would)\s+(?:much\s+|really\s+|generally\s+)?(?:rather|prefer)\s+(?!(?:be|not)\b)\S+\s+\S
        |^i'?d\s+(?:really\s+)?(?:appreciate|like)\s+it\s+if\s+you\b
        |^(?:my|our)\s+preference\s+(?:is|for)\b
        |^i'?m\s+(?:(?:very|quite|a\s+bit)\s+)?(?:picky|particular)\s+about\b
        |^i'?m\s+(?:much\s+)?(?:more\s+)?comfortable\s+with\s+(?!(?:it|that|this)\b)""",
    _L | re.VERBOSE,
)

# Talk, not a request: laughter, and the past "used to".
BANTER = re.compile(
    r"\b(?:lol|lmao|rofl|haha\w*|hehe?|jk|used\s+to)\b|[\U0001F602\U0001F923\U0001F605\U0001F643]",
    _L,
)

# Present perfect reports what happened ("no one has reviewed it"), not a law.
PERFECT = re.compile(
    r"\b(?:has|have|hasn'?t|haven'?t)\s+(?:ever\s+|never\s+|not\s+)?(?:been|\w+ed|done|seen|made|"
    r"written|taken|broken|gotten|got|run)\b",
    _L,
)
# The speaker's own plans or a prediction, not a rule for the agent ("from now on I'll be out").
PLAN = re.compile(
    r"\b(?:i'?ll|i\s+will|i'?m\s+going\s+to|it'?ll|it\s+will|that'?ll|things\s+will)\b", _L
)

_PRESENT = (
    r"(?:is|are|isn'?t|aren'?t|needs?|must|mustn'?t|should|shouldn'?t|has|have|goes|go|"
    r"follows?|lives?|stays?|belongs?|gets?|uses?|runs?|may|can|cannot|can'?t|shall|"
    r"requires?|touches|touch|pushes|push|merges?|ships?|calls?|opens?|imports?|talks?)"
)

LAW = re.compile(
    rf"""^(?:all|every|each|any|no)\s+
        (?!(?:of|the|this|that|these|those|time|times|good|done|set|right|clear|idea|problem|
        worries|luck|way|need|thanks|doubt|matter|more|longer|way|sir|chance|reason)\b)
        (?:[\w'/.+`<>*-]+\s+){{0,5}}?{_PRESENT}\b""",
    _L | re.VERBOSE,
)

NEGATED_HABIT = re.compile(
    r"""^we\s+(?:don'?t|do\s+not|never|no\s+longer)\s+(?:ever\s+)?
        (?!(?:know|have|need|care|think|see|get|got|want|mind|understand|remember|really|
        even|usually|always|like|seem|agree|expect|recall|get|bother|worry|use\s+it)\b)
        [a-z][a-z-]*(?<!ed)\b""",
    _L | re.VERBOSE,
)

FUTURE_FRAME = re.compile(
    r"""\b(?:from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|
        (?:for|in)\s+(?:all\s+)?future\s+(?:sessions?|work|changes|prs)|for\s+next\s+time|
        rules?\s+(?:of\s+thumb\s+)?for\s+(?:this|our|the)\s+(?:repo|repository|project|codebase|team)|
        rule\s+of\s+thumb|(?:as\s+a\s+)?(?:general|hard|house|standing|team)\s+rule)\b""",
    _L | re.VERBOSE,
)

MEMO = re.compile(
    rf"""^(?:remember|keep\s+in\s+mind|note|never\s+forget)(?:\s+that\b|\s*:)\s*
        (?:[\w'/.+`<>*-]+\s+){{0,6}}?(?:still\s+|always\s+|never\s+|only\s+)?
        (?:{_PRESENT}|[a-z]{{2,}}[^s\W]s)\b""",
    _L | re.VERBOSE,
)

_PLURAL = r"[a-z][\w-]*[^s'\W_]s"
# A setting kept ("our docs set MD013 line_length to 80": probe89): "set" a name to a value,
# not an idiom of "set" ("our docs set a bad example", "set the stage for 2.0", "set sail",
# "set aside a section", "set fire to the build"). "Set" is its own past: a time gone by
# ("... to 80 last year", "two years ago", "back then", "in 2023") tells what was (review90).
_SET_VALUE = r"""(?!\s+(?:fire|light|foot|eyes|sail|pen|sights?|minds?|hearts?|store|great)\b)
    (?!\s+(?:the\s+|a\s+|an\s+)?(?:scene|stage|tone|mood|pace|bar|record|trend|example|
    precedent|standard|agenda|wheels)\b)
    (?=\s+(?:(?!(?:for|with|at|by|from|about|into|onto|up|off|out|aside|back|apart|forth|in|
    on)\b)[\w`'./*-]+\s+){1,5}?(?:to|=)\s+(?!(?:make|help|keep|avoid|ensure|
    protect|prevent|come|fail|go|be)\b)[\w`'"./*-])
    (?!.*\b(?:ago|last\s+(?:year|week|month|night|time|sprint|quarter|release)|back\s+then|
    at\s+the\s+time|in\s+(?:19|20)\d\d|originally|previously|formerly|until\s+recently|
    by\s+(?:mistake|accident)|accidentally|before\s+(?:the|our)\s+(?:redesign|rewrite|migration|
    refactor|switch|move|upgrade))\b)"""
_SET = rf"set{_SET_VALUE}"
HABITUAL = re.compile(
    rf"""^(?:our\s+|all\s+)?
        (?!(?:the|this|that|these|those|it|its|i|you|we|they|he|she|my|your|their|his|her|there|here|if|when|
        what|why|how|who|which|some|most|many|few|both|several|other|others|upstream)\b)
        (?:[\w'/.+`-]+\s+){{0,2}}?{_PLURAL}
        (?:\s+(?:in|on|for|of|from|under|with|to|at)\s+(?:the\s+)?(?:[\w/.`*-]+\s+){{0,2}}?[\w/.`*-]+)?
        (?:\s+here)?\s+
        (?:always\s+|never\s+|only\s+)?(?:are|aren'?t|go|follow|need|must|should|have|live|
        get|use|run|{_SET}|stay|happen|never|always|only|don'?t)\b
        # (one of ours, told with "sets": no past, "our prettier config sets printWidth to 100")
        |^our\s+(?:[\w'/.+`-]+\s+){{0,2}}?[a-z][\w.-]*\s+(?:always\s+|only\s+)?sets{_SET_VALUE}""",
    _L | re.VERBOSE,
)

# Predicates that state a convention by themselves ("names follow X", "docs are written in Y").
NORMATIVE = re.compile(
    r"""\b(?:follows?|go(?:es)?\s+(?:through|behind|to|in|into|under)|
        (?:is|are)\s+(?:always\s+|never\s+|only\s+)?(?:written|named|formatted|stored|kept|
        prefixed|suffixed|owned|frozen|generated|derived|required|forbidden|banned|deprecated)\b)""",
    _L | re.VERBOSE,
)

# The past: what happened, not what holds ("remember that the tests were failing").
PAST = re.compile(r"\b(?:was|were|did|had|used\s+to|last\s+(?:week|time|night|month))\b", _L)

# A clause about the present moment: a report of state, not a standing rule.
# (not a name in code: "datetime.now", "date.today()")
NOW = re.compile(
    r"(?<!\.)\b(?:now|currently|still|again|yesterday|today|at\s+the\s+moment|so\s+far|lately)"
    r"\b(?!\()",
    _L,
)

# Praise of what the agent just did ("I love how you always ..."), not a taste; round 14: a
# sentence opened by praise of a call or a find ("Good call using a set there", "Great call on
# using `executeBlocking`", "Good catch by the reviewer: ...") evaluates what was just done.
PRAISE = re.compile(
    r"\b(?:love|like|liked|loved)\s+(?:how|that|the\s+way)\s+you\b"
    r"|^\W*(?:(?:ok|okay|oh|ah)\W+)?(?:good|nice|great|excellent)\s+(?:call|catch|job|work|find|"
    r"point|spot)\b",
    _L,
)

# Someone else's opinion, or a plan for some day: not the user's rule.
REPORTED = re.compile(
    r"""\b(?:thinks|says|believes|claims|suggests|insists|told\s+me|wants\s+us)\b
        |\b(?:docs|documentation|guides?|readmes?|manuals?|specs?|rfcs?|wikis?|tutorials?|
        articles?|posts?)\s+(?:says?|states?|claims?|recommends?|suggests?)\b
        |\b(?:someday|some\s+day|one\s+day|eventually|at\s+some\s+point)\b""",
    _L | re.VERBOSE,
)
