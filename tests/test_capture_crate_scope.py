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
