"""The regex vocabulary of capture (``credo.knowledge.capture``): signal classes that say a
sentence states something durable. Kept apart from the algorithm so the word lists can grow
without hiding it; so are the guards that veto a sentence (``credo.knowledge.guards``), the
shapes of pasted code and logs (``credo.knowledge.paste``) and the terms a statement rules
out or prescribes (``credo.knowledge.term_patterns``).

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
