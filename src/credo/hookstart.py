"""The hook command ``credo setup claude`` installs: ``python -S .../credo/hookstart.py``.

Claude Code starts a fresh interpreter for every prompt. ``-S`` skips ``site``, whose
``.pth`` processing (editable installs, certifi and friends) costs 40+ ms before any credo
code runs; the read path needs nothing outside the standard library and this package, so
the package's parent folder is all that must be on ``sys.path``. Running a file puts its own
folder first on ``sys.path``, where credo's ``types.py`` would shadow the standard library's,
so that entry is replaced before anything else is imported.

The hook asks the store's warm server first (credo.surfaces.warm: the standard library's C
parts only) and imports the engine only when nobody answers; a warm answer ends the process
as soon as it is printed, without the interpreter's shutdown (``exit_when_answered``).
"""

import os
import sys

sys.path[0] = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

from credo.surfaces.warm import main  # noqa: E402  (sys.path must be fixed first)

sys.exit(main(exit_when_answered=True))
