"""Probabilistic equivalence verification: the API the search calls.

`Verifier(reference)` draws the random tests once (inputs and omega per test, from a seed)
and evaluates the reference on them: that is the reference's fingerprint. `verify(candidate)`
then evaluates the candidate on the same tests, as many as the error bound asks for (at
least a floor when an op has only a stand-in rule, where every batch slice of two
batch-separable programs counts, `batch.py`), and compares; results of ops shared with
programs evaluated before (the reference, earlier candidates) are reused. A candidate
that passes is also run in float32 on random floats and rejected if it is a numerically
unstable rewrite of the reference.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mirage.dialects import shapes
from mirage.dialects.hardware import usable_cpus
from mirage.dialects.semantics.domain import FloatDomain
from mirage.dialects.semantics.evaluate import polling
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.batch import first_slice, separable_batch
from mirage.passes.equivalence.contraction import ContractingDomain, array_identity
from mirage.passes.equivalence.field import P, Q, random_omega
from mirage.passes.equivalence.field_domain import FFValue, FiniteFieldDomain, Lazy
from mirage.passes.equivalence.incremental import ResultCache, run_incremental
from mirage.passes.equivalence.rows import Rows, first_rows, row_separable
from mirage.passes.equivalence.soundness import ErrorBound, ProgramFacts, analyze, error_bound
from mirage.passes.equivalence.stability import (
    NARROW_RANGE,
    Comparison,
    FloatSample,
    StabilityOptions,
    compare,
    draws,
    stability_inputs,
    storage_overflow,
)

FLOOR_TESTS = 1 << 20
"""Test numbers from here on seed the tests of the floor for stand-in rules (their shared
arguments from the number before: `ReferenceFingerprint.floor_test`)."""
MAX_DISCARDED = 16
"""Random tests in a row on which a program may meet a zero denominator before it is
taken to divide by zero everywhere."""


class VerificationError(ValueError):
    """The reference cannot be fingerprinted (it divides by zero on every random test)."""


@dataclass(frozen=True)
class VerifierOptions:
    seed: int = 0
    """Seeds the random tests (each test's seed derives from it and its index)."""
    error_bound: float = 1e-12
    """Largest acceptable probability that two different programs pass every test."""
    max_tests: int = 64
    """Tests run when no number of tests reaches the bound (many exponentials)."""
    stability: StabilityOptions | None = field(default_factory=StabilityOptions)
    """The float32 check; None turns it off."""
    unsound_tests: int = 40
    """At least this many tests when an op has only a stand-in rule: the bound does not
    hold then, and a stand-in that picks one of two branches (relu, max) agrees with a
    wrong program in about half the tests per element (2^-40 < 1e-12). When both programs
    are separable along dim 0 with batch B (`batch.separable_batch`), every test counts as
    B tests here: ceil(unsound_tests / B) tests are run."""
    slice_elements: int = 1 << 20
    """Separable programs (both, with batch B) with at least this many input elements are
    tested one batch slice at a time where that is less work (`batch.first_slice`)."""
    cache_bytes: int = 1 << 30
    input_bytes: int = 1 << 30
    """The fingerprint keeps the random inputs of its first tests up to this many bytes
    (both parts, Z_P and Z_Q); every later test draws its inputs again from its seed
    each time it runs (the same values), so that at realistic shapes one test's inputs
    are alive at a time, not all of them."""
    eager_elements: int = 1 << 20
    """References with fewer input elements draw their tests when the fingerprint is
    made (the first candidate's time is then its own); larger ones on first use, inside
    a verification that a deadline can stop (`Verifier.verify`)."""
    input_products: bool = True
    """Compute the products of pairs of inputs (A @ B where the shapes allow) once per test
    in the fingerprint: candidates whose tiled matmuls contract back into such a product
    take it instead of computing it again."""


@dataclass(frozen=True)
class Counterexample:
    seed: int
    """The seed of the random test (inputs and omega) that tells the programs apart."""
    output: int
    index: tuple[int, ...]
    """The first position (row-major) where the outputs differ."""

    def __str__(self) -> str:
        return (
            f"output {self.output} differs at index {list(self.index)} "
            f"in the random test with seed {self.seed}"
        )


@dataclass(frozen=True)
class Verdict:
    equivalent: bool
    sound: bool
    """Every op of both programs has an exact finite-field rule (else `error_bound` holds
    only for the stand-in rules of `unsound_ops`)."""
    unsound_ops: tuple[str, ...]
    tests: int
    """Random tests in Z_P x Z_Q that the candidate passed (or ran, when it failed), each of
    `batch` slices (of one, when `sliced`)."""
    error_bound: float
    """Probability bound that a different candidate passes all of them (1: no bound); it
    assumes exact rules, so it holds only when `sound`."""
    bound: ErrorBound
    counterexample: Counterexample | None = None
    reason: str = ""
    """Why the candidate was rejected when there is no counterexample."""
    stopped: bool = False
    """The verification was stopped before it decided (`Verifier.verify`'s `stop`): the
    candidate is not taken as equivalent, nor shown different; `tests` passed by then."""
    float32_drift: float | None = None
    reference_float32_drift: float | None = None
    batch: int = 1
    """Batch slices per test: B when both programs are separable along dim 0 with batch B
    (each test is then B independent tests of the batch-1 program, which the floor of
    tests for unsound ops counts), else 1. The error bound counts whole tests only."""
    sliced: bool = False
    """The tests ran on the batch-1 programs (one slice each, `batch.first_slice`): each
    is a whole test, at 1/B of the work; a counterexample's index is then in slice 0."""
    rows: int = 0
    """The tests ran on both programs cut down to their first `rows` rows, the shared
    arguments (weights) whole (`rows.first_rows`; of their batch-1 programs when `batch` >
    1): each a whole test, at rows/B of the work; 0 where they ran on the programs as they
    are."""
    storage_fit: bool = True
    """With its tensors stored in their narrow dtypes, the candidate's result is finite
    wherever the float64 result fits them. An equivalent candidate always is where the
    reference is; where the reference is not (a matmul chain whose f16 intermediate
    overflows on the check's inputs as PyTorch's would), the candidate is only asked to be
    finite wherever the reference's own stored result is, and this says whether it is
    finite beyond that (the search then lets it replace the program at any cost)."""

    @property
    def slices(self) -> int:
        """Tests of the batch-1 program: `tests` times `batch` (`tests` when sliced)."""
        return self.tests if self.sliced else self.tests * self.batch

    def __bool__(self) -> bool:
        return self.equivalent

    def __str__(self) -> str:
        if self.stopped:
            return self.reason
        if not self.equivalent:
            return f"not equivalent: {self.counterexample or self.reason}"
        text = "equivalent"
        field_name = f"Z_{P} x Z_{Q}"
        one = " of one batch slice" if self.sliced else ""
        if self.rows:
            one = f" of the first {self.rows} rows" + (one if self.batch > 1 else "")
        if not self.sound:
            slices = f" ({self.slices} batch slices)" if self.batch > 1 and not self.sliced else ""
            return (
                f"{text}, unsound ops: {', '.join(self.unsound_ops)} ({self.tests} random "
                f"tests{one}{slices} in {field_name}; no error bound, these ops have stand-in "
                "rules)"
            )
        if self.error_bound < 1.0:
            return (
                f"{text} ({self.tests} random tests{one} in {field_name}, "
                f"error probability <= {self.error_bound:.1e})"
            )
        return f"{text} ({self.tests} random tests{one} in {field_name}, no error bound)"


Drawn = tuple[ContractingDomain[FFValue], list[FFValue]]
"""A test's domain (with its random omega and the products of its inputs) and inputs."""


@dataclass
class FieldTest:
    """One random test: its seed, the reference's outputs, and its draw where the
    fingerprint keeps it (`ReferenceFingerprint.drawn`)."""

    seed: int
    reference: list[FFValue]
    kept: Drawn | None = None
    """None: every use draws the test again from `seed` (`VerifierOptions.input_bytes`)."""
    shares: bool = False
    """A test of the floor for stand-in rules that takes the arguments every row shares
    from one draw (`ReferenceFingerprint.floor_test`)."""


class Stopped(Exception):
    """Raised inside an evaluation when the verification's `stop` asks to stop."""


def draw_inputs(
    graph: Graph, seed: int, fixed: Mapping[int, FFValue] | None = None
) -> tuple[ContractingDomain[FFValue], list[FFValue]]:
    """The domain (with its random omega) and the random inputs of the test `seed` (the
    arguments of `fixed` as given there)."""
    rng = np.random.default_rng(seed)
    domain = ContractingDomain(FiniteFieldDomain(random_omega(rng)), _field_identity)
    inputs: list[FFValue] = []
    for i, ty in enumerate(graph.args):
        if fixed is not None and i in fixed:
            inputs.append(fixed[i])
            continue
        re = uniform_residues(rng, ty.shape, P)
        q_seed = int(rng.integers(1 << 62))
        inputs.append(FFValue(re, None, _lazy_uniform(q_seed, ty.shape, Q)))
    return domain, inputs


def _lazy_uniform(seed: int, shape: tuple[int, ...], m: int) -> Lazy:
    # The Z_Q parts only matter on paths into an exponential: drawn when first used.
    return Lazy(lambda: (uniform_residues(np.random.default_rng(seed), shape, m), False))


DRAW_CHUNK = 1 << 20
"""Elements per independent random stream of a large draw. The streams are filled on
threads (numpy's generators and ufuncs release the GIL on large arrays); the chunking, not
the number of threads, fixes the values, so a test drawn again is the same test."""
MAX_DRAW_THREADS = 8


def uniform_residues(rng: np.random.Generator, shape: tuple[int, ...], m: int) -> np.ndarray:
    """Residues 0 .. m-1 as float64, floor(u * m) for uniform doubles u: within 2^-53 of
    uniform for each value (a test's bound needs no more), and three times faster than
    integer draws, which at realistic shapes (a weight of 10^8 elements per test) are a
    verification's dearest part. Above `DRAW_CHUNK` elements, each chunk is drawn from a
    generator of its own, seeded from `rng`, on as many threads as there are CPUs."""
    n = math.prod(shape)
    out = np.empty(n)
    chunks = -(-n // DRAW_CHUNK)
    seeds = rng.integers(1 << 62, size=chunks) if chunks > 1 else None

    def fill(i: int) -> None:
        part = out[i * DRAW_CHUNK : (i + 1) * DRAW_CHUNK]
        gen = rng if seeds is None else np.random.default_rng(int(seeds[i]))
        gen.random(out=part)
        part *= m
        np.floor(part, out=part)

    threads = min(chunks, usable_cpus(), MAX_DRAW_THREADS)
    if threads <= 1:
        for i in range(chunks):
            fill(i)
    else:
        # a pool per draw: no thread outlives it into a forked search worker
        with ThreadPoolExecutor(threads, thread_name_prefix="mirage-draw") as pool:
            list(pool.map(fill, range(chunks)))
    return out.reshape(shape)


def _field_identity(value: FFValue) -> Hashable | None:
    return array_identity(value.re) if value.im is None else None


MAX_PRODUCT_ELEMENTS = 1 << 24
MAX_PRODUCT_FLOPS = 1 << 31


def remember_input_products(
    graph: Graph, domain: ContractingDomain[Any], inputs: Sequence[Any]
) -> None:
    """Have `domain` compute now every product of two inputs whose shapes allow one (and
    that is not too large to be worth it)."""
    for i, a in enumerate(graph.args):
        for j, b in enumerate(graph.args):
            try:
                shape = shapes.matmul(a.shape, b.shape)
            except shapes.ShapeError:
                continue
            flops = 2 * math.prod(shape) * a.shape[-1]
            if math.prod(shape) <= MAX_PRODUCT_ELEMENTS and flops <= MAX_PRODUCT_FLOPS:
                domain.remember_product(inputs[i], inputs[j])


def seed_of_test(base: int, index: int) -> int:
    return int(np.random.SeedSequence([base, index]).generate_state(1, np.uint32)[0])


def _size(value: Any) -> int:
    if isinstance(value, FFValue):
        return value.nbytes
    return int(getattr(value, "nbytes", 0))


class ReferenceFingerprint:
    """The reference's outputs on the random tests (drawn on demand, kept), and its float
    results for the stability check."""

    def __init__(
        self,
        reference: Graph,
        options: VerifierOptions | None = None,
        *,
        part: bool = False,
        shared: frozenset[int] = frozenset(),
    ) -> None:
        self.graph = reference
        self.shared = shared
        """Arguments that every row of the program reads whole (a linear layer's weight),
        where others are cut to the first rows: the tests of the floor for stand-in rules
        draw them once (`floor_test`)."""
        self.floor_tests: list[FieldTest] = []
        self._shared_inputs: dict[int, FFValue] | None = None
        self.options = options or VerifierOptions()
        self.facts: ProgramFacts = analyze(reference)
        self.batch = separable_batch(reference)
        """B when the reference is separable along dim 0 with batch B, else None."""
        self.cache: ResultCache[Any] = ResultCache(_size, self.options.cache_bytes)
        self.tests: list[FieldTest] = []
        self.discarded = 0
        self._attempt = 0
        self._floor_attempt = 0
        self._float: list[FloatSample] | None = None
        self._storage: list[FloatSample] | None = None
        self._sliced: ReferenceFingerprint | None = None
        self._first_rows: dict[int, ReferenceFingerprint] = {}
        self.f32 = ContractingDomain(FloatDomain(np.float32), array_identity)
        """The float32 domain of the stability check (with the float samples' products)."""
        self.narrow = any(
            t.dtype in NARROW_RANGE for t in (*reference.args, *reference.output_types)
        )
        self.stored = ContractingDomain(FloatDomain(np.float32, round_to_storage=True))
        """Where the program keeps f16 or bf16 tensors: float32 with every stored tensor
        rounded to its dtype, as a device kernel writes it."""
        self.sliceable = (
            self.batch is not None
            and sum(t.numel for t in reference.args) >= self.options.slice_elements
        )
        """Separable candidates of this reference are tested one batch slice at a time."""
        elements = sum(t.numel for t in reference.args)
        self.rows: Rows | None = (
            row_separable(reference) if part or elements >= self.options.slice_elements else None
        )
        """How the reference separates into rows (with shared weights, or with every
        argument cut: a batch whose candidates are not separable slice by slice, their
        blocks holding several batch elements), where it is large (or is a part of a large
        one, its batch-1 program or its first rows: `part`): candidates that separate the
        same way are tested on their first rows."""
        self.test_bytes = 16 * elements
        """The bytes of one test's inputs, Z_P and Z_Q parts in float64."""
        self._kept_bytes = 0
        if not self.sliceable and self.rows is None and elements < self.options.eager_elements:
            # drawn here so that the first candidate's time is its own (a sliceable
            # reference draws the tests of its batch-1 program instead, when first asked)
            own = error_bound(self.facts, self.facts).tests_for(self.options.error_bound)
            for i in range(min(own or 1, self.options.max_tests)):
                self.test(i)

    def test(self, index: int) -> FieldTest:
        """The index-th test, drawn now if needed: tests where the reference meets a zero
        denominator are discarded and redrawn."""
        while len(self.tests) <= index:
            misses = 0
            while True:
                seed = seed_of_test(self.options.seed, self._attempt)
                self._attempt += 1
                drawn = self._draw(seed)
                domain, inputs = drawn
                outputs = run_incremental(
                    self.graph, inputs, domain, self.cache, ("ff", seed), domain.force
                )
                del domain, inputs
                if not any(o.poisoned for o in outputs):
                    break
                del drawn  # before the next draw: one test's inputs alive at a time
                self.discarded += 1
                misses += 1
                if misses >= MAX_DISCARDED:
                    raise VerificationError(
                        f"the reference meets a zero denominator in {misses} random tests "
                        "in a row: it divides by zero everywhere"
                    )
            keep = self._kept_bytes + self.test_bytes <= self.options.input_bytes
            if keep:
                self._kept_bytes += self.test_bytes
            self.tests.append(FieldTest(seed, outputs, drawn if keep else None))
            del drawn
        return self.tests[index]

    def floor_test(self, index: int) -> FieldTest:
        """The index-th test past those the error bound counts, where the reference has
        arguments every row shares (`shared`): those drawn once for all such tests, the
        rows' own arguments drawn for each. The floor of tests for stand-in rules is about
        how often a stand-in agrees with a wrong program by chance on the values reaching
        it, which the rows' fresh values vary; at realistic shapes a weight of 10^8
        elements drawn per test was most of a verification's time."""
        while len(self.floor_tests) <= index:
            misses = 0
            while True:
                seed = seed_of_test(self.options.seed, FLOOR_TESTS + self._floor_attempt)
                self._floor_attempt += 1
                domain, inputs = self._draw(seed, True)
                outputs = run_incremental(
                    self.graph, inputs, domain, self.cache, ("ff", seed), domain.force
                )
                del domain, inputs
                if not any(o.poisoned for o in outputs):
                    break
                misses += 1
                if misses >= MAX_DISCARDED:
                    raise VerificationError(
                        f"the reference meets a zero denominator in {misses} random tests "
                        "in a row: it divides by zero everywhere"
                    )
            self.floor_tests.append(FieldTest(seed, outputs, None, shares=True))
        return self.floor_tests[index]

    def drawn(self, test: FieldTest) -> Drawn:
        """`test`'s domain and inputs: as kept, or drawn again from its seed."""
        return test.kept if test.kept is not None else self._draw(test.seed, test.shares)

    def _draw(self, seed: int, shares: bool = False) -> Drawn:
        fixed = None
        if shares:
            if self._shared_inputs is None:
                _, base = draw_inputs(self.graph, seed_of_test(self.options.seed, FLOOR_TESTS - 1))
                self._shared_inputs = {i: base[i] for i in self.shared}
            fixed = self._shared_inputs
        domain, inputs = draw_inputs(self.graph, seed, fixed)
        if self.options.input_products:
            remember_input_products(self.graph, domain, inputs)
        return domain, inputs

    def sliced(self) -> ReferenceFingerprint:
        """The fingerprint of the reference's batch-1 program (a separable reference)."""
        if self._sliced is None:
            self._sliced = ReferenceFingerprint(first_slice(self.graph), self.options, part=True)
        return self._sliced

    def first_rows(self, count: int) -> ReferenceFingerprint:
        """The fingerprint of the reference cut down to its first `count` rows (a
        row-separable reference, `rows`)."""
        assert self.rows is not None
        if count not in self._first_rows:
            cut = first_rows(self.graph, self.rows, count)
            whole = frozenset(
                i
                for i, (a, b) in enumerate(zip(cut.args, self.graph.args, strict=True))
                if a.shape == b.shape
            )
            shared = whole if len(whole) < len(cut.args) else frozenset[int]()
            self._first_rows[count] = ReferenceFingerprint(
                cut, self.options, part=True, shared=shared
            )
        return self._first_rows[count]

    def float_samples(self) -> list[FloatSample]:
        """Random float inputs and the reference's float32 and float64 results on them."""
        if self._float is None:
            self._float = self._samples(self.options.stability or StabilityOptions(), "f32")
        return self._float

    def storage_samples(self, with_reference: bool = False) -> list[FloatSample]:
        """The samples of the storage check: the same draws without the offset slices.
        The offset (256) is there to expose cancellation in float32; in f16 storage the
        product of two such inputs overflows (256^2 > 65504) whatever the program does
        with it, which would reject every fusion that scales before it normalizes (a gain
        times the rows of an RMSNorm). N(0, 1) inputs still drive a plain exp of
        attention scores far past f16's range."""
        if self._storage is None:
            opts = replace(self.options.stability or StabilityOptions(), offset=0.0)
            self._storage = self._samples(opts, "f32, no offset")
        if with_reference and any(s.reference_stored is None for s in self._storage):
            # `with_reference`: with the reference's own stored result (`_storage`)
            with np.errstate(all="ignore"):
                self._storage = [
                    replace(
                        s,
                        reference_stored=run_incremental(
                            self.graph, s.inputs, self.stored, None, None, self.stored.force
                        ),
                    )
                    for s in self._storage
                ]
        return self._storage

    def _samples(self, opts: StabilityOptions, tag: str) -> list[FloatSample]:
        """`tag`: the namespace of the reference's cached results (candidates checked
        against these samples reuse them under the same one)."""
        f64 = ContractingDomain(FloatDomain(np.float64))
        f32 = self.f32
        samples: list[FloatSample] = []
        for k in range(draws(self.graph, opts)):
            inputs = stability_inputs(self.graph, opts, k)
            in32 = [x.astype(np.float32) for x in inputs]
            if self.options.input_products:
                remember_input_products(self.graph, f32, in32)
            with np.errstate(all="ignore"):  # overflow is what this check looks for
                want = run_incremental(self.graph, inputs, f64, None, "f64", f64.force)
                own = run_incremental(self.graph, in32, f32, self.cache, (tag, k), f32.force)
            samples.append(FloatSample(k, in32, want, own))
        return samples


SEARCH_OPTIONS = StabilityOptions(storage=True)
"""The stability check the search asks: what it returns must also not overflow the f16
and bf16 tensors a device kernel stores."""


class Verifier:
    """Verifies candidates against one reference program."""

    def __init__(
        self, reference: Graph | ReferenceFingerprint, options: VerifierOptions | None = None
    ) -> None:
        if isinstance(reference, ReferenceFingerprint):
            self.fingerprint = reference
        else:
            self.fingerprint = ReferenceFingerprint(reference, options)
        self.options = self.fingerprint.options

    def verify(self, candidate: Graph, stop: Callable[[], bool] | None = None) -> Verdict:
        """The verdict on `candidate`. `stop` is polled before every op evaluated (block
        ops included): once it says so, the verification ends with a `stopped` verdict
        (not equivalent) that says how many tests had passed."""
        if stop is None:
            return self._verify(candidate, _Progress())
        progress = _Progress()

        def check() -> None:
            if stop():
                raise Stopped

        try:
            with polling(check):
                return self._verify(candidate, progress)
        except Stopped:
            return progress.stopped()

    def _verify(self, candidate: Graph, progress: _Progress) -> Verdict:
        fp = self.fingerprint
        facts = analyze(candidate)
        unsound = tuple(sorted(set(fp.facts.unsound_ops) | set(facts.unsound_ops)))
        mismatch = _signature_mismatch(fp.graph, candidate)
        if mismatch:
            no_bound = ErrorBound(0, 0, 1.0)
            return Verdict(False, not unsound, unsound, 0, 1.0, no_bound, reason=mismatch)
        bound = error_bound(fp.facts, facts)
        # The error bound counts whole tests, not batch slices: the exponent domain's
        # random omega is shared by every slice of a test, so for Theorem 2 the slices
        # are not independent tests.
        wanted = bound.tests_for(self.options.error_bound) or self.options.max_tests
        batch = 1
        if fp.batch is not None and separable_batch(candidate) == fp.batch:
            batch = fp.batch
        floor = self.options.unsound_tests if unsound else 0
        # The floor for stand-in rules is about how often a stand-in's choice agrees with a
        # wrong program by chance, which depends on the inputs: each slice of a separable
        # program gets its own independent inputs, so it is a test of its own.
        whole = min(max(wanted, -(-floor // batch)), self.options.max_tests)
        # Two separable programs are equal when their batch-1 programs are: a test of one
        # slice, with an omega of its own, is a whole test of those at 1/B of the work.
        one_slice = min(max(wanted, floor), self.options.max_tests)
        sliced = fp.sliceable and batch > 1 and one_slice < whole * batch
        base = (fp.sliced(), first_slice(candidate)) if sliced else (fp, candidate)
        tested = base
        cut = _candidate_rows(*base)
        rows = ROWS_TESTED if cut is not None else 0
        while cut is not None:
            # the same tests, each a whole test of the row-cut programs (no slice credit:
            # the weights are shared by every row); the first row may separate again along
            # a later dim (the heads of one batch element, then the queries of one head)
            sliced = True
            tested = (tested[0].first_rows(rows), first_rows(tested[1], cut, rows))
            cut = _candidate_rows(*tested)

        def verdict(equivalent: bool, tests: int, **more: Any) -> Verdict:
            achieved = bound.after(tests) if equivalent else 1.0
            return Verdict(
                equivalent,
                not unsound,
                unsound,
                tests,
                achieved,
                bound,
                batch=batch,
                sliced=sliced,
                rows=rows if sliced else 0,
                **more,
            )

        progress.verdict = verdict
        # a test of the first rows of one batch slice is a whole test of the batch-1
        # program; without a batch the two counts are the same
        progress.wanted = one_slice if sliced else whole
        passed, failure = self._field_tests(*tested, progress.wanted, progress, wanted)
        if failure is not None and sliced:
            # Not equivalent: the counterexample is looked for again on the programs as
            # they are, so that its seed and index reproduce on them.
            progress.wanted = whole
            again, full = self._field_tests(fp, candidate, whole, progress)
            if full is not None:
                sliced, rows, passed, failure = False, 0, again, full
        if failure is not None:
            return verdict(False, passed, **failure)
        if self.options.stability is None:
            return verdict(True, passed)
        progress.stage = "the float32 check"
        found = self._float_check(candidate)
        drifts = {"float32_drift": found.drift, "reference_float32_drift": found.reference_drift}
        unstable = found.rejection(self.options.stability.bound)
        storage_fit = True
        if unstable is None:
            unstable, storage_fit = self._storage(candidate)
        if unstable is not None:
            return verdict(False, passed, reason=f"numerically unstable: {unstable}", **drifts)
        return verdict(True, passed, storage_fit=storage_fit, **drifts)

    def _field_tests(
        self,
        fp: ReferenceFingerprint,
        candidate: Graph,
        wanted: int,
        progress: _Progress,
        fresh: int | None = None,
    ) -> tuple[int, dict[str, Any] | None]:
        """(tests passed, None) after `wanted` passed tests of `fp`'s reference, or the
        reason of a failure. Past `fresh` tests (those the error bound counts), the floor
        for stand-in rules takes tests that draw the shared arguments once, where `fp`
        has such (`ReferenceFingerprint.floor_test`)."""
        passed = inconclusive = index = 0
        progress.passed = 0
        while passed < wanted:
            if fresh is not None and fp.shared and index >= fresh:
                test = fp.floor_test(index - fresh)
            else:
                test = fp.test(index)
            index += 1
            domain, inputs = fp.drawn(test)
            outputs = run_incremental(
                candidate, inputs, domain, fp.cache, ("ff", test.seed), domain.force
            )
            del domain, inputs  # a test drawn again is freed before the next one is drawn
            if any(o.poisoned for o in outputs):
                # A zero denominator: this test says nothing about the candidate.
                inconclusive += 1
                if inconclusive >= MAX_DISCARDED:
                    reason = (
                        f"the candidate meets a zero denominator in {inconclusive} random "
                        "tests where the reference does not"
                    )
                    return passed, {"reason": reason}
                continue
            found = _first_difference(test, outputs)
            if found is not None:
                return passed + 1, {"counterexample": found}
            passed += 1
            progress.passed = passed
        return passed, None

    def _float_check(self, candidate: Graph) -> Comparison:
        fp = self.fingerprint
        found = Comparison(0.0, 0.0)
        for sample in fp.float_samples():
            namespace = ("f32", sample.draw)
            with np.errstate(all="ignore"):
                got = run_incremental(
                    candidate, sample.inputs, fp.f32, fp.cache, namespace, fp.f32.force
                )
            found = found.worst(compare(sample, got))
        return found

    def storage_check(self, candidate: Graph) -> str | None:
        """Why the candidate (the reference itself, too) overflows its narrow storage
        dtypes where the float64 result fits them, or None; None also when the options do
        not ask for the storage check."""
        return self._storage_runs(candidate, False)[0]

    def _storage(self, candidate: Graph) -> tuple[str | None, bool]:
        """Why the candidate overflows its narrow storage where the reference's own stored
        result does not (None where it does not), and whether it is finite wherever the
        float64 result fits (`Verdict.storage_fit`)."""
        if self.reference_storage_fit():
            reason = self.storage_check(candidate)
            return reason, reason is None
        return self._storage_runs(candidate, True)

    def reference_storage_fit(self) -> bool:
        """The reference is finite with narrow storage wherever its float64 result fits
        (judged on its own stored results, which the comparison with it needs anyway)."""
        fp = self.fingerprint
        if not fp.narrow or self.options.stability is None or not self.options.stability.storage:
            return True
        dtypes = [t.dtype for t in fp.graph.output_types]
        return all(
            s.reference_stored is not None
            and storage_overflow(s, s.reference_stored, dtypes) is None
            for s in fp.storage_samples(with_reference=True)
        )

    def _storage_runs(self, candidate: Graph, as_reference: bool) -> tuple[str | None, bool]:
        """(Why the candidate overflows, per `storage_overflow(..., as_reference)`, or
        None; whether it is finite wherever the float64 result fits), from one run of the
        candidate per storage sample."""
        fp = self.fingerprint
        if not fp.narrow or self.options.stability is None or not self.options.stability.storage:
            return None, True
        dtypes = [t.dtype for t in candidate.output_types]
        fit = True
        for sample in fp.storage_samples(as_reference):
            with np.errstate(all="ignore"):
                got = run_incremental(
                    candidate, sample.inputs, fp.stored, None, None, fp.stored.force
                )
            bad = storage_overflow(sample, got, dtypes, as_reference)
            if bad is not None:
                output, index = bad
                where = (
                    "where the float64 result fits and the program's own stored result is finite"
                    if as_reference
                    else f"where the float64 result fits {dtypes[output]}"
                )
                return (
                    f"with its tensors stored in their dtypes its result is not finite at "
                    f"output {output}, index {list(index)}, {where}"
                ), False
            fit = fit and storage_overflow(sample, got, dtypes) is None
        return None, fit


@dataclass
class _Progress:
    """How far a verification got: what a stopped one reports."""

    passed: int = 0
    wanted: int = 0
    stage: str = "the random tests"
    verdict: Callable[..., Verdict] | None = None

    def stopped(self) -> Verdict:
        reason = (
            f"not verified in the budget: stopped in {self.stage}, after {self.passed} "
            f"of {self.wanted} random tests passed"
        )
        if self.verdict is None:
            no_bound = ErrorBound(0, 0, 1.0)
            return Verdict(False, False, (), 0, 1.0, no_bound, reason=reason, stopped=True)
        return self.verdict(False, self.passed, reason=reason, stopped=True)


ROWS_TESTED = 1
"""Rows that the tests of row-separable programs run on: each row is computed by the same
code from its own row and the shared weights, so one is a whole test."""


def _candidate_rows(fp: ReferenceFingerprint, candidate: Graph) -> Rows | None:
    """How the candidate separates into rows, where the reference does the same way (then
    both are tested on their first `ROWS_TESTED` rows); else None."""
    if fp.rows is None:
        return None
    cut = row_separable(candidate, fp.rows.batched, fp.rows.dim)
    return cut if cut is not None and cut.batch == fp.rows.batch else None


def _signature_mismatch(reference: Graph, candidate: Graph) -> str:
    ra = [t.shape for t in reference.args]
    ca = [t.shape for t in candidate.args]
    if ra != ca:
        return f"the candidate's argument shapes {ca} differ from the reference's {ra}"
    ro = [t.shape for t in reference.output_types]
    co = [t.shape for t in candidate.output_types]
    if ro != co:
        return f"the candidate's output shapes {co} differ from the reference's {ro}"
    return ""


def _first_difference(test: FieldTest, outputs: list[FFValue]) -> Counterexample | None:
    for j, (want, got) in enumerate(zip(test.reference, outputs, strict=True)):
        same = want.same_as(got)
        if not bool(np.all(same)):
            flat = int(np.argmin(np.broadcast_to(same, want.shape).ravel()))
            index = tuple(int(i) for i in np.unravel_index(flat, want.shape))
            return Counterexample(test.seed, j, index)
    return None
