"""The user-global store: one credo store per user (``global.db`` in the per-user data folder)
for personal rules such as "never force-push". Its LOCKS join every project's locks in
retrieval, after the project's own, marked ``global`` (docs/AGENT.md § The global store).

- Where: env ``CREDO_GLOBAL_DB`` (a path; ``off``, ``0`` or ``none`` turns the store off),
  else ``config.user_data_dir() / "global.db"``.
- Reads are cheap and never write: no file, no open; otherwise one read-only connection per
  ``Memory`` that re-reads the locks only when the file changed (``store.locks``). Reading
  never creates or migrates the file; ``open_global`` (the write commands) does.
- Only locked global beliefs join; its other beliefs stay in the global store. A rule
  locked in a project too (same id or same text) is shown once, as the project's.
"""

from __future__ import annotations

import functools
import os
import sys
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from credo.config import user_data_dir
from credo.errors import InvalidInputError, NotFoundError, StoreError
from credo.store.locks import LockReader
from credo.types import GLOBAL_SCOPE

if TYPE_CHECKING:
    from credo.memory import Memory
    from credo.types import Belief

ENV = "CREDO_GLOBAL_DB"
FILE = "global.db"
_OFF = {"off", "0", "none", "false", "no"}


def global_path() -> Path | None:
    """The global store's file, or ``None`` when ``CREDO_GLOBAL_DB`` turns it off."""
    return _path_of(_settings())


def _settings() -> tuple[str | None, ...]:
    """What the global store's path is made from: ``CREDO_GLOBAL_DB`` and the folder
    settings (every retrieve asks: a setting that is not there costs ~0.6 us to ask)."""
    get = os.environ.get
    return (get(ENV), *map(get, _FOLDER_SETTINGS))


def _path_of(settings: tuple[str | None, ...]) -> Path | None:
    raw = settings[0] or ""
    if raw.strip() and not raw.lstrip().startswith("~"):  # a file or "off": no folder read
        return _path_for(raw)
    # The folder settings key the cache: the default's folder, or the home a "~" path
    # expands to.
    return _path_for(raw, *settings[1:])


# What ``config.user_data_dir`` reads on this platform (``Path.home()``: HOME on POSIX,
# USERPROFILE or HOMEDRIVE and HOMEPATH on Windows): the cache key of a resolved path.
_FOLDER_SETTINGS = {
    "win32": ("LOCALAPPDATA", "USERPROFILE", "HOMEDRIVE", "HOMEPATH"),
    "darwin": ("HOME",),
}.get(sys.platform, ("XDG_DATA_HOME", "HOME"))


@functools.lru_cache(maxsize=8)
def _path_for(raw: str, *_folders: str | None) -> Path | None:
    """``global_path`` for these settings: every retrieve asks, and building the path costs
    more than the lock read it leads to."""
    raw = raw.strip()
    if raw.lower() in _OFF:
        return None
    return Path(raw).expanduser() if raw else user_data_dir() / FILE


def open_global(*, create: bool = True, source: str = "api") -> Memory:
    """The global store as a ``Memory``, for writes (``remember``, ``lock``, ``forget``).
    Opening it creates the file (``create``) and migrates it, as any store open does.

    Raises:
        InvalidInputError: the store is off (``CREDO_GLOBAL_DB=off``).
        NotFoundError: ``create=False`` and there is no global store yet.
    """
    path = global_path()
    if path is None:
        raise InvalidInputError(
            f"the global store is off ({ENV}={os.environ.get(ENV, '')!r}); "
            f"unset {ENV} or set it to a file path"
        )
    if not create and not path.is_file():
        raise NotFoundError(f"no global store at {path}; `credo remember --global TEXT` creates it")
    from credo.memory import Memory  # a peer module: imported when a write needs it

    return Memory(path, root=path.parent, source=source)


def open_project(
    path: str | os.PathLike[str] | None,
    *,
    source: str = "api",
    create: bool = False,
    or_global: bool = False,
) -> Memory:
    """The project's store at ``path`` (``Memory(path, create=create)``): a read of a missing
    one (a mistyped ``--db``) is a ``NotFoundError``, not a new empty store. With
    ``or_global`` (a search, a forget by id: reads the global store joins), a project with
    no store yet gets an empty store in memory when the global store exists, so its locks
    are still searched and forgotten, as in the hook's block, and nothing is created (the
    CLI asks it only when no ``--db`` was typed: a store named there is one the user means).

    Raises:
        NotFoundError: no store at ``path`` (and, with ``or_global``, no global store).
    """
    from credo.memory import Memory  # a peer module: imported when a command needs it

    try:
        return Memory(path, source=source, create=create)
    except NotFoundError:
        if not (or_global and has_global_store()):
            raise
        return Memory(":memory:", source=source)


