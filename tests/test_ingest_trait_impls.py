"""Each Rust trait impl's function is a belief anchored at its own lines (langs67): the
trait fixes the signature, so read alone every type's ``fmt`` had one text, one belief
anchored at the first impl in the file, and the others were in no belief at all (semver
1.0.14's display.rs: 7 of its 8 ``fmt``)."""

from __future__ import annotations

from pathlib import Path

from credo import Memory

_DISPLAY = """\
impl Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Display for Comparator {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.op {
            Op::Exact => f.write_str("="),
            Op::Tilde => f.write_str("~"),
        }
    }
}
"""


def test_every_trait_impl_function_is_anchored_at_its_lines(tmp_path: Path) -> None:
    (tmp_path / "display.rs").write_text(_DISPLAY)
    with Memory(tmp_path / "m.db", root=tmp_path) as memory:
        memory.ingest(tmp_path / "display.rs")
        hints = sorted(
            (a.position_hint, memory.get(a.belief_id).content)
            for a in memory.beliefs_for_doc("display.rs")
            if a.anchor_type == "ingest"
        )
        # (each to its function's last line: the impl's closing brace says nothing)
        assert [hint for hint, _ in hints] == ["L1-L4", "L7-L13"]
        assert hints[1][1].startswith("impl Display for Comparator fn fmt(")
        # and a question about the second impl finds it first
        result = memory.retrieve("how is a comparator's tilde op written", with_doc_anchors=True)
        assert result.doc_anchors and result.doc_anchors[0][0].position_hint == "L7-L13"
