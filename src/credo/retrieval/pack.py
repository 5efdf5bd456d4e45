"""The score-order pack: fit ranked beliefs into a token budget.

The pack is the last engine step before rendering (STYLE.md: rank -> cluster -> pack).
It is pure: ids, costs and a budget in, a `PackResult` out; no store, no scores.

Rule: walk the ids in rank order and take each one while it fits; stop at the first one
that does not fit, and report it and everything after it as dropped. Stopping (instead of
skipping to smaller, lower-ranked beliefs) keeps the output a prefix of the ranking, so a
result never shows a low-ranked belief while hiding a better one, and "what was dropped"
is one contiguous tail that the caller can report honestly.

Locked beliefs are not handled here: the caller places them first, charges their cost, and
passes what remains as `token_budget`.

A unit's cost may depend on what was packed before it (retrieval/place.py: the first
passage of a file pays for the line naming it). Such costs come as a mapping with a
``take(unit)`` method: the pack looks a unit's cost up, and calls ``take`` once it packs
it, in pack order, so the next look-up sees it (``fitting_prefix``, and the cluster pack's
Stage 1). Plain mappings are fixed costs.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

from credo.errors import InvalidInputError


class TokenCosts(Protocol):
    """What a pack reads of its costs: a unit's cost, given the units taken so far (a
    ``Mapping[str, int]`` is fixed costs; see the module docstring for ``take``)."""

    def __getitem__(self, unit: str, /) -> int: ...


def taker(token_costs: TokenCosts) -> Callable[[str], None] | None:
    """The costs' ``take`` (called with each unit the pack takes), or None for fixed costs."""
    return getattr(token_costs, "take", None)


class PackResult(NamedTuple):
    """What a pack selected and what it left out.

    Attributes:
        selected: ids in pack order (the order to render them in).
        dropped: ids that did not make it, in the order the pack considered them.
        used_tokens: sum of the token costs of `selected`; never more than `budget`.
        budget: the token budget the pack was given.
    """

    selected: tuple[str, ...]
    dropped: tuple[str, ...]
    used_tokens: int
    budget: int

    @property
    def remaining_tokens(self) -> int:
        """Budget left unused: budget - used_tokens (>= 0)."""
        return self.budget - self.used_tokens


def validate_budget(token_budget: int) -> None:
    """Reject a negative budget (zero is allowed: it selects only zero-cost beliefs).

    Raises:
        InvalidInputError: `token_budget` < 0.
    """
    if token_budget < 0:
        raise InvalidInputError(
            f"token_budget is {token_budget}; it must be >= 0 (use 0 to select nothing)"
        )


def validate_costs(ids: Sequence[str], token_costs: TokenCosts) -> None:
    """Check that every id has a token cost and that no cost is negative.

    A negative cost would let a pack exceed its budget while its running total looks
    fine, so it is an error, not a value to clamp.

    Raises:
        InvalidInputError: an id has no cost, or a negative one.
    """
    try:
        # One C-level pass in the common, valid case; the scan names the culprit.
        lowest = min(map(token_costs.__getitem__, ids), default=0)
    except KeyError as missing:
        raise InvalidInputError(
            f"no token cost for belief {missing.args[0]!r}; pass a cost for every candidate"
        ) from None
    if lowest < 0:
        culprit = next(belief_id for belief_id in ids if token_costs[belief_id] < 0)
        raise InvalidInputError(
            f"token cost of belief {culprit!r} is {token_costs[culprit]}; costs must be >= 0"
        )


def fitting_prefix(
    ordered_ids: Sequence[str], token_costs: TokenCosts, token_budget: int
) -> tuple[int, int]:
    """Length and cost of the longest prefix of `ordered_ids` that fits in `token_budget`.

    The shared core of every "take while it fits, stop at the first that does not" loop
    (the score-order pack and Stage 2 of the cluster pack). Does not validate.

    Returns:
        (n, used): ordered_ids[:n] fits with cost `used` <= token_budget, and either n is
        len(ordered_ids) or ordered_ids[n] does not fit in token_budget - used.
    """
    # Costs that pack themselves in one loop (``place.Charges``): the same answer and takes.
    fit = getattr(token_costs, "fitting_prefix", None)
    if fit is not None and (fitted := fit(ordered_ids, token_budget)) is not None:
        return fitted
    used = 0
    take = taker(token_costs)
    for index, belief_id in enumerate(ordered_ids):
        cost = token_costs[belief_id]
        if used + cost > token_budget:
            return index, used
        used += cost
        if take is not None:
            take(belief_id)
    return len(ordered_ids), used


def pack_by_score(
    ordered_ids: Iterable[str], *, token_costs: TokenCosts, token_budget: int
) -> PackResult:
    """Pack ids given in rank order: take while they fit, stop at the first that does not.

    Args:
        ordered_ids: belief ids, best first. A repeated id counts once (first place).
        token_costs: token cost of each id (>= 0), fixed or given what was taken before it
            (the module docstring).
        token_budget: tokens available (>= 0), after any locked beliefs were charged.

    Returns:
        A `PackResult`: `selected` is the longest prefix of the ranking whose total cost is
        <= `token_budget`; `dropped` is the rest, in rank order.

    Raises:
        InvalidInputError: negative budget, or an id with a missing or negative cost.
    """
    validate_budget(token_budget)
    ids = list(dict.fromkeys(ordered_ids))  # de-duplicate, keep first (best) place
    validate_costs(ids, token_costs)
    count, used = fitting_prefix(ids, token_costs, token_budget)
    return PackResult(
        selected=tuple(ids[:count]),
        dropped=tuple(ids[count:]),
        used_tokens=used,
        budget=token_budget,
    )
