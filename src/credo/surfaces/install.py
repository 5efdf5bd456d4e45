"""What every ``credo setup <client>`` shares (``claude_setup``, ``client_setup``).

- **The server command**: ``credo_argv`` (this environment's ``credo``, by absolute path),
  ``server_env`` (what a client must add to run this very package: run from a source tree,
  ``PYTHONPATH`` naming it) and ``is_credo_server`` (an entry credo wrote, from any
  environment).
- **The server check**: ``check_server`` spawns exactly the command a client will run, through
  the MCP SDK's own stdio client, and asks it for ``tools/list``; a server that does not
  answer is refused with a one-line fix before anything is written (issue #16: a server
  registered without the SDK exited at once, and the client offered no tools).
- **The byte-compile**: ``compile_package`` writes credo's ``.pyc`` files once, so the hook,
  a fresh interpreter on every prompt, never compiles sources (not even under
  ``PYTHONDONTWRITEBYTECODE``, which only stops the import system from writing them).
- **Config-file edits**: ``apply`` reads every file, runs the edits, and only then writes,
  each changed file after a timestamped backup and by an atomic rename; a file that does not
  parse is refused and nothing at all is written. JSON here; Codex's TOML format is built on
  the same ``FileFormat`` in ``client_setup``.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from credo.config import project_root as config_project_root
from credo.errors import InvalidInputError, SetupError, StoreError

SERVER_NAME = "credo"
CHECK_TIMEOUT_S = 20.0  # a cold start imports the SDK and pydantic: ~1-2 s on a laptop
SDK_REQUIREMENT = "mcp>=2,<3"


@dataclass
class SetupReport:
    """What install / remove did, file by file (``changes`` and ``notes`` are
    human-readable; ``checked`` names the server command that answered, if checked)."""

    client: str
    scope: str
    removed: bool
    changes: list[str] = field(default_factory=list)
    backups: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: str | None = None


# -- the server command ---------------------------------------------------------------------------
def credo_argv() -> list[str]:
    """How a client should start credo: the console script beside this interpreter (an
    absolute path, so no PATH lookup or version-manager shim), else ``python -m credo``;
    ``python -m credo`` too when this package runs from a source tree (`source_folder`):
    that script would run another install's credo (with ``server_env``'s PYTHONPATH)."""
    if source_folder() is not None:
        return [str(Path(sys.executable).absolute()), "-m", "credo"]
    bindir = Path(sys.executable).parent
    for name in ("credo", "credo.exe"):
        script = bindir / name
        if script.is_file():
            return [str(script.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "credo"]


def source_folder() -> Path | None:
    """The folder holding credo's package when only this process's ``PYTHONPATH``, or the
    folder it started in, puts it on ``sys.path`` (``PYTHONPATH=src python -m credo setup
    claude`` in a checkout); None when the interpreter finds it on its own (installed, or
    an editable install's path or finder). A client starts credo without that variable or
    folder: it would run another install's credo, or none (day-probe77: the hooks ran the
    checkout, the server the installed copy, two versions on one store)."""
    parent = package_folder().parent.resolve()
    variable = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    transient = {_resolved(entry) for entry in [sys.path[0] if sys.path else "", *variable]}
    lasting = {_resolved(entry) for entry in sys.path[1:]} - transient
    return parent if parent in transient and parent not in lasting else None


def _resolved(entry: str) -> Path:
    return Path(entry or os.getcwd()).resolve()


def server_env(argv: list[str] | None = None) -> dict[str, str]:
    """The environment a client adds to start credo's server: ``PYTHONPATH`` naming the
    source tree this package runs from (`source_folder`), then the rest of this process's
    ``PYTHONPATH`` (what the check ran with); else nothing, nor for a command given
    (``argv``)."""
    folder = source_folder() if argv is None else None
    if folder is None:
        return {}
    variable = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    rest = [entry for entry in variable if _resolved(entry) != folder]
    return {"PYTHONPATH": os.pathsep.join(dict.fromkeys([str(folder), *rest]))}


def server_command(argv: list[str] | None = None) -> tuple[str, list[str]]:
    """(command, args) a client runs for credo's MCP server: ``argv`` (``credo_argv()`` by
    default) followed by ``mcp``."""
    parts = argv or credo_argv()
    return parts[0], [*parts[1:], "mcp"]


def is_credo_server(entry: object) -> bool:
    """A server entry credo wrote: ``<...credo...> [...] mcp`` (any install path)."""
    if not isinstance(entry, Mapping):
        return False
    words = [entry.get("command"), *(entry.get("args") or [])]
    return (
        all(isinstance(w, str) for w in words)
        and words[-1:] == ["mcp"]
        and any("credo" in Path(str(w)).name for w in words[:-1])
    )


def project_root(cwd: Path | None = None) -> Path:
    """The git work tree holding ``cwd`` (resolved; the current folder by default), else
    ``cwd`` itself: where a client's project-scope config goes."""
    return config_project_root((cwd or Path.cwd()).resolve())


