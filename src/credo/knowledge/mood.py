"""Mood: does a sentence describe the world, or prescribe how to work? (``credo.knowledge.capture``)

A rule, a preference or a correction *prescribes*: it tells the agent what to do, or states a
convention the project keeps ("Timestamps are UTC", "we rebase, never merge"). Talk that
borrows a rule's words *describes*: what happened, what is happening, how something behaves or
feels, what the speaker will do, what someone ought to do some day. The fourth blind set showed
that every false positive of round 4 was of this second kind, worded with "never", "always",
"only" or "prefer": "Jenkins has never been reliable here", "The CI runners are always slow on
Mondays", "Someone should automate the renewal", "Never again am I upgrading Xcode".

Each check below reads the *form of the main clause* (its aspect, its predicate, its subject),
not a phrasing: the grammar of a description does not change with the topic. A sentence that
fires one is not captured, unless it also carries explicit force for later sessions (the caller
keeps that exception: "from now on", a deontic verb).

- ``perfect``: present or past perfect ("has never been", "hasn't worked", "had broken"): what
  has happened so far. The speaker's own "I've told you / said / mentioned" is a reproach, not
  history, and is left to the correction cues; "I've ever" and "I've never (actually) read"
  are the speaker's experience.
- ``progressive``: past progressive ("the tests were passing"), what was going on; or what a
  named thing keeps doing ("loads() keeps raising X"), a report.
- ``ongoing``: present progressive in the main clause ("I'm handing the pager to Priya"): what
  is going on now. Anchored like a state: a contrast or a directive in the sentence wins.
- ``finding``: evidence for what the speaker found or half-recalls ("looks like", "turns out",
  "which tracks with", a trailing "I think", "I half-remember"), or a guess named as one
  ("my hunch is", "my gut says", "I have a feeling": round 13).
- ``plan``: a plan or a piece of work to do once ("the plan is to", "we should automate the
  checklist"), unless a quantifier or "always" in its clause makes it a rule.
- ``appointment``: a clock time or a deadline with no recurrence ("has to leave at 4", "by
  end of day"); "every night at 2" recurs and is a rule's time.
- ``state``: a copula with a state or evaluative adjective ("are always slow", "is so flaky",
  "is only 40%"): how something behaves or feels, not what to do.
- ``history``: a subjectless past ("Never used Typst before", "Always wanted to try Zig"):
  the speaker's history; an imperative's verb would be in its base form.
- ``wish``: an indefinite agent with a modal ("someone should", "somebody needs to"): a wish,
  addressed to no one.
- ``vow``: the speaker's own future action ("never again am I", "I'll never", "I'm not going to
  ever", "let me think about it"): a plan or a vow of the speaker, not a rule for the agent.
- ``repair``: the speaker corrects their own message ("I mean my own message", "typo in my
  last prompt"), not the agent.
- ``while``: a clause that bounds the instruction to what is going on now ("while we debug
  this", "until I'm done with the migration").
"""

from __future__ import annotations

import re

__all__ = ["MOODS", "descriptive"]

_V = re.VERBOSE  # every pattern reads the lower-cased sentence

# Adverbs that may stand between a copula and its predicate.
_ADVERBS = r"""(?:(?:always|never|usually|often|sometimes|still|so|really|very|pretty|quite|too|
    super|kind\s+of|sort\s+of|a\s+bit|a\s+little|way|just|only|also|incredibly|painfully|
    notoriously|constantly|rarely|mostly|all|getting|even|not|n't|already)\s+)*"""

