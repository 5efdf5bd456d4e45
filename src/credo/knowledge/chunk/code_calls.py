"""Module-level calls with a callback, in JavaScript and TypeScript: definitions of their own.

An Express, Koa or Fastify app, a test file and a server's start-up say what they do in
calls at the top of a module, not in named functions: ``app.get('/users', async (req, res)
=> {...})``, ``describe('login', () => { it('rejects a bad password', ...) })``,
``process.on('SIGTERM', ...)``. A callback there was in no chunk, so "where is the /users
route handled" found nothing. Each such call becomes a definition (`code_treesitter` makes
it one like any other):

- **Which calls.** An expression statement at the top of the module (``await`` allowed)
  whose call has a function among its arguments (an arrow function or a function
  expression), when that function is anonymous or the call is labelled by a literal first
  argument (``'/users'``, ``3000``, a regex). ``utils.forEach([...], function
  forEachMethod(m) {...})`` is left alone: its function is a definition by its own name
  already; ``app.get('/', function handleRoot(req, res) {...})`` is only a scope, its name
  the head of ``handleRoot``'s trail (``app.get('/') › handleRoot``), not a second
  definition over the same lines. Inside the body of an anonymous callback of such a
  call, a statement whose call is labelled by a literal and has a callback is one too
  (``describe`` › ``it``, ``register`` › ``instance.get('/hello')``); a body's other calls
  (``list.forEach(x => ...)``) stay part of it.
- **Declared.** A module-level ``const`` of one name whose value is a call with an
  anonymous callback is one too, named by the constant: ``export const Button =
  React.forwardRef((props, ref) => {...})``, ``const handler = middy(async (event) =>
  ...)``, zod's ``export const ZodType = core.$constructor("ZodType", (inst, def) =>
  {...})``. Its callback was in no chunk unless a doc comment made the constant a value
  (`code_values`); it runs from the declaration (``export`` left out of its text) to the
  call's end, its signature to the first anonymous callback's body (day-code89). So is
  an assignment to a name of such a call (``exports.ZodType = core.$constructor(...)``,
  the CommonJS a compiler writes for it), named by what it assigns to.
- **Chains.** Each call of ``fastify.get('/a', f).post('/b', g)`` is a call of its own,
  from its method's line to its closing parenthesis; the first runs from the statement's
  start.
- **Name** (its trail element): the callee as written, then the literal first argument,
  else nothing, in parentheses: ``app.get('/users')``, ``it('rejects a bad password')``,
  ``fastify.register()``; a chained call is named from the chain's root while the calls
  before it register callbacks (``fastify.addHook('onSend')``), else after those calls
  (``Object.entries().forEach()``). A callee that is not a dotted name (``(async () =>
  {...})()``, ``require('x')(app)``) is not named, and its call is left alone.
- **Signature**: the source from the call's start to the first callback's body
  (``app.get('/users', auth, async (req, res) =>``); its **body**, whose names make its
  context, runs from there to the closing parenthesis (later callbacks and options too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from credo.knowledge.chunk.code_outline import MAX_NAME_CHARS

if TYPE_CHECKING:
    from tree_sitter import Node

_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_LITERALS = frozenset({"string", "template_string", "number", "regex"})
# Wrappers of a statement's call: ``await app.listen(...)``.
_UNWRAP = frozenset({"await_expression"})
# Statements that declare a value a call makes (`_declared_call`).
_DECLARATIONS = frozenset({"lexical_declaration", "export_statement"})
# Wrappers of a declared value that say nothing of it (``f(...) as T``, ``await f(...)``).
_VALUE_WRAPPERS = frozenset(
    {
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "parenthesized_expression",
        "await_expression",
    }
)


@dataclass(frozen=True, slots=True)
class Call:
    """One call that is a definition.

    Attributes:
        node: The call expression (a chained call's node spans the chain before it).
        statement: The expression statement, for the chain's first call (its doc comments
            and start are the statement's); None for a later call of a chain.
        start: Byte where its own text starts: the statement's, or its method name's.
        row: The 0-based row of `start`.
        name: Its trail element.
        body: Byte range of its body: the first callback's body to the closing parenthesis.
        scope: Only a scope: its callbacks are all named functions, definitions already, so
            it gives them its name as their trail's head and is no definition itself.
    """

    node: Node
    statement: Node | None
    start: int
    row: int
    name: str
    body: tuple[int, int]
    scope: bool = False


def find_calls(root: Node, source: bytes) -> list[Call]:
    """The calls that are definitions in a JavaScript or TypeScript module (module docstring),
    in no particular order. A work list, not recursion: nesting depth is the file's to pick."""
    calls: list[Call] = []
    work = [(statement, False) for statement in root.named_children]
    while work:
        statement, nested = work.pop()
        for found in _statement_calls(statement, source, nested=nested):
            calls.append(found)
            for function in _functions(found.node):
                body = function.child_by_field_name("body")
                if _anonymous(function) and body is not None and body.type == "statement_block":
                    work.extend((inner, True) for inner in body.named_children)
    return calls


def _statement_calls(statement: Node, source: bytes, *, nested: bool) -> list[Call]:
    """The calls of `statement`'s chain that are definitions, first to last."""
    if statement.type in _DECLARATIONS and not nested:
        return _declared_call(statement, source)
    if not nested and (assigned := _assigned_call(statement, source)) is not None:
        return [assigned]
    if statement.type != "expression_statement" or statement.named_child_count == 0:
        return []
    expression: Node | None = statement.named_children[0]
    while expression is not None and expression.type in _UNWRAP and expression.named_child_count:
        expression = expression.named_children[0]
    chain: list[Node] = []  # the chain's calls, last first
    while expression is not None and expression.type == "call_expression":
        chain.append(expression)
        callee = expression.child_by_field_name("function")
        expression = (
            callee.child_by_field_name("object")
            if callee is not None and callee.type == "member_expression"
            else None
        )
    chain.reverse()
    # What a later call's name starts with: the root while each call before it registers
    # a callback (a fluent chain returns the instance), else the calls so far.
    prefix = _dotted(source, expression) if expression is not None else ""
    found: list[Call] = []
    for index, call in enumerate(chain):
        made = _call(call, source, prefix, statement if index == 0 else None, nested=nested)
        if made is not None:
            found.append(made)
        if not _functions(call):
            callee = call.child_by_field_name("function")
            label = _label(source, callee, prefix, first=index == 0) if callee else ""
            prefix = f"{label}()" if label else ""
    return found


def _declared_call(statement: Node, source: bytes) -> list[Call]:
    """A module-level ``const`` of one name whose value is a call with an anonymous
    callback (`_declared_call` in the module docstring), as a one-call list; else []."""
    declaration: Node | None = statement
    if statement.type == "export_statement":
        declaration = statement.child_by_field_name("declaration")
    if declaration is None or declaration.type != "lexical_declaration":
        return []
    kind = declaration.child_by_field_name("kind")
    declarators = [c for c in declaration.named_children if c.type == "variable_declarator"]
    if kind is None or kind.type != "const" or len(declarators) != 1:
        return []
    name, value = (declarators[0].child_by_field_name(f) for f in ("name", "value"))
    while value is not None and value.type in _VALUE_WRAPPERS and value.named_child_count:
        value = value.named_children[0]
    if name is None or name.type != "identifier" or value is None:
        return []
    if value.type == "object" and any(_member_function(m) for m in value.named_children):
        # (only a scope: its methods are definitions already, named under it)
        label, span = _text(source, name)[:MAX_NAME_CHARS], (value.start_byte, value.end_byte)
        start, row = declaration.start_byte, declaration.start_point[0]
        return [Call(value, statement, start, row, label, span, scope=True)]
    if value.type != "call_expression":
        return []
    functions = [f for f in _functions(value) if _anonymous(f)]
    body = functions[0].child_by_field_name("body") if functions else None
    if body is None:
        return []
    label = _text(source, name)[:MAX_NAME_CHARS]
    start, row = declaration.start_byte, declaration.start_point[0]
    return [Call(value, statement, start, row, label, (body.start_byte, value.end_byte))]


def _assigned_call(statement: Node, source: bytes) -> Call | None:
    """``exports.ZodType = core.$constructor("ZodType", (inst, def) => {...})``: a
    module-level assignment to a name whose value is a call with an anonymous callback
    (the CommonJS a compiler writes for `_declared_call`'s ``export const``), named by
    what it assigns to, as an assigned function is; else None."""
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return None
    assignment = statement.named_children[0]
    if assignment.type != "assignment_expression":
        return None
    left, value = (assignment.child_by_field_name(f) for f in ("left", "right"))
    if left is None or value is None or value.type != "call_expression":
        return None
    name = _dotted(source, left)
    functions = [f for f in _functions(value) if _anonymous(f)]
    body = functions[0].child_by_field_name("body") if functions else None
    if not name or body is None:
        return None
    start, row = statement.start_byte, statement.start_point[0]
    return Call(
        value, statement, start, row, name[:MAX_NAME_CHARS], (body.start_byte, value.end_byte)
    )


def _call(
    call: Node, source: bytes, prefix: str, statement: Node | None, *, nested: bool
) -> Call | None:
    functions = _functions(call)
    if not functions:
        return None
    arguments = call.child_by_field_name("arguments")
    assert arguments is not None  # (`_functions` found some in it)
    first = next((a for a in arguments.named_children if a.type != "comment"), None)
    literal = first if first is not None and first.type in _LITERALS else None
    named = not any(_anonymous(f) for f in functions)
    if literal is None and (nested or named):
        return None
    callee = call.child_by_field_name("function")
    if callee is None:
        return None
    if statement is None:  # a later call of a chain: from its method on
        method = callee.child_by_field_name("property")
        if method is None:
            return None
        start, row = method.start_byte, method.start_point[0]
    else:
        start, row = call.start_byte, call.start_point[0]
    label = _label(source, callee, prefix, first=statement is not None)
    if not label:
        return None
    written = " ".join(_text(source, literal).split()) if literal is not None else ""
    name = f"{label}({written})"
    if len(name) > MAX_NAME_CHARS:
        name = name[: MAX_NAME_CHARS - 1] + "…"
    body = functions[0].child_by_field_name("body")
    if body is None:
        return None
    return Call(call, statement, start, row, name, (body.start_byte, call.end_byte), named)


def _label(source: bytes, callee: Node, prefix: str, *, first: bool) -> str:
    """A call's name before its parentheses: the first call's dotted callee, a later
    one's method after `prefix` (`_statement_calls`); "" when it cannot be written."""
    if first:
        return _dotted(source, callee)
    method = callee.child_by_field_name("property")
    if method is None or not prefix:
        return ""
    return f"{prefix}.{_text(source, method)}"


def _member_function(member: Node) -> bool:
    """An object literal's method (``get(target) {...}``) or function-valued key."""
    if member.type == "method_definition":
        return True
    value = member.child_by_field_name("value") if member.type == "pair" else None
    return value is not None and value.type in _FUNCTIONS


def _functions(call: Node) -> list[Node]:
    """The functions written among `call`'s arguments."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":  # (a tagged template)
        return []
    return [a for a in arguments.named_children if a.type in _FUNCTIONS]


def _anonymous(function: Node) -> bool:
    """A callback without a name: a named function expression is a definition already."""
    return function.type == "arrow_function" or function.child_by_field_name("name") is None


def _dotted(source: bytes, node: Node) -> str:
    """`node`'s text when it is a dotted name (``app``, ``this.router.get``), else ""."""
    parts: list[str] = []
    while node.type == "member_expression":
        target = node.child_by_field_name("object")
        member = node.child_by_field_name("property")
        if target is None or member is None or member.type != "property_identifier":
            return ""
        parts.append(_text(source, member))
        node = target
    if node.type not in ("identifier", "this"):
        return ""
    parts.append(_text(source, node))
    return ".".join(reversed(parts))


def _text(source: bytes, node: Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