# -- the server check -----------------------------------------------------------------------------
def check_server(
    command: list[str],
    *,
    cwd: Path,
    timeout: float = CHECK_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """Start ``command`` as a client would (stdio, in ``cwd``, with this environment and the
    entry's own ``env`` over it) and return the names its ``tools/list`` answers. The
    server opens a throwaway store (``CREDO_DB`` in a temporary folder), so the check
    leaves no file behind.

    Raises:
        SetupError: the server did not start or did not answer within ``timeout``; the
            message is one line that ends with the fix.
    """
    shown = shlex.join(command)
    try:
        import anyio
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
    except ImportError as exc:  # the server runs on this interpreter: it lacks the SDK too
        raise SetupError(_refusal(shown, f"{type(exc).__name__}: {exc}")) from None

    with (
        tempfile.TemporaryDirectory(prefix="credo-check-") as scratch,
        tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog,
    ):
        params = StdioServerParameters(
            command=command[0],
            args=command[1:],
            env={**os.environ, **(env or {}), "CREDO_DB": str(Path(scratch) / "memory.db")},
            cwd=cwd,
        )

        async def ask() -> list[str]:
            with anyio.fail_after(timeout):
                async with (
                    stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    return [tool.name for tool in (await session.list_tools()).tools]

        try:
            names = anyio.run(ask)
        except Exception as exc:  # spawn, crash, protocol error or timeout: all mean "no"
            errlog.seek(0)
            why = _last_line(errlog.read()) or _describe(exc, timeout)
            raise SetupError(_refusal(shown, why)) from None
    if not names:
        raise SetupError(_refusal(shown, "it answered tools/list with no tools"))
    return names


def _refusal(shown: str, why: str) -> str:
    python = shlex.quote(str(Path(sys.executable).absolute()))
    if "No module named 'mcp" in why or "MCP SDK" in why:
        fix = f"{python} -m pip install '{SDK_REQUIREMENT}'"
    else:
        fix = f"run `{shown}` to see why, or pass --skip-check to write the entry anyway"
    return f"the MCP server `{shown}` did not start ({why}); fix: {fix}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last.removeprefix("Error: ")[:300]


def _describe(exc: BaseException, timeout: float) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        return f"no answer to tools/list within {timeout:g} s"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def prepare(
    report: SetupReport,
    command: list[str],
    *,
    cwd: Path,
    check: bool,
    env: Mapping[str, str] | None = None,
) -> None:
    """What every install does before it writes: the server check (``check``; ``env``: the
    entry's), then the byte-compile (a failure there is a note, not a refusal)."""
    if check:
        tools = check_server(command, cwd=cwd, env=env)
        shown = shown_command({"command": command[0], "args": command[1:], "env": env})
        report.checked = f"`{shown}` answers tools/list ({len(tools)} tools)"
    if note := compile_package():
        report.notes.append(note)


# -- the byte-compile -----------------------------------------------------------------------------
def package_folder() -> Path:
    return Path(__file__).resolve().parents[1]  # credo/, above surfaces/


def compile_package(folder: Path | None = None) -> str | None:
    """Write a fresh ``.pyc`` (this interpreter, optimisation level 0, timestamp-checked as
    the hook's ``python -S`` reads them) for every module of credo's package folder.
    Returns a one-line note when some could not be written (a read-only install): setup
    goes on, and the hook compiles in memory in each process as before."""
    import compileall
    import py_compile

    target = folder or package_folder()
    ok = compileall.compile_dir(
        target,
        quiet=2,  # nothing on stdout: `--json` output stays one document
        optimize=0,
        # Hash-checked files (the default under SOURCE_DATE_EPOCH) would make the hook read
        # and hash every source on each start; timestamps are what a fresh import checks.
        invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP,
    )
    if ok:
        return None
    return (
        f"byte-compile: could not write .pyc files under {target} (not writable?); "
        "the hook will compile credo's sources in every new process"
    )


# -- config files ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileFormat:
    """How one kind of config file is read, written, and judged empty."""

    load: Callable[[Path, str], Any]  # text -> editable document (raises InvalidInputError)
    dump: Callable[[Any], str]
    blank: Callable[[Any], bool]  # nothing of the user's left: the file may be deleted


def _load_json(path: Path, text: str) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(
            f"{path} is not valid JSON ({exc}); fix it or move it away, then rerun"
        ) from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} holds a JSON {type(data).__name__}, not an object")
    return data


JSON = FileFormat(
    load=_load_json,
    dump=lambda data: json.dumps(data, indent=2, ensure_ascii=False) + "\n",
    blank=lambda data: not data,
)


def read_text(path: Path) -> str | None:
    """The file's text (``None`` if it does not exist)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from exc


def backup(path: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.credo-backup-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.credo-backup-{stamp}-{counter}")
    target.write_bytes(path.read_bytes())
    return target


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_text(path: Path, text: str) -> None:
    """Write beside the target and rename, so a client never reads half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(tmp, mode)  # mkstemp makes 0600; keep the file's mode, or the usual one
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


Edit = Callable[[Any], list[str]]  # changes the document in place; says what it changed


def apply(edits: list[tuple[Path, Edit, FileFormat]], report: SetupReport) -> None:
    """Run each edit on its file's document, then write what changed (after a backup).
    Every file is read and edited before the first is written, so a file that does not
    parse leaves all of them as they were. On ``--remove``, a file that held nothing but
    credo's entries is deleted."""
    planned: list[tuple[Path, str | None, str | None]] = []  # (path, before, new text | None)
    for path, edit, fmt in edits:
        before = read_text(path)
        data = fmt.load(path, before or "")
        changes = edit(data)
        if not changes:
            continue
        report.changes += [f"{path}: {c}" for c in changes]
        if report.removed and fmt.blank(data):
            # credo's entries were all the file held: nothing of the user's to keep.
            report.changes.append(f"{path}: removed (nothing else was in it)")
            planned.append((path, before, None))
        else:
            planned.append((path, before, fmt.dump(data)))
    for path, before, text in planned:
        report.files.append(path)
        if text is None:
            path.unlink()
            continue
        if before:
            report.backups.append(backup(path))
        write_text(path, text)


# -- the mcpServers entry (the JSON clients: Claude Code, Cursor) --------------------------------
def add_json_server(entry: dict[str, Any], where: str = "") -> Edit:
    """Put ``entry`` under ``mcpServers`` as ``credo`` (``where`` names the config in the
    error, e.g. " in the Cursor config")."""

    def edit(data: dict[str, Any]) -> list[str]:
        servers = data.setdefault("mcpServers", {})
        if not isinstance(servers, dict):
            raise InvalidInputError(f"'mcpServers'{where} is not an object")
        if servers.get(SERVER_NAME) == entry:
            return []
        verb = "replaced" if SERVER_NAME in servers else "added"
        servers[SERVER_NAME] = entry
        return [f"{verb} MCP server {SERVER_NAME!r} `{shown_command(entry)}`"]

    return edit


def shown_command(entry: Mapping[str, Any]) -> str:
    """An entry's command as a shell line, its ``env`` first (``PYTHONPATH=src python -m
    credo mcp``)."""
    env = [f"{name}={value}" for name, value in (entry.get("env") or {}).items()]
    return shlex.join([*env, entry["command"], *entry["args"]])


def remove_json_server() -> Edit:
    """Take credo's entry out of ``mcpServers`` (and ``mcpServers`` once it is empty)."""

    def edit(data: dict[str, Any]) -> list[str]:
        servers = data.get("mcpServers")
        if not isinstance(servers, dict) or not is_credo_server(servers.get(SERVER_NAME)):
            return []  # absent, or a server the user named 'credo' themselves: not ours
        del servers[SERVER_NAME]
        if not servers:
            del data["mcpServers"]
        return [f"removed MCP server {SERVER_NAME!r}"]

    return edit
