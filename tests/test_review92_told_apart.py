"""review92: copies of one definition text are told apart alike, by one run of owners.

The first copy of ``def inner()`` under ``A › run`` was led by ``run`` alone (the shortest
run no text had yet), the second by ``B › run``: the first copy's text named no class, so
"A inner" found no word of it, and its text hung on the copies after it (drop class B and
A's copy lost nothing, but drop class A and B's copy changed text: a new belief for an
unchanged method).
"""

from __future__ import annotations

from credo.knowledge.chunk import split_file
from credo.knowledge.chunk.model import Chunk
from credo.knowledge.chunk.passage import passages

_NESTED = """class A:
    def run(self):
        def inner():
            return 42
        return inner()


class B:
    def run(self):
        def inner():
            return 42
        return inner()
"""


def _texts(name: str, source: str) -> list[str]:
    return [p.text for p in passages(split_file(name, source)) if p.role == "definition"]


def test_nested_copies_under_one_owner_name_each_name_their_class() -> None:
    texts = _texts("nested.py", _NESTED)
    assert "A › run › def inner()" in texts
    assert "B › run › def inner()" in texts
    assert "run › def inner()" not in texts


def test_a_copy_keeps_its_text_when_another_class_is_removed() -> None:
    three = "".join(
        f"class K{i}:\n    class Inner:\n        def go(self):\n            return 0\n\n\n"
        for i in range(3)
    )
    without_first = three.split("\n\n\n", 1)[1]
    before = [t for t in _texts("k.py", three) if t.endswith("def go(self)")]
    after = [t for t in _texts("k.py", without_first) if t.endswith("def go(self)")]
    assert before == [f"K{i} › Inner › def go(self)" for i in range(3)]
    assert after == before[1:]


def test_copies_no_run_tells_apart_stay_as_before() -> None:
    """A class written twice (a version shim): no owner tells its methods apart; the first
    copy is led, the later ones keep their text (one belief), as before."""

    def definition(line: int, *trail: str) -> Chunk:
        return Chunk("def f(self)", line, line + 1, "definition", trail)

    chunks = [definition(1, "A", "f"), definition(5, "A", "f"), definition(9, "B", "f")]
    assert [p.text for p in passages(chunks)] == [
        "A › def f(self)",
        "def f(self)",
        "B › def f(self)",
    ]
