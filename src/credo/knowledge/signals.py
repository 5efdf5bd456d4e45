"""The regex vocabulary of capture (``credo.knowledge.capture``): signal classes that say a
sentence states something durable, guards that veto it, and the line shapes of pasted code
and logs. Kept apart from the algorithm so the word lists can grow without hiding it.

Every pattern is compiled once at import: the UserPromptSubmit hook runs the classifier on
every prompt and its budget is a few milliseconds.

Signal classes are independent on purpose (no word feeds two classes), because a sentence
counts only when two of them fire:

- ``directive``: the sentence tells the agent what to do (an imperative verb first, "don't",
  "make sure to", "remember that", "you should", "must", "needs to").
- ``durable``: it is meant to last ("always", "never", "from now on", "going forward",
  "every time", "by default", "as a general rule", "stop adding").
- ``preference``: the speaker's taste ("I prefer", "I'd rather", "we like", "I want").
- ``contrast``: it names an alternative it rules out ("X over Y", "instead of", "rather than",
  "X, not Y", "no longer").
- ``scope``: it is about the project, not this turn ("in this repo", "in our codebase",
  "for this team", "across the project").
- ``assertion``: it states how things are done here ("we use", "our CI runs", "the staging DB
  is on port 5433").
- ``correction``: it corrects the agent ("No,", "Actually", "that's wrong", "I told you").
- ``generic`` (weak): "everywhere", "anything", "when you ...,": backs a preference or an
  assertion, never a bare directive ("fix it everywhere" is one task).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from credo.knowledge.retraction import NOT_A_RULE_TAKEN_BACK

_I = re.IGNORECASE
# The sentence-level patterns read lower-cased text (``credo.knowledge.capture`` lowers each
# sentence once): without IGNORECASE the regex engine can skip ahead on literal prefixes.
_L = 0

# Imperative verbs a rule starts with. A one-off task starts with them too, which is why a
# directive alone never counts.
_VERBS = (
    "use|prefer|keep|put|write|run|avoid|add|name|call|store|place|format|indent|wrap|"
    "commit|push|merge|rebase|squash|sign|tag|branch|deploy|release|pin|lock|install|"
    "import|export|test|lint|check|document|comment|log|raise|throw|return|handle|validate|"
    "sort|stick|follow|default|target|build|compile|cache|mock|stub|prefix|suffix|end|start|"
    "begin|open|close|include|exclude|ignore|skip|leave|limit|stay|make|let|treat|send|ask|"
    "tell|reply|respond|answer|explain|mention|show|print|touch|edit|change|modify|update|"
    "upgrade|bump|remove|delete|drop|rename|move|split|reuse|rely|depend|go|bail|fail|"
    "prefix|type|annotate|declare|define|structure|order|group|separate|generate|regenerate|"
    "create|open|review|squash|amend|force|switch|migrate|route|expose|hardcode|hard-code|"
    "inline|extract|refactor|write|read|assume|guess|invent|add|stop|quit|print|emit|"
    "capitalize|lowercase|uppercase|spell|say|talk|use|pass|catch|wrap|await|block|set|"
    "disable|enable"
)

# A verb at the head of a sentence is an imperative only when no finite verb follows it:
# "Build is green again", "Test was flaky", "Deploy has been slow" open on a noun subject.
_NOUN_SUBJECT = r"(?!\s+(?:is|are|was|were|isn'?t|aren'?t|wasn'?t|weren'?t|has|had|hasn'?t)\b)"

DIRECTIVE = re.compile(
    rf"""^(?:please\s+|pls\s+|and\s+|also\s+|so\s+|just\s+)?
        (?:(?:always|never|only|also)\s+)?
        (?:(?:{_VERBS})\b){_NOUN_SUBJECT}"""
    r"""|^(?:please\s+)?(?:don'?t|do\s+not|dont|never|stop)\b"""
    r"""|\b(?:make\s+sure|be\s+sure|ensure|remember\s+to|remember\s+that|keep\s+in\s+mind|"""
    r"""note\s+that\s+we|you\s+(?:should|must|need\s+to|have\s+to)|"""
    r"""we\s+(?:should|must|need\s+to|have\s+to)|(?:should|must)\s+(?:always|never|be|not|use|go)|"""
    r"""must\s+not|mustn'?t|shouldn'?t\s+(?:ever|be)|is\s+not\s+allowed|are\s+not\s+allowed|"""
    r"""is\s+forbidden|are\s+forbidden|is\s+required|are\s+required|"""
    r"""must(?!\s+(?:have|be\s+(?:wrong|broken|missing|a\s+bug)))|has\s+to|needs?\s+to|shall|"""
    r"""you\s+(?:don'?t|do\s+not|never)\s+(?!need|have|know|get|understand|seem|want|"""
    r"""see|remember|care|mind|worry|bother)\w+)\b""",
    _L | re.VERBOSE,
)

