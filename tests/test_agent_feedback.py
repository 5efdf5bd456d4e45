"""Automatic feedback (credo.agent.feedback): the overlap rule, its bound, its exact undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credo import Memory
from credo.agent import journal
from credo.agent.feedback import ALPHA_CREDIT, feedback_from_reply, undo_session, uses
from credo.errors import InvalidInputError

BELIEF = "Always use pnpm for installing packages in this repository"


@pytest.mark.parametrize(
    ("reply", "used"),
    [
        # 4 of 5 distinctive terms (always, pnpm, installing, packages, repository)
        ("I am installing the packages with pnpm, as always.", True),
        ("Installing packages with pnpm now.", True),  # 3 of 5 = 60%
        ("The packages are installed.", False),  # 1 term (installed is another word)
        ("pnpm it is.", False),  # one term
        ("Done: ran the tests and fixed the lint errors.", False),
        ("INSTALLING PACKAGES WITH PNPM", True),  # case does not matter
        ("installing_packages_with_pnpm", True),  # "_" separates words, as in the index
    ],
)
def test_the_term_rule(reply: str, used: bool) -> None:
    assert uses(BELIEF, reply) is used


def test_a_long_belief_needs_forty_percent_of_its_terms() -> None:
    belief = (
        "The deploy script ops/deploy.sh builds the container image, pushes it to the "
        "registry, runs database migrations, waits for the health check and then flips "
        "the load balancer to the new version"
    )
    assert not uses(belief, "I updated the deploy script and the container image.")
    assert uses(
        belief,
        "Ran ops/deploy.sh: it built the container image, pushed to the registry, ran the "
        "database migrations and the health check passed before the load balancer flipped.",
    )


def test_a_verbatim_run_of_six_words_is_a_quotation() -> None:
    belief = (
        "When the nightly build fails on Windows, retry the job once before paging anyone, "
        "because the runners there flake on network timeouts and artifact uploads often"
    )
    reply = "As noted: retry the job once before paging anyone."
    assert uses(belief, reply)
    # Six common words in a row are not a quotation (fewer than 2 distinctive ones).
    assert not uses("so it is what it is and that was that", "it is what it is and that")


def test_terms_the_prompt_holds_do_not_count() -> None:
    reply = "Installing packages with pnpm now."
    assert uses(BELIEF, reply)
    assert not uses(BELIEF, reply, prompt="how do I install packages with pnpm?")
    assert not uses(BELIEF, reply, prompt="installing packages")


def test_accents_are_dropped_like_the_index_drops_them() -> None:
    assert uses("Le café résumé naïve", "cafe resume naive")


def _inject(memory: Memory, session: str, ids: list[str]) -> None:
    journal.log_injection(
        memory, event="prompt", session=session, prompt="p", belief_ids=ids, tokens=1, chars=4
    )


def test_credit_is_bounded_once_per_session_and_belief(memory: Memory) -> None:
    a = memory.remember(BELIEF)
    b = memory.remember("Deploys go through ops/deploy.sh after staging smoke tests")
    _inject(memory, "s1", [b, a])
    reply = "Installing packages with pnpm; deploys go through ops/deploy.sh after staging."
    assert feedback_from_reply(memory, session="s1", reply=reply) == [b, a]
    assert feedback_from_reply(memory, session="s1", reply=reply) == []
    assert memory.get(a).alpha == 1.0 + ALPHA_CREDIT and memory.get(a).beta == 1.0
    _inject(memory, "s2", [a])
    assert feedback_from_reply(memory, session="s2", reply=reply) == [a]
    assert memory.get(a).alpha == 1.0 + 2 * ALPHA_CREDIT
    events = memory.store.feedback_events("s1")
    assert [(e.belief_id, e.signal, e.alpha_delta, e.beta_delta) for e in events] == [
        (b, "used_auto", 0.25, 0.0),
        (a, "used_auto", 0.25, 0.0),
    ]
    logged = [e for e in memory.store.log_entries(a) if e.op == "feedback"]
    assert [e.payload["session"] for e in logged] == ["s1", "s2"]


def test_only_injected_live_beliefs_are_credited(memory: Memory) -> None:
    a = memory.remember(BELIEF)
    gone = memory.remember("Installing packages with pnpm is fast")
    _inject(memory, "s1", [gone, "not-in-this-store"])
    memory.forget(gone)
    reply = "Installing packages with pnpm, always, in this repository."
    assert feedback_from_reply(memory, session="s1", reply=reply) == []
    assert feedback_from_reply(memory, session="other", reply=reply) == []
    assert memory.get(a).alpha == 1.0  # never injected
    assert feedback_from_reply(memory, session="s1", reply="   ") == []


def test_undo_is_exact_idempotent_and_final(memory: Memory) -> None:
    a = memory.remember(BELIEF)
    memory.feedback(a, "used")
    memory.feedback(a, "harmful")
    _inject(memory, "s1", [a])
    reply = "Installing packages with pnpm, always, in this repository."
    feedback_from_reply(memory, session="s1", reply=reply)
    assert memory.get(a).alpha == 2.25
    assert undo_session(memory, "s1") == 1
    assert (memory.get(a).alpha, memory.get(a).beta) == (2.0, 2.0)
    assert undo_session(memory, "s1") == 0
    assert undo_session(memory, "never-seen") == 0
    assert memory.get(a).alpha == 2.0
    # An undone session is not credited again (the user said no to it).
    assert feedback_from_reply(memory, session="s1", reply=reply) == []
    assert [e.op for e in memory.store.log_entries(a)][-2:] == ["feedback", "feedback_undo"]
    assert all(e.undone_at is not None for e in memory.store.feedback_events("s1"))


@pytest.mark.parametrize("session", ["", "  ", None, 3])
def test_a_bad_session_is_refused(memory: Memory, session: object) -> None:
    with pytest.raises(InvalidInputError, match="session"):
        feedback_from_reply(memory, session=session, reply="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="session"):
        undo_session(memory, session)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="reply"):
        feedback_from_reply(memory, session="s", reply=None)  # type: ignore[arg-type]


def test_a_failed_credit_changes_nothing(memory: Memory) -> None:
    a = memory.remember(BELIEF)
    _inject(memory, "s1", [a])
    memory.store.conn.execute(
        "CREATE TRIGGER fail AFTER INSERT ON feedback_events BEGIN SELECT RAISE(ABORT, 'x'); END"
    )
    with pytest.raises(Exception, match="x"):
        feedback_from_reply(memory, session="s1", reply="Installing packages with pnpm, always")
    assert memory.get(a).alpha == 1.0
    assert memory.store.feedback_events("s1") == []


# -- the round trip: any sequence of credits and undos, alpha exact ------------------------

TEXTS = [
    "Always use pnpm for installing packages in this repository",
    "Deploys go through ops/deploy.sh after staging smoke tests",
    "The cache lives in redis on port 6380 behind the proxy",
]
REPLIES = [
    "Installing packages with pnpm, always.",
    "Deploys went through ops/deploy.sh after staging smoke tests passed.",
    "The cache: redis on port 6380, proxy in front.",
    "Nothing relevant here at all.",
]

ops = st.lists(
    st.one_of(
        st.tuples(st.just("inject"), st.integers(0, 2), st.integers(0, 2)),
        st.tuples(st.just("reply"), st.integers(0, 2), st.integers(0, 3)),
        st.tuples(st.just("undo"), st.integers(0, 2), st.just(0)),
        st.tuples(st.just("used"), st.integers(0, 2), st.just(0)),
    ),
    max_size=25,
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=ops, start=st.lists(st.integers(0, 40), min_size=3, max_size=3))
def test_credits_and_undos_leave_alpha_exact(
    tmp_path: Path, steps: list[tuple[str, int, int]], start: list[int]
) -> None:
    with Memory(":memory:", root=tmp_path) as memory:
        ids = [memory.remember(t) for t in TEXTS]
        for belief_id, quarters in zip(ids, start, strict=True):  # alpha 1 + k/4
            with memory.store.transaction():
                memory.store.set_evidence(belief_id, 1.0 + quarters / 4, 1.0, 0.0)
        base = {i: memory.get(i).alpha for i in ids}
        explicit = dict.fromkeys(ids, 0)
        for op, a, b in steps:
            session = f"s{a}"
            if op == "inject":
                _inject(memory, session, [ids[b]])
            elif op == "reply":
                before = {i: memory.get(i).alpha for i in ids}
                credited = feedback_from_reply(memory, session=session, reply=REPLIES[b])
                assert feedback_from_reply(memory, session=session, reply=REPLIES[b]) == []
                for i in ids:
                    assert memory.get(i).alpha == before[i] + ALPHA_CREDIT * (i in credited)
            elif op == "undo":
                undo_session(memory, session)
                assert undo_session(memory, session) == 0
            else:
                memory.feedback(ids[a], "used")
                explicit[ids[a]] += 1
            # Invariant: alpha = start + explicit uses + a quarter per open credit.
            for i in ids:
                open_credits = sum(
                    1
                    for s in range(3)
                    for e in memory.store.feedback_events(f"s{s}", open_only=True)
                    if e.belief_id == i
                )
                assert memory.get(i).alpha == base[i] + explicit[i] + ALPHA_CREDIT * open_credits
        for s in range(3):
            undo_session(memory, f"s{s}")
        for i in ids:
            assert memory.get(i).alpha == base[i] + explicit[i]


@given(alpha=st.floats(0.25, 1e12, allow_nan=False, allow_infinity=False))
@settings(max_examples=200, deadline=None)
def test_one_credit_and_its_undo_restore_any_alpha(alpha: float) -> None:
    with Memory(":memory:") as memory:
        a = memory.remember(BELIEF)
        with memory.store.transaction():
            memory.store.set_evidence(a, alpha, 1.0, 0.0)
        _inject(memory, "s", [a])
        assert feedback_from_reply(memory, session="s", reply="installing packages with pnpm")
        assert undo_session(memory, "s") == 1
        assert memory.get(a).alpha == alpha
