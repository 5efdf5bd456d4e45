"""The guards of capture (``credo.knowledge.capture``): patterns that veto a sentence
whatever its signals (``credo.knowledge.signals``) say, and the words that lift a veto.

- A sentence that asks (``QUESTION_LEAD``), supposes or weighs (``HYPOTHETICAL``), is for
  this turn only (``one_off``) or reports how things went (``REPORT``) is no rule.
- Doubt (``DOUBT``) and a closing remark (``REMARK``) drop the statements before them; a
  choice left open (``UNDECIDED``) drops the sentence before it.
- A prompt opened as a status update, today's plan or a note to self (``REPORT_FRAME``)
  and a sentence opened by assent (``ASSENT_LEAD``) report or answer, unless a word for
  later sessions (``LATER_SESSIONS``, ``ASSENT_KEEPS``) makes them a rule.

Every pattern is compiled once at import, as the signals are.
"""

from __future__ import annotations

import re

from credo.knowledge.retraction import NOT_A_RULE_TAKEN_BACK

# The sentence-level patterns read lower-cased text (``credo.knowledge.capture`` lowers each
# sentence once): without IGNORECASE the regex engine can skip ahead on literal prefixes.
_L = 0

QUESTION_LEAD = re.compile(
    r"""^(?:what|why|how|where|which|who|whose|whom|can|could|would|should|shall|will|
        when\s+(?:is|are|was|were|do|does|did|will|would|should|can|could)|
        is|are|am|was|were|do(?!\s+not)|does|did|have|has|had|may|might|isn'?t|aren'?t|don'?t\s+you|
        doesn'?t|didn'?t|won'?t|wouldn'?t|shouldn'?t|couldn'?t|any\s+idea|anyone|any\s+reason|
        is\s+there|are\s+there|i\s+wonder|wondering|not\s+sure\s+(?:if|whether)|
        i\s+(?:forget|(?:don'?t|do\s+not|can'?t|cannot)\s+(?:remember|recall|know))\s+
        (?:\w+\s+)?(?:what|how|why|where|which|whether|if|when|who)|
        do\s+you\s+know|quick\s+question|explain|describe|summari[sz]e|walk\s+me\s+through|
        show\s+me\s+(?:how|why|what)|help\s+me\s+understand|tell\s+me\s+(?:how|why|what))\b""",
    _L | re.VERBOSE,
)

HYPOTHETICAL = re.compile(
    r"""^(?:if|what\s+if|suppose|supposing|imagine|assuming|say\s+we|let'?s\s+say|in\s+case|
        unless|maybe|perhaps|possibly|probably|ideally|
        i\s+(?:think|guess|suppose|feel|believe)\s+(?:we|you|it)\s+(?:could|might|may)|
        in\s+theory|hypothetically|theoretically)\b
        |\b(?:should\s+we|shall\s+we|could\s+we|would\s+we|can\s+we|do\s+we|might\s+we|
        would\s+it|could\s+it|might\s+be|may\s+be\s+(?:worth|better|good)|we\s+(?:could|might)|
        you\s+(?:could|might)|is\s+it\s+(?:better|worth|ok|okay)|whether\s+(?:to|we)|
        or\s+not|wonder\s+(?:if|whether)|not\s+sure\s+(?:if|whether|why|how|what)|
        thinking\s+(?:about|of)|considering|consider\s+(?:using|switching|moving)|
        would\s+(?:be|make)|was\s+thinking|were\s+thinking|i\s+don'?t\s+know|no\s+idea|
        someone\s+said|they\s+said|he\s+said|she\s+said|people\s+say|the\s+docs\s+say|
        (?:says|said)\s*:|according\s+to)\b""",
    _L | re.VERBOSE,
)

