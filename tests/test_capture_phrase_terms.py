"""probe86 (a week on hatch through the installed hook): what a statement prescribes is the
phrase it names before the alternative, not its last word.

Wednesday: "Decision: we publish releases to our internal index at https://pypi.internal...".
Thursday: "We've decided to publish releases to PyPI with trusted publishing instead of the
internal index." The change prescribed "trusted" (after "with") and "publishing" (the word
before "instead of"), and the decision mentions "publish": it "agreed", was left alone, and
Friday's SessionStart served both as current. ``terms._phrases`` joins the two words into
"trusted publishing", which the decision does not say.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements, statement_of
from credo.knowledge.replace import Candidate, judge
from credo.knowledge.terms import statement_terms
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for

DECISION = (
    "Decision: we publish releases to our internal index at https://pypi.internal.example.com,"
    " configured under publish.index.repos."
)
CHANGE = (
    "We've decided to publish releases to PyPI with trusted publishing instead of the"
    " internal index."
)


@pytest.mark.parametrize(
    ("text", "asserted"),
    [
        (CHANGE, ("trusted publishing",)),
        ("We run CI with GitHub Actions instead of Jenkins.", ("github actions",)),
        ("We use trusted publishing, not API tokens.", ("trusted publishing",)),
        ("The max upload size is 25 MB, not 10.", ("25 mb",)),
        ("No, docs are MkDocs Material, not Docusaurus.", ("mkdocs material",)),
        # guards: one word, a stop word before the name, a name already whole
        ("Prefer pnpm over npm.", ("pnpm",)),
        ("Use uv, not pip.", ("uv",)),
        ("The counts are in pounds, not items.", ("pounds",)),
        ("Use plain pytest instead of make.", ("pytest", "plain pytest")),
        ("Use Redis for caching instead of memcached.", ("caching", "redis")),
    ],
)
def test_the_prescribed_phrase(text: str, asserted: tuple[str, ...]) -> None:
    assert statement_terms(text)[1] == asserted


def test_the_change_replaces_the_decision_it_names() -> None:
    [change] = extract_statements(CHANGE)
    assert judge(change, [Candidate("decision", DECISION)]).supersedes == "decision"


def test_a_belief_already_naming_the_phrase_agrees() -> None:
    [change] = extract_statements(CHANGE)
    said = "Releases go out with trusted publishing, never from the internal index by hand."
    assert judge(change, [Candidate("c", said)]).supersedes is None


_ADJ = st.sampled_from(["trusted", "managed", "shared", "signed", "remote"])
_NOUN = st.sampled_from(["publishing", "runners", "storage", "caching", "builds"])
_OLD = st.sampled_from(["jenkins", "artifactory", "nexus", "gitlab"])


@given(adjective=_ADJ, noun=_NOUN, old=_OLD, form=st.sampled_from(["instead of", "over"]))
def test_an_adjective_and_noun_before_the_alternative_are_one_term(
    adjective: str, noun: str, old: str, form: str
) -> None:
    """ "with {adjective} {noun} {form} {old}" prescribes the pair, and a belief naming the noun
    alone (as a verb or a topic) does not already say it."""
    text = f"From now on we ship releases with {adjective} {noun} {form} {old}."
    negated, asserted = statement_terms(text)
    assert asserted == (f"{adjective} {noun}",)
    assert negated == (old,)
    statement = statement_of(text, "rule")
    candidate = Candidate("c", f"Releases ship with {noun} from {old} on every tag.")
    assert judge(statement, [candidate]).supersedes == "c"


def test_through_the_installed_hook_the_change_replaces_the_decision(tmp_path: Path) -> None:
    project = _project(tmp_path, {"decision": DECISION})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=CHANGE), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "decision")}
