"""Fit the capture score's weights (``credo.knowledge.score``) and check them by file.

    python bench/capture_fit.py [--target 0.98] [--l2 5.0] [--write]

Every prose sentence of every prompt in ``dev.jsonl``, ``dev2.jsonl`` and ``dev3.jsonl`` gets
its cues from ``credo.knowledge.capture.sentence_cues``. A sentence is labelled positive when
its prompt is labelled ``capture`` and the sentence overlaps the labelled statement (the
benchmark's rule: one contains the other, or they share half their words); every other
sentence is negative. An L2-regularised logistic regression (plain gradient descent, stdlib
only) gives one weight per cue. The threshold is the lowest score whose *prompt-level*
precision on the training files reaches ``--target``, so recall is the most it can be there.

Leave-one-file-out: for each file, weights and threshold are fitted on the other two and the
held-out file is scored with them. Those three figures are the estimate for unseen text (the
cue *patterns* were written with all three files in view, so even they lean optimistic).
Then the weights are fitted on all three and printed (``--write`` puts them in score.py).
The heldout split is never read here.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

from credo.knowledge.capture import sentence_cues
from credo.knowledge.score import concepts

HERE = Path(__file__).resolve().parent / "capture"
FILES = ("dev", "dev2", "dev3", "dev4")
SCORE_PY = Path(__file__).resolve().parent.parent / "src" / "credo" / "knowledge" / "score.py"
Prompt = tuple[bool, list[tuple[bool, frozenset[str]]]]  # label, (sentence label, cues)


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def matches(label: str | None, text: str) -> bool:
    if not label:
        return False
    want = " ".join(label.split()).lower()
    got = " ".join(text.split()).lower()
    if want in got or got in want:
        return True
    a, b = _words(want), _words(got)
    return bool(a and b) and len(a & b) >= 0.5 * min(len(a), len(b))


def load(name: str) -> list[Prompt]:
    out: list[Prompt] = []
    for line in (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row: dict[str, Any] = json.loads(line)
        sentences = []
        for _text, sentence, fired in sentence_cues(row["prompt"]):
            if fired is not None:
                positive = bool(row["capture"]) and matches(row["statement"], sentence)
                sentences.append((positive, frozenset(concepts(fired))))
        out.append((bool(row["capture"]), sentences))
    return out


def fit(prompts: list[Prompt], l2: float, steps: int = 400) -> tuple[float, dict[str, float]]:
    rows = [(y, cues) for _, sentences in prompts for y, cues in sentences]
    names = sorted({c for _, cues in rows for c in cues})
    weights = dict.fromkeys(names, 0.0)
    bias = 0.0
    positives = sum(y for y, _ in rows) or 1
    balance = (len(rows) - positives) / positives  # positives weigh as much as negatives
    rate = 0.5
    for _ in range(steps):
        grad = dict.fromkeys(names, 0.0)
        grad_bias = 0.0
        for y, cues in rows:
            z = bias + sum(weights[c] for c in cues)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            err = (p - 1.0) * balance if y else p
            grad_bias += err
            for c in cues:
                grad[c] += err
        n = len(rows)
        bias -= rate * grad_bias / n
        for c in names:
            weights[c] -= rate * (grad[c] / n + l2 * weights[c] / n)
    return bias, weights


def prompt_scores(prompts: list[Prompt], bias: float, weights: dict[str, float]) -> list[float]:
    return [
        max((bias + sum(weights.get(c, 0.0) for c in cues) for _, cues in s), default=-1e9)
        for _, s in prompts
    ]


def evaluate(prompts: list[Prompt], scores: list[float], threshold: float) -> tuple[float, float]:
    tp = sum(1 for (y, _), s in zip(prompts, scores, strict=True) if y and s >= threshold)
    fp = sum(1 for (y, _), s in zip(prompts, scores, strict=True) if not y and s >= threshold)
    fn = sum(1 for (y, _), s in zip(prompts, scores, strict=True) if y and s < threshold)
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def choose(prompts: list[Prompt], scores: list[float], target: float) -> float:
    """The lowest threshold whose precision on ``prompts`` reaches ``target``."""
    best = max(scores) + 1e-6
    for threshold in sorted(set(scores), reverse=True):
        precision, _ = evaluate(prompts, scores, threshold)
        if precision >= target:
            best = threshold
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=0.98)
    parser.add_argument("--l2", type=float, default=5.0)
    parser.add_argument("--write", action="store_true", help="write the weights to score.py")
    args = parser.parse_args()
    data = {name: load(name) for name in FILES}
    print(f"{'held out':<10}{'precision':>10}{'recall':>8}   (fitted on the other two)")
    for held in FILES:
        train = [p for name in FILES if name != held for p in data[name]]
        bias, weights = fit(train, args.l2)
        threshold = choose(train, prompt_scores(train, bias, weights), args.target)
        precision, recall = evaluate(
            data[held], prompt_scores(data[held], bias, weights), threshold
        )
        print(f"{held:<10}{precision:>10.3f}{recall:>8.3f}")
    everything = [p for name in FILES for p in data[name]]
    bias, weights = fit(everything, args.l2)
    scores = prompt_scores(everything, bias, weights)
    threshold = choose(everything, scores, args.target)
    precision, recall = evaluate(everything, scores, threshold)
    print(f"{'all three':<10}{precision:>10.3f}{recall:>8.3f}   (fitted on all: not blind)")
    # Shift so the bias is 0 and the threshold absorbs it: simpler to read.
    shown = {k: round(v, 2) for k, v in sorted(weights.items(), key=lambda kv: -kv[1])}
    print(f"THRESHOLD = {round(threshold - bias, 2)}")
    print("WEIGHTS =", shown)
    if args.write:
        source = SCORE_PY.read_text(encoding="utf-8")
        body = "".join(f'    "{k}": {v},\n' for k, v in shown.items())
        source = re.sub(r"THRESHOLD = [-\d.]+", f"THRESHOLD = {round(threshold - bias, 2)}", source)
        source = re.sub(
            r"WEIGHTS: dict\[str, float\] = \{.*?\n?\}",
            "WEIGHTS: dict[str, float] = {\n" + body + "}",
            source,
            flags=re.DOTALL,
        )
        SCORE_PY.write_text(source, encoding="utf-8")


if __name__ == "__main__":
    main()
