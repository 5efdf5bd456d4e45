"""Capture: what the user states or corrects becomes a belief (issue #16; docs/AGENT.md §
Capture).

The classifier (``credo.knowledge.capture.extract_statements``) finds the statements of a
prompt: rules, preferences and corrections, deterministically. Here each becomes a belief:

- Its text is redacted (``credo.knowledge.redact``) before anything is stored.
- ``Memory.remember`` stores it: a correction as kind ``correction``, origin
  ``user_corrected``; a preference as ``preference``/``user_stated``; a rule as
  ``requirement``/``user_stated``; ``session`` the Claude Code session id. With a
  transcript it is anchored there: doc_uri the transcript path (normalised as every
  document is: repo-relative inside the project, else ``file:///``), anchor type
  ``manual``, position hint ``turn N``. A ``captures`` row records the capture.
- With ``[hook] auto_lock_corrections`` a captured correction is locked at once.
- What it replaces follows ``credo.knowledge.replace``: one clear match is SUPERSEDED
  (through ``knowledge.supersession``'s checks: a capture never retires a lock and never
  closes a cycle; either becomes CONTRADICTS), an unclear correction CONTRADICTS what it
  disputes (at most 3).

Counting. A statement counts once per session: captured again in the same session (the
same prompt seen at UserPromptSubmit and again in the transcript at Stop, or repeated) it
is a no-op; in a later session it corroborates the belief (``remember``'s rule). The
``captures`` row (keyed by belief) keeps the first capture: the later session corroborates
and adds no row, so each session lists what was new in it. A belief remembered by hand
and then captured gets its row at its first capture.

Cost. No statement: nothing is read or written (the classifier's cost only). Otherwise one
keyword query (``Store.capture_candidates``) and one transaction for everything a prompt
(or a transcript) yields: a failure anywhere leaves nothing written.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from credo.errors import ConflictError, InvalidInputError
from credo.knowledge.capture import Statement, extract_statements

if TYPE_CHECKING:
    from credo.knowledge.replace import Candidate, Verdict
    from credo.knowledge.transcript import Turn
    from credo.memory import Memory
    from credo.store.rows import CaptureCandidate, CaptureRecord
    from credo.types import Belief

# statement kind -> (belief kind, origin): DESIGN of issue #16.
KINDS: dict[str, tuple[str, str]] = {
    "correction": ("correction", "user_corrected"),
    "preference": ("preference", "user_stated"),
    "rule": ("requirement", "user_stated"),
}
# Candidates read per statement (the newest that share two terms with it): enough to see
# a clear match among distractors sharing words; the read stays under a millisecond.
CANDIDATES_PER_STATEMENT = 30


@dataclass(frozen=True, slots=True)
class Captured:
    """A belief captured from the user's words, as stored.

    ``kind`` is the statement's kind (correction, preference, rule); ``transcript`` and
    ``turn`` say where it was said (the anchor); ``listed_at`` when the Stop hook showed
    it to the user; ``supersedes`` and ``contradicts`` the beliefs it replaced or
    disputes (edges out of it)."""

    belief_id: str
    text: str
    kind: str
    session: str | None
    at: float
    locked: bool
    transcript: str | None
    turn: int | None
    listed_at: float | None
    supersedes: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()

    @property
    def anchor(self) -> str | None:
        """Where it was said: ``<transcript> turn N``, or None without a transcript."""
        if self.transcript is None:
            return None
        return self.transcript + (f" turn {self.turn}" if self.turn is not None else "")


def capture_prompt(
    memory: Memory,
    prompt: str,
    *,
    session: str | None,
    transcript: str | None,
    turn: int | None,
) -> list[Captured]:
    """Capture the statements of one prompt (UserPromptSubmit).

    Returns the beliefs this call created or corroborated (a re-capture in the same
    session returns nothing: it changed nothing).

    Raises:
        InvalidInputError: a prompt that is not a string, a session or transcript that is
            not a non-empty string or None, a turn that is not a positive integer or None.
    """
    if not isinstance(prompt, str):
        raise InvalidInputError(f"prompt must be a string, got {type(prompt).__name__}")
    _check(session=session, transcript=transcript, turn=turn)
    statements = extract_statements(prompt) or _takes_back(memory, prompt)
    if not statements:
        return []
    return _capture(memory, [(turn, s) for s in statements], session, transcript)


def capture_transcript(memory: Memory, transcript: str, *, session: str | None) -> list[Captured]:
    """Capture the statements of every user turn of a Claude Code transcript (Stop), in
    one transaction, each anchored to its turn. A missing or unreadable transcript
    captures nothing (``credo.knowledge.transcript`` reads what it safely can).

    Raises:
        InvalidInputError: ``transcript`` is not a non-empty string, or ``session`` is
            not a non-empty string or None.
    """
    if transcript is None:
        raise InvalidInputError("transcript must be the path of a Claude Code .jsonl transcript")
    _check(session=session, transcript=transcript, turn=None)
    from credo.knowledge.transcript import user_turns

    return capture_turns(memory, user_turns(transcript), transcript=transcript, session=session)


def capture_turns(
    memory: Memory, turns: Sequence[Turn], *, transcript: str, session: str | None
) -> list[Captured]:
    """Capture the statements of ``turns`` (read from ``transcript``), in one transaction,
    each anchored to its turn. Stop passes the last few: the prompt hook captured the
    earlier ones, and a long session's transcript would cost the classifier seconds."""
    _check(session=session, transcript=transcript, turn=None)
    found = [
        (t.number, s)
        for t in turns
        for s in extract_statements(t.text) or _takes_back(memory, t.text)
    ]
    if not found:
        return []
    return _capture(memory, found, session, transcript)


