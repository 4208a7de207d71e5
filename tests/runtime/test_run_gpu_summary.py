"""benchmarks/run_gpu.py's table of each case on one line (no GPU needed)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

from run_gpu import SUMMARY_HEADER, side_by_side


def test_each_case_on_one_line_with_our_fastest_and_the_best_baseline() -> None:
    rows = [
        ["gqa b1", "ours (a.json)", "0.53", "6.98", "0.01", "", "ok"],
        ["gqa b1", "ours (b.json)", "0.53", "6.77", "0.01", "", "ok"],
        ["lora", "ours", "", "", "", "", "rel. error TOO LARGE"],
        ["gqa b1", "SDPA flash", "0.53", "12.95", "0.01", "", ""],
        ["gqa b1", "eager", "0.53", "31.34", "0.04", "", ""],
        ["gqa b1", "torch.compile", "0.53", "16.99", "0.01", "", ""],
        ["lora", "eager", "0.56", "11.12", "0.02", "", ""],
        ["ntrans b1", "ours (n.json)", "0.06", "2.32", "0.00", "", "ok"],
    ]
    out = side_by_side(rows)
    assert all(len(r) == len(SUMMARY_HEADER) for r in out)
    by_case = {r[0]: r for r in out}
    assert [r[0] for r in out] == ["gqa b1", "lora", "ntrans b1"]
    # the faster of the two programs, beside eager, torch.compile and SDPA flash
    assert by_case["gqa b1"][1:6] == ["0.53", "6.77", "31.34", "16.99", "12.95"]
    assert by_case["gqa b1"][6] == "1.91x (SDPA flash)"
    # a program that failed its check has no time and no ratio
    assert by_case["lora"][1:4] == ["0.56", "", "11.12"]
    assert by_case["lora"][6] == ""
    # no baseline asked for: no ratio
    assert by_case["ntrans b1"][2] == "2.32" and by_case["ntrans b1"][6] == ""
