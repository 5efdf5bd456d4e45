"""A value declared at a module's top without a doc comment is a definition too.

``const closeTimeout = 30 * 1000;`` (ws), Go's ``var OsExiter = os.Exit`` under a plain
``//`` comment, Rust's ``const TAIL_BYTES: usize = ...``: the answer to "how long does a
socket wait for the close handshake" is one line, and a reader that makes definitions of
functions, types and doc-commented values (`code_values`) left it in no chunk at all:
neither a definition nor, as Python's module code is (`code_python`), a statement.

As a definition: its trail is the name, its text the declaration as written, value
included (the value is often the answer), its context the value's names and short
strings that its text lacks (`Definition.written`), its lines the declaration's. Which
declarations: a Go or Rust ``const`` (constants by the language's rules; a Rust
``static`` is a variable, read only with a doc comment, `code_values`), and a
JavaScript/TypeScript ``const`` or a Go ``var`` whose value is data written out,
computing nothing as the module loads (no call, no function: a ``require(...)``,
``Symbol(...)`` or ``new Map()`` is setup code, and a function value is a definition
already), and a declaration file's ``declare const X: T`` (its type is its text). One
name each, but a Go spec may declare several (``var MaxB, MaxC int``, ``KB, MB = 1 << 10,
1 << 20``): one definition named by them all (``MaxB, MaxC``), since one text cannot be two
beliefs, and no definition left its line in no chunk at all (review91). A Go group
(``const ( ... )``, ``var ( ... )``) gives one per spec, a spec without a value included
(an ``iota`` enumeration's later names, ``var X T``). A declaration longer than a
signature (`MAX_SIGNATURE_CHARS`: a help template, a keyword table) is left as it was,
since a signature would cut its text; with a doc comment above, its text is the
declaration up to its value (a Go composite literal's type kept: ``var compatibleBasics =
map[[2]types.BasicKind]bool``), the value's names and short strings its context
(day-code89: golang.org/x/exp's table was in no chunk, its doc a comment naming nothing).

A plain comment directly above is the declaration's doc, as it is a function's (godoc
reads it so), unless the next line declares another value: then it heads the group, and
stays a comment. The doc stays the file's comment too (its words are stored twice: logrus'
``logrusPackage``, probe90; taking it moved ranking both ways, gotrail92's report).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from credo.knowledge.chunk.code_fallback import comment_paragraphs
from credo.knowledge.chunk.code_outline import MAX_SIGNATURE_CHARS, Definition, signature
from credo.knowledge.chunk.code_values import declared_type, module_declarations, taken_spans

if TYPE_CHECKING:
    from tree_sitter import Node

    from credo.knowledge.chunk.code_treesitter import _Found, _Reader

# Declarations whose values are constants by the language's rules (Go, Rust).
_BY_RULE = frozenset({"const_declaration", "const_item"})
# Go's specs inside a ``const``/``var`` declaration.
_SPECS = frozenset({"const_spec", "var_spec"})
# Nodes that compute as a module loads: a value holding one is setup code, not data.
_COMPUTES = frozenset(
    {
        "call_expression",
        "new_expression",
        "await_expression",
        "assignment_expression",
        "augmented_assignment_expression",
        "update_expression",
        "yield_expression",
        "arrow_function",
        "function_expression",
        "generator_function",
        "function",
        "class",
        "func_literal",
        "closure_expression",
        "macro_invocation",
    }
)


def declared_values(
    reader: _Reader, found: list[_Found], held: list[tuple[int, int]]
) -> list[_Found]:
    """The module-level value declarations (`Grammar.declared`: none when it names none)
    none of `found` holds, as definitions; `held` are the rows (0-based, inclusive) of
    configuration objects."""
    declared = reader.grammar.declared
    if not declared:
        return []
    from credo.knowledge.chunk.code_treesitter import _Found

    used = set(reader.used)  # (a value's comments stay the file's: it takes nothing from them)
    taken = taken_spans(found, held)
    out: list[_Found] = []
    for statement, declaration in module_declarations(reader, declared):
        if taken.meets(statement.start_point[0], _last_row(statement)):
            continue
        for outer, opening, names, value in _named_values(statement, declaration):
            if value is not None and declaration.type not in _BY_RULE and _computes(value):
                continue
            cut = None
            if len(" ".join(reader.node_text(opening).split())) > MAX_SIGNATURE_CHARS:
                # (a signature would cut its text: read to its value when a doc names it)
                cut = _value_start(value)
                if cut is None or not _doc(reader, outer)[0]:
                    continue
            name = ", ".join(reader.name(n) for n in names)
            definition = _definition(reader, outer, opening, (name,), cut)
            body = None if value is None else (value.start_byte, value.end_byte)
            out.append(_Found(definition, body))
    reader.used = used
    return out


def _named_values(
    statement: Node, declaration: Node
) -> list[tuple[Node, Node, list[Node], Node | None]]:
    """(outer node, node its text opens at, names, value) of each declaration in
    `declaration`: a JavaScript declaration of one ``const`` declarator, a Rust item, or
    each Go spec (the whole declaration when it holds one spec alone), whose names may be
    several (``var a, b = 1, 2``: a value each). A Go spec may have no value (None): a
    ``const`` in a group repeats the one above (``Info`` under ``Debug = iota``), a ``var``
    has its type's zero value (``var AnyError anyError``)."""
    kind = declaration.child_by_field_name("kind")
    if kind is not None and kind.type != "const":  # (a JavaScript ``let``)
        return []
    if declaration.child_by_field_name("name") is not None:  # (Rust)
        targets = [declaration]
    else:
        targets = _go_specs(declaration)
        if not targets:  # (JavaScript: its declarators, one alone)
            targets = [c for c in declaration.named_children if c.type == "variable_declarator"]
            if len(targets) != 1:
                return []
    alone = len(targets) == 1
    out = []
    for target in targets:
        # (tree-sitter-go gives a const spec's commas the field "name" too)
        names = [n for n in target.children_by_field_name("name") if n.is_named]
        value = target.child_by_field_name("value")
        if not names or any(name.type != "identifier" for name in names):
            continue
        if len(names) > 1 and target.type not in _SPECS:
            continue  # (one name each but a Go spec's)
        if value is None and target.type not in _SPECS and not declared_type(statement, target):
            continue  # (without a value: a Go spec, or a .d.ts ``declare const X: T``)
        if value is not None and value.type == "expression_list":  # (Go: ``a = 1``)
            if value.named_child_count != len(names):
                continue
            if len(names) == 1:
                value = value.named_children[0]
        if alone:
            out.append((statement, declaration, names, value))
        else:
            out.append((target, target, names, value))
    return out


