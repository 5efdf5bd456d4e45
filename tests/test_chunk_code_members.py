"""Members the C# and C++ readers made no definition of (day-code89's audits of pythonnet
3.0.5 and libfmt-dev 9.1: 1,302 of pythonnet's 1,320 member properties, 216 of fmt's 240
``using`` aliases): a C# property or delegate, a C++ ``using`` alias or ``typedef``. Each
was in no definition; a doc comment above it was a comment naming nothing."""

from __future__ import annotations

import textwrap

from credo.knowledge.chunk import split_code
from tests.test_chunk_code import check

_CSHARP = textwrap.dedent(
    """\
    namespace Demo
    {
        public class Counter
        {
            /// <summary>The number of items counted so far.</summary>
            public int Count { get; private set; } = 0;

            /// <summary>The counter's display name.</summary>
            public string Name => _prefix + "-counter";

            /// <summary>Called when the count changes.</summary>
            public delegate void Changed(object sender, int count);

            public void Add() { Count++; }
        }
    }
    """
)


def test_csharp_properties_and_delegates_are_definitions() -> None:
    chunks = split_code(_CSHARP, "csharp")
    check(chunks, _CSHARP)
    rows = [(c.section, c.start_line, c.end_line, c.text) for c in chunks]
    assert (
        ("Demo", "Counter", "Count"),
        5,
        6,
        "The number of items counted so far. public int Count",
    ) in rows
    assert (
        ("Demo", "Counter", "Name"),
        8,
        9,
        "The counter's display name. public string Name",
    ) in rows
    assert (
        ("Demo", "Counter", "Changed"),
        11,
        12,
        "Called when the count changes. public delegate void Changed(object sender, int count)",
    ) in rows
    name = next(c for c in chunks if c.section == ("Demo", "Counter", "Name"))
    assert "prefix" in name.context.split()  # (an expression body's names)


_CPP = textwrap.dedent(
    """\
    #include <string>

    namespace fmt {
    /// A string view of chars.
    using string_view = basic_string_view<char>;

    /// Removes const, volatile and reference.
    template <typename T> using remove_cvref_t = typename std::remove_cv<T>::type;

    typedef unsigned long long ulong;

    /** A point on the screen. */
    typedef struct {
      int x;  // across
      int y;
    } point;
    }
    """
)


def test_cpp_aliases_and_typedefs_are_definitions() -> None:
    chunks = split_code(_CPP, "cpp")
    check(chunks, _CPP)
    rows = [(c.section, c.start_line, c.end_line, c.text) for c in chunks]
    assert (
        ("fmt", "string_view"),
        4,
        5,
        "A string view of chars. using string_view = basic_string_view<char>",
    ) in rows
    assert (
        ("fmt", "remove_cvref_t"),
        7,
        8,
        "Removes const, volatile and reference."
        " using remove_cvref_t = typename std::remove_cv<T>::type",
    ) in rows
    assert (("fmt", "ulong"), 10, 10, "typedef unsigned long long ulong") in rows
    assert (("fmt", "point"), 12, 16, "A point on the screen. typedef struct") in rows
    # a comment inside the anonymous struct is the typedef's
    assert (("fmt", "point"), 14, 14, "across") in rows


def test_a_csharp_doc_reference_reads_as_the_name_it_holds() -> None:
    """Fails before day-code89: ``<see cref="Normalize"/>`` and ``<paramref
    name="count"/>`` were dropped with the tags around them: the doc read "see and , or
    ." (pythonnet's 74 references)."""
    source = textwrap.dedent(
        """\
        class A {
            /// <summary>Returns the value; see <see cref="Normalize"/> and
            /// <paramref name="count"/>, or <see langword="null"/>
            /// (<seealso cref="T:System.String"/>).</summary>
            public int Get(int count) { return 1; }
        }
        """
    )
    chunks = split_code(source, "csharp")
    check(chunks, source)
    [get] = [c for c in chunks if c.section == ("A", "Get")]
    assert get.text.startswith(
        "Returns the value; see Normalize and count , or null ( System.String )."
    )


def test_a_csharp_parameter_s_name_leads_its_description() -> None:
    """Fails before day-code89: ``<param name="count">How many.</param>`` read "How many."
    without the parameter it describes (JSDoc's ``@param count How many.`` keeps it), and
    ``<exception cref="ArgumentNullException">`` lost the exception's name."""
    source = textwrap.dedent(
        """\
        class A {
            /// <summary>Gets it.</summary>
            /// <param name="count">How many.</param>
            /// <exception cref="ArgumentNullException">When null.</exception>
            public int Get(int count) { return 1; }
        }
        """
    )
    chunks = split_code(source, "csharp")
    check(chunks, source)
    [get] = [c for c in chunks if c.section == ("A", "Get")]
    assert get.text == (
        "Gets it. count How many. ArgumentNullException When null. public int Get(int count)"
    )


_DTS = textwrap.dedent(
    """\
    import { NonEmptyArray } from "./NonEmptyArray";
    /**
     * Test whether an array is empty
     *
     * @since 2.0.0
     */
    export declare const isEmpty: <A>(as: Array<A>) => as is [];
    export declare const ZodType: core.$constructor<ZodType>;
    declare let later: string;
    """
)


def test_a_declaration_file_s_declared_constants_are_definitions() -> None:
    """Fails before day-code89: ``export declare const isEmpty: <A>(as: Array<A>) => ...``,
    what tsc writes for an exported arrow, was in no chunk (fp-ts's .d.ts: 4,106 of them;
    zod's: 954), its JSDoc a comment naming nothing. With a doc it is a definition as a
    documented value is; without one, a constant's, its type its text; a ``let`` varies."""
    chunks = split_code(_DTS, "typescript")
    check(chunks, _DTS)
    rows = [(c.section, c.start_line, c.end_line, c.text) for c in chunks if c.role == "definition"]
    assert rows == [
        (
            ("isEmpty",),
            2,
            7,
            "Test whether an array is empty @since 2.0.0"
            " const isEmpty: <A>(as: Array<A>) => as is []",
        ),
        (("ZodType",), 8, 8, "const ZodType: core.$constructor<ZodType>"),
    ]
