"""probe82 (a week on dirty-equals through the installed hook): a word that says a name is
used unwrapped ("plain pytest", "raw SQL", "bare pip", "vanilla JS") is part of the term a
statement rules out or prescribes, not the term itself (credo.knowledge.term_patterns
``MODIFIED_TERM``). Before, "never plain pytest" ruled out "plain", so the rule retired the
user's unrelated "I prefer plain assert statements ..." (a clear match: shared topic terms,
mentions "plain")."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import Statement, extract_statements
from credo.knowledge.replace import Candidate, Verdict, judge
from credo.knowledge.terms import clean_sentence, statement_terms
from credo.memory import Memory
from tests.test_hook_events import base, captured_count, hook, wait_for

ASSERTS = (
    "I prefer plain assert statements with dirty-equals types"
    " over custom helper functions in tests."
)
MAKE_TEST = "We always run the tests with make test before pushing, never plain pytest."


@pytest.mark.parametrize(
    ("clean", "negated", "asserted"),
    [
        (MAKE_TEST, ("plain pytest",), ("make",)),
        ("Never use raw SQL in the handlers", ("raw sql",), ()),
        ("Use Plot, not raw D3", ("raw d3",), ("plot",)),
        ("This repo runs tests with nox, not bare pytest", ("bare pytest",), ("nox",)),
        ("Use vanilla JS for the widget", (), ("vanilla js",)),
        ("Don't use plain `cargo test` in CI", ("plain cargo",), ()),
        # a modifier with no name after it stays the term it was
        ("Never plain, always pretty", ("plain",), ()),
        ("Use plain and simple names", (), ("plain",)),
        ("Prefer plain to fancy", (), ("plain",)),
        # other adjectives are untouched (the name may be the adjective: "never old", "no new")
        ("Never use custom helpers", ("custom",), ()),
    ],
)
def test_an_unwrapped_name_is_one_term(
    clean: str, negated: tuple[str, ...], asserted: tuple[str, ...]
) -> None:
    assert statement_terms(clean_sentence(clean)) == (negated, asserted)


def _only(text: str) -> Statement:
    (found,) = extract_statements(text)
    return found


def test_never_plain_pytest_leaves_a_preference_for_plain_asserts_alone() -> None:
    verdict = judge(_only(MAKE_TEST), [Candidate("asserts", ASSERTS)])
    assert verdict == Verdict()


def test_never_plain_pytest_still_replaces_the_rule_to_run_plain_pytest() -> None:
    old = Candidate("old", "We run plain pytest on the tests before pushing.")
    assert judge(_only(MAKE_TEST), [old]) == Verdict(supersedes="old", rule="clear")


@given(
    st.sampled_from(["plain", "bare", "raw", "vanilla"]),
    st.sampled_from(["pytest", "SQL", "pip", "`cargo`", "gRPC", "D3"]),
    st.sampled_from(["Never use", "Don't use", "Avoid", "We never use", "Do not use"]),
    st.sampled_from(["types", "dicts", "strings", "fixtures"]),
)
def test_the_modifier_with_another_name_is_no_mention(
    modifier: str, name: str, negation: str, other: str
) -> None:
    negated, _ = statement_terms(clean_sentence(f"{negation} {modifier} {name} in the tests"))
    assert negated[0] == f"{modifier} {name.strip('`')}".lower()
    rule = Statement(
        text=f"{negation} {modifier} {name} in the tests of this project.",
        kind="rule",
        origin="user_stated",
        negated=negated,
        asserted=(),
        signals=("rule",),
    )
    unrelated = Candidate("u", f"The tests of this project compare {modifier} {other} only.")
    assert judge(rule, [unrelated]).supersedes is None


def test_through_the_installed_hook_the_make_test_rule_keeps_the_assert_preference(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        memory.remember(ASSERTS, kind="preference", id="asserts")
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=MAKE_TEST), project)
    wait_for(lambda: captured_count(project) > 0)
    with Memory(project / ".credo" / "memory.db", root=project) as memory:
        edges = memory.store.conn.execute("SELECT type FROM edges WHERE dst = 'asserts'")
        assert edges.fetchall() == []
    ask = base(project, "UserPromptSubmit", prompt="How should the tests assert?", session="s2")
    block = hook(tmp_path, "prompt", ask, project).stdout.decode()
    assert "plain assert statements" in block
