"""Synthetic stores for benchmarks: sentence-like beliefs and typed edges, deterministic.

The vocabulary is a fixed list of software-project words, so FTS5 sees realistic term
frequencies (a Zipf-like draw) rather than unique random strings.
"""

from __future__ import annotations

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


def write_records(path: Path, beliefs: int, edges_per_belief: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(beliefs):
            out.write(
                json.dumps({"kind": "belief", "id": f"n{i}", "content": f"{sentence(rng)} #{i}"})
                + "\n"
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
