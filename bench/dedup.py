"""Near-duplicate audit at scale: 100k beliefs, ~5% planted near duplicates.

    python bench/dedup.py [--beliefs 100000] [--dup-share 0.05] [--repeat 2] [--apply]

Beliefs are synthetic sentences (``synth.sentence``: 8-22 words from a software-project
vocabulary, Zipf-like). For ~5% of them a near duplicate is planted by one realistic edit:
re-cased and unpunctuated, one word appended, a short lead-in prepended, or the last word
replaced. The store is built first (not timed); then ``credo.knowledge.dedup.scan`` is timed end to
end (reading every belief from SQLite, shingling, prefix-filter candidates, exact
verification, union-find), ``--repeat`` times because the machine is shared. Printed:
seconds, candidate pairs checked (vs. all pairs), and precision / recall of the found pairs
against the planted ones (recall also over the planted pairs whose true Jaccard clears the
threshold, which must be 1.0: the prefilter is exact). ``--apply`` also times writing and
undoing the SUPERSEDES edges.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.knowledge import dedup as audit
from synth import WORDS, sentence

SEED = 20240604
LEAD_INS = ("Note:", "Remember that", "FYI", "As agreed,")


def mutate(rng: random.Random, text: str) -> str:
    """One small, realistic edit of a sentence."""
    words = text.rstrip(".").split()
    edit = rng.randrange(4)
    if edit == 0:
        return " ".join(words).lower()
    if edit == 1:
        return " ".join([*words, rng.choice(WORDS)]) + "."
    if edit == 2:
        return f"{rng.choice(LEAD_INS)} {text[0].lower()}{text[1:]}"
    return " ".join([*words[:-1], rng.choice(WORDS)]) + "."


def plant(n: int, share: float, seed: int = SEED) -> tuple[list[str], set[tuple[int, int]]]:
    """n texts; round(n * share) of them are edits of an earlier original."""
    rng = random.Random(seed)
    duplicates = round(n * share)
    texts = [sentence(rng) for _ in range(n - duplicates)]
    planted: set[tuple[int, int]] = set()
    for _ in range(duplicates):
        original = rng.randrange(n - duplicates)
        texts.append(mutate(rng, texts[original]))
        planted.add((original, len(texts) - 1))
    return texts, planted


def records(texts: list[str]) -> Iterator[dict[str, Any]]:
    """Belief records with increasing created_at (so a planted copy is the newer one)."""
    for i, text in enumerate(texts):
        yield {"kind": "belief", "id": f"d{i:06d}", "content": text, "created_at": 1e9 + i}


def score(report: audit.DedupReport, texts: list[str], planted: set[tuple[int, int]]) -> str:
    """Precision and recall of the found pairs against the planted ones."""
    found = {tuple(sorted((int(a[1:]), int(b[1:])))) for a, b, _ in report.pairs}
    # Pairs of copies of one original are near duplicates too: count them as planted.
    groups: dict[int, list[int]] = {}
    for original, copy in planted:
        groups.setdefault(original, [original]).append(copy)
    truth = {(a, b) for g in groups.values() for a in g for b in g if a < b}
    hits = len(found & truth)
    eligible = {
        pair
        for pair in truth
        if audit.jaccard(audit.shingles(texts[pair[0]]), audit.shingles(texts[pair[1]]))
        >= report.threshold
    }
    return (
        f"found {len(found)} pairs; planted {len(truth)} ({len(eligible)} with J >= "
        f"{report.threshold}); precision {hits / max(1, len(found)):.4f}, recall "
        f"{hits / max(1, len(truth)):.4f}, recall over eligible "
        f"{len(found & eligible) / max(1, len(eligible)):.4f}; {len(report.clusters)} clusters"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--dup-share", type=float, default=0.05)
    parser.add_argument("--threshold", type=float, default=audit.DEFAULT_THRESHOLD)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--apply", action="store_true")
    args = parser.parse_args(argv)
    texts, planted = plant(args.beliefs, args.dup_share)
    with tempfile.TemporaryDirectory(prefix="credo-dedup-") as tmp:
        memory = Memory(Path(tmp) / "dedup.db", root=tmp)
        started = time.perf_counter()
        memory.import_records(records(texts))
        print(f"built a store of {len(texts)} beliefs in {time.perf_counter() - started:.1f}s")
        for run in range(1, args.repeat + 1):
            started = time.perf_counter()
            report = audit.scan(memory, threshold=args.threshold)
            seconds = time.perf_counter() - started
            all_pairs = report.beliefs * (report.beliefs - 1) // 2
            print(
                f"run {run}: scan {seconds:.2f}s, {report.pairs_checked} candidate pairs "
                f"checked ({report.pairs_checked / all_pairs:.2e} of all {all_pairs} pairs)"
            )
        print(score(report, texts, planted))
        if args.apply:
            started = time.perf_counter()
            applied = audit.apply(memory, report)
            middle = time.perf_counter()
            removed = audit.undo(memory)
            print(
                f"apply: {len(applied.written)} edges in {middle - started:.2f}s; "
                f"undo: {len(removed)} edges in {time.perf_counter() - middle:.2f}s"
            )
        memory.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
