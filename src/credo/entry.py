"""The ``credo`` console script: ``credo hook EVENT`` goes straight to the hook, without
loading click and the CLI (the hook runs in a fresh process on every prompt), and so does a
plain ``credo search`` (``credo.surfaces.cli.fast``); every other command goes to
``credo.surfaces.cli.commands``. A dispatcher, not a surface: it renders nothing. It stays at the
package's top because the installed console script names it (``credo.entry:console_main``)."""

from __future__ import annotations

import sys

HOOK_EVENTS = ("prompt", "session-start", "stop", "subagent")  # = credo.surfaces.hook.EVENTS


def console_main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "hook" and sys.argv[2] in HOOK_EVENTS:
        from credo.surfaces.warm import main

        sys.exit(main(event=sys.argv[2]))
    if "search" in sys.argv[1:4]:
        from credo.surfaces.cli.fast import run_search

        status = run_search(sys.argv[1:])
        if status is not None:
            sys.exit(status)
    from credo.surfaces.cli.commands import main as cli_main

    cli_main()
