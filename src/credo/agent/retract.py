"""What the user takes back in a prompt, named to the agent (docs/AGENT.md § Taking a
statement back).

"Forget what I said about the release manager." withdraws an earlier statement, but which
stored belief it was is a guess, and a guess must not delete what the user may still hold
true. So the hook deletes nothing: it adds to the prompt's block the user's own beliefs
(origin ``user_stated`` / ``user_corrected``, live and current) that hold every word of
what was taken back, with their ids, and the agent, which reads the whole conversation,
forgets the ones the user meant (MCP ``forget_belief``, ``credo forget ID``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from credo.knowledge.replace import topic_terms
from credo.knowledge.retraction import taken_back

if TYPE_CHECKING:
    from credo.memory import Memory
    from credo.store.rows import CaptureCandidate

__all__ = ["MAX_NAMED", "taken_back_notice"]

MAX_NAMED = 3  # beliefs named per thing taken back: more would be no longer a pointer
_SCAN_CHARS = 4000  # a retraction is said in a line, not under a long paste
_USER = frozenset({"user_stated", "user_corrected"})
_WORD = re.compile(r"\w+")
# Sentences, roughly: a retraction opens its sentence or line (capture's sentence splitter
# would load every signal pattern into the hook's process for this). A dot before a word is
# a name's ("requests.get", "setup.py"), as in what ``taken_back`` reads.
_SENTENCE = re.compile(r"(?:[^.!?;\n]|\.(?=\w))+[.!?;]*")


def taken_back_beliefs(memory: Memory, prompt: str) -> list[tuple[str, list[CaptureCandidate]]]:
    """Each thing ``prompt`` takes back (its words) with the user's beliefs that hold all its
    topic words, newest first, at most ``MAX_NAMED``."""
    text = prompt[:_SCAN_CHARS]
    found: list[tuple[str, list[CaptureCandidate]]] = []
    for sentence in _SENTENCE.findall(text):
        said = taken_back(" ".join(sentence.replace("`", "").split()))
        topic = topic_terms(said) if said else frozenset()
        if not said or not topic:
            continue
        words = [w.lower() for w in _WORD.findall(said) if topic_terms(w) & topic]
        pool = memory.store.capture_candidates([list(dict.fromkeys(words))], limit=30)
        held = [c for c in pool if c.origin in _USER and topic <= topic_terms(c.content)]
        if held:
            found.append((said, held[:MAX_NAMED]))
    return found


def taken_back_notice(memory: Memory, prompt: str) -> str:
    """The lines the hook adds for what ``prompt`` takes back ("" when nothing it names is
    stored)."""
    lines = []
    for said, held in taken_back_beliefs(memory, prompt):
        lines.append(
            f'The user takes back what they said about "{said}". Nothing was deleted; if they '
            "mean these, forget them (forget_belief ID, or credo forget ID):"
        )
        lines += [f"- {c.id} {c.content}" for c in held]
    return "\n".join(lines)
