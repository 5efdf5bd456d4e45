"""MDX's component lines as blocks of their own: a markdown-it block rule for ``.mdx`` files.

An MDX page (Mintlify, Docusaurus) writes a component's opening and closing tags on lines of
their own, with Markdown between them::

    <CodeGroup>
    ```python Code
    @cf.flow
    def analyze_text(text: str):

        # Create a parent task
    ```
    </CodeGroup>

MDX reads each tag line as the component and what lies between as Markdown. CommonMark reads
``<CodeGroup>`` as an HTML block that runs to the next blank line: it swallowed the fence's
first lines, and after the blank line inside the code the rest was Markdown again, so a
Python comment became a level-1 heading (controlflow's dependent-tasks page: the page's
front-matter title was lost, its passages filed under "Create a parent task"). Here a line
holding only a component's tag (capitalised: ``<Step title="Install">``, ``</Step>``,
``<Card ... />``; an opening tag may run over several lines, its attributes one a line) is a
block of its own, an ``html_block`` whose lines hold only what the component shows there (its
name and title attributes, `inline.SHOWN_ATTRIBUTE`): every word a word of its line. Lowercase
HTML tags are read as CommonMark reads them, as before.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it.common.utils import mdTrim

from credo.knowledge.chunk.inline import SHOWN_ATTRIBUTE

_START = re.compile(r"</?[A-Z][\w.]*(?=[\s/>]|$)")
# An opening tag may run over this many lines (Mintlify's <Card\n title=...\n href=...\n>).
MAX_TAG_LINES = 12


def mdx_tag(state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it block rule: a line (or a few) holding one component tag alone."""
    first = state.bMarks[start] + state.tShift[start]
    if state.src[first : first + 1] != "<":
        return False
    text = state.src[first : state.eMarks[start]]
    if _START.match(text) is None:
        return False
    last = _tag_end(state, start, min(end, start + MAX_TAG_LINES))
    if last is None:
        return False
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.map = [start, last + 1]
    token.content = "\n".join(
        " ".join(re.findall(SHOWN_ATTRIBUTE, _line(state, number)))
        for number in range(start, last + 1)
    )
    state.line = last + 1
    return True


def paragraph(state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it's paragraph rule as MDX reads a paragraph.

    Its lines after the first are measured from that line's indent: MDX indents a component's
    Markdown under it, and CommonMark reads a line four columns in as a paragraph's lazy
    continuation, so a list or fence under an indented line ("    **Example:**" then
    "    ```json") was glued into the paragraph's text. And a line four or more columns deeper
    than the paragraph is its continuation only when no block starts there: MDX has no
    indented code, so "In your dashboard:" over "    1. Open the MCP Servers section" is a
    list, as micromark reads it (markdown-it took any such line as a lazy continuation before
    asking the list rule: fastmcp's steps, marvin's "Returns:" lists were one paragraph).
    (markdown-it-py's rule, its lazy-continuation test left out; ``silent`` is never asked.)
    """
    saved, parent = state.blkIndent, state.parentType
    if state.sCount[start] > saved:
        state.blkIndent = state.sCount[start]
    state.parentType = "paragraph"
    try:
        terminators = state.md.block.ruler.getRules("paragraph")
        line, last = start + 1, state.lineMax
        while line < last and not state.isEmpty(line):
            if state.sCount[line] >= 0:  # (a loop, not any(): it runs for every line)
                for rule in terminators:
                    if rule(state, line, last, True):
                        break
                else:
                    line += 1
                    continue
                break
            line += 1
        content = mdTrim(state.getLines(start, line, state.blkIndent, False))
        state.line = line
        token = state.push("paragraph_open", "p", 1)
        token.map = [start, line]
        token = state.push("inline", "", 0)
        token.content = content
        token.map = [start, line]
        token.children = []
        state.push("paragraph_close", "p", -1)
        return True
    finally:
        state.blkIndent, state.parentType = saved, parent


def list_at_own_indent(listed: Any) -> Any:
    """markdown-it's list rule, measuring a list's items from its first item's indent: with
    indented code off, a list may open four or more columns in (under a component), and the
    rule then read each later item ("      - b" under "      - a") as the first item's lazy
    continuation, measured from the margin: every item of the list was one bullet. (As a
    paragraph's terminator, the rule is asked as CommonMark asks it.)"""

    def rule(state: Any, start: int, end: int, silent: bool) -> bool:
        saved = state.blkIndent
        if state.sCount[start] <= saved or (silent and state.parentType == "paragraph"):
            return bool(listed(state, start, end, silent))
        state.blkIndent = state.sCount[start]
        try:
            return bool(listed(state, start, end, silent))
        finally:
            state.blkIndent = saved

    return rule


def _line(state: Any, number: int) -> str:
    return str(state.src[state.bMarks[number] + state.tShift[number] : state.eMarks[number]])


def _tag_end(state: Any, start: int, stop: int) -> int | None:
    """The line the tag opened at ``start`` closes on, when nothing but blanks follow its
    ``>`` there; None when the tag is not alone (``<Note>Text</Note>``) or never closes."""
    for number in range(start, stop):
        # (no ">" before a blank line or the window's end: no tag ends, and the scan below
        # need not step through each character of a dozen lines; review91)
        text = _line(state, number)
        if ">" in text:
            break
        if not text.strip():
            return None
    else:
        return None
    quote = ""
    depth = 0  # inside {...} (a JSX expression)
    for number in range(start, stop):
        text = _line(state, number)
        for index, char in enumerate(text):
            if quote:
                quote = "" if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth = max(0, depth - 1)
            elif char == ">" and not depth:
                return number if not text[index + 1 :].strip() else None
        if not text.strip():
            return None  # a blank line before the tag closed: not a tag
    return None
