"""probe92 (a week on nom through the installed hook): Stop's capture of several turns at once.

Stop captures the transcript's last user turns that the prompt hook's detached capture may
have missed, in one transaction (``capture_turns``). Its candidates were read once, before
any of the batch was written, so a turn was never judged against an earlier turn of the
same batch: "We decided to use VerboseError ..." (turn 1) and "No, we don't use
VerboseError anymore, ..." (turn 3) stood side by side, no edge, no conflict, and `credo
lock --captured` locked both; the prompt path, one turn at a time, marks the pair. The batch
now gives what the turns give one by one.
"""

from __future__ import annotations

from pathlib import Path

from credo import Memory
from credo.agent.capture import Captured, capture_turns, lock_captured
from credo.knowledge.transcript import Turn

DECIDED = (
    "We decided to use VerboseError for all our parsers so convert_error can print readable "
    "messages."
)
RULE = "Always wrap top-level parsers with all_consuming, never leave trailing input unchecked."
TAKEN_BACK = (
    "No, we don't use VerboseError anymore, we use nom::error::Error because VerboseError "
    "allocates too much."
)
DEBUG = "Note for the team: staging runs logrus at debug level."
INFO = "No, that's wrong: staging logs at info level now, not debug."


def _by_text(found: list[Captured], text: str) -> Captured:
    return next(c for c in found if c.text == text)


def test_a_later_turn_of_one_batch_disputes_an_earlier_one(tmp_path: Path) -> None:
    transcript = str(tmp_path / "session.jsonl")
    with Memory(tmp_path / "m.db") as memory:
        turns = [Turn(1, 1, DECIDED), Turn(2, 3, RULE), Turn(3, 5, TAKEN_BACK)]
        found = capture_turns(memory, turns, transcript=transcript, session="s")
        old, new = _by_text(found, DECIDED), _by_text(found, TAKEN_BACK)
        assert new.contradicts == (old.belief_id,)
        assert _by_text(found, RULE).contradicts == ()
        assert [c.first.id for c in memory.conflicts()] == [new.belief_id]
        assert old.belief_id not in lock_captured(memory)


def test_a_later_turn_of_one_batch_replaces_an_earlier_one(tmp_path: Path) -> None:
    transcript = str(tmp_path / "session.jsonl")
    with Memory(tmp_path / "m.db") as memory:
        found = capture_turns(
            memory, [Turn(1, 1, DEBUG), Turn(2, 3, INFO)], transcript=transcript, session="s"
        )
        assert _by_text(found, INFO).supersedes == (_by_text(found, DEBUG).belief_id,)
