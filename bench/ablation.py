"""``--lanes-off LANE[,LANE...]`` for the benches that call ``Memory.retrieve`` with its
defaults: the named lanes are switched off in ``credo.retrieval.pipeline.DEFAULT_LANES`` for the
run, as the LoCoMo bench's ``--retrieve-kwargs '{"lanes": {...}}'`` does per call."""

from __future__ import annotations

import argparse

from credo.retrieval import pipeline as retrieval
from credo.retrieval.lanes import LANES


def add_lanes_off(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lanes-off",
        default="",
        metavar="LANE[,LANE]",
        help=f"switch these default lanes off for an ablation ({', '.join(LANES)})",
    )


def apply_lanes_off(value: str) -> list[str]:
    """Switch the named lanes off; returns them. An unknown name is an error."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = sorted(set(names) - set(LANES))
    if unknown:
        raise SystemExit(f"unknown lane {unknown[0]!r}; lanes are {', '.join(LANES)}")
    for name in names:
        retrieval.DEFAULT_LANES[name] = False
    return names
