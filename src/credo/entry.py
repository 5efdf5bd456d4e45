"""The ``credo`` console script: ``credo hook prompt`` goes straight to the hook, without
loading click and the CLI (the hook runs in a fresh process on every prompt), and so does a
plain ``credo search`` (``credo.cli_fast``); every other command goes to ``credo.cli``. A
dispatcher, not a surface: it renders nothing."""

from __future__ import annotations

import sys


def console_main() -> None:
    if sys.argv[1:] == ["hook", "prompt"]:
        from credo.hook import main

        sys.exit(main())
    if "search" in sys.argv[1:4]:
        from credo.cli_fast import run_search

        status = run_search(sys.argv[1:])
        if status is not None:
            sys.exit(status)
    from credo.cli import main as cli_main

    cli_main()
