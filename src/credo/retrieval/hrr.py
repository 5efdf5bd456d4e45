"""Holographic reduced representations (HRR) for the structural lane.

The lane answers structural queries ("what CITES X", "X SUPPORTS ?") from one vector per
belief, its *trace*, following Plate (1995), "Holographic Reduced Representations", IEEE
Trans. Neural Networks 6(3):623-641.

Formulas (Plate 1995):
    bind   c = a ⊛ b,   c_j = Σ_k a_k b_(j-k mod n)     circular convolution
    unbind y ≈ r # c,   y_j = Σ_k r_k c_(k+j mod n)     circular correlation, = r* ⊛ c
                         with the involution r*_i = r_(-i mod n)
Both run through the FFT in O(n log n): ⊛ is a product of spectra, # multiplies by the
conjugate spectrum. Plain-loop references (`bind_reference`, `unbind_reference`) sit
beside the FFT versions so the tests can check them.

Trace of belief X (roles are per edge type and direction, "CITES>" out, "CITES<" in):
    trace(X) = Σ_{X -t-> Y} role(t, out) ⊛ vec(Y)  +  Σ_{Z -t-> X} role(t, in) ⊛ vec(Z)
Adding or removing an edge adds or subtracts one bound term to each endpoint's trace; the
trace is never rebuilt. Traces are kept un-normalised as fixed-point int32 (scale 2^20):
integer sums are associative, so a trace reached by any order of additions and removals
is bit-identical to a fresh build from the same edges, a removal is the exact inverse of
an addition, and the persisted BLOB is byte-stable. The quantum (1e-6) is five orders
below the cross-talk noise (1/sqrt(n) ~ 0.03).

Roles are *unitary* vectors (every Fourier coefficient has modulus 1). Plate (1995)
notes that the involution of a unitary vector is its exact inverse, so r # (r ⊛ y) = y with no
decoding noise. With Gaussian roles the decoded term of a single bound pair has cosine
~0.7 with y (bench: "single-term recovery"); with unitary roles it is 1.0, and the only
noise left is cross-talk from the other terms of the trace.

Capacity analysis (after Plate 1995). Let the anchor's trace hold k bound
terms and let the cleanup memory hold N unit item vectors of dimension n. Unbinding with
the role of a true answer y gives u = y + Σ_{k-1} w_i, each w_i a unit-norm vector
uncorrelated with every item, so |u| ~ sqrt(k) and
    cos(y, u)  ~ (1 + N(0, (k-1)/n)) / sqrt(k)        a true answer: ~ 1/sqrt(k)
    cos(z, u)  ~ N(0, 1/n)                            any other item: noise ~ 1/sqrt(n)
The noise does not depend on k, so a similarity floor fixes the false-positive rate: with
a budget of alpha false positives per query over N items the floor is
    floor(n, N) = Φ⁻¹(1 - alpha/N) / sqrt(n)                         (`noise_floor`)
A true answer passes while 1/sqrt(k) clears the floor by a few of its own standard
deviations sqrt((k-1)/n)/sqrt(k), i.e. while k stays well under n / z². Plate (1995)
derives the same scaling: n grows linearly with k and with log N.

Defaults, from bench/hrr_probe.py (random typed graphs, 2,000 beliefs unless stated;
"agreement" = share of probes whose answer set above the floor equals the exact set):
- alpha = 0.001 (`DEFAULT_FALSE_POSITIVE_RATE`): z = 4.9 at N = 2,000, 5.6 at N = 100k.
  At n = 1024 and 4 edges/node, alpha 0.1 / 0.01 / 0.001 gives a measured rate of empty
  probes returning noise of 7.2% / 1.0% / 0.0% and agreement 0.90 / 0.99 / 1.00, with
  recall 1.00 throughout; 0.001 costs recall only near capacity.
- n = 1024 (`DEFAULT_DIM`): anchors with exactly k edges reach agreement 1.00 (k = 10),
  0.975 (k = 20), 0.61 (k = 30) at N = 2,000; with N = 100k items the floor rises from
  0.153 to 0.175 and 20-edge anchors agree on 0.88 of probes (recall 0.945). Whole
  graphs at 2 / 4 / 8 / 16 edges per node (traces of ~4 / 8 / 16 / 32 terms) agree on
  1.00 / 1.00 / 0.97 / 0.60; n = 512 gives 1.00 / 0.985 / 0.64 / 0.11 and n = 256
  0.94 / 0.68 / 0.14 / 0.01. Precision stays >= 0.99 everywhere: the floor fails by
  missing answers of crowded traces, never by inventing them.
- Memory, 100k beliefs: each of the two matrices (int32 traces, float32 item vectors)
  costs 100k * n * 4 bytes: 102 MB at n = 256, 205 MB at 512, 410 MB at 1024; a trace
  BLOB is 4n bytes. A query is one mat-vec over the item matrix, memory-bound: p50 ~5 ms
  at 10k items and ~35 ms at 100k (n = 1024, 2 cores). Halving n halves memory, BLOB
  size and latency, and halves the edges per belief that decode cleanly (k_max ∝ n).
  A query needs only the anchor's trace and the item matrix, so a store may keep the
  traces in SQLite and read one BLOB per query instead of holding the trace matrix.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from credo.edge_types import EdgeType
from credo.errors import InvalidInputError

Direction = Literal["out", "in"]
FloatVec = npt.NDArray[np.float64]
IntVec = npt.NDArray[np.int64]

#: Default vector dimension; see the capacity analysis in the module docstring.
DEFAULT_DIM: Final = 1024
#: Default number of answers a query returns at most.
DEFAULT_K: Final = 20
#: Expected false positives per query that the default floor allows (alpha above).
DEFAULT_FALSE_POSITIVE_RATE: Final = 0.001
#: Fixed-point scale of stored traces: value = int32 / FIXED_POINT_SCALE.
FIXED_POINT_SCALE: Final = 2**20
#: Version of the vector scheme (hash input, layout). Persisted traces are only valid
#: for the same version and dimension; bump it and re-derive traces if the scheme changes.
HRR_FORMAT: Final = "credo-hrr/1"

_DIRECTION_MARK: Final[dict[str, str]] = {"out": ">", "in": "<"}
_INT32_MAX: Final = np.iinfo(np.int32).max
_MIN_DIM: Final = 16


# --------------------------------------------------------------------------- vectors


def _check_dim(dim: int) -> None:
    # Even so the real FFT has a Nyquist bin, which unitary roles need to be real.
    if dim < _MIN_DIM or dim % 2:
        raise InvalidInputError(f"HRR dimension must be an even integer >= {_MIN_DIM}, got {dim}")


def _uniforms(label: str, count: int) -> FloatVec:
    """`count` uniforms in (0, 1] derived from `label` alone.

    SHAKE-256 (FIPS 202) is an extendable-output hash: one call yields as many bytes as
    needed, stable across Python, NumPy and platform versions. NumPy's Generator streams
    are not promised stable across releases, and persisted traces depend on these bits.
    """
    raw = hashlib.shake_256(label.encode("utf-8")).digest(8 * count)
    ints = np.frombuffer(raw, dtype="<u8")
    # Top 53 bits -> a double in [0, 1); + 1 keeps log() in Box-Muller finite.
    return ((ints >> np.uint64(11)).astype(np.float64) + 1.0) * 2.0**-53


def symbol_vector(name: str, dim: int) -> FloatVec:
    """Deterministic unit-norm random vector for `name` (an item: a belief id).

    Elements are i.i.d. N(0, 1/n) as Plate (1995) assumes, made by Box-Muller from
    hash bits, then scaled to unit norm so a cosine is a plain dot product.
    """
    _check_dim(dim)
    u = _uniforms(f"{HRR_FORMAT}\x00item\x00{dim}\x00{name}", dim)
    half = dim // 2
    radius = np.sqrt(-2.0 * np.log(u[:half]))
    angle = 2.0 * np.pi * u[half:]
    vec = np.concatenate([radius * np.cos(angle), radius * np.sin(angle)])
    return vec / np.linalg.norm(vec)


def role_name(edge_type: EdgeType | str, direction: Direction) -> str:
    """Name of a role: the edge type plus ">" (outgoing) or "<" (incoming), e.g. "CITES>"."""
    return f"{as_edge_type(edge_type).value}{_DIRECTION_MARK[_check_direction(direction)]}"


@functools.lru_cache(maxsize=256)
def _role_cached(name: str, dim: int) -> FloatVec:
    u = _uniforms(f"{HRR_FORMAT}\x00role\x00{dim}\x00{name}", dim // 2 + 1)
    spectrum = np.exp(2j * np.pi * u)
    # DC and Nyquist bins of a real signal are real: modulus 1 leaves only the sign.
    spectrum[0] = 1.0 if u[0] < 0.5 else -1.0
    spectrum[-1] = 1.0 if u[-1] < 0.5 else -1.0
    vec = np.fft.irfft(spectrum, n=dim)
    vec.setflags(write=False)  # shared by the cache: nobody may mutate it
    return vec


def role_vector(edge_type: EdgeType | str, direction: Direction, dim: int) -> FloatVec:
    """Unitary role vector for an edge type and direction (Plate 1995).

    Every Fourier coefficient has modulus 1, so the vector has unit norm and its
    involution is its exact inverse: unbinding recovers a bound item without noise.
    """
    _check_dim(dim)
    return _role_cached(role_name(edge_type, direction), dim)


@functools.lru_cache(maxsize=64)
def _role_spectra(edge_type: EdgeType, dim: int) -> npt.NDArray[np.complex128]:
    """Spectra of the out and in roles of `edge_type`, stacked (2, dim // 2 + 1)."""
    spectra = np.fft.rfft(
        np.stack([role_vector(edge_type, "out", dim), role_vector(edge_type, "in", dim)]), axis=1
    )
    spectra.setflags(write=False)
    return spectra


# --------------------------------------------------------------------------- algebra


def _same_length(a: FloatVec, b: FloatVec) -> int:
    if a.shape[-1] != b.shape[-1]:
        raise InvalidInputError(f"HRR vectors differ in length: {a.shape[-1]} != {b.shape[-1]}")
    return int(a.shape[-1])


def bind(a: FloatVec, b: FloatVec) -> FloatVec:
    """Circular convolution a ⊛ b through the FFT (Plate 1995)."""
    n = _same_length(a, b)
    return np.fft.irfft(np.fft.rfft(a) * np.fft.rfft(b), n=n)


def unbind(trace: FloatVec, role: FloatVec) -> FloatVec:
    """Circular correlation role # trace = role* ⊛ trace (Plate 1995).

    Exact inverse of `bind(role, .)` when `role` is unitary; an approximate one otherwise.
    """
    n = _same_length(trace, role)
    return np.fft.irfft(np.fft.rfft(trace) * np.conj(np.fft.rfft(role)), n=n)


def involution(a: FloatVec) -> FloatVec:
    """Approximate inverse a*_i = a_(-i mod n) (Plate 1995)."""
    return np.roll(a[::-1], 1)


def bind_reference(a: FloatVec, b: FloatVec) -> FloatVec:
    """O(n²) loop version of `bind`, c_j = Σ_k a_k b_(j-k mod n), kept as the test oracle."""
    n = _same_length(a, b)
    out = np.zeros(n)
    for j in range(n):
        out[j] = sum(float(a[k]) * float(b[(j - k) % n]) for k in range(n))
    return out


def unbind_reference(trace: FloatVec, role: FloatVec) -> FloatVec:
    """O(n²) loop version of `unbind`, y_j = Σ_k r_k c_(k+j mod n), kept as the test oracle."""
    n = _same_length(trace, role)
    out = np.zeros(n)
    for j in range(n):
        out[j] = sum(float(role[k]) * float(trace[(k + j) % n]) for k in range(n))
    return out


def noise_floor(
    dim: int, n_items: int, false_positive_rate: float = DEFAULT_FALSE_POSITIVE_RATE
) -> float:
    """Cosine floor that lets through `false_positive_rate` noise items per query on average.

    A non-answer's cosine with the decoded vector is ~ N(0, 1/dim) (module docstring), so
    over `n_items` candidates the floor is Φ⁻¹(1 - rate / n_items) / sqrt(dim).
    """
    if not 0.0 < false_positive_rate < 1.0:
        raise InvalidInputError(f"false_positive_rate must be in (0, 1), got {false_positive_rate}")
    tail = false_positive_rate / max(n_items, 1)
    return NormalDist().inv_cdf(1.0 - tail) / math.sqrt(dim)


# --------------------------------------------------------------------------- index


def as_edge_type(edge_type: EdgeType | str) -> EdgeType:
    """The `EdgeType` named by `edge_type` (an enum member or its name, any case)."""
    if isinstance(edge_type, EdgeType):
        return edge_type
    try:
        return EdgeType(str(edge_type).upper())
    except ValueError:
        names = ", ".join(t.value for t in EdgeType)
        raise InvalidInputError(f"unknown edge type {edge_type!r}; use one of {names}") from None


def _check_direction(direction: str) -> Direction:
    if direction == "out":
        return "out"
    if direction == "in":
        return "in"
    raise InvalidInputError(f"direction must be 'out' or 'in', got {direction!r}")


class HrrIndex:
    """In-memory HRR traces of beliefs plus the cleanup memory of their item vectors.

    Row i holds belief ``ids()[i]``: its trace (int32 fixed point, un-normalised) and its
    item vector (float32, unit norm). An id joins the index when it first appears in an
    edge or a loaded trace; only such ids can be answers, so only they are in the cleanup
    memory. The index does not remember edges: the store is the source of truth and must
    call `remove_edge` only for an edge it had added.
    """

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        _check_dim(dim)
        self._dim = dim
        self._rows: dict[str, int] = {}
        self._ids: list[str] = []
        self._traces = np.zeros((0, dim), dtype=np.int32)
        self._items = np.zeros((0, dim), dtype=np.float32)

    @property
    def dim(self) -> int:
        """Vector dimension n."""
        return self._dim

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, belief_id: object) -> bool:
        return belief_id in self._rows

    def ids(self) -> list[str]:
        """Ids in row order (a copy)."""
        return list(self._ids)

    def add_item(self, belief_id: str) -> int:
        """Register `belief_id` in the cleanup memory (idempotent); return its row."""
        row = self._rows.get(belief_id)
        if row is not None:
            return row
        row = len(self._ids)
        if row == self._traces.shape[0]:
            self._grow()
        self._items[row] = symbol_vector(belief_id, self._dim)
        self._traces[row] = 0
        self._rows[belief_id] = row
        self._ids.append(belief_id)
        return row

    def _grow(self) -> None:
        # Doubling keeps the amortised cost of a new row O(dim).
        capacity = max(16, 2 * self._traces.shape[0])
        traces = np.zeros((capacity, self._dim), dtype=np.int32)
        items = np.zeros((capacity, self._dim), dtype=np.float32)
        traces[: len(self._ids)] = self._traces[: len(self._ids)]
        items[: len(self._ids)] = self._items[: len(self._ids)]
        self._traces, self._items = traces, items

    def item_vector(self, belief_id: str) -> FloatVec:
        """The cleanup-memory vector of `belief_id` (float32 values, returned as float64)."""
        return self._items[self._row(belief_id)].astype(np.float64)

    def trace(self, belief_id: str) -> FloatVec:
        """The un-normalised trace of `belief_id` as floats."""
        return self._traces[self._row(belief_id)].astype(np.float64) / FIXED_POINT_SCALE

    def _row(self, belief_id: str) -> int:
        row = self._rows.get(belief_id)
        if row is None:
            raise InvalidInputError(f"belief {belief_id!r} has no HRR trace; add an edge first")
        return row

    def _terms(self, edge_type: EdgeType, src_row: int, dst_row: int) -> tuple[IntVec, IntVec]:
        """Fixed-point bound terms of one edge: role(out) ⊛ vec(dst) and role(in) ⊛ vec(src).

        Same maths as `bind`, batched: one rfft of both items and one irfft of both
        products, with the role spectra cached, instead of six FFTs.
        """
        spectra = _role_spectra(edge_type, self._dim)
        items = self._items[[dst_row, src_row]].astype(np.float64)
        terms = np.fft.irfft(np.fft.rfft(items, axis=1) * spectra, n=self._dim, axis=1)
        fixed = np.rint(terms * FIXED_POINT_SCALE).astype(np.int64)
        return fixed[0], fixed[1]

    def add_edge(self, src: str, dst: str, edge_type: EdgeType | str) -> None:
        """Add edge src -type-> dst: one bound term to each endpoint's trace."""
        self._apply(src, dst, as_edge_type(edge_type), sign=1)

    def remove_edge(self, src: str, dst: str, edge_type: EdgeType | str) -> None:
        """Remove an edge added before: subtract exactly the terms `add_edge` added."""
        for belief_id in (src, dst):
            self._row(belief_id)
        self._apply(src, dst, as_edge_type(edge_type), sign=-1)

    def _apply(self, src: str, dst: str, edge_type: EdgeType, sign: int) -> None:
        s, d = self.add_item(src), self.add_item(dst)
        out_term, in_term = self._terms(edge_type, s, d)
        # Compute every new trace before writing any, so an overflow leaves no half edge;
        # a self-loop (s == d) puts both terms on the one trace.
        updated: dict[int, IntVec] = {s: self._traces[s] + sign * out_term}
        updated[d] = updated.get(d, self._traces[d]) + sign * in_term
        for row, values in updated.items():
            self._check_range(self._ids[row], values)
        for row, values in updated.items():
            self._traces[row] = values

    @staticmethod
    def _check_range(belief_id: str, values: IntVec) -> None:
        if values.size and int(np.abs(values).max()) > _INT32_MAX:
            raise InvalidInputError(
                f"HRR trace of {belief_id!r} would overflow int32; the belief has too many "
                "edges for a fixed-point trace"
            )

    def drop(self, belief_id: str) -> None:
        """Remove `belief_id` from the index; its trace must be zero (no edges left)."""
        row = self._row(belief_id)
        if self._traces[row].any():
            raise InvalidInputError(
                f"belief {belief_id!r} still has HRR terms; remove its edges before dropping it"
            )
        last = len(self._ids) - 1
        # Swap the last row into the hole so rows stay dense.
        if row != last:
            moved = self._ids[last]
            self._traces[row] = self._traces[last]
            self._items[row] = self._items[last]
            self._ids[row] = moved
            self._rows[moved] = row
        self._traces[last] = 0
        self._items[last] = 0.0
        self._ids.pop()
        del self._rows[belief_id]

    def trace_bytes(self, belief_id: str) -> bytes:
        """The persisted form of a trace: dim little-endian int32 (fixed point, 2^20)."""
        return self._traces[self._row(belief_id)].astype("<i4").tobytes()

    def load_trace(self, belief_id: str, blob: bytes) -> None:
        """Set the trace of `belief_id` from `trace_bytes` output (registering the id)."""
        expected = 4 * self._dim
        if len(blob) != expected:
            raise InvalidInputError(
                f"HRR trace BLOB of {belief_id!r} has {len(blob)} bytes, expected {expected} "
                f"for dimension {self._dim}; re-derive the traces"
            )
        row = self.add_item(belief_id)
        self._traces[row] = np.frombuffer(blob, dtype="<i4")

    def query(
        self,
        anchor_id: str,
        edge_type: EdgeType | str,
        direction: Direction,
        *,
        k: int = DEFAULT_K,
        floor: float | None = None,
    ) -> list[tuple[str, float]]:
        """Answer "anchor -type-> ?" (direction "out") or "? -type-> anchor" ("in").

        Unbinds the role from the anchor's trace, compares the result with every item of
        the cleanup memory by cosine (one matrix-vector product), keeps those >= `floor`
        (default: `noise_floor(dim, len(self))`), best first, ties by id, at most `k`.
        An unknown anchor or an empty trace answers [] (no padding with noise).
        """
        edge = as_edge_type(edge_type)
        way = _check_direction(direction)
        if k < 1:
            raise InvalidInputError(f"k must be >= 1, got {k}")
        if anchor_id not in self._rows:
            return []
        decoded = unbind(self.trace(anchor_id), role_vector(edge, way, self._dim))
        norm = float(np.linalg.norm(decoded))
        if norm == 0.0:
            return []
        probe = (decoded / norm).astype(np.float32)
        scores = self._items[: len(self._ids)] @ probe
        limit = noise_floor(self._dim, len(self._ids)) if floor is None else floor
        hits = np.flatnonzero(scores >= limit)
        # Rounded scores make the output independent of the last bits of BLAS summation.
        ranked = sorted(
            ((round(float(scores[i]), 6), self._ids[i]) for i in hits),
            key=lambda pair: (-pair[0], pair[1]),
        )
        return [(belief_id, score) for score, belief_id in ranked[:k]]


