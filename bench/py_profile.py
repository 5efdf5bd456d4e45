"""Where a warm first-pass query's instructions go, by Python function, inclusive (issue #17).

    python bench/py_profile.py SRC [--db PATH] [--queries 100] [--top 40]

``warm_instructions.py`` counts a whole query and ``stage_instructions.py`` a stage named in
advance; neither says which function to look at next. callgrind attributes instructions to
C functions only: on CPython 3.11 every Python function runs inside
``_PyEval_EvalFrameDefault``, and Python-to-Python calls do not even leave it. So the child
here loads a small C extension, built into a temporary folder (gcc and Python's headers; it
is never part of credo), that installs a PEP 523 frame-evaluation hook: each code object met
is given its own C trampoline (``pyf_N``), which calls the default evaluator. callgrind's
inclusive cost of ``pyf_N`` is then the inclusive cost of that Python function, summed over
its calls (a function that calls itself is counted once, at its outer call).

The child reads the warm index (``Store.build_warm``), answers ``--queries`` warm-up queries
(the latency bench's generator at another seed), then the measured ones once, with
collection switched on around those alone (``CALLGRIND_TOGGLE_COLLECT``): the figures are
per measured query, a first pass as ``warm_instructions.py --first`` counts it. The hook
turns CPython's inlined Python calls off, which adds ~1% to the total: the figures rank
where the work goes; compare trees with ``warm_instructions.py``.

The store is ``--db`` (copied, never written), else a 10k synthetic one built as
bench/latency.py builds it. Needs valgrind (callgrind, callgrind_annotate) and gcc.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from warm_instructions import ten_thousand  # noqa: E402

TRAMPOLINES = 8000  # code objects given their own; later ones share the last

HEADER = """#define PY_SSIZE_T_CLEAN
#define Py_BUILD_CORE
#include <Python.h>
#include "internal/pycore_frame.h"
#include <valgrind/callgrind.h>
typedef PyObject *(*evalfn)(PyThreadState *, _PyInterpreterFrame *, int);
"""

# A call the compiler may neither inline nor turn into a jump: callgrind then sees each
# trampoline as a function of its own, with the evaluator's work under it.
TRAMPOLINE = (
    "__attribute__((noinline)) PyObject *pyf_{n}(PyThreadState *t, _PyInterpreterFrame *f,"
    " int e) {{ PyObject *r = _PyEval_EvalFrameDefault(t, f, e);"
    ' __asm__ volatile("nop" ::: "memory"); return r; }}\n'
)

BODY = """
static evalfn table[{count}] = {{{names}}};
static Py_ssize_t extra = -1;
static PyObject *codes = NULL;
static PyObject *hook(PyThreadState *t, _PyInterpreterFrame *f, int e) {{
    void *p = NULL;
    PyObject *code = (PyObject *)f->f_code;
    _PyCode_GetExtra(code, extra, &p);
    Py_ssize_t i;
    if (p != NULL) {{
        i = (Py_ssize_t)p - 1;
    }} else {{
        i = PyList_GET_SIZE(codes);
        if (i >= {count}) return pyf_{last}(t, f, e);
        PyList_Append(codes, code);
        _PyCode_SetExtra(code, extra, (void *)(i + 1));
    }}
    return table[i](t, f, e);
}}
static PyObject *install(PyObject *s, PyObject *a) {{
    if (codes == NULL) codes = PyList_New(0);
    if (extra < 0) extra = _PyEval_RequestCodeExtraIndex(NULL);
    _PyInterpreterState_SetEvalFrameFunc(PyInterpreterState_Get(), hook);
    Py_RETURN_NONE;
}}
static PyObject *met(PyObject *s, PyObject *a) {{ return Py_NewRef(codes); }}
static PyObject *toggle(PyObject *s, PyObject *a) {{ CALLGRIND_TOGGLE_COLLECT; Py_RETURN_NONE; }}
static PyMethodDef methods[] = {{
    {{"install", install, METH_NOARGS, 0}}, {{"codes", met, METH_NOARGS, 0}},
    {{"toggle", toggle, METH_NOARGS, 0}}, {{0}}}};
static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "pyattr", 0, -1, methods}};
PyMODINIT_FUNC PyInit_pyattr(void) {{ return PyModule_Create(&module); }}
"""

CHILD = """
import sys
sys.path.insert(0, {bench!r})
sys.path.insert(0, {ext!r})
from pathlib import Path
from latency import queries
from credo import Memory
import pyattr
db, count, names = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
others, texts = queries(count, seed=12), queries(count)
pyattr.install()
with Memory(db, root=db.parent) as memory:
    assert memory.store.build_warm()
    for text in others:
        memory.retrieve(text)
    pyattr.toggle()
    for text in texts:
        memory.retrieve(text)
    pyattr.toggle()
