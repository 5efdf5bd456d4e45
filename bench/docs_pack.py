"""In-pack metrics for bench/docs_multi.py (``--pack``): what a hook injects at a budget.

The ranking metrics of docs_multi score the first 10 results; an agent reads the pack. Per
query, each system fills ``PACK_BUDGET`` tokens (1,500) and is scored on what is inside:

    section in pack   1 when a packed unit matches a label section (any group's, for
                      multi) under docs_multi's ``--match`` rule, else 0
    doc recall        |label files with a packed unit| / |label files|
    all groups        multi queries only: 1 when every group has a packed unit
    units, tokens     how many units the pack holds, and the tokens they cost
    block bytes       credo only: the UTF-8 size of the memory block (``render.memory_block``)
                      for that result, and for the hook's own default budget
                      (``config.HookSettings().token_budget``, 1,200 tokens): "hook bytes"

Charging, the same way for every system: credo's pack is ``Memory.retrieve(query,
token_budget=1500, with_doc_anchors=True)`` with its own estimator (each belief's rendered
line, its trail included: tokens.py). A baseline's pack is its FTS5 ranking (up to
``BASELINE_DEPTH`` rows) taken in order while it fits, stopping at the first that does not,
each row costing ``ceil(chars / 4)`` of its paragraph plus a ``path#Ls-Le`` line (the
location an agent needs to open it), i.e. ``ceil((len(text) + 1 + len(line)) / 4)``.

Fidelity (credo only): every belief the compress stage cut (strategy snippet or headline)
is checked: each piece of its rendered text between "…" marks must be a substring of the
stored text, in order; and its words must appear, in order, among the words of its source
file within the line range of its ingest anchor (``fidelity``: pieces checked / pieces
that pass each test). Words, because a passage's text is the file's text with markup
removed and white space normalised (credo.knowledge.chunk).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Sequence
from typing import Any

PACK_BUDGET = 1_500
BASELINE_DEPTH = 400  # rows a baseline ranks before its pack (far more than 1,500 tokens)
GAP = "…"
_WORD = re.compile(r"[A-Za-z0-9]+")

Loc = Any  # docs_multi.Loc (path, start, end)
Packer = Callable[[str], "Pack"]


class Pack:
    """One query's pack: the units' locations, tokens, and (credo) block and fidelity."""

    def __init__(self, units: Sequence[tuple[Loc, ...]], tokens: int, block: int = 0) -> None:
        self.units = list(units)
        self.tokens = tokens
        self.block = block
        self.hook_block = 0
        self.pieces = 0
        self.substring = 0
        self.in_lines = 0
        self.strategies: dict[str, int] = {}


def baseline_pack(index: Any, loc: Callable[[Any], Loc], query: str) -> Pack:
    """An FTS5 baseline's pack (module docstring)."""
    units: list[tuple[Loc, ...]] = []
    used = 0
    for unit in index.search(query, BASELINE_DEPTH):
        line = f"{unit.path}#L{unit.start}-L{unit.end}"
        cost = math.ceil((len(unit.text) + 1 + len(line)) / 4)
        if used + cost > PACK_BUDGET:
            break
        used += cost
        units.append((loc(unit),))
    return Pack(units, used)


def credo_pack(
    memory: Any, texts: dict[str, list[str]], anchor_locs: Callable[[Any], tuple[Loc, ...]]
) -> Packer:
    from credo.config import HookSettings
    from credo.surfaces.hook import retrieve_for_hook
    from credo.surfaces.render import memory_block

    hook_budget = HookSettings().token_budget

    def pack(query: str) -> Pack:
        result = memory.retrieve(query, token_budget=PACK_BUDGET, with_doc_anchors=True)
        anchors = result.doc_anchors or tuple(() for _ in result.beliefs)
        out = Pack(
            [anchor_locs(a) for a in anchors],
            result.used_tokens,
            len(memory_block(result).encode("utf-8")),
        )
        # What the prompt hook injects: its retrieval, kept under its byte cap.
        _, block = retrieve_for_hook(memory, query, hook_budget)
        out.hook_block = len(block.encode("utf-8"))
        for belief, found in zip(result.beliefs, anchors, strict=True):
            strategy = getattr(belief, "strategy", "verbatim")  # a credo before compress
            out.strategies[strategy] = out.strategies.get(strategy, 0) + 1
            if strategy != "verbatim":
                _fidelity(out, belief.content, belief.shown, anchor_locs(found), texts)
        return out

    return pack


def pieces(rendered: str) -> list[str]:
    """The kept pieces of a rendered text: what lies between its "…" marks."""
    return [p.strip() for p in rendered.split(GAP) if p.strip()]