# State and evaluative adjectives: how a thing behaves or feels. Closed-ish by meaning (speed,
# reliability, health, difficulty, mood), not by topic; convention adjectives ("lowercase",
# "immutable", "required", "private") are deliberately absent, and so is "fine", which grants
# a permission ("--force-with-lease on your own branches is fine").
_STATE_ADJECTIVES = r"""(?:slow|slower|slowest|fast|faster|quick|sluggish|laggy|flaky|flakey|
    unreliable|reliable|unstable|stable|broken|down|stuck|dead|red|green|late|early|noisy|
    busy|idle|empty|full|missing|gone|ready|offline|unavailable|healthy|unhealthy|overloaded|huge|tiny|massive|expensive|cheap|costly|messy|fragile|brittle|buggy|weird|
    strange|odd|annoying|painful|hard|easy|tricky|confusing|great|terrible|awful|horrible|
    nice|lovely|beautiful|ugly|gross|fun|boring|amazing|awesome|cool|crazy|insane|
    ridiculous|useless|pointless|perfect|better|worse|best|worst|happy|sad|tired|sick|bored|
    scared|afraid|nervous|excited|glad|sorry|surprised|frustrated|annoyed|angry|done|over|
    overkill|overrated|underrated|magic|cursed|haunted|a\s+(?:mess|pain|nightmare|joke|
    disaster|classic|mystery|law\s+of\s+nature)|like\s+that)\b"""

_COPULA = r"(?:is|are|was|were|be|been|'s|'re|seems?|looks?|feels?|gets?|got|became|becomes?)"
# "still" with a state expected to end: "the new toggle is still disabled for EU customers",
# "the PR is still open". A convention's word stays out of the state adjectives ("root login
# is disabled"); "still" marks it as now. A place and a convention's participle are left out:
# "the site is still on PHP 7.4, so no enums", "Python 3.8 is still supported" are facts to
# work with.
_STILL = r"""\b(?:is|are|'s|'re)\s+still\s+(?:not\s+)?(?:disabled|enabled|hidden|broken|down|open|
    closed|pending|missing|blocked|stuck|unmerged|unfixed|unresolved|unreviewed|unanswered|behind|
    there)\b"""