def captures(
    memory: Memory, *, session: str | None = None, unlisted: bool = False
) -> list[Captured]:
    """The captured beliefs that are not forgotten, oldest first: of ``session`` (the
    session of their first capture) or of all; with ``unlisted``, only those the user has
    not been shown yet."""
    _check(session=session, transcript=None, turn=None)
    records = memory.store.capture_records(session=session, unlisted=unlisted)
    return _described(memory, records)


def mark_listed(memory: Memory, belief_ids: Sequence[str]) -> None:
    """Record that these captures were shown to the user (the first time counts; ids that
    name no capture are ignored: the Stop hook passes what it listed)."""
    ids = [] if isinstance(belief_ids, str) else list(belief_ids)
    if isinstance(belief_ids, str) or not all(isinstance(i, str) for i in ids):
        raise InvalidInputError("belief_ids must be a sequence of belief id strings")
    if not ids:
        return
    with memory.store.transaction(), memory.store.write_errors():
        memory.store.set_listed(ids, time.time())


def lock_captured(memory: Memory, *, session: str | None = None) -> list[str]:
    """Lock every captured belief that is not locked yet (of ``session``, or all), in one
    transaction; returns their ids, oldest capture first (empty: nothing to lock). One a
    live belief supersedes is history, not ground truth: it stays unlocked (probe90:
    "staging runs logrus at debug level", corrected two days later, was locked too). So
    does one a live belief told after it CONTRADICTS: the user's later word disputes it
    (probe92: "we use VerboseError", then "we don't use VerboseError anymore", locked side
    by side); the later one, locked, outranks it until `credo resolve` settles the pair."""
    _check(session=session, transcript=None, turn=None)
    now = time.time()
    locked: list[str] = []
    store = memory.store
    with store.transaction(), store.write_errors():
        records = store.capture_records(session=session)
        beliefs = store.get_beliefs(r.belief_id for r in records)
        replaced = _held_back(memory, beliefs)
        for record in records:
            belief = beliefs.get(record.belief_id)
            if belief is None or belief.locked or belief.deleted_at is not None:
                continue
            if belief.id in replaced:
                continue
            store.set_locked(belief.id, True, now)
            locked.append(belief.id)
        store.append_log([(now, "lock", bid, memory.source, {"captured": True}) for bid in locked])
    return locked


