"""``credo mcp``: the MCP server (stdio) on the official ``mcp`` SDK 2.x (``MCPServer``).

Every tool is one ``Memory`` call: the server parses nothing itself, renders through
``credo.surfaces.render`` and turns ``CredoError`` into a ``ToolError`` the model can read and
recover from. Nothing here writes to stdout: on stdio, stdout is the protocol.

This module imports the SDK at import time; only ``credo mcp`` (and tests) import it, so the
hook and the rest of the CLI never pay for it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import ToolAnnotations
from pydantic import ConfigDict, Field, ValidationError

from credo import __version__
from credo.agent import global_store
from credo.agent.journal import log_injection
from credo.edge_types import EdgeType
from credo.errors import CredoError
from credo.memory import Memory
from credo.surfaces.render import memory_block, replaced, result_json, to_jsonable
from credo.types import BELIEF_KINDS

SERVER_NAME = "credo"

INSTRUCTIONS = """\
credo is this project's long-term memory: short statements (beliefs) that the user or \
earlier sessions recorded, linked to each other and to the files they are about.

1. Call search_memory first, with the user's request or the topic you are about to work \
on, before you answer, plan or edit. Beliefs marked locked are user-confirmed ground truth: \
follow them over your own assumptions. A long belief may be shown cut to the sentences that \
match ("…" where text is left out): get_belief reads it whole.
2. When the user states a durable fact, preference or correction, or you verify one, save \
it with remember_belief (one short self-contained statement; pass doc= for the file it is \
about). Lock it with lock_belief only when the user confirms it as a rule.
3. After a belief helped or misled you, report it with give_feedback (used / harmful).
4. Connect beliefs with relate_beliefs, and beliefs to files with link_document; \
list_anchors answers "which beliefs are about this file?". A correction remembered with \
kind "correction" supersedes the belief it clearly replaces by itself (its result lists \
`supersedes`); otherwise, when a newer belief replaces an old one, relate_beliefs(new, old, \
"SUPERSEDES"): searches then serve the new one. Beliefs \
marked "conflicts with" disagree: ask the user which holds, then resolve_conflict.
Tool errors explain what was wrong and what to do; fix the call and retry."""


def _write(*, idempotent: bool, destructive: bool = False) -> ToolAnnotations:
    # open_world_hint=False on writes too: the store is a local file, not the outside world.
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

Scope = Annotated[
    Literal["project", "global"],
    Field(
        description="'global': the user-global store, for the user's own rules in every "
        "project (its locked beliefs join every project's searches); only when the user "
        "asks for that.",
    ),
]

BeliefId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        description="A belief id: whole, or the short form the memory block shows.",
    ),
]


@contextlib.contextmanager
def _tool_errors(memory: Memory, code: str | None) -> Iterator[None]:
    """CredoError messages are written to be shown to a model (errors.py): pass them on as a
    ToolError, so the call returns is_error with the message and the server keeps running.
    A store that a newer credo migrated since this server opened it answers every call with
    the error that says to restart the server (store.check_current); so does credo's own
    code changed on disk since the server started (``code``: warm.code_id), which would
    otherwise mix the old modules loaded with the new ones a call imports first."""
    if code is not None:
        _same_code(code)
    try:
        with memory.store.checked():  # (once: the retrieves inside take it as theirs)
            yield
    except CredoError as exc:
        raise ToolError(" ".join(str(exc).split())) from None


def _same_code(code: str) -> None:
    from credo.surfaces import warm

    now = warm.code_now()
    if now != code:
        raise ToolError(
            f"credo's code changed on disk since this MCP server started ({code} -> {now}): "
            "restart the MCP server to use it (in Claude Code: /mcp, then reconnect credo)"
        )


# A tool call's argument errors as one line a model can act on. The SDK reports arguments
# that fail its schema with pydantic's own report: several lines per error, the model class's
# name and a documentation link each ("2 validation errors for search_memoryArguments ... For
# further information visit ..."). A model mistyping ``querry`` needs to read which argument is
# unknown, which is missing, and what the tool takes, on one line, as every other error reads.
_SHOWN_CHARS = 40  # of a rejected value: enough to recognise it, never the caller's whole text


def argument_error(tool: str, error: ValidationError, parameters: Iterable[str]) -> str:
    """``error`` (the SDK's validation of ``tool``'s arguments) as one line, naming what the
    tool takes when an argument is unknown or missing."""
    unknown: list[str] = []
    missing: list[str] = []
    wrong: list[str] = []
    for detail in error.errors(include_url=False):
        name = ".".join(str(part) for part in detail["loc"]) or "arguments"
        if detail["type"] == "extra_forbidden":
            unknown.append(repr(name))
        elif detail["type"] == "missing":
            missing.append(repr(name))
        else:
            wrong.append(f"{name}: {_message(detail)}")
    parts = []
    if unknown:
        parts.append(f"unknown argument{'s' * (len(unknown) > 1)} {', '.join(unknown)}")
    if missing:
        parts.append(f"missing argument{'s' * (len(missing) > 1)} {', '.join(missing)}")
    parts.extend(wrong)
    line = f"{tool}: {'; '.join(parts)}"
    if unknown or missing:
        line += f" ({tool} takes {', '.join(parameters) or 'no arguments'})"
    return " ".join(line.split())


def _message(detail: Any) -> str:
    shown = repr(detail.get("input"))
    if len(shown) > _SHOWN_CHARS:
        shown = shown[: _SHOWN_CHARS - 1] + "…"
    return f"{detail['msg']} (got {shown})"


class _CredoServer(MCPServer):
    """The SDK's server, with argument errors on one line (``argument_error``)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            # (an UnexpectedToolError is a crash in the tool's body, even one that raised a
            # ValidationError: its text stays on the server, the SDK logs it as a crash)
            if isinstance(exc, UnexpectedToolError) or not isinstance(
                exc.__cause__, ValidationError
            ):
                raise
            tools = {tool.name: tool for tool in await self.list_tools()}
            parameters = tools[name].input_schema.get("properties", {}) if name in tools else {}
            raise ToolError(argument_error(name, exc.__cause__, parameters)) from exc.__cause__


