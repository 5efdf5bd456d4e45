"""A change of tool told by the team (``credo.knowledge.shape``'s contrast cues): "we moved
from black to ruff", "Celery was replaced by RQ", "we've switched to pnpm for installing",
"We decided to use black", and going back on one ("Actually, go back to black", "We switched
back from ruff to black"). Told in the past, such a change says what holds now: the cues here,
and which past cues a change takes back (``told_now``, ``went_back``).
"""

from __future__ import annotations

import re

from credo.knowledge.lazy_pattern import LazyPattern
from credo.knowledge.occasion import MOVED_EVENT
from credo.knowledge.shape_negative import NEGATIVE_CUES
from credo.knowledge.term_patterns import SYSTEM_PART, TOOL_KINDS

__all__ = [
    "CHANGEOVER",
    "CHANGEOVER_GATE",
    "CHANGEOVER_TO",
    "CHANGING_OVER",
    "GOING_BACK",
    "IN_FORCE",
    "VALUE_NOW",
    "changeover",
    "in_force",
    "told_now",
    "tools_own_files",
    "value_told_anew",
    "went_back",
]

_I = re.VERBOSE  # the cues read the lower-cased sentence

# Who speaks for the project in a change of tool: the team's voice ("we", "our team", "the
# platform team"), not a team of the past or of others ("the old team", "the other team").
# (and a team whose tools are not the project's: "the marketing team moved from Mailchimp")
_OTHERS = """old previous former other next new marketing sales design legal hr finance
    accounting recruiting support leadership management exec executive""".split()
_NOT_OURS = rf"(?:{'|'.join(_OTHERS)})\b"
_TEAM = rf"(?:we|we'?ve|(?:the|our)\s+(?:(?!{_NOT_OURS})[\w-]+\s+)?team)"
# A change told as a condition is not made yet: "once we've moved to Django 5, drop the
# shim", "if we switched from pip to uv ...". After "when", "after" or "before" a past
# change was made ("when we moved from Heroku to Fly, the bill went down"); a perfect there
# is to come ("when the team has moved to pnpm, tell me": ``_PERFECT_TO`` only).
_IF = r"(?<!\bif\s)(?<!\bonce\s)(?<!\bunless\s)(?<!\buntil\s)(?<!\btill\s)(?<!\bsoon\sas\s)"
_IF_PERFECT = rf"{_IF}(?<!\bwhen\s)(?<!\bafter\s)(?<!\bbefore\s)(?<!\bwhenever\s)"


# "for the winter", "for the next two weeks": a span of time says how long, not what for.
_SPAN = (
    r"(?:winter|summer|spring|autumn|fall|holidays?|season|weekend|week|month|quarter|year|"
    r"sprint|days|weeks|months|years|nights?)"
)
# "we've switched to X", "the team has moved over to X", X a name, not "the new office".
_PERFECT_TO = rf"""{_IF_PERFECT}
    \b(?:we'?ve|we\s+have|(?:the|our)\s+(?:(?!{_NOT_OURS})[\w-]+\s+)?team\s+has)\s+
    (?:now\s+|\w+ly\s+|already\s+|finally\s+)?(?:moved|switched|migrated|changed|transitioned)\s+
    (?:everything\s+|over\s+|all\s+[\w-]+\s+)?(?:to|onto)\s+
    (?!(?:the|a|an|this|that|these|those|my|our|your|their|its|his|her|some|another|next|new|
    branch|main|master)\b)[\w`.@]"""


# A name of code in a decision: "functools.lru_cache", "_schedule_next_run", "retry()",
# "3.9" (the sentence is read without its backticks); not a file ("we decided to delete
# old_tests.py" is a task done once), not a time ("we agreed to meet after v2.0 ships",
# "we decided to go to the 3.30 movie": review86).
_CODE_NAME = r"""(?<!\bafter)(?<!\bbefore)(?<!\buntil)(?<!\bonce)(?<!\bwhen)\s
    (?:[a-z_]\w*(?:[._]\w+)+(?:\(\))?|[a-z_]\w*\(\)|(?<!\bthe\s)(?<!\bat\s)(?<!\bby\s)
    \d+\.\d+(?:\.\d+)?)
    (?<!\.py)(?<!\.js)(?<!\.ts)(?<!\.md)(?<!\.rst)(?<!\.txt)(?<!\.toml)(?<!\.yml)(?<!\.yaml)
    (?<!\.json)(?<!\.cfg)(?<!\.ini)(?=[\s,;:!?)]|\.?$|\.\s)"""