DURABLE = re.compile(
    r"""\b(?:always|never|from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on|
        in\s+(?:the\s+)?future|every\s+(?:single\s+)?time|each\s+time|whenever|at\s+all\s+times|
        by\s+default|as\s+a\s+rule|in\s+general|without\s+exception|ever\s+again|don'?t\s+ever|
        do\s+not\s+ever|not\s+ever|
        for\s+(?:all|every)\s+(?:future\s+)?\w+|
        (?:every|all|any)\s+(?:(?:new|future|single|public|private|other|our)\s+)?(?:commits?|prs?|
        pull\s+requests?|changes?|files?|modules?|functions?|methods?|class(?:es)?|helpers?|tests?|
        releases?|deploys?|deployments?|migrations?|endpoints?|components?|scripts?|time|code|
        packages?|dependenc(?:y|ies)|queries|query|apis?|services?|handlers?|routes?|tables?|
        errors?|exceptions?|branches|branch|messages?|logs?|strings?|variables?)|
        anymore|any\s+more|no\s+longer|forever|ever|(?:as\s+a\s+)?(?:general|hard|house|standing)\s+rule|
        (?:\bit|hate|like|love|dislike|mind|annoys\s+me)\s+when(?:ever)?\s+(?:you|we|people|the\s+agent)|
        stop\s+(?:using|adding|putting|writing|creating|doing|making|calling|importing|
        committing|pushing|generating|suggesting|leaving|including|renaming|mocking|changing|
        removing|deleting|touching|ignoring|skipping|wrapping|reformatting|inventing))\b""",
    _L | re.VERBOSE,
)

PREFERENCE = re.compile(
    r"""\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+)?
        (?:prefer|like|love|want|favou?r|hate|dislike|don'?t\s+like|do\s+not\s+like)\b
        |\b(?:i'?d|i\s+would|we'?d|we\s+would)\s+(?:much\s+)?(?:rather|prefer|like)\b
        |\bmy\s+preference\b|\bour\s+preference\b|\bpreferred\b|\bis\s+preferable\b
        |\bi'?m\s+not\s+a\s+fan\s+of\b|\bi'?m\s+a\s+fan\s+of\b""",
    _L | re.VERBOSE,
)

CONTRAST = re.compile(
    r"""\binstead\s+of\b|\brather\s+than\b|\bin\s+place\s+of\b|\bno\s+longer\b
        |\brather\s+(?!than)[^.?!;]{1,80}?\bthan\b
        |\bprefer\w*\s+[\w.`-]+(?:\s+[\w.`-]+)?\s+to\s+(?!(?:be|do|have|use|keep|see|get|make|go)\b)
        |\b[\w.@/+#-]+\s+over\s+(?!the\s+(?:network|wire|top|past|weekend|years?|phone)\b)
           (?=\.?[\w@/+#`])[\w.@/+#`-]+
        |(?<!\bno)(?<!\byes)(?<!\bok)[\w.`)'"/*-]\s*(?:,|—|–|-|;)?\s+(?:and\s+)?not\s+
           (?!a\b|an\b|the\s+\w+\s+(?:one|way)\b|(?:that|this|it|there|here|now|yet|really|quite|
           sure|exactly|so|too|just|only|even|always|necessarily|at\s+all|much|many|bad|
           good|great|bad|working|done|what|how|why|when|where|who|to|be|being|been|in|on|
           moved|switched|migrated|changed|transitioned|replaced)\b)
           [\w.`'"@/+#-]
        |\bnot\s+[\w.`@/+#-]+(?:\s+[\w.`@/+#-]+)?\s*,?\s+but\s+""",
    _L | re.VERBOSE,
)

