"""The warm path of the hook: where a store's warm server listens, whether that socket can be
trusted, and the tiny client the installed hook asks first (docs/AGENT.md § Warm engine).

Claude Code starts the hook in a fresh interpreter for every event, and the direct path
(open the store, retrieve, render) costs that process its imports and a cold page cache. A
long-lived process that keeps the store open (``credo serve``, or the MCP server Claude Code
starts, credo.surfaces.serve) answers the same event over a Unix domain socket instead; the
hook only reads stdin, asks, and prints the answer. When nobody answers (no server, a dead
or hung one, a socket it must not trust, a server for another store or with other settings)
it runs the direct path exactly as before, so the output is the same either way.

This module is the client's whole import: the standard library's C parts (``_socket``,
``_json``) and ``os``, nothing of the engine. ``json``, ``socket`` and ``pathlib`` are left
out on purpose: with ``re`` and ``enum`` behind them they cost more than the answer
(~15 ms of a ~13 ms interpreter start-up).

Where: ``$XDG_RUNTIME_DIR/credo`` (else ``~/.cache/credo/run``), a folder of this user's
with mode 0700; the socket is ``<first 24 hex of sha256(store key)>.sock``, mode 0600. The
key of a SQLite store is its resolved path; of a PostgreSQL store, its URL without the
password, with the libpq variables (``PG*``, PGPASSWORD aside) that also pick the server:
a hook whose URL or libpq settings name another server finds no socket. The store is found
as the engine finds it (``--db``, ``CREDO_DB``, ``[store] location`` of the nearest
``.credo.toml``, the git work tree's, the user's), so a hook on a PostgreSQL store never
imports psycopg while a server answers.

Trust: the folder and the socket must belong to this user and give nobody else any access,
and on Linux the process at the other end must run as this user too (``SO_PEERCRED``).
Anything else and the client does not connect.

Protocol: one JSON request per connection, ``{"v": 2, "code": ..., "event": ...,
"payload": {...}, "cwd": ..., "db": ..., "env": {...}, "inline": ...}``, then the client
shuts its side;
one JSON reply ``{"ok": true, "output": "..."}`` (or ``{"ok": false, "error": ...}``:
the client falls back). ``env`` carries the variables that change what a hook prints
(``CREDO_*`` settings, the global store, ``HOME`` and ``XDG_DATA_HOME``); the server
refuses a request whose variables differ from its own, and one whose ``code`` (``code_id``:
the credo that runs the hook) is not its own: after an upgrade, a server started by the
older credo never answers the newer hook (nor an older hook a newer server).
"""

import os
import sys

try:  # the C halves of socket and json: no re, no enum
    import _json
    import _socket
except ImportError:  # an interpreter without them: the direct path always
    _json = None  # type: ignore[assignment]
    _socket = None  # type: ignore[assignment]

PROTOCOL = 2  # 2: the request carries ``code`` (a server of protocol 1 refuses it at once)
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024  # = credo.surfaces.hook.MAX_PAYLOAD_BYTES
MAX_REQUEST_BYTES = MAX_PAYLOAD_BYTES + 64 * 1024  # the payload, its envelope
MAX_REPLY_BYTES = 2 * MAX_PAYLOAD_BYTES  # a subagent's updatedInput carries its prompt back
CONNECT_SECONDS = 0.01  # a live server accepts at once; a full backlog is as good as none
REPLY_SECONDS = 2.0  # once accepted, the longest the hook waits for the answer
# Variables whose value changes a hook's output, compared by the server with its own.
ENV_PREFIX = "CREDO_"
ENV_NAMES = ("HOME", "XDG_DATA_HOME")
# CREDO_ variables that change where things go, not what is printed (CREDO_DB is resolved
# by the server from the request, not compared: `credo serve --db` serves the same file).
ENV_IGNORED = frozenset(
    {"CREDO_HOOK_LOG", "CREDO_HOOK_TRACE", "CREDO_HOOK_INLINE", "CREDO_WARM", "CREDO_DEBUG"}
)
HOOK_EVENTS = ("prompt", "session-start", "stop", "subagent")  # = credo.surfaces.hook.EVENTS
SOCKET_PATH_MAX = 104  # sun_path: 108 bytes on Linux, 104 on macOS
# The package's folders (tests/test_warm_version.py keeps the list whole): ``code_id``.
CODE_FOLDERS = (
    "",
    "agent",
    "knowledge",
    "knowledge/chunk",
    "knowledge/ingest",
    "retrieval",
    "retrieval/lanes",
    "store",
    "store/postgres",
    "surfaces",
    "surfaces/cli",
)