# -- internals -------------------------------------------------------------------------------
def _held_back(memory: Memory, beliefs: Mapping[str, Belief]) -> set[str]:
    """Those of ``beliefs`` a live belief SUPERSEDES, or a current belief created after it
    CONTRADICTS (a tie in time holds nothing back; a disputer a live belief supersedes is
    history and disputes nothing, as ``credo conflicts`` counts it)."""
    from credo.edge_types import EdgeType

    store = memory.store
    edges = [
        e
        for e in (store.edges_touching(list(beliefs)) if beliefs else [])
        if e.dst in beliefs and e.type in (EdgeType.SUPERSEDES, EdgeType.CONTRADICTS)
    ]
    sources = store.get_beliefs({e.src for e in edges}) if edges else {}
    live = {i for i, b in sources.items() if b.deleted_at is None}
    disputers = {e.src for e in edges if e.type is EdgeType.CONTRADICTS and e.src in live}
    history: set[str] = set()  # disputers a live belief supersedes
    if disputers:
        replacing = [
            e
            for e in store.edges_touching(list(disputers))
            if e.type is EdgeType.SUPERSEDES and e.dst in disputers
        ]
        newer = store.get_beliefs({e.src for e in replacing}) if replacing else {}
        history = {e.dst for e in replacing if (b := newer.get(e.src)) and b.deleted_at is None}
    return {
        e.dst
        for e in edges
        if e.src in live
        and (
            e.type is EdgeType.SUPERSEDES
            or (e.src not in history and sources[e.src].created_at > beliefs[e.dst].created_at)
        )
    }


def _check(*, session: object, transcript: object, turn: object) -> None:
    for name, value in (("session", session), ("transcript", transcript)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise InvalidInputError(f"{name} must be a non-empty string or None, got {value!r}")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int) or turn < 1):
        raise InvalidInputError(f"turn must be a positive integer or None, got {turn!r}")


def _takes_back(memory: Memory, prompt: str) -> list[Statement]:
    """The terse taking back of a decision ``prompt`` holds ("scratch that, keep X":
    ``credo.knowledge.keep_back``), when a stored change left X (``replace``'s rule 6):
    else the prompt repairs itself, and nothing is kept. One read, only for that form."""
    from credo.knowledge import replace
    from credo.knowledge.keep_back import kept_back

    statement = kept_back(prompt)
    if statement is None:
        return []
    candidates = statement_candidates(memory, statement)
    return [statement] if replace.judge(statement, candidates).rule == "back" else []


