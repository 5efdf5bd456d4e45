"""What the compress stage and short ids cost a warm retrieve, measured in pairs.

    python bench/compress_cost.py [--size 10000] [--queries 300] [--passes 2] [--corpus black]

As bench/truth_cost.py: this machine's speed drifts more than these steps cost, so each
query is retrieved twice in one process, in alternating order, and the figure is the median
of the per-query differences (warm index read first). Two comparisons:

- **the compress stage** on bench/latency.py's synthetic store (``synth.write_records(size,
  2, text="zipf")``, the store issue #19's cost goal names): ``compress="auto"`` (the
  default) against ``"off"``; its texts are short, so the two packs are mostly the same and
  the difference is the stage's own work;
- **short ids** on a documentation store (a docs_multi corpus, ingested): the candidates'
  ids shown by their short prefix (``store/short_ids.py``, as built) against a stand-in
  that shows every id whole and asks the store nothing; and, to split what the lookups
  cost from what the wider pack they buy costs, against a stand-in that does the lookups
  but still shows every id whole (the same pack as the first stand-in).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.config import Settings
from credo.retrieval import pipeline
from credo.store import short_ids
from docs_corpora import BY_NAME, fetch
from latency import queries
from synth import write_records

HERE = Path(__file__).resolve().parent


class Whole(short_ids.Shown):
    """Every id shown whole; nothing asked of the store."""

    __slots__ = ()

    def __init__(self, *args: object) -> None:
        dict.__init__(self)

    def __missing__(self, belief_id: str) -> str:
        self[belief_id] = belief_id
        return belief_id


class LookedUp(short_ids.Shown):
    """The lookups of the built form, every id still shown whole."""

    __slots__ = ()

    def __missing__(self, belief_id: str) -> str:
        super().__missing__(belief_id)
        self[belief_id] = belief_id
        return belief_id


def paired(
    memory: Memory, texts: list[str], passes: int, arms: tuple[Callable[[], None], ...]
) -> tuple[float, float, float]:
    """(p50 of arm 0, p50 of arm 1, median of arm 0 - arm 1) in ms, each query run under
    both arms in turn, the order alternating."""
    first, second, diff = [], [], []
    for round_ in range(passes):
        for k, text in enumerate(texts):
            spent = [0.0, 0.0]
            for arm in (0, 1) if (k + round_) % 2 else (1, 0):
                arms[arm]()
                started = time.perf_counter()
                memory.retrieve(text)
                spent[arm] = time.perf_counter() - started
            first.append(spent[0])
            second.append(spent[1])
            diff.append(spent[0] - spent[1])
    ms = 1000.0
    return (
        statistics.median(first) * ms,
        statistics.median(second) * ms,
        statistics.median(diff) * ms,
    )


def stage_cost(size: int, count: int, passes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        records = write_records(Path(folder) / "r.jsonl", size, 2, text="zipf")
        with Memory(Path(folder) / "m.db", root=Path(folder)) as memory:
            memory.import_records(records)
            memory.store.build_warm()
            texts = queries(count)
            for text in queries(100, seed=5):
                memory.retrieve(text)
            modes = ("auto", "off")
            base = memory.retrieve

            def mode(name: str) -> Callable[[], None]:
                def set_mode() -> None:
                    memory.retrieve = lambda text: base(text, compress=name)  # type: ignore[method-assign]

                return set_mode

            on, off, step = paired(memory, texts, passes, tuple(mode(m) for m in modes))
            memory.retrieve = base  # type: ignore[method-assign]
    print(
        f"compress stage, {size:,} beliefs: warm p50 auto {on:.3f} / off {off:.3f} ms, "
        f"paired median {step * 1000:+.0f} us over {passes * count} pairs"
    )


def short_id_cost(corpus: str, passes: int) -> None:
    source = BY_NAME[corpus]
    root = fetch(source)
    texts = [
        q["query"]
        for q in json.loads((HERE / "docs_multi" / f"{corpus}.json").read_text())["queries"]
    ]
    built = pipeline.Shown
    with (
        tempfile.TemporaryDirectory() as folder,
        Memory(Path(folder) / "m.db", root=root, settings=Settings()) as memory,
    ):
        memory.ingest(*source.files(root))
        memory.store.build_warm()
        for text in texts:
            memory.retrieve(text)

        def use(kind: type[short_ids.Shown]) -> Callable[[], None]:
            def set_kind() -> None:
                pipeline.Shown = kind  # type: ignore[misc]

            return set_kind

        try:
            on, off, step = paired(memory, texts, passes, (use(built), use(Whole)))
            _, _, looked = paired(memory, texts, passes, (use(LookedUp), use(Whole)))
        finally:
            pipeline.Shown = built  # type: ignore[misc]
    print(
        f"short ids, {corpus} docs store: warm p50 short {on:.3f} / whole {off:.3f} ms, "
        f"paired median {step * 1000:+.0f} us (the lookups alone {looked * 1000:+.0f} us) "
        f"over {passes * len(texts)} pairs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--corpus", default="black", choices=sorted(BY_NAME))
    args = parser.parse_args()
    stage_cost(args.size, args.queries, args.passes)
    short_id_cost(args.corpus, args.passes * 3)


if __name__ == "__main__":
    main()
