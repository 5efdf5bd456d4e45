"""``python -m credo`` runs the CLI (the hook through its click-free fast path)."""

from credo.entry import console_main

console_main()