def current_uid() -> int:
    """This process's user (a seam: tests stand in another user's id)."""
    return os.getuid()


# -- where ---------------------------------------------------------------------------------
def run_dir() -> str:
    """``$XDG_RUNTIME_DIR/credo``, else ``~/.cache/credo/run`` (``$XDG_CACHE_HOME`` too)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if runtime and os.path.isabs(runtime):
        return os.path.join(runtime, "credo")
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    return os.path.join(cache, "credo", "run")


POSTGRES_PREFIXES = ("postgresql://", "postgres://")  # = credo.config.POSTGRES_SCHEMES
CONFIG_FILE = ".credo.toml"  # = credo.config.CONFIG_FILE


def is_postgres(location: str) -> bool:
    """Whether a store location is a PostgreSQL URL (credo.config.parse_location's test)."""
    return location.strip()[:13].lower().startswith(POSTGRES_PREFIXES)


def without_password(url: str) -> str:
    """``url`` with no password: none in its user part, no ``password=`` parameter."""
    scheme, _, rest = url.strip().partition("://")
    ends = [i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0]
    end = min(ends) if ends else len(rest)
    authority, tail = rest[:end], rest[end:]
    if "@" in authority:
        user, _, host = authority.rpartition("@")
        authority = user.partition(":")[0] + "@" + host
    path, mark, query = tail.partition("?")
    if mark:
        query, hash_mark, fragment = query.partition("#")
        kept = [p for p in query.split("&") if p.partition("=")[0].lower() != "password"]
        tail = path + ("?" + "&".join(kept) if kept else "") + hash_mark + fragment
    return scheme.lower() + "://" + authority + tail


def key_text(store: str) -> str:
    """What a store's socket is named after (the module docstring)."""
    if not is_postgres(store):
        return os.path.realpath(store)
    libpq = sorted(
        f"{k}={v}" for k, v in os.environ.items() if k.startswith("PG") and k != "PGPASSWORD"
    )
    return "\n".join([without_password(store), *libpq])


def store_key(store: str) -> str:
    """The socket's name for a store: a hash of its ``key_text`` (any length fits)."""
    return _sha256(key_text(store).encode("utf-8", "surrogateescape"))[:24]


_sha256_type = None  # hashlib's sha256, found once


def _sha256(data: bytes) -> str:
    global _sha256_type
    if _sha256_type is None:
        # The module of this interpreter's version first: a failed import costs ~0.2M
        # instructions (every path searched), more than the rest of a warm hook's client.
        name = "_sha2" if sys.version_info >= (3, 12) else "_sha256"  # 3.12+: no OpenSSL
        try:
            _sha256_type = __import__(name).sha256
        except (ImportError, AttributeError):
            from hashlib import sha256

            _sha256_type = sha256
    return _sha256_type(data).hexdigest()


def code_id(package: str | None = None) -> str:
    """Which credo runs in this process: its version, the interpreter's, and each of the
    package's folders as ``stat`` sees it (device, inode, mtime). An upgrade, a downgrade or
    a ``git`` checkout or merge in an editable install writes new files (pip, uv and git
    unlink and create, or rename), which moves the mtime of every folder holding one;
    another install of the same version is another set of inodes. 11 ``stat`` calls, no
    file read, no hash: ~0.15M instructions (docs/AGENT.md § Upgrades). An edit saved in
    place over a file moves no folder: a server does not see that one (restart it).

    Raises:
        OSError: a folder of the package is gone (being replaced: the direct path).
    """
    from credo import __version__

    # A module's __file__ is absolute (not __main__'s); only the stats are compared.
    package = package or os.path.dirname(os.path.dirname(__file__))
    state = sys.hexversion
    for folder in CODE_FOLDERS:  # one exact integer: (dev, ino, mtime) of each, 64 bits each
        st = os.stat(f"{package}/{folder}")
        state = (state << 192) | (st.st_dev << 128) | (st.st_ino << 64) | st.st_mtime_ns
    return f"{__version__}+{state:x}"


def code_now() -> str | None:
    """``code_id`` of the installed package now; None while its folders are being replaced."""
    try:
        return code_id()
    except OSError:
        return None


def settled_code_id(package: str | None = None) -> str:
    """``code_id`` for a server, after making each folder's ``__pycache__`` as the first
    import there would: a module it imports later then moves no folder its code was
    identified by. Made even when this interpreter writes no bytecode (``-B``,
    ``PYTHONDONTWRITEBYTECODE``): a hook's process that does write it would otherwise
    move a folder, and the server would take that for an upgrade."""
    package = package or os.path.dirname(os.path.dirname(__file__))
    if sys.pycache_prefix is None:
        for folder in CODE_FOLDERS:
            try:  # noqa: SIM105 (no contextlib: this module imports only what the client needs)
                os.mkdir(f"{package}/{folder}/__pycache__")
            except OSError:
                pass  # there already; or not writable, and then no import makes it either
    return code_id(package)


def socket_path(store: str) -> str:
    return os.path.join(run_dir(), store_key(store) + ".sock")


def owner_only(st: os.stat_result, *, kind: int) -> str | None:
    """Why a file or folder must not be trusted, or ``None``: it must be of ``kind`` (its
    ``S_IFMT`` bits; a symlink is never followed), belong to this user and give nobody
    else any access."""
    if st.st_mode & 0o170000 != kind:
        return "not a socket" if kind == 0o140000 else "not a folder"
    if st.st_uid != current_uid():
        return f"owned by uid {st.st_uid}, not {current_uid()}"
    if st.st_mode & 0o077:
        return f"mode {st.st_mode & 0o777:o} lets others in"
    return None


FOLDER = 0o040000
SOCKET = 0o140000


def untrusted(path: str) -> str | None:
    """Why the socket at ``path`` (and its folder) must not be used, or ``None``."""
    try:
        why = owner_only(os.lstat(os.path.dirname(path)), kind=FOLDER)
        if why is not None:
            return f"folder {os.path.dirname(path)}: {why}"
        why = owner_only(os.lstat(path), kind=SOCKET)
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    return None if why is None else f"socket {path}: {why}"


def peer_uid(sock: "_socket.socket") -> int | None:
    """The user of the process at the other end (Linux ``SO_PEERCRED``), else ``None``."""
    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return None
    creds = sock.getsockopt(_socket.SOL_SOCKET, option, 12)  # struct ucred: pid, uid, gid
    return int.from_bytes(creds[4:8], sys.byteorder)


# -- the store a hook reads (credo.config.resolve_db_path, without pathlib) ----------------
def project_dir(payload: dict, cwd: str) -> str:  # type: ignore[type-arg]
    """= credo.surfaces.hook.project_dir: the payload's ``cwd`` if it is a folder."""
    folder = payload.get("cwd")
    if isinstance(folder, str) and folder.strip():
        folder = os.path.expanduser(folder)
        if os.path.isdir(folder):
            return os.path.realpath(folder)
    return cwd


def store_for(folder: str, db: str | None) -> str:
    """= credo.config.resolve_db_path(db, cwd=folder), absolute, or a PostgreSQL URL. The
    server checks it again with the engine's own function: a difference only costs the
    warm answer.

    Raises:
        ValueError: ``.credo.toml`` says where the store is in a form read here only by
            the engine (the hook then takes the direct path).
    """
    explicit = db if db is not None and db.strip() else os.environ.get("CREDO_DB", "").strip()
    if explicit:
        return _located(explicit, None)
    configured = configured_location(folder)
    if configured is not None:
        return configured
    here = folder
    while True:
        try:
            if os.path.exists(os.path.join(here, ".git")):
                return os.path.join(here, ".credo", "memory.db")
        except OSError:
            pass
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    if sys.platform == "darwin":
        base = os.path.join(os.path.expanduser("~"), "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(
            os.path.expanduser("~"), ".local", "share"
        )
    return os.path.join(base, "credo", "memory.db")


def _located(location: str, base: str | None) -> str:
    """= credo.config.parse_location: a URL as it is, a path expanded and made absolute
    (from ``base`` when given, else this process's folder)."""
    location = location.strip()
    if is_postgres(location):
        return location
    path = os.path.expanduser(location)
    if base is not None and not os.path.isabs(path):
        path = os.path.join(base, path)
    return os.path.abspath(path)


def configured_location(folder: str) -> str | None:
    """``[store] location`` of the nearest ``.credo.toml`` from ``folder`` up (None: the
    file is missing or sets none). Read without tomllib (its import costs more than a warm
    answer): only the ``[store]`` table's ``location = "..."`` (or ``'...'``) is read, and
    any other way of writing it raises ``ValueError``.
    """
    here = folder
    while True:
        source = os.path.join(here, CONFIG_FILE)
        try:
            if os.path.exists(source):
                break
        except OSError:
            pass
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    with open(source, encoding="utf-8") as handle:  # OSError, UnicodeError: direct path
        text = handle.read()
    section: str | None = None
    found: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = None if line.startswith("[[") else line[1 : line.index("]")].strip()
            continue
        key, equals, value = line.partition("=")
        key = key.strip()
        if not equals:
            continue
        if section is None and key.split(".")[0].strip().strip("\"'") == "store":
            raise ValueError("[store] written inline")
        if section == "store" and key.strip("\"'") == "location":
            found = _toml_string(value.strip())
    return None if found is None else _located(found, here)


def _toml_string(value: str) -> str:
    """A one-line TOML string and its comment: ``"basic"`` (JSON's escapes) or
    ``'literal'``. ``ValueError`` for anything else."""
    if value.startswith(('"""', "'''")):
        raise ValueError("a multi-line string")
    if value.startswith("'"):
        end = value.index("'", 1)
        text = value[1:end]
    elif value.startswith('"'):
        end = 1
        while end < len(value) and value[end] != '"':
            end += 2 if value[end] == "\\" else 1
        if end >= len(value):
            raise ValueError("an unclosed string")
        text = loads(value[: end + 1])  # type: ignore[assignment]
        if not isinstance(text, str):
            raise ValueError("not a string")
    else:
        raise ValueError("not a string")
    rest = value[end + 1 :].strip()
    if rest and not rest.startswith("#"):
        raise ValueError("text after the string")
    return text


def env_fingerprint(environ: "os._Environ[str] | dict[str, str]") -> dict[str, str]:
    """The variables a server must share with the hook to print what the hook would."""
    return {
        k: v
        for k, v in sorted(environ.items())
        if (k.startswith(ENV_PREFIX) and k not in ENV_IGNORED) or k in ENV_NAMES
    }


# -- JSON through _json (json.loads' own C scanner, without the json package) -------------
class _Context:
    """What ``_json.make_scanner`` reads from a ``JSONDecoder``: the same settings."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def loads(text: str) -> object:
    """``json.loads(text)`` for a document ``json.loads`` accepts; raises ``ValueError``
    otherwise (never a partial value)."""
    if _json is None:  # no C scanner: the json package's own (the direct path reads with this)
        import json

        return json.loads(text)
    scan = _json.make_scanner(_Context())
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        value, end = scan(text, start)
    except (StopIteration, SystemError):
        # The scanner raises json.decoder's error only when that module is loaded; when it
        # is not, a SystemError says the same: not JSON.
        raise ValueError("not JSON") from None
    if text[end:].strip(" \t\n\r"):
        raise ValueError("extra data after the JSON value")
    return value


def _string(value: str) -> str:
    return _json.encode_basestring_ascii(value)


def request(
    event: str,
    payload_text: str,
    cwd: str,
    db: str | None,
    env: dict[str, str],
    inline: bool,
    code: str,
) -> bytes:
    """The request line: the payload goes as it came (the server parses the same text)."""
    fields = ",".join(f"{_string(k)}:{_string(v)}" for k, v in env.items())
    return (
        f'{{"v":{PROTOCOL},"code":{_string(code)},"event":{_string(event)},'
        f'"cwd":{_string(cwd)},'
        f'"db":{"null" if db is None else _string(db)},"env":{{{fields}}},'
        f'"inline":{"true" if inline else "false"},"payload":{payload_text}}}'
    ).encode("utf-8", "surrogatepass")


# -- the client ----------------------------------------------------------------------------
def turned_off() -> bool:
    """``CREDO_WARM=0`` (or off, no, false): no hook asks a server, and none is started."""
    return os.environ.get("CREDO_WARM", "").strip().lower() in {"0", "off", "no", "false"}


def ask(event: str, raw: bytes, db: str | None = None) -> bytes | None:
    """What the warm server prints for this hook event, or ``None``: ask nobody, or nobody
    answered well (the caller then runs the direct path). Never raises; never waits more
    than ``CONNECT_SECONDS`` to connect and ``REPLY_SECONDS`` after."""
    if _socket is None or not hasattr(_socket, "AF_UNIX"):
        return None
    if turned_off():
        return None
    if event not in HOOK_EVENTS or len(raw) > MAX_PAYLOAD_BYTES or not raw.strip():
        return None
    try:
        text = raw.decode("utf-8", errors="replace")
        payload = loads(text)
        if not isinstance(payload, dict):
            return None  # the direct path logs why
        cwd = os.getcwd()
        path = socket_path(store_for(project_dir(payload, cwd), db))
        if len(path.encode()) > SOCKET_PATH_MAX or untrusted(path) is not None:
            return None
        message = request(
            event,
            text,
            cwd,
            db,
            env_fingerprint(os.environ),
            os.environ.get("CREDO_HOOK_INLINE", "").strip() == "1",
            code_id(),
        )
        reply = _exchange(path, message)
        if reply is None:
            return None
        answer = loads(reply.decode("utf-8"))
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            return None
        output = answer.get("output")
        return output.encode("utf-8") if isinstance(output, str) else None
    except (OSError, ValueError, UnicodeError, RecursionError):
        return None


def _exchange(path: str, message: bytes) -> bytes | None:
    import time

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(CONNECT_SECONDS)
        sock.connect(path)
        uid = peer_uid(sock)
        if uid is not None and uid != current_uid():
            return None
        deadline = time.monotonic() + REPLY_SECONDS
        sock.settimeout(REPLY_SECONDS)
        sock.sendall(message)
        sock.shutdown(_socket.SHUT_WR)
        chunks: list[bytes] = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                return None
            chunks.append(chunk)
        return b"".join(chunks) or None  # nothing at all: the server died mid-request
    finally:
        sock.close()


def main(event: str | None = None, db: str | None = None, *, exit_when_done: bool = False) -> int:
    """The hook command: ask the warm server, else run the direct path
    (credo.surfaces.hook) on the same bytes. Always 0.

    ``exit_when_done`` (the installed command, hookstart.py, alone: never a process that
    goes on): once the output is printed, the process ends at once (``os._exit``). The
    interpreter's own shutdown would cost the prompt more with nothing left to close:
    ~2-3 ms after a warm answer (the socket is closed, stdout flushed, nothing of the
    engine loaded), ~20M instructions after the direct path, which frees every module of
    the engine and runs a last full collection (its store is closed and its detached
    child, if any, forked by then: ``run_bytes`` returns after both)."""
    chosen = event if event is not None else event_from_argv(sys.argv)
    raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    output = ask(chosen, raw, db)
    if output is None:
        from credo.surfaces.hook import run_bytes  # the engine, only now

        status = run_bytes(raw, sys.stdout.buffer, db, chosen)
        if exit_when_done:
            _exit_now(status)
        return status
    if output:
        try:
            sys.stdout.buffer.write(output)
            sys.stdout.buffer.flush()
        except OSError:
            pass  # Claude Code closed the pipe (its timeout): nothing to tell it
    if exit_when_done:
        _exit_now(0)
    return 0


def _exit_now(status: int) -> None:
    """End the process without the interpreter's shutdown, what is buffered written first."""
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 (no contextlib: this module imports only what the client needs)
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed pipe or stream: nothing more can reach it
    os._exit(status)


def event_from_argv(argv: list[str]) -> str:
    """``... hook EVENT`` -> EVENT; ``prompt`` when none is named (the first hook's form)."""
    return argv[-1] if len(argv) >= 2 and argv[-2] == "hook" else "prompt"
