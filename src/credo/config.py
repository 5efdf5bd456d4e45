"""Where the store lives and which settings apply, resolved in one place.

Store location, highest first: an explicit one (``--db`` / ``Memory(path)``), env
``CREDO_DB``, ``[store] location`` in ``.credo.toml`` (a relative path is taken from the
file's folder), ``.credo/memory.db`` at the root of the current git work tree, the per-user
data folder. A location is a path (SQLite) or a ``postgresql://`` URL (a PostgreSQL server);
any other URL is an error, never a folder named after its scheme.

Settings come from ``.credo.toml`` (looked up from the current folder upward), then env
variables override single keys. Unknown keys and wrong types are errors, not silent no-ops.
"""

# Evaluated annotations, for a cheaper import: see credo/types.py.

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from credo.errors import InvalidInputError, NotFoundError

CONFIG_FILE = ".credo.toml"
STORE_DIR = ".credo"
STORE_FILE = "memory.db"


def find_upward(start: Path, name: str) -> Path | None:
    """The first ``start/name``, ``start/../name``, ... that exists. A folder this process
    may not look into holds nothing it can use, so the search goes on above it
    (``os.path.exists`` is False for it: a private cwd seen by another user). In strings:
    the warm server asks four times a prompt; a four-level walk takes 17 us this way, 37 with
    pathlib's objects."""
    folder = os.fspath(start)
    while True:
        candidate = os.path.join(folder, name)
        if os.path.exists(candidate):
            return Path(candidate)
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def git_root(start: Path) -> Path | None:
    """The work tree root holding ``start`` (a ``.git`` folder or file marks it)."""
    marker = find_upward(start, ".git")
    return marker.parent if marker else None


def project_root(cwd: Path | None = None) -> Path:
    """The folder document paths are stored relative to: the git work tree of ``cwd`` (the
    current folder by default), else ``cwd`` itself."""
    here = cwd or Path.cwd()
    return git_root(here) or here


def user_data_dir() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "credo"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "credo"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "credo"


# "scheme://": what makes a location a URL rather than a path (RFC 3986 scheme characters).
# Run through re's own cache, and only on a location that holds "://": a process that opens
# a store by its path (the hook, every CLI command) never compiles it.
_URL = r"^([A-Za-z][A-Za-z0-9+.-]*)://"
POSTGRES_SCHEMES = ("postgresql", "postgres")


class PostgresUrl(str):
    """A ``postgresql://`` store location: the text libpq reads (credentials included, so
    it is shown only as ``redacted``)."""

    @property
    def redacted(self) -> str:
        """The URL without its password (``user:***@``) and without a ``password=`` query
        parameter's value: what a message or a log may show."""
        return redact_url(self)


def redact_url(url: str) -> str:
    out = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/?#@]*?):[^/?#@]*@", r"\1:***@", url)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", out)


def parse_location(raw: str | os.PathLike[str], *, base: Path | None = None) -> Path | PostgresUrl:
    """A store location as given: a ``postgresql://`` (or ``postgres://``) URL, or a path
    (``~`` expanded; a relative one joined to ``base`` when given).

    Raises:
        InvalidInputError: the location is some other URL (``scheme://...``).
    """
    text = os.fspath(raw).strip()
    found = re.match(_URL, text) if "://" in text else None
    if found:
        scheme = found.group(1).lower()
        if scheme in POSTGRES_SCHEMES:
            return PostgresUrl(text)
        raise InvalidInputError(
            f"store location {redact_url(text)!r} is a {scheme}:// URL; give a file path "
            "(SQLite) or a postgresql:// URL (PostgreSQL)"
        )
    path = Path(text).expanduser()
    return base / path if base is not None and not path.is_absolute() else path


def _configured_location(cwd: Path) -> tuple[Path | PostgresUrl, Path] | None:
    """``[store] location`` of the nearest ``.credo.toml``, if it sets one, and that file."""
    source = find_upward(cwd, CONFIG_FILE)
    if source is None:
        return None
    import tomllib  # only when a .credo.toml exists

    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidInputError(f"cannot read {source}: {exc}") from exc
    section = data.get("store", {})
    if not isinstance(section, dict):
        raise InvalidInputError(f"[store] in {source} must be a table")
    value = section.get("location")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{source}:location={value!r} must be a path or a URL")
    return parse_location(value, base=source.parent), source


def resolve_db_path(
    explicit: str | os.PathLike[str] | None = None,
    *,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    existing: bool = False,
    check_folder: bool = True,
) -> Path | PostgresUrl:
    """The store's location (the module docstring's order): a path, or a ``PostgresUrl``.
    ``environ``: whose ``CREDO_DB`` counts (this process's by default; the warm server
    passes the hook's). ``existing``: a file must be there already (``NotFoundError``).
    ``check_folder``: a path that is a folder here is an ``InvalidInputError`` naming where
    it came from (the hook passes False: it makes a relative one absolute from its
    client's folder first, and skips)."""
    location, origin = _location(explicit, cwd, environ)
    if check_folder and isinstance(location, Path) and location.is_dir():
        raise InvalidInputError(
            f"store location {location} ({origin}) is a folder, not a store file; name a "
            f"file, e.g. {location / STORE_FILE}"
        )
    if existing and isinstance(location, Path) and not location.exists():
        raise NotFoundError(
            f"no store at {location}; a write (`credo init`, `remember`, `ingest`, `import`) "
            "creates one"
        )
    return location