# ("we have not moved from Jenkins to Actions": a change denied names no alternative.)
# Substrings one of which every branch of CONTRAST needs (a cheap gate before the search).
CONTRAST_GATE = ("instead of", "rather", "in place of", "no longer", "prefer", " over ", "not")

SCOPE = re.compile(
    r"""\b(?:in|for|across|throughout|within)\s+(?:this|our|the\s+whole|the\s+entire|all\s+(?:of\s+)?our|
        the)\s+(?:whole\s+|entire\s+)?(?:repo|repos|repository|repositories|project|projects|
        codebase|code\s*base|monorepo|team|company|org|organisation|organization|workspace|
        package|packages|app|service|services|stack)\b
        |\b(?:here|in\s+here)\s+we\b|\bwe\s+(?:[\w'-]+\s+){0,3}?(?:here|in\s+this\s+team)\b
        |\bour\s+(?:team|convention|conventions|style|standard|standards|policy|codebase|repo)\b
        |\bhouse\s+style\b|\bteam\s+(?:convention|rule|policy|standard)\b""",
    _L | re.VERBOSE,
)

ASSERTION = re.compile(
    r"""\bwe(?:'re|\s+are)?\s+(?:always\s+|only\s+|never\s+|now\s+|still\s+)?
        (?:use|using|run|deploy|target|ship|host|pin|build|write|name|keep|store|follow|release|
        publish|merge|branch|tag|version|log|format|lint|test|vendor|squash|rebase|
        standardi[sz]ed\s+on|moved\s+to|switched\s+to|migrated\s+to|on)\b
        |\bwe\s+(?:don'?t|do\s+not|never|no\s+longer)\s+(?:use|run|deploy|support|allow|write|commit|push)\b
        |\bour\s+[\w-]+(?:\s+[\w-]+)?\s+(?:uses|runs|lives|goes|should|must)\b
        |\b(?:the|our)\s+(?:[\w-]+\s+){0,2}?(?:port|db|database|branch|table|column|schema|
        format|date\s+format|base\s+url|api|key|field|enum|id|package\s+manager|node\s+version|python\s+version|
        registry|host|hostname|url|endpoint|bucket|region|timezone|linter|formatter|
        test\s+runner|runtime|convention|naming\s+convention|style\s+guide|line\s+length|
        indent(?:ation)?|license|version|queue|cluster|namespace|tag|prefix)s?\s+
        (?:is|are|lives|runs|should\s+be|must\s+be|has\s+to\s+be|needs\s+to\s+be)\b
        |\b(?:is|are|runs|lives)\s+(?:on|at)\s+port\b
        |\b[\w-]+s\s+(?:go|live|belong)\s+(?:in|under|into|inside)\b""",
    _L | re.VERBOSE,
)

# Leading markers that correct the agent: the sentence (or the prompt) opens with them. A
# hesitation ("hmm", "uh") is not one by itself ("hmm, that didn't do anything"), only in front
# of one ("Uh, no.", "Hmm, not quite").
CORRECTION_LEAD = re.compile(
    r"""^(?:(?:uh+|um+|hm+|err?)\W+)?(?:no|nope|nah|wrong|incorrect|not\s+quite|not\s+really|
        actually|wait|hold\s+on)\b(?!\s+(?:problem|worries|idea|clue|rush|need|way|doubt|matter|
        one|longer|more|sweat|thanks)\b)
        |^(?:that'?s|that\s+is|this\s+is|it'?s|its|you'?re|you\s+are)\s+(?:(?:the\s+)?wrong|incorrect|
        not\s+right|not\s+correct|not\s+how|not\s+what|outdated|out\s+of\s+date|
        not\s+(?:our|the)\s+(?:style|convention|way|pattern|setup))\b
        |^(?:actual+y|acutally|hm+\s*,?\s*no)\b
        |^you'?(?:re|\s+are)\s+(?:mixing|confusing)\b|^you'?(?:ve|\s+have)\s+got\s+(?:it|this|that)\s+
        (?:backwards|wrong|the\s+wrong\s+way)""",
    _L | re.VERBOSE,
)