with open(names, "w") as out:
    for n, code in enumerate(pyattr.codes()):
        out.write(f"pyf_{{n}}\\t{{code.co_qualname}}\\t{{code.co_filename}}:{{code.co_firstlineno}}\\n")
"""


def build_extension(folder: Path) -> Path:
    """The trampolines' extension module, compiled in ``folder``."""
    if sys.version_info[:2] != (3, 11):
        raise SystemExit("the frame hook reads CPython 3.11's frame layout: run with 3.11")
    source = folder / "pyattr.c"
    names = ",".join(f"pyf_{n}" for n in range(TRAMPOLINES))
    source.write_text(
        HEADER
        + "".join(TRAMPOLINE.format(n=n) for n in range(TRAMPOLINES))
        + BODY.format(count=TRAMPOLINES, names=names, last=TRAMPOLINES - 1)
    )
    target = folder / f"pyattr{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(
        [
            "gcc",
            "-O1",
            "-fno-optimize-sibling-calls",
            "-shared",
            "-fPIC",
            f"-I{sysconfig.get_paths()['include']}",
            str(source),
            "-o",
            str(target),
        ],
        check=True,
    )
    return folder


def profile(src: Path, db: Path, count: int, folder: Path) -> tuple[Path, Path]:
    """callgrind's output and the trampolines' names, from one child."""
    ext = build_extension(folder)
    copy, out, names = folder / "run.db", folder / "callgrind.out", folder / "names.tsv"
    shutil.copyfile(db, copy)
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "PYTHONHASHSEED": "0",
        "OPENBLAS_NUM_THREADS": "1",
        "CREDO_CAPTURE": "0",
    }
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--callgrind-out-file={out}",
            os.path.realpath(sys.executable),
            "-c",
            CHILD.format(bench=str(BENCH), ext=str(ext)),
            str(copy),
            str(count),
            str(names),
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    return out, names


def by_function(out: Path, names: Path) -> dict[str, int]:
    """Each Python function's inclusive instructions (``qualname  [file:line]``)."""
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return tally(annotated, trampoline_names(names.read_text()))


def trampoline_names(table: str) -> dict[str, str]:
    """``pyf_N`` -> ``qualname  [file:line]``, from the child's table (a file's path from
    ``credo/`` on, when it is credo's). A full table's last trampoline also ran every code
    object met after it filled (the hook's fallback): its name says so."""
    named = {}
    for line in table.splitlines():
        key, qualname, where = line.split("\t")
        named[key] = f"{qualname}  [{where.rpartition('/credo/')[2] or where}]"
    if len(named) >= TRAMPOLINES:
        last = f"pyf_{TRAMPOLINES - 1}"
        named[last] += "  (+ every code object past the table)"
    return named


def tally(annotated: str, named: dict[str, str]) -> dict[str, int]:
    """The inclusive cost of each function ``named``, from ``callgrind_annotate
    --inclusive=yes`` lines (``1,234 (0.5%)  ???:pyf_7 [lib]``). A function that calls
    itself is counted at its outer calls alone: the line of its inner ones (``pyf_7'2``)
    is part of that already."""
    costs: dict[str, int] = {}
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+)\s.*?:(pyf_\d+)(?:\s|$)", line)
        if found and (name := named.get(found.group(2))) is not None:
            costs[name] = costs.get(name, 0) + int(found.group(1).replace(",", ""))
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("src", type=Path, help="a folder holding the credo package")
    parser.add_argument("--db", type=Path, help="a store to copy (default: a 10k one, built)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--keep", type=Path, help="a folder to keep callgrind's output in")
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_annotate", "gcc"):
        if shutil.which(tool) is None:
            raise SystemExit(f"needs {tool}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        db = args.db or ten_thousand(folder)
        out, names = profile(args.src, db, args.queries, folder)
        costs = by_function(out, names)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(out, args.keep / out.name)
            shutil.copy(names, args.keep / names.name)
    print(f"a query's instructions by Python function, inclusive ({args.queries} queries)")
    for name, cost in sorted(costs.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{cost / args.queries:12,.0f}  {name}")


if __name__ == "__main__":
    main()
