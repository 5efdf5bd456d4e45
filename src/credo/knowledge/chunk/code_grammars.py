"""What `code_treesitter` needs to know about each tree-sitter grammar credo reads.

Each grammar is a PyPI wheel (``tree-sitter-python``, ``tree-sitter-go``...) loaded on
first use. Its definitions are found by a tree-sitter query whose captures name the parts:
``@definition`` (the node whose text opens the signature), ``@name``, ``@body`` (what the
signature stops before; absent for a declaration without one) and, for Go methods,
``@receiver``. Comment node types give its comments; the lexer (`code_names.LEXERS`) reads
a body's names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Grammar:
    """One grammar: where it lives and how its trees name things.

    Attributes:
        package: The module of the grammar's wheel.
        function: Its function returning the language (most are ``language``).
        definitions: The query that finds definitions (see the module docstring).
        lexer: The key of `code_names.LEXERS` that reads a body's names.
        comments: Node types of comments.
        signature_parents: Parents whose text opens a definition's signature when it is
            their only child (``const f = (a) =>`` for a declarator, ``type T struct``).
        wrappers: Parents that carry a definition: its range and doc comment are theirs
            (``export``, a decorated definition, an expression statement).
        attachments: Siblings just above a definition that belong to it (decorators,
            Rust attributes).
        docstrings: The doc is the body's first string (Python), not a comment above.
        calls: Module-level calls with a callback are definitions too (`code_calls`), and
            an exported configuration object is read by key (`code_config`).
        values: Module-level declarations of a value (``const``, ``static``) that a doc
            comment above makes a definition (`code_values`).
        declared: Module-level declarations of a value that are definitions without a doc
            comment, when constants by the language's rules or data (`code_declared`).
        rustdoc: Doc comments are rustdoc's: a Rust code block's ``# `` lines are hidden
            (`code_fallback.comment_paragraphs`).
        macro_items: A ``macro_rules!`` that stamps out items is read as a module of them
            (`code_macros`).
    """

    package: str
    definitions: str
    lexer: str
    comments: tuple[str, ...] = ("comment",)
    function: str = "language"
    signature_parents: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()
    attachments: frozenset[str] = frozenset()
    docstrings: bool = False
    calls: bool = False
    values: frozenset[str] = frozenset()
    declared: frozenset[str] = frozenset()
    rustdoc: bool = False
    macro_items: bool = False


# Definition node types, across the grammars, that declare members (classes, structs,
# interfaces, traits, impls, namespaces...): what is nested in them is a unit of its own.
# A function's nested functions are part of what it does. (A JS ``const C = class {...}``
# is a ``variable_declarator`` whose value is a ``class``: `code_treesitter` looks.)
MEMBER_SCOPES = frozenset(
    {
        "class_definition",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "enum_declaration",
        "internal_module",
        "record_declaration",
        "annotation_type_declaration",
        "struct_declaration",
        "namespace_declaration",
        "type_spec",
        "struct_item",
        "enum_item",
        "union_item",
        "trait_item",
        "impl_item",
        "mod_item",
        "class_specifier",
        "struct_specifier",
        "union_specifier",
        "enum_specifier",
        "namespace_definition",
    }
)


_PYTHON = """
(function_definition name: (identifier) @name body: (block) @body) @definition
(class_definition name: (identifier) @name body: (block) @body) @definition
"""

_FUNCTION_VALUE = (
    "[(arrow_function body: (_) @body) (function_expression body: (_) @body)"
    " (generator_function body: (_) @body)]"
)
_TYPESCRIPT = f"""
(function_declaration name: (_) @name body: (_) @body) @definition
(generator_function_declaration name: (_) @name body: (_) @body) @definition
(class_declaration name: (_) @name body: (_) @body) @definition
(abstract_class_declaration name: (_) @name body: (_) @body) @definition
(method_definition name: (_) @name body: (_) @body) @definition
(interface_declaration name: (_) @name body: (_) @body) @definition
(enum_declaration name: (_) @name body: (_) @body) @definition
(internal_module name: (_) @name body: (_) @body) @definition
(type_alias_declaration name: (_) @name) @definition
(function_signature name: (_) @name) @definition
(variable_declarator name: (identifier) @name value: {_FUNCTION_VALUE}) @definition
(variable_declarator name: (identifier) @name value: (class body: (_) @body)) @definition
(assignment_expression
  left: [(identifier) (member_expression)] @name right: {_FUNCTION_VALUE}) @definition
