"""Asking "what calls checkRateLimit": a camelCase or PascalCase query word beside a word
that asks who uses it finds the definitions whose bodies call it, in every language credo
reads, as a snake_case one always did.

Ingest writes a body's names split into words (``check rate limit``); FTS5 reads a
camelCase query word as one token (``checkratelimit``) that only the definition's own
name holds, while it cuts a snake_case one into the phrase the callers' context holds.
`identifier_phrases` gives the camelCase word that phrase too (store/identifier.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk import split_code
from credo.knowledge.chunk.code_names import context_words
from credo.store.identifier import identifier_phrases, with_identifier_phrases

from .conftest import CliRun


@pytest.mark.parametrize(
    ("query", "phrases"),
    [
        ("what calls checkRateLimit", ["check rate limit"]),
        ("who uses CheckRateLimit?", ["check rate limit"]),
        ("where is the getUser helper called", ["get user"]),
        ("usages of HTTPHeaderDict", ["http header dict"]),
        ("callers of combineURLs, getURLs2", ["combine urls", "get urls2"]),
        ("who calls this.getUser, or getUser", ["get user"]),
        ("HTTPHeaderDict and combineURLs", []),  # about the names: no usage word
        ("what calls check_rate_limit", []),  # FTS5 cuts it at "_" itself
        ("what calls Retry and HTTP and sha256", []),  # one word each: the token is the word
        ("what calls setX", []),  # a single letter is never written to a context
        # (click's bench: a usage word far from the brand word asks nothing of it)
        (
            "versus calling a group with no arguments, and how do I check the last exit code "
            "in PowerShell or cmd?",
            [],
        ),
    ],
)
def test_identifier_phrases(query: str, phrases: list[str]) -> None:
    assert identifier_phrases(query) == phrases


def test_phrases_follow_the_terms_within_the_cap() -> None:
    assert with_identifier_phrases(["calls", "checkratelimit"], "calls checkRateLimit") == [
        "calls",
        "checkratelimit",
        "check rate limit",
        "check",
        "rate",
        "limit",
    ]
    many = ["calls", *(f"w{i}" for i in range(47))]
    assert with_identifier_phrases(many, "calls checkRateLimit") == many
    snake = with_identifier_phrases(["calls", "check_rate_limit"], "calls check_rate_limit")
    assert snake == ["calls", "check_rate_limit", "check", "rate", "limit"]
    assert with_identifier_phrases(["checkratelimit"], "checkRateLimit") == ["checkratelimit"]


_PART = st.sampled_from(["check", "rate", "limit", "get", "user", "http", "url", "store"])


# (distinct words: a context writes each word once, so "checkCheck" is left out)
@given(st.lists(_PART, min_size=2, max_size=5, unique=True))
def test_query_phrase_is_what_ingest_writes(parts: list[str]) -> None:
    """The phrase a camelCase query word asks for is the words ingest writes for the same
    name in a body, in the same order: a caller's context holds it."""
    camel = parts[0] + "".join(p.capitalize() for p in parts[1:])
    pascal = camel[0].upper() + camel[1:]
    for identifier in (camel, pascal):
        written = context_words([identifier]).split()
        assert identifier_phrases(f"what calls {identifier}") == [" ".join(written)]


_CALLERS = {
    "api/users.ts": (
        "export async function getUser(id: string) {\n"
        "  await checkRateLimit(id);\n  return db.find(id);\n}\n"
        "export const listUsers = async (page: number) => {\n"
        '  await checkRateLimit("list");\n  return db.list(page);\n};\n'
    ),
    "web/users.js": (
        "class Users {\n  remove(id) {\n    checkRateLimit(id);\n    return db.drop(id);\n"
        "  }\n}\nmodule.exports = { Users };\n"
    ),
    "svc/users.go": (
        "package svc\n\n// GetAccount loads one account.\n"
        "func GetAccount(id string) error {\n\treturn CheckRateLimit(id)\n}\n"
    ),
    "svc/Accounts.java": (
        "public class Accounts {\n    public Account fetchAccount(String id) {\n"
        "        RateLimits.checkRateLimit(id);\n        return db.find(id);\n    }\n}\n"
    ),
    "native/users.c": (
        "int delete_user(const char *id) {\n    if (!checkRateLimit(id)) return 0;\n"
        "    return db_delete(id);\n}\n"
    ),
    "svc/hooks.go": (
        "package svc\n\nvar onRequest = func(key string) bool {\n\treturn CheckRateLimit(key)\n}\n"
    ),
    "native/limits.h": "#define LIMITED(x) (checkRateLimit(x) && (x))\n",
    "py/billing.py": (
        "def charge(account):\n    rate = account.rate\n"
        "    if limits.check_rate_limit(account.id, rate):\n        return bill(account)\n"
    ),
    "native/users.rs": (
        "pub fn rename_user(id: &str) -> bool {\n    checkRateLimit(id) && db::rename(id)\n}\n"
    ),
}
_OTHERS = {
    f"misc/other{i}.ts": (
        f"export function helper{i}(value: number): number {{\n"
        f"  return formatValue(value) + parseInput({i});\n}}\n"
    )
    for i in range(12)
}


@pytest.mark.parametrize("name", ["checkRateLimit", "CheckRateLimit", "check_rate_limit"])
def test_what_calls_finds_the_callers_in_every_language(
    run: CliRun, tmp_path: Path, name: str
) -> None:
    root = tmp_path / "repo"
    for relative, text in {**_CALLERS, **_OTHERS}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    run("ingest", str(root), check=True)
    done = run("search", "--json", f"what calls {name}", check=True)
    trails = [belief["trail"] for belief in json.loads(done.stdout)["beliefs"]]
    for caller in (
        "api/users.ts › getUser",
        "api/users.ts › listUsers",
        "web/users.js › Users › remove",
        "svc/users.go › GetAccount",
        "svc/Accounts.java › Accounts › fetchAccount",
        "native/users.c › delete_user",
        "native/users.rs › rename_user",
        "py/billing.py › charge",  # "rate" first: the words, not the phrase
        "svc/hooks.go › onRequest",
        "native/limits.h › LIMITED",
    ):
        assert any(trail.startswith(f"repo/{caller} ") for trail in trails), (caller, trails)


@pytest.mark.parametrize(
    ("language", "source", "trail", "signature"),
    [
        (
            "go",
            "package x\n\nvar onRequest = func(key string) bool {\n"
            "\treturn CheckRateLimit(key)\n}\n",
            ("onRequest",),
            "var onRequest = func(key string) bool",
        ),
        (
            "go",
            "package x\n\nvar (\n\ta = 1\n\tb = func() { CheckRateLimit(a) }\n)\n",
            ("b",),
            "b = func()",
        ),
        (
            "c",
            "#define LIMITED(x) (checkRateLimit(x) && (x))\n",
            ("LIMITED",),
            "#define LIMITED(x)",
        ),
    ],
)
def test_function_values_and_macros_are_definitions(
    language: str, source: str, trail: tuple[str, ...], signature: str
) -> None:
    """A Go function value (``var h = func...``) and a C function-like macro are what a
    caller looks like in those languages: each is a definition whose context holds the
    names it uses."""
    [found] = [c for c in split_code(source, language) if c.role == "definition"]
    assert (found.section, found.text) == (trail, signature)
    assert "check rate limit" in found.context