def _location(
    explicit: str | os.PathLike[str] | None, cwd: Path | None, environ: Mapping[str, str] | None
) -> tuple[Path | PostgresUrl, str]:
    """The location and where it came from (for an error that names it)."""
    if explicit is not None and str(explicit).strip():
        return parse_location(explicit), "--db, or the path given"
    env = (os.environ if environ is None else environ).get("CREDO_DB", "").strip()
    if env:
        return parse_location(env), "CREDO_DB"
    here = (cwd or Path.cwd()).resolve()
    configured = _configured_location(here)
    if configured is not None:
        return configured[0], f"[store] location in {configured[1]}"
    root = git_root(here)
    if root is not None:
        return root / STORE_DIR / STORE_FILE, "the git work tree's default"
    return user_data_dir() / STORE_FILE, "the user data folder's default"


class RetrievalSettings(NamedTuple):
    """``[retrieval]`` in .credo.toml. Defaults are the benchmarked ones (docs/BENCHMARKS.md)."""

    token_budget: int = 2400
    use_intentional_clustering: bool = True  # A2 and A3 pass: docs/BENCHMARKS.md
    cluster_edge_weight_floor: float = 0.4  # = credo.retrieval.cluster.DEFAULT_CLUSTER_EDGE_FLOOR
    cluster_diversity_target: int = 3  # = credo.retrieval.cluster.DEFAULT_CLUSTER_DIVERSITY_TARGET


class HookSettings(NamedTuple):
    """``[hook]`` in .credo.toml: what the Claude Code hooks inject and capture
    (docs/AGENT.md)."""

    token_budget: int = 1200  # 4.8 KB charged; with the header and free anchors under 6 KB
    session_start_budget: int = 600  # locks + the most useful beliefs at SessionStart
    capture: bool = True  # what the user states or corrects in a prompt becomes a belief
    auto_lock_corrections: bool = False  # opt in: captured corrections are locked at once
    auto_feedback: bool = True  # a belief the reply used gains a little alpha at Stop


class Settings(NamedTuple):
    retrieval: RetrievalSettings = RetrievalSettings()
    source: Path | None = None  # the .credo.toml these came from, if any
    hook: HookSettings = HookSettings()


# env variable -> (section, key). CREDO_INTENTIONAL_CLUSTERING is the seed's name.
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "CREDO_TOKEN_BUDGET": ("retrieval", "token_budget"),
    "CREDO_INTENTIONAL_CLUSTERING": ("retrieval", "use_intentional_clustering"),
    "CREDO_CLUSTER_EDGE_WEIGHT_FLOOR": ("retrieval", "cluster_edge_weight_floor"),
    "CREDO_CLUSTER_DIVERSITY_TARGET": ("retrieval", "cluster_diversity_target"),
    "CREDO_HOOK_TOKEN_BUDGET": ("hook", "token_budget"),
    "CREDO_SESSION_START_BUDGET": ("hook", "session_start_budget"),
    "CREDO_CAPTURE": ("hook", "capture"),
    "CREDO_AUTO_LOCK_CORRECTIONS": ("hook", "auto_lock_corrections"),
    "CREDO_AUTO_FEEDBACK": ("hook", "auto_feedback"),
}
SECTIONS = ("retrieval", "hook")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def parse_bool(raw: str, *, name: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise InvalidInputError(f"{name}={raw!r} is not a boolean; use 1 or 0")


def _coerce(value: Any, kind: type, name: str) -> Any:
    if isinstance(value, str) and kind is not str:
        if kind is bool:
            return parse_bool(value, name=name)
        try:
            return kind(value.strip())
        except ValueError as exc:
            raise InvalidInputError(f"{name}={value!r} is not a valid {kind.__name__}") from exc
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidInputError(f"{name}={value!r} must be a {kind.__name__}")
    return value


def _apply(section: Any, values: dict[str, Any], origin: str) -> Any:
    known = {name: type(default) for name, default in section._field_defaults.items()}
    updates: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise InvalidInputError(
                f"unknown setting {key!r} in {origin}; known: {', '.join(sorted(known))}"
            )
        updates[key] = _coerce(value, known[key], f"{origin}:{key}")
    return section._replace(**updates)


def load_settings(cwd: Path | None = None, env: dict[str, str] | None = None) -> Settings:
    environ = os.environ if env is None else env
    source = find_upward((cwd or Path.cwd()).resolve(), CONFIG_FILE)
    sections: dict[str, Any] = {"retrieval": RetrievalSettings(), "hook": HookSettings()}
    if source is not None:
        import tomllib  # only when a .credo.toml exists

        try:
            data = tomllib.loads(source.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InvalidInputError(f"cannot read {source}: {exc}") from exc
        unknown = sorted(set(data) - set(SECTIONS) - {"store"})
        if unknown:
            raise InvalidInputError(f"unknown section {unknown[0]!r} in {source}")
        store = data.get("store", {})
        extra = sorted(set(store) - {"location"}) if isinstance(store, dict) else []
        if extra:  # [store] is read by resolve_db_path; only its keys are checked here
            raise InvalidInputError(f"unknown setting {extra[0]!r} in {source}; known: location")
        for name in SECTIONS:
            values = data.get(name, {})
            if not isinstance(values, dict):
                raise InvalidInputError(f"[{name}] in {source} must be a table")
            sections[name] = _apply(sections[name], values, str(source))
    for env_name, (name, key) in ENV_OVERRIDES.items():
        raw = environ.get(env_name)
        if raw is not None and raw.strip():
            sections[name] = _apply(sections[name], {key: raw}, env_name)
    return Settings(retrieval=sections["retrieval"], source=source, hook=sections["hook"])
