"""A captured belief's transcript, shown short and charged (`tokens.capture_hint`): each
packed belief's hint, in pack order, when the budget has room for it after the pack.

A hint is never a reason to drop a belief: the pack is made first, and a hint that does
not fit is left out (the anchor is then not shown at all; the JSON still has it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from credo.tokens import capture_hint, hint_tokens

if TYPE_CHECKING:
    from credo.types import DocAnchor, RetrievedBelief


def charge_hints(
    beliefs: list[RetrievedBelief],
    anchors: tuple[tuple[DocAnchor, ...], ...],
    budget: int,
    used: int,
) -> tuple[list[RetrievedBelief], int, tuple[str, ...]]:
    """``beliefs`` with each shown hint's tokens added to its own, the tokens used then,
    and each belief's hint ("" for none or no room)."""
    hints: list[str] = []
    out = list(beliefs)
    for index, found in enumerate(anchors):
        hint = next((h for a in found if (h := capture_hint(a))), "")
        cost = hint_tokens(hint) if hint else 0
        if hint and used + cost <= budget:
            out[index] = out[index]._replace(tokens=out[index].tokens + cost)
            used += cost
        else:
            hint = ""
        hints.append(hint)
    return out, used, tuple(hints)