def _go_specs(declaration: Node) -> list[Node]:
    """The specs of a Go ``const`` or ``var`` declaration, in order: a ``var ( ... )``
    group holds them in a ``var_spec_list`` (tree-sitter-go 0.23 on), a ``const`` group
    directly (before day-code89 a grouped ``var`` gave none: go-cmp's ``Deterministic``)."""
    specs: list[Node] = []
    for child in declaration.named_children:
        if child.type in _SPECS:
            specs.append(child)
        elif child.type == "var_spec_list":
            specs += [c for c in child.named_children if c.type in _SPECS]
    return specs


def _computes(value: Node) -> bool:
    """Whether `value` holds a call, a function or an assignment (`_COMPUTES`)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if node.type in _COMPUTES:
            return True
        stack.extend(node.named_children)
    return False


def _value_start(value: Node | None) -> int | None:
    """Where a long declaration's text stops: at its value, after a composite literal's
    type (Go's ``map[string]int{``...: the type says what the table holds)."""
    if value is None:
        return None
    body = value.child_by_field_name("body") if value.type == "composite_literal" else None
    return (body or value).start_byte


def _definition(
    reader: _Reader, outer: Node, opening: Node, trail: tuple[str, ...], cut: int | None = None
) -> Definition:
    """The definition of one declaration: its text from `opening` as written (comments
    in it kept) to its end or to `cut`, its lines from its doc and attributes (`_doc`) to
    `outer`'s last."""
    docs, first_row = _doc(reader, outer)
    text = reader.take_comments(opening.start_byte, opening.end_byte if cut is None else cut)
    text = text.rstrip().removesuffix("=").rstrip() if cut is not None else text
    definition = Definition(trail, first_row + 1, _last_row(outer) + 1, signature(text))
    definition.written = True
    if docs:
        reader.used.update(doc.id for doc in docs)
        fragments = [f for doc in docs for f in reader.fragments(doc)]
        definition.doc = comment_paragraphs(fragments, reader.lines)
        definition.doc_first = True
    return definition


def _doc(reader: _Reader, outer: Node) -> tuple[list[Node], int]:
    """The comments directly above `outer` that are its doc, and the first row of what
    belongs to it (attributes included, as a function's): no doc when the line below it
    declares another value, since a comment over a run of them heads the group."""
    following = outer.next_named_sibling
    while following is not None and following.type in reader.comment_types:
        following = following.next_named_sibling
    if following is not None and following.start_point[0] == _last_row(outer) + 1:
        inner = following
        if inner.type in reader.grammar.wrappers:
            inner = inner.child_by_field_name("declaration") or inner
        if inner.type in reader.grammar.declared or inner.type in _SPECS:
            return [], outer.start_point[0]
    # (looked at with the reader's used set aside: `leading` marks a comment after an
    # attribute used, which a declaration must not lose: it stays a comment)
    used, reader.used = reader.used, set()
    docs, row = reader.leading(outer)
    reader.used = used
    if any(doc.id in used or doc.start_byte < reader.code_byte for doc in docs):
        # (a comment another reader took, or the file header: not this one's)
        return [], outer.start_point[0]
    return docs, row


def _last_row(node: Node) -> int:
    """Last row holding text of `node` (a node ending at column 0 ended on the row above)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row
