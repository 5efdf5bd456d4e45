"""probe83 (a week on APScheduler through the installed hook): a name ruled out is mentioned
by a compound identifier named after it.

Wednesday: "Decision: we keep jobs in the SQLAlchemyJobStore on our Postgres database."
Thursday: "Change of plan: we are moving the job store to Redis, not SQLAlchemy, because the
database is overloaded." The change rules out "sqlalchemy", but the decision's one token was
"sqlalchemyjobstore": no mention, so the decision was neither replaced nor disputed, and
Friday's SessionStart served both as current. ``replace.head_words`` reads a compound
identifier ("SQLAlchemyJobStore", "RedisJobStore") as its head where rule 1 looks for a
mention.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.capture import extract_statements, statement_of
from credo.knowledge.replace import Candidate, judge
from tests.test_capture_agent_day import _edges, _project
from tests.test_hook_events import base, captured_count, hook, wait_for

DECISION = "Decision: we keep jobs in the SQLAlchemyJobStore on our Postgres database."
CHANGE = (
    "Change of plan: we are moving the job store to Redis, not SQLAlchemy, because the "
    "database is overloaded."
)


def _statement(text: str):  # type: ignore[no-untyped-def]
    [statement] = extract_statements(text)
    return statement


def test_the_change_replaces_the_decision_naming_the_store_after_the_old_one() -> None:
    verdict = judge(_statement(CHANGE), [Candidate("decision", DECISION)])
    assert verdict.supersedes == "decision"


BROKER = "Message broker: {new}, not {old}."
READS = "Workers read the message broker through {name} in staging."


@pytest.mark.parametrize(
    "name",
    [
        "RedistributionQueue",  # starts with the same letters, but "Redis" is no head there
        "Redis_JobStore",  # a snake_case name is words already: no change
    ],
)
def test_a_name_that_is_no_head_reads_as_before(name: str) -> None:
    statement = statement_of(BROKER.format(new="Mongo", old="Redis"), "rule")
    base_verdict = judge(statement, [Candidate("c", READS.format(name=name.lower()))])
    assert judge(statement, [Candidate("c", READS.format(name=name))]) == base_verdict


def test_one_name_with_capitals_inside_is_one_name() -> None:
    statement = statement_of(BROKER.format(new="Mongo", old="PostgreSQL"), "rule")
    candidate = Candidate("c", READS.format(name="PostgreSQL"))
    assert judge(statement, [candidate]).supersedes == "c"
    statement = statement_of(BROKER.format(new="Mongo", old="Postgre"), "rule")
    assert judge(statement, [candidate]).supersedes is None


def test_a_compound_after_a_negation_agrees() -> None:
    """A mention after a negation ("must not use SQLAlchemyJobStore") rules out what the
    change rules out, as "must not use SQLAlchemy" does: it agrees."""
    said = "Jobs must not use {name}, the database is for orders."
    change = _statement(CHANGE)
    compound = judge(change, [Candidate("c", said.format(name="SQLAlchemyJobStore"))])
    assert compound == judge(change, [Candidate("c", said.format(name="SQLAlchemy"))])
    assert compound.supersedes is None


_NAME = st.sampled_from(["Redis", "Mongo", "Kafka", "Celery", "Moment", "Webpack"])
_TAIL = st.sampled_from(["JobStore", "Backend", "Adapter", "ClientPool", "Config"])


@given(old=_NAME, new=_NAME, tail=_TAIL)
def test_a_compound_is_judged_as_its_head(old: str, new: str, tail: str) -> None:
    """A belief naming ``{old}{tail}`` is judged as the same belief naming ``{old}``."""
    if old == new:
        return
    statement = statement_of(BROKER.format(new=new, old=old), "rule")
    compound = Candidate("c", READS.format(name=f"{old}{tail}"))
    plain = Candidate("c", READS.format(name=old))
    assert judge(statement, [compound]) == judge(statement, [plain])
    assert judge(statement, [compound]).supersedes == "c"


SERVICES = "Decision: the backend services use {name} on the new cluster."


@pytest.mark.parametrize(
    ("old", "name"),
    [("Java", "JavaScript"), ("Web", "WebSocket"), ("Py", "PyInstaller"), ("Git", "GitHub")],
)
def test_a_name_that_only_starts_with_the_old_one_is_not_ruled_out(old: str, name: str) -> None:
    """review84: "JavaScript" is no script of Java. Its tail is no role word (``ROLE_PARTS``),
    so it stays one name, as before probe83: ruling out Java replaces no JavaScript decision."""
    statement = statement_of(f"Backend services: Go, not {old}.", "rule")
    compound = judge(statement, [Candidate("c", SERVICES.format(name=name))])
    assert compound == judge(statement, [Candidate("c", SERVICES.format(name=name.lower()))])
    assert compound.supersedes is None


_BRAND_TAIL = st.sampled_from(["Script", "Socket", "Installer", "Hub", "Shell", "Press", "Core"])


@given(old=_NAME, new=_NAME, tail=_BRAND_TAIL)
def test_a_compound_without_a_role_tail_is_one_name(old: str, new: str, tail: str) -> None:
    """A belief naming ``{old}{tail}`` (a tail that is no role word) is judged as the same
    belief naming it in lower case: one word, which ``{old}`` is not."""
    if old == new:
        return
    statement = statement_of(BROKER.format(new=new, old=old), "rule")
    compound = Candidate("c", READS.format(name=f"{old}{tail}"))
    lower = Candidate("c", READS.format(name=f"{old}{tail}".lower()))
    assert judge(statement, [compound]) == judge(statement, [lower])


def test_through_the_installed_hook_the_change_replaces_the_decision(tmp_path: Path) -> None:
    project = _project(tmp_path, {"decision": DECISION})
    hook(tmp_path, "prompt", base(project, "UserPromptSubmit", prompt=CHANGE), project)
    wait_for(lambda: captured_count(project) > 0)
    assert _edges(project) == {("SUPERSEDES", "decision")}


# fold86: the compound's parts are store/identifier.py's (the splitter compound_words uses),
# not a second pattern beside it; where the two differed (digits: "HTTP2Server" was H, T, T,
# P2, Server) the head read is the same.
_NAME_PIECES = st.sampled_from(
    ["HTTP", "2", "Server", "IPv6", "v", "X", "s", "URLs", "SQL", "Alchemy", "Job", "Store",
     "Pool", "Client", "web3", "IO", "Redis", "Engine"]
)  # fmt: skip


@given(st.lists(_NAME_PIECES, min_size=1, max_size=6).map("".join))
def test_a_names_parts_hold_every_character_and_its_head_starts_it(name: str) -> None:
    from credo.knowledge.replace import ROLE_PARTS, compound_head
    from credo.store.identifier import name_parts

    parts = name_parts(name)
    assert "".join(parts) == name
    head = compound_head(name)
    assert name.startswith(head) and head
    assert all(part in ROLE_PARTS for part in name_parts(name[len(head) :]))


@pytest.mark.parametrize(
    ("name", "head"),
    [("HTTP2ServerPool", "HTTP2Server"), ("HTTP2Client", "HTTP2"), ("IPv6Store", "IPv6")],
)
def test_digits_in_a_compound_keep_its_head(name: str, head: str) -> None:
    from credo.knowledge.replace import compound_head

    assert compound_head(name) == head