# The team's change of tool: "we moved from json.dumps to orjson", "we've switched off
# yarn to pnpm", "Celery was replaced by RQ". It rules the old one out as "X, not Y" does,
# though it is told in the past. The team's voice ("we", "our team", "the platform team";
# not "the old team") or a named subject, and "from" right after the verb: "I moved the
# tests from ..." and "we moved the standup from ..." move a thing once; "it was replaced
# by" is about the thing at hand. The team's choice of a tool, opening the sentence, is
# told in the past and holds now the same way: "We decided to use black for formatting",
# "the team agreed on using uv", "we decided to keep Python 3.8 as the minimum" (a choice
# names no old value: rule 5 reads none; "decided to keep going" is no choice of a thing).
# The same change under way, told with "from": "we're switching from markdownlint-cli2 to our
# own script" (probe89) holds from now on as "we switched from X to Y" does. Not a change
# hedged ("we're probably moving from ..."), nor one told for a time to come ("... to Vite next
# quarter", "... at some point"): the old one holds until then.
_LATER = r"""(?!.*\b(?:next\s+(?:week|month|quarter|year|sprint|release|version|cycle|major)|
    (?:later|sometime)\s+(?:this|next|in)|soon\b|eventually|at\s+some\s+point|some\s+day|
    someday|in\s+(?:q[1-4]|20\d\d|the\s+(?:future|coming))|once\b|after\s+the\b))"""
# (a tool's name after "from": "from the list view to the grid view" is the app's behaviour;
# nor a stage of the work, a step or a quarter, "from planning to implementation", "from
# staging to prod"; nor a change made for this turn's purpose, "... to release builds to
# measure it"; nor a place in the work at hand, a side, a colour or one of a row, "from page 3
# to page 4", "from task 1 to task 2", "from left to right", "from red to green", "from one
# terminal to another", "from bug to bug", "from alpha to beta", "from debugging to writing
# the fix", "... for the screenshots": review90). A compound is a name: "from top-level
# imports", "from line-based parsing", "from start-stop-daemon to systemd".
_A_TOOL_FROM = r"""(?!(?:the|a|an|this|that|these|those|my|your|his|her|their|its|step|phase|
    stage|planning|design|implementation|development|dev|testing|review|staging|prod|
    production|q[1-4]|page|task|chapter|section|sprint|line|item|slide|part|round|level|row|
    column|tab|room|floor|ticket|issue|screen|window|terminal|one|bug|idea|left|right|top|
    bottom|front|back|red|green|light|dark|alpha|beta|draft|start|scratch)(?![\w-]))
    (?![a-z]+ing\s+to\s+[a-z]+ing\b)
    (?!.*\bto\s+(?:measure|test|check|see|try|compare|reproduce|profile|benchmark|debug|
    time)\b)(?!.*\bfor\s+(?:the|this|a|our)\s+(?:screenshots?|demo|recording|presentation|talk|
    meeting|call|run|experiment|benchmark|load\s+test|test\s+run)\b)"""
# What the team changes a tool of (term_patterns.SYSTEM_PART) may stand between the verb and
# "from" (probe90), never "we moved the standup from 9:30 to 10" nor "I moved the tests from
# tests/unit to tests/" (a person's move, and paths: no tool after).
_PART = SYSTEM_PART
# (nor one heard or hedged: "rumor is we're switching ...", "..., I think")
_HEARD = r"""(?<!\brumor\sis\s)(?<!\brumour\sis\s)(?<!\bapparently\s)(?<!\bapparently,\s)
    (?<!\bsupposedly\s)(?<!\bheard\s)"""
_HEDGED = r"""(?!.*\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|probably|maybe|perhaps|
    apparently|supposedly|or\s+so\s+i\s+(?:hear|heard))\b)"""
