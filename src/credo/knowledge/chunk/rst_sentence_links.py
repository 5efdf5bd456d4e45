"""Which of a split paragraph's links each of its sentences holds (`rst._Walker`).

A paragraph over the paragraph limit is read sentence by sentence, and each sentence takes
the links whose anchor text it holds. Looked up label by label in the whole sentence and
dropped by a list's membership, a paragraph of 40,000 address lines (each a link) took 12 s
once c93085fe's loop parsed it (before, the parse passed Python's recursion limit and the
page was plain text; review91). Links come in text order, so each label is looked for from
where the last one was found first, and the whole sentence only when it is not there.
"""

from __future__ import annotations

Pair = tuple[str, str]


def take_links(pending: list[Pair], text: str) -> tuple[list[str], list[Pair]]:
    """(The targets of the ``(target, label)`` pairs in ``pending`` whose label ``text``
    holds, in order; ``pending`` without every pair of those targets)."""
    mine: list[str] = []
    cursor = 0
    for link, label in pending:
        at = text.find(label, cursor)
        if at < 0 and cursor:
            at = text.find(label)
        if at >= 0:
            mine.append(link)
            cursor = at
    if not mine:
        return mine, pending
    chosen = set(mine)
    return mine, [pair for pair in pending if pair[0] not in chosen]
