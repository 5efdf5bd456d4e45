"""bench/py_profile.py's own logic: the trampolines' names, and the tally of
callgrind_annotate's inclusive lines by Python function."""

from bench.py_profile import TRAMPOLINES, tally, trampoline_names

TABLE = (
    "pyf_0\tretrieve\t/x/src/credo/retrieval/pipeline.py:83\n"
    "pyf_1\tcompose\t/x/src/credo/retrieval/rank.py:87\n"
    "pyf_2\t<listcomp>\t/usr/lib/python3.11/json/decoder.py:10\n"
)

ANNOTATED = """\
--------------------------------------------------------------------------------
733,000 (100.0%)  PROGRAM TOTALS
4,405,111 (601.3%)  ceval.c:_PyEval_EvalFrameDefault'2 [/lib/libpython3.11.so]
  727,442 (99.29%)  ???:pyf_0 [/tmp/x/pyattr.so]
   97,977 (13.37%)  ???:pyf_1 [/tmp/x/pyattr.so]
   40,000 ( 5.46%)  ???:pyf_1'2 [/tmp/x/pyattr.so]
    1,234 ( 0.17%)  ???:pyf_2 [/tmp/x/pyattr.so]
      999 ( 0.14%)  ???:pyf_12 [/tmp/x/pyattr.so]
"""


def test_names_are_read_from_credo_on() -> None:
    named = trampoline_names(TABLE)
    assert named["pyf_0"] == "retrieve  [retrieval/pipeline.py:83]"
    assert named["pyf_2"] == "<listcomp>  [/usr/lib/python3.11/json/decoder.py:10]"


def test_a_function_is_counted_at_its_outer_calls_alone() -> None:
    costs = tally(ANNOTATED, trampoline_names(TABLE))
    assert costs == {
        "retrieve  [retrieval/pipeline.py:83]": 727_442,
        # (its inner calls, pyf_1'2, are inside these 97,977)
        "compose  [retrieval/rank.py:87]": 97_977,
        "<listcomp>  [/usr/lib/python3.11/json/decoder.py:10]": 1_234,
    }  # (pyf_12 is in no table: left out, not read as pyf_1)


def test_a_full_table_s_last_name_says_it_holds_every_later_code_object() -> None:
    """Fails before (review78): past the table, every code object runs through the last
    trampoline (the hook's fallback), whose cost was shown under one function's name."""
    table = "".join(f"pyf_{n}\tf{n}\t/x/src/credo/m.py:{n}\n" for n in range(TRAMPOLINES))
    named = trampoline_names(table)
    assert named[f"pyf_{TRAMPOLINES - 1}"].endswith("(+ every code object past the table)")
    assert named["pyf_0"] == "f0  [m.py:0]"
    assert "past the table" not in trampoline_names(TABLE)["pyf_2"]