_CHANGING_FROM = rf"""{_IF}{_HEARD}\b(?:we\s+are|we'?re)\s+{_HEDGED}
        (?:now\s+|finally\s+|officially\s+)?
        (?:moving|switching|migrating|changing|transitioning)\s+
        (?:everything\s+|over\s+|{_PART})?
        (?:from|off(?:\s+of)?|away\s+from)\s+{_LATER}{_A_TOOL_FROM}[\w`'./@+-]+(?:\s+[\w`'./@+-]+){{0,3}}?
        \s+(?:to|over\s+to|onto)\s+[\w`.@]"""
CHANGEOVER = LazyPattern(
    rf"""{_IF}\b{_TEAM}\s+(?:has\s+|have\s+)?(?:\w+ly\s+|already\s+|finally\s+)?
        (?:moved|switched|migrated|changed|transitioned)\s+
        (?:everything\s+|over\s+|{_PART}(?=from\s+{_A_TOOL_FROM}))?
        (?:from|off(?:\s+of)?|away\s+from)\s+[\w`'./@+-]+(?:\s+[\w`'./@+-]+){{0,3}}?
        \s+(?:to|over\s+to|onto)\s+[\w`.@]
        |{_CHANGING_FROM}
        |{_IF}\bwe(?:'?ve|\s+have)?\s+(?:\w+ly\s+|already\s+|finally\s+)?replaced\s+
        (?!(?:it|this|that|them|these|those)\b)[\w`'./@+-]+(?:\s+[\w`'./@+-]+){{0,3}}?\s+with\s+[\w`.@]
        |^(?!(?:it|this|that|they|these|those)\b)(?:[\w`'./@+-]+\s+){{1,4}}?(?:was|were|has\s+been|
        have\s+been|got)\s+replaced\s+(?:by|with)\s+[\w`.@]
        |^(?:so\s+)?{_TEAM}\s+(?:have\s+)?(?:\w+ly\s+|already\s+|finally\s+)?(?:decided|agreed)\s+
        (?:to\s+(?:use|go\s+with|adopt|stick\s+with|standardi[sz]e\s+on|keep(?:\s+using)?
        (?!\s+\w+ing\b))|on\s+using)\s+
        (?!(?:it|this|that|them|these|those)\b)[\w`.@]
        |^(?:so\s+)?{_TEAM}\s+(?:have\s+)?(?:\w+ly\s+|already\s+|finally\s+)?(?:decided|agreed)\s+
        to\s+(?!keep\s+\w+ing\b|try\b|look\b|think\b|wait\b)[a-z]+(?:\s[^,;:!?]{{0,60}}?)?{_CODE_NAME}""",
    _I,
)

# The same change without "from": only the present perfect of a named thing ("we've
# switched to pnpm"; "we've moved to the new office" names none), and only when it answers
# a mistake ("Actually we have switched to pnpm.") or says what the new one is for or where
# it holds ("we have switched to ruff for linting", "... across the repo"): "we've moved to
# Berlin", "we've switched to plan B" and "we've moved to staging" tell news.
CHANGEOVER_TO = re.compile(
    rf"""^(?:no|nope|nah|actually|wrong|not\s+quite|that'?s\s+(?:outdated|old|stale|
        wrong|not\s+right))\b.{{0,30}}?{_PERFECT_TO}
        |{_PERFECT_TO}[\w`.@/+-]*(?:\s+[\w`.@/+-]+){{0,3}}?\s+(?:for\s+(?!(?:this|now|
        today|tonight|the\s+moment|the\s+time\s+being|a\s+while|a\s+bit|the\s+demo)\b)
        (?!(?:[\w-]+\s+){{0,3}}?{_SPAN}\b)\w|everywhere\b|across\b|in\s+(?:all|every)\b)""",
    _I,
)