def _fidelity(
    out: Pack, content: str, rendered: str, locs: tuple[Loc, ...], texts: dict[str, list[str]]
) -> None:
    at = 0
    for piece in pieces(rendered):
        out.pieces += 1
        found = content.find(piece, at)
        if found >= 0:
            out.substring += 1
            at = found + len(piece)
        words = [w.lower() for w in _WORD.findall(piece)]
        if any(_in_order(words, _source_words(texts, loc)) for loc in locs):
            out.in_lines += 1


def _source_words(texts: dict[str, list[str]], loc: Loc) -> list[str]:
    lines = texts.get(loc.path, [])
    return [w.lower() for w in _WORD.findall("\n".join(lines[loc.start - 1 : loc.end]))]


def _in_order(words: list[str], source: list[str]) -> bool:
    it = iter(source)
    return all(any(w == s for s in it) for w in words)


def score(pack: Pack, query: Any, matches: Callable[[Loc, Loc], bool]) -> dict[str, Any]:
    """``matches`` is docs_multi's section rule (bench/docs_match.py)."""
    locs = [loc for unit in pack.units for loc in unit]

    def hit(group: Sequence[Loc]) -> bool:
        return any(matches(loc, label) for loc in locs for label in group)

    label_paths = {loc.path for loc in query.labels}
    packed_paths = {loc.path for loc in locs}
    out: dict[str, Any] = {
        "section_in_pack": float(hit(query.labels)),
        "doc_recall_in_pack": len(label_paths & packed_paths) / len(label_paths),
        "all_groups_in_pack": None,
        "units": len(pack.units),
        "tokens": pack.tokens,
        "block_bytes": pack.block,
        "hook_bytes": pack.hook_block,
        "pieces": pack.pieces,
        "substring": pack.substring,
        "in_lines": pack.in_lines,
        "strategies": pack.strategies,
    }
    if query.type == "multi":
        out["all_groups_in_pack"] = float(all(hit(g) for g in query.groups))
    return out


METRICS = ("section_in_pack", "doc_recall_in_pack", "all_groups_in_pack", "units", "tokens")


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"queries": len(rows)}
    for metric in METRICS:
        values = [r[metric] for r in rows if r[metric] is not None]
        out[metric] = statistics.fmean(values) if values else None
    blocks = [r["block_bytes"] for r in rows if r["block_bytes"]]
    out["block_bytes_max"] = max(blocks) if blocks else None
    out["block_bytes_p50"] = statistics.median(blocks) if blocks else None
    hooks = [r["hook_bytes"] for r in rows if r.get("hook_bytes")]
    out["hook_bytes_max"] = max(hooks) if hooks else None
    out["hook_bytes_p50"] = statistics.median(hooks) if hooks else None
    out["pieces"] = sum(r["pieces"] for r in rows)
    out["substring"] = sum(r["substring"] for r in rows)
    out["in_lines"] = sum(r["in_lines"] for r in rows)
    strategies: dict[str, int] = {}
    for r in rows:
        for k, v in r["strategies"].items():
            strategies[k] = strategies.get(k, 0) + v
    out["strategies"] = dict(sorted(strategies.items()))
    return out


def mean_over(per_corpus: Sequence[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Unweighted mean over corpora of each system's figures (a system absent from a
    corpus, such as a docs-only baseline on code, is averaged over where it ran)."""
    names: list[str] = []
    for corpus in per_corpus:
        names += [n for n in corpus if n not in names]
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        rows = [c[name] for c in per_corpus if name in c]
        row: dict[str, Any] = {"corpora": len(rows)}
        for metric in METRICS:
            values = [r[metric] for r in rows if r[metric] is not None]
            row[metric] = statistics.fmean(values) if values else None
        out[name] = row
    return out


def _cell(value: float | None, width: int, digits: int = 3) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def table(summary: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        f"{'system':<15} {'sec in pack':>11} {'doc recall':>10} {'all groups':>10} "
        f"{'units':>6} {'tokens':>7}"
    ]
    for name, row in summary.items():
        lines.append(
            f"{name:<15} {_cell(row['section_in_pack'], 11)} "
            f"{_cell(row['doc_recall_in_pack'], 10)} {_cell(row['all_groups_in_pack'], 10)} "
            f"{_cell(row['units'], 6, 1)} {_cell(row['tokens'], 7, 0)}"
        )
    return lines


def credo_notes(row: dict[str, Any]) -> str:
    pieces = row["pieces"]
    ok = f"{row['substring']}/{pieces} substrings, {row['in_lines']}/{pieces} in their lines"
    return (
        f"credo strategies {row['strategies']}; fidelity: {ok}; block bytes p50 "
        f"{row['block_bytes_p50']}, max {row['block_bytes_max']}; hook block (default "
        f"budget) p50 {row['hook_bytes_p50']}, max {row['hook_bytes_max']}"
    )
