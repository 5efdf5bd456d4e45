"""docutils' line-by-line transition tries, with a line of plain paragraph text known first.

For each line a Body state (a section's body, a list, a field list, a directive's body...)
reads, docutils' `StateMachine.check_line` tries thirteen patterns in turn, "blank",
"indent", "bullet", "enumerator" ... "line", until one matches; the last, "text", matches
anything. Most lines a page's bodies start with are paragraph text, so most tries fail:
~160,000 for pytest's docs, each a regular-expression match set up from Python.

Every pattern but "text" needs the line to start with a space (blank, indent), an ASCII
punctuation mark, a bullet (``•‣⁃``) or an enumerator (``a.``, ``iv)``, ``2.``): a line that
starts with an ASCII letter or digit and is no enumerator, or with any other non-ASCII
character, can only be text. `text_lines_first` takes such a line straight to the state's
"text" transition, with the match docutils would pass; every other line, state and call
takes docutils' own loop. The doctree is docutils' own (tests/test_rst_transitions.py
compares them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from docutils import statemachine
from docutils.parsers.rst import states

# The only Body pattern that starts with a letter or a digit.
ENUMERATOR = re.compile(states.Body.patterns["enumerator"])
# Non-ASCII characters a Body pattern can start with: the bullets (`Body.patterns`).
MARKER_STARTS = frozenset("\u2022\u2023\u2043")


def only_text(line: str) -> bool:
    """True when no Body transition but "text" can match `line` (nor "blank" or "indent"):
    decided from its first character, and an enumerator's pattern for a letter or digit.
    False also when it is not certain (the patterns then decide)."""
    if not line:
        return False
    head = line[0]
    if head.isascii():
        return head.isalnum() and ENUMERATOR.match(line) is None
    return head not in MARKER_STARTS


def _body_states() -> frozenset[type]:
    """docutils' states whose transitions are exactly Body's (as `only_text` assumes):
    Body itself and the specialised bodies (lists, fields, options, explicit markup)."""
    body = states.Body
    return frozenset(
        cls
        for cls in states.state_classes
        if issubclass(cls, body)
        and cls.patterns is body.patterns
        and tuple(cls.initial_transitions) == tuple(body.initial_transitions)
        and tuple(cls.ws_initial_transitions) == ("blank", "indent")
        and cls.ws_patterns is body.ws_patterns
    )


_BODY_STATES = _body_states()


@contextmanager
def text_lines_first() -> Iterator[None]:
    """While it lasts, `StateMachine.check_line` reads a line `only_text` is sure of as
    the state's "text" transition, without trying the other twelve patterns first.

    (Only under `rst_parse`'s lock, as its other swaps of docutils' code are.)"""
    check_line = statemachine.StateMachine.check_line

    def check_text_first(self: Any, context: Any, state: Any, transitions: Any = None) -> Any:
        if transitions is None and type(state) in _BODY_STATES and not self.debug:
            line = self.line
            if only_text(line):
                pattern, method, next_state = state.transitions["text"]
                return method(pattern.match(line), context, next_state)
        return check_line(self, context, state, transitions)

    statemachine.StateMachine.check_line = check_text_first  # type: ignore[method-assign]
    try:
        yield
    finally:
        statemachine.StateMachine.check_line = check_line  # type: ignore[method-assign]