# The team's change under way, told with what it rules out: "we are moving the job store to
# Redis, not SQLAlchemy", "we're switching to pnpm instead of yarn". Its present progressive
# is no narration of this turn: it says what the project holds from now on, as "X, not Y"
# does. Without the old one named ("we're migrating the dashboard to Next 14", "we're moving
# the tests to a new folder") it stays what is going on, and so does one event moved ("we're
# moving the call to Zoom, not Teams": ``MOVED_EVENT``). A version or a value set anew is a
# change over too: "we are raising the MSRV to Rust 1.64 instead of 1.60". Its "to" may be
# a purpose, though, and its contrast one of acts, not values (review87): "we're raising money
# to hire rather than to build", "we're raising ValueError to signal bad input instead of
# returning None", "we're raising our kids to be bilingual".
# Up to five words before "to", a call among them: "we are switching the default storage for
# external() to uuid instead of hash" (probe88).
_ONTO = r"""(?:[\w`'./@+-]+(?:\(\))?\s+){0,5}?(?:to|onto|over\s+to)\s+
    (?!(?:the|a|an|this|that|these|those|my|our|your|their|its|some|another|new)\b)"""
_NEW_NOT = r"""[\w`.@][\w`.@/+-]*(?:\s+[\w`.@/+-]+){0,2}?,?\s+
    (?:not|instead\s+of|rather\s+than)\s+"""
# With an article after "to" ("to a separate rqscheduler process", twice87) the change is the
# project's only when what it rules out is a name of code: a flag, a call, a dotted or
# snake_case name, not a file ("not utils.py") nor words ("we're moving to a new office, not
# the old one", "... not downtown").
_ONTO_ARTICLE = r"""(?:[\w`'./@+-]+\s+){0,4}?(?:to|onto|over\s+to)\s+(?:a|an|the)\s+"""
_OLD_CODE = r"""(?=(?:--?[a-z][\w-]*|[a-z_]\w*(?:\.\w+)+(?:\(\))?|[a-z_]\w*\(\)|[a-z]\w*_\w+)
    (?<!\.py)(?<!\.js)(?<!\.ts)(?<!\.md)(?<!\.txt)(?<!\.toml)(?<!\.yml)(?<!\.yaml)(?<!\.json)
    (?<!\.cfg)(?<!\.ini)(?:[\s,;:!?)]|\.?$|\.\s))"""
CHANGING_OVER = LazyPattern(
    rf"""{_CHANGING_FROM}
    |{_IF}\b(?:we\s+are|we'?re)\s+
    (?:(?:moving|switching|migrating|changing|transitioning)\s+(?!{MOVED_EVENT})
    (?:{_ONTO}{_NEW_NOT}|{_ONTO_ARTICLE}{_NEW_NOT}{_OLD_CODE})
    |(?:raising|bumping|lowering|upgrading|downgrading)\s+(?!{MOVED_EVENT}){_ONTO}(?!be\b)
    {_NEW_NOT}(?!to\s|(?!(?:using|keeping|staying|sticking)\b)[a-z]{{4,}}ing\b))
    (?:[\w`.@]|--?[a-z])""",
    _I,
)

CHANGEOVER_GATE = ("from", " off", "replaced", "decided", "agreed")
_PAST = frozenset({"past", "past_subject"})
_PAST_CUES = {name: pattern for name, pattern in NEGATIVE_CUES if name in _PAST}


def changeover(core: str) -> re.Match[str] | None:
    """The change of tool ``core`` tells (the ``changeover`` cue's match), if any."""
    if not any(token in core for token in CHANGEOVER_GATE):
        return None
    return CHANGEOVER.search(core)


def told_now(core: str) -> set[str]:
    """The cues a change of tool in ``core`` takes back. Told in the past ("we moved from X to
    Y", "X was replaced by Y"), it says what holds now: its own verb is no narration, nor a
    past time right after its new name, which dates the change ("... by Y last month",
    ``_DATED``); a past elsewhere still counts ("last week we used X", "... and it broke"),
    unless a thing at hand was replaced ("the submit button was replaced by a link"; "the
    requests library" is a tool).
    Undone ("... and then back to X", "rolled it back") or not whole ("... but CI still
    uses X", "... in the Makefile only"), it rules nothing out: the change itself goes, and
    its past stays."""
    change = changeover(core)
    if change is None:
        return set()
    rest = f"{core[: change.start()]} {core[change.end() :]}"
    if (
        _UNDONE.search(core, change.end())
        or _still_held(core, change)
        or _ELSEWHERE.search(core, 0, change.start())
        or _AT_PLACE.match(core[: change.start()])
    ):
        return {"changeover"}
    said = change.group()
    if "replaced" in said and said.startswith(_DEFINITE) and not _TOOL_SUBJECT.search(said):
        return set()
    dated = _DATED.match(core, change.end() - 1)  # from the new name's first character
    if dated:  # "X was replaced by Y last month": when the change was made, no narration
        rest = (
            f"{core[: change.start()]} {core[change.end() : dated.start(1)]} {core[dated.end() :]}"
        )
    return {name for name in _PAST if not _PAST_CUES[name].search(rest)}


