"""The ``credo`` console script: ``credo hook prompt`` goes straight to the hook, without
loading click and the CLI (the hook runs in a fresh process on every prompt); every other
command goes to ``credo.cli``. A dispatcher, not a surface: it renders nothing."""

from __future__ import annotations

import sys


def console_main() -> None:
    if sys.argv[1:] == ["hook", "prompt"]:
        from credo.hook import main

        sys.exit(main())
    from credo.cli import main as cli_main

    cli_main()