def build_server(memory: Memory, code: str | None = None) -> MCPServer:
    """An ``MCPServer`` whose tools act on ``memory`` (opened once, by the caller).

    The tools are ``async`` so they run on the event loop one at a time: the store is one
    SQLite connection, and each call takes milliseconds. ``code``: the credo code this
    process started with (``warm.settled_code_id``); None checks nothing (a test's server).
    """
    guard = functools.partial(_tool_errors, memory, code)
    server = _CredoServer(
        SERVER_NAME,
        title="credo memory",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )

    @server.tool(title="Search memory", annotations=READ_ONLY)
    async def search_memory(
        query: Annotated[
            str,
            Field(
                description="What you need to know: the user's request or the topic at hand "
                "(empty: only the locked beliefs).",
            ),
        ],
        budget: Annotated[
            int, Field(ge=1, le=100_000, description="Token budget for the packed beliefs.")
        ] = 2400,
        history: Annotated[
            bool, Field(description="Also pack superseded beliefs (marked superseded_by).")
        ] = False,
    ) -> dict[str, Any]:
        """Recall what this project's memory knows about a topic. Call it first.

        Returns the beliefs that matter for the query, packed into the token budget: locked
        beliefs (user-confirmed ground truth) first, then the best matches by relevance. Each
        belief has its id (use it with the other tools), content, rendered (what the block
        shows: a long belief may be cut to the sentences that match, `strategy` snippet or
        headline; get_belief reads it whole), locked flag, score,
        cluster_id (beliefs on the same sub-topic share one), doc_anchors (the files and
        line ranges it is about), trail (a passage's file, section and lines, whole; place
        splits it; the block says the file and section once, above the passages under them,
        and each passage's line only its lines: trail_shown), replaces (older beliefs it
        supersedes, left out) and conflicts (beliefs it contradicts, packed beside it: ask
        the user which holds). `memory_block` is the same result as one text block.
        """
        with guard():
            result = memory.retrieve(
                query, token_budget=budget, with_doc_anchors=True, include_superseded=history
            )
            block = memory_block(result)
            if block:  # what the model was given goes in the journal, as the hooks' does
                log_injection(
                    memory,
                    event="mcp",
                    session=None,
                    prompt=query,
                    belief_ids=[b.id for b in result.beliefs],
                    tokens=result.used_tokens,
                    chars=len(block),
                    reason="search_memory",
                )
        return {**result_json(result), "memory_block": block}

    @server.tool(title="Get a belief", annotations=READ_ONLY)
    async def get_belief(id: BeliefId) -> dict[str, Any]:
        """Read one belief whole: its full text (search_memory may show a long belief cut
        to the sentences that match, with "…" where text is left out), kind, origin,
        locked flag, confidence, its anchors (files and line ranges) and its edges. Returns
        them as `credo show ID --json` does."""
        with guard():
            belief = memory.get(id)
            anchors = memory.anchors(id)
            edges = memory.edges(id)
        return {
            "belief": to_jsonable(belief),
            "anchors": to_jsonable(anchors),
            "edges": to_jsonable(edges),
        }

    @server.tool(title="Remember a belief", annotations=_write(idempotent=False))
    async def remember_belief(
        text: Annotated[
            str,
            Field(
                min_length=1,
                description="One short, self-contained statement (not a whole document).",
            ),
        ],
        doc: Annotated[
            str | None,
            Field(
                description="Optional file the belief is about: path, path#L12-L30 or URL.",
            ),
        ] = None,
        kind: Annotated[str, Field(description=f"One of: {', '.join(BELIEF_KINDS)}.")] = "factual",
        scope: Scope = "project",
        retention: Annotated[
            str | None,
            Field(
                description="fact (holds until changed), snapshot (true at a time: a status, "
                "a version) or transient (for a while only); omitted: told from the text.",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Save a durable fact, preference, requirement or correction to memory.

        Returns the stored belief with its id. Saving the same text again corroborates the
        existing belief instead of duplicating it. Use it for what the user states or what
        you verified, not for guesses. A correction ("we moved from npm to pnpm for
        installing packages") supersedes the one stored belief it clearly replaces and is
        marked as conflicting with those it only disputes: `supersedes` and `contradicts`
        list their ids (undo a wrong one with forget_belief on the correction).
        """
        with guard(), _store(memory, scope) as target:
            belief_id = target.remember(
                text,
                doc=doc,
                kind=kind,
                origin="agent_inferred",
                retention=retention,
                doc_must_exist=True,
            )
            belief = target.get(belief_id)
            anchors = target.anchors(belief_id)
            edges = replaced(belief_id, target.edges(belief_id))
        return {"belief": to_jsonable(belief), "anchors": to_jsonable(anchors), **edges}

    @server.tool(title="Lock a belief", annotations=_write(idempotent=True))
    async def lock_belief(id: BeliefId, scope: Scope = "project") -> dict[str, Any]:
        """Mark a belief as user-confirmed ground truth: it is then always recalled first.

        Only lock what the user confirmed as a rule. Returns the updated belief. A belief
        of the user-global store (remembered with scope 'global') is locked with scope
        'global': every project then recalls it, marked global.
        """
        with guard(), _store(memory, scope, create=False) as target:
            belief = target.lock(id)
        return {"belief": to_jsonable(belief)}

    @server.tool(title="Relate two beliefs", annotations=_write(idempotent=False))
    async def relate_beliefs(
        src: BeliefId,
        dst: BeliefId,
        type: Annotated[
            str,
            Field(description=f"Edge type, one of: {', '.join(t.value for t in EdgeType)}."),
        ],
        weight: Annotated[
            float | None,
            Field(ge=-1.0, le=1.0, description="Optional weight in [-1, 1]; default by type."),
        ] = None,
    ) -> dict[str, Any]:
        """Add a typed edge src -> dst, e.g. a correction SUPERSEDES an old belief (searches
        then serve the new one in its place), a test TESTS a requirement, evidence SUPPORTS a
        claim. Related beliefs are recalled together.

        Returns the edge. Adding the same (src, dst, type) twice is an error, and so is
        superseding a locked belief: only the user can retire a lock.
        """
        with guard():
            edge = memory.relate(src, dst, type, weight=weight)
        return {"edge": to_jsonable(edge)}

    @server.tool(title="List open contradictions", annotations=READ_ONLY)
    async def list_conflicts() -> dict[str, Any]:
        """List the open contradictions: pairs of current beliefs joined by CONTRADICTS and
        not yet resolved, the locked one first when one is (it outranks the other). Returns
        the pairs; settle one with resolve_conflict once the user says which holds."""
        with guard():
            found = memory.conflicts()
        return {"conflicts": to_jsonable(found)}

    @server.tool(title="Resolve a contradiction", annotations=_write(idempotent=False))
    async def resolve_conflict(winner: BeliefId, loser: BeliefId) -> dict[str, Any]:
        """Settle a contradiction the user decided: winner SUPERSEDES and RESOLVES loser, so
        searches serve the winner only. A locked loser cannot be retired this way (the
        user does it). Returns the edges written."""
        with guard():
            written = memory.resolve(winner, loser)
        return {"edges": to_jsonable(written)}

    @server.tool(title="Link a belief to a document", annotations=_write(idempotent=True))
    async def link_document(
        id: BeliefId,
        uri: Annotated[
            str,
            Field(min_length=1, description="File path (repo-relative or absolute) or URL."),
        ],
        lines: Annotated[
            str | None, Field(description="Optional line range in the file, like '12-30'.")
        ] = None,
    ) -> dict[str, Any]:
        """Anchor a belief to the file (and line range) it is about, so a search that names
        the file finds it and results show where it comes from. Returns the anchor."""
        with guard():
            anchor = memory.link(id, uri, lines=lines, must_exist=True)
        return {"anchor": to_jsonable(anchor)}

    @server.tool(title="Unlink a belief from a document", annotations=_write(idempotent=True))
    async def unlink_document(
        id: BeliefId,
        uri: Annotated[
            str,
            Field(
                min_length=1,
                description="The anchored file (as list_anchors shows it, or a path) or URL.",
            ),
        ],
        lines: Annotated[
            str | None, Field(description="Optional line range, like '12-30': that anchor only.")
        ] = None,
    ) -> dict[str, Any]:
        """Drop a belief's anchor to a file that was deleted or was the wrong one: with a
        line range (in uri's #L12-L30 or lines) that anchor, without one every anchor of the
        belief to that file. The belief stays. Returns the anchors dropped."""
        with guard():
            dropped = memory.unlink(id, uri, lines=lines)
        return {"unlinked": to_jsonable(dropped)}

    @server.tool(title="List document anchors", annotations=READ_ONLY)
    async def list_anchors(
        id: Annotated[
            str | None, Field(description="A belief id: list the documents it is about.")
        ] = None,
        doc: Annotated[
            str | None,
            Field(description="A file, folder/ or URL: list the beliefs anchored to it."),
        ] = None,
    ) -> dict[str, Any]:
        """Give exactly one of `id` (the documents a belief is about) or `doc` (the beliefs
        about a file or everything under a folder/). Returns the anchors."""
        if (id is None) == (doc is None):
            raise ToolError("give exactly one of id (a belief id) or doc (a path or URL)")
        with guard():
            found = memory.anchors(id) if id is not None else memory.beliefs_for_doc(doc or "")
        return {"anchors": to_jsonable(found)}

    @server.tool(title="Forget a belief", annotations=_write(idempotent=True, destructive=True))
    async def forget_belief(
        id: BeliefId,
        hard: Annotated[
            bool,
            # Strict: an erase that cannot be undone takes true, not "yes" or 1 (lax pydantic).
            Field(
                strict=True,
                description="Erase it for good (text, edges, anchors) instead of hiding it.",
            ),
        ] = False,
    ) -> dict[str, Any]:
        """Forget a wrong or obsolete belief: by default it is hidden from recall but kept for
        audit (remembering the same text revives it); hard=True erases it. Prefer
        relate_beliefs(new, old, "SUPERSEDES") when a newer belief replaces it. An id this
        project's store does not hold is forgotten in the user-global store (`store` says
        which). `current_again` lists the beliefs it alone superseded: searches serve them
        as current again (forget or supersede them too if they are outdated)."""
        with guard():
            where, full, again = global_store.forget_naming_current(memory, id, hard=hard)
        return {"id": full, "forgotten": True, "hard": hard, "store": where, "current_again": again}

    @server.tool(title="Give feedback on a belief", annotations=_write(idempotent=False))
    async def give_feedback(
        id: BeliefId,
        signal: Annotated[
            Literal["used", "harmful"],
            Field(description="'used' if it helped, 'harmful' if it was wrong or misleading."),
        ],
    ) -> dict[str, Any]:
        """Report whether a recalled belief helped ('used') or misled you ('harmful'); this
        moves its confidence, which ranking takes into account. Returns the belief."""
        with guard():
            belief = memory.feedback(id, signal)
        return {"belief": to_jsonable(belief)}

    _refuse_unknown_arguments(server)
    return server


def _refuse_unknown_arguments(server: MCPServer) -> None:
    """Make each tool refuse an argument it does not take, as a tool error naming it.

    The SDK's argument models ignore extra keys (pydantic's default), so a call that said
    ``search_memory(token_budget=500)`` (the name the result itself uses) packed 2,400
    tokens, ``remember_belief(uri=...)`` stored no anchor and ``lock=True`` locked nothing,
    each answered as a success. The tools' published schemas are left as they are. The
    tools are reached through the server's tool manager (no public accessor in SDK 2.x;
    without one this is skipped and the SDK's behaviour stays: tests/test_mcp.py says so).
    """
    manager = getattr(server, "_tool_manager", None)
    if manager is None:
        return
    for tool in manager.list_tools():
        model = tool.fn_metadata.arg_model
        config = ConfigDict(**{**model.model_config, "extra": "forbid"})
        tool.fn_metadata.arg_model = type(model.__name__, (model,), {"model_config": config})


@contextlib.contextmanager
def _store(memory: Memory, scope: str, *, create: bool = True) -> Iterator[Memory]:
    """The project's store, or the user-global one opened for this call."""
    if scope != "global":
        yield memory
        return
    with global_store.open_global(create=create, source="mcp") as other:
        yield other


def serve(db: str | None = None) -> None:
    """Open the store once (resolved like the CLI: ``db``, env ``CREDO_DB``, the git work
    tree's ``.credo/memory.db``) and serve it on stdio until the client closes the pipe;
    the hooks' warm socket for the same store is served beside it (``CREDO_WARM=off``
    turns that off)."""
    from credo.surfaces import warm

    code = warm.settled_code_id()  # (before the first tool's imports: see its docstring)
    memory = Memory(db, source="mcp")
    # The hooks' warm server (credo.surfaces.serve) in background threads, on its own
    # Memory: the hook of every prompt in this session asks it first.
    from credo.surfaces import serve as warm_server

    # A SQLite file (once it exists) or a PostgreSQL store.
    path = memory.path
    listener = (
        warm_server.start_quietly(path) if not isinstance(path, Path) or path.is_file() else None
    )
    try:
        build_server(memory, code).run("stdio")
    finally:
        if listener is not None:
            listener.stop()
        memory.close()