_FILE = dict(NEGATIVE_CUES)["named_file"]
_NAME = re.compile(r"[\w.@+-]+")


def tools_own_files(core: str) -> bool:
    """Whether every file ``core`` names is the own file of a tool its change names: the
    file then belongs to the change ("we moved from npm to pnpm, the lockfile is
    pnpm-lock.yaml"; "webpack was replaced by esbuild, don't touch webpack.config.js"), not
    to a task at hand ("..., then fix auth.py")."""
    change = changeover(core)
    if change is None:
        return False
    new = _NAME.match(core, change.end() - 1)
    tools = set(re.findall(r"[\w.@+-]+", change.group())) - _CHANGE_WORDS
    tools = {t for t in tools | {new.group() if new else ""} if len(t) > 1}
    # the whole word: the cue's own match of "webpack.config.js" starts at "config"
    files = [core[core.rfind(" ", 0, m.start()) + 1 : m.end()] for m in _FILE.finditer(core)]
    return bool(files) and all(f in tools or _owned(f, tools) for f in files)


def _owned(file: str, tools: set[str]) -> bool:
    """Whether a part of ``file``'s name is, or starts with, one of ``tools`` ("pnpm-lock.yaml",
    "webpack.config.js", "gulpfile.js")."""
    return any(
        part.startswith(tool)
        for part in re.split(r"[^\w@+]+", file)
        for tool in tools
        if len(tool) > 2
    )


# Told of another place than this project: "In my last job we moved from Java to Kotlin",
# "In the tutorial we moved from SQLite to Postgres".
_ELSEWHERE = re.compile(
    r"""\b(?:in|at)\s+(?:my|his|her|their|a)\s+(?:\w+\s+)?(?:job|company|employer|workplace|
    role|gig|startup|project|course|class)\b|\bin\s+the\s+(?:tutorial|book|course|video|talk|
    article)\b""",
    re.VERBOSE,
)
# A change told at another place named as its opener: "At Google we switched from Borg to
# Kubernetes", "At Acme Corp, we migrated ...". The speaker's own workplace is where this
# project lives ("At work we switched from npm to pnpm" is ours), and "at" with a determiner,
# a time, a version or a state is no place ("at the moment", "at last", "at 3pm", "at v2").
_AT_PLACE = re.compile(
    r"""(?:back\s+|(?:when|while)\s+i\s+(?:was|worked)\s+)?at\s+
    (?!(?:work|the|this|that|these|those|our|one|some|any|all|each|every|first|last|least|
    once|times|present|length|heart|scale|runtime|launch|night|noon|midnight|dawn)\b
    |v?\d)[\w&.'-]+(?:\s+[\w&.'-]+){0,2}?,?\s*$""",
    re.VERBOSE,
)
# Undone, or not whole: "... but CI still uses 16", "... the main app is still MySQL", "...
# in the Makefile only" (the old one holds elsewhere, so ruling it out would supersede a
# true belief). Not "only pnpm works", "Travis is still mentioned": "still" counts before a
# verb of use or a word of the change itself (``_still_held``), "only" at a clause's end or
# before "in", "for", "on".
_UNDONE = re.compile(
    r"""\b(?:only\s*(?:[.,;:!?)]|$)|only\s+(?:in|for|on)\b|back\s+to\b|
    rolled\s+(?:\w+\s+)?back\b|reverted\b|(?:went|switched|moved)\s+back\b)""",
    re.VERBOSE,
)
_STILL = re.compile(r"\bstill\s+(\w+)")
# A past time right after the change's new name dates the change itself ("webpack was replaced
# by esbuild last month"): the new state holds now. Elsewhere it dates something else ("last
# month we used webpack"; "..., and last week it broke"), and the past still counts.
_DATED = re.compile(
    r"[\w`.@+-]+(?:\s+[\w`.@+-]+)??\s+(last\s+(?:week|month|year|sprint|quarter))\b(?!\s+\w)"
)
# The change's own words that name nothing ("we", "moved", "from", "the"...).
_CHANGE_WORDS = frozenset(
    """we ve have has had the our a an team moved switched migrated changed transitioned
    replaced from to onto off of over away with by was were been got everything all
    re are moving switching migrating changing transitioning now finally officially""".split()
)
_IN_USE = frozenset(
    """use uses using used call calls calling run runs running on in depend depends rely
    relies need needs require requires ship ships target targets""".split()
)


