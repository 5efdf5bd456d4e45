"""The ``changelog`` Sphinx extension's directives, as Sphinx renders them.

alembic, mako, dogpile.cache and SQLAlchemy write their changelogs with it: a release is

    .. changelog::
        :version: 1.20.1
        :released: October 21, 2026

        .. change::
            :tags: bug, autogenerate
            :tickets: 1085

            Fixed issue where ...

Everything that says which release a change belongs to, and what it is about, is in
options. Read as any other unknown directive (options dropped), every change of a
6,000-line changelog had the page's one title as its only trail: no version number, tag
or ticket reached a passage. Sphinx shows a release as a section titled by its version,
its date under it, and each change marked with its tags and tickets; so here:

- ``changelog`` with a ``:version:`` is a section titled by the version (at the option's
  line), its ``:released:`` date a paragraph ("Released: October 21, 2026"), then its
  content; without a version (another extension's ``changelog``), only its content;
- ``change`` with ``:tags:``, ``:tickets:`` or ``:pullreq:`` leads its first paragraph
  with them, in the order written ("bug, autogenerate, #1085: Fixed issue where ..."),
  and they are the context of the rest of its content, as a signature is its
  description's (`rst._Walker._lead`).

The directives take no option spec: docutils leaves the option lines in the argument,
and they are read from there (as `rst_parse._without_options` drops them), each with its
line, so that the walker places a title or a label at its own line.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

_FIELD = re.compile(r"\s*:([\w-]+):(?:[ \t]+(.*?))?[ \t]*$")
_LABELLED = ("tags", "tickets", "pullreq")
_TICKET = re.compile(r"\d+")


def _fields(directive: Directive) -> list[tuple[str, str, str, int]]:
    """The option lines of `directive`: (name, value, line as written, line number)."""
    if not directive.arguments:
        return []
    # The argument's first line is the directive's own, unless nothing follows its "::".
    first = directive.block_text.split("\n", 1)[0].partition("::")[2]
    line = directive.lineno + (not first.strip())
    found: list[tuple[str, str, str, int]] = []
    for offset, written in enumerate(directive.arguments[0].split("\n")):
        match = _FIELD.match(written)
        if match is not None:
            found.append((match.group(1), match.group(2) or "", written.strip(), line + offset))
    return found


def _paragraph(directive: Directive, text: str, raw: str, line: int, **attributes: Any) -> Any:
    inline, _ = directive.state.inline_text(text, line)
    paragraph = nodes.paragraph(raw, "", *inline, **attributes)
    paragraph.line = line
    return paragraph


class Changelog(Directive):
    """``.. changelog::``: a section titled by its ``:version:`` (see the module)."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[Any]:
        fields = {name: (value, raw, line) for name, value, raw, line in _fields(self)}
        version = fields.get("version", ("", "", 0))
        if not version[0]:
            holder: Any = nodes.container()
        else:
            holder = nodes.section()
            inline, _ = self.state.inline_text(version[0], version[2])
            title = nodes.title(version[1], "", *inline)
            title.line = version[2]
            holder += title
            released = fields.get("released", ("", "", 0))
            if released[0]:
                holder += _paragraph(self, f"Released: {released[0]}", released[1], released[2])
        holder.line = self.lineno
        self.state.nested_parse(self.content, self.content_offset, holder)
        return [holder]


class Change(Directive):
    """``.. change::``: its content led by its tags and tickets (see the module)."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[Any]:
        pieces: list[str] = []
        lines: list[int] = []
        for name, value, _, line in _fields(self):
            if name not in _LABELLED or not value.strip():
                continue
            if name == "tags":
                pieces.append(", ".join(tag.strip() for tag in value.split(",") if tag.strip()))
            else:
                pieces.extend(f"#{ticket}" for ticket in _TICKET.findall(value))
            lines.append(line)
        node = nodes.container(classes=["credo-directive"])
        node.line = self.lineno
        label = ", ".join(piece for piece in pieces if piece)
        if label:
            # Its raw text is the directive's lines down to its last labelled option, so
            # the walker finds it where the directive starts.
            raw = "\n".join(self.block_text.split("\n")[: max(lines) - self.lineno + 1])
            node += _paragraph(self, label, raw, self.lineno, classes=["credo-label"])
            node["credo-named"] = True
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


DIRECTIVES: dict[str, Any] = {"changelog": Changelog, "change": Change}
