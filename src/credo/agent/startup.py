"""What SessionStart shows before the first prompt (at startup, resume, clear and compact):
the locks, then the person's own live statements, then the project's most useful beliefs,
packed into a small budget.

Locks. Placed first by the retrieval pipeline's own L0 (the same locks, retired and marked
as a prompt's block has them), with the whole budget theirs: there is no query here to
keep half of it for. Locks beyond the budget are never dropped silently: the result names
them (``locked_overflow``), and the block's overflow line tells the model they exist.

The person's own statements. What the person told the memory (a rule, a preference or a
correction: origin ``user_stated``/``user_corrected`` with kind ``requirement``,
``preference`` or ``correction``, as capture stores them from a prompt; a plain
``remember``'s ``factual`` is not one) is what a new session must not lack, used yet or
not. The live, unlocked, current ones, newest first (ties by id), take what the locks left,
up to half of it while other beliefs wait (``STATED_SHARE``; all of it when none do),
packed like the rest (take while they fit, stop at the first that does not). Those left
out still place by their usefulness below, or after the most useful, newest first, if room
remains. Each carries the lane ``stated`` (1) beside its usefulness parts.

Most useful. The live, unlocked beliefs with evidence of use, ranked by

    usefulness = (W_USE * injected + W_FEEDBACK * (alpha - 1)
                  + W_CORROBORATION * corroborations) * alpha / (alpha + beta)

- ``injected``: how often a prompt, subagent or MCP block carried the belief (the journal's
  use counts; SessionStart's own picks do not count, or they would pick themselves);
- ``alpha - 1``: positive feedback above the uniform prior (an explicit ``used`` adds 1,
  the automatic credit of a reply 0.25, credo.agent.feedback);
- ``corroborations``: the times the same text was stated again (a document passage's do
  not count: they are its text again in another file, such as a repeated
  ``def __init__(self) -> None``, evidence of boilerplate rather than of use);
- the factor ``alpha / (alpha + beta)`` (the posterior mean) discounts harm, and a belief
  with more harm than use (beta > alpha) is left out.

A belief whose usefulness is not above 0 (none of these) is not shown: no evidence, no place
at startup. Ties break by
id, so the same store gives the same block. Only current beliefs are shown: one a live
belief supersedes, or one in an open contradiction (with no query to weigh the two sides,
showing one would pick a side at random), is passed over (``superseded`` lists them),
with the truth links the pipeline reads (credo.retrieval.currency). But when every side of
a statement's open contradictions is the person's own statement too, they did choose: the
newest of them (a decision changed after a correction) is their latest word, shown and
marked ``conflicts with`` the others, as a prompt's block marks a dispute; the older
sides stay passed over. The ranked beliefs
are packed like a query's (credo.retrieval.pack: take while they fit, stop at the first
that does not), each charged as rendered (credo.tokens).

Cost: one indexed SQL read (store/journal.py ``useful_beliefs``: exact, yet it scores only
the beliefs that can place) of at most ``candidates(token_budget)`` beliefs, and one of as
many statements (``user_statements``: a scan of the beliefs table, no index on kind),
besides the locks: a few ms at 10k beliefs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from credo.errors import InvalidInputError
from credo.retrieval import pipeline
from credo.retrieval.pack import pack_by_score
from credo.retrieval.place import Charges, Places
from credo.store.short_ids import Shown
from credo.tokens import marks
from credo.types import RetrievalResult, RetrievedBelief

if TYPE_CHECKING:
    from credo.memory import Memory
    from credo.store import Store
    from credo.types import Belief

W_USE = 1.0  # one injection
W_FEEDBACK = 2.0  # an explicit "used" weighs as two injections; an automatic credit, half
W_CORROBORATION = 1.0  # the same text stated again weighs as one injection
STATED_SHARE = 0.5  # of what the locks leave: the person's own statements' first claim


def candidates(token_budget: int) -> int:
    """Ranked beliefs read: a line costs at least ~6 tokens (an id and a few words), so a
    fifth of the budget in beliefs is more than it can hold (120 for 600 tokens)."""
    return max(20, min(token_budget // 5, 2_000))


def session_start(
    memory: Memory, *, token_budget: int, with_doc_anchors: bool = True
) -> RetrievalResult:
    """The locks, then the most useful current beliefs, within ``token_budget`` tokens (the
    module docstring gives the rule). The result's ``query`` is empty.

    Raises:
        InvalidInputError: ``token_budget`` is not an integer >= 0.
    """
    if isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 0:
        raise InvalidInputError(f"token_budget {token_budget!r} must be an integer >= 0")
    store = memory.store
    # L0 gives the locks a query leaves them (half the budget when they need more): with
    # twice the budget, that half is the whole budget. An empty query runs no lane.
    from credo.agent.global_store import global_locks  # the user's own rules join, marked

    locks = pipeline.retrieve(
        store,
        "",
        pipeline.Options(
            token_budget=2 * token_budget,
            use_intentional_clustering=False,
            global_locks=global_locks(memory),
        ),
    )
    locked = list(locks.beliefs)
    remaining = max(token_budget - locks.used_tokens, 0)
    limit = candidates(token_budget)
    stated = store.user_statements(limit=limit)
    ranked = store.useful_beliefs(
        use_weight=W_USE,
        feedback_weight=W_FEEDBACK,
        corroboration_weight=W_CORROBORATION,
        limit=limit,
    )
    order = list(dict.fromkeys([b.id for b, _ in stated] + [b.id for b, _ in ranked]))
    current, passed_over, replaced, disputed = _current(store, order, [b.id for b, _ in stated])
    beliefs = {b.id: (b, times) for b, times in (*stated, *ranked) if b.id in current}
    said = [b.id for b, _ in stated if b.id in current]
    # Named by their short ids, as a query's block names them (store/short_ids.py).
    others = sorted({o for sides in disputed.values() for o in sides})
    shown = Shown([*beliefs, *others], store.sharing_short_prefix, store.ids_with_prefix, {})
    marked = {
        i: marks(
            tuple(shown[r] for r in replaced.get(i, ())),
            tuple(shown[c] for c in disputed.get(i, ())),
        )
        for i in beliefs
    }
    # Charged as the block renders them: a passage under its file and section lines, its
    # section's title said once, on the title's line (as a prompt's pack: Places.untitled).
    places = Places({i: b.trail for i, (b, _) in beliefs.items() if b.trail}, shown)
    texts = {i: places.untitled(i, b.content) or "" for i, (b, _) in beliefs.items()}
    lines = {
        i: places.line_chars(i, texts[i] or b.content, marked[i]) for i, (b, _) in beliefs.items()
    }
    costs = Charges(lines, places)  # one charge over both packs: the lines render as one
    spoken = pack_by_score(
        said, token_costs=costs, token_budget=stated_share(remaining, len(beliefs) > len(said))
    )
    # Then the most useful, and last the statements the share left out (newest first).
    taken = set(spoken.selected)
    packed = pack_by_score(
        [b.id for b, _ in ranked if b.id in current and b.id not in taken] + list(spoken.dropped),
        token_costs=costs,
        token_budget=remaining - spoken.used_tokens,
    )
    useful = [
        _entry(
            *beliefs[i],
            costs.charged[i],
            replaced.get(i, ()),
            texts[i],
            stated=i in said,
            conflicts=disputed.get(i, ()),
        )
        for i in (*spoken.selected, *packed.selected)
    ]
    out = (*locked, *useful)
    anchors = None
    used = locks.used_tokens + spoken.used_tokens + packed.used_tokens
    hints: tuple[str, ...] = ()
    if with_doc_anchors and out:
        from credo.retrieval.hints import charge_hints

        found = store.anchors_for([b.id for b in out])
        anchors = tuple(tuple(found.get(b.id, ())) for b in out)
        # (a capture's transcript, shown short and charged, as in a prompt's block)
        charged, used, hints = charge_hints(list(out), anchors, token_budget, used)
        out = tuple(charged)
    return RetrievalResult(
        query="",
        beliefs=out,
        token_budget=token_budget,
        used_tokens=used,
        dropped=packed.dropped,
        locked_overflow=locks.locked_overflow,
        doc_anchors=anchors,
        clustering=False,
        superseded=passed_over,
        short_ids={**locks.short_ids, **shown.changed()},
        hints=hints,
    )


def stated_share(remaining: int, others_wait: bool) -> int:
    """The tokens the person's own statements may take first: all that the locks left when
    nothing else can place, else half of it (``STATED_SHARE``), so a long list of them
    never crowds the used beliefs out."""
    return int(remaining * STATED_SHARE) if others_wait else remaining


def usefulness(belief: Belief, injected: int) -> dict[str, float]:
    """The parts of a belief's usefulness (they add up to it): ``used``, ``feedback``,
    ``corroborated``, each times the posterior mean (the module docstring)."""
    mean = belief.alpha / (belief.alpha + belief.beta)
    parts = {
        "used": W_USE * injected * mean,
        "feedback": W_FEEDBACK * (belief.alpha - 1.0) * mean,
        "corroborated": W_CORROBORATION * stated_corroborations(belief) * mean,
    }
    return {k: round(v, 9) for k, v in parts.items() if v}


def stated_corroborations(belief: Belief) -> int:
    """The corroborations that count as evidence: none of a document passage's (the module
    docstring; store/journal.py's ``useful_beliefs`` reads the same)."""
    return 0 if belief.origin == "document" else belief.corroborations


