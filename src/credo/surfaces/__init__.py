"""Surfaces: the command line, the MCP server, the Claude Code hook and its setup, and the one
renderer they share. They parse input, call ``Memory``, render and map errors; they run no
SQL and never import each other at module level (the CLI's own modules aside)."""