def _capture(
    memory: Memory,
    found: list[tuple[int | None, Statement]],
    session: str | None,
    transcript: str | None,
) -> list[Captured]:
    """Write ``found`` ((turn, statement) pairs) in one transaction (module docstring)."""
    from credo.knowledge import identity, replace
    from credo.knowledge.docuri import normalise_doc_uri
    from credo.knowledge.linker import record_link
    from credo.store.rows import CaptureRecord

    uri = normalise_doc_uri(transcript, root=memory.root).uri if transcript else None
    auto_lock = memory.settings.hook.auto_lock_corrections
    store = memory.store
    prepared = [(turn, st, text) for turn, st in found if (text := _clean(st.text)) is not None]
    # One term group per prompt (its statements' words pooled, as judge_prompt may pool
    # them): a candidate holds two words of one prompt.
    groups: dict[int | None, dict[str, None]] = {}
    for turn, statement, _ in prepared:
        groups.setdefault(turn, {}).update(dict.fromkeys(replace.search_terms(statement)))
    said: dict[int | None, list[Statement]] = {}
    for turn, statement, _ in prepared:
        said.setdefault(turn, []).append(statement)
    named = [g for statements in said.values() for g in replace.prompt_named_groups(statements)]
    written: list[str] = []
    now = time.time()
    limit = CANDIDATES_PER_STATEMENT * len(prepared)
    with store.transaction(), store.write_errors():
        pool = candidate_pool(memory, [list(g) for g in groups.values()], named, limit)
        stored: list[tuple[int | None, Statement, str, bool]] = []  # ..., id, written
        texts: dict[str, str] = {}  # what the batch wrote: its text, whether it was locked
        locks: dict[str, bool] = {}
        for turn, statement, text in prepared:
            existing = store.find_by_hash(identity.content_hash(text))
            if existing is not None and existing.deleted_at is not None:
                existing = None  # forgotten: remember revives and corroborates it
            seen = existing is not None and store.seen_in_session(existing.id, session)
            if existing is not None and seen and store.get_capture(existing.id) is not None:
                stored.append((turn, statement, existing.id, False))  # a no-op: context only
                continue
            kind, origin = KINDS[statement.kind]
            lock = auto_lock and statement.kind == "correction"
            if existing is not None and seen:
                belief_id = existing.id  # remembered by hand in this session: no new count
            else:
                belief_id = memory.remember(  # (judged below, with the prompt's others)
                    text, kind=kind, origin=origin, session=session, lock=lock, replace=False
                )
            if uri is not None:
                hint = f"turn {turn}" if turn is not None else None
                record_link(store, belief_id, uri, "manual", hint, now, source=memory.source)
            record = CaptureRecord(belief_id, session, now, statement.kind, uri, turn, None)
            if store.insert_capture(record):
                payload = {"session": session, "turn": turn, "kind": statement.kind}
                store.append_log([(now, "capture", belief_id, memory.source, payload)])
            stored.append((turn, statement, belief_id, True))
            written.append(belief_id)
            texts[belief_id] = text
            locks[belief_id] = lock or (existing is not None and existing.locked)
        retired: set[str] = set()
        # What the batch's earlier turns wrote is a candidate for its later ones, as it is
        # when each turn is captured alone (Stop catching up on several turns, probe92).
        pooled = {c.id for c in pool}
        earlier: list[Candidate] = []
        for turn in dict.fromkeys(item[0] for item in stored):
            prompt = [item for item in stored if item[0] == turn]
            if not any(item[3] for item in prompt):
                continue  # nothing new in this prompt: its edges were written before
            own = {item[2] for item in prompt}
            candidates = [
                replace.Candidate(c.id, c.content, c.locked, c.score)
                for c in [*pool, *earlier]
                if c.id not in own and c.id not in retired
            ]
            earlier += [
                replace.Candidate(item[2], texts[item[2]], locks[item[2]])
                for item in prompt
                if item[3] and item[2] not in pooled
            ]
            pooled |= own
            verdicts = replace.judge_prompt([item[1] for item in prompt], candidates)
            for (_, _, belief_id, new), verdict in zip(prompt, verdicts, strict=True):
                if new:
                    retired |= write_verdict(memory, belief_id, verdict)
            _link_said_together(memory, [item[2] for item in prompt])
    records = [store.get_capture(b) for b in dict.fromkeys(written)]
    return _described(memory, [r for r in records if r is not None])


def _clean(text: str) -> str | None:
    """The statement's text, redacted, as a belief stores it; None when it cannot be one
    (empty after redaction, too long): such a statement is skipped, not an error that
    would lose the prompt's other statements."""
    from credo.knowledge import identity
    from credo.knowledge.redact import redact  # the one redaction hook: before any write

    try:
        return identity.clean_content(redact(text))
    except InvalidInputError:
        return None


def candidate_pool(
    memory: Memory, groups: list[list[str]], named: list[list[str]], limit: int
) -> list[CaptureCandidate]:
    """The beliefs a statement may replace (``Store.capture_candidates``): those holding two
    words of one of ``groups``, then rule 5's look-up by the old values' words (``named``,
    ``knowledge.replace.named_groups``) in a query of its own, so its one-word matches never
    crowd out the first query's; each belief once, first found first."""
    store = memory.store
    pool = store.capture_candidates([g for g in groups if len(set(g)) > 1], limit=limit)
    if named:
        seen = {c.id for c in pool}
        pool += [c for c in store.capture_candidates(named, limit=limit) if c.id not in seen]
    return pool


