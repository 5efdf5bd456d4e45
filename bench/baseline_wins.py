"""Every question where an FTS5 baseline ranks a relevant section above credo (issue #14).

    python bench/docs_multi.py --json dm.json            # or bench/heldout/run.py,
    python bench/devsets/run.py --json dev.json          # bench/devsets/run.py: same JSON
    python bench/baseline_wins.py dm.json dev.json [--corpus NAME ...] [--baseline NAME ...]

Reads only the ``--json`` reports (the per-query scores every system got in one run), so
it costs nothing to run again and never re-ranks. A baseline wins a question when, against
credo in the same run, it has a smaller first matching rank within 10 (or a match where
credo has none), finds more of a multi-fact question's groups in its first 10, or scores a
higher doc nDCG@10. The best baseline per question is the one with the smallest first
rank (then the most groups, then the highest nDCG; ties by name). Each win is tagged with
the corpus metric it costs credo:

    hit@5       the baseline matches within 5 and credo does not
    in10        the baseline matches within 10 and credo does not (MRR, and hit@5 past 5)
    mrr         both match within 10, the baseline first
    groups      the baseline finds more groups (all-groups@10 when it finds every one)
    ndcg        only the doc nDCG@10 is higher (a relevant file earlier, or more of them)

This is where a study of the remaining gap starts (day-gap83 classified the causes by
hand from such a list: docs/BENCHMARKS.md keeps the findings).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

K_HIT = 5


class Win(NamedTuple):
    corpus: str
    query: str
    kind: str  # the question's type: topical, path, code, multi
    baseline: str
    tag: str  # hit@5, in10, mrr, groups, ndcg (the module docstring)
    credo_rank: int | None
    baseline_rank: int | None
    credo_groups: int | None
    baseline_groups: int | None


def _order(row: Mapping[str, Any]) -> tuple[float, float, float]:
    """A baseline's row as a sort key, best first: rank, then groups, then nDCG."""
    rank = row["rank"] or 99
    return (rank, -(row.get("groups_found") or 0), -row["doc_ndcg@10"])


def _tag(credo: Mapping[str, Any], base: Mapping[str, Any]) -> str | None:
    """What the baseline's row wins over credo's (None: nothing)."""
    c_rank, b_rank = credo["rank"], base["rank"]
    if b_rank is not None and (c_rank is None or b_rank < c_rank):
        if b_rank <= K_HIT and (c_rank is None or c_rank > K_HIT):
            return "hit@5"
        return "in10" if c_rank is None else "mrr"
    if (base.get("groups_found") or 0) > (credo.get("groups_found") or 0):
        return "groups"
    if base["doc_ndcg@10"] > credo["doc_ndcg@10"] + 1e-9:
        return "ndcg"
    return None


def corpus_wins(result: Mapping[str, Any], only: Collection[str] | None = None) -> list[Win]:
    """The questions of one corpus' result (a ``corpora`` entry of a ``--json`` report)
    that a baseline wins, in the query file's order, each with its best baseline
    (``only``: these baselines alone compete, e.g. fts5-trail, the one docs layout whose
    unit and score a change is compared with)."""
    rows = result["per_query"]
    credo_rows = rows["credo"]
    names = sorted(n for n in result["baselines"] if only is None or n in only)
    out: list[Win] = []
    for query, credo in credo_rows.items():
        best: tuple[tuple[float, float, float], str, str] | None = None
        for name in names:
            base = rows[name][query]
            tag = _tag(credo, base)
            if tag is not None and (best is None or (_order(base), name) < best[:2]):
                best = (_order(base), name, tag)
        if best is None:
            continue
        _, name, tag = best
        base = rows[name][query]
        out.append(
            Win(
                result["corpus"],
                query,
                result["query_types"][query],
                name,
                tag,
                credo["rank"],
                base["rank"],
                credo.get("groups_found"),
                base.get("groups_found"),
            )
        )
    return out


def read_reports(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The corpora entries of every report, in the order given (a corpus named twice: the
    later report's entry)."""
    by_name: dict[str, dict[str, Any]] = {}
    for path in paths:
        for result in json.loads(path.read_text(encoding="utf-8"))["corpora"]:
            by_name[result["corpus"]] = result
    return list(by_name.values())


def render(wins: Sequence[Win], corpora: Sequence[str]) -> str:
    lines = [f"{'corpus':<18} {'query':<26} {'type':<7} {'baseline':<15} {'tag':<7} credo  base"]
    for w in wins:
        groups = (
            f"  groups {w.credo_groups} vs {w.baseline_groups}"
            if w.credo_groups is not None
            else ""
        )
        lines.append(
            f"{w.corpus:<18} {w.query:<26} {w.kind:<7} {w.baseline:<15} {w.tag:<7} "
            f"{w.credo_rank or '-':>5} {w.baseline_rank or '-':>5}{groups}"
        )
    lines.append("")
    for corpus in corpora:
        mine = [w for w in wins if w.corpus == corpus]
        counts = {tag: sum(w.tag == tag for w in mine) for tag in TAGS}
        lines.append(
            f"{corpus:<18} {len(mine):>3} won by a baseline: "
            + ", ".join(f"{tag} {n}" for tag, n in counts.items() if n)
        )
    return "\n".join(lines)


TAGS = ("hit@5", "in10", "mrr", "groups", "ndcg")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("reports", nargs="+", type=Path, help="--json outputs of the benches")
    parser.add_argument("--corpus", action="append", metavar="NAME", help="repeatable")
    parser.add_argument(
        "--baseline",
        action="append",
        metavar="NAME",
        help="repeatable: only these baselines compete (default: every one a corpus ran)",
    )
    args = parser.parse_args(argv)
    try:
        results = read_reports(args.reports)
    except (OSError, ValueError, KeyError) as exc:
        print(f"baseline_wins: cannot read the reports: {exc}", file=sys.stderr)
        return 2
    if args.corpus:
        results = [r for r in results if r["corpus"] in args.corpus]
    if args.baseline:
        ran = {name for r in results for name in r["baselines"]}
        if unknown := sorted(set(args.baseline) - ran):
            print(
                f"baseline_wins: no report ran {', '.join(unknown)} "
                f"(they ran: {', '.join(sorted(ran))})",
                file=sys.stderr,
            )
            return 2
        # (a corpus of the other kind has none of them: it lists no win)
        results = [r for r in results if set(args.baseline) & set(r["baselines"])]
    wins = [w for r in results for w in corpus_wins(r, args.baseline)]
    print(render(wins, [r["corpus"] for r in results]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
