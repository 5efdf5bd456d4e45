"""A document path typed on the command line, read the way the shell reads it.

The store keeps its paths relative to its own root (`credo.knowledge.root`), which need not
be the current folder: ``credo link ID docs/a.md`` typed in ``proj/`` means ``proj/docs/a.md``
when the store's root is above it. A relative path that names an existing file or folder
from the current folder is made absolute here (the store then makes it relative to its
root); any other text (a URL, an absolute path, a path as credo prints it whose file is gone)
is passed on as typed and read against the root, as the API reads it."""

from __future__ import annotations

import os
import re

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def from_here(raw: str) -> str:
    """``raw`` with a relative path that exists from the current folder made absolute (its
    ``#`` fragment and a folder's trailing ``/`` kept)."""
    text = raw.strip()
    base, sep, fragment = text.partition("#")
    if not base or _SCHEME.match(base) or os.path.isabs(os.path.expanduser(base)):
        return raw
    if not os.path.lexists(base):
        return raw
    absolute = os.path.abspath(base) + ("/" if base.endswith("/") else "")
    return absolute + sep + fragment
