"""``credo search`` without click: the plain forms of the command a shell user types most.

Importing click (and the CLI's dozens of commands) costs ~35 ms of a ~150 ms budget, so ``credo
[--db PATH] search QUERY [--budget N] [--json] [--explain] [--no-anchors] [--history]`` is
parsed here and run straight through ``Memory`` and ``render``, exactly as the ``search`` of
``credo.surfaces.cli.commands`` would. Anything else (``--help``, ``--lane``, ``--cluster``, a
malformed value, an unknown option) returns ``None`` and click takes over; so does any failure
before the result is printed: click then runs the command again and reports the error its usual
way. The output is the click command's, byte for byte (tests/test_cli_fast.py compares them).
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

FLAGS = ("--json", "--explain", "--no-anchors", "--history")


class SearchArgs(NamedTuple):
    query: str
    db: str | None
    budget: int | None
    as_json: bool
    explain: bool
    no_anchors: bool
    history: bool = False


def parse_search(argv: list[str]) -> SearchArgs | None:
    """The arguments of a plain ``search`` command line, else ``None`` (click's job)."""
    args = list(argv)
    db = None
    if args[:1] == ["--db"] and len(args) > 1:
        db, args = args[1], args[2:]
    elif args[:1] and args[0].startswith("--db="):
        db, args = args[0].removeprefix("--db="), args[1:]
    # click validates --db (no folder, no empty value); leave those cases to it.
    if args[:1] != ["search"] or (db is not None and (not db.strip() or os.path.isdir(db))):
        return None
    query: str | None = None
    budget: int | None = None
    seen: set[str] = set()
    rest = args[1:]
    at = 0
    while at < len(rest):
        word = rest[at]
        if word in FLAGS:
            seen.add(word)
        elif word == "--budget" and at + 1 < len(rest) and _plain_int(rest[at + 1]):
            budget = int(rest[at + 1])
            at += 1
        elif word.startswith("-") or query is not None:
            return None
        else:
            query = word
        at += 1
    if query is None:
        return None
    return SearchArgs(
        query,
        db,
        budget,
        "--json" in seen,
        "--explain" in seen,
        "--no-anchors" in seen,
        "--history" in seen,
    )


def _plain_int(text: str) -> bool:
    return text.isascii() and text.isdigit()


def run_search(argv: list[str]) -> int | None:
    """Run a plain ``search`` and return its exit status, or ``None`` to hand over to click."""
    args = parse_search(argv)
    if args is None:
        return None
    try:
        from credo.agent.global_store import open_project
        from credo.surfaces.render import json_text, result_json, result_text

        with open_project(args.db, source="cli", or_global=args.db is None) as memory:
            result = memory.retrieve(
                args.query,
                token_budget=args.budget,
                with_doc_anchors=not args.no_anchors,
                include_superseded=args.history,
            )
        text = (
            json_text(result_json(result))
            if args.as_json
            else result_text(result, explain=args.explain)
        )
    except Exception:
        return None  # click runs it again and reports the error in its one place
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0
