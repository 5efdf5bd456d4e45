"""Validate the capture benchmark files and print their counts.

Usage: python bench/capture/check.py

Checks every line of every dev*.jsonl (found here, in their numbers' order) and
heldout.jsonl (when present): valid JSON, the fixed field set, unique ids across the files,
no prompt in two files, a known category, capture true exactly for the three capturing
categories, kind equal to the category (or null), and the statement a verbatim substring of
the prompt.
Exits 1 with one line per problem.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def dev_files() -> tuple[str, ...]:
    """dev, dev2, dev3, ... in their numbers' order: every development file here (each round
    opens the spent blind set as the next one, so no list is edited by hand)."""
    names = [
        path.stem
        for path in HERE.glob("dev*.jsonl")
        if path.stem[3:].isdigit() or path.stem == "dev"
    ]
    return tuple(sorted(names, key=lambda name: int(name[3:] or 1)))


SPLITS = (*dev_files(), "heldout")
CAPTURING = ("correction", "preference", "rule")
CATEGORIES = (
    *CAPTURING,
    "question",
    "turn_instruction",
    "code_paste",
    "log_paste",
    "acknowledgement",
    "chit_chat",
    "other_negative",
)
FIELDS = {"id", "prompt", "category", "capture", "kind", "statement"}


def problems_of(row: dict, where: str) -> list[str]:
    found = []
    keys = set(row)
    if not keys >= FIELDS or keys - FIELDS - {"note"}:
        found.append(f"{where}: fields {sorted(keys)}")
        return found
    cat = row["category"]
    if cat not in CATEGORIES:
        found.append(f"{where}: unknown category {cat!r}")
    positive = cat in CAPTURING
    if row["capture"] is not positive:
        found.append(f"{where}: capture {row['capture']!r} for category {cat}")
    if row["kind"] != (cat if positive else None):
        found.append(f"{where}: kind {row['kind']!r} for category {cat}")
    stmt = row["statement"]
    if positive and not (isinstance(stmt, str) and stmt.strip() and stmt in row["prompt"]):
        found.append(f"{where}: statement is not a verbatim substring of the prompt")
    if not positive and stmt is not None:
        found.append(f"{where}: statement on a negative")
    return found


def main() -> int:
    problems: list[str] = []
    ids: set[str] = set()
    prompts: dict[str, str] = {}
    counts: dict[str, Counter[str]] = {}
    for split in SPLITS:
        counts[split] = Counter()
        path = HERE / f"{split}.jsonl"
        if split == "heldout" and not path.exists():
            continue  # between rounds: the last blind set is opened, the next is not yet written
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            where = f"{split}.jsonl:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"{where}: invalid JSON ({exc})")
                continue
            problems += problems_of(row, where)
            if row.get("id") in ids:
                problems.append(f"{where}: duplicate id {row.get('id')}")
            ids.add(row.get("id"))
            key = " ".join(str(row.get("prompt", "")).lower().split())
            if key in prompts:
                problems.append(f"{where}: prompt repeats {prompts[key]}")
            prompts[key] = where
            counts[split][row.get("category")] += 1
            counts[split]["capture=true" if row.get("capture") else "capture=false"] += 1
    for problem in problems:
        print(problem)
    print(f"{'category':<18}" + "".join(f"{s:>9}" for s in SPLITS) + f"{'total':>9}")
    for cat in (*CATEGORIES, "capture=true", "capture=false"):
        row = [counts[s][cat] for s in SPLITS]
        print(f"{cat:<18}" + "".join(f"{v:>9}" for v in row) + f"{sum(row):>9}")
    totals = [counts[s]["capture=true"] + counts[s]["capture=false"] for s in SPLITS]
    print(f"{'total':<18}" + "".join(f"{v:>9}" for v in totals) + f"{sum(totals):>9}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