# Markers of an instruction for this turn only. "one" picks a referent of this turn when it is
# an ordinal's ("the other one", "the wrong one") or the complement that identifies ("`Transform`
# is the local one", "(the fizzbuzz one)"); as a subject it names a kind of thing a fact is about
# ("the default one is taken by SCADA", "the markdown one is only kept for old links").
ONE_OFF = re.compile(
    r"""\bthat\s+(?:pr|pull\s+request|commit|branch|file|function|method|class|one|time|line|
        snippet|diff|patch|hunk|change|error|test\s+file|query|script|page)\b
        |\bthis\s+(?:pr|pull\s+request|mr|merge\s+request|commit|branch|ticket|issue|
        bug|task|change|diff|patch|file|function|method|class|test|line|snippet|error|one|time|
        session|turn|run|build|case|step|query|script|page|component|hunk|section|paragraph|
        endpoint|migration|module|install|experiment|feature|fix|version|release|refactor|
        spike|prototype|demo|ticket|story|sprint|example|repl|notebook|cell)\b(?!\s+(?:of\s+(?:the\s+)?(?:repo|project|codebase)))
        |\b(?:for\s+now|right\s+now|just\s+now|for\s+the\s+moment|at\s+the\s+moment|for\s+today|
        today|tonight|tomorrow|next\s+(?:week|month|sprint)|this\s+week|this\s+morning|this\s+afternoon|just\s+(?:this\s+)?once|
        for\s+once|yet|temporarily|temporary|for\s+a\s+bit|for\s+a\s+while|until\s+\w+|
        next\s+(?:step|thing)|first\s+thing|then\s+(?:run|push|commit)|
        (?:above|below)(?!\s+(?:it|them|each|every|that|~?\d))|the\s+following|line\s+\d+|lines\s+\d+|
        the\s+(?:other|same|first|second|third|last|next|previous|right|wrong|new|correct)\s+one|
        (?:(?:is|are|was|were)\s+|(?<=\()|(?<='s\s))the\s+\w+\s+one|asap|quickly|real\s+quick|for\s+the\s+demo|before\s+the\s+(?:demo|release|deadline))\b
        |\b(?:refactor|fix|change|rewrite|update|rename|move|convert|redo|revert)\s+(?:this|that|it)\b
        |\byou(?:'re|\s+are)\s+(?:adding|writing|creating|building|working\s+on|about\s+to)\b
        |\byou\s+just\s+(?:wrote|added|made|created|changed|built)\b""",
    _L | re.VERBOSE,
)
# "quickly" asks for haste ("quickly check the tags", "fix it quickly"), but right after the
# verb of "must" or "should" it is the manner prescribed: "jobs must return quickly" is how a
# thing must behave, a rule.
_PRESCRIBED_MANNER = re.compile(
    r"\b(?:must|should|shall)\s+(?:not\s+|always\s+|never\s+)?[a-z]+\s+$"
)


def one_off(clean: str) -> bool:
    """Does the lower-cased sentence carry a marker of an instruction for this turn only
    (``ONE_OFF``), other than a manner a modal prescribes?"""
    return any(
        not (m.group() == "quickly" and _PRESCRIBED_MANNER.search(clean, 0, m.start()))
        for m in ONE_OFF.finditer(clean)
    )


# Reports about the code or the world, not rules for the agent ("the build always fails").
REPORT = re.compile(
    r"""\b(?:keeps?\s+(?:failing|crashing|breaking|timing\s+out)|always\s+(?:fails|failing|
        crashes|crashing|breaks|breaking|times\s+out|timing\s+out|returns|throws|hangs|seems|
        forgets|gets|happens|shows|was|were|had|did)|never\s+(?:works|worked|passes|passed|
        finishes|finished|returns|returned|seems|was|were|had|did|got|loads|ran|runs|
        happens|understood|knew)|
        (?:i|we)\s+(?:always|never)\s+(?:forget|forgot|remember|knew|know|understood|
        understand|get|got|figured|see|saw|had|have|was|were|did|thought)|
        don'?t\s+(?:worry|bother(?!\s+(?:with|asking|to|[a-z]+ing)\b)|mind)|never\s*mind"""
    + NOT_A_RULE_TAKEN_BACK
    + r"""|nevermind|
        no\s+worries|thank|thanks|
        fails?(?!\s+(?:the|a|an|review|lint|linting|ci|validation)\b)|
        failing(?!\s+(?:tests?|lines?|cases?|specs?|checks?)\b)|(?:the|these|those)\s+failing|
        failed|broke|broken|
        crash(?:es|ed|ing)?|errors?\s+out|flaky|
        complains?|complaining|warns\s+about|yells|
        (?:takes?|taking|took)\s+forever|
        doesn'?t\s+work|isn'?t\s+working|here'?s\s+the\s+(?:error|log|trace|output|stack))\b""",
    _L | re.VERBOSE,
)

