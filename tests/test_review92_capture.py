"""review92: a part of the system named as someone else's reads no change of our tools.

Stop 64 read the tools of "we switched CI from Travis to GitHub Actions" as terms, the part
of the system (CI, docs, a service...) standing between the verb and "from". The part's
word before it could be anyone's: "the Django team switched their CI from Travis to GitHub
Actions", kept for another sentence of the prompt, then ruled Travis out and superseded
"Our CI runs on Travis". As before stop 64, such a sentence names no term.
"""

from __future__ import annotations

import pytest

from credo.knowledge.capture import extract_statements


@pytest.mark.parametrize(
    "prompt",
    [
        "We use Travis. The Django team switched their CI from Travis to GitHub Actions.",
        "We keep Travis, even though other teams switched their CI from Travis to Actions.",
        "Always use Postgres; Bob moved his database from Postgres to SQLite.",
        "We keep Sphinx; Ana moved her docs from Sphinx to MkDocs.",
    ],
)
def test_someone_elses_part_rules_out_nothing(prompt: str) -> None:
    for statement in extract_statements(prompt):
        assert not {"travis", "postgres", "sphinx"} & set(statement.negated)


@pytest.mark.parametrize(
    ("prompt", "old"),
    [
        ("We switched our CI from Travis to GitHub Actions.", "travis"),
        ("We moved the docs from Sphinx to MkDocs.", "sphinx"),
        ("We migrated the billing service from Celery to RQ.", "celery"),
    ],
)
def test_our_part_still_rules_out_the_old_tool(prompt: str, old: str) -> None:
    [statement] = extract_statements(prompt)
    assert old in statement.negated


@pytest.mark.parametrize(
    "prompt",
    [
        "We use Travis; we considered switching CI from Travis to GitHub Actions but stayed.",
        "We use Travis; we tried switching CI from Travis to GitHub Actions to measure speed.",
        "We use Travis; we considered switching from Travis to GitHub Actions but stayed.",
    ],
)
def test_a_change_only_weighed_rules_out_nothing(prompt: str) -> None:
    """Stop 64's part of the system made the first two rule Travis out (the third did at
    BASE): kept for "We use Travis", they superseded "Our CI runs on Travis"."""
    [statement] = extract_statements(prompt)
    assert "travis" not in statement.negated
    assert "github" not in statement.asserted


def test_a_change_under_way_still_rules_out_the_old_tool() -> None:
    [statement] = extract_statements("We're switching the frontend from webpack to Vite.")
    assert "webpack" in statement.negated and "vite" in statement.asserted
