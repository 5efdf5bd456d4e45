"""Feedback without effort: when a reply uses a belief the session was shown, the belief's
alpha grows a little, by a deterministic overlap rule; ``undo_session`` takes a session's
credit back exactly (docs/agent-feedback.md).

The overlap rule. Words are cut as the keyword index cuts them (runs of letters and
digits, lower-cased, accents dropped); a belief's *distinctive terms* are its distinct
words of 3 or more characters that are not stopwords (credo.store.fts.STOPWORDS). A
belief the session was injected with (credo.agent.journal.injected_ids) is credited when
the reply

- shares at least ``MIN_SHARED`` (3) of its distinctive terms and at least
  ``MIN_FRACTION`` (40%) of them, or
- repeats a run of ``RUN_WORDS`` (6) consecutive words of it verbatim (stopwords count
  in the run, so a phrase is matched as written), of which at least 2 are distinctive.

Terms the user's prompt already holds (``prompt``, optional) do not count as shared: the
belief was retrieved because it shares words with the prompt, and a reply that only
answers the prompt echoes them whether or not it used the belief.

Why these numbers: precision first. A false credit raises confidence in a belief the model
ignored; a missed one costs nothing (``credo feedback ID used`` stays). Two shared words
happen by chance between any two texts on one topic; three plus 40% of the belief's own
vocabulary means the reply restates much of what the belief says; a verbatim run of six
words with two distinctive ones is a quotation. A belief with fewer than 3 distinctive
terms is credited only by a quotation.

Credit is small and bounded: ``ALPHA_CREDIT`` (0.25, a quarter of an explicit ``used``)
per (session, belief), at most once. A session whose credit was undone is never credited
again (the user said no to it). Harm is never automatic. Each credit is a
``feedback_events`` row (signal ``used_auto``) and an ``ingest_log`` entry; undoing
subtracts each open event's recorded delta and marks it undone, in one transaction.

Exactness: the recorded delta is the difference the credit really made to alpha
(``(alpha + 0.25) - alpha``, exact in floating point for any alpha >= 0.25), so undoing a
credit restores alpha exactly; every alpha credo writes is a multiple of 1/4 (the prior
1, +1 per ``used``, +0.25 per credit), for which any order of credits and undos is exact.
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import TYPE_CHECKING

from credo.errors import InvalidInputError
from credo.store.fts import STOPWORDS

if TYPE_CHECKING:
    from credo.memory import Memory

SIGNAL = "used_auto"
ALPHA_CREDIT = 0.25
MIN_SHARED = 3
MIN_FRACTION = 0.4
RUN_WORDS = 6
RUN_DISTINCTIVE = 2
MIN_TERM_CHARS = 3
MAX_REPLY_CHARS = 200_000  # a reply past this is read up to here
_WORD = re.compile(r"[^\W_]+")  # unicode61: letters and digits; "_" separates


def words(text: str) -> list[str]:
    """The text's words as the keyword index cuts them: lower-cased, accents dropped."""
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _WORD.findall(text.lower())


def distinctive(tokens: list[str]) -> set[str]:
    return {t for t in tokens if len(t) >= MIN_TERM_CHARS and t not in STOPWORDS}


def uses(belief: str, reply: str, *, prompt: str | None = None) -> bool:
    """Whether ``reply`` uses ``belief`` by the overlap rule (the module docstring)."""
    return _Reply(reply, prompt).uses(belief)


