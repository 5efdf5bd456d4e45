"""The warm server's hold on Python's cycle collector (docs/AGENT.md § The cycle collector
waits)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator


class Collector:
    """Python's cycle collector, held off while any request is being answered (up to its
    reply's last byte) and free again between them. Retrieval makes no reference cycles
    (tests/test_serve_gc.py), so a collection finds nothing; yet one runs every few hundred
    allocations, and a full one walks every object the process holds (~30-50 ms with a
    million beliefs' caches). Paused, the debt is paid after the reply, off the prompt's
    wait; refcounting frees everything else as before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._busy = 0
        self._resume = False

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        import gc

        with self._lock:
            if self._busy == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._busy += 1
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1
                if self._busy == 0 and self._resume:
                    gc.enable()
