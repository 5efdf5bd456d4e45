"""A tool call's argument errors as one line a model can act on.

The SDK reports arguments that fail its schema with pydantic's own report: several lines
per error, the model class's name and a documentation link each ("2 validation errors for
search_memoryArguments ... For further information visit ..."). A model mistyping
``querry`` needs to read which argument is unknown, which is missing, and what the tool
takes, on one line, as every other credo error reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

_SHOWN_CHARS = 40  # of a rejected value: enough to recognise it, never the caller's whole text


def argument_error(tool: str, error: ValidationError, parameters: Iterable[str]) -> str:
    """``error`` (the SDK's validation of ``tool``'s arguments) as one line, naming what the
    tool takes when an argument is unknown or missing."""
    unknown: list[str] = []
    missing: list[str] = []
    wrong: list[str] = []
    for detail in error.errors(include_url=False):
        name = ".".join(str(part) for part in detail["loc"]) or "arguments"
        if detail["type"] == "extra_forbidden":
            unknown.append(repr(name))
        elif detail["type"] == "missing":
            missing.append(repr(name))
        else:
            wrong.append(f"{name}: {_message(detail)}")
    parts = []
    if unknown:
        parts.append(f"unknown argument{'s' * (len(unknown) > 1)} {', '.join(unknown)}")
    if missing:
        parts.append(f"missing argument{'s' * (len(missing) > 1)} {', '.join(missing)}")
    parts.extend(wrong)
    line = f"{tool}: {'; '.join(parts)}"
    if unknown or missing:
        line += f" ({tool} takes {', '.join(parameters) or 'no arguments'})"
    return " ".join(line.split())


def _message(detail: Any) -> str:
    shown = repr(detail.get("input"))
    if len(shown) > _SHOWN_CHARS:
        shown = shown[: _SHOWN_CHARS - 1] + "…"
    return f"{detail['msg']} (got {shown})"
