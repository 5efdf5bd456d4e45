"""The word tests that let redaction skip a rule (credo.knowledge.redact ``_once``), checked
rule by rule: a skipped rule that would have matched leaks a secret.

Comparing ``redact`` with its ungated run (tests/test_redact.py) misses a wrong gate whenever
another rule happens to take the same secret (``_ASSIGNMENT`` takes most of what
``_ENV_KEY`` or ``_SHORT_PASSWORD`` do). Here every rule's ``sub`` is watched: on the same
text, each rule that changes it in the ungated pass must also run in the gated one; and a
rule whose gate predates ``gated`` (``ENV``, the command names) must find nothing in the
text it was skipped on.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.knowledge import redact as rules
from tests.test_redact import ALNUM, SECRETS, TRIGGERS, chars, embed

_MODULE_RULES = (
    "_PEM",
    "_TOKENS",
    "_BEARER",
    "_URL_PASSWORD",
    "_ENV_KEY",
    "_ENV_PASSWORD",
    "_NAME_VALUE",
    "_VALUE_NAME",
    "_FLAG",
    "_QUOTED_PHRASE",
    "_SHORT_PASSWORD",
    "_ASSIGNMENT",
)


class _Watched:
    """A compiled rule whose ``sub`` records (name, text it was given, whether it changed)."""

    def __init__(self, name: str, pattern: re.Pattern[str], seen: list[Any]) -> None:
        self.name, self.pattern, self.seen = name, pattern, seen

    def sub(self, repl: Callable[[re.Match[str]], str] | str, text: str) -> str:
        out = self.pattern.sub(repl, text)
        self.seen.append((self.name, text, out != text))
        return out


@contextlib.contextmanager
def _watching(seen: list[Any]) -> Iterator[None]:
    saved = {name: getattr(rules, name) for name in _MODULE_RULES}
    docker_env, command_rules = rules._docker_env, rules._command_rules
    command, curl_quoted = command_rules()
    watched_docker = _Watched("docker_env", docker_env(), seen)
    watched_commands = (
        _Watched("command", command, seen),
        _Watched("curl_quoted", curl_quoted, seen),
    )
    try:
        for name, pattern in saved.items():
            setattr(rules, name, _Watched(name, pattern, seen))
        rules._docker_env = lambda: watched_docker  # type: ignore[assignment]
        rules._command_rules = lambda: watched_commands  # type: ignore[assignment]
        yield
    finally:
        for name, pattern in saved.items():
            setattr(rules, name, pattern)
        rules._docker_env, rules._command_rules = docker_env, command_rules


def _pass(text: str, *, gated: bool) -> tuple[str, list[tuple[str, str, bool]]]:
    seen: list[tuple[str, str, bool]] = []
    with _watching(seen):
        out = rules._once(text, gated=gated)
    return out, seen


def _check_pass(text: str) -> str:
    """One pass of ``text`` gated and ungated; returns the pass's result."""
    ungated, open_seen = _pass(text, gated=False)
    gated, gated_seen = _pass(text, gated=True)
    ran = {name for name, _, _ in gated_seen}
    for name, given_text, changed in open_seen:
        assert not changed or name in ran, f"{name} skipped on {given_text!r}"
    # The gates kept from before (``ENV``, a command's name) skip in both runs: the text the
    # next rule was given is what the skipped one would have seen.
    given_to = {name: given_text for name, given_text, _ in open_seen}
    if "docker_env" not in given_to:
        assert rules._docker_env().search(given_to["_ENV_KEY"]) is None
    if "command" not in given_to:
        before_flag = given_to["_FLAG"]
        assert all(rule.search(before_flag) is None for rule in rules._command_rules())
    assert gated == ungated
    return gated


def _check(text: str) -> None:
    for _ in range(6):  # (every pass of ``redact``: a replacement changes the next one's text)
        out = _check_pass(text)
        if out == text:
            return
        text = out