CORRECTION_ANY = re.compile(
    r"""\b(?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|you\s+were|you\s+got\s+it)\s+
        (?:wrong|incorrect|not\s+right|not\s+correct|mistaken)\b
        |\bi\s+(?:already\s+)?(?:said|told\s+you|asked\s+you|mentioned)\b(?!\s+(?:that\s+)?(?:i|we)(?:'d|'ll|\s+would|\s+will)\b)
        |\bas\s+i\s+(?:said|mentioned)\b|\bhow\s+many\s+times\b
        |\bwe'?ve\s+(?:talked|been)\s+(?:about|over|through)\s+this\b|^correction\b
        |\byou\s+(?:keep|kept)\s+(?:using|doing|adding|writing|putting|forgetting)\b
        |\bnot\s+[\w.`@/+#-]+(?:\s+[\w.`@/+#-]+)?\s*,?\s+but\s+
        |\bwe\s+(?:use|run|deploy|target)\s+[\w.`@/+#-]+(?:\s+[\w.`@/+#-]+)?\s*(?:,|—|–|-|;)?\s*not\b
        |\b(?:it'?s|it\s+is|that'?s|the\s+\w+\s+is|is)\s+[\w.`@/+#=-]+(?:\s+[\w.`@/+#=-]+){0,3}
        \s*(?:,|—|–|;)\s*not\s+[\w.`@/+#-]""",
    _L | re.VERBOSE,
)

CORRECTION_ANY_GATE = (
    "wrong",
    "incorrect",
    "mistaken",
    "said",
    "told you",
    "asked you",
    "mentioned",
    "how many times",
    "we've",
    "weve",
    "correction",
    "keep",
    "kept",
    "not",
)

# Evidence, anywhere in the prompt's prose, that the agent got something wrong: what it did
# ("You wrote `database` in the .env.example", "the column you added"), the user repeating
# themselves ("I have informed earlier also", "for the third time"), "stop doing X", a pointer
# at the wrong thing ("that's the old namespace", "wrong bucket"). A rule stated in such a
# prompt answers the mistake: its kind is correction (bench/capture/README.md: "A 'we use X,
# not Y' that answers the agent's mistake is a correction"). Round 16: "I said I'd ask" reports
# the speaker's own promise; "I said" before a clause of the speaker's is not a repeat.
_AGENT_ERRED = r"""
        \byou(?:'ve|\s+have)?\s+(?:just\s+|also\s+|again\s+|still\s+)?(?:wrote|put|made|set|
        ran|got|did|went|broke|left|chose|gave|had|[a-z]{2,}(?<!e)ed)\b|\bmisunderst(?:anding|ood)\b
        |\byour\s+(?:last\s+|previous\s+|earlier\s+|latest\s+|new\s+)?(?:fixtures?|diffs?|changes?|
        prs?|plan|summary|suggestions?|patch|draft|fix|migration|snippet|example)\b
        |\b(?:that'?s|this\s+is|it'?s|those\s+are|these\s+are)\s+(?:the\s+)?(?:old|wrong|outdated|
        deprecated|legacy|previous|public)\b|\b(?:that'?s|this\s+is|it'?s)\s+not\s+(?:our|the\s+right)\s+\w+
        |^\W*(?:close|almost|not\s+quite)\s*,\s*but\b|^\W*wrong\s+\w+
        |\bi\s+(?:have\s+|'ve\s+)?(?:already\s+)?(?:told|said|informed|mentioned|corrected|flagged|
        explained)\b(?!\s+(?:that\s+)?(?:i|we)(?:'d|'ll|\s+would|\s+will)\b)|\b(?:told|said|informed|mentioned|corrected|flagged)\s+(?:you\s+)?
        (?:this\s+|that\s+)?(?:before|earlier|already|twice|yesterday|last)\b
        |\bfor\s+the\s+(?:second|third|fourth|fifth|last|\w+th|\d+\w*)\s+time\b
        |^\W*(?:please\s+|pls\s+|and\s+)?stop\s+\w+ing\b|\bstill\s+(?:using|doing|adding|writing)\b
        |\b(?:not|isn'?t|is\s+not)\s+correct\b|\bto\s+correct\b|\bcorrection\b
        |\b(?:anymore|any\s+more|no\s+longer)\b|\bwe\s+(?:moved|switched|migrated)\s+(?:to|off|away)\b"""


@cache
def agent_erred() -> re.Pattern[str]:
    """``_AGENT_ERRED`` compiled on first use: only a prompt with a captured statement needs
    it (most prompts capture nothing, and the capture child is a fresh process each time)."""
    return re.compile(_AGENT_ERRED, _L | re.VERBOSE)


