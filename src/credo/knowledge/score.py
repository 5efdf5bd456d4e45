"""One score per sentence from its cues (``credo.knowledge.capture``): the weights, summed.

A sentence is captured when the sum of the weights of the cues that fired reaches
``THRESHOLD``. The weights were fitted by ``bench/capture_fit.py`` (L2-regularised logistic
regression over the sentences of the development files, leave-one-file-out checked) and
then rounded; they are plain numbers so a capture can be explained by reading them.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["BIAS", "THRESHOLD", "WEIGHTS", "score"]

BIAS = 0.0
THRESHOLD = 2.36
WEIGHTS: dict[str, float] = {
    "agent_behaviour": 1.41,
    "reproach": 1.3,
    "round2": 1.24,
    "assertion": 1.12,
    "taste": 1.1,
    "fact_subject": 1.05,
    "no_noun": 0.98,
    "correction": 0.94,
    "universal": 0.91,
    "contrast_shape": 0.87,
    "bare_subject": 0.81,
    "preference": 0.75,
    "future_frame": 0.73,
    "generic": 0.61,
    "preference_frame": 0.61,
    "general_imperative": 0.6,
    "general_fact": 0.59,
    "habitual": 0.56,
    "scope": 0.56,
    "reason": 0.47,
    "contrast": 0.45,
    "negated_habit": 0.27,
    "law": 0.26,
    "durable": 0.25,
    "project_scope": 0.21,
    "please": 0.2,
    "pair": 0.13,
    "memo": 0.1,
    "named_file": 0.06,
    "deontic": -0.3,
    "directive": -0.3,
    "hearsay": -0.4,
    "past": -0.41,
    "complaint": -0.54,
    "reported": -0.56,
    "short": -0.66,
    "progressive": -0.69,
    "banter": -0.71,
    "hypothetical": -0.76,
    "hedge": -1.0,
    "deixis": -1.28,
    "artefact_task": -1.33,
    "report": -1.53,
    "one_off": -1.76,
}


def score(fired: Iterable[str]) -> float:
    """The bias plus the weight of every cue that fired (unknown cues weigh nothing)."""
    return BIAS + sum(WEIGHTS.get(name, 0.0) for name in fired)
