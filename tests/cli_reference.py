"""Renders docs/CLI.md from the click commands themselves, so the reference cannot drift.

python -m tests.cli_reference > docs/CLI.md
"""

from __future__ import annotations

import click

from credo.surfaces.cli.commands import cli


def render() -> str:
    # The group's context_settings (``-h``) as `credo --help` applies them; click caches each
    # command's help option, so a context without them would render differently by order.
    context = click.Context(
        cli, info_name="credo", terminal_width=88, max_content_width=88, **cli.context_settings
    )
    lines = [
        "# CLI reference",
        "",
        "Generated from the commands themselves (`python -m tests.cli_reference > docs/CLI.md`);",
        "`tests/test_docs.py` fails when it is out of date. Every command that prints data",
        "takes `--json`; errors are one `Error: ...` line on stderr with exit status 1.",
        "",
        "```",
        cli.get_help(context),
        "```",
    ]
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        if command is None:
            continue
        sub = click.Context(command, info_name=name, parent=context, terminal_width=88)
        lines += ["", f"## credo {name}", "", "```", command.get_help(sub), "```"]
        if isinstance(command, click.Group):
            for child_name in command.list_commands(sub):
                child = command.get_command(sub, child_name)
                if child is None:
                    continue
                grand = click.Context(child, info_name=child_name, parent=sub, terminal_width=88)
                lines += [
                    "",
                    f"### credo {name} {child_name}",
                    "",
                    "```",
                    child.get_help(grand),
                    "```",
                ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
