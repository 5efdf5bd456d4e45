"""probe90 (a week on logrus through the installed hook): ``credo lock --captured`` locked a
captured belief that a later correction had replaced. Tuesday's "staging runs logrus at debug
level" was superseded by Thursday's "No, that's wrong: staging logs at info level now, not
debug.", yet locking every captured belief marked the outdated one "locked: yes" (user
ground truth) too. A belief a live belief supersedes is history: bulk lock leaves it."""

from __future__ import annotations

from pathlib import Path

from credo import Memory
from credo.agent.capture import capture_prompt, lock_captured

DEBUG = "Note for the team: staging runs logrus at debug level."
INFO = "No, that's wrong: staging logs at info level now, not debug."


def test_lock_captured_leaves_what_a_correction_replaced(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        [old] = capture_prompt(memory, DEBUG, session="tue", transcript=None, turn=1)
        [new] = capture_prompt(memory, INFO, session="thu", transcript=None, turn=1)
        assert new.supersedes == (old.belief_id,)
        assert lock_captured(memory) == [new.belief_id]
        assert not memory.get(old.belief_id).locked
        assert memory.get(new.belief_id).locked
        # and when the correction is forgotten, the old statement is current again: lockable
        memory.forget(new.belief_id)
        assert lock_captured(memory) == [old.belief_id]


# probe92 (a week on nom through the installed hook): the same bulk lock, when the later
# correction names the old value but shares too little with it to replace it (rule 5 of
# credo.knowledge.replace: CONTRADICTS). `credo lock --captured` locked both sides, the
# older first, so the decision the user had taken back stood as ground truth beside (and
# listed before) the correction. The disputed side stays unlocked; the newer word is locked
# and so outranks it; `credo resolve` settles the pair.
DECIDED = (
    "We decided to use VerboseError for all our parsers so convert_error can print readable "
    "messages."
)
TAKEN_BACK = (
    "No, we don't use VerboseError anymore, we use nom::error::Error because VerboseError "
    "allocates too much."
)


def test_lock_captured_leaves_what_a_later_correction_disputes(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as memory:
        [old] = capture_prompt(memory, DECIDED, session="mon", transcript=None, turn=1)
        [new] = capture_prompt(memory, TAKEN_BACK, session="wed", transcript=None, turn=1)
        assert new.contradicts == (old.belief_id,) and not new.supersedes
        assert lock_captured(memory) == [new.belief_id]
        assert not memory.get(old.belief_id).locked
        # forgotten, the correction disputes nothing: the decision is lockable again
        memory.forget(new.belief_id)
        assert lock_captured(memory) == [old.belief_id]


def test_lock_captured_locks_an_older_belief_that_disputes_a_newer_one(tmp_path: Path) -> None:
    """Only the user's later word holds the older back: an edge from an older belief to a
    newer one (written by hand, ``credo relate``) leaves both lockable."""
    with Memory(tmp_path / "m.db") as memory:
        [first] = capture_prompt(memory, TAKEN_BACK, session="mon", transcript=None, turn=1)
        [second] = capture_prompt(memory, DECIDED, session="wed", transcript=None, turn=1)
        memory.relate(first.belief_id, second.belief_id, "CONTRADICTS")
        assert lock_captured(memory) == [first.belief_id, second.belief_id]


def test_a_dispute_the_user_replaced_holds_nothing_back(tmp_path: Path) -> None:
    """The later word is itself history (a live belief supersedes it): it disputes nothing
    current, as `credo conflicts` counts it, so the decision is lockable again."""
    with Memory(tmp_path / "m.db") as memory:
        [old] = capture_prompt(memory, DECIDED, session="mon", transcript=None, turn=1)
        [new] = capture_prompt(memory, TAKEN_BACK, session="wed", transcript=None, turn=1)
        assert memory.conflicts()
        back = memory.remember("We use VerboseError again: the allocation was not the problem.")
        memory.relate(back, new.belief_id, "SUPERSEDES")
        assert not memory.conflicts()
        assert old.belief_id in lock_captured(memory)
