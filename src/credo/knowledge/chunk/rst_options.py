"""What directive options say, as Sphinx shows it.

A directive with no option spec (every directive docutils does not know: `rst_parse`)
keeps its option lines in its argument; they are read from there (`option_lines`), each
with its line, so that the walker places what is made of them at its own line. Most
options say how to show a thing (``:no-index:``, ``:class:``) and are dropped; these say
what it is:

- A Sphinx description's ``:type:``, ``:default:`` and ``:value:`` (a ``confval``'s type
  and default since Sphinx 7.4, an ``attribute``'s type and value): Sphinx shows them
  under the name or in its signature; dropped, the default of every setting on Sphinx's
  configuration page was in no passage. They are a paragraph after the label, in the
  order written ("Type: str; Default: 'Author name not set'") (`described`).
- The ``changelog`` extension's directives (alembic, mako, dogpile.cache, SQLAlchemy
  write their changelogs with it):

      .. changelog::
          :version: 1.20.1
          :released: October 21, 2026

          .. change::
              :tags: bug, autogenerate
              :tickets: 1085

              Fixed issue where ...

  Everything that says which release a change belongs to, and what it is about, is in
  options: every change of alembic's 6,000-line changelog had the page's one title as
  its only trail, no version number, tag or ticket. Sphinx shows a release as a section
  titled by its version, its date under it, each change marked with its tags and
  tickets; so here ``changelog`` with a ``:version:`` is a section titled by the version
  (at the option's line), its ``:released:`` date a paragraph ("Released: October 21,
  2026"), then its content (without a version, another extension's ``changelog``, only
  its content); ``change`` with a name (its argument, unless a ticket number),
  ``:tags:``, ``:tickets:`` or ``:pullreq:`` leads its first paragraph with them, in the
  order written ("bug, autogenerate, #1085: Fixed issue where ..."), and they are the
  context of the rest of its content, as a signature is its
  description's (`rst_items.lead`).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

_FIELD = re.compile(r"\s*:([\w-]+):(?:[ \t]+(.*?))?[ \t]*$")
_LABELLED = ("tags", "tickets", "pullreq")
_DESCRIBED = ("type", "default", "value")
_TICKET = re.compile(r"\d+")


def option_lines(directive: Directive) -> list[tuple[str, str, str, int]]:
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
        elif found and written[:1].isspace() and written.strip():  # a value's next line
            name, value, raw, start = found[-1]
            found[-1] = (name, f"{value} {written.strip()}".strip(), f"{raw}\n{written}", start)
    return found


def _paragraph(directive: Directive, text: str, raw: str, line: int, **attributes: Any) -> Any:
    inline, _ = directive.state.inline_text(text, line)
    paragraph = nodes.paragraph(raw, "", *inline, **attributes)
    paragraph.line = line
    return paragraph


def described(directive: Directive) -> Any:
    """A paragraph of a description's ``:type:``, ``:default:`` and ``:value:`` options, as
    written ("Type: str; Default: ''"); None without any."""
    found = [
        (name, value, raw, line)
        for name, value, raw, line in option_lines(directive)
        if name in _DESCRIBED and value
    ]
    if not found:
        return None
    text = "; ".join(f"{name.capitalize()}: {value}" for name, value, _, _ in found)
    raw = "\n".join(raw for _, _, raw, _ in found)
    return _paragraph(directive, text, raw, found[0][3])


class Changelog(Directive):
    """``.. changelog::``: a section titled by its ``:version:`` (see the module)."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[Any]:
        fields = {name: (value, raw, line) for name, value, raw, line in option_lines(self)}
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
        own = self.block_text.split("\n", 1)[0].partition("::")[2].strip()
        if own and not own.isdigit():  # an old entry's name ("fk_schema_compare"; a number
            # is its ticket's, said by ``:tickets:``)
            pieces.append(own)
            lines.append(self.lineno)
        for name, value, _, line in option_lines(self):
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
