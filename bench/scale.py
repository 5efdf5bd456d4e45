"""Issue #17's scale table: credo at 10k and 100k beliefs (1M behind ``--million``).

    PYTHONPATH=src python bench/scale.py [--sizes 10000,100000] [--million]
                                         [--queries 200] [--rounds 15] [--import-only]

For each size, a synthetic store (bench/synth.py: Zipf text over a 20k-word vocabulary, two
edges per belief) in a temporary git project, and one row of the issue's table:

- **import**: ``Memory.import_records`` of the records file (open, import, as
  bench/ingest.py), seconds and beliefs/s; the records file's writing is not timed;
- **file**: the store's size after it is closed (db + wal), in MiB (bench/ingest.py's
  unit, which the issue's 84 and 836 figures came from);
- **first retrieve, fresh process**: ``python -c`` that imports credo, opens the store and
  retrieves once (timed inside the process: imports + open + retrieve; the interpreter's
  own start is not in it), median of ``--rounds`` runs, each with a different query;
- **warm p50 / p99**: ``Memory.retrieve`` in this process with the store's warm index read
  first, as the warm server keeps it (store/warm.py; its read time and the growth of peak
  RSS are printed), over ``--queries`` queries after a warm-up pass over as many *other*
  queries; each query is also answered, in turn, by a second store of the same file
  reading SQL (results asserted equal), printed beside it; and a second pass;
- **hook p50, installed command**: ``sh -c "python -S .../credo/hookstart.py hook prompt"``
  (what ``credo setup claude`` installs) with a question on stdin, without a server
  (``CREDO_WARM=off``: the direct path, on a copy of the store, so that its journal write,
  a commit by another process, does not drop the server's caches before each warm round)
  and with ``credo serve`` up on the store and its warm index read (the bench waits for the
  server's log line), each as a ratio to ``python -S -c pass`` timed
  in the same loop;
- **``credo search``** end to end (the console script beside this interpreter);
- **RSS of the warm server**: ``VmHWM`` (peak resident set) of the ``credo serve`` process
  from ``/proc/<pid>/status`` after the hooks have run.

Every fresh-process command runs once per round, interleaved (the order rotates each round)
with the floor, so the machine's drift hits them alike. Capture is off
(``CREDO_CAPTURE=0``, for the server and the hooks): no detached capture child runs between
commands, so no settle pause is needed. The server answers three untimed requests (through
the client in this process, asked until answered) before the rounds. The package is
byte-compiled first, as ``credo setup`` does (this environment sets
``PYTHONDONTWRITEBYTECODE=1``). The load average is printed with every row.

Issue #17's targets are printed as PASS/FAIL lines at the end. ``--import-only`` stops each
size after its import line (the import's seconds, beliefs/s, CPU seconds and file size) and
prints the import targets alone.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import credo
from credo import Memory
from credo.surfaces.claude_setup import hook_argv
from credo.surfaces.install import credo_argv
from synth import ZipfText, write_records

FIRST_RETRIEVE = """
import sys, time
t0 = time.perf_counter()
from credo import Memory
m = Memory(sys.argv[1])
m.retrieve(sys.argv[2])
print(time.perf_counter() - t0)
"""

MIB = 1_048_576
TODAY_1M_FILE_MIB = 836  # the file size at 1M, before this work
FLOOR = "python -S -c pass"
HOOK = "hook, no server"
WARM_HOOK = "hook, credo serve up"
SEARCH = "credo search"
FIRST = "first retrieve"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def build(root: Path, beliefs: int) -> tuple[Path, dict[str, float]]:
    """A git project whose store holds ``beliefs`` beliefs and twice as many edges; the
    import's wall and CPU seconds and the file's size."""
    project = root / "proj"
    (project / ".git").mkdir(parents=True)
    records = write_records(root / "records.jsonl", beliefs, 2, text="zipf")
    db = project / ".credo" / "memory.db"
    load_before = os.getloadavg()[0]
    started, cpu_started = time.perf_counter(), time.process_time()
    with Memory(db, root=project) as memory:
        report = memory.import_records(records)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
    records.unlink()
    size = sum(p.stat().st_size for p in db.parent.glob(f"{db.name}*"))
    return project, {
        "beliefs": report.beliefs_added,
        "edges": report.edges_added,
        "import_s": seconds,
        "import_cpu_s": cpu,
        "import_load": load_before,
        "per_s": report.beliefs_added / seconds,
        "file_mib": size / MIB,
    }


def warm(db: Path, root: Path, warmup: list[str], texts: list[str]) -> dict[str, float]:
    """Warm retrieve in this process, as the warm server answers: the store's warm index read
    (timed, with the growth of this process's peak RSS), a warm-up pass over ``warmup``,
    then ``texts`` twice, each query answered in turn by the warm store and by a store of the
    same file reading SQL (the code without the index, side by side: results asserted equal).
    Each timed answer holds the cycle collector off, as the server does from a request's
    first byte to its reply's last (credo/surfaces/collector.py); its collections run in
    between."""
    from credo.surfaces.collector import Collector

    collector = Collector()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with Memory(db, root=root) as memory, Memory(db, root=root) as sql:
        started = time.perf_counter()
        assert memory.store.build_warm()
        built = time.perf_counter() - started
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before
        for text in warmup:
            memory.retrieve(text)
            sql.retrieve(text)
        passes: list[list[float]] = []
        by_sql: list[float] = []
        for _ in range(2):
            times = []
            for text in texts:
                with collector.paused():
                    started = time.perf_counter()
                    got = memory.retrieve(text)
                    times.append((time.perf_counter() - started) * 1000)
                with collector.paused():
                    started = time.perf_counter()
                    want = sql.retrieve(text)
                    by_sql.append((time.perf_counter() - started) * 1000)
                assert got == want, text
            passes.append(times)
        assert memory.store.warm
    first, second = passes
    return {
        "p50": statistics.median(first),
        "p99": percentile(first, 0.99),
        "seen_p50": statistics.median(second),
        "seen_p99": percentile(second, 0.99),
        "sql_p50": statistics.median(by_sql),
        "sql_p99": percentile(by_sql, 0.99),
        "index_s": built,
        "index_mib": grown,
    }


def start_server(
    project: Path, env: dict[str, str], warmups: Sequence[bytes] = ()
) -> subprocess.Popen[bytes]:
    """``credo serve`` on the project's store, once its socket answers a hook request; then
    each of ``warmups`` (prompt payloads) answered, untimed, through the client in this
    process, asked again until the server answers: a hook command that timed out would take
    the direct path and journal from another process, which drops the server's caches."""
    from credo.surfaces import warm as client

    server = subprocess.Popen(
        [*credo_argv(), "--db", str(project / ".credo" / "memory.db"), "serve"],
        env=env,
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    probe = json.dumps({"cwd": str(project), "hook_event_name": "Elsewhere"}).encode()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    deadline = time.monotonic() + 300  # a 1M store's first open reads a lot
    try:
        for payload in [probe, *warmups]:
            while client.ask("prompt", payload) is None:
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    raise SystemExit(f"credo serve did not start: {server.stderr.read()!r}")
                time.sleep(0.05)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    # The timed rounds measure a warm server: wait until its warm index is in place.
    log = Path(env["CREDO_HOOK_LOG"])
    while "warm index of" not in (log.read_text() if log.exists() else ""):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise SystemExit(f"credo serve read no warm index: see {log}")
        time.sleep(0.1)
    return server


def peak_rss_mib(pid: int) -> tuple[float, float]:
    """``VmHWM`` and ``VmRSS`` of ``pid`` in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmHWM", "VmRSS"):
            fields[name] = int(value.split()[0]) / 1024  # kB
    return fields["VmHWM"], fields["VmRSS"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(
    argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str]
) -> tuple[float, float, bytes]:
    """Wall ms, CPU ms (user + system) and stdout of one fresh process."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, cwd=cwd, env=env, capture_output=True, check=True)
    wall = (time.perf_counter() - started) * 1000
    return wall, (_children_cpu() - cpu) * 1000, done.stdout


def prompt(project: Path, session: str, text: str) -> bytes:
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": str(project / "no-transcript.jsonl"),
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": text,
        }
    ).encode()


