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
THRESHOLD = 2.22
WEIGHTS: dict[str, float] = {
    "agent_behaviour": 1.42,
    "reproach": 1.3,
    "assertion": 1.23,
    "universal": 1.12,
    "taste": 1.11,
    "correction": 1.11,
    "pair": 1.09,
    "bare_subject": 1.02,
    "no_noun": 1.02,
    "preference": 0.98,
    "contrast_shape": 0.93,
    "future_frame": 0.88,
    "preference_frame": 0.86,
    "generic": 0.65,
    "habitual": 0.64,
    "scope": 0.58,
    "fact_subject": 0.56,
    "contrast": 0.47,
    "durable": 0.45,
    "reason": 0.45,
    "negated_habit": 0.4,
    "law": 0.34,
    "project_scope": 0.33,
    "please": 0.3,
    "memo": 0.12,
    "named_file": 0.07,
    "directive": -0.03,
    "deontic": -0.23,
    "past": -0.44,
    "hearsay": -0.47,
    "complaint": -0.52,
    "reported": -0.66,
    "short": -0.67,
    "banter": -0.7,
    "hypothetical": -0.79,
    "hedge": -1.02,
    "artefact_task": -1.24,
    "deixis": -1.25,
    "report": -1.52,
    "one_off": -1.76,
}


def score(fired: Iterable[str]) -> float:
    """The bias plus the weight of every cue that fired (unknown cues weigh nothing)."""
    return BIAS + sum(WEIGHTS.get(name, 0.0) for name in fired)
