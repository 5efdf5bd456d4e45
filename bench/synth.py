"""Synthetic stores for benchmarks: sentence-like beliefs and typed edges, deterministic.

The vocabulary is a fixed list of software-project words, so FTS5 sees realistic term
frequencies (a Zipf-like draw) rather than unique random strings.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

WORDS = """
deploy build test release config cache index query server client token budget schema
migration database table column row edge graph node cluster anchor document section
heading paragraph python rust docker kubernetes staging production branch merge commit
review lint format type error warning retry timeout latency throughput memory disk file
folder path url api endpoint request response header cookie session user agent model
prompt hook search retrieve rank score lane pack belief lock unlock forget feedback
import export backup restore integrity vacuum journal wal checkpoint transaction lock
writer reader process thread async await queue worker job schedule cron log metric trace
alert dashboard incident runbook oncall pager secret key certificate tls proxy dns port
""".split()

EDGE_TYPES = [
    "SUPPORTS",
    "CITES",
    "DERIVED_FROM",
    "RELATES_TO",
    "TEMPORAL_NEXT",
    "IMPLEMENTS",
    "TESTS",
    "CONTRADICTS",
]


def sentence(rng: random.Random) -> str:
    length = rng.randint(8, 22)
    words = [
        WORDS[min(int(rng.paretovariate(1.1)) - 1, len(WORDS) - 1)]
        if rng.random() < 0.5
        else rng.choice(WORDS)
        for _ in range(length)
    ]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


SYLLABLES = "ka lo mi ne ru sa te vo xi za bre dru fla gri ple sto tra qui".split()


def zipf_vocabulary(size: int = 20_000, seed: int = 3) -> list[str]:
    """Distinct pronounceable pseudo-words, most frequent first."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < size:
        words["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))] = None
    return list(words)


class ZipfText:
    """Sentences whose word frequencies follow Zipf's law (exponent 1.07) over a 20k-word
    vocabulary, like natural text: a few very common words, a long tail of rare ones."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.words = zipf_vocabulary()
        weights = [1.0 / (rank + 1) ** 1.07 for rank in range(len(self.words))]
        self.cumulative = list(itertools.accumulate(weights))

    def sentence(self) -> str:
        picks = self.rng.choices(self.words, cum_weights=self.cumulative, k=self.rng.randint(8, 22))
        return " ".join(picks).capitalize() + "."

    def query(self) -> str:
        """3-6 content words: ranks 50-5,000 (users type topical words, not 'the')."""
        count = self.rng.randint(3, 6)
        return " ".join(self.words[int(50 * 100 ** self.rng.random())] for _ in range(count))


def write_records(
    path: Path, beliefs: int, edges_per_belief: int, seed: int = 7, *, text: str = "software"
) -> Path:
    """A records file of ``beliefs`` beliefs and ``beliefs * edges_per_belief`` edges.

    ``text="software"`` draws from a 150-word software vocabulary (every word is common: a
    worst case for keyword search); ``text="zipf"`` from a Zipf-distributed 20k vocabulary.
    """
    rng = random.Random(seed)
    zipf = ZipfText(seed) if text == "zipf" else None
    with path.open("w", encoding="utf-8") as out:
        for i in range(beliefs):
            content = zipf.sentence() if zipf else sentence(rng)
            out.write(
                json.dumps({"kind": "belief", "id": f"n{i}", "content": f"{content} #{i}"}) + "\n"
            )
        seen: set[tuple[int, int, str]] = set()
        target = beliefs * edges_per_belief
        while len(seen) < target:
            src = rng.randrange(beliefs)
            # Mostly local edges (documents cite their neighbours), some long-range.
            dst = (
                (src + rng.randint(1, 50)) % beliefs
                if rng.random() < 0.8
                else rng.randrange(beliefs)
            )
            edge_type = rng.choice(EDGE_TYPES)
            if src == dst or (src, dst, edge_type) in seen:
                continue
            seen.add((src, dst, edge_type))
            out.write(
                json.dumps({"kind": "edge", "src": f"n{src}", "dst": f"n{dst}", "type": edge_type})
                + "\n"
            )
    return path
