"""The agent's day on top of ``Memory``: what the hooks capture from the user's words, what
they inject and log, what they feed back, and the user-global store (docs/AGENT.md).

A peer of ``memory.py`` in the layering: it composes ``Memory`` with ``knowledge`` and
``retrieval``, and the surfaces (hook, CLI, MCP) call it.
"""