# Doubt about what was just said: "I'm not convinced", "not sure I agree", "I think that
# changed". A rule followed by doubt is being discussed, not adopted. Round 15: so is a text
# judged stale ("half of this is probably outdated", "no idea how much of it still holds").
DOUBT = re.compile(
    r"""\b(?:i'?m\s+not\s+(?:convinced|sold|so\s+sure)|not\s+sure\s+(?:i\s+agree|that'?s\s+(?:still\s+)?
        (?:true|right|the\s+case))|i\s+(?:don'?t|do\s+not)\s+(?:agree|buy\s+(?:it|that))|i\s+disagree|
        i\s+think\s+(?:that|it|this)\s+(?:has\s+|'s\s+)?changed|(?:that|it)\s+might\s+have\s+changed|
        (?:no\s+idea|dunno|who\s+knows|i\s+wonder)\s+(?:if|whether)|
        no\s+one\s+(?:knows|remembers)\s+(?:if|whether|why)|no\s+idea\s+how\s+(?:much|many)|
        (?:half|most|some|parts?)\s+of\s+(?:this|it|that|these)\s+(?:is|are)\s+(?:probably\s+)?
        (?:outdated|stale|wrong|obsolete))\b""",
    _L | re.VERBOSE,
)
# A choice left open: the sentence before it is under discussion, not adopted ("my cofounder
# would rather we use Go. I'm leaning Python still, we'll talk Thursday."). Unlike doubt it
# drops only that sentence: "we'll discuss it" is about the last thing said. Round 16: so do
# "nothing changes yet", "no decisions", "it's not decided", "not saying we'll do it" and a
# promise withheld ("not promising anything"); "No decisions get made in Slack" is a rule.
# Round 17: "we'll argue about it", "not changing anything" ("we'll see if ..." was left out:
# "we always pin deps, we'll see if renovate keeps up" is a rule).
UNDECIDED = re.compile(
    r"""\b(?:(?:hasn'?t|haven'?t|has\s+not|have\s+not)\s+(?:yet\s+)?(?:agreed|signed\s+off|decided)|
        nothing'?s\s+(?:been\s+)?decided|i'?m\s+(?:still\s+)?leaning|
        we'?ll\s+(?:talk|discuss|decide|argue|debate)(?:\s+(?:about\s+)?it)?|
        nothing\s+(?:changes|is\s+changing|'s\s+changing)\s+(?:yet|for\s+now|until)|
        not\s+(?:changing|touching)\s+anything|
        no\s+decisions?(?:\s+(?:made\s+)?yet)?(?=\s*[,.;:!—–]|\s*$)|(?:is|'s)\s+not\s+(?:yet\s+)?decided|
        not\s+saying\s+(?:we|i)(?:'ll|\s+will|\s+should|\s+must)?\s|
        no\s+promises|not\s+promising|can'?t\s+promise|no\s+guarantees?)""",
    _L | re.VERBOSE,
)

# --- frames and answers ----------------------------------------------------------------

# A prompt opened as a status update or the plan for today ("Status: migrations done",
# "Quick update before I log off.", "Here's the plan for today.") or as a note to self: its
# sentences report or plan; only an explicit word for later sessions makes one a rule.
REPORT_FRAME = re.compile(
    r"\W*(?:(?:quick|short|small)\s+)?(?:status\s+)?update\b(?!\s+(?:the|a|an|my|our|your)\b)"
    r"|\W*status\s*(?::|update\b)|\W*(?:here'?s\s+)?(?:the\s+|my\s+|our\s+)?plan\s+for\s+today\b"
    r"|.{0,30}?\b(?:notes?|reminder|recap|summary)\s+(?:to|for)\s+(?:self|myself)\b"  # not for you
)
LATER_SESSIONS = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+general|by\s+default|"
    r"in\s+(?:the\s+)?future|future\s+sessions|whenever)\b"
)
# A sentence opened by assent answers this turn's question ("yes, but only the OpenAPI
# description"): 0 of 1,458 labelled statements open so. A word for later keeps it.
ASSENT_LEAD = re.compile(r"\W*(?:yes|yeah|yep|yup|sure)\b")
ASSENT_KEEPS = re.compile(r"\b(?:always|never|every\s+time)\b")
# A short sentence that only remarks on what came before ("Classic.", "Different world.",
# "Kidding."): the statements before it were an anecdote, not a rule (9 in 7 files).
REMARK = re.compile(
    r"""^\W*(?:weird|odd|strange|funny|kidding|just\s+kidding|jk|lol|haha|go\s+figure|
    different\s+(?:world|times)|classic|fun\s+times|oh\s+well|such\s+is\s+life|welp)
    (?:\s+\w+)?\W*$""",
    _L | re.VERBOSE,
)
