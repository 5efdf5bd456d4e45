"""Where a root kept relative to a store file points, and whether it is still the project's.

Shared by the root's keeper (knowledge/root.py) and ``credo migrate`` (store/transfer.py),
which sit on either side of the store layer's line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credo.store.protocol import Store

# The relative paths a store made before is probed with (the first, in the ledger's order):
# enough to out-vote a folder that holds a few files of the same names by chance.
PROBE = 64


def beside(location: Path, relative: str) -> Path:
    """The folder a relative kept root names from the store file at ``location``."""
    return (location.resolve().parent / relative).resolve()


def holds_ledger(store: Store, folder: Path) -> bool:
    """Whether ``folder`` holds one of the ledger's first relative paths (True for a ledger
    with none: nothing says otherwise). One ``lstat`` in the usual case. False: the store
    file was moved out of its project, and a relative root no longer names it."""
    paths = store.relative_file_paths(PROBE)
    return not paths or any(os.path.lexists(folder / p) for p in paths)
