"""The ``credo`` command line. It only picks the store and the output format; ``Memory`` does
the work and ``render`` formats it. Every ``CredoError`` becomes one ``Error: ...`` line on
stderr and exit status 1, in one place (``CredoGroup.invoke``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from credo.errors import CredoError
from credo.types import RETENTIONS

if TYPE_CHECKING:
    from credo.memory import Memory

F = TypeVar("F", bound=Callable[..., Any])


# Commands that live in their own modules, imported only when run: the hook must not pay
# for the MCP SDK, and `credo search` must not pay for ingest. name -> "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "mcp": "credo.surfaces.cli.agent:mcp",
    "hook": "credo.surfaces.cli.agent:hook",
    "setup": "credo.surfaces.cli.agent:setup",
    "dedup": "credo.surfaces.cli.dedup:dedup",
    "export": "credo.surfaces.cli.records:export",
    "import": "credo.surfaces.cli.records:import_",
    "demo": "credo.surfaces.cli.demo:demo",
    "backup": "credo.surfaces.cli.ops:backup",
    "captured": "credo.surfaces.cli.capture:captured",
    "conflicts": "credo.surfaces.cli.truth:conflicts",
    "history": "credo.surfaces.cli.truth:history",
    "log": "credo.surfaces.cli.journal:log",
    "migrate": "credo.surfaces.cli.ops:migrate",
    "resolve": "credo.surfaces.cli.truth:resolve",
    "restore": "credo.surfaces.cli.ops:restore",
    "serve": "credo.surfaces.cli.agent:serve",
    "unlink": "credo.surfaces.cli.unlink:unlink",
}


class CredoGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = LAZY_COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        import importlib

        module, _, attribute = target.partition(":")
        try:
            command = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError):
            return None  # that part is not installed in this build
        return command if isinstance(command, click.Command) else None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CredoError as exc:
            click.echo(f"Error: {_one_line(str(exc))}", err=True)
            ctx.exit(1)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("Error: interrupted; nothing half-written was kept", err=True)
            ctx.exit(130)
        except Exception as exc:
            if os.environ.get("CREDO_DEBUG"):
                raise
            click.echo(
                f"Error: internal error ({type(exc).__name__}: {_one_line(str(exc))}); "
                "rerun with CREDO_DEBUG=1 for a traceback",
                err=True,
            )
            ctx.exit(2)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def selected_db(ctx: click.Context) -> str | None:
    """The ``--db`` / ``CREDO_DB`` value the root group took (``None``: the default store)."""
    obj = ctx.find_root().obj
    return obj.get("db") if isinstance(obj, dict) else None


def open_memory(ctx: click.Context, *, create: bool = False, or_global: bool = False) -> Memory:
    """The command's Memory, opened once per invocation and closed with the context: only a
    write (``create``) makes a missing store (credo.agent.global_store.open_project)."""
    from credo.agent.global_store import open_project

    root = ctx.find_root()
    obj = root.ensure_object(dict)
    if "memory" not in obj:
        db = selected_db(ctx)
        typed = root.get_parameter_source("db") == click.core.ParameterSource.COMMANDLINE
        obj["memory"] = open_project(
            db, source="cli", create=create, or_global=or_global and not typed
        )
        ctx.call_on_close(obj["memory"].close)
    return obj["memory"]


def open_store(ctx: click.Context, use_global: bool, *, create: bool = True) -> Memory:
    """The project's store, or with ``--global`` the user-global one (each created by a
    write that adds to it, never by one that needs a belief there already)."""
    if not use_global:
        return open_memory(ctx, create=create)
    from credo.agent.global_store import open_global

    obj = ctx.find_root().ensure_object(dict)
    if "global" not in obj:
        obj["global"] = open_global(create=create, source="cli")
        ctx.call_on_close(obj["global"].close)
    return obj["global"]


def global_option(help: str) -> Callable[[F], F]:
    return click.option("--global", "use_global", is_flag=True, help=help)


def emit(as_json: bool, data: Any, text: str | Callable[[], str]) -> None:
    if as_json:
        from credo.surfaces.render import json_text

        click.echo(json_text(data))
    else:
        click.echo(text() if callable(text) else text)


@click.group(cls=CredoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    metavar="FILE",  # not click.Path: a folder is config's one-line error, naming its source
    envvar="CREDO_DB",
    help="Store file or postgresql:// URL (default: [store] location in .credo.toml, else "
    ".credo/memory.db in the git work tree, else the user data dir).",
)
@click.version_option(package_name="credo")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """credo: local-first memory for AI agents. A belief ID may be given whole or by the
    short prefix the memory block shows (its shortest unique one, at least 8 characters)."""
    if ctx.get_parameter_source("db") == click.core.ParameterSource.ENVIRONMENT:
        db = None  # read from CREDO_DB where the store is resolved, so an error names it
    ctx.ensure_object(dict)["db"] = db


@cli.command()
@json_option
@click.pass_context
def init(ctx: click.Context, as_json: bool) -> None:
    """Create the store (or open and migrate it) and print where it is."""
    stats = open_memory(ctx, create=True).stats()
    emit(
        as_json,
        {"path": stats.path, "schema_version": stats.schema_version},
        f"store ready: {stats.path} (schema v{stats.schema_version})",
    )


@cli.command()
@click.argument("text")
@click.option("--doc", help="Anchor the belief to a document: path, path#L12-L30 or URL.")
@click.option("--lock", is_flag=True, help="Lock it: user ground truth, always retrieved.")
@click.option(
    "--kind",
    default="factual",
    show_default=True,
    help="factual, requirement, preference, correction, procedure, note.",
)
@click.option("--origin", default="user_stated", show_default=True)
@click.option("--session", help="Group the belief under a session name.")
@click.option("--id", "belief_id", help="Use this id instead of the content-hash id.")
@click.option("--retention", type=click.Choice(RETENTIONS), help="Default: told from the text.")
@global_option("Store it in the user-global store; with --lock, every project gets it.")
@json_option
@click.pass_context
def remember(
    ctx: click.Context,
    text: str,
    doc: str | None,
    lock: bool,
    kind: str,
    origin: str,
    session: str | None,
    belief_id: str | None,
    retention: str | None,
    use_global: bool,
    as_json: bool,
) -> None:
    """Store TEXT as a belief and print its id (the same text again corroborates it). A
    correction (--kind correction) supersedes the belief it clearly replaces, by capture's
    rule, and prints it (JSON: supersedes, contradicts); `credo forget ID` undoes it."""
    from credo.surfaces.cli.paths import from_here

    memory = open_store(ctx, use_global)
    new_id = memory.remember(
        text,
        doc=from_here(doc) if doc is not None else None,
        doc_must_exist=True,
        kind=kind,
        origin=origin,
        session=session,
        lock=lock,
        id=belief_id,
        retention=retention,
    )
    from credo.surfaces.render import remembered_text, replaced, to_jsonable

    edges = replaced(new_id, memory.edges(new_id))
    belief = to_jsonable(memory.get(new_id))
    emit(as_json, {**belief, **edges}, lambda: remembered_text(new_id, edges))


@cli.command()
@click.argument("belief_id", required=False)
@click.option("--captured", is_flag=True, help="Lock every captured belief not locked yet.")
@click.option("--session", help="With --captured: only those captured in this session.")
@global_option("Lock it in the user-global store: every project's searches include it.")
@json_option
@click.pass_context
def lock(
    ctx: click.Context,
    belief_id: str | None,
    captured: bool,
    session: str | None,
    use_global: bool,
    as_json: bool,
) -> None:
    """Lock a belief (always included first in retrieval), or with --captured every belief
    captured from the user's words (`credo captured` lists them)."""
    if captured and belief_id is None and not use_global:
        from credo.surfaces.cli.capture import lock_captured

        return lock_captured(ctx, session, as_json)
    if captured or belief_id is None or session is not None:
        raise click.UsageError("give either a belief ID or --captured [--session ID]")
    belief = open_store(ctx, use_global, create=False).lock(belief_id)
    emit(as_json, belief, f"locked {belief.id}" + (" (global)" if use_global else ""))


