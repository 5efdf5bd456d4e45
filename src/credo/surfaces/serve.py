"""The warm server: one long-lived process per store answers the hook over a Unix socket
(credo.surfaces.warm is the client and says where and how; docs/AGENT.md § Warm engine).

``credo serve`` runs it in the foreground; ``credo mcp`` starts the same listener in a
background thread beside the MCP protocol.

- **One store, kept open.** One ``Memory`` per process, opened once. It follows writes by
  other processes (every cache is keyed by SQLite's ``data_version``); a file *replaced*
  under it (a new inode or device) is seen by a ``stat`` before each request and reopened;
  a store a newer credo migrated retires the socket and ends ``credo serve``. A PostgreSQL store (a
  ``postgresql://`` location) is served the same way on one connection, without the warm
  index (store/warm.py reads SQLite): every request reads the server, which is what the
  hook saves is the process start and psycopg's import (~290 ms), not the queries.
- **The same handlers.** A request runs credo.surfaces.hook's own event handler on that
  ``Memory``, with the settings the hook would load (``.credo.toml`` from the payload's
  project folder, cached per folder while the file is unchanged) and the project's root;
  nothing here changes the process's folder. Work the hook leaves to a detached child
  (capture) runs on a worker thread after the reply.
- **Threads.** A thread per connection (at most ``MAX_CONNECTIONS``) reads and parses;
  every use of the store, a request's or a capture's, holds one lock (``Engine.lock``):
  SQLite connections, the store's caches and the settings bound to the ``Memory`` are
  used by one thread at a time. Hook work is milliseconds and mostly SQLite's, so a lock
  costs nothing a pool of connections would win back, and it keeps every cache single.
- **One owner per store.** Whoever holds ``<key>.lock`` (an ``flock``, released by the
  kernel when its process dies, however it dies) owns the socket: a socket file found by a
  new owner is stale by definition, removed and bound again. A second server for the same
  store (two Claude Code sessions in one project: two MCP servers) does not bind; it
  waits on the lock in a background thread and takes over when the owner exits. Between
  the two, a hook finds nobody (or a socket nobody accepts on) and takes the direct path.
- **Surfaces stand alone** (tests/test_architecture.py): the hook's handlers and the
  socket's client side are imported inside the functions that use them.
- **Never in the way.** A request that is malformed, too big, for another store, from a hook
  with other settings or other credo code (an upgrade of this one on disk also retires it)
  is answered ``{"ok": false}`` (the hook falls back) and logged; another user's is closed.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from credo.errors import SchemaVersionError

if TYPE_CHECKING:
    from credo.config import PostgresUrl, Settings
    from credo.memory import Memory
    from credo.store.warm import Keeper

MAX_CONNECTIONS = 64  # beyond: closed at once (those hooks take the direct path)
CONNECTION_SECONDS = 2.0  # = warm.REPLY_SECONDS: what a client waits at most
LISTEN_BACKLOG = 64


class Refused(Exception):
    """A request the server will not answer: the hook falls back to the direct path."""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Engine:
    """The store one server answers for: one ``Memory``, one lock around every use of it."""

    def __init__(self, store: Path | PostgresUrl) -> None:
        from credo.config import PostgresUrl
        from credo.surfaces import warm

        # A PostgreSQL URL, or the file's resolved path; ``shown`` is what logs may print.
        self.postgres = isinstance(store, PostgresUrl)
        self.store: Path | PostgresUrl = store if self.postgres else Path(store).resolve()
        self.shown = store.redacted if isinstance(store, PostgresUrl) else str(self.store)
        self.lock = threading.Lock()
        self.env = _compared(warm.env_fingerprint(os.environ))
        self._memory: Memory | None = None
        self._identity: tuple[int, int] | None = None
        self._settings: dict[Path, tuple[object, Settings]] = {}
        self.reopened = 0  # how often a replaced (or broken) store was opened again
        self.keeper: Keeper | None = None  # the warm index's thread, from ``prepare``
        self.moved: str | None = None  # why not to serve: a newer credo migrated the store
        self.code = warm.settled_code_id()  # the credo this process runs (same_code)
        with self.lock:
            self.memory()

    def memory(self) -> Memory:
        """The open store, opened again when its file was replaced (hold ``lock``)."""
        from credo.surfaces import hook

        now = (0, 0) if isinstance(self.store, str) else _identity(self.store)
        if now is None:
            self.close()
            raise Refused(f"no store at {self.store}")
        if self._memory is not None and now == self._identity:
            return self._memory
        if self._memory is not None:
            self.reopened += 1
            hook.log(f"warm: {self.shown} was replaced; opened again")
        self.close()
        from credo.memory import Memory

        folder = Path.cwd() if isinstance(self.store, str) else self.store.parent  # per request
        memory = Memory(self.store, workdir=folder, source="hook")
        self._memory, self._identity = memory, now
        return memory

    def prepare(self) -> None:
        """Keep the store's warm index (credo/store/warm.py: every term's postings, the
        graph, per-version row caches) current from a thread of its own, starting now:
        ~0.6 s to read at 10k beliefs, tens of seconds at 1M, which a one-shot process never
        pays. Until it is in place, and after each write until it is read again, requests
        are answered from SQL, with the same output. (None on PostgreSQL: the module
        docstring.)"""
        from credo.store.warm import Keeper
        from credo.surfaces import hook

        if self.postgres:
            return
        if self.keeper is None:
            self.keeper = Keeper(
                self.lock,
                lambda: None if self._memory is None else self._memory.store,
                lambda said: hook.log(f"warm: {self.shown}: {said}"),
            )
        self.keeper.poke()

    def poke(self) -> None:
        """The store may have moved (a request or a capture ran): check the warm index."""
        if self.keeper is not None:
            self.keeper.poke()

    def drop(self) -> None:
        """Forget the open store after a failure: the next request opens it afresh."""
        if self._memory is not None:
            self.reopened += 1
        self.close()

    def close(self) -> None:
        if self._memory is not None:
            with contextlib.suppress(Exception):
                self._memory.close()
        self._memory, self._identity = None, None

    def settings(self, folder: Path) -> Settings:
        """``.credo.toml`` from ``folder`` up (what the hook loads), kept while unchanged."""
        from credo.config import CONFIG_FILE, find_upward, load_settings

        source = find_upward(folder, CONFIG_FILE)
        key: object = None
        if source is not None:
            st = os.stat(source)
            key = (str(source), st.st_ino, st.st_mtime_ns, st.st_size)
        cached = self._settings.get(folder)
        if cached is not None and cached[0] == key:
            return cached[1]
        settings = load_settings(folder)
        if len(self._settings) > 256:
            self._settings.clear()
        self._settings[folder] = (key, settings)
        return settings

    @contextlib.contextmanager
    def bound(self, folder: Path) -> Iterator[Memory]:
        """The store as the hook in ``folder`` would open it: its settings, and its folder
        (a store that keeps no root yet takes one from it; the caller holds ``lock``: the
        ``Memory`` is shared)."""
        memory = self.memory()
        # (a newer credo may have migrated it since: checked once for all the request reads)
        with memory.store.checked():
            settings = self.settings(folder)
            memory.settings, memory.workdir = settings, folder
            yield memory

    def answer(self, request: dict[str, Any]) -> tuple[str, Callable[[], None] | None]:
        """What the hook prints for ``request``, and the work for after the reply.

        Raises:
            Refused: the request is malformed, for another store or another environment,
                or the handler failed (logged; the hook then runs the direct path).
        """
        from credo.surfaces import hook

        self.same_code(request, hook.log)
        event, payload, cwd, db, env, inline = _fields(request)
        if _compared(env) != self.env:
            differ = sorted(set(env.items()) ^ set(self.env.items()))
            names = sorted({k for k, _ in differ} - {"CREDO_DB"})
            raise Refused(f"the hook's environment differs in {', '.join(names)}")
        folder = hook.project_dir(payload, cwd)
        store = hook.store_path(folder, db, cwd, env)
        if not self.serves(store):
            from credo.config import redact_url

            shown = redact_url(str(store))
            raise Refused(f"the hook reads {shown}, this server serves {self.shown}")
        try:
            payload = hook.check_payload(payload, event)
        except hook.HookSkip as skip:
            hook.log(f"skip {event}: {skip}")
            return "", None
        with self.lock:
            try:
                with self.bound(folder) as memory:
                    memory.deferred_writes = writes = []
                    try:
                        output, later = hook.HANDLERS[event](memory, payload)
                    finally:
                        memory.deferred_writes = None
                    later = hook.deferred_then(writes, later)
                    if later is not None and inline:
                        later(memory)
                        later = None
                output.encode("utf-8")  # what the hook writes; it must encode
            except hook.HookSkip as skip:
                hook.log(f"skip {event}: {skip}")
                return "", None
            except Refused:
                raise
            except Exception as exc:
                self._moved(exc, hook.log)
                self.drop()
                raise Refused(f"error {event}: {type(exc).__name__}: {exc}") from exc
        if later is None:
            return output, None
        job = later
        return output, lambda: self._later(folder, job)

    def _moved(self, exc: Exception, say: Callable[[str], None]) -> None:
        """Note a store this code may no longer serve (its schema is newer): said once."""
        if isinstance(exc, SchemaVersionError) and self.moved is None:
            self.moved = " ".join(str(exc).split())
            say(f"warm: stops serving: {self.moved}")

    def same_code(self, request: object, say: Callable[[str], None]) -> None:
        """Refuse (``Refused``) a hook that runs other credo code (AGENT.md § Upgrades); if
        this server's own code changed on disk since it started, it is the older: it retires."""
        from credo.surfaces import warm

        if not isinstance(request, dict) or request.get("code") == self.code:
            return  # (not an object: _fields says why)
        now = warm.code_now()
        if now != self.code and self.moved is None:
            self.moved = (
                f"credo's code changed on disk since this process started ({self.code} -> "
                f"{now}): restart this process to serve {self.shown}"
            )
            say(f"warm: stops serving: {self.moved}")
        if request.get("v") == warm.PROTOCOL:  # an older protocol: _fields refuses it
            code = str(request.get("code"))[:60]
            raise Refused(f"the hook runs credo {code}, this server {self.code}")

    def serves(self, store: Path | PostgresUrl) -> bool:
        """Whether a hook reading ``store`` reads this server's store: the same resolved
        file, or a URL with the same socket key (the same server and database, whatever
        the password)."""
        from credo.surfaces import warm

        if isinstance(store, str) or isinstance(self.store, str):
            both = isinstance(store, str) and isinstance(self.store, str)
            return both and warm.store_key(str(store)) == warm.store_key(str(self.store))
        return store.resolve() == self.store

    def _later(self, folder: Path, job: Callable[[Memory], None]) -> None:
        from credo.surfaces import hook

        with self.lock:
            try:
                with self.bound(folder) as memory:
                    job(memory)
            except Exception as exc:  # nobody to tell but the log
                self._moved(exc, hook.log)
                self.drop()
                hook.log(f"error after the hook (warm): {type(exc).__name__}: {exc}")