def _still_held(core: str, change: re.Match[str]) -> bool:
    """Whether, after ``change``, the old one is said to hold still: "still" before a verb
    of use ("CI still uses 16") or a word the change named ("the main app is still MySQL")."""
    said = set(re.findall(r"\w+", change.group())) - _CHANGE_WORDS
    return any(word in _IN_USE or word in said for word in _STILL.findall(core, change.end()))


_DEFINITE = ("the ", "this ", "that ", "our ", "my ")
# A kind after a name ("the requests library was"), not the kind alone: "the library was
# replaced by a fork", "the package was replaced by a stub" replace a thing at hand.
_TOOL_SUBJECT = re.compile(
    rf"\b(?!(?:{'|'.join(w.strip() for w in _DEFINITE)}|old|new|legacy|same)\s)[\w.@/+-]+\s+"
    rf"(?:{'|'.join(sorted(TOOL_KINDS))})\s+(?:was|were|has|have|got)\s"
)


# Going back on a change: the value a change left, told as the one that holds again. Either
# asked for under a correction's lead ("Actually, go back to black", "No, let's switch back to
# yarn"), or told as done by the team, opening the sentence ("We switched back from ruff to
# black", "we've gone back to Jenkins"). The value is a name: not a place in a text or a
# task ("go back to step 3", "the top", "the previous commit", "main"), not a number or a
# setting ("1080p60"), not a state ("back to normal"). Without the lead or the team's voice
# it is a one-off ("we'll go back to 1080p60 for the final", "rename it back to X").
_BACK_VERB = r"(?:go|switch|move|revert|roll|change|get)"
_WENT_BACK = r"(?:went|gone|switched|moved|reverted|rolled|changed|migrated)"
_RETURNED = r"""(?:from\s+[\w`'./@+-]+(?:\s+[\w`'./@+-]+){0,3}?\s+)?to\s+(?:using\s+)?
    (?P<value>[a-z_`@][\w`.@/+-]*)"""
# No value to go back to (checked on the match, a set being cheaper than the pattern's own
# look-ahead to compile at every hook's start).
_NO_VALUE = frozenset(
    """the a an this that these those my our your their its it them his her me us you step
    square normal sleep bed work basics where what how when why before after main master
    develop trunk page line top start beginning bottom previous old original default earlier
    last first one plan school office home town bullet option version""".split()
)
# After the value: a place in it ("Alice's branch", "tab 2"), or, asked for, the task's next
# step ("go back to Chrome and take a screenshot", "... then explain the ORM part") unless
# that step is a rule too ("and keep ruff for linting"): the going back is a move in the
# task. (Told as done, "we switched back to yarn and pinned it" still tells a change.)
_A_PLACE = re.compile(r"'s\b|\s+\d")
_NEXT_STEP = re.compile(
    r",?\s+(?:and|then)\s+(?!(?:keep|use|stick|stay|always|never|don'?t)\b)", _I
)
_CORRECTION_LEAD = r"""(?:no|nope|nah|actually|wrong|not\s+quite|that'?s\s+(?:outdated|old|stale|
    wrong|not\s+right))\b[\s,.:;!—–-]*"""
GOING_BACK = re.compile(
    rf"""^(?:{_CORRECTION_LEAD}(?:please\s+|let'?s\s+)?(?P<asked>{_BACK_VERB})
    |(?:{_CORRECTION_LEAD})?(?:so\s+)?{_TEAM}\s+(?:have\s+|has\s+)?(?:\w+ly\s+|already\s+|
    finally\s+)?{_WENT_BACK})\s+back\s+{_RETURNED}""",
    _I,
)