def has_global_store() -> bool:
    """Whether the user-global store is on and its file exists."""
    path = global_path()
    return path is not None and path.is_file()


class _Cached:
    __slots__ = ("path", "reader", "settings")

    def __init__(
        self, settings: tuple[str | None, ...], path: Path, reader: LockReader | None
    ) -> None:
        self.settings = settings  # (``_settings``: what ``path`` was made from)
        self.path = path
        self.reader = reader  # None: this Memory's own store is the global file


# One reader per Memory, dropped with it (or by ``release`` when it closes).
_READERS: weakref.WeakKeyDictionary[Memory, _Cached] = weakref.WeakKeyDictionary()


def global_locks(memory: Memory) -> tuple[Belief, ...]:
    """The global store's current locks, in placement order (created_at, id); ``()`` when
    the store is off or missing, or when ``memory`` is the global store itself (its locks
    are its own). The pipeline dedupes them against the project's (``pipeline.Options``).

    Raises:
        StoreError: the file exists but cannot be read (the message names the way out).
    """
    settings = _settings()
    cached = _READERS.get(memory)
    # (the same settings as the last call's: the same path, without making it again)
    if cached is None or cached.settings != settings:
        path = _path_of(settings)
        if path is None:
            release(memory)
            return ()
        if cached is None or cached.path != path:
            release(memory)
            reader = None if _same_file(memory.path, path) else LockReader(path)
            cached = _Cached(settings, path, reader)
        else:
            cached.settings = settings
        _READERS[memory] = cached
    if cached.reader is None:
        return ()
    try:
        return cached.reader.locks()
    except StoreError as exc:
        raise StoreError(f"global store: {exc}; fix or move the file, or set {ENV}=off") from exc


def release(memory: Memory) -> None:
    """Close ``memory``'s read-only connection to the global store, if it has one."""
    cached = _READERS.pop(memory, None)
    if cached is not None and cached.reader is not None:
        cached.reader.close()


def forget(memory: Memory, belief_id: str, *, hard: bool = False) -> tuple[str, str]:
    """Forget ``belief_id`` (whole, or the short form a block shows) where it is: in
    ``memory``'s store, else (when the id is not there) in the global store. Returns where
    it was forgotten (``"project"`` or ``"global"``) and the whole id. An id in neither
    raises the project's ``NotFoundError``."""
    try:
        full = memory.get(belief_id).id
        memory.forget(full, hard=hard)
        return "project", full
    except NotFoundError:
        path = global_path()
        if path is None or not path.is_file() or _same_file(memory.path, path):
            raise
        with open_global(create=False, source=memory.source) as other:
            full = other.full_id(belief_id)
            if other.store.get_belief(full) is None:
                raise
            other.forget(full, hard=hard)
    return GLOBAL_SCOPE, full


def forget_naming_current(
    memory: Memory, belief_id: str, *, hard: bool = False, here: bool = False
) -> tuple[str, str, list[str]]:
    """`forget` (with ``here``: in ``memory``'s own store, wherever it is), and the beliefs
    the forgotten one alone superseded, which are current again
    (`credo.knowledge.supersession.current_again`)."""
    from credo.knowledge.supersession import current_again

    if here:
        full = memory.get(belief_id).id
        again = current_again(memory.store, full)
        memory.forget(full, hard=hard)
        return "project", full, again
    try:
        full = memory.get(belief_id).id
    except NotFoundError:
        where, full = forget(memory, belief_id, hard=hard)  # (the global store's: not named)
        return where, full, []
    again = current_again(memory.store, full)
    where, full = forget(memory, full, hard=hard)
    return where, full, again


def _same_file(store: Path | str, path: Path) -> bool:
    if not isinstance(store, Path) or str(store) == ":memory:":  # a PostgreSQL store
        return False
    try:
        return store.resolve() == path.resolve() or (
            path.exists() and store.exists() and os.path.samefile(store, path)
        )
    except OSError:
        return False