def statement_candidates(
    memory: Memory, statement: Statement, *, extra: int = 0, besides: str | None = None
) -> list[Candidate]:
    """What one statement may replace, as ``knowledge.replace.judge`` reads it: its pool
    (``candidate_pool``: its words, its old values' words), ``extra`` more read and the
    belief ``besides`` (the statement's own, once stored) left out."""
    from credo.knowledge import replace

    groups = [replace.search_terms(statement)]
    limit = CANDIDATES_PER_STATEMENT + extra
    pool = candidate_pool(memory, groups, replace.named_groups(statement), limit)
    return [replace.Candidate(c.id, c.content, c.locked, c.score) for c in pool if c.id != besides]


def write_verdict(memory: Memory, belief_id: str, verdict: Verdict) -> set[str]:
    """Write a verdict of ``knowledge.replace`` for one captured (or remembered correction's,
    ``agent.correction``) belief; returns the ids it superseded. Edges already there (either
    way) are left as they are."""
    from credo.edge_types import EdgeType
    from credo.knowledge.supersession import check_supersedes

    store = memory.store
    contradicts = list(verdict.contradicts)
    retired: set[str] = set()
    if verdict.supersedes is not None:
        old = verdict.supersedes
        try:
            new_belief, old_belief = store.require_belief(belief_id), store.require_belief(old)
            check_supersedes(store, new_belief, old_belief, force=False, verb="capture")
        except (ConflictError, InvalidInputError):
            contradicts.insert(0, old)  # a lock or a cycle: disagree, never retire
        else:
            if store.get_edge(belief_id, old, EdgeType.SUPERSEDES) is None:
                memory.relate(belief_id, old, EdgeType.SUPERSEDES)
            retired.add(old)
    for other in contradicts:
        if (
            store.get_edge(belief_id, other, EdgeType.CONTRADICTS) is None
            and store.get_edge(other, belief_id, EdgeType.CONTRADICTS) is None
        ):
            memory.relate(belief_id, other, EdgeType.CONTRADICTS)
    return retired


def _link_said_together(memory: Memory, belief_ids: list[str]) -> None:
    """Statements of one prompt ("No, we never use npm here. Always use pnpm.") say one
    thing together: each SUPPORTS the one before it, so a search that finds one brings the
    other (the graph lanes, and one cluster in the pack). Edges already there either way
    are left alone."""
    from credo.edge_types import EdgeType

    store = memory.store
    ordered = list(dict.fromkeys(belief_ids))
    for later, earlier in zip(ordered[1:], ordered, strict=False):
        if any({e.src, e.dst} == {later, earlier} for e in store.edges_touching([later])):
            continue
        memory.relate(later, earlier, EdgeType.SUPPORTS)


def _described(memory: Memory, records: list[CaptureRecord]) -> list[Captured]:
    """``Captured`` views of ``records``: two queries (beliefs, edges), whatever their
    number."""
    from credo.edge_types import EdgeType

    store = memory.store
    ids = [r.belief_id for r in records]
    beliefs = store.get_beliefs(ids)
    out: dict[str, tuple[list[str], list[str]]] = {i: ([], []) for i in ids}
    for edge in store.edges_touching(ids) if ids else []:
        if edge.src in out and edge.type is EdgeType.SUPERSEDES:
            out[edge.src][0].append(edge.dst)
        elif edge.src in out and edge.type is EdgeType.CONTRADICTS:
            out[edge.src][1].append(edge.dst)
    found: list[Captured] = []
    for record in records:
        belief = beliefs.get(record.belief_id)
        if belief is None:
            continue
        supersedes, contradicts = out[record.belief_id]
        found.append(
            Captured(
                belief_id=belief.id,
                text=belief.content,
                kind=record.kind,
                session=record.session,
                at=record.at,
                locked=belief.locked,
                transcript=record.transcript,
                turn=record.turn,
                listed_at=record.listed_at,
                supersedes=tuple(supersedes),
                contradicts=tuple(contradicts),
            )
        )
    return found
