"""The ``credo`` command line: the click group and its core commands (``commands``), the
commands loaded only when run (``agent``, ``dedup``, ``ops``, ``demo``), and a plain
``credo search`` that needs no click (``fast``). Empty on purpose: ``credo search`` and the
hook import modules of this package and must not pay for click."""