# Letters ``re.IGNORECASE`` folds onto ASCII ones (ſ s, ı i, İ i, K k) and others that
# lower-case to several letters or change length (ß, ﬃ), among the triggers.
_FOLDING = st.text(alphabet="ſıİ\u212aßﬃéÅ", min_size=1, max_size=3)
# Each family's secret alone and in its usual context (a token's prefix or a URL's ``://``
# is rare among random triggers: the comparison with the ungated run missed a gate without
# ``eyJ``, ``gh`` or ``://``).
_SECRET = st.sampled_from(sorted(SECRETS)).flatmap(
    lambda family: st.one_of(SECRETS[family], SECRETS[family].map(lambda s: embed(family, s)))
)
TEXTS = st.lists(
    st.one_of(TRIGGERS, _SECRET, _FOLDING, chars(ALNUM + "_-=:;,' \"\n", 1, 12)), max_size=6
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXTS, st.text(max_size=200)))
def test_no_gate_skips_a_rule_that_would_change_the_text(text: str) -> None:
    _check(text)


def test_each_rule_is_watched_and_changes_a_text_of_its_own() -> None:
    """The watch sees every rule (a rule added to ``_once`` but not here goes unchecked)."""
    texts = [
        "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----",
        "sk-" + "a" * 30,
        "Authorization: Bearer abcdefghijklmnop",
        "https://me:hunter2@example.com/",
        "ENV DB_PASSWORD hunter2",
        "MYTOKEN=,,,,,,,,",
        "PGPASSWORD=x",
        "- name: DB_PASSWORD\n  value: hunter2",
        "- value: hunter2\n  name: DB_PASSWORD",
        "mysql -uroot -phunter2",
        'curl -u "me:pass word" https://x',
        "--requirepass hunter2",
        'password: "correct horse battery"',
        "smtp_pass = x",
        "api_key=abcdefgh",
    ]
    changed = set()
    for text in texts:
        _check(text)
        changed |= {name for name, _, did in _pass(text, gated=False)[1] if did}
    assert changed == {*_MODULE_RULES, "docker_env", "command", "curl_quoted"}


@pytest.mark.parametrize(
    "text",
    [
        "sk-ant-api03-" + "a" * 20,
        "sk-proj-" + "a" * 24,
        "ghp_" + "a" * 36,
        "gho_" + "a" * 36,
        "github_pat_" + "a" * 22,
        "AKIA" + "A" * 16,
        "ASIA" + "A" * 16,
        "xoxb-" + "a" * 12,
        "AIza" + "a" * 35,
        "sk_live_" + "a" * 24,
        "rk_test_" + "a" * 24,
        "whsec_" + "a" * 32,
        "glpat-" + "a" * 20,
        "npm_" + "a" * 36,
        "pypi-" + "a" * 60,
        "hf_" + "a" * 34,
        "eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl",  # (no other rule's prefix: "gh" is one)
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl",
        "AUTHORIZATION: Basic dXNlcjpwYXNzd29yZA==",
        "bEaReR abcdefghijklmnop",
        "redis://:hunter2@cache",
        "STRIPE_KEY=,,,,,,,,",
        "XSECRET=abcdefgh",
        "GHTOKEN: <<<<<<<<",
        "APASSWD=x",
        "DB_PASS=x",
        "NAME: API_TOKEN, VALUE: x",
        '{"name": "GCP_CREDENTIALS", "value": "x"}',
        "- value: x\n  name: a.credential",
        "--db-passwd xyz",
        "--API-KEY=xyz",
        "PWD=abcdefgh",
        "AUTH: abcdefgh",
        "CREDENTIALS = abcdefgh",
        "PASSPHRASE: 'a b'",
        "PASS = x",
        "PGPASSWORD=abcdefgh",
        "APASSWD=abcdefgh",
        "client_secret = abcdefgh",
        "refresh_token: abcdefgh",
        "--client-secret xyz",
        "authorization: token abcdefghijklmnop",
        # Letters re.IGNORECASE folds onto ASCII ones, which lower() leaves as they are.
        "paſſword: x",
        "ſecret: abcdefgh",
        "to\u212aen=abcdefgh",
        "Authorızation: Basic abcdefghijklmnop",
        "- name: DB_PAſſWORD\n  value: x",
        "--api-\u212aey xyz",
    ],
)
def test_no_gate_skips_one_secret_of_each_shape(text: str) -> None:
    _check(text)
    _check(f"the value is {text} here")