# A sentence that is only a correcting interjection ("No.", "Nope!", "That's wrong.") lends its
# correction to the sentence after it.
BARE_CORRECTION = re.compile(
    r"""^\W*(?:no+(?:[\s,!.]+no+)*|nope|nah|wrong|incorrect|not\s+quite|wrong\s+\w+(?:\s+\w+)?|
        (?:that'?s|this\s+is|it'?s)\s+not\s+(?:how|what)\s+(?:we|i)\b[^.!?]{0,60}|
        (?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|it'?s)\s+(?:wrong|incorrect|not\s+right|
        not\s+correct|not\s+it))\W*$""",
    _I | re.VERBOSE,
)

GENERIC = re.compile(
    r"\b(?:everywhere|anywhere|everything|anything|any\s+time|anytime|in\s+all\s+cases|"
    r"across\s+the\s+board|all\s+over|whatever\s+the)\b"
    r"|^(?:when|whenever|each\s+time|any\s+time)\s+(?:you|we)\b[^,?]{1,80},",
    _L,
)

# After a correction marker, a plain statement of the right fact counts as an assertion.
RESTATEMENT = re.compile(
    r"""(?:^|[:—–]\s*)(?:(?:the|our|all|every)\b[^.?!;]{1,60}?\b(?:is|are|lives?|goes|go|runs?|uses?|
        should\s+be|must\s+be|has\s+to\s+be)\s+
        (?!(?:fine|ok|okay|good|great|bad|wrong|broken|right|correct|it|that|this|not|
        failing|working|done|there|here|still|already|just|too|so|very)\b)[\w`"'/.:-]
        |(?:it'?s|its|it\s+is|they'?re|they\s+are)\s+
        (?!(?:fine|ok|okay|good|great|bad|wrong|broken|right|correct|not|failing|working|done|
        there|here|still|already|just|too|so|very|the\s+other|that|this|a|an|only|probably|
        maybe|because|about|like|more|less|better|worse)\b)[\w`"'/.:-])""",
    _L | re.VERBOSE,
)

# A durable word inside a relative clause describes the thing to build ("add a check that
# always validates"), and after "ensure the ..." a property of the code, not a habit of the
# agent. A person as the clause's subject ("remember that we always") keeps it a rule.
ARTIFACT_CLAUSE = re.compile(
    r"""(?:\b(?:that|which)\s+
        (?!(?:we|you|i|they|nobody|no\s+one|in|on|at|for|to|of|as|and|or|is|was|the|a|an)\b)
        |\b(?:so\s+that|so|where)\s+(?!(?:we|you|i|they|nobody|no\s+one)\b)
        |\b(?:ensure|make\s+sure|check)\s+(?:that\s+)?(?:the|it|this|its)\s+)
        (?:[\w'`./-]+\s+){0,5}$""",
    _L | re.VERBOSE,
)

# A rule with no content of its own ("Never do that again", "Do not use it."): nothing to
# store; a whole sentence that forbids only a pronoun points at something of this turn.
CONTENT_FREE = re.compile(
    r"""^(?:please\s+)?(?:don'?t|do\s+not|never|stop)\s+(?:ever\s+)?(?:do(?:ing)?|say(?:ing)?|
        try(?:ing)?)\s+(?:this|that|it|so)\b
        |^(?:please\s+)?(?:don'?t|do\s+not|never|stop|avoid)\s+(?:ever\s+)?[a-z]+\s+
        (?:it|this|that|them|these|those)(?:\s+(?:again|anymore|any\s+more|ever))?\W*$
        |^i\s+(?:really\s+)?(?:love|hate|like|dislike|adore)\s+(?:it|this|that)
        (?:\s+(?:codebase|project|repo|job|place|team|part|language|framework))?
        (?:\s*[,.!;]|\s+(?:and|so|but)\b|\s*$)""",
    _L | re.VERBOSE,
)

# --- guards -----------------------------------------------------------------------------

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

# --- code, logs and quotes ---------------------------------------------------------------