def went_back(clean: str) -> set[str]:
    """The cues a going back takes back: itself when what it goes back to is no value ("step
    3", "the top", "main") or it is a step of a task (``_A_PLACE``, ``_NEXT_STEP``); else,
    told as done, its own verb's past ("we switched back" is no narration; a past elsewhere
    in the sentence still counts)."""
    back = GOING_BACK.search(clean)
    if back is None:
        return set()
    end = back.end()
    if (
        back.group("value").strip("`").rstrip(".") in _NO_VALUE
        or _A_PLACE.match(clean, end)
        or (back.group("asked") and _NEXT_STEP.match(clean, end))
    ):
        return {"going_back"}
    rest = f"{clean[: back.start()]} {clean[back.end() :]}"
    return {name for name in _PAST if not _PAST_CUES[name].search(rest)}


# A rule changed and told in force by the team, opening the sentence: "We now allow pytz as
# an optional extra", "we now require type hints on public functions". Its "now" says since
# when the rule holds, not what this turn is about. The object is a name or a kind of thing,
# not the thing at hand ("we now use the cached value in render()", "we now have a failing
# test": no verb of a rule).
IN_FORCE = re.compile(
    rf"""^(?:so\s+)?{_TEAM}\s+now\s+(?:also\s+|only\s+)?(?:allow|use|require|permit|support|
    prefer|target|accept|forbid|ban|disallow)s?\s+
    (?!(?:the|a|an|this|that|these|those|it|them|its|my|your|his|her|some|one)\b)[\w`.@]""",
    _I,
)
_NOW_CUE = dict(NEGATIVE_CUES)["now"]

# A setting's value told anew: "port's 6380 now", "the timeout is 900 now", "redis is on port
# 6380 now". Its "now" says since when the value holds (the old one is gone), not what this
# turn is about. A value holds a digit (a number, "30s", "cache-2", "v2") and is no share or
# hour ("coverage is 85% now", "it's 5pm now") nor a size ("the db is 2GB now": review88);
# what it sets is named by a setting's word, as the subject's last word or right before the
# value: "the count is 3 now" and "the build is green now" tell a state.
_SETTING = r"""(?:port|host|hostname|timeout|ttl|url|uri|endpoint|version|limit|threshold|
    interval|retries|region|image|tag|branch|bucket|replicas|concurrency|db|database|server|
    box|node|cluster|namespace|msrv)"""
_VALUE = r"""(?!\d{1,2}(?::\d\d)?\s*(?:am|pm)\b)(?!\d{1,2}:\d\d\b)(?![\d.]+[kmgtp]i?b\b)
    (?=[\w.:/-]*\d)[\w.:/-]*\w(?![\w%])"""
VALUE_NOW = LazyPattern(
    rf"""^(?!(?:it|this|that|there|here|everything|all|which|what|who|we|i|you|they|he|she)\b)
    (?:[\w`./-]+\s+){{0,3}}?(?:(?P<subject>{_SETTING})|[\w`./-]+)(?:'s|\s+is)\s+
    (?P<now>now\s+)?(?:(?:on|at)\s+)?(?(subject)(?:(?P<again>{_SETTING})\s+)?|(?P<slot>{_SETTING})\s+)
    (?P<value>{_VALUE})(?(now)|\s+now)\s*[.!]?$""",
    _I,
    gate=("now",),
)


def value_told_anew(core: str) -> tuple[str, str] | None:
    """(the setting, its new value) of a value told anew in ``core`` ("port's 6380 now":
    port, 6380), the setting being the word right before the value, else the subject's."""
    told = VALUE_NOW.search(core)
    if told is None:
        return None
    return told["slot"] or told["again"] or told["subject"], told["value"]


def in_force(core: str) -> set[str]:
    """The ``now`` cue a rule told in force takes back ("We now allow pytz ..."): its own
    "now" is no present moment; another one still counts ("... for now")."""
    told = IN_FORCE.search(core)
    if told is None:
        return set()
    rest = f"{core[: told.start()]} {core[told.end() :]}"
    return set() if _NOW_CUE.search(rest) else {"now"}
