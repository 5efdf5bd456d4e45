"""Knowledge updates: does the pack serve the current value of a fact, or a stale one?

    python bench/updates.py [--budgets 150,400,800,1200,2400] [--json OUT]

120 labelled scenarios (24 templates x 5 subjects, fixed seed, written before any system
ran): a fact (a service's port, a team's package manager, a Python version, an owner, a
timeout, an API endpoint, a team rule...), later its replacement, and for a third of them
a third value. The updates arrive the three ways issue 15 names, a third of the scenarios
each, as a user would make them:

- relate:  the new value is stated in other words, then ``relate NEW OLD SUPERSEDES``;
- dedup:   the new value is the same sentence with the value changed (a near duplicate:
           Jaccard >= 0.7 on 3-word shingles, checked here), then ``credo dedup --apply``
           once over the whole store, which keeps the newest;
- resolve: the new value is stated in other words, joined to the old by CONTRADICTS, then
           ``resolve NEW OLD`` (SUPERSEDES + RESOLVES).

Every scenario brings distractors that share its words (the same subject in another
environment, the same setting of another subject, neighbouring facts), and all 120
scenarios live in one store, so each question also meets the other scenarios' beliefs.
Each scenario has a question whose answer is the current value.

Measured, per token budget: the share of questions whose pack holds the current belief,
and the share whose pack holds a stale one (an older value of that scenario), by belief
id. Systems:

- credo: ``Memory.retrieve(question, token_budget=B)``, default settings;
- credo --history: the same with ``include_superseded=True``, i.e. what credo packed before
  issue 15 (supersession ignored);
- FTS5: the same beliefs in a plain FTS5 table (content, porter tokenizer), the OR of the
  question's terms (credo's ``query_terms``: the same stopwords), bm25 order, packed in
  that order into the same budget, each belief charged ``tokens.belief_tokens`` (what credo
  charges an unmarked belief), stopping at the first that does not fit.

Goal (issue 15): credo current >= 0.98 and stale <= 0.02 at every budget.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from credo import Memory
from credo.knowledge import dedup
from credo.store.fts import query_terms
from credo.tokens import belief_tokens

SEED = 15
DAY = 86_400.0
START = 1_700_000_000.0
# 1,200 is the prompt hook's default budget, 2,400 the API's, the CLI's and the MCP tool's.
BUDGETS = (150, 400, 800, 1200, 2400)
PATHS = ("relate", "dedup", "resolve")

SERVICES = ["billing", "search", "checkout", "notifications", "inventory"]
TEAMS = ["platform", "mobile", "data", "payments", "growth"]
REPOS = ["storefront", "admin-portal", "ledger", "mailer", "analytics"]


@dataclass(frozen=True)
class Template:
    """One kind of fact. ``fact`` ends with the value (so a changed value leaves a near
    duplicate); ``restated`` says the same in other words; ``{s}`` is the subject, ``{v}``
    the value, ``{o}`` another subject."""

    name: str
    subjects: Sequence[str]
    fact: str
    restated: str
    question: str
    values: Sequence[str]
    distractors: Sequence[str]


TEMPLATES = [
    Template(
        "service port",
        SERVICES,
        "In the staging cluster the {s} service accepts internal traffic on port {v}",
        "After the network change, {s} in staging listens on port {v} for internal calls",
        "Which port does the {s} service listen on in staging?",
        ["8080", "9090", "3000", "8443", "5000", "7070", "8000"],
        [
            "In the production cluster the {s} service accepts public traffic on port 443",
            "In the development cluster the {o} service accepts local traffic on port 6000",
            "Port scans of the staging cluster run every night against the {s} service",
        ],
    ),
    Template(
        "deploy tool",
        SERVICES,
        "For the {s} service every deploy to the staging servers is run with {v}",
        "Since the March migration we ship {s} to the staging servers using {v}",
        "How do we deploy the {s} service to staging?",
        ["Capistrano", "Kamal", "Ansible", "Helm", "Fabric", "Terraform"],
        [
            "Production deploys of the {s} service need approval from the release manager",
            "The {o} service deploys to the staging servers every weekday at noon",
            "A deploy of {s} to staging posts a message to the #deploys channel",
        ],
    ),
    Template(
        "package manager",
        TEAMS,
        "In every JavaScript repository of the {s} team dependencies are installed with {v}",
        "The {s} team switched its JavaScript projects over to {v} for installing packages",
        "Which package manager does the {s} team use for JavaScript dependencies?",
        ["npm", "pnpm", "yarn", "bun"],
        [
            "The {s} team pins JavaScript dependencies with a lockfile committed to the repo",
            "The {o} team audits its JavaScript dependencies every month",
            "Python dependencies of the {s} team are installed from the internal index",
        ],
    ),
    Template(
        "python version",
        REPOS,
        "Tests and production code of the {s} repository run on Python {v}",
        "We upgraded {s}, so the repository now targets Python {v}",
        "What Python version does the {s} repository use?",
        ["3.9", "3.10", "3.11", "3.12", "3.13"],
        [
            "The {s} repository formats its Python code before every commit",
            "The {o} repository runs its test suite on every pull request",
            "Python type checking in the {s} repository runs in strict mode",
        ],
    ),
    Template(
        "node version",
        REPOS,
        "The frontend build of the {s} repository is compiled with Node.js release {v}",
        "The {s} frontend now builds with Node.js {v} after the toolchain upgrade",
        "Which Node.js version builds the {s} frontend?",
        ["16", "18", "20", "22"],
        [
            "The frontend of the {s} repository is bundled with esbuild",
            "The {o} frontend build caches node_modules between CI runs",
            "Node.js memory limits for the {s} build are raised in CI",
        ],
    ),
    Template(
        "service owner",
        SERVICES,
        "Questions and incidents about the {s} service go to its owner {v}",
        "Ownership of {s} moved, and {v} is now the person who answers for it",
        "Who owns the {s} service?",
        ["Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta"],
        [
            "Incidents about the {s} service are tracked in the incident channel",
            "Questions about the {o} service go to the platform help desk first",
            "The {s} service runbook lists who to page at night",
        ],
    ),
    Template(
        "request timeout",
        SERVICES,
        "Outgoing HTTP requests from the {s} service give up after a timeout of {v}",
        "We changed the {s} client so HTTP calls now time out after {v}",
        "What is the HTTP request timeout of the {s} service?",
        ["5s", "10s", "30s", "60s", "90s"],
        [
            "Outgoing HTTP requests from the {s} service retry three times with backoff",
            "The {o} service logs every HTTP request that times out",
            "Database queries of the {s} service have their own statement timeout",
        ],
    ),
    Template(
        "api endpoint",
        SERVICES,
        "Clients of the {s} API send their requests to the base path {v}",
        "The {s} API was versioned again and clients now call {v}",
        "Which base path do clients use for the {s} API?",
        ["/api/v1", "/api/v2", "/api/v3", "/v4", "/rest"],
        [
            "Clients of the {s} API authenticate with a bearer token",
            "The {o} API publishes its OpenAPI schema at /docs",
            "Rate limits of the {s} API are enforced per client key",
        ],
    ),
    Template(
        "review rule",
        TEAMS,
        "Pull requests of the {s} team are merged once approved by reviewers numbering {v}",
        "The {s} team now requires {v} approving reviews before a pull request merges",
        "How many approvals does a pull request of the {s} team need?",
        ["one", "two", "three"],
        [
            "Pull requests of the {s} team must pass CI before anyone reviews them",
            "The {o} team reviews pull requests within one working day",
            "Draft pull requests of the {s} team are not reviewed",
        ],
    ),
    Template(
        "merge strategy",
        TEAMS,
        "When the {s} team merges a pull request into main it always uses {v}",
        "From now on pull requests of the {s} team land on main by {v}",
        "Which merge strategy does the {s} team use for pull requests?",
        ["squash", "rebase", "merge"],
        [
            "The {s} team deletes the branch of a pull request after it lands",
            "The {o} team keeps a linear history on main",
            "Hotfixes of the {s} team go to the release branch first",
        ],
    ),
    Template(
        "database version",
        SERVICES,
        "The primary database behind the {s} service runs PostgreSQL major version {v}",
        "The {s} database was upgraded and is on PostgreSQL {v} now",
        "Which PostgreSQL version does the {s} database run?",
        ["12", "13", "14", "15", "16", "17"],
        [
            "The primary database behind the {s} service is backed up every hour",
            "The {o} database has a read replica in another region",
            "Schema migrations of the {s} database run before each deploy",
        ],
    ),
    Template(
        "ci system",
        REPOS,
        "Every push to the {s} repository is built and tested on {v}",
        "CI for {s} was moved, and builds and tests now run on {v}",
        "Where does CI run for the {s} repository?",
        ["Jenkins", "CircleCI", "Buildkite", "GitLab", "Drone", "TeamCity"],
        [
            "Every push to the {s} repository also runs the linters",
            "The {o} repository caches its build artifacts for a week",
            "Flaky tests in the {s} repository are retried once",
        ],
    ),
    Template(
        "cloud region",
        SERVICES,
        "The production deployment of the {s} service is hosted in the region {v}",
        "We migrated {s} production so it is now hosted in {v}",
        "In which region is the {s} service hosted in production?",
        ["Frankfurt", "Dublin", "Virginia", "Oregon", "Tokyo", "Sydney"],
        [
            "The production deployment of the {s} service has a disaster recovery plan",
            "The {o} service keeps a warm standby in a second region",
            "Latency of the {s} service is measured from three regions",
        ],
    ),
    Template(
        "default branch",
        REPOS,
        "Feature branches of the {s} repository are cut from the default branch {v}",
        "The {s} repository renamed its default branch, which is {v} now",
        "What is the default branch of the {s} repository?",
        ["master", "main", "trunk", "develop"],
        [
            "Feature branches of the {s} repository are deleted after merging",
            "The {o} repository protects its default branch from force pushes",
            "Release tags of the {s} repository are signed",
        ],
    ),
    Template(
        "secrets store",
        SERVICES,
        "Database passwords and API keys of the {s} service are kept in {v}",
        "The {s} service now reads its secrets such as API keys from {v}",
        "Where are the secrets of the {s} service stored?",
        ["Vault", "Doppler", "1Password", "Infisical", "SOPS"],
        [
            "API keys of the {s} service are rotated every ninety days",
            "The {o} service never writes secrets to its logs",
            "Database passwords of the {s} service are unique per environment",
        ],
    ),
    Template(
        "monitoring",
        SERVICES,
        "Dashboards and alerts for the {s} service are set up in {v}",
        "Monitoring for {s} moved, and its dashboards and alerts live in {v} now",
        "Which tool holds the dashboards and alerts of the {s} service?",
        ["Datadog", "Grafana", "NewRelic", "Honeycomb", "Prometheus"],
        [
            "Alerts for the {s} service page the on-call engineer",
            "The {o} service exports traces with OpenTelemetry",
            "Dashboards for the {s} service show p99 latency per endpoint",
        ],
    ),
    Template(
        "release day",
        TEAMS,
        "Scheduled production releases of the {s} team go out every week on {v}",
        "The {s} team moved its weekly production release to {v}",
        "On which day does the {s} team release to production?",
        ["Monday", "Tuesday", "Wednesday", "Thursday"],
        [
            "Production releases of the {s} team are announced in the team channel",
            "The {o} team freezes releases during the last week of the quarter",
            "Emergency releases of the {s} team skip the weekly schedule",
        ],
    ),
    Template(
        "test runner",
        REPOS,
        "The unit tests of the {s} repository are written for and run with {v}",
        "The {s} unit tests were ported and now run under {v}",
        "Which test runner do the {s} unit tests use?",
        ["jest", "vitest", "mocha", "ava", "tap"],
        [
            "The unit tests of the {s} repository must stay under two minutes",
            "The {o} repository measures unit test coverage on every build",
            "End-to-end tests of the {s} repository run nightly",
        ],
    ),
    Template(
        "base image",
        SERVICES,
        "Container images of the {s} service are built on the base image {v}",
        "We rebuilt the {s} containers so they start from {v} now",
        "Which base image do the {s} containers use?",
        ["debian", "alpine", "distroless", "ubuntu", "wolfi"],
        [
            "Container images of the {s} service are scanned for vulnerabilities",
            "The {o} service pushes its images to the internal registry",
            "Container images of the {s} service are tagged with the commit hash",
        ],
    ),
    Template(
        "python linter",
        REPOS,
        "Python code in the {s} repository is linted in CI by {v}",
        "The {s} repository replaced its Python linter, which is {v} now",
        "Which linter checks Python code in the {s} repository?",
        ["flake8", "pylint", "ruff", "pyflakes"],
        [
            "Python code in the {s} repository is formatted automatically",
            "The {o} repository fails CI on any lint warning",
            "Python imports in the {s} repository are sorted",
        ],
    ),
    Template(
        "cache",
        SERVICES,
        "Session data and hot lookups of the {s} service are cached in {v}",
        "The {s} service moved its cache for sessions and lookups to {v}",
        "Which cache does the {s} service use?",
        ["Redis", "Memcached", "Valkey", "Hazelcast", "DragonflyDB"],
        [
            "Session data of the {s} service expires after thirty minutes",
            "The {o} service warms its cache at start-up",
            "Cache hit rates of the {s} service are on its dashboard",
        ],
    ),
    Template(
        "message queue",
        SERVICES,
        "Background jobs and events of the {s} service are passed through {v}",
        "The {s} service now hands its background jobs and events to {v}",
        "Which message queue carries the background jobs of the {s} service?",
        ["RabbitMQ", "SQS", "Kafka", "NATS", "Pulsar"],
        [
            "Background jobs of the {s} service are retried five times",
            "The {o} service processes events in order per customer",
            "Dead letters of the {s} service are inspected every morning",
        ],
    ),
    Template(
        "log level",
        SERVICES,
        "In production the {s} service writes its application logs at the level {v}",
        "We turned the production log level of {s} to {v}",
        "What log level does the {s} service use in production?",
        ["DEBUG", "INFO", "WARNING", "ERROR"],
        [
            "Application logs of the {s} service are shipped to central storage",
            "The {o} service keeps its production logs for thirty days",
            "Logs of the {s} service never contain customer emails",
        ],
    ),
    Template(
        "on-call rotation",
        TEAMS,
        "Pages for the {s} team are handled this month by the on-call engineer {v}",
        "The {s} on-call rotation changed hands and {v} carries the pager now",
        "Who is on call for the {s} team?",
        ["Hana", "Ivo", "Jonas", "Kemal", "Lucia", "Mateo", "Nadia"],
        [
            "Pages for the {s} team escalate after fifteen minutes",
            "The {o} team hands over the on-call pager on Mondays",
            "The {s} team writes a postmortem after every page at night",
        ],
    ),
]


@dataclass
class Scenario:
    """One fact and its values over time, the newest current."""

    key: str
    path: str
    question: str
    values: list[str]
    ids: list[str] = field(default_factory=list)  # one belief per value, oldest first

    @property
    def current(self) -> str:
        return self.ids[-1]

    @property
    def stale(self) -> list[str]:
        return self.ids[:-1]


def build_scenarios(seed: int = SEED) -> tuple[list[Scenario], list[dict[str, object]]]:
    """The scenarios and every belief record (scenario beliefs and distractors)."""
    rng = random.Random(seed)
    scenarios: list[Scenario] = []
    records: list[dict[str, object]] = []
    n = 0
    for template in TEMPLATES:
        for index, subject in enumerate(template.subjects):
            path = PATHS[n % len(PATHS)]
            count = 3 if (n // 3) % 3 == 1 else 2  # a third value for a third of each path
            values = rng.sample(list(template.values), count)
            key = f"{template.name}/{subject}"
            scenario = Scenario(key, path, template.question.format(s=subject), values)
            other = template.subjects[(index + 1) % len(template.subjects)]
            for version, value in enumerate(values):
                text = template.fact if version == 0 or path == "dedup" else template.restated
                belief_id = f"u{n:03d}-{version}"
                scenario.ids.append(belief_id)
                records.append(
                    {
                        "kind": "belief",
                        "id": belief_id,
                        "content": text.format(s=subject, v=value, o=other),
                        "created_at": START + n * 60 + version * 30 * DAY,
                    }
                )
            for d, distractor in enumerate(template.distractors):
                records.append(
                    {
                        "kind": "belief",
                        "id": f"d{n:03d}-{d}",
                        "content": distractor.format(s=subject, o=other),
                        "created_at": START + n * 60 + rng.randrange(90) * DAY,
                    }
                )
            scenarios.append(scenario)
            n += 1
    return scenarios, records


def check_near_duplicates(scenarios: list[Scenario], records: list[dict[str, object]]) -> None:
    """Every dedup scenario's values must be near duplicates of each other, as dedup sees
    them; otherwise the scenario would not test what it says."""
    text = {str(r["id"]): str(r["content"]) for r in records}
    for scenario in scenarios:
        if scenario.path != "dedup":
            continue
        for older in scenario.stale:
            similarity = dedup.jaccard(
                dedup.shingles(text[older]), dedup.shingles(text[scenario.current])
            )
            if similarity < dedup.DEFAULT_THRESHOLD:
                raise SystemExit(f"{scenario.key}: J = {similarity:.2f}, not a near duplicate")


def apply_updates(memory: Memory, scenarios: list[Scenario]) -> dict[str, int]:
    """Write the updates as a user would: relate, resolve, then one dedup --apply."""
    for scenario in scenarios:
        for older, newer in zip(scenario.ids, scenario.ids[1:], strict=False):
            if scenario.path == "relate":
                memory.relate(newer, older, "SUPERSEDES")
            elif scenario.path == "resolve":
                memory.relate(newer, older, "CONTRADICTS")
                memory.resolve(newer, older)
    report = dedup.scan(memory)
    owner = {i: s.key for s in scenarios for i in s.ids}
    for cluster in report.clusters:  # a cluster across scenarios would be a bench bug
        keys = {owner.get(i, i) for i in cluster.member_ids}
        if len(keys) > 1:
            raise SystemExit(f"dedup grouped beliefs of different facts: {sorted(keys)}")
    applied = dedup.apply(memory, report)
    return {"dedup_clusters": len(report.clusters), "dedup_edges": len(applied.written)}


def term_index(records: Iterable[dict[str, object]]) -> sqlite3.Connection:
    """An FTS5 table of the records, tokenized as credo's index is (porter)."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, content, "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.executemany(
        "INSERT INTO t(id, content) VALUES (?, ?)", [(r["id"], r["content"]) for r in records]
    )
    return conn