def fresh(
    project: Path, env: dict[str, str], texts: list[str], rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]], int, float, float, int]:
    """The fresh-process commands, interleaved; then the server's peak RSS. Returns wall
    times, CPU times, rounds whose warm hook printed the direct path's bytes, VmHWM, VmRSS
    and the number of answers the server gave.

    The direct hook runs in a copy of the project (the same store file, copied): its journal
    write, a commit by another process, would drop the server's caches (its warm index,
    truth caches) before every warm round, which no warm hook does to its server."""
    db = project / ".credo" / "memory.db"
    hook = shlex.join([*hook_argv(), "hook", "prompt"])
    direct = {**env, "CREDO_WARM": "off"}
    search_env = {**direct, "CREDO_DB": str(db)}
    twin = project.parent / "proj-direct"
    (twin / ".credo").mkdir(parents=True)
    (twin / ".git").mkdir()
    for part in db.parent.glob(f"{db.name}*"):
        shutil.copyfile(part, twin / ".credo" / part.name)
    # the server's first answers read cold pages (and wait for its start-up work): untimed
    warmups = [prompt(project, f"warm-up-{i}", texts[-1 - i]) for i in range(3)]
    server = start_server(project, env, warmups)
    try:
        wall: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        same = 0
        for i in range(rounds):
            question = f"How does {texts[i]} work here?"
            commands: list[tuple[str, list[str], bytes, dict[str, str]]] = [
                (FIRST, [sys.executable, "-c", FIRST_RETRIEVE, str(db), texts[i]], b"", direct),
                (HOOK, ["sh", "-c", hook], prompt(twin, f"direct-{i}", question), direct),
                (WARM_HOOK, ["sh", "-c", hook], prompt(project, f"warm-{i}", question), env),
                (FLOOR, [sys.executable, "-S", "-c", "pass"], b"", direct),
                (SEARCH, [*credo_argv(), "search", texts[i]], b"", search_env),
            ]
            shift = i % len(commands)
            out: dict[str, bytes] = {}
            for name, argv, stdin, chosen in commands[shift:] + commands[:shift]:
                elapsed, used, out[name] = run(argv, stdin, project, chosen)
                if name == FIRST:
                    elapsed = float(out[name]) * 1000  # inside the process
                wall.setdefault(name, []).append(elapsed)
                cpu.setdefault(name, []).append(used)
            same += out[HOOK] == out[WARM_HOOK] and bool(out[HOOK])
        hwm, rss = peak_rss_mib(server.pid)
    finally:
        answers = stop(server)
    return wall, cpu, same, hwm, rss, answers


