"""Secret redaction: captured text is always passed through ``redact`` before it is stored
(issue #16: secrets are never stored). By pattern, stdlib ``re`` only.

Covered: PEM private key blocks; provider keys (OpenAI ``sk-``, Anthropic ``sk-ant-``,
GitHub ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_``/``github_pat_``, AWS ``AKIA``/``ASIA``,
Slack ``xox[abprs]-``, Google ``AIza``); JWTs; ``Bearer`` tokens; passwords in URLs
(``scheme://user:pass@host`` keeps the user and the host); and generic assignments whose key
names a secret (``api_key=...``, ``token: ...``, ``password=...``), which keep the key.
Configuration's shapes too: a name/value pair whose name names a secret (Kubernetes
``- name: DB_PASSWORD`` / ``value: ...``, either order, ECS ``{"name": ..., "value":
...}``), a command-line flag (``--requirepass X``, ``["--password", "X"]``), the short
flags of commands that take a password (``mysql -pX``, ``docker login -p X``, ``curl -u
user:X``), a Makefile's other assignments (``DB_PASSWORD ?= x``, ``:=``, ``+=``) and a
Dockerfile's ``ENV DB_PASSWORD x``, and a password of any length (``password: root``,
``smtp_pass = x``). A
variable reference (``${DB_PASSWORD}``, ``$(cat f)``) is not a secret and stays, so a
reader sees where the value comes from.

Each secret becomes ``[redacted]``. The marker matches no pattern, and ``redact`` repeats
until nothing changes (a replacement can expose a shorter match), so it is idempotent:
``redact(redact(x)) == redact(x)``. Over-redacting a value that only looks like a secret is
the accepted cost; leaking one is not.
"""

from __future__ import annotations

import functools
import re

__all__ = ["MARKER", "redact"]

MARKER = "[redacted]"
_MAX_PASSES = 4  # each pass only shrinks secrets into markers; two passes settle in practice