# A line that introduces a pasted document: "# CONTRIBUTING.md (excerpt)", "from the README:".
DOC_HEADER = re.compile(
    r"""^\s*(?:\#{1,6}\s+|>\s*)?(?:(?:from|in|here'?s|this\s+is)\s+)?(?:(?:the|our|my)\s+)?
        (?:[\w./-]+\.(?:md|rst|txt|adoc)|readme|contributing|changelog|style\s*guide|wiki)\b
        [^\n]{0,40}?(?:\(?excerpt\)?|\(?snippet\)?|says|:)\s*$""",
    _I | re.VERBOSE,
)
# A short line that names a document further in and ends in ':' ("fyi this is what upstream
# has in CONTRIBUTING.md:") introduces a paste too, and so does one that names a third
# party's comments ("review comments from Lena on PR #482:", "Sam's feedback:"): the list
# under it is their words. The speaker's own ("my notes:", "comments so far:") is not.
# Searched only on such lines (it is slow).
DOC_INTRO = re.compile(
    r"""\b(?:[\w./-]+\.(?:md|rst|txt|adoc)|readme|contributing|changelog|style\s*guide|wiki)\b
    [^\n]{0,20}?:\s*$
    |\b(?:comments?|feedback|review|notes|nits|suggestions|remarks|requests?)\s+(?:from|by)\s+
    (?!me\b|you\b|us\b)[\w@][\w.@-]*[^\n]{0,40}:\s*$
    |\b(?!your\b|my\b|our\b)[a-z]+'s\s+(?:code\s+)?(?:review|comments|feedback|notes|nits|
    suggestions)\b[^\n]{0,40}:\s*$""",
    _I | re.VERBOSE,
)
DOC_INTRO_CHARS = 120
FENCE = re.compile(r"^\s*(?:```|~~~)")
COMMENT_OPEN = re.compile(r"^\s*/\*(?!.*\*/)")
HASH_COMMENT = re.compile(r"^\s*#(?!#)")
INDENTED_CODE = re.compile(r"^(?: {4,}|\t)(?![-*+]\s|\d+[.)]\s)")
# A line of tool output or code by its opening (or, for a few, its whole shape). Round 10
# added a package manager's level word in any case ("npm warn", "pip error": npm prints lower
# case since v9), status glyphs ("✖ 2 problems", "[✓] Flutter") and a type declaration
# ending in its supertype ("Scriptname Foo extends Quest", "class X extends Y {"). Round 15: a
# linter's "stylish" rows ("  40:1  warning  Always use === ...  eqeqeq"). Round 16: a
# compiler's diagnostic after a tool's prefix ("Unity: Assets/X.cs(42,17): warning CS0618: ...").
# Round 17: the column is optional ("Assets/Shaders/Water.shader(14): error: ...").
LOG_LINE = re.compile(
    r"""^\s*(?:\$\s|>>>\s|\.\.\.\s|%\s|\#!|PS\s+[A-Z]:|[A-Za-z]:\\|>\s|
        Traceback\b|File\s+"|\S+:\d+(?::\d+)?:\s|at\s+[\w.$<>]+\s*\(|Caused\s+by:|\w*(?:Error|Exception|Warning)\b:?|
        \S+(?::\d+:\d+\s+-|\(\d+(?:,\d+)?\):)\s+(?:error|warning)\b|Step\s\d+/\d+\s:\s|\#\d+\s\[|
        \d+:\d+\s+(?:error|warning|warn|info)\s|
        (?:error|warning|warn|info|debug|trace|fatal|panic|note|hint)(?:\[\w+\])?:|
        npm\s+(?:ERR|WARN)|(?:ERROR|WARNING|WARN|INFO|DEBUG|FATAL|CRITICAL|NOTICE)\b|
        (?i:npm|pnpm|yarn|pip3?|cargo|poetry|uv|brew|gradle|mvn|composer|bundle|gem)\s+
        (?i:warn|warning|err!?|error|notice|info)\b|[✔✓✗✘❌⚠✖ℹ✅❗]|\[[✓✗✔✘]\]|
        \S+(?:\s{3,}\S+){2,}|E\s{2,}|FAILED\b|PASSED\b|ERROR\b|WARN\b|INFO\b|DEBUG\b|
        \[[\w\s:.-]+\]|\d{4}-\d\d-\d\d[T\s]\d\d:|\d\d:\d\d:\d\d|\#\d+\s+\d|@@\s|
        [+-](?=[^\s+-])|diff\s+--git|index\s+[0-9a-f]{6,}|
        (?:FROM|RUN|COPY|ADD|WORKDIR|CMD|ENTRYPOINT|ENV|ARG|EXPOSE|USER|LABEL|VOLUME)\s+\S|
        (?:def|class|import|function|const|let|var|return|public|private|protected|fn|func|
        package|struct|impl|\#include|\#define|SELECT|INSERT|UPDATE|DELETE|CREATE)\b(?!\s+(?:of|is|a)\b)|
        from\s+[\w.]+\s+import\b|//+[\s!]|/\*|\*/|--\s|[{}\[\]()<>/]\s*$|<[a-zA-Z/]|
        .*\b(?:ERROR|WARNING|WARN|FATAL|CRITICAL)\b:|.*\S(?:\(\d+(?:,\d+)?\)|:\d+:\d+):\s+(?:error|warning)\b|.*\b[A-Z]\w*(?:Error|Exception|Warning):\s|
        .*\b(?:extends|implements)\s+[A-Z][\w.<>]*\s*\{?\s*$)""",
    re.VERBOSE,
)
# Machine-shaped lines that LOG_LINE's prefixes miss: two or more ``key=value`` pairs (logfmt,
# build tools' status lines), a qualified exception name ("google.api_core.exceptions.BadRequest:
# 400 ..."), a config line whose value is quoted, bracketed, a block scalar or one bare token
# (``name: "[checkout-api] p99"``, ``renotify_interval: 30``, ``message: |``), also as a
# YAML list item (``- alert: HighLatency``, round 15). Prose puts several words after a colon
# and rarely writes ``a=b`` twice.
KEY_VALUE = re.compile(r"(?<![\w=])[A-Za-z_][\w.-]*=[^\s=]")
QUALIFIED_EXCEPTION = re.compile(r"^\s*(?:[a-z_]\w*\.)+[A-Z]\w*(?::\s|:?$)")
CONFIG_LINE = re.compile(
    r"""^\s*(?:-\s+)?[a-z_][A-Za-z0-9_.-]*:\s*(?:["'\[{]|[|>][-+]?\s*$|[\w.@/-]+\s*$)""", re.VERBOSE
)
CODE_TAIL = re.compile(r"(?:[;{}]|\)\s*:|=>|->)\s*$")
# An assignment from a call or an index ("X = df[features].to_numpy()", "cfg = load(...)"):
# 25 lines of 18 pasted prompts, none of prose.
ASSIGNMENT = re.compile(r"^\s*[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*=\s*[\w.]+[\[(]")
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
INLINE_QUOTED = re.compile(r"\"[^\"\n]{3,}\"|“[^”\n]{3,}”|'[^'\n]{8,}'(?!\w)")
INLINE_CODE = re.compile(r"`([^`\n]+)`")

