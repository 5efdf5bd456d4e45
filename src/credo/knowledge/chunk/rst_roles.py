"""The roles credo reads Sphinx text with, for `rst_parse`'s registry swap.

Every name is a role (`Roles`): docutils' own, or one that renders as its text
(`_text_role`): ``:func:`~a.b``` as "a.b", ``:meth:`.A.b``` as "A.b",
``:ref:`Label <target>``` as "Label"; ``:doc:`` and ``:download:`` targets become links
(a ``:doc:`` name gets the ``.rst`` suffix so it resolves as a file).

The default role (docutils' title reference), ``:pep:`` and ``:rfc:`` with an explicit
title read as a Sphinx page shows them (`_titled`): ```from_dict <a.Schema.from_dict>```
as "from_dict", ``:pep:`PEP 8 <8#naming>``` as "PEP 8". The target goes to the chunk's
context (an inline node's `TARGET` attribute, which the walker reads), a URL target to
its links.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes, utils
from docutils.parsers.rst import roles
from docutils.parsers.rst.languages import en

from credo.knowledge.chunk.rst_import import TARGET

_EXPLICIT_TITLE = re.compile(r"^(.+?)\s*(?<!\x00)<(.*?)>$", re.S)
# What a text the pattern matches ends with (``$`` also matches before a final newline).
# Told first: the pattern's lazy title tries the rest at every character (~8 us for a
# 60-character dotted name), and most roles' texts have no explicit title.
_TITLE_END = (">", ">\n")
# Roles docutils knows that Sphinx also reads with an explicit title: a project's default
# role (``\`from_dict <Schema.from_dict>\```, a cross-reference where ``default_role`` is
# set), ``:pep:`PEP 8 <8#naming>``` and ``:rfc:``. With one, they read as the page shows
# them (`_titled`); without, as docutils reads them.
_TITLED = frozenset({"title-reference", "pep-reference", "rfc-reference"})
_DEFAULT_ROLE = roles.DEFAULT_INTERPRETED_ROLE
# What the default role's target must look like to be read as a cross-reference: a name or
# a dotted path (``Schema``, ``marshmallow.fields.Nested``, ``~a.b()``). Single backticks
# also quote commands where no default role is set (```scrapy crawl <spider>```, ```-e
# <name>```): docutils' reading, the text as written, stays for those (`_cross_reference`).
# (Patterns compiled on first use, by `re`'s cache: most pages hold no explicit title.)
_REFERENCE = r"~?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?"
_URL_TARGET = r"[A-Za-z][\w+.-]*://\S+"


# Cross-reference roles whose leading "." only steers the lookup (Sphinx's Python domain,
# and sphinx-paramlinks' ``:paramref:``): a page shows ``:meth:`.Operations.batch_alter_table```
# as "Operations.batch_alter_table" (PyXRefRole strips the dot from the title), where credo
# read ".Operations.batch_alter_table" (alembic, probe78). C and C++ domains differ.
_DOTTED = frozenset(
    {"attr", "class", "const", "data", "exc", "func", "meth", "mod", "obj", "paramref", "type"}
)


class Roles(dict[str, Any]):
    """Every name is a role: docutils' own, or one that renders its text."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> Any:
        if name == "":
            canonical = roles.DEFAULT_INTERPRETED_ROLE
            found = roles._role_registry.get(canonical)  # type: ignore[attr-defined]
        else:
            canonical = en.roles.get(name)
            found = roles._role_registry.get(canonical) if canonical else None  # type: ignore[attr-defined]
        if found is not None and canonical in _TITLED:
            found = _titled(found, strict=canonical == _DEFAULT_ROLE)
        found = found or _text_role
        self[name] = found
        return found

    def __delitem__(self, name: str) -> None:
        # After a parse docutils drops the default role a document may have set.
        self.pop(name, None)


def _text_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: Any = None,
    content: Any = None,
) -> tuple[list[Any], list[Any]]:
    """An unknown (Sphinx) role: its title, or its target with ``~``/``!`` removed."""
    match = _explicit_title(text)
    title, target = (match.group(1), match.group(2)) if match else (text, text)
    short = name.rsplit(":", 1)[-1]
    if not match:
        title = title.lstrip("~!")
        if short in _DOTTED and name.split(":", 1)[0] not in ("c", "cpp"):
            title = title.lstrip(".~") or title
        if short == "doc":
            # Sphinx shows the page's title, never its path's "/" or "../" (`:doc:`/signer``
            # read "The /signer is ..."); the title is in another file, the path's words stay.
            title = title.lstrip("./") or title
    if short == "doc" or short == "download":
        target = utils.unescape(target).strip()
        if short == "doc" and target and "." not in target.rsplit("/", 1)[-1]:
            target += ".rst"
        if target:
            return [nodes.reference(rawtext, title, refuri=target)], []
    # An explicit target is dropped here, not kept in the context as `_titled` keeps it:
    # kept, it lowered pygments' doc nDCG@10 (0.887 -> 0.884; rstlink70).
    return [nodes.Text(title)], []


def _explicit_title(text: str) -> re.Match[str] | None:
    """`_EXPLICIT_TITLE`'s match of `text`: "title <target>"."""
    return _EXPLICIT_TITLE.match(text) if text.endswith(_TITLE_END) else None


def _titled(role: Any, *, strict: bool) -> Any:
    """docutils' `role`, read as Sphinx reads it when its text has an explicit title: the
    title, its target kept aside (`_with_target`). `strict` (the default role): only a
    target that reads as a cross-reference or a URL (`_cross_reference`)."""

    def titled(
        name: str,
        rawtext: str,
        text: str,
        lineno: int,
        inliner: Any,
        options: Any = None,
        content: Any = None,
    ) -> tuple[list[Any], list[Any]]:
        match = _explicit_title(text)
        if match is None or (strict and not _cross_reference(*match.groups())):
            return role(name, rawtext, text, lineno, inliner, options, content)  # type: ignore[no-any-return]
        return [_with_target(rawtext, match.group(1), match.group(2))], []

    return titled


def _cross_reference(title: str, target: str) -> bool:
    """Whether the default role's ``title <target>`` reads as a cross-reference (or a
    link written without its ``_``) rather than a command with a placeholder: a URL, or a
    name whose title is no option and, when it has several words, a dotted path."""
    target = target.strip()
    if re.fullmatch(_URL_TARGET, target):
        return True
    if not re.fullmatch(_REFERENCE, target) or title.startswith("-"):
        return False
    return "." in target or len(title.split()) == 1


def _with_target(rawtext: str, title: str, target: str) -> Any:
    """`title` as text, with `target` (an object's dotted name, a label) kept for the
    chunk's context, where its words stay searchable; a URL target makes a link (the
    chunk's links, as ```title <url>`_`` does), out of the text, as a page shows it."""
    target = utils.unescape(target).strip()
    if not target:
        return nodes.Text(title)
    if re.fullmatch(_URL_TARGET, target):
        return nodes.reference(rawtext, title, refuri=target)
    return nodes.inline(rawtext, title, **{TARGET: target})
