"""A value told anew (knowledge/replace.py rule 7): "port's 6380 now", "ken owns the
scheduler now". The statement names the new value and the setting (or the part owned), not
the old value, so what it replaces is the belief giving that setting another value. Capture
marks such a statement by its signal (``value_now``: knowledge/changeover.py; ``owner_now``:
knowledge/evidence.py); these read the setting and the value back, and the value a stored
belief gives it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credo.knowledge.replace import Statement

__all__ = ["OWNER_NOW", "VALUE_NOW", "holds_other_value", "owned", "owner_anew", "told_anew"]

VALUE_NOW = "value_now"
OWNER_NOW = "owner_now"


def told_anew(statement: Statement) -> tuple[str, str] | None:
    """(the setting, its new value) of a statement telling a value anew."""
    if VALUE_NOW not in statement.signals:
        return None
    from credo.knowledge.changeover import value_told_anew  # (the capture worker's, not the hook's)
    from credo.knowledge.lead_in import lead_in

    return value_told_anew(lead_in(" ".join(statement.text.lower().split())))


def _shape(value: str) -> bool:
    """A value's shape: a number ("6380", "30s", "1.64") or a name ("v2", "cache-2")."""
    return value[:1].isdigit()


def holds_other_value(content: str, setting: str, value: str) -> bool:
    """Whether ``content`` gives ``setting`` a value other than ``value`` of its shape ("on
    port 6379", "job_timeout=600": the setting's word, then within a word a value with a
    digit) and never ``value`` itself ("the version is 3 now" renames no "version v2":
    review88)."""
    lower = content.lower()
    if re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", lower):
        return False  # it holds the new value: it agrees
    held = re.finditer(
        rf"(?<![a-z0-9]){re.escape(setting)}s?\b\W{{1,3}}(?:[a-z]+\W{{1,3}})?"
        r"(?P<v>[\w.:/-]*\d[\w.:/-]*)",
        lower,
    )
    shape = _shape(value)
    return any(
        (old := found["v"].rstrip(".:/-")) != value and _shape(old) == shape for found in held
    )


@cache
def _owns() -> re.Pattern[str]:
    """Compiled on first use: the prompt hook imports replace.py for its words alone."""
    return re.compile(r"^\W*(\w+)\s+owns\s+(?:the|our)\s+(.+)", re.IGNORECASE)


def owned(text: str) -> tuple[str, str] | None:
    """(the owner, lower-cased; the part owned) of a text opening "<name> owns the <part>"."""
    if "owns" not in text.lower():
        return None
    found = _owns().match(text)
    return (found[1].lower(), found[2]) if found else None


def owner_anew(statement: Statement) -> tuple[str, str] | None:
    """(the new owner, the part owned) of a statement telling a new owner."""
    return owned(statement.text) if OWNER_NOW in statement.signals else None