BULLET = re.compile(r"[ \t]*(?:[-*+•]\s+|\d+[.)]\s+|#{1,6}\s+|\[[ xX]\]\s+)")
ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|fig|no|mr|mrs|ms|dr|st|jr|sr)\.|(?<!')\b[A-Za-z]\.)$",
    _I,
)
SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+)")

# --- terms for supersession --------------------------------------------------------------

# A command-line flag is a term too: "run pytest without -x" rules out ``-x``.
TERM = r"(`[^`\n]{1,40}`|(?<![\w-])-{1,2}(?=\w)[\w.@/+#:-]*|[\w@/+#][\w.@/+#:-]*)"
_TERM_BARE = TERM.replace("(", "(?:", 1)  # the same, capturing nothing ("moved from X to Y")
# A word that says a name is used unwrapped is part of the term, not the term: "never plain
# pytest" rules out plain pytest (not pytest through make, nor "plain assert statements").
_UNWRAPPED = (
    r"(?:(?:plain|bare|raw|vanilla)\s+"
    r"(?!(?:and|or|but|nor|to|than|as|with|for|in|on|of|the|a|an|not)\b)(?=[\w@/+#`-]))?"
)
MODIFIED_TERM = rf"({_UNWRAPPED}{_TERM_BARE})"
# A last word that only says what kind of thing a name is: "the requests library" names a tool
# (requests), where "the submit button" names a thing at hand.
TOOL_KINDS = frozenset(
    """library libraries lib libs package packages module modules client clients framework
    tool tools sdk crate crates gem gems plugin plugins wrapper driver""".split()
)
# A change of tool's verb and what may stand between it and "from": "migrated everything
# from Consul to etcd", "switched over from yarn", "moved all services off Heroku onto Fly".
# (and under way: "we're switching from X to Y", probe89)
_CHANGED = r"(?:mov|switch|migrat|chang|transition)(?:ed|ing)"
_CHANGING = r"(?:mov|switch|migrat|chang|transition)ing"  # "are switching" asserts nothing
CHANGED_WORDS = frozenset(
    {
        f"{stem}{end}"
        for stem in ("mov", "switch", "migrat", "chang", "transition")
        for end in ("ed", "ing")
    }
)
_SPAN = r"(?:everything\s+|over\s+|all\s+(?:[\w-]+\s+)?)"
# Going back to a value ("go back to black", "we switched back to yarn"): it is prescribed.
_BACK = r"(?:go|going|went|gone|switch(?:ed|ing)?|mov(?:e|ed|ing)|revert(?:ed|ing)?|rolled|get)"