# --------------------------------------------------------------------------- parser


@dataclass(frozen=True, slots=True)
class StructuralQuery:
    """A parsed structural query: anchor -type-> ? ("out") or ? -type-> anchor ("in")."""

    anchor: str
    edge_type: EdgeType
    direction: Direction


_MAX_QUERY_CHARS: Final = 256
_QUESTION_WORDS: Final = frozenset({"what", "which", "who", "whom"})
# An id: letters, digits and _ . : / # -, starting and ending with a letter or digit
# ("b1a2b3c", "D3:7", "note-12"), so a trailing "?" or "." is not part of it.
_ID: Final = r"(?P<id>[^\W_](?:[\w.:/#-]{0,126}[^\W_])?)"


def _verb_phrases() -> dict[str, EdgeType]:
    """Spellings of each edge type: "derived_from", "derived from", "cite", "relate to"..."""
    phrases: dict[str, EdgeType] = {}
    for edge in EdgeType:
        words = edge.value.lower().split("_")
        phrases[" ".join(words)] = edge
        first = words[0]
        if first.endswith("s") and not first.endswith("ss"):
            phrases[" ".join([first[:-1], *words[1:]])] = edge  # "cites" -> "cite"
    return phrases


_PHRASES: Final = _verb_phrases()
_VERB: Final = (
    "(?P<verb>"
    + "|".join(
        r"[\s_]+".join(re.escape(w) for w in phrase.split())
        for phrase in sorted(_PHRASES, key=len, reverse=True)
    )
    + ")"
)
_WH: Final = r"(?:what|which|who)"
_END: Final = r"\s*[?.!]*"
_FORMS: Final[tuple[tuple[re.Pattern[str], Direction], ...]] = tuple(
    (re.compile(pattern, re.IGNORECASE), way)
    for pattern, way in (
        # CITES:b12 -- beliefs that cite b12
        (rf"{_VERB}\s*:\s*{_ID}", "in"),
        # what cites b12? / which beliefs support b12 / what is derived from b12
        (
            rf"{_WH}(?:\s+(?:beliefs?|notes?|ones?))?(?:\s+(?:is|are|was|were))?"
            rf"\s+{_VERB}\s+{_ID}{_END}",
            "in",
        ),
        # ? CITES b12
        (rf"\?\s*{_VERB}\s+{_ID}{_END}", "in"),
        # b12 SUPPORTS ? / b12 derived from what?
        (rf"{_ID}\s+{_VERB}\s+(?:\?+|what|which){_END}", "out"),
        # what does b12 cite? / what is b12 derived from?
        (rf"{_WH}\s+(?:does|do|did|is|are|was|were)\s+{_ID}\s+{_VERB}{_END}", "out"),
    )
)


def parse_structural_query(text: str) -> StructuralQuery | None:
    """Recognise a structural query, or return None for unstructured text.

    Forms (edge type names case-insensitive, "_" or a space between words, the verb
    with or without its final "s"): ``CITES:<id>``, ``what cites <id>``, ``which beliefs
    support <id>``, ``? CITES <id>`` (direction "in"); ``<id> SUPPORTS ?``, ``<id> derived
    from ?``, ``what does <id> cite?`` (direction "out"). The anchor keeps its case; it
    is not checked against the store (an unknown anchor simply has no answers).
    """
    stripped = text.strip()
    if not stripped or len(stripped) > _MAX_QUERY_CHARS:
        return None
    for pattern, way in _FORMS:
        match = pattern.fullmatch(stripped)
        if match is None:
            continue
        anchor = match.group("id")
        if anchor.lower() in _QUESTION_WORDS:
            return None
        verb = " ".join(re.split(r"[\s_]+", match.group("verb").lower()))
        return StructuralQuery(anchor=anchor, edge_type=_PHRASES[verb], direction=way)
    return None