def fts5_packs(
    records: list[dict[str, object]], questions: list[str], budget: int
) -> list[set[str]]:
    """The plain FTS5 baseline's pack for each question (the module docstring)."""
    conn = term_index(records)
    packs = []
    for question in questions:
        terms = query_terms(question)
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        rows = conn.execute(
            "SELECT id, content FROM t WHERE t MATCH ? ORDER BY bm25(t), id", (match,)
        ).fetchall()
        used, packed = 0, set()
        for belief_id, content in rows:
            cost = belief_tokens(belief_id, content, False)
            if used + cost > budget:
                break
            used += cost
            packed.add(belief_id)
        packs.append(packed)
    conn.close()
    return packs


def score(scenarios: list[Scenario], packs: list[set[str]]) -> dict[str, object]:
    """Share of questions with the current belief packed, and with a stale one packed;
    overall and per update path."""
    rows: dict[str, object] = {}
    for name, members in [("all", scenarios)] + [
        (p, [s for s in scenarios if s.path == p]) for p in PATHS
    ]:
        chosen = [(s, packs[scenarios.index(s)]) for s in members]
        rows[name] = {
            "n": len(chosen),
            "current": round(sum(s.current in p for s, p in chosen) / len(chosen), 4),
            "stale": round(sum(any(x in p for x in s.stale) for s, p in chosen) / len(chosen), 4),
        }
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    scenarios, records = build_scenarios()
    check_near_duplicates(scenarios, records)
    questions = [s.question for s in scenarios]
    results: dict[str, object] = {}
    missed: dict[str, list[str]] = {}  # credo's questions without the current belief
    with (
        tempfile.TemporaryDirectory() as folder,
        Memory(Path(folder) / "updates.db", root=Path(folder)) as memory,
    ):
        memory.import_records(records)
        updates = apply_updates(memory, scenarios)
        started = time.perf_counter()
        for budget in budgets:
            credo = [set(memory.retrieve(q, token_budget=budget).ids) for q in questions]
            history = [
                set(memory.retrieve(q, token_budget=budget, include_superseded=True).ids)
                for q in questions
            ]
            plain = fts5_packs(records, questions, budget)
            results[str(budget)] = {
                "credo": score(scenarios, credo),
                "credo --history": score(scenarios, history),
                "FTS5": score(scenarios, plain),
            }
            missed[str(budget)] = [
                s.key for s, p in zip(scenarios, credo, strict=True) if s.current not in p
            ]
        seconds = time.perf_counter() - started
    paths = {p: sum(s.path == p for s in scenarios) for p in PATHS}
    thirds = sum(len(s.ids) == 3 for s in scenarios)
    print(
        f"{len(scenarios)} scenarios ({', '.join(f'{n} by {p}' for p, n in paths.items())}; "
        f"{thirds} with a third value), {len(records)} beliefs in one store; "
        f"dedup --apply: {updates['dedup_clusters']} clusters, {updates['dedup_edges']} edges"
    )
    print(f"{'budget':>6}  {'system':<16} {'current':>8} {'stale':>7}   per path: current / stale")
    for budget, systems in results.items():
        for system, rows in systems.items():  # type: ignore[union-attr]
            overall = rows["all"]
            per_path = "  ".join(
                f"{p} {rows[p]['current']:.2f}/{rows[p]['stale']:.2f}" for p in PATHS
            )
            print(
                f"{budget:>6}  {system:<16} {overall['current']:>8.3f} {overall['stale']:>7.3f}"
                f"   {per_path}"
            )
    for budget, keys in missed.items():
        print(f"credo without the current value at {budget}: {', '.join(keys) or 'none'}")
    print(f"({seconds:.1f} s for the queries)")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "scenarios": len(scenarios),
                    "paths": paths,
                    "third_values": thirds,
                    "beliefs": len(records),
                    "updates": updates,
                    "budgets": results,
                    "credo_missed": missed,
                    "scenario_list": [
                        {"key": s.key, "path": s.path, "question": s.question, "ids": s.ids}
                        for s in scenarios
                    ],
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
