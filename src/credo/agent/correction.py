"""A correction remembered by hand replaces what it corrects, as a captured one does.

``Memory.remember(kind="correction")`` (the API, ``credo remember --kind correction``, the MCP
server's ``remember_belief``) calls ``replace_for`` in its own transaction, right after the
belief is written. The rule is capture's (``credo.knowledge.replace``, docs/AGENT.md §
"What a statement replaces"), unchanged: the text is one statement of kind ``correction``,
its ``negated`` and ``asserted`` terms read by the classifier's term patterns
(``knowledge.capture.statement_of``); the candidates are capture's (``Store.capture_candidates``);
the verdict is written by capture's ``write_verdict`` (a lock or a cycle is disputed, never
retired). The caller decided that the text is a correction, so the classifier's capture
decision is not asked: it only reads the terms. One clear match is SUPERSEDED; several, a
locked one or an unclear correction only CONTRADICT (at most 3); no shared subject, nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from credo.agent.capture import statement_candidates, write_verdict

if TYPE_CHECKING:
    from credo.memory import Memory


def replace_for(memory: Memory, belief_id: str, text: str) -> None:
    """Judge what the correction ``belief_id`` (stored with ``text``) replaces and write it;
    the caller holds the transaction."""
    from credo.knowledge import replace
    from credo.knowledge.capture import statement_of

    statement = statement_of(text, "correction")
    # One more than capture reads: the new belief itself is the newest match.
    candidates = statement_candidates(memory, statement, extra=1, besides=belief_id)
    write_verdict(memory, belief_id, replace.judge(statement, candidates))
