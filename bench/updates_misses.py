"""Why a knowledge-update question misses its current value at a small budget.

    python bench/updates_misses.py [--budgets 150,400]

Builds bench/updates.py's store (the same scenarios, distractors and updates) and, for each
question whose credo pack at one of ``--budgets`` lacks the current belief, prints:

- the question's terms and the ones the current belief matches (porter stems, as FTS5 and
  credo's BM25F lane see them), with those its predecessors match, which a successor
  inherits (the ``supersedes`` part of its score);
- credo's rank of the current belief with an unbounded budget, the tokens ranked above it
  and so the smallest budget that packs it, and its rank with ``include_superseded`` (the
  truth step off): a truth-step loss would show as a worse rank with the step on;
- its rank in the plain FTS5 baseline's bm25 order;
- how many live beliefs match a strict superset of the current belief's terms (any scorer
  that rewards matched terms ranks them above it) and how many the same set (lexical ties,
  ordered by length and term weights), with what they cost: when those cost more than the
  budget, no ranking by the question's words packs the current value.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import updates
from credo import Memory
from credo.store.fts import query_terms
from credo.tokens import belief_tokens
from updates import term_index

UNBOUNDED = 1_000_000


def matched_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[str, frozenset[str]]:
    """Belief id -> the query terms it matches."""
    found: dict[str, set[str]] = {}
    for term in terms:
        quoted = '"' + term.replace('"', '""') + '"'
        for (belief_id,) in conn.execute("SELECT id FROM t WHERE t MATCH ?", (quoted,)):
            found.setdefault(belief_id, set()).add(term)
    return {k: frozenset(v) for k, v in found.items()}


def fts5_order(conn: sqlite3.Connection, terms: Sequence[str]) -> list[str]:
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    sql = "SELECT id FROM t WHERE t MATCH ? ORDER BY bm25(t), id"
    return [belief_id for (belief_id,) in conn.execute(sql, (match,))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="150,400")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    scenarios, records = updates.build_scenarios()
    text = {str(r["id"]): str(r["content"]) for r in records}
    stale = {i for s in scenarios for i in s.stale}
    everything = term_index(records)
    live = term_index(r for r in records if r["id"] not in stale)

    def cost(ids: Iterable[str]) -> int:
        return sum(belief_tokens(i, text[i], False) for i in ids)

    with (
        tempfile.TemporaryDirectory() as folder,
        Memory(Path(folder) / "updates.db", root=Path(folder)) as memory,
    ):
        memory.import_records(records)
        updates.apply_updates(memory, scenarios)
        for scenario in scenarios:
            question = scenario.question
            missed = [
                b
                for b in budgets
                if scenario.current not in memory.retrieve(question, token_budget=b).ids
            ]
            if not missed:
                continue
            terms = query_terms(question)
            ranked = memory.retrieve(question, token_budget=UNBOUNDED)
            history = memory.retrieve(question, token_budget=UNBOUNDED, include_superseded=True)
            rank = ranked.ids.index(scenario.current)
            above = sum(b.tokens for b in ranked.beliefs[:rank])
            charged = ranked.beliefs[rank].tokens
            own = matched_terms(everything, terms)
            inherited = frozenset().union(*(own.get(i, frozenset()) for i in scenario.stale))
            matches = own.get(scenario.current, frozenset()) | inherited
            rivals = matched_terms(live, terms)
            superset = [i for i, m in rivals.items() if m > matches]
            same = [i for i, m in rivals.items() if m == matches and i != scenario.current]
            plain = fts5_order(everything, terms)
            print(f"{scenario.key} [{scenario.path}] misses at {missed}: {question!r}")
            print(f"  terms {terms}; current {scenario.current} {text[scenario.current]!r}")
            print(
                f"  matches {sorted(own.get(scenario.current, ()))}, "
                f"with its predecessors' {sorted(matches)}"
            )
            print(
                f"  credo rank {rank + 1} of {len(ranked.ids)}, {above} tokens above it "
                f"(packed from {above + charged} tokens); truth step off: rank "
                f"{history.ids.index(scenario.current) + 1}; FTS5 rank "
                f"{plain.index(scenario.current) + 1 if scenario.current in plain else '-'}"
            )
            print(
                f"  live beliefs matching more of its terms: {len(superset)} ({cost(superset)} "
                f"tokens); the same terms: {len(same)} ({cost(same)} tokens)"
            )


if __name__ == "__main__":
    main()