class TermPatterns(NamedTuple):
    negated: re.Pattern[str]  # what a statement rules out ("never use npm")
    asserted: re.Pattern[str]  # what it prescribes ("use pnpm")
    leading: re.Pattern[str]  # an alternative named first ("pnpm over npm", "pnpm, not npm")


@cache
def term_patterns() -> TermPatterns:
    """The term patterns, compiled on first use: only a captured statement needs them."""
    return TermPatterns(
        re.compile(
            rf"""\b(?:never(?!\s*mind\b)|don'?t|do\s+not|dont|stop|avoid|no\s+longer|not|instead\s+of|
            rather\s+than|in\s+place\s+of|over(?!\s+(?:to|onto)\b)|without|ban|drop|remove|
            replaced(?!\s+(?:by|with)\b)|{_CHANGED}\s+{_SPAN}?(?:back\s+)?(?:(?:away\s+)?from|off(?:\s+of)?))
            (?:\s+(?:ever|again|use|using|run|running|add|adding|call|calling|install|installing|
            import|importing|write|writing|touch|touching|commit|committing|put|putting|pick|enable|enabling|
            choose|the|a|an|any|every|each|all|on|to|with|be|via|in|into))*\s+{MODIFIED_TERM}""",
            _I | re.VERBOSE,
        ),
        re.compile(
            rf"""\b(?:use|using|prefer|with|switch\s+to|switched\s+to|moved\s+to|migrate\s+to|
            migrated\s+to|stick\s+(?:to|with)|go\s+with|is\s+on\s+port|on\s+port|(?:is|are|be)(?!\s+{_CHANGING}\b)|
            standardi[sz]ed\s+on|replaced\s+(?:by|with)|replaced\s+{_TERM_BARE}\s+with|
            {_CHANGED}\s+over\s+to|{_CHANGED}\s+onto|
            {_CHANGED}\s+{_SPAN}?(?:back\s+)?(?:(?:away\s+)?from|off(?:\s+of)?)\s+{_TERM_BARE}\s+
            (?:over\s+|back\s+)?(?:to|onto)|{_BACK}\s+back\s+to(?:\s+using)?|
            from\s+{_TERM_BARE}(?:\s+{_TERM_BARE}){{0,2}}?\s+back\s+to)
            (?:\s+(?:the|a|an|only|always))*\s+{MODIFIED_TERM}""",
            _I | re.VERBOSE,
        ),
        re.compile(
            rf"{TERM}\s+(?:over(?!\s+(?:to|onto)\b)|instead\s+of|rather\s+than|in\s+place\s+of)\b"
            # "X, not Y", X not the scope of a choice ("use black for formatting, not ruff")
            rf"|(?<![\w-])(?<!\bfor\s)"
            rf"{TERM}\s*(?:,|—|–|;)\s*not\b",
            _I,
        ),
    )


STOP_TERMS = frozenset(
    """a an the this that these those it its it's we our you your i me my to of in on at by for
    with and or but not no be is are was were do does did use using always never ever just
    only also any all some very really please here there then so than as from into onto
    one ones thing things way stuff them they he she his her us if when while again more
    anymore longer instead rather right wrong quite correct true""".split()
)
