"""The one description of the GPUs: architectures compare as compute capabilities, and the
verifier, the planner and the search all read their limits from the `Target`."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mirage.dialects import hardware
from mirage.dialects.hardware import SM_80, SM_90, SM_90A, Arch, ArchError, parse_arch, target_for
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.optimize.plan import PlanError, plan_graph_op
from mirage.lowering.ptx.emit import TargetError, check_arch
from mirage.passes.superoptimize.resources import check_fit, peak_shared_memory
from tests.conftest import FIXTURES, get_func, parse_module


def test_architectures_order_by_compute_capability() -> None:
    sm_100, sm_90, sm_80 = parse_arch("sm_100"), parse_arch("sm_90"), parse_arch("sm_80")
    assert sm_100 > sm_90 > sm_80
    assert sm_100.capability == 100 and sm_90.capability == 90
    assert "sm_100" < "sm_80"  # why text must never be compared
    assert parse_arch("sm_90a") == Arch(90, specific=True) and str(Arch(90, True)) == "sm_90a"
    assert parse_arch("sm_90a") > parse_arch("sm_90")


def test_an_arch_parses_into_its_target() -> None:
    assert target_for("sm_90a") is SM_90A and target_for("sm_80") is SM_80
    assert SM_90A.shared_memory_per_block == SM_90.shared_memory_per_block
    assert hardware.WGMMA in SM_90A.tensor_cores and hardware.WGMMA not in SM_90.tensor_cores
    assert SM_90.bulk_copies and not SM_80.bulk_copies
    assert target_for(Arch(86)).shared_memory_per_block < SM_80.shared_memory_per_block


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sm_100", "unsupported GPU architecture 'sm_100' (use one of sm_80, sm_86, sm_89"),
        ("sm90", "'sm90' is not a GPU architecture"),
        ("compute_90", "'compute_90' is not a GPU architecture"),
    ],
)
def test_an_unknown_arch_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(ArchError, match=message.replace("(", r"\(")):
        target_for(text)
    with pytest.raises(TargetError) as e:
        check_arch(text)
    assert "\n" not in str(e.value)


def test_a_shared_memory_change_in_the_target_is_seen_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = parse_module((FIXTURES / "rmsnorm_linear.mlir").read_text())
    func = get_func(module, "ugraph")
    (op,) = [o for o in graph_from_func(func).ops if o.kind == "graph"]
    assert op.body is not None
    peak = peak_shared_memory(op.body)
    args = (op.body, op.ints_attr("grid"), op.ints_attr("block"), op.int_attr("forloop_range"))
    small = replace(SM_90A, shared_memory_per_block=peak - 16)
    func.verify()
    assert check_fit(op, SM_90A).ok
    # the search
    fit = check_fit(op, small)
    assert not fit.ok and str(small.shared_memory_per_block) in fit.reason
    # the planner (which reuses memory, so it needs less than the peak)
    need = plan_graph_op(*args, SM_90A, 1).smem_bytes
    tight = replace(SM_90A, shared_memory_per_block=need - 16)
    with pytest.raises(PlanError, match=f"more than the {need - 16} bytes of sm_90a"):
        plan_graph_op(*args, tight, 1)
    fits = replace(SM_90A, shared_memory_per_block=need)
    assert plan_graph_op(*args, SM_90A).stages > 1
    assert plan_graph_op(*args, fits).stages == 1  # unforced: the depth that fits
    # the verifier, which holds a graph against the largest target
    monkeypatch.setattr(hardware, "TARGETS", {small.arch: small})
    with pytest.raises(Exception, match=f"more than the {small.shared_memory_per_block} bytes"):
        func.verify()
