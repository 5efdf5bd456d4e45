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
