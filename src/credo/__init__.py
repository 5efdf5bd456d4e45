"""credo: a local-first memory engine for AI agents.

``from credo import Memory`` is the public entry point; ``Memory(path)`` opens or creates a
store. Heavy parts (numpy lanes, the MCP server) load lazily so the hook starts fast.
"""

# Not ``typing.TYPE_CHECKING``: importing ``typing`` (with re, enum, functools behind it)
# costs ~10 ms, and the hook's warm path imports this package and little else.
TYPE_CHECKING = False

__version__ = "0.1.0"

__all__ = ["Memory", "__version__"]

if TYPE_CHECKING:
    from typing import Any

    from credo.memory import Memory


def __getattr__(name: str) -> "Any":
    if name == "Memory":
        from credo.memory import Memory

        return Memory
    raise AttributeError(f"module 'credo' has no attribute {name!r}")
