"""Where credo's document order loses to a baseline: the questions, the files, what stands above.

    python bench/docs_multi.py --json dm.json        # or bench/devsets/run.py --json dev.json
    python bench/doc_gaps.py dm.json [dev.json ...] [--kind code|docs|all] [--against query|corpus]

doc nDCG@10 is a file-level figure (``docs_multi.py``): the first 10 hits mapped to their
files, the first occurrence of each kept. A question loses it when a file that is no
answer comes before one that is. For every question (of ``--kind``, code by default) where
credo's doc nDCG@10 is below the baseline's, this prints the relevant files, where each
first appears in credo's first 10 and in the baseline's, and what stands above the last
of credo's relevant files to appear (all 10 when one is missing), each hit named by what
it is:

    test        a project's test code (``retrieval/prior.py``'s rule, as the ranking reads it)
    history     a changelog (the same module's rule)
    readme      a README
    same-file   a hit of a file that holds an answer
    other       a file that holds no answer: another module

``--against corpus`` compares with the corpus' best baseline by doc nDCG@10 (the system the
verdict names); ``query`` (the default) with the best baseline of each question, so a loss
to any baseline is listed. Read-only over the JSON and the query files it names: nothing is
run, so the tables of two trees compare without a rerun.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from credo.retrieval.prior import is_history, is_test  # noqa: E402

NDCG = "doc_ndcg@10"
KINDS = ("test", "history", "readme", "same-file", "other")


@dataclass(frozen=True)
class Gap:
    """One question where credo's doc nDCG@10 is below the baseline's."""

    corpus: str
    query_id: str
    text: str
    baseline: str
    credo_ndcg: float
    baseline_ndcg: float
    relevant: tuple[str, ...]  # the label files, sorted
    credo_first: dict[str, int | None]  # relevant file -> its first rank in credo's 10
    baseline_first: dict[str, int | None]
    above: tuple[tuple[int, str, str], ...]  # (rank, location, kind) above the last answer


def hit_files(hit: Sequence[str]) -> list[str]:
    """The files of one ranked hit's locations (``path#L1-L9``), in order."""
    return [location.split("#", 1)[0] for location in hit]


def first_ranks(top: Sequence[Sequence[str]], files: Iterable[str]) -> dict[str, int | None]:
    """Each of ``files`` -> the 1-based rank of the first hit in ``top`` that maps to it."""
    wanted = set(files)
    found: dict[str, int | None] = dict.fromkeys(sorted(wanted))
    for rank, hit in enumerate(top, 1):
        for file in hit_files(hit):
            if file in wanted and found[file] is None:
                found[file] = rank
    return found


def kind_of(file: str, relevant: set[str]) -> str:
    """What a hit's file is, for the table: see the module docstring."""
    if file in relevant:
        return "same-file"
    if is_test(file):
        return "test"
    if is_history(file):
        return "history"
    if Path(file).name.lower().startswith("readme"):
        return "readme"
    return "other"


def label_files(query: Mapping[str, Any]) -> tuple[str, ...]:
    """The files of a query's labels: its sections, or every group's sections."""
    sections = query.get("sections") or [s for g in query.get("groups", []) for s in g]
    return tuple(sorted({s["path"] for s in sections}))


def corpus_gaps(
    corpus: Mapping[str, Any], queries: Mapping[str, Mapping[str, Any]], against: str
) -> list[Gap]:
    """The gaps of one corpus of a docs_multi JSON (``corpora[i]``), with its ``queries``
    by id (the query file's entries)."""
    per_query = corpus["per_query"]
    systems = [s for s in corpus["systems"] if s != "credo"]
    if not systems:
        return []
    chosen = corpus["summary"]["best-baseline"]["all"]["by"][NDCG][0]
    gaps: list[Gap] = []
    for query_id in sorted(per_query["credo"]):
        ours = per_query["credo"][query_id][NDCG]
        if against == "corpus":
            baseline = chosen
        else:  # (the first of the best, in the run's system order: deterministic)
            baseline = max(systems, key=lambda s: per_query[s][query_id][NDCG])
        theirs = per_query[baseline][query_id][NDCG]
        if ours >= theirs:
            continue
        query = queries[query_id]
        relevant = label_files(query)
        credo_top = corpus["top"]["credo"][query_id]
        credo_first = first_ranks(credo_top, relevant)
        # (every answer file's first hit counts: the last of them to appear, or past the
        # list when one is missing, bounds what lowered the figure)
        ranks = list(credo_first.values())
        stop = len(credo_top) + 1 if None in ranks else max(r for r in ranks if r is not None)
        wanted = set(relevant)
        above = tuple(
            (rank, ",".join(hit), kind_of(hit_files(hit)[0], wanted) if hit else "other")
            for rank, hit in enumerate(credo_top[: stop - 1], 1)
        )
        gaps.append(
            Gap(
                corpus=corpus["corpus"],
                query_id=query_id,
                text=query["query"],
                baseline=baseline,
                credo_ndcg=ours,
                baseline_ndcg=theirs,
                relevant=relevant,
                credo_first=credo_first,
                baseline_first=first_ranks(corpus["top"][baseline][query_id], relevant),
                above=above,
            )
        )
    return gaps


def read_gaps(paths: Iterable[Path], kind: str, against: str) -> list[Gap]:
    """The gaps of every corpus of ``kind`` in the docs_multi / devsets JSON at ``paths``."""
    out: list[Gap] = []
    for path in paths:
        run = json.loads(path.read_text(encoding="utf-8"))
        for corpus in run["corpora"]:
            if kind != "all" and corpus["kind"] != kind:
                continue
            query_file = Path(corpus["query_file"]["file"])
            entries = json.loads(query_file.read_text(encoding="utf-8"))["queries"]
            out.extend(corpus_gaps(corpus, {q["id"]: q for q in entries}, against))
    return out


def _rank(value: int | None) -> str:
    return "-" if value is None else str(value)


def render(gaps: Sequence[Gap]) -> str:
    lines: list[str] = []
    kinds: Counter[str] = Counter()
    for gap in gaps:
        lines.append(
            f"{gap.query_id}  credo {gap.credo_ndcg:.3f} < {gap.baseline} "
            f"{gap.baseline_ndcg:.3f}: {gap.text}"
        )
        for file in gap.relevant:
            lines.append(
                f"    {file}: credo {_rank(gap.credo_first[file])}, "
                f"{gap.baseline} {_rank(gap.baseline_first[file])}"
            )
        for rank, location, kind in gap.above:
            lines.append(f"      above, {rank:2d} {kind:9} {location}")
            kinds[kind] += 1
    lines.append(f"{len(gaps)} questions; hits above credo's last answer file by kind:")
    lines.append("    " + ", ".join(f"{k} {kinds[k]}" for k in KINDS))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("json", nargs="+", type=Path, help="docs_multi.py / devsets --json")
    parser.add_argument("--kind", choices=("code", "docs", "all"), default="code")
    parser.add_argument("--against", choices=("query", "corpus"), default="query")
    args = parser.parse_args(argv)
    print(render(read_gaps(args.json, args.kind, args.against)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
