"""docutils' line lists and line reading without their repeated copies and calls, for
`rst_parse`.

Every section, list, field list and run of directives docutils meets is parsed from a
slice of the rest of the document (``input_lines[offset:]``), and `ViewList.__getitem__`
copies the slice's lines twice (the slice, then ``list(...)`` in ``__init__``). Every line
a state machine reads goes through three more Python calls (``StringList.__getitem__``,
``notify_observers``, ``ViewList.info``) before the document hears of it, and joining a
block's lines calls ``__getitem__`` once a line. While credo parses (under
`rst_parse`'s lock) these are replaced by versions that give the same lists, lines and
line numbers (docutils 0.19 to 0.23 define them alike); the originals are put back
afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from docutils import statemachine

_ViewList = statemachine.ViewList


def _getitem(self: Any, i: Any) -> Any:
    """`ViewList.__getitem__`: a slice is a view of the same lines, copied once."""
    if isinstance(i, slice):
        assert i.step in (None, 1), "cannot handle slice with stride"
        cls = self.__class__
        if cls.__init__ is not _ViewList.__init__:
            return _SAVED["getitem"](self, i)  # (a subclass that builds itself)
        view = cls.__new__(cls)
        view.data = self.data[i.start : i.stop]
        view.items = self.items[i.start : i.stop]
        view.parent = self
        view.parent_offset = i.start or 0
        return view
    return self.data[i]


def _iter(self: Any) -> Iterator[str]:
    """A view's lines in order (Python's fallback calls ``__getitem__`` once a line)."""
    return iter(self.data)


def _info(lines: Any, offset: int) -> tuple[Any, Any]:
    """What `StateMachine.notify_observers` hands each observer for line `offset`."""
    items = lines.items
    try:
        return items[offset]  # type: ignore[no-any-return]
    except IndexError:
        pass
    if offset == len(lines.data):  # just past the end (`ViewList.info`)
        try:
            return items[offset - 1][0], None
        except IndexError:
            pass
    return None, None


def _load(machine: Any, offset: int) -> Any:
    """Set `machine`'s line offset and line, tell its observers; the line, or EOFError."""
    machine.line_offset = offset
    lines = machine.input_lines
    try:
        machine.line = line = lines.data[offset]
    except IndexError:
        machine.line = None
        for observer in machine.observers:
            observer(*_info(lines, offset))
        raise EOFError from None
    for observer in machine.observers:
        observer(*_info(lines, offset))
    return line


def _next_line(self: Any, n: int = 1) -> Any:
    """`StateMachine.next_line`."""
    return _load(self, self.line_offset + n)


def _goto_line(self: Any, line_offset: int) -> Any:
    """`StateMachine.goto_line`."""
    return _load(self, line_offset - self.input_offset)


_SAVED: dict[str, Any] = {}


@contextmanager
def quick_views() -> Iterator[None]:
    """`ViewList` slicing and iteration, `StateMachine.next_line` and ``goto_line``
    replaced for the duration."""
    machine = statemachine.StateMachine
    _SAVED["getitem"] = _ViewList.__getitem__
    saved = (_ViewList.__getitem__, _ViewList.__dict__.get("__iter__"))
    moves = (machine.next_line, machine.goto_line)
    _ViewList.__getitem__ = _getitem  # type: ignore[method-assign]
    _ViewList.__iter__ = _iter  # type: ignore[attr-defined]
    machine.next_line, machine.goto_line = _next_line, _goto_line  # type: ignore[method-assign]
    try:
        yield
    finally:
        _ViewList.__getitem__ = saved[0]  # type: ignore[method-assign]
        if saved[1] is None:
            del _ViewList.__iter__  # type: ignore[attr-defined]
        else:
            _ViewList.__iter__ = saved[1]  # type: ignore[attr-defined]
        machine.next_line, machine.goto_line = moves  # type: ignore[method-assign]
