"""docutils imported without Pygments, which credo never needs, for `split_rst`.

docutils' reStructuredText parser imports its code analyser, and the analyser imports
Pygments (for syntax highlighting) at once: about 80M instructions, as much as the rest of
docutils, in every process that splits an ``.rst`` file. credo parses with highlighting
off (`rst_parse`: ``syntax_highlight = "none"``), so the analyser never lexes: it is
imported with Pygments hidden, then given lazy stand-ins for the three names it takes
from Pygments, so that any other docutils user in the process still highlights code
(Pygments loads on its first lexer).
"""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import Any

_ANALYZER = "docutils.utils.code_analyzer"
# The attribute of an inline node that holds a role's explicit target (`rst_parse`
# writes it, `split_rst` puts it in the chunk's context): here, where both can read it
# without loading docutils.
TARGET = "credo-target"


def rst_parse() -> ModuleType:
    """`credo.knowledge.chunk.rst_parse`, docutils loaded as the module docstring says."""
    if _ANALYZER not in sys.modules and "pygments" not in sys.modules:
        _import_analyzer()
    return import_module("credo.knowledge.chunk.rst_parse")


def _import_analyzer() -> None:
    sys.modules["pygments"] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        analyzer: Any = import_module(_ANALYZER)
    finally:
        del sys.modules["pygments"]
    if analyzer.with_pygments or find_spec("pygments") is None:
        return  # (Pygments absent: the analyser is as docutils would leave it)
    analyzer.pygments = _LazyPygments()
    analyzer.get_lexer_by_name = _get_lexer_by_name
    analyzer._get_ttype_class = _get_ttype_class
    analyzer.with_pygments = True


class _LazyPygments:
    """The ``pygments`` package, imported on first use (the analyser reads ``util``)."""

    def __getattr__(self, name: str) -> Any:
        import_module("pygments.util")
        return getattr(import_module("pygments"), name)


def _get_lexer_by_name(*args: Any, **kwargs: Any) -> Any:
    return import_module("pygments.lexers").get_lexer_by_name(*args, **kwargs)


def _get_ttype_class(*args: Any) -> Any:
    return import_module("pygments.formatters.html")._get_ttype_class(*args)
