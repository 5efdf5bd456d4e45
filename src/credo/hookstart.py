"""The hook command ``credo setup claude`` installs: ``python -S .../credo/hookstart.py``.

Claude Code starts a fresh interpreter for every prompt. ``-S`` skips ``site``, whose
``.pth`` processing (editable installs, certifi and friends) costs 40+ ms before any credo
code runs; the read path needs nothing outside the standard library and this package, so
the package's parent folder is all that must be on ``sys.path``. Running a file puts its own
folder first on ``sys.path``, where credo's ``types.py`` would shadow the standard library's,
so that entry is replaced before anything else is imported.

The hook asks the store's warm server first (credo.surfaces.warm: the standard library's C
parts only) and imports the engine only when nobody answers; either way the process ends as
soon as its output is printed, without the interpreter's shutdown (``exit_when_done``).

The cycle collector is off for the whole process: it lives for one event, retrieval makes
no reference cycles (tests/test_serve_gc.py) and reference counting frees the rest, yet
importing the engine's ~150 modules would set off collections that walk every object
loaded so far (~10M instructions of the ~250M of a direct-path prompt at 100k beliefs).
"""

import gc
import os
import sys

gc.disable()  # the module docstring: a one-event process has no cycles worth collecting
sys.path[0] = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

from credo.surfaces.warm import main  # noqa: E402  (sys.path must be fixed first)

sys.exit(main(exit_when_done=True))