_PEM = re.compile(
    r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,-]*)"
)
_TOKENS = re.compile(
    r"""(?<![\w-])(?:
        sk-ant-[A-Za-z0-9_-]{16,}
        |sk-(?:proj-|live-|test-|svcacct-)?[A-Za-z0-9_-]{20,}
        |gh[pousr]_[A-Za-z0-9]{20,}
        |github_pat_[A-Za-z0-9_]{20,}
        |(?:AKIA|ASIA)[0-9A-Z]{16}
        |xox[abprs]-[A-Za-z0-9-]{10,}
        |AIza[0-9A-Za-z_-]{30,}
        |(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}
        |whsec_[A-Za-z0-9]{24,}
        |glpat-[A-Za-z0-9_-]{20,}
        |npm_[A-Za-z0-9]{36}
        |pypi-[A-Za-z0-9_-]{50,}
        |hf_[A-Za-z0-9]{30,}
        |eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}
    )""",
    re.VERBOSE,
)
_BEARER = re.compile(
    # Bearer anywhere; Basic credentials or a "token X" only in an Authorization header
    # (prose says "token authentication").
    r"""(\bBearer\s+|\bAuthorization["']?\s*:\s*["']?(?:Basic|token|Digest)\s+)"""
    r"(?!\[redacted\])[A-Za-z0-9._~+/=-]{12,}",
    re.IGNORECASE,
)
_URL_PASSWORD = re.compile(
    r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@\[\]]*:)(?!\[redacted\]@)[^\s@/]+(@)"
)
# A reference to where the secret lives, not the secret: ${VAR}, ${{ secrets.X }}, $(cmd).
_REFERENCE = r"(?!\$\{|\$\()"
# How a Makefile sets a variable besides ``=`` (``?=``, ``+=``, ``:=``, ``::=``, ``:::=``),
# tried before a lone ``:``: ``DB_PASSWORD := x`` read ``:`` and took ``=`` for the value.
# ``!=`` is left out: its value is a shell command, not the secret.
_SET = r"(?:[?+]|:{1,3})?="
# What follows a key but is not its value: a nested key (YAML's ``secret:`` then
# ``secretName: tls`` on the next line), a mapping or list opening, a block scalar's sign.
_NOT_VALUE = r"(?![\w.-]*:(?:\s|$))(?![{\[])(?![|>][-+]?\d?(?:\s|$))"
# YAML's block scalar (``password: |`` / ``>-``): the value starts on the next line.
_BLOCK = r"(?:[|>][-+]?\d?[ \t]*\n[ \t]*)?"
# After "=" a value never starts on the next line (``API_KEY=`` then ``DB_HOST=x`` stays);
# after ":" it may (YAML). A value's opening quote: TOML's triple quotes too.
_OPEN = r"""(?:"{3}|'{3}|["'])?"""
_ASSIGNMENT = re.compile(
    r"""((?:\b|_)(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|secret|client[_-]?secret|
        (?:access|auth|refresh|bearer|api|session|github|gh|slack|npm|pypi)?[_-]?token|
        password|passwd|pwd|passphrase|private[_-]?key|auth|credentials?)
        ["']?\s*(?:"""
    + _SET
    + r"""[ \t]*|:(?!=)\s*)"""
    + _BLOCK
    + _OPEN
    + r""")(?!\[redacted\])"""
    + _REFERENCE
    + _NOT_VALUE
    + r"""((?:[^\s"',;}<>]|[,;](?=[^\s"',;}<>])){6,})""",
    re.IGNORECASE | re.VERBOSE,
)
# A secret's name as configuration writes it (DB_PASSWORD, api-token, STRIPE_SECRET).
_SECRET_NAME = r"[\w.-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|private[_-]?key|credentials?)"
# Kubernetes env, ECS environment, any list of {name, value}: the name says what the value is.
_NAME_VALUE = re.compile(
    r"""(\bname["']?\s*:\s*["']?"""
    + _SECRET_NAME
    + r"""[\w.-]*["']?\s*(?:,|\n)\s*["']?value["']?\s*:\s*["']?)(?!\[redacted\])"""
    + _REFERENCE
    + r"""([^\s"',}\]]+)""",
    re.IGNORECASE,
)
# The same pair written value first (``- value: X`` / ``name: DB_PASSWORD``).
_VALUE_NAME = re.compile(
    r"""(\bvalue["']?\s*:\s*["']?)(?!\[redacted\])"""
    + _REFERENCE
    + r"""([^\s"',}\]]+)(?=["']?\s*(?:,|\n)\s*["']?name["']?\s*:\s*["']?"""
    + _SECRET_NAME
    + r")",
    re.IGNORECASE,
)


# Commands whose short flag takes a password: mysql's glued ``-pX`` (``-p X`` prompts, and X
# is the database), ``docker login -p X``, ``sshpass -p X``, ``redis-cli -a X``, and curl's
# ``-u user:X``. Only these: ``-p`` and ``-a`` mean other things to other commands.
# Between a command and its flag: the rest of the line, up to the command's next mention
# (``[^\n]*?`` alone scanned each "curl" of a line to its end: 20k characters of them in a
# pasted prompt took 3.6 s), where a match of its own starts (``curl https://curl.se -u``).
def _gap(command: str) -> str:
    return r"(?:(?!" + command + r")[^\n])*?"


_MYSQL = r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b"
# What a text must hold for `_command_rules` to find anything (they are case-sensitive).
_COMMANDS = ("mysql", "mariadb", "docker", "sshpass", "redis-cli", "curl")


