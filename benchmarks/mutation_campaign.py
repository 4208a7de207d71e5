"""Mutation campaign of the equivalence verifier: random single mutations of the fixtures,
the corpus pairs and random programs; every mutant whose float64 results differ from the
reference's on random inputs must be rejected.

    python benchmarks/mutation_campaign.py [--mutants 10000] [--random-programs 60] [--seed 0]

Prints the counts; exit status 1 if any differing mutant was accepted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "equivalence"))

from equivalence.mutation_engine import random_pairs, run_campaign  # noqa: E402
from test_equiv_mutations import seed_pairs  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--random-programs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    pairs = seed_pairs() + random_pairs(args.random_programs, seed=args.seed + 1)
    start = time.perf_counter()
    report = run_campaign(pairs, total=args.mutants, seed=args.seed)
    elapsed = time.perf_counter() - start
    print(f"seed programs: {len(pairs)} ({args.random_programs} random)")
    print(f"valid mutants verified: {report.mutants} (invalid mutations skipped: {report.invalid})")
    print(
        f"differ in float64: {report.differing}, rejected: {report.differing_rejected}, "
        f"accepted: {len(report.escaped)}"
    )
    print(f"same in float64: {report.same}, accepted: {report.same_accepted}")
    print(f"not judged (reference divides by zero in most random tests): {report.untestable}")
    print(f"time: {elapsed:.0f} s")
    for line in report.escaped:
        print(f"ACCEPTED BUT DIFFERS: {line}")
    sys.exit(1 if report.escaped else 0)


if __name__ == "__main__":
    main()
