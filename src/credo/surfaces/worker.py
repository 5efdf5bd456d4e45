"""The warm server's one thread for the work after its replies (credo.surfaces.serve): a
capture, the warm index's poke, a retirement, run in the order they were submitted."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Worker:
    """One thread for the work after replies (capture), in order."""

    def __init__(self) -> None:
        import queue

        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="credo-warm-later", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def stop(self, timeout: float = 5.0) -> None:
        self._jobs.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()
