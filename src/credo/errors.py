"""The one exception hierarchy of credo.

Every message names the offending value and what to do about it, so it is safe to show
verbatim to a person (the CLI prints it on one line) or to a model (the MCP server returns
it as a tool error).
"""

from __future__ import annotations


class CredoError(Exception):
    """Base class of every error credo raises on purpose."""


class InvalidInputError(CredoError, ValueError):
    """The caller passed a value credo cannot accept (empty text, unknown edge type...)."""


class NotFoundError(CredoError, KeyError):
    """A belief (or other object) the caller named does not exist."""

    def __str__(self) -> str:  # KeyError would repr() the message; keep it readable.
        return str(self.args[0]) if self.args else ""


class AnchorNotFoundError(NotFoundError):
    """An unlink named an anchor the belief does not have (the belief itself exists)."""


class ConflictError(CredoError):
    """The write contradicts what is stored (an id reused for other text, a duplicate edge)."""


class LockedError(ConflictError):
    """The write would retire a locked belief (user ground truth) without the user: a lock is
    superseded only by a locked belief or with the user's explicit ``--force``."""


class SchemaVersionError(CredoError):
    """The database was written by a newer credo; it is refused and left untouched."""


class StoreError(CredoError):
    """The database file cannot be opened or used (corrupt, unreadable, locked too long)."""


class RecordsError(InvalidInputError):
    """A records (JSONL) file is malformed; the message carries the line number."""


class SetupError(CredoError):
    """An agent client cannot be wired to credo as asked (the MCP server it would register
    does not start); the message says how to fix it, and nothing was written."""