(pair key: (_) @name value: {_FUNCTION_VALUE}) @definition
(pair key: (_) @name value: (array {_FUNCTION_VALUE} @definition))
(arguments (function_expression name: (identifier) @name body: (_) @body) @definition)
(public_field_definition name: (_) @name value: {_FUNCTION_VALUE}) @definition
"""
_JS_WRAPPERS = frozenset({"export_statement", "expression_statement", "ambient_declaration"})
_JS_SIGNATURE = frozenset({"lexical_declaration", "variable_declaration"})
_JS_VALUES = _JS_SIGNATURE
_JS_DECLARED = frozenset({"lexical_declaration"})  # (``const``; a ``let`` or ``var`` varies)

_GO = """
(function_declaration name: (_) @name body: (_) @body) @definition
(method_declaration receiver: (_) @receiver name: (_) @name body: (_) @body) @definition
(type_spec name: (_) @name type: (struct_type (field_declaration_list) @body)) @definition
(type_spec name: (_) @name type: (interface_type) @body) @definition
(type_spec name: (_) @name) @definition
(type_alias name: (_) @name) @definition
(var_spec . name: (_) @name value: (expression_list . (func_literal body: (_) @body) .)) @definition
"""

_RUST = """
(function_item name: (_) @name body: (_) @body) @definition
(function_signature_item name: (_) @name) @definition
(struct_item name: (_) @name body: (_) @body) @definition
(struct_item name: (_) @name) @definition
(enum_item name: (_) @name body: (_) @body) @definition
(union_item name: (_) @name body: (_) @body) @definition
(trait_item name: (_) @name body: (_) @body) @definition
(impl_item type: (_) @name body: (_) @body) @definition
(mod_item name: (_) @name body: (_) @body) @definition
(macro_definition name: (_) @name) @definition
(type_item name: (_) @name) @definition
"""

_JAVA = """
(class_declaration name: (_) @name body: (_) @body) @definition
(interface_declaration name: (_) @name body: (_) @body) @definition
(enum_declaration name: (_) @name body: (_) @body) @definition
(record_declaration name: (_) @name body: (_) @body) @definition
(annotation_type_declaration name: (_) @name body: (_) @body) @definition
(method_declaration name: (_) @name body: (_) @body) @definition
(method_declaration name: (_) @name) @definition
(constructor_declaration name: (_) @name body: (_) @body) @definition
"""

_CSHARP = """
(class_declaration name: (_) @name body: (_) @body) @definition
(struct_declaration name: (_) @name body: (_) @body) @definition
(interface_declaration name: (_) @name body: (_) @body) @definition
(record_declaration name: (_) @name body: (_) @body) @definition
(record_declaration name: (_) @name) @definition
(enum_declaration name: (_) @name body: (_) @body) @definition
(namespace_declaration name: (_) @name body: (_) @body) @definition
(method_declaration name: (_) @name body: (_) @body) @definition
(method_declaration name: (_) @name) @definition
(constructor_declaration name: (_) @name body: (_) @body) @definition
(local_function_statement name: (_) @name body: (_) @body) @definition
(property_declaration name: (_) @name accessors: (_) @body) @definition
(property_declaration name: (_) @name value: (arrow_expression_clause) @body) @definition
(delegate_declaration name: (_) @name) @definition
"""

_CPP = """
(function_definition
  declarator: (function_declarator declarator: (_) @name) body: (_) @body) @definition
(function_definition
  declarator: (_ (function_declarator declarator: (_) @name)) body: (_) @body) @definition
(class_specifier name: (_) @name body: (_) @body) @definition
(struct_specifier name: (_) @name body: (_) @body) @definition
(union_specifier name: (_) @name body: (_) @body) @definition
(enum_specifier name: (_) @name body: (_) @body) @definition
(namespace_definition name: (_) @name body: (_) @body) @definition
(preproc_function_def name: (_) @name value: (_) @body) @definition
(alias_declaration name: (_) @name) @definition
(type_definition
  type: [(struct_specifier !name body: (_) @body) (union_specifier !name body: (_) @body)
         (enum_specifier !name body: (_) @body)]
  declarator: (type_identifier) @name) @definition
(type_definition declarator: (type_identifier) @name) @definition
"""

_BASH = """
(function_definition name: (_) @name body: (_) @body) @definition
"""

GRAMMARS: dict[str, Grammar] = {
    "python": Grammar(
        "tree_sitter_python",
        _PYTHON,
        "python",
        wrappers=frozenset({"decorated_definition"}),
        docstrings=True,
    ),
    "typescript": Grammar(
        "tree_sitter_typescript",
        _TYPESCRIPT,
        "js",
        function="language_typescript",
        signature_parents=_JS_SIGNATURE,
        wrappers=_JS_WRAPPERS,
        attachments=frozenset({"decorator"}),
        calls=True,
        values=_JS_VALUES,
        declared=_JS_DECLARED,
    ),
    "tsx": Grammar(
        "tree_sitter_typescript",
        _TYPESCRIPT,
        "js",
        function="language_tsx",
        signature_parents=_JS_SIGNATURE,
        wrappers=_JS_WRAPPERS,
        attachments=frozenset({"decorator"}),
        calls=True,
        values=_JS_VALUES,
        declared=_JS_DECLARED,
    ),
    "go": Grammar(
        "tree_sitter_go",
        _GO,
        "c",
        signature_parents=frozenset({"type_declaration", "var_declaration"}),
        declared=frozenset({"const_declaration", "var_declaration"}),
    ),
    "rust": Grammar(
        "tree_sitter_rust",
        _RUST,
        "c",
        comments=("line_comment", "block_comment"),
        attachments=frozenset({"attribute_item"}),
        values=frozenset({"const_item", "static_item"}),
        declared=frozenset({"const_item"}),  # (a ``static`` is a variable, ``mut`` or not)
        rustdoc=True,
        macro_items=True,
    ),
    "java": Grammar(
        "tree_sitter_java",
        _JAVA,
        "c",
        comments=("line_comment", "block_comment"),
    ),
    "c_sharp": Grammar("tree_sitter_c_sharp", _CSHARP, "c"),
    "cpp": Grammar(
        "tree_sitter_cpp",
        _CPP,
        "c",
        wrappers=frozenset({"template_declaration"}),
    ),
    "bash": Grammar("tree_sitter_bash", _BASH, "shell"),
}