@cli.command()
@click.argument("belief_id")
@global_option("Unlock it in the user-global store.")
@json_option
@click.pass_context
def unlock(ctx: click.Context, belief_id: str, use_global: bool, as_json: bool) -> None:
    """Unlock a belief."""
    belief = open_store(ctx, use_global, create=False).unlock(belief_id)
    emit(as_json, belief, f"unlocked {belief.id}" + (" (global)" if use_global else ""))


@cli.command()
@click.argument("src")
@click.argument("dst")
@click.argument("edge_type", metavar="TYPE")
@click.option("--weight", type=float, help="Edge weight in [-1, 1] (default: the type's valence).")
@click.option("--anchor-text", help="Words SRC uses for DST; they make DST findable by them.")
@click.option("--force", is_flag=True, help="Let SRC supersede a locked DST (the user's call).")
@json_option
@click.pass_context
def relate(
    ctx: click.Context,
    src: str,
    dst: str,
    edge_type: str,
    weight: float | None,
    anchor_text: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Add a typed edge SRC -TYPE-> DST (SUPPORTS, CITES, DERIVED_FROM, ...). SRC SUPERSEDES
    DST retires DST: searches serve SRC in its place."""
    edge = open_memory(ctx).relate(
        src, dst, edge_type, weight=weight, anchor_text=anchor_text, force=force
    )
    emit(as_json, edge, f"{edge.src} -{edge.type.value}({edge.weight:g})-> {edge.dst}")


@cli.command()
@click.argument("belief_id")
@click.option("--hard", is_flag=True, help="Remove it for good: text, edges, anchors, log text.")
@global_option("Forget it in the user-global store (by default: there when not in the project).")
@json_option
@click.pass_context
def forget(ctx: click.Context, belief_id: str, hard: bool, use_global: bool, as_json: bool) -> None:
    """Forget a belief (soft by default: kept for audit, never retrieved). An id the
    project's store does not hold is looked up in the user-global store."""
    from credo.agent.global_store import forget_naming_current

    found = open_store(ctx, True, create=False) if use_global else open_memory(ctx, or_global=True)
    where, belief_id, again = forget_naming_current(found, belief_id, hard=hard, here=use_global)
    where = "global" if use_global else where
    emit(
        as_json,
        {"id": belief_id, "hard": hard, "store": where, "current_again": again},
        f"forgot {belief_id} ({where} store{', hard' if hard else ''})"
        + "".join(f"\ncurrent again: {o} (it replaced it; `credo history {o}`)" for o in again),
    )


@cli.command()
@click.argument("belief_id", required=False)
@click.argument(
    "signal", required=False, type=click.Choice(["used", "harmful"]), metavar="[used|harmful]"
)
@click.option(
    "--undo-session",
    metavar="ID",
    help="Instead: take back the automatic feedback a Claude Code session gave.",
)
@json_option
@click.pass_context
def feedback(
    ctx: click.Context,
    belief_id: str | None,
    signal: str | None,
    undo_session: str | None,
    as_json: bool,
) -> None:
    """Record that a belief was used (more confidence) or harmful (less), or with
    --undo-session undo a session's automatic feedback."""
    from credo.errors import InvalidInputError

    if undo_session is not None:
        if belief_id is not None:
            raise InvalidInputError("give BELIEF_ID SIGNAL or --undo-session ID, not both")
        from credo.surfaces.cli.journal import undo

        undo(ctx, undo_session, as_json)
        return
    if belief_id is None or signal is None:
        raise InvalidInputError("give BELIEF_ID and SIGNAL (used or harmful), or --undo-session ID")
    belief = open_memory(ctx).feedback(belief_id, signal)  # type: ignore[arg-type]
    emit(as_json, belief, f"{belief.id}: confidence {belief.confidence:.3f}")


@cli.command()
@click.argument("belief_id")
@json_option
@click.pass_context
def show(ctx: click.Context, belief_id: str, as_json: bool) -> None:
    """Show one belief with its anchors and edges. A belief a live belief replaced also
    names which one did and which is current now."""
    from credo.surfaces.cli.truth import lineage_standing
    from credo.surfaces.render import belief_text

    memory = open_memory(ctx)
    belief = memory.get(belief_id)
    anchors = memory.anchors(belief_id)
    edges = memory.edges(belief_id)
    standing = lineage_standing(memory, belief.id)
    emit(
        as_json,
        {"belief": belief, "anchors": anchors, "edges": edges, **standing},
        lambda: belief_text(belief, anchors, edges, standing),
    )


@cli.command()
@json_option
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Counts of beliefs, edges, anchors and the file size."""
    from credo.surfaces.render import stats_text

    result = open_memory(ctx).stats()
    emit(as_json, result, lambda: stats_text(result))


@cli.command()
@click.argument("query")
@click.option("--budget", type=int, help="Token budget (default: [retrieval] token_budget, 2400).")
@click.option(
    "--cluster/--no-cluster",
    "cluster",
    default=None,
    help="Intentional clustering on or off (default: settings).",
)
@click.option(
    "--lane",
    "lane_flags",
    multiple=True,
    metavar="NAME=on|off",
    help="Turn a lane on or off, e.g. --lane bfs=on (repeatable).",
)
@click.option("--explain", is_flag=True, help="Show each lane's contribution.")
@click.option("--no-anchors", is_flag=True, help="Leave document anchors out.")
@click.option("--history", is_flag=True, help="Pack superseded beliefs too, marked.")
@json_option
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    budget: int | None,
    cluster: bool | None,
    lane_flags: tuple[str, ...],
    explain: bool,
    no_anchors: bool,
    history: bool,
    as_json: bool,
) -> None:
    """Retrieve the beliefs that matter for QUERY, packed into the token budget."""
    from credo.config import parse_bool
    from credo.surfaces.render import result_json, result_text

    lanes: dict[str, bool] = {}
    for flag in lane_flags:
        name, sep, value = flag.partition("=")
        if not sep:
            raise click.BadParameter(f"{flag!r} is not NAME=on|off", param_hint="--lane")
        lanes[name.strip()] = parse_bool(value, name=f"--lane {name}")
    result = open_memory(ctx, or_global=True).retrieve(
        query,
        token_budget=budget,
        lanes=lanes,
        use_intentional_clustering=cluster,
        with_doc_anchors=not no_anchors,
        include_superseded=history,
    )
    emit(as_json, result_json(result), lambda: result_text(result, explain=explain))


@cli.command()
@click.argument("belief_id")
@click.argument("uri")
@click.option("--lines", help="Line range in the document, like 12-30.")
@json_option
@click.pass_context
def link(ctx: click.Context, belief_id: str, uri: str, lines: str | None, as_json: bool) -> None:
    """Anchor a belief to a document (path, path#L12-L30, file:// URI or URL)."""
    from credo.surfaces.cli.paths import from_here

    anchor = open_memory(ctx).link(belief_id, from_here(uri), lines=lines, must_exist=True)
    emit(as_json, anchor, f"{anchor.belief_id} -> {anchor.doc_uri}")


@cli.command()
@click.argument("belief_id", required=False)
@click.option("--doc", "doc", help="List the beliefs anchored to this document or folder.")
@click.option(
    "--include-forgotten", is_flag=True, help="With --doc, list forgotten beliefs too (audit)."
)
@json_option
@click.pass_context
def anchors(
    ctx: click.Context,
    belief_id: str | None,
    doc: str | None,
    include_forgotten: bool,
    as_json: bool,
) -> None:
    """A belief's document anchors, or with --doc the beliefs anchored to a document."""
    if (belief_id is None) == (doc is None):
        raise click.UsageError("give either a belief ID or --doc PATH")
    from credo.surfaces.cli.paths import from_here

    memory = open_memory(ctx)
    found = (
        memory.anchors(belief_id)
        if belief_id is not None
        else memory.beliefs_for_doc(from_here(doc or ""), include_forgotten=include_forgotten)
    )
    emit(
        as_json,
        found,
        lambda: (
            "\n".join(f"{a.belief_id}  {a.doc_uri}  ({a.anchor_type})" for a in found)
            or "no anchors"
        ),
    )


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--vendored",
    is_flag=True,
    help="Walk into vendored folders (vendor/, third_party/, bower_components/...) too.",
)
@json_option
@click.pass_context
def ingest(ctx: click.Context, paths: tuple[str, ...], vendored: bool, as_json: bool) -> None:
    """Read files and folders into anchored beliefs (respects .gitignore, leaves vendored
    folders out unless named; re-runs are incremental)."""
    memory = open_memory(ctx, create=True)
    if as_json or not sys.stderr.isatty():
        # Nobody would see the bar: rich's progress module costs ~126M instructions to
        # import (~5% of ingesting black's docs), so an agent's piped ingest never loads it.
        report = memory.ingest(*paths, vendored=vendored)
    else:
        from credo.surfaces.cli.progress import ingest_with_bar

        report = ingest_with_bar(memory, paths, vendored=vendored)
    emit(as_json, report, report.summary())  # (JSON: rendered by its `_fields`)


@cli.command(name="enable-hrr")
@click.option("--dim", type=int, help="Vector dimension (default 1024; see docs/RETRIEVAL.md).")
@json_option
@click.pass_context
def enable_hrr(ctx: click.Context, dim: int | None, as_json: bool) -> None:
    """Keep HRR traces for this store and turn the structural lane on ("what cites ID")."""
    count = open_memory(ctx).enable_hrr(dim)
    emit(as_json, {"edges_encoded": count}, f"HRR traces built from {count} edges")


@cli.command(name="disable-hrr")
@json_option
@click.pass_context
def disable_hrr(ctx: click.Context, as_json: bool) -> None:
    """Drop this store's HRR traces and turn the structural lane off."""
    open_memory(ctx).disable_hrr()
    emit(as_json, {"hrr": False}, "HRR traces dropped")


@cli.command()
@click.option("--fix", is_flag=True, help="Move shifted line ranges to where the text now is.")
@click.option(
    "--backfill-anchors",
    is_flag=True,
    help="Anchor older beliefs from the source paths in the ingest log.",
)
@json_option
@click.pass_context
def doctor(ctx: click.Context, fix: bool, backfill_anchors: bool, as_json: bool) -> None:
    """Check the store and its anchors; exits 1 when something is wrong. A read-only store's
    FTS index is not checked (the check is a write): the JSON's fts_checked is false."""
    import dataclasses

    memory = open_memory(ctx)
    problems = memory.store.integrity_check()
    read_only = memory.store.read_only
    backfill = dataclasses.asdict(memory.backfill_anchors()) if backfill_anchors else None
    report = memory.doctor(fix=fix)
    data = {
        "integrity": problems or ["ok"],
        "fts_checked": not read_only,
        **dataclasses.asdict(report),
        "healthy": report.healthy and not problems,
    }
    if backfill is not None:
        data["backfill"] = backfill

    def text() -> str:
        lines = [
            f"integrity: {'; '.join(problems) if problems else 'ok'}"
            + (" (FTS index not checked: read-only here)" if read_only else ""),
            f"anchors checked: {report.checked}, ok: {report.ok}"
            + (f" ({report.notes} notes: file and range only)" if report.notes else "")
            + f", missing files: {len(report.missing_files)}, shifted: {len(report.shifted)}"
            + (f", fixed: {len(report.fixed)}" if fix else ""),
        ]
        if report.transcripts_gone:
            lines.append(
                f"  {report.transcripts_gone} captures' transcripts are gone (Claude Code deletes"
                " old sessions): provenance only, not a problem"
            )
        moved = {(p.belief_id, p.doc_uri): p.found for p in report.fixed}
        lines += [
            f"  missing  {p.belief_id}  {p.doc_uri}  ({p.remedy()})" for p in report.missing_files
        ]
        lines += [
            f"  shifted  {p.belief_id}  {p.doc_uri}"
            + (_moved_to(moved.get((p.belief_id, p.doc_uri))) if fix else "")
            for p in report.shifted
        ]
        if backfill is not None:
            lines.append(f"backfill: {backfill}")
        return "\n".join(lines)

    emit(as_json, data, text)
    if not data["healthy"]:
        ctx.exit(1)


def _moved_to(found: tuple[int, int] | None) -> str:
    """How ``doctor --fix``'s text names where a shifted anchor went (nothing if unmoved)."""
    return f"  -> fixed: L{found[0]}-L{found[1]}" if found else "  (text not found: not fixed)"


def main() -> None:
    cli(prog_name="credo")


if __name__ == "__main__":
    main()
