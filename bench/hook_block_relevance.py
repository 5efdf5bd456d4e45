"""The hook's block: how much of it shares no word with the prompt, and what it still finds.

    python bench/hook_block_relevance.py [--set docs|dev|all] [--corpus NAME ...]

Each corpus is ingested into a fresh store; each question runs through the hook's own
retrieval at its default budget (``hook.retrieve_for_hook``, ``HookSettings().token_budget``,
1,200 tokens, under its 6 KB cap). Per corpus:

    unrelated     injected passages whose text and trail hold none of the question's
                  content words by stem (``fts.query_terms``: stop words out; ``stem.STEMS``),
                  out of all injected, and the tokens they cost out of all tokens
    in block      questions whose labelled section (any group's, for multi) has a passage in
                  the block, by docs_match's ``overlap`` rule: the block is what the agent
                  reads, and a passage touching the section shows it

Each line is printed for the block as injected (``0.0``) and for cuts a hook could make,
simulated on the same block (passages left out, none put in their place; a locked one
never): a score floor (``0.3``: under 30% of the best unlocked score), ``words`` (every
unrelated passage), ``words<0.5`` (an unrelated passage under half the best score).
Measured at stop 58 (tidy81; the figures are in its report): no cut kept every corpus's
"in block", so the hook makes none.

The sets: ``docs`` (bench/docs_multi/, six corpora every ranking change was tuned on), ``dev``
(bench/devsets/, six more). The held-out sets are left out on purpose: a hook method is chosen
on these figures. Nothing committed: the corpora are fetched by ``docs_corpora.fetch``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.config import HookSettings, Settings
from credo.store.fts import query_terms
from credo.store.identifier import identifier_parts
from credo.store.stem import STEMS, tokens
from credo.surfaces.hook import retrieve_for_hook
from devsets.corpora import DEV
from docs_corpora import CORPORA, Corpus, fetch
from docs_match import overlap
from docs_multi import DEFAULT_QUERIES, anchor_locs, load_queries

_NAME = re.compile(r"\w+")
# The cuts (module docstring). A floor >= 0 is a share of the best score; one below zero
# cuts only unrelated passages, those under -floor times the best (`WORDS`: any score).
WORDS = -1e9
WORDS_UNDER = -0.5
FLOORS = (0.0, 0.3, 0.4, 0.5, 0.6, WORDS, WORDS_UNDER)
SETS: dict[str, tuple[tuple[Sequence[Corpus], Path], ...]] = {
    "docs": ((CORPORA, DEFAULT_QUERIES),),
    "dev": ((DEV, Path(__file__).resolve().parent / "devsets" / "queries"),),
}
SETS["all"] = (*SETS["docs"], *SETS["dev"])


def unrelated(question: str, text: str) -> bool:
    """No content word of ``question`` is among ``text``'s words by stem, a camelCase or
    snake_case name's words counted too (``AxiosHeaders`` holds "headers")."""
    asked = {STEMS[t] for t in query_terms(question)}
    words = [*tokens(text), *(p for w in _NAME.findall(text) for p in identifier_parts(w))]
    return asked.isdisjoint(STEMS[w] for w in words)


def measure(corpus: Corpus, folder: Path) -> dict[float, dict[str, float]] | None:
    """Per floor: the questions, passages shown and unrelated, their tokens, and the
    questions whose labelled section has a passage in the block."""
    path = folder / f"{corpus.name}.json"
    if not path.exists():
        return None
    queries, _ = load_queries(path)
    budget = HookSettings().token_budget
    root = fetch(corpus)
    keys = ("questions", "shown", "unrelated", "tokens", "tokens_unrelated", "in_block")
    rows = {floor: dict.fromkeys(keys, 0.0) for floor in FLOORS}
    with tempfile.TemporaryDirectory(prefix="credo-relevance-") as tmp:
        memory = Memory(Path(tmp) / "credo.db", root=root, settings=Settings())
        try:
            memory.ingest(*corpus.files(root))
            for q in queries:
                result, _ = retrieve_for_hook(memory, q.text, budget)
                anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
                best = max((b.score for b in result.beliefs if not b.locked), default=0.0)
                for floor, row in rows.items():
                    row["questions"] += 1
                    found = False
                    for belief, anchor in zip(result.beliefs, anchors, strict=True):
                        if not belief.locked and belief.score < floor * best:
                            continue
                        off = unrelated(q.text, f"{belief.content} {belief.trail}")
                        if off and not belief.locked and floor < 0 and belief.score < -floor * best:
                            continue
                        row["shown"] += 1
                        row["tokens"] += belief.tokens
                        if off:
                            row["unrelated"] += 1
                            row["tokens_unrelated"] += belief.tokens
                        found = found or any(
                            overlap(loc, label) for loc in anchor_locs(anchor) for label in q.labels
                        )
                    row["in_block"] += found
        finally:
            memory.close()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="all")
    parser.add_argument("--corpus", action="append", default=[])
    args = parser.parse_args(argv)
    rows: list[dict[float, dict[str, float]]] = []
    for corpora, folder in SETS[args.set]:
        for corpus in corpora:
            if args.corpus and corpus.name not in args.corpus:
                continue
            row = measure(corpus, folder)
            if row is None:
                continue
            rows.append(row)
            for floor, figures in row.items():
                print(_line(f"{corpus.name} {_name(floor)}", figures), flush=True)
    for floor in FLOORS if rows else ():
        total = {key: sum(r[floor][key] for r in rows) for key in rows[0][floor]}
        mean = statistics.fmean(r[floor]["in_block"] / r[floor]["questions"] for r in rows)
        print(f"{_line(f'all {_name(floor)}', total)}  mean over corpora {mean:.3f}")
    return 0


def _name(floor: float) -> str:
    if floor == WORDS:
        return "words"
    return f"words<{-floor:.1f}" if floor < 0 else f"{floor:.1f}"


def _line(name: str, row: dict[str, float]) -> str:
    return (
        f"{name:<18} {row['questions']:>4.0f} q  unrelated passages {row['unrelated']:.0f}/"
        f"{row['shown']:.0f} ({row['unrelated'] / max(row['shown'], 1):.1%})  tokens "
        f"{row['tokens_unrelated']:.0f}/{row['tokens']:.0f} "
        f"({row['tokens_unrelated'] / max(row['tokens'], 1):.1%})  section in block "
        f"{row['in_block']:.0f}/{row['questions']:.0f} ({row['in_block'] / row['questions']:.3f})"
    )


if __name__ == "__main__":
    raise SystemExit(main())