def _compared(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k != "CREDO_DB"}


def _fields(
    request: object,
) -> tuple[str, dict[str, Any], Path, str | None, dict[str, str], bool]:
    from credo.surfaces import hook, warm

    if not isinstance(request, dict):
        raise Refused(f"the request is a JSON {type(request).__name__}, not an object")
    if request.get("v") != warm.PROTOCOL:
        raise Refused(f"protocol version {str(request.get('v'))[:20]!r}, not {warm.PROTOCOL}")
    event, payload = request.get("event"), request.get("payload")
    cwd, db, env = request.get("cwd"), request.get("db"), request.get("env")
    if event not in hook.HANDLERS:
        raise Refused(f"unknown hook event {str(event)[:40]!r}")
    if not isinstance(payload, dict):
        raise Refused("the request has no payload object")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise Refused("the request has no absolute 'cwd'")
    if db is not None and not isinstance(db, str):
        raise Refused("'db' must be a string or null")
    if not isinstance(env, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise Refused("'env' must map names to strings")
    return event, payload, Path(cwd), db, env, request.get("inline") is True


class Listener:
    """The socket of one store: owned (bound, accepting) or standing by for the owner's
    lock. ``start`` never raises for a reason a hook could fall back from: it logs."""

    def __init__(self, engine: Engine) -> None:
        from credo.surfaces import warm

        self.engine = engine
        self.path = warm.socket_path(str(engine.store))
        self.lock_path = self.path.removesuffix(".sock") + ".lock"
        self.owner = False
        self.served = 0
        self.retired = threading.Event()  # stopped for good: the store moved past this code
        self._stop_once = threading.Lock()  # held by the one ``stop`` that runs
        self._stop = threading.Event()
        self._sock: socket.socket | None = None
        self._lock_fd: int | None = None
        self._bound: int | None = None  # the inode of the socket file it bound
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        from credo.surfaces.collector import Collector
        from credo.surfaces.worker import Worker

        self._worker = Worker()
        self.collector = Collector()
        self._threads: list[threading.Thread] = []

    # -- ownership -----------------------------------------------------------------------
    def start(self) -> bool:
        """Take the socket if nobody owns it (True), else stand by in a background thread
        and take it when the owner exits (False)."""
        from credo.surfaces import hook, warm

        if len(self.path.encode()) > warm.SOCKET_PATH_MAX:
            raise OSError(f"socket path {self.path} is too long for a Unix socket")
        folder = private_folder(warm.run_dir())
        fd = os.open(
            os.path.join(folder, os.path.basename(self.lock_path)),
            os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            0o600,
        )
        self._lock_fd = fd
        why = warm.owner_only(os.fstat(fd), kind=stat.S_IFREG)
        if why is not None:
            raise OSError(f"lock file {self.lock_path}: {why}")
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            hook.log(f"warm: {self.engine.shown} is served by another process; standing by")
            self._spawn(self._standby, "credo-warm-standby")
            return False
        self._own()
        return True

    def _standby(self) -> None:
        import fcntl

        from credo.surfaces import hook

        assert self._lock_fd is not None
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)  # until the owner exits
        except OSError:
            return  # this listener stopped (its lock file closed) while it waited
        if self._stop.is_set():
            return
        try:
            self._own()
        except OSError as exc:
            hook.log(f"warm: cannot take over {self.path}: {exc}")
            return
        hook.log(f"warm: took over {self.path} for {self.engine.shown}")
        self._accept()

    def _own(self) -> None:
        """Bind the socket (holding the lock: any file there is a dead owner's)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # stale: its owner died without cleaning up
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(self.path)
            os.chmod(self.path, 0o600)  # inside a 0700 folder: nobody else saw it before
            self._bound = os.lstat(self.path).st_ino
            sock.listen(LISTEN_BACKLOG)
            sock.settimeout(0.25)  # the accept loop checks for stop this often
        except OSError:
            sock.close()
            raise
        self._sock, self.owner = sock, True
        self._worker.submit(self.engine.prepare)  # a standby prepares when it takes over

    # -- serving -------------------------------------------------------------------------
    def serve_in_background(self) -> None:
        if self.owner:
            self._spawn(self._accept, "credo-warm-accept")

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _accept(self) -> None:
        sock = self._sock
        assert sock is not None
        while not self._stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._stop.is_set():
                    return
                time.sleep(0.05)
                continue
            if not self._slots.acquire(blocking=False):
                conn.close()  # too many at once: that hook takes the direct path
                continue
            threading.Thread(target=self._serve_one, args=(conn,), daemon=True).start()

    def _serve_one(self, conn: socket.socket) -> None:
        from credo.surfaces import hook, warm

        try:
            with conn:
                conn.settimeout(CONNECTION_SECONDS)
                uid = warm.peer_uid(conn)  # pyright: ignore[reportArgumentType]
                if uid is not None and uid != warm.current_uid():
                    hook.log(f"warm: refused a connection from uid {uid}")
                    return
                raw = _read(conn)  # (the client's bytes are waited for with the collector free)
                with self.collector.paused():
                    reply, later = self._reply(raw)
                    with contextlib.suppress(OSError):
                        conn.sendall(reply)
            if later is not None:
                self._worker.submit(later)
            self._worker.submit(self.engine.poke)  # after the capture, if any
            self._worker.submit(self._retire_if_moved)
        except Exception as exc:  # a connection never takes the server down
            hook.log(f"warm: connection failed: {type(exc).__name__}: {exc}")
        finally:
            self._slots.release()

    def _reply(self, raw: bytes | None) -> tuple[bytes, Callable[[], None] | None]:
        from credo.surfaces import hook, warm

        later = None
        try:
            if raw is None:
                raise Refused(f"request over {warm.MAX_REQUEST_BYTES} bytes or too slow")
            try:
                request = json.loads(raw.decode("utf-8", errors="strict"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise Refused(f"the request is not JSON ({type(exc).__name__})") from None
            started = time.perf_counter()
            output, later = self.engine.answer(request)
            self.served += 1
            if os.environ.get("CREDO_HOOK_TRACE"):
                elapsed = (time.perf_counter() - started) * 1000
                hook.log(f"warm ok {request['event']}: {len(output)} chars in {elapsed:.1f} ms")
            reply: dict[str, Any] = {"ok": True, "output": output}
        except Refused as refused:
            hook.log(f"warm: refused: {refused}")
            reply = {"ok": False, "error": str(refused)[:500]}
        return json.dumps(reply).encode("ascii"), later

    def _retire_if_moved(self) -> None:
        """A store a newer credo migrated: the socket goes, ``credo serve`` exits."""
        if self.engine.moved is not None and not self._stop.is_set():
            self._stop.set()  # no new connections; ``stop`` joins this worker: a thread
            self._spawn(lambda: (self.stop(), self.retired.set()), "credo-warm-retire")

    def stop(self) -> None:
        """Stop accepting, remove the socket if it is still ours, let the lock go (once)."""
        if not self._stop_once.acquire(blocking=False):
            return  # stopped already, or stopping on another thread (a retirement)
        self._stop.set()
        if self._sock is not None:
            with contextlib.suppress(OSError):
                if os.lstat(self.path).st_ino == self._bound:  # still the file it bound
                    os.unlink(self.path)
            self._sock.close()
        self._worker.stop()
        if self.engine.keeper is not None:
            self.engine.keeper.stop()
        with self.engine.lock:
            self.engine.close()
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)  # releases the flock: a standby takes over


def _read(conn: socket.socket) -> bytes | None:
    """The request, up to the client's end of sending; ``None`` when it is too big."""
    from credo.surfaces import warm

    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > warm.MAX_REQUEST_BYTES:
            return None
        chunks.append(chunk)