class _Reply:
    """A reply cut once, matched against many beliefs."""

    def __init__(self, reply: str, prompt: str | None) -> None:
        self.tokens = words(reply[:MAX_REPLY_CHARS])
        self.terms = distinctive(self.tokens)
        self.echo = distinctive(words(prompt[:MAX_REPLY_CHARS])) if prompt else set()
        self._runs: set[tuple[str, ...]] | None = None

    def uses(self, belief: str) -> bool:
        tokens = words(belief)
        terms = distinctive(tokens)
        shared = (terms & self.terms) - self.echo
        if terms and len(shared) >= MIN_SHARED and len(shared) >= MIN_FRACTION * len(terms):
            return True
        return self._quotes(tokens)

    def _quotes(self, tokens: list[str]) -> bool:
        if len(tokens) < RUN_WORDS:
            return False
        if self._runs is None:
            t = self.tokens
            self._runs = {tuple(t[i : i + RUN_WORDS]) for i in range(len(t) - RUN_WORDS + 1)}
        for i in range(len(tokens) - RUN_WORDS + 1):
            run = tuple(tokens[i : i + RUN_WORDS])
            if run in self._runs and len(distinctive(list(run)) - self.echo) >= RUN_DISTINCTIVE:
                return True
        return False


def _session(session: object) -> str:
    if not isinstance(session, str) or not session.strip():
        raise InvalidInputError(f"session {session!r} must be a non-empty string")
    return session


def feedback_from_reply(
    memory: Memory, *, session: str, reply: str, prompt: str | None = None
) -> list[str]:
    """Credit the beliefs injected in ``session`` that ``reply`` uses (the module
    docstring), each at most once per session; returns the ids credited now, in the
    order they were first injected.

    Raises:
        InvalidInputError: an empty session, or a reply (or prompt) that is not a string.
    """
    session = _session(session)
    if not isinstance(reply, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise InvalidInputError(f"reply must be a string, got {type(reply).__name__}")
    if prompt is not None and not isinstance(prompt, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise InvalidInputError(f"prompt must be a string, got {type(prompt).__name__}")
    store = memory.store
    if not reply.strip():
        return []
    shown = store.injected_in_session(session)
    if not shown:
        return []
    credited: list[str] = []
    matcher = _Reply(reply, prompt)
    with store.transaction(), store.write_errors():
        done = store.feedback_given(session, SIGNAL)
        beliefs = store.get_beliefs(i for i in shown if i not in done)
        now = time.time()
        events = []
        for belief_id in shown:
            belief = beliefs.get(belief_id)
            if belief is None or belief.deleted_at is not None:
                continue
            if not matcher.uses(belief.content):
                continue
            alpha = belief.alpha + ALPHA_CREDIT
            delta = alpha - belief.alpha  # what the credit really added (exact: docstring)
            store.set_evidence(belief_id, alpha, belief.beta, now)
            events.append((now, session, belief_id, SIGNAL, delta, 0.0))
            credited.append(belief_id)
        if events:
            store.insert_feedback_events(events)
            store.append_log(
                [
                    (
                        now,
                        "feedback",
                        belief_id,
                        memory.source,
                        {"signal": SIGNAL, "session": session, "alpha_delta": delta},
                    )
                    for _, _, belief_id, _, delta, _ in events
                ]
            )
    return credited


def undo_session(memory: Memory, session: str) -> int:
    """Take back every automatic credit of ``session`` not undone yet: alpha minus each
    event's recorded delta, the events marked undone. Returns how many were undone (0 for
    a session with none, or undone already: undoing twice changes nothing).

    Raises:
        InvalidInputError: an empty session.
    """
    session = _session(session)
    store = memory.store
    with store.transaction(), store.write_errors():
        events = store.feedback_events(session, open_only=True)
        if not events:
            return 0
        now = time.time()
        beliefs = store.get_beliefs({e.belief_id for e in events})
        alpha = {i: b.alpha for i, b in beliefs.items()}
        beta = {i: b.beta for i, b in beliefs.items()}
        for event in events:  # in the order given, each subtracted on its own (exactness)
            alpha[event.belief_id] -= event.alpha_delta
            beta[event.belief_id] -= event.beta_delta
        for belief_id in sorted(alpha):
            store.set_evidence(belief_id, alpha[belief_id], beta[belief_id], now)
        store.mark_feedback_undone([e.id for e in events], now)
        store.append_log(
            [
                (
                    now,
                    "feedback_undo",
                    e.belief_id,
                    memory.source,
                    {"signal": e.signal, "session": session, "alpha_delta": -e.alpha_delta},
                )
                for e in events
            ]
        )
    return len(events)
