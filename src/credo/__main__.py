"""``python -m credo`` runs the CLI."""

from credo.cli import main

main()