MOODS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "perfect",
        re.compile(
            r"""(?:\s(?:has|have|hasn'?t|haven'?t|had|hadn'?t)|'ve|'s(?=\s+(?:\w+\s+)?been))\s+
            (?:(?:ever|never|not|always|already|just|still|also|all|really|only|long|actually|
            [a-z]{3,}ly)\s+)*
            (?:been|had|gone|seen|done|worked|broken|changed|failed|passed|run|made|taken|
            got|gotten|come|become|happened|moved|used|stopped|started|caused|needed|read|
            written|heard|tried|known|[a-z]{3,}ed)\b""",
            _V,
        ),
    ),
    # Past progressive, or what a named thing keeps doing ("loads() keeps raising X", "the
    # tests keep failing"): a report. Not "you keep using npm" (a reproach), "we keep" (a
    # habit), "keep using pnpm" (a directive) or "must keep working" (a rule).
    (
        "progressive",
        re.compile(
            r"""\b(?:was|were|wasn'?t|weren'?t)\s+(?:still\s+|just\s+|not\s+)?[a-z]{2,}ing\b
            |^(?!(?:you|we|i|please|just|and|so|then|also)\b)(?:[\w`'().-]+\s+){1,4}?
            (?<!\bmust\s)(?<!\bshould\s)(?<!\bto\s)(?<!\bwill\s)(?<!'ll\s)(?<!\bcan\s)
            (?<!\bmay\s)(?<!\bwould\s)(?<!\bnot\s)(?<!n't\s)(?:keeps|keep)\s+(?:on\s+)?
            [a-z]{2,}ing\b""",
            _V,
        ),
    ),
    ("state", re.compile(rf"\b{_COPULA}\s+{_ADVERBS}{_STATE_ADJECTIVES}|{_STILL}", _V)),
    (
        "measure",
        re.compile(
            r"""\b(?:is|are|was|were|'s|sits?|stays?|stuck|hovers?|at)\s+(?:only\s+|just\s+|
            about\s+|around\s+|at\s+|still\s+|now\s+|like\s+|back\s+|under\s+|over\s+|
            below\s+|above\s+|down\s+to\s+|up\s+to\s+)*~?\d[\d.,]*\s*(?:%|percent|ms|s\b|
            seconds?|minutes?|mins?|hours?|gb|mb|kb)""",
            _V,
        ),
    ),
    # Present progressive in the main clause: what is going on ("I'm handing the pager to
    # Priya at 18:00", "the worker is retrying"). "going to" is a plan, left to ``vow``.
    (
        "ongoing",
        re.compile(
            r"""\b(?:am|is|are|'m|'re|isn'?t|aren'?t)\s+(?:still\s+|just\s+|currently\s+|now\s+|
            already\s+|not\s+)?(?!going\b|nothing\b|something\b|anything\b|everything\b)
            [a-z]{2,}ing\b""",
            _V,
        ),
    ),
    # Evidence for a finding: the speaker reports what they saw or half-recall ("Looks like
    # the policy is in audit mode", "turns out", "which tracks with", "... I think").
    (
        "finding",
        re.compile(
            r"""^(?:(?:it\s+)?(?:looks|seems|sounds)\s+like|turns\s+out|apparently|
            (?:it\s+)?turns\s+out)\b
            |\b(?:which|that)\s+(?:tracks|lines\s+up|matches|fits|explains)\s+with\b
            |\b(?:which|that)\s+explains\b
            |\bi\s+(?:half-?remember|vaguely\s+remember|recall|seem\s+to\s+remember)\b
            |,?\s+i\s+(?:think|guess|believe|suppose)\W*$
            |^i\s+(?:really\s+)?(?:think|guess|believe|suppose|reckon|suspect|feel\s+like)\b
            (?!\s+in\b)
            |^(?:my|our)\s+(?:hunch|guess|gut(?:\s+feeling)?|bet|theory|suspicion|impression)
            \s+(?:is|was|says|tells\s+me)\b
            |^i\s+have\s+a\s+(?:hunch|feeling|suspicion)\b
            |\bnever\s+actually\b""",
            _V,
        ),
    ),
    # A plan or a piece of work the team means to do once ("The plan is to delete webpack in
    # Q2", "we should automate the whole release checklist"), or what is left to do in a note
    # with its subject dropped ("still need to tell Dana"): a change to make, not a way of
    # working. A quantifier or "always" in the same clause makes it a rule ("we should always
    # pin", "we have to add a changelog entry for every PR") and is left alone.
    (
        "plan",
        re.compile(
            r"""\b(?:the|our|my)\s+(?:plan|idea|goal)\s+is\s+to\b|\b(?:the|our|my)\s+plan\s+is\b
            |\bwe(?:'re|\s+are)\s+planning\b|\bwe\s+plan\s+to\b
            |^(?:i\s+)?still\s+(?:need|have|got)\s+to\b
            |\bwe\s+(?:really\s+)?(?:should|ought\s+to|need\s+to|gotta)\s+
            (?:probably\s+|eventually\s+|finally\s+|just\s+)?
            (?:automate|build|write|set\s+up|migrate|rewrite|refactor|clean\s+up|replace|
            upgrade|get\s+rid\s+of|look\s+into|try|kill|delete|remove|deprecate)\b
            (?![^,;]*\b(?:always|never|every|each|whenever|any|all)\b)""",
            _V,
        ),
    ),
    # A time on the clock or a deadline with no recurrence: an appointment ("Anouk has to
    # leave at 4", "the freeze starts at 18:00", "by end of day"). A rule's time recurs
    # ("every night at 2", "never on Fridays"); ``descriptive`` checks the recurrence word.
    (
        "appointment",
        re.compile(
            r"""\bat\s+(?:\d{1,2}:\d\d|\d{1,2}\s*(?:am|pm)\b|(?:1[0-2]|0?[1-9])(?=\s*(?:[,.;]|$|\s+(?:so|and|but|
            today|tomorrow|tonight|sharp))))
            |\bby\s+(?:eod|end\s+of\s+(?:day|the\s+week|week))\b""",
            _V,
        ),
    ),
    # A sentence with no subject that opens on a past tense: the speaker's history ("Never
    # used Typst before this thesis", "Always wanted to try Zig"), or on a past participle
    # with its "I've" left out ("Never seen it that high", round 15). An imperative's verb is
    # in its base form, so "Never used" cannot be one.
    (
        "history",
        re.compile(
            r"""^(?:never|always|just|once|already)\s+(?:(?:really|even|ever)\s+)?
            (?:(?!(?:embed|shred|shed|wed|bed|feed|need|seed|heed|speed|proceed|exceed|succeed)\b)
            [a-z]{2,}ed|got|had|saw|knew|heard|thought|went|made|took|came|ran|wrote|did|was|were|
            (?:seen|been|gotten|known|gone|taken|written|done)\b(?![^;]*(?:,\s*so\b|;)))\b""",
            _V,
        ),
    ),
    (
        "wish",
        re.compile(
            r"""\b(?:someone|somebody|anyone|anybody|one\s+of\s+us|someday|some\s+day)\s+
            (?:really\s+)?(?:should|ought|needs?\s+to|has\s+to|must|could|can|will|would|might)\b""",
            _V,
        ),
    ),
    (
        "vow",
        re.compile(
            r"""\b(?:am|will|shall|do|would)\s+i\b(?!\s+(?:need|have|want))
            |\bi(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to)\s+(?:never|not|always)\b
            |\bi'?m\s+(?:never|not)\s+(?:ever\s+)?(?:going\s+to|doing|touching|using|upgrading)\b
            |\blet\s+me\s+(?:think|check|look|see|try|get\s+back|figure|sort|dig|sit|sleep)\b""",
            _V,
        ),
    ),
    # A prediction about a third party ("Students are never going to read the style guide",
    # "finance is going to ask"): what will happen, not what to do. The speaker's own "going
    # to" is a vow (above); the team's or the agent's is left alone ("we're going to use X").
    (
        "prediction",
        re.compile(
            r"""(?:\s(?:is|are|isn'?t|aren'?t)|'re|'s)\s+(?:(?:never|not|always|ever|probably|
            definitely|surely|just|really)\s+)*going\s+to\b""",
            _V,
        ),
    ),
    (
        "repair",
        re.compile(
            r"""\bi\s+mean\s+(?:my|the\s+(?:ticket|issue|number|id))\b
            |\bmy\s+(?:own\s+)?(?:last\s+|previous\s+|earlier\s+|first\s+)?(?:own\s+)?
            (?:message|prompt|comment|question|note)\s+(?:was|is|had|has)\b
            |\btypo\s+(?:in|on)\s+my\b""",
            _V,
        ),
    ),
    (
        "while",
        re.compile(
            r"""\b(?:while|whilst)\s+(?:we|i|you)(?:'re|'m|\s+are|\s+am)?\s+[a-z]+
            |\buntil\s+(?:we|i|you)(?:'re|'m|\s+are|\s+am)?\s+(?:done|finish|finished|fix|fixed|
            land|merge|ship|sort|figure|get|are\s+done)\b""",
            _V,
        ),
    ),
)

