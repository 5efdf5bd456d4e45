"""The shapes of pasted material in a prompt, for ``credo.knowledge.prose``: code, logs,
config and documents a person pastes among their own words, read line by line, and quoted
or inline-code text (someone else's words, a name). Capture reads only the prose.

Every pattern is compiled once at import, as the signals (``credo.knowledge.signals``) are.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

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
INLINE_QUOTED = re.compile(r"\"[^\"\n]{3,}\"|“[^”\n]{3,}”|'[^'\n]{8,}'(?!\w)")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