def private_folder(path: str) -> str:
    """``path`` made (mode 0700) if missing, and checked: this user's, a real folder, no
    access for anyone else (a mode that lets others in is narrowed; a folder of another
    user's is refused: ``OSError``)."""
    from credo.surfaces import warm

    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != warm.current_uid():
        raise OSError(f"{path}: {warm.owner_only(st, kind=stat.S_IFDIR)}; not served")
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def start(store: Path | PostgresUrl) -> Listener:
    """Open ``store`` and listen for it in background threads (owner or standby).

    Raises:
        OSError: the socket folder or lock cannot be used (another user's, too long a path).
        CredoError: the store cannot be opened.
    """
    listener = Listener(Engine(store))
    if listener.start():
        listener.serve_in_background()
    return listener


def start_quietly(store: Path | PostgresUrl) -> Listener | None:
    """``start`` for the MCP server: a listener that cannot start is logged, not raised
    (the hooks take the direct path, the MCP tools work as before)."""
    from credo.surfaces import hook, warm

    if warm.turned_off():
        return None
    if not hasattr(socket, "AF_UNIX"):
        return None
    try:
        return start(store)
    except Exception as exc:
        hook.log(f"warm: not serving {store}: {type(exc).__name__}: {exc}")
        return None


def serve_forever(store: Path | PostgresUrl, say: Callable[[str], None]) -> None:
    """``credo serve``: serve ``store`` until SIGINT or SIGTERM, or until a newer credo
    migrates it (then ``SchemaVersionError``: the CLI says restart, exit 1)."""
    import signal

    listener = start(store)
    if listener.owner:
        say(f"serving {listener.engine.shown} on {listener.path}")
    else:
        say(
            f"another process serves {listener.engine.shown} on {listener.path}; "
            "standing by to take over when it exits"
        )
    done = threading.Event()

    def _stop(_signum: int, _frame: object) -> None:
        done.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        while not done.wait(0.5) and not listener.retired.is_set():
            pass
    finally:
        listener.stop()
        say(f"stopped after {listener.served} answers")
    if listener.engine.moved is not None:  # a newer schema, or newer code on disk
        raise SchemaVersionError(listener.engine.moved)