@functools.cache
def _command_rules() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The command rules, compiled when a text first names a command: compiling them costs
    a fresh process (the hook's writer redacts every prompt) more than most prompts' match."""
    command = re.compile(
        r"""((?:""" + _MYSQL + _gap(_MYSQL) + r"""[ \t]-p(?=[^\s-])"""
        r"""|\bdocker[ \t]+login\b""" + _gap(r"\bdocker[ \t]+login\b") + r"""[ \t]-p[ \t]+"""
        r"""|\bsshpass[ \t]+-p[ \t]*"""
        r"""|\bredis-cli\b""" + _gap(r"\bredis-cli\b") + r"""[ \t]-a[ \t]+"""
        r"""|\bcurl\b""" + _gap(r"\bcurl\b") + r"""[ \t](?:-u|--user)[ \t]+["']?[^\s:"'$]+:))"""
        r"""(?!\[redacted\])(?!["']?\$)('[^'\n]*'|"[^"\n]*"|[^\s"']+)"""
    )
    # curl's quoted ``-u 'user:pass word'``: the password runs to the closing quote.
    curl_quoted = re.compile(
        r"""(\bcurl\b""" + _gap(r"\bcurl\b") + r"""[ \t](?:-u|--user)[ \t]+(["'])[^\s:"'$]+:)"""
        r"""(?!\[redacted\])(?!\$)([^"'\n]+)(?=\2)"""
    )
    return command, curl_quoted


# A flag that takes a secret, its value after a space, '=' or a list's comma.
_FLAG = re.compile(
    r"""((?<![\w-])--?[\w-]*(?:pass(?:word|wd)?|secret|token|api-key)["']?"""
    r"""(?:\s*,\s*["']|[ \t]+|=|[ \t]*\n[ \t]*-[ \t]+)["']?)"""
    r"""(?!\[redacted\])(?![<>|&-])""" + _REFERENCE + r"""([^\s"',\]]{3,})""",
    re.IGNORECASE,
)
# A password key's value of any length (password: root); the generic rule wants 6 characters
# so that code's ``token: str`` stays; a password key names its few types (str, bytes) here.
# ``pass`` is one too after a word and ``_`` or ``-`` (``smtp_pass``, ``db-pass``; not
# ``bypass``) or as a line's key (an INI's ``pass =``; Python's ``pass`` takes no sign).
_SHORT_PASSWORD = re.compile(
    r"""((?:(?:\b|_)(?:password|passwd|passphrase)|(?<=[a-z0-9][_-])pass|(?m:^)[ \t]*pass)"""
    r"""["']?\s*(?:"""
    + _SET
    + r"""[ \t]*|:(?!=)\s*)"""
    + _BLOCK
    + _OPEN
    + r""")(?!\[redacted\])"""
    + _REFERENCE
    + _NOT_VALUE
    + r"""(?!(?:null|none|true|false|str|bytes|~)\b)((?:[^\s"',;}<>]|[,;](?=[^\s"',;}<>]))+)""",
    re.IGNORECASE,
)

# A quoted passphrase with spaces in it (password: "correct horse battery"): the rules above
# stop at the first space and would leave the rest.
_QUOTED_PHRASE = re.compile(
    r"""((?:\b|_)(?:password|passwd|passphrase|secret|token|api[_-]?key)["']?\s*[:=][ \t]*)"""
    r"""("{3}|'{3}|["'])(?!\[redacted\])([^"'\n]*[ \t][^"'\n]*)\2""",
    re.IGNORECASE,
)


# Dockerfile's older ``ENV NAME value`` (no ``=``): the value is the rest of the line.
# ``ENV`` in capitals, as Dockerfiles write it, so prose's "env password is ..." stays.
@functools.cache
def _docker_env() -> re.Pattern[str]:
    """Compiled when a text first holds ``ENV`` (as `_command_rules`)."""
    return re.compile(
        r"""(^[ \t]*ENV[ \t]+(?i:[\w.-]*?(?:pass(?:word|wd)?|secret|token|_key|credentials?))"""
        r"""[ \t]+)(?!\[redacted\])(?!["']?\$)(\S[^\n]*)""",  # (greedy to the end: linear)
        re.MULTILINE,
    )


# An environment variable named for a key (``STRIPE_KEY=...``, ``export MAPS_API_KEY=...``)
# or a password, secret or token written as one word (``PGPASSWORD=...``): upper case only,
# as env files and shells write them, so code's ``sort_key=...`` stays.
_ENV_KEY = re.compile(
    r"""(\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?:_KEY\s*"""
    + _SET
    + r"""|_?(?:PASSWORD|PASSWD|SECRET|TOKEN)\s*(?:"""
    + _SET
    + r"""|:(?!=)))[ \t]*["']?)(?!\[redacted\])"""
    + _REFERENCE
    + r"""([^\s"']{6,})"""
)


# A password in an env name (``PGPASSWORD=root``, ``DB_PASS=x``) is a secret at any length,
# as ``password: root`` is; ``_PASS`` after a word (``BYPASS`` is not one); ``$PW`` stays.
_ENV_PASSWORD = re.compile(
    r"""(\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*(?:_?PASSWORD|_?PASSWD|_PASS)[ \t]*(?:"""
    + _SET
    + r"""|:(?!=))[ \t]*["']?)"""
    r"""(?!\[redacted\])(?!\$)(?!(?i:null|none|true|false|~)(?:\s|$))([^\s"']+)"""
)


# What each rule needs in a text to match at all: cheap ``in`` tests that skip a rule's scan
# (~0.2 us a character each, 12 of them: a 2 MB configuration file spent 6 s redacting).
# The case-blind rules' words are looked for in the lower-cased text, exact for ASCII text;
# other text runs every rule, since ``re.IGNORECASE`` matches some letters beyond ASCII's
# (``ſ`` for ``s``, ``ı`` for ``i``) that lower-casing does not fold.
_TOKEN_PREFIXES = ("sk-", "sk_", "rk_", "gh", "github_pat_", "AKIA", "ASIA", "xox", "AIza")
_TOKEN_PREFIXES += ("whsec_", "glpat-", "npm_", "pypi-", "hf_", "eyJ")
_ENV_WORDS = ("_KEY", "PASSWORD", "PASSWD", "SECRET", "TOKEN")
_ASSIGNED = ("key", "secret", "token", "pass", "pwd", "auth", "credential")
_NAMED = ("key", "secret", "token", "pass", "credential")


def _words(low: str | None, words: tuple[str, ...]) -> bool:
    return low is None or any(word in low for word in words)


def _once(text: str, *, gated: bool = True) -> str:
    """One pass of every rule; ``gated``: skip a rule whose words the text lacks (the same
    result, tests/test_redact.py)."""
    low = text.lower() if gated and text.isascii() else None
    if not gated or "PRIVATE KEY" in text:
        text = _PEM.sub(MARKER, text)
    if not gated or any(prefix in text for prefix in _TOKEN_PREFIXES):
        text = _TOKENS.sub(MARKER, text)
    if _words(low, ("bearer", "authorization")):
        text = _BEARER.sub(lambda m: m.group(1) + MARKER, text)
    if not gated or "://" in text:
        text = _URL_PASSWORD.sub(lambda m: m.group(1) + MARKER + m.group(2), text)
    if "ENV" in text:
        text = _docker_env().sub(lambda m: m.group(1) + MARKER, text)
    if not gated or any(word in text for word in _ENV_WORDS):
        text = _ENV_KEY.sub(lambda m: m.group(1) + MARKER, text)
    if not gated or "PASS" in text:
        text = _ENV_PASSWORD.sub(lambda m: m.group(1) + MARKER, text)
    if _words(low, _NAMED) and (low is None or ("name" in low and "value" in low)):
        text = _NAME_VALUE.sub(lambda m: m.group(1) + MARKER, text)
        text = _VALUE_NAME.sub(lambda m: m.group(1) + MARKER, text)
    if any(word in text for word in _COMMANDS):
        command, curl_quoted = _command_rules()
        text = curl_quoted.sub(lambda m: m.group(1) + MARKER, text)
        text = command.sub(lambda m: m.group(1) + MARKER, text)
    if not _words(low, _ASSIGNED):  # (every rule below needs one of these words)
        return text
    if _words(low, _NAMED):
        text = _FLAG.sub(lambda m: m.group(1) + MARKER, text)
        text = _QUOTED_PHRASE.sub(lambda m: m.group(1) + m.group(2) + MARKER + m.group(2), text)
    if _words(low, ("pass",)):
        text = _SHORT_PASSWORD.sub(lambda m: m.group(1) + MARKER, text)
    return _ASSIGNMENT.sub(lambda m: m.group(1) + MARKER, text)


def redact(text: str) -> str:
    """``text`` with every secret the patterns know replaced by ``[redacted]``."""
    for _ in range(_MAX_PASSES):
        redacted = _once(text)
        if redacted == text:
            return text
        text = redacted
    return text
