"""One score per sentence from its cues (``credo.knowledge.capture``): the weights, summed.

Cues are grouped into *concepts* first (``CONCEPTS``): "I prefer", "I find X easier" and "not
a fan of" are one concept, taste; "Actually", "that's wrong" and "you keep" are one,
correction. A concept counts once however many of its cues fire, and the weight belongs to
the concept, not to the phrasing: a new phrasing of a known concept scores the same, which is
what lets the score carry over to people who word things differently.

A sentence is captured when the sum of the weights of its concepts reaches ``THRESHOLD``. The
weights were fitted by ``bench/capture_fit.py`` (L2-regularised logistic regression over the
sentences of the eight development files) and rounded; they are plain numbers so a capture can
be explained by reading them. The threshold is chosen on *out-of-fold* scores (each file
scored by weights fitted on the other seven, as unseen text will be) at 0.98 pooled precision,
plus a margin calibrated on a progressive (time-ordered) validation: the smallest at which
each file, scored by a fit on the files written before it, reaches 0.96 precision pooled
(0.2 here; ``python bench/capture_fit.py --write``).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CONCEPTS", "THRESHOLD", "WEIGHTS", "concepts", "score"]

CONCEPTS: dict[str, str] = {
    # the round-2 decision: two marker classes agree, or one frame
    "round2": "round2",
    # the speaker's taste or way of working
    "preference": "taste",
    "preference_frame": "taste",
    "taste": "taste",
    "agent_behaviour": "agent",
    "np_please": "agent",
    "clause_imperative": "directive",
    # the agent got it wrong
    "correction": "correction",
    "reproach": "correction",
    # a generic or project subject with a present-tense verb
    "fact_subject": "fact",
    "bare_subject": "fact",
    "habitual": "fact",
    "assertion": "fact",
    "law": "fact",
    "negated_habit": "fact",
    "memo": "fact",
    "general_fact": "general_fact",
    # general scope
    "universal": "general",
    "generic": "general",
    "durable": "general",
    "scope": "project",
    "project_scope": "project",
    "future": "future",
    "future_frame": "future",
    # rules something out
    "contrast": "contrast",
    "contrast_shape": "contrast",
    "no_noun": "contrast",
    # force
    "deontic": "deontic",
    "directive": "directive",
    "general_imperative": "general_imperative",
    "reason": "reason",
    # against
    "deixis": "deixis",
    "now": "deixis",
    "named_file": "artefact",
    "artefact_task": "artefact",
    "past": "past",
    "past_subject": "past",
    "short": "short",
    "long": "long",
}

THRESHOLD = 1.19
WEIGHTS: dict[str, float] = {
    "fact": 1.76,
    "contrast": 1.46,
    "round2": 1.39,
    "taste": 1.39,
    "correction": 0.87,
    "general": 0.71,
    "agent": 0.54,
    "general_fact": 0.43,
    "reason": 0.4,
    "deontic": 0.31,
    "project": 0.31,
    "general_imperative": 0.3,
    "directive": 0.21,
    "future": 0.1,
    "long": -0.03,
    "deixis": -0.46,
    "past": -0.59,
    "artefact": -0.89,
    "short": -1.25,
}


def concepts(fired: Iterable[str]) -> set[str]:
    """The concepts of the cues that fired (cues outside ``CONCEPTS`` are only explanation)."""
    return {CONCEPTS[name] for name in fired if name in CONCEPTS}


def score(fired: Iterable[str]) -> float:
    """The sum of the weights of the concepts of the cues that fired."""
    return sum(WEIGHTS.get(name, 0.0) for name in concepts(fired))