# Every pattern needs one of these substrings somewhere (a cheap gate before the search;
# tests/test_capture_mood.py checks each pattern's gate against its matches).
GATES: dict[str, tuple[str, ...]] = {
    "perfect": ("has", "have", "had", "'s ", "'ve", "haven", "hasn"),
    "progressive": ("was", "were", "keep"),
    "measure": tuple("0123456789"),
    "ongoing": ("ing",),
    "finding": (
        "like",
        "turns",
        "apparently",
        "with",
        "explains",
        "remember",
        "recall",
        " i ",
        "think",
        "guess",
        "believe",
        "suppose",
        "reckon",
        "suspect",
        "actually",
        "hunch",
        "gut",
        "bet",
        "theory",
        "suspicion",
        "impression",
        "feeling",
    ),
    "plan": ("plan", "idea", "goal", "we ", "still"),
    "appointment": ("at ", "eod", "end of"),
    "history": ("never", "always", "just", "once", "already"),
    "wish": ("some", "any", "one of us"),
    "vow": ("i ", " i", "i'", "let me"),  # "i ": the sentence may open with it
    "prediction": ("going to",),
    "repair": ("i mean", "my ", "typo"),
    "while": ("while", "whilst", "until"),
}


# The speaker, the team and the agent as the subject of a perfect: "I've told you", "we've
# moved to pnpm", "you've been adding semicolons" are a reproach or a convention's change.
# "team": "the team has moved to pnpm" is the team's "we've moved to pnpm". "to": "I want
# every plot to have labelled axes".
_PERSONAL = frozenset({"i", "we", "you", "to", "team"})
# "nose has been replaced by pytest": a change of tool, told as what holds now.
_REPLACED = re.compile(r"\s+replaced\s+(?:by|with)\b")
_LAST_WORD = re.compile(r"(\w+)\W*$")
_EVER = re.compile(r"\bever\b")
# "I've never read the docs": the speaker's experience, like "ever" (a rule of the speaker's
# is a habit in the present: "I never read generated docs").
_NEVER = re.compile(r"\bnever\b")
_RECURS = re.compile(
    r"\b(?:every|each|daily|nightly|weekly|monthly|always|never|whenever|by\s+default|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun|week)days|weekends?|any)\b"
)


