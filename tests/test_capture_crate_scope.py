"""probe92 (a week on nom through the installed hook): "in this crate" is the project.

A Rust user names the project a crate: "We never use the streaming parsers in this crate,
only complete ones." was vetoed whole as a scope of this turn ("for this commit", "in this
file"), while the same rule "in this repo" or "in this package" is captured. A crate is a
package: it scopes the project, as "in this library" already did for the veto.
"""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements


@pytest.mark.parametrize(
    "prompt",
    [
        "We never use the streaming parsers in this crate, only complete ones.",
        "We never use unwrap in this crate.",
        "In this crate we always return IResult, never panic.",
    ],
)
def test_a_rule_for_this_crate_is_captured(prompt: str) -> None:
    [statement] = extract_statements(prompt)
    assert statement.kind == "rule"


@pytest.mark.parametrize(
    "prompt",
    [
        "for this commit, skip the crate's doc tests",
        "in this function we never use unwrap, fix it",
        "just this once, use unwrap in this crate's example",
    ],
)
def test_a_scope_of_this_turn_is_still_no_rule(prompt: str) -> None:
    assert extract_statements(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "We never use unwrap in this Rust crate.",
        "We never use raw SQL in this Django project.",
        "Always use pnpm in this Node monorepo.",
        # (capture's dev6 v0300, a labelled correction this veto missed)
        "The package env for this Julia project is the one in `./env`, not your global one.",
    ],
)
def test_the_project_named_with_one_word_before_it_is_still_the_project(prompt: str) -> None:
    assert len(extract_statements(prompt)) == 1


@pytest.mark.parametrize(
    "prompt",
    ["in this test file, use unwrap freely", "in this new function never unwrap"],
)
def test_a_turn_scope_named_with_one_word_before_it_is_still_this_turn(prompt: str) -> None:
    assert extract_statements(prompt) == []
