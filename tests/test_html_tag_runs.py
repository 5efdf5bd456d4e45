"""Tags side by side are one gap between words (day-probe86, hatch's docs/config/dependency.md:
a table cell "<ul><li>1.8.0_51</li><li>3.14.1-x86_64-linode39</li></ul>" read as the one word
"1.8.0_513.14.1-x86_64-linode39", "<li>Linux</li><li>Windows</li>..." as "LinuxWindowsDarwin";
`credo doctor` then reported 6 of a fresh ingest's anchors as shifted and exited 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from credo.knowledge.chunk.inline import clean_inline
from credo.knowledge.chunk.markdown import split_markdown
from credo.knowledge.doctor import range_holds
from tests.conftest import CliRun

MARKERS = """\
# Environment markers

| Marker | Examples |
| --- | --- |
| `platform_release` | <ul><li>1.8.0_51</li><li>3.14.1-x86_64-linode39</li></ul> |
| `platform_system` | <ul><li>Linux</li><li>Windows</li><li>Darwin</li></ul> |
"""


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("<ul><li>Linux</li><li>Windows</li></ul>", "Linux Windows"),
        ("<li>1.8.0_51</li><li>3.14.1</li>", "1.8.0_51 3.14.1"),
        ("a<b>b</b><i>c</i>", "a b c"),
        # unchanged: one tag, tags beside punctuation or space
        ("2<sup>30</sup>", "2 30"),
        ("<code>flake8 .</code>, <code>isort .</code>", "flake8 ., isort ."),
        ("see <em>this</em> page", "see this page"),
        ("(<b>bold</b>)", "(bold)"),
    ],
)
def test_a_run_of_tags_is_one_gap(raw: str, text: str) -> None:
    assert clean_inline(raw, {})[0] == text


def test_a_table_of_html_lists_reads_each_value_as_a_word() -> None:
    rows = [c.text for c in split_markdown(MARKERS) if c.text.startswith("`platform")]
    assert rows == [
        "`platform_release` | 1.8.0_51 3.14.1-x86_64-linode39",
        "`platform_system` | Linux Windows Darwin",
    ]


# A value starts and ends with a word character: a tag beside punctuation leaves no space.
_VALUE = st.from_regex(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,7}[A-Za-z0-9])?", fullmatch=True)
_TAG = st.sampled_from(["li", "b", "code", "span", "td"])


@given(values=st.lists(_VALUE, min_size=1, max_size=4), tag=_TAG)
def test_values_in_a_tag_each_are_words_of_their_line(values: list[str], tag: str) -> None:
    """Each value wrapped in its own tag reads as a word of its own, and the chunk's words
    are its line's (doctor's check: no anchor of a fresh ingest is shifted)."""
    cell = "".join(f"<{tag}>{value}</{tag}>" for value in values)
    page = f"# T\n\n| Marker | Examples |\n| --- | --- |\n| `release` | <ul>{cell}</ul> |\n"
    [row] = [c for c in split_markdown(page) if c.text.startswith("`release` |")]
    assert row.text == "`release` | " + " ".join(values)
    assert range_holds(page.split("\n"), row.start_line, row.end_line, row.text)


def test_a_fresh_ingest_of_the_page_has_no_shifted_anchor(run: CliRun, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "dependency.md").write_text(MARKERS, encoding="utf-8")
    run("ingest", "docs", check=True)
    doctor = run("doctor")
    assert doctor.returncode == 0, doctor.stdout
    assert "shifted: 0" in doctor.stdout
