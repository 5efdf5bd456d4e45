"""One score per sentence from its cues (``credo.knowledge.capture``): the weights, summed.

Cues are grouped into *concepts* first (``CONCEPTS``): "I prefer", "I find X easier" and "not
a fan of" are one concept, taste; "Actually", "that's wrong" and "you keep" are one,
correction. A concept counts once however many of its cues fire, and the weight belongs to
the concept, not to the phrasing: a new phrasing of a known concept scores the same, which is
what lets the score carry over to people who word things differently.

A sentence is captured when the sum of the weights of its concepts reaches ``THRESHOLD``. The
weights were fitted by ``bench/capture_fit.py`` (L2-regularised logistic regression over the
sentences of the nine development files) and rounded; they are plain numbers so a capture can
be explained by reading them. The threshold is chosen on *out-of-fold* scores (each file
scored by weights fitted on the other eight, as unseen text will be) at 0.98 pooled precision,
plus a margin of 0.2 (``python bench/capture_fit.py --margin 0.2 --write``). Round 7
calibrated that margin on a progressive (time-ordered) validation; round 9 kept it fixed: on
the folds scored before their cue patterns were written, the margin did not buy precision
(dev9 under round 8: 0.922-0.942 for margins 0 to 2 while recall fell from 0.691 to 0.354;
dev7 under round 6: 0.874-0.876 for 0.2 to 0.6), so a new author's false positives are
answered by the cues, not by the threshold.
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
    "workflow_gate": "agent",
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
    "owner_now": "fact",
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
    "changeover": "contrast",
    "changeover_to": "contrast",
    "going_back": "contrast",
    "in_force": "contrast",
    "value_now": "contrast",
    "instead_named": "contrast",
    "tool_role": "contrast",
    "retraction": "contrast",
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

THRESHOLD = 1.18
WEIGHTS: dict[str, float] = {
    "fact": 1.79,
    "contrast": 1.44,
    "taste": 1.39,
    "round2": 1.35,
    "correction": 0.87,
    "general": 0.78,
    "agent": 0.46,
    "general_fact": 0.46,
    "reason": 0.41,
    "project": 0.35,
    "deontic": 0.32,
    "general_imperative": 0.24,
    "directive": 0.19,
    "future": 0.09,
    "long": -0.03,
    "past": -0.39,
    "deixis": -0.53,
    "artefact": -0.97,
    "short": -1.39,
}


def concepts(fired: Iterable[str]) -> set[str]:
    """The concepts of the cues that fired (cues outside ``CONCEPTS`` are only explanation)."""
    return {CONCEPTS[name] for name in fired if name in CONCEPTS}


def score(fired: Iterable[str]) -> float:
    """The sum of the weights of the concepts of the cues that fired."""
    return sum(WEIGHTS.get(name, 0.0) for name in concepts(fired))
