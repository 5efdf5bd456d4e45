"""A regex compiled on its first use, for the capture patterns only a rare sentence needs.

Every hook worker imports capture afresh, and compiling a long pattern costs more than most
sentences' reading (days86: four widened patterns made the import 2.35% dearer). A pattern
whose every branch needs a word ("decided", "mind", a role noun) is compiled the first time a
sentence holds that word; before that, a search without the word cannot match, so the answer
(None) is the compiled pattern's own.
"""

from __future__ import annotations

import re

__all__ = ["LazyPattern"]


class LazyPattern:
    """``re.compile(source, flags)``, compiled on the first search that can match. ``gate``:
    substrings one of which every match holds; a text with none of them is not searched (and
    does not compile the pattern)."""

    def __init__(self, source: str, flags: int = 0, gate: tuple[str, ...] = ()) -> None:
        self.pattern = source
        self.flags = flags
        self.gate = gate
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def _closed(self, text: str) -> bool:
        return bool(self.gate) and not any(token in text for token in self.gate)

    def search(self, text: str) -> re.Match[str] | None:
        """``compiled.search(text)``, None without a gate word."""
        return None if self._closed(text) else self.compiled.search(text)

    def match(self, text: str) -> re.Match[str] | None:
        """``compiled.match(text)``, None without a gate word."""
        return None if self._closed(text) else self.compiled.match(text)

    def sub(self, repl: str, text: str) -> str:
        """``compiled.sub(repl, text)``; ``text`` itself without a gate word."""
        return text if self._closed(text) else self.compiled.sub(repl, text)
