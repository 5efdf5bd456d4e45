"""A split worker (``python -m credo.knowledge.ingest.worker``, started by `pool`): reads
file paths from stdin, answers each with the file's ledger key and passages on stdout.

Frames both ways are a 4-byte big-endian length and a pickle; the pool is the only
writer of stdin and the only reader of stdout. Answers come in the order of the requests.
An answer is ``(digest, Split)``, ``None`` (the file would be skipped: the writer reads
it and says why) or ``("error", message)`` when the split raised (the writer splits the
file again itself, so the failure is the serial path's). End of stdin ends the worker.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from credo.knowledge.ingest.pool import read_frame, write_frame
from credo.knowledge.ingest.split import split_passages
from credo.knowledge.ingest.walk import read_file


def answer(path: str) -> Any:
    read = read_file(Path(path))
    if isinstance(read, str):
        return None
    try:
        return read.digest, split_passages(Path(path).as_posix(), read.text)
    except Exception as exc:  # reported; the writer splits the file again itself
        return ("error", f"{type(exc).__name__}: {exc}")


def main() -> None:
    # Ctrl-C reaches the whole process group: the writer handles it (rolls back its open
    # commit group and closes our stdin); a worker just ends when its stdin does.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The frames get private copies of the pipes; anything a library prints goes to stderr
    # instead of into a frame.
    source = os.fdopen(os.dup(0), "rb")
    sink = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    while True:
        try:
            path = read_frame(source)
            write_frame(sink, answer(path))
        except (EOFError, BrokenPipeError):
            return  # the pool is done with us (or gone)


if __name__ == "__main__":
    main()
