"""``credo hook EVENT``: credo's Claude Code hooks (docs/AGENT.md).

- ``prompt`` (UserPromptSubmit): capture what the user states or corrects, then print the
  memory block for the prompt (the locks alone for an acknowledgement such as "yes").
- ``session-start`` (SessionStart: startup, resume, clear, compact): the locks and the
  project's most useful beliefs, as ``additionalContext``.
- ``stop`` (Stop): capture from the transcript's user turns, credit the beliefs the reply
  used, and show the user what was captured this turn with the command that locks it.
- ``subagent`` (PreToolUse on Task/Agent): the memory block for the subagent's own prompt,
  put in front of that prompt through ``updatedInput``.

Claude Code runs a hook in a fresh process each time, so this path must be fast and must
never get in the way: whatever goes wrong (no store, a malformed payload, a broken store, a
bug) it prints nothing, exits 0 and writes one line to the hook log instead.

Only the standard library is imported up front; the engine is imported once a store is
known to exist, and nothing here touches click, numpy or the MCP SDK. Not even the ``json``
package on the prompt's path (~4.6M instructions of a fresh process): the payload is read
by its C scanner (``credo.surfaces.warm.loads``), and ``json`` is imported by the events
that print JSON and to word a payload's error.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

if TYPE_CHECKING:
    from credo.config import PostgresUrl
    from credo.memory import Memory
    from credo.types import RetrievalResult

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


# event argument -> the Claude Code event whose payload it reads
EVENTS = {
    "prompt": "UserPromptSubmit",
    "session-start": "SessionStart",
    "stop": "Stop",
    "subagent": "PreToolUse",
}
SUBAGENT_TOOLS = ("Task", "Agent")  # the tools that start a subagent (the setup's matcher)


def parse_payload(raw: bytes, event: str = "prompt") -> dict[str, Any]:
    """The hook JSON; raises ``HookSkip`` (never the prompt's text) when it is unusable."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise HookSkip(f"payload over {MAX_PAYLOAD_BYTES} bytes; skipped")
    if not raw.strip():
        raise HookSkip("empty payload on stdin")
    from credo.surfaces.warm import loads  # json.loads' own scanner (the module docstring)

    text = raw.decode("utf-8", errors="replace")
    try:
        payload = loads(text)
    except ValueError:
        import json  # the same scanner again, for json's account of what is wrong

        try:
            payload = json.loads(text)
        except ValueError as exc:
            raise HookSkip(f"payload is not JSON ({exc.__class__.__name__}: {exc})") from None
    return check_payload(payload, event)


def check_payload(payload: object, event: str) -> dict[str, Any]:
    """``payload`` if it is one ``event`` can answer, else ``HookSkip`` (the warm server
    checks what the client parsed with this too)."""
    if not isinstance(payload, dict):
        raise HookSkip(f"payload is a JSON {type(payload).__name__}, not an object")
    named = payload.get("hook_event_name")
    if named is not None and named != EVENTS.get(event):
        raise HookSkip(f"payload is for {str(named)[:40]!r}, not {EVENTS.get(event)!r}")
    if event == "prompt":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookSkip(f"payload has no string 'prompt' (got {type(prompt).__name__})")
    return payload  # pyright: ignore[reportUnknownVariableType]


def project_dir(payload: dict[str, Any], cwd: Path | None = None) -> Path:
    """The folder Claude Code runs in (payload ``cwd``), else the hook process's folder
    (``cwd``: the warm server passes the client's)."""
    folder = payload.get("cwd")
    if isinstance(folder, str) and folder.strip():
        found = Path(folder).expanduser()
        if found.is_dir():
            return found.resolve()
    return cwd if cwd is not None else Path.cwd()


def text_field(payload: dict[str, Any], name: str) -> str | None:
    """A string field of the payload, or ``None`` (Claude Code may leave any of them out)."""
    value = payload.get(name)
    return value if isinstance(value, str) and value.strip() else None


def open_memory(payload: dict[str, Any], db: str | None, *, global_only: bool = False) -> Memory:
    """The project's store, opened for the hook; ``HookSkip`` when there is none. With
    ``global_only``, a project without a store still gets the user-global store's locks,
    through an empty store in memory (nothing is created in the project)."""
    folder = project_dir(payload)
    from credo.config import load_settings

    store = store_path(folder, db)
    if isinstance(store, Path) and not store.is_file():
        # Opening would create an empty store in a project that never asked for one.
        if store.is_dir():
            raise HookSkip(f"{store} is a folder, not a store file (CREDO_DB, --db or .credo.toml)")
        from credo.agent.global_store import has_global_store

        if not (global_only and has_global_store()):
            raise HookSkip(f"no store at {store}; run `credo init` or `credo remember` first")
        store = Path(":memory:")
    from credo.memory import Memory

    # Settings (.credo.toml) are looked up from the project's folder, as the CLI does from
    # its own; nothing here changes this process's folder (the warm server shares the code).
    settings = load_settings(folder)
    return Memory(store, workdir=folder, settings=settings, source="hook")


def store_path(
    folder: Path,
    db: str | None,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Path | PostgresUrl:
    """The store a hook in ``folder`` reads (credo.config.resolve_db_path), absolute: a
    relative ``--db`` or ``CREDO_DB`` is taken from the hook process's folder ``cwd``.
    ``cwd`` and ``environ`` are the hook process's (the warm server passes the client's)."""
    from credo.config import resolve_db_path

    store = resolve_db_path(db, cwd=folder, environ=environ, check_folder=False)
    if not isinstance(store, Path):  # a PostgreSQL URL: nothing to make absolute
        return store
    return store if store.is_absolute() else (cwd if cwd is not None else Path.cwd()) / store


def in_memory(memory: Memory) -> bool:
    """The stand-in store of a project without one: nothing to capture into or keep."""
    return str(memory.path) == ":memory:"


MAX_BLOCK_BYTES = 6 * 1024  # what a prompt's block may weigh (issue #16), whatever its text


def retrieve_for_hook(
    memory: Memory, query: str, token_budget: int, *, beside: str = ""
) -> tuple[RetrievalResult, str]:
    """The hook's retrieval and its memory block, kept under ``MAX_BLOCK_BYTES``. The
    budget counts characters (4 to a token) of the beliefs alone; the header, the free
    anchor suffixes and multi-byte text ("…", "›", non-Latin scripts) come on top. A block
    that still weighs more is retrieved again with the budget scaled down (deterministic:
    the same store and prompt take the same steps). ``beside`` (a notice printed after
    the block) is charged to both the budget and the cap first. The block is returned
    with its result so that ``inject`` need not render it again."""
    from credo.surfaces.render import memory_block

    cap = MAX_BLOCK_BYTES - (len(beside.encode("utf-8")) + 2 if beside else 0)
    budget = max(1, token_budget - -(-len(beside) // 4))
    for _ in range(3):
        result = memory.retrieve(query, token_budget=budget, with_doc_anchors=True)
        block = memory_block(result)
        size = len(block.encode("utf-8"))
        if size <= cap or budget <= 1:
            break
        budget = max(1, int(budget * max(cap, 1) / size * 0.95))
    if beside:
        block = f"{block}\n\n{beside}" if block else beside
    return result, block


def inject(
    memory: Memory,
    result: RetrievalResult,
    *,
    event: str,
    session: str | None,
    prompt: str | None,
    reason: str,
    block: str | None = None,
) -> str:
    """Render ``result`` as the memory block (``block``, when the caller rendered it
    already) and journal it (nothing is journalled for an empty block: nothing was
    injected)."""
    if block is None:
        from credo.surfaces.render import memory_block

        block = memory_block(result)
    if block:
        from credo.agent.journal import log_injection

        log_injection(
            memory,
            event=event,
            session=session,
            prompt=prompt,
            belief_ids=[b.id for b in result.beliefs],
            tokens=result.used_tokens,
            chars=len(block),
            reason=reason,
        )
    return block


class Outcome(NamedTuple):
    """What a hook prints, and the work it leaves for after (``later``, given a store to
    write to: run in a detached child on the direct path, so Claude Code does not wait for
    it, or on the warm server's worker thread after the reply)."""

    output: str
    later: Callable[[Memory], None] | None = None


def on_prompt(memory: Memory, payload: dict[str, Any]) -> Outcome:
    """The block for the prompt, then capture, detached. An acknowledgement ("yes",
    "continue") or a one-word prompt gets the locks alone, as a blank prompt does: they go
    with every prompt, and a single word is too little to retrieve for.

    Capture runs after the block is printed, in a detached child: its patterns cost tens
    of milliseconds to compile in a fresh process, and its write need not hold up the
    prompt. Stop captures from the transcript as well, and capture is idempotent within a
    session, so a child that never ran loses nothing."""
    from credo.knowledge.acknowledge import is_acknowledgement, is_one_word

    prompt: str = payload["prompt"]
    session = text_field(payload, "session_id")
    hooks = memory.settings.hook
    acknowledgement = is_one_word(prompt) or is_acknowledgement(prompt)
    query = "" if acknowledgement else prompt
    notice = ""
    if not acknowledgement and not in_memory(memory) and _may_take_back(prompt):
        from credo.agent.retract import taken_back_notice

        notice = taken_back_notice(memory, prompt)  # named, never deleted on a guess
    # The notice is charged like the beliefs and journalled with them.
    result, rendered = retrieve_for_hook(memory, query, hooks.token_budget, beside=notice)
    reason = "acknowledgement: locks only" if acknowledgement else "retrieval"
    block = inject(
        memory,
        result,
        event="prompt",
        session=session,
        prompt=prompt,
        reason=reason,
        block=rendered,
    )
    if not hooks.capture or acknowledgement or in_memory(memory):
        return Outcome(block)
    return Outcome(block, later=lambda store: capture_later(store, payload))


# What every retraction the hook names holds (knowledge/retraction.py): "what I said about",
# or a verb of dropping with a rule's kind ("never mind the pytz exception"). A prompt with
# neither loads none of its patterns (this runs before the block is printed).
_SAID_WORDS = ("what i said", "what i told", "what i wrote", "take back", "my earlier", "my last")
_DROP_WORDS = ("mind", "forget", "scratch", "disregard", "drop")
_RULE_KINDS = (
    "exception",
    "rule",
    "convention",
    "decision",
    "polic",
    "preference",
    "requir",
    "guideline",
)


# ... or a terse user's "forget the thing about X", "drop the stuff about redis" (days87).
_THING_WORDS = ("thing", "bit", "stuff", "part", "note")
_THING_DROP_WORDS = (*_DROP_WORDS, "ignore")


def _may_take_back(prompt: str) -> bool:
    lower = prompt[:4000].lower()
    return (
        any(w in lower for w in _SAID_WORDS)
        or (any(w in lower for w in _DROP_WORDS) and any(w in lower for w in _RULE_KINDS))
        or (any(w in lower for w in _THING_DROP_WORDS) and any(w in lower for w in _THING_WORDS))
    )


def capture_later(memory: Memory, payload: dict[str, Any]) -> None:
    """Capture what the prompt states or corrects (in the detached child, a store of its
    own, opened afresh; in the warm server, its store)."""
    from credo.agent.capture import capture_prompt

    transcript = text_field(payload, "transcript_path")
    capture_prompt(
        memory,
        payload["prompt"],
        session=text_field(payload, "session_id"),
        transcript=transcript,
        turn=prompt_turn(transcript, payload["prompt"]) if transcript else None,
    )


def prompt_turn(transcript: str, prompt: str) -> int:
    """The prompt's turn number in the transcript: its own entry when Claude Code wrote it
    before the hook ran, else the one after the last user turn."""
    from credo.knowledge.transcript import user_turns

    turns = user_turns(transcript)
    if turns and turns[-1].text.strip() == prompt.strip():
        return turns[-1].number
    return (turns[-1].number if turns else 0) + 1


def on_session_start(memory: Memory, payload: dict[str, Any]) -> Outcome:
    """The locks and the most useful beliefs, as SessionStart's ``additionalContext``."""
    from credo.agent.startup import session_start
    from credo.surfaces.render import SESSION_START_SOURCE, memory_block

    source = text_field(payload, "source") or "startup"
    result = session_start(memory, token_budget=memory.settings.hook.session_start_budget)
    block = inject(
        memory,
        result,
        event="session_start",
        session=text_field(payload, "session_id"),
        prompt=None,
        reason=source,
        block=memory_block(result, source=SESSION_START_SOURCE),
    )
    if not block:
        return Outcome("")
    output = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": block}}
    return Outcome(json_output(output))


STOP_TURNS = 3  # the user turns Stop captures from: this exchange's, and a margin


def on_stop(memory: Memory, payload: dict[str, Any]) -> Outcome:
    """Capture from the transcript's last user turns (those the prompt hook's detached
    capture may have missed), credit what the reply used, and list for the user what this
    session captured since the last listing (``systemMessage``: shown, not sent to the
    model)."""
    from credo.agent.capture import captures, mark_listed

    session = text_field(payload, "session_id")
    transcript = text_field(payload, "transcript_path")
    hooks = memory.settings.hook
    turns = []
    if transcript is not None and (hooks.capture or hooks.auto_feedback):
        from credo.knowledge.transcript import user_turns

        turns = user_turns(transcript)
    if hooks.capture and transcript is not None:
        from credo.agent.capture import capture_turns

        capture_turns(memory, turns[-STOP_TURNS:], transcript=transcript, session=session)
    if hooks.auto_feedback and session is not None:
        from credo.agent.feedback import feedback_from_reply

        reply = text_field(payload, "last_assistant_message")
        if reply is None and transcript is not None:
            from credo.knowledge.transcript import last_assistant_text

            reply = last_assistant_text(transcript)
        prompt = turns[-1].text if turns else None  # its words are echoes, not use
        if reply:
            feedback_from_reply(memory, session=session, reply=reply, prompt=prompt)
    fresh = captures(memory, session=session, unlisted=True)
    if not fresh:
        return Outcome("")
    mark_listed(memory, [c.belief_id for c in fresh])
    from credo.surfaces.render import captured_message

    message = captured_message(fresh, session)
    return Outcome(json_output({"systemMessage": message}))


def on_subagent(memory: Memory, payload: dict[str, Any]) -> Outcome:
    """The memory block for a subagent's task, in front of the prompt it is given."""
    tool_input = payload.get("tool_input")
    if payload.get("tool_name") not in SUBAGENT_TOOLS or not isinstance(tool_input, dict):
        raise HookSkip(f"not a subagent call: {str(payload.get('tool_name'))[:40]!r}")
    task = tool_input.get("prompt")
    if not isinstance(task, str) or not task.strip():
        raise HookSkip("the subagent call has no string 'prompt'")
    result, rendered = retrieve_for_hook(memory, task, memory.settings.hook.token_budget)
    block = inject(
        memory,
        result,
        event="subagent",
        session=text_field(payload, "session_id"),
        prompt=task,
        reason=str(tool_input.get("subagent_type") or "subagent")[:80],
        block=rendered,
    )
    if not block:
        return Outcome("")
    updated = {**tool_input, "prompt": f"{block}\n{task}"}
    output = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": updated}}
    return Outcome(json_output(output))


def json_output(output: dict[str, Any]) -> str:
    """What an event that answers in JSON prints (``json`` imported here: the module
    docstring)."""
    import json

    return json.dumps(output, ensure_ascii=False)


HANDLERS = {
    "prompt": on_prompt,
    "session-start": on_session_start,
    "stop": on_stop,
    "subagent": on_subagent,
}


def outcome_for(event: str, payload: dict[str, Any], db: str | None = None) -> Outcome:
    """What the hook prints for ``event`` ("" for nothing), and what it leaves for after:
    its journal write too when there is work for after already (a capture). A commit costs
    a fresh process its fsyncs, and, as the store's last connection, the checkpoint at
    close (1.5-5.5 ms together on this project's test machine, more on a slow disk): the
    detached child that captures makes it, after the output is printed. Alone, it is made
    here: a child forked for it would cost as much (measured)."""
    with open_memory(payload, db, global_only=event != "stop") as memory:
        if in_memory(memory):  # nothing outlives this process: write here
            return HANDLERS[event](memory, payload)
        memory.deferred_writes = writes = []
        try:
            output, later = HANDLERS[event](memory, payload)
        finally:
            memory.deferred_writes = None
        if later is None:
            for write in writes:
                write(memory)
            return Outcome(output)
        return Outcome(output, deferred_then(writes, later))


def deferred_then(
    writes: list[Callable[[Memory], None]], later: Callable[[Memory], None] | None
) -> Callable[[Memory], None] | None:
    """The work after the output: the journal writes the handler deferred, then its own."""
    if not writes:
        return later

    def job(memory: Memory) -> None:
        for write in writes:
            write(memory)
        if later is not None:
            later(memory)

    return job


def memory_block_for(payload: dict[str, Any], db: str | None = None) -> str:
    """The UserPromptSubmit block for ``payload``; its journal write and capture left out."""
    return outcome_for("prompt", payload, db).output


def run_detached(job: Callable[[], None]) -> None:
    """Run ``job`` in a child that outlives this process: a session of its own, its output
    to /dev/null, so Claude Code (which waits for the hook and its pipes) does not wait
    for it. Where there is no fork, or with ``CREDO_HOOK_INLINE=1``, it runs here."""
    if not hasattr(os, "fork") or os.environ.get("CREDO_HOOK_INLINE", "").strip() == "1":
        try:
            job()
        except Exception as exc:  # the output is printed already: a hook never fails
            log(f"error after the hook: {type(exc).__name__}: {exc}")
        return
    if os.fork():
        return
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        job()
    except BaseException as exc:  # nobody to tell but the log
        log(f"error after the hook: {type(exc).__name__}: {exc}")
    finally:
        os._exit(0)


def run(stdin: BinaryIO, stdout: BinaryIO, db: str | None = None, event: str = "prompt") -> int:
    """Read the payload, print the event's output, return the exit status: always 0. The
    direct path: this process opens the store (credo.surfaces.warm asks a warm server
    first)."""
    return run_bytes(stdin.read(MAX_PAYLOAD_BYTES + 1), stdout, db, event)


def run_bytes(raw: bytes, stdout: BinaryIO, db: str | None = None, event: str = "prompt") -> int:
    """``run`` on a payload already read."""
    started = time.perf_counter()
    try:
        if event not in HANDLERS:
            raise HookSkip(f"unknown hook event {event[:40]!r}; known: {', '.join(HANDLERS)}")
        payload = parse_payload(raw, event)
        output, later = outcome_for(event, payload, db)
    except HookSkip as skip:
        log(f"skip {event[:40]}: {skip}")
        return 0
    except (Exception, KeyboardInterrupt) as exc:
        # Any failure, ours or the store's: the agent goes on without memory.
        log(f"error {event[:40]}: {type(exc).__name__}: {exc}")
        return 0
    if output:
        try:
            stdout.write(output.encode("utf-8"))
            stdout.flush()
        except OSError as exc:  # Claude Code closed the pipe (timeout): nothing to do
            log(f"error {event}: cannot write the output: {exc}")
    elapsed = (time.perf_counter() - started) * 1000
    if os.environ.get("CREDO_HOOK_TRACE"):
        log(f"ok {event}: {len(output)} chars in {elapsed:.1f} ms")
    if later is not None:
        job = later
        run_detached(lambda: _with_store(payload, db, job))
    return 0


def _with_store(payload: dict[str, Any], db: str | None, job: Callable[[Memory], None]) -> None:
    with open_memory(payload, db) as memory:
        job(memory)


def main(db: str | None = None, event: str | None = None) -> int:
    """The hook command: the warm server's answer if one gives it, else the direct path."""
    from credo.surfaces import warm

    return warm.main(event, db)  # no event: warm.event_from_argv reads it


if __name__ == "__main__":  # python -m credo.surfaces.hook EVENT: the hook without the CLI
    sys.exit(main(event=sys.argv[1] if len(sys.argv) > 1 else "prompt"))