def stop(server: subprocess.Popen[bytes]) -> int:
    """Stop a server; how many answers it gave (-1: it did not say)."""
    server.send_signal(signal.SIGTERM)
    try:
        _, said = server.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        _, said = server.communicate()
    last = said.decode().strip().splitlines()[-1:] or [""]
    return int(last[0].split()[2]) if last[0].startswith("stopped after") else -1


def query_sets(count: int) -> tuple[list[str], list[str]]:
    """``count`` measured queries and as many *other* ones for the warm-up (one generator
    each: a new one per query would repeat its first)."""
    measured, others = ZipfText(seed=11), ZipfText(seed=12)
    return [measured.query() for _ in range(count)], [others.query() for _ in range(count)]


def hook_env(root: Path) -> dict[str, str]:
    """The environment of the servers and hooks of a run in ``root``: no CREDO_* setting of
    the caller's, capture off, its own hook log (the server says there when its index is
    read) and its own socket folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDO_")}
    env["CREDO_CAPTURE"] = "0"
    env["CREDO_HOOK_LOG"] = str(root / "hook.log")
    env["XDG_RUNTIME_DIR"] = str(root / "run")
    (root / "run").mkdir(mode=0o700)
    return env


def measure(size: int, rounds: int, queries: int, *, import_only: bool) -> dict[str, float]:
    texts, warmup = query_sets(queries)
    root = Path(tempfile.mkdtemp(prefix=f"credo-scale-{size}-"))
    env = hook_env(root)
    try:
        print(f"\n== {size:,} beliefs (load before: {load()})", flush=True)
        project, row = build(root, size)
        print(
            f"  import {row['import_s']:.1f} s ({row['per_s']:,.0f} beliefs/s, CPU "
            f"{row['import_cpu_s']:.1f} s, load {row['import_load']:.2f}); "
            f"{row['beliefs']:,} beliefs, {row['edges']:,} edges; file {row['file_mib']:.1f} MiB",
            flush=True,
        )
        if import_only:
            return {**row, "size": size}
        row.update(warm(project / ".credo" / "memory.db", project, warmup, texts))
        print(
            f"  warm index read in {row['index_s']:.2f} s (peak RSS +{row['index_mib']:.0f} "
            f"MiB); warm p50 {row['p50']:.2f} p99 {row['p99']:.2f} ms (second pass "
            f"{row['seen_p50']:.2f} / {row['seen_p99']:.2f}); the same queries read from SQL, "
            f"in turn: p50 {row['sql_p50']:.2f} p99 {row['sql_p99']:.2f} ms; load {load()}",
            flush=True,
        )
        wall, cpu, same, hwm, rss, answers = fresh(project, env, texts, rounds)
        floor = statistics.median(wall[FLOOR])
        for name, values in wall.items():
            p50 = statistics.median(values)
            ratio = f" = {p50 / floor:.2f}x the floor" if name in (HOOK, WARM_HOOK) else ""
            print(
                f"  {name:<22} p50 {p50:7.1f} ms  min {min(values):7.1f}  "
                f"cpu p50 {statistics.median(cpu[name]):7.1f}{ratio}"
            )
        print(
            f"  warm hook printed the direct path's bytes in {same}/{rounds} rounds; the "
            f"server gave {answers} answers ({rounds} timed, 3 warm-up, 1 probe); "
            f"server VmHWM {hwm:.0f} MiB (VmRSS {rss:.0f}); load after: {load()}",
            flush=True,
        )
        row.update(
            size=size,
            first=statistics.median(wall[FIRST]),
            first_min=min(wall[FIRST]),
            hook=statistics.median(wall[HOOK]),
            warm_hook=statistics.median(wall[WARM_HOOK]),
            floor=floor,
            search=statistics.median(wall[SEARCH]),
            hwm=hwm,
            load_after=os.getloadavg()[0],
        )
        return row
    finally:
        subprocess.run(["rm", "-rf", str(root)], check=False)


def table(rows: list[dict[str, float]]) -> None:
    print(
        "\n| beliefs | import | file | first retrieve, fresh process | warm p50 / p99 "
        "| hook p50, no server | hook p50, `credo serve` up | `python -S -c pass` "
        "| `credo search` | server RSS (VmHWM) | load after |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {int(r['size']):,} | {r['import_s']:.1f} s ({r['per_s']:,.0f}/s) "
            f"| {r['file_mib']:.0f} MiB | {r['first']:.0f} ms "
            f"| {r['p50']:.2f} / {r['p99']:.2f} ms "
            f"| {r['hook']:.0f} ms ({r['hook'] / r['floor']:.2f}x) "
            f"| {r['warm_hook']:.1f} ms ({r['warm_hook'] / r['floor']:.2f}x) "
            f"| {r['floor']:.1f} ms | {r['search']:.0f} ms | {r['hwm']:.0f} MiB "
            f"| {r['load_after']:.2f} |"
        )


def targets(rows: list[dict[str, float]]) -> None:
    by_size = {int(r["size"]): r for r in rows}
    checks: list[tuple[str, float, float, bool]] = []

    def check(name: str, value: float, limit: float, *, at_least: bool = False) -> None:
        checks.append((name, value, limit, value >= limit if at_least else value <= limit))

    if any("p50" not in r for r in rows):  # --import-only: the import targets alone
        by_size = {}
    if 10_000 in by_size:
        check("warm p50 at 10k (ms)", by_size[10_000]["p50"], 1.0)
    for size, r in sorted(by_size.items()):
        if size in (10_000, 100_000, 1_000_000):
            check(
                f"hook with server at {size:,} (x python -S -c pass)",
                r["warm_hook"] / r["floor"],
                3.0,
            )
    if 100_000 in by_size:
        r = by_size[100_000]
        check("hook without server at 100k (ms)", r["hook"], 100.0)
        check("first retrieve at 100k (ms)", r["first"], 60.0)
    if 1_000_000 in by_size:
        r = by_size[1_000_000]
        check("warm p50 at 1M (ms)", r["p50"], 5.0)
        check("warm p99 at 1M (ms)", r["p99"], 20.0)
        check("server RSS at 1M (MiB)", r["hwm"], 1.5 * 1024)
    million = [r for r in rows if int(r["size"]) == 1_000_000]
    for r in million:
        check("import at 1M (beliefs/s)", r["per_s"], 20_000.0, at_least=True)
        check("file at 1M (MiB)", r["file_mib"], 1.2 * TODAY_1M_FILE_MIB)
    print()
    for name, value, limit, ok in checks:
        sign = ">=" if "beliefs/s" in name else "<="
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {value:,.2f} (target {sign} {limit:,.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--million", action="store_true", help="add 1,000,000 beliefs")
    parser.add_argument("--queries", type=int, default=200, help="warm queries per pass")
    parser.add_argument("--rounds", type=int, default=15, help="fresh-process rounds")
    parser.add_argument(
        "--import-only", action="store_true", help="stop each size after its import"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.million:
        sizes.append(1_000_000)
    package = Path(credo.__file__).parent
    compileall.compile_dir(package, quiet=1)  # as `credo setup` does for an install
    # Every child runs this credo, whatever its folder (a relative PYTHONPATH would not
    # hold in the project folder, and the editable install's .pth would take over).
    paths = [str(package.parent), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))]
    os.environ["PYTHONPATH"] = ":".join(dict.fromkeys(str(Path(p).resolve()) for p in paths))
    print(f"byte-compiled {package}; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    print(f"capture off (CREDO_CAPTURE=0) for the server and the hooks; load: {load()}")
    started = time.perf_counter()
    rows = [measure(s, args.rounds, args.queries, import_only=args.import_only) for s in sizes]
    if not args.import_only:
        table(rows)
    targets(rows)
    print(f"\n{time.perf_counter() - started:.0f} s in all; load at the end: {load()}")


if __name__ == "__main__":
    main()