# Checks read on the main clause only: in "Our API is snake_case, always has been" or "run
# `pnpm lint` before you tell me something is done" the description is a reason or a time, and
# the main clause prescribes.
_MAIN_CLAUSE = frozenset({"perfect", "progressive", "ongoing", "state", "measure", "prediction"})
_CLAUSE_END = re.compile(
    r"[,;:—–(]\s|\s-\s|\s(?:so|because|since|but|when|whenever|where|before|after|if|unless|while|whilst|until)\s"
)
_BUT = re.compile(r"\bbut\b")
# A sentence that opens with a subordinate clause has its main clause after the first comma.
_SUBORDINATE = re.compile(
    r"^(?:if|when|whenever|before|after|once|unless|since|because|as\s+long\s+as)\b[^,]*,\s*"
)


def descriptive(core: str) -> str | None:
    """The first mood check that fires on ``core`` (the lower-cased sentence without its
    lead-in words), or ``None`` when the sentence may prescribe."""
    lead = _SUBORDINATE.match(core)
    main = core[lead.end() :] if lead else core
    end = _CLAUSE_END.search(main)
    main = main[: end.start()] if end else main
    for name, pattern in MOODS:
        text = main if name in _MAIN_CLAUSE else core
        gate = GATES.get(name)
        if gate and not any(token in text for token in gate):
            continue
        for match in pattern.finditer(text):
            if (
                name == "perfect"
                and _subject(text, match.start()) in _PERSONAL
                and not _EVER.search(match.group())
                and not (_subject(text, match.start()) == "i" and _NEVER.search(match.group()))
            ) or (name == "perfect" and _REPLACED.match(text, match.end())):
                continue  # "I've told you" reproaches; "the most German thing I've ever" tells
            if name == "appointment" and _RECURS.search(core):
                continue  # "deploys stop at 16:00 on fridays": a time that recurs is a rule's
            if name == "prediction" and _subject(text, match.start() + 1) in _PERSONAL:
                continue  # "we're going to use pnpm from now on": the team's decision
            if name == "while" and _BUT.search(text, match.end()):
                continue  # "X is fine while I'm poking around, but Y should use Z": Y is the rule
            return name
    return None


def _subject(core: str, at: int) -> str:
    """The word just before position ``at`` (the subject of an auxiliary there)."""
    word = _LAST_WORD.search(core, 0, at)
    return word.group(1) if word else ""