def _entry(
    belief: Belief,
    injected: int,
    cost: int,
    replaces: tuple[str, ...],
    rendered: str = "",
    *,
    stated: bool = False,
    conflicts: tuple[str, ...] = (),
) -> RetrievedBelief:
    """``rendered``: the text shown when it is not the content as is ("" otherwise);
    ``stated``: the person's own statement (lane ``stated`` 1, beside its
    usefulness parts; the score stays its usefulness); ``conflicts``: the person's older
    statements it disputes (``_current``), marked as a prompt's block marks them."""
    parts = usefulness(belief, injected)
    return RetrievedBelief(
        belief.id,
        belief.content,
        round(sum(parts.values()), 9),
        False,
        cost,
        {"stated": 1.0, **parts} if stated else parts,
        None,
        replaces,
        conflicts=conflicts,
        trail=belief.trail,
        rendered=rendered,
        original_chars=len(belief.content) if rendered else 0,
        retention=belief.retention,
    )


def _current(
    store: Store, ids: list[str], stated: list[str]
) -> tuple[set[str], tuple[str, ...], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(the ids that are current and in no open contradiction, those passed over in rank
    order, what each current one replaces, and what each shown side of a dispute among the
    person's own statements disputes): the truth links the pipeline reads, read only when
    the store holds any. ``stated``: the person's statements, newest first."""
    reader = store.truth_reader()
    if not ids or reader.none:
        return set(ids), (), {}, {}
    facts = reader.links(ids)
    if not facts[0]:
        return set(ids), (), {}, {}
    from credo.retrieval.currency import TruthGraph

    graph = TruthGraph(reader.links)
    graph.add(ids, facts)
    touched = graph.linked.intersection(ids)
    graph.close_upward(touched.intersection(graph.superseded_any))
    contested = {
        i: others
        for i in touched
        if graph.current(i) and i in graph.against and (others := graph.live_conflicts(i)[0])
    }
    disputed = _latest_word(contested, stated)
    out = {i for i in touched if not graph.current(i) or i in contested} - disputed.keys()
    replaced = {i: hidden for i in touched - out if (hidden := graph.hides(i))}
    return set(ids) - out, tuple(i for i in ids if i in out), replaced, disputed


def _latest_word(
    contested: dict[str, tuple[str, ...]], stated: list[str]
) -> dict[str, tuple[str, ...]]:
    """The contested statements still shown, with the sides they dispute: when every side
    of a statement's open contradictions is the person's own statement too, the newest of
    them is their latest word (a decision changed after a correction), so it is shown,
    marked; an older side stays passed over. A dispute with anything else (a document's
    passage, a lock) is not the person's own, and no side is shown (no query to weigh it)."""
    rank = {i: n for n, i in enumerate(stated)}  # newest first, ties by id
    return {
        i: others
        for i, others in contested.items()
        if i in rank and all(rank.get(o, -1) > rank[i] for o in others)
    }
