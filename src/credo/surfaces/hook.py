"""``credo hook prompt``: Claude Code's ``UserPromptSubmit`` hook.

Claude Code runs the hook in a fresh process for every prompt and adds what it prints on
stdout (exit 0) to the model's context. So this path must be fast and must never get in the
way: whatever goes wrong (no store, a malformed payload, a broken store, a bug) it prints
nothing, exits 0 and writes one line to the hook log instead.

Only the standard library is imported up front; the engine is imported once a store is
known to exist, and nothing here touches click, numpy or the MCP SDK.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO

# A prompt payload is small JSON; reading more than this would only waste the user's time.
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024
MAX_LOG_BYTES = 1_000_000  # the log is rotated once (hook.log.1) past this size


class HookSkip(Exception):
    """A reason to print nothing: logged, never shown to the user or the model."""


def log_path() -> Path:
    """``CREDO_HOOK_LOG``, else ``$XDG_CACHE_HOME/credo/hook.log`` (``~/.cache/...``)."""
    explicit = os.environ.get("CREDO_HOOK_LOG", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "credo" / "hook.log"


def log(message: str) -> None:
    """Append one line to the hook log; a log that cannot be written is not worth failing
    the user's prompt for."""
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > MAX_LOG_BYTES:
            os.replace(path, path.with_name(path.name + ".1"))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        line = " ".join(message.split())[:2000]
        with path.open("a", encoding="utf-8") as out:
            out.write(f"{stamp} pid={os.getpid()} {line}\n")
    except OSError:
        pass


def parse_payload(raw: bytes) -> dict[str, Any]:
    """The hook JSON; raises ``HookSkip`` (never the prompt's text) when it is unusable."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise HookSkip(f"payload over {MAX_PAYLOAD_BYTES} bytes; skipped")
    if not raw.strip():
        raise HookSkip("empty payload on stdin")
    try:
        payload = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise HookSkip(f"payload is not JSON ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(payload, dict):
        raise HookSkip(f"payload is a JSON {type(payload).__name__}, not an object")
    prompt = payload.get("prompt")
    if not isinstance(prompt, str):
        raise HookSkip(f"payload has no string 'prompt' (got {type(prompt).__name__})")
    return payload


def project_dir(payload: dict[str, Any]) -> Path:
    """The folder Claude Code runs in (payload ``cwd``), else this process's folder."""
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd.strip():
        folder = Path(cwd).expanduser()
        if folder.is_dir():
            return folder.resolve()
    return Path.cwd()


def memory_block_for(payload: dict[str, Any], db: str | None = None) -> str:
    """Retrieve for the payload's prompt and render the memory block ("" if none). A blank
    prompt gets the locked beliefs alone, as an empty query does: they go with every
    prompt."""
    prompt: str = payload["prompt"]
    folder = project_dir(payload)
    from credo.config import git_root, resolve_db_path

    store = resolve_db_path(db, cwd=folder)
    if not store.is_file():
        # Opening would create an empty store in a project that never asked for one.
        raise HookSkip(f"no store at {store}; run `credo init` or `credo remember` first")
    # Settings (.credo.toml) are looked up from the current folder, as in the CLI.
    os.chdir(folder)
    from credo.memory import Memory
    from credo.surfaces.render import memory_block

    with Memory(store, root=git_root(folder) or folder, source="hook") as memory:
        result = memory.retrieve(prompt, with_doc_anchors=True)
    return memory_block(result)


def run(stdin: BinaryIO, stdout: BinaryIO, db: str | None = None) -> int:
    """Read the payload, print the block, return the exit status: always 0."""
    started = time.perf_counter()
    try:
        payload = parse_payload(stdin.read(MAX_PAYLOAD_BYTES + 1))
        block = memory_block_for(payload, db)
    except HookSkip as skip:
        log(f"skip: {skip}")
        return 0
    except (Exception, KeyboardInterrupt) as exc:
        # Any failure, ours or the store's: the prompt goes through without memory.
        log(f"error: {type(exc).__name__}: {exc}")
        return 0
    if block:
        try:
            stdout.write(block.encode("utf-8"))
            stdout.flush()
        except OSError as exc:  # Claude Code closed the pipe (timeout): nothing to do
            log(f"error: cannot write the block: {exc}")
    elapsed = (time.perf_counter() - started) * 1000
    if os.environ.get("CREDO_HOOK_TRACE"):
        log(f"ok: {len(block)} chars in {elapsed:.1f} ms")
    return 0


def main(db: str | None = None) -> int:
    return run(sys.stdin.buffer, sys.stdout.buffer, db)


if __name__ == "__main__":  # python -m credo.surfaces.hook: the same hook without the CLI layer
    sys.exit(main())
