"""mirage.torch on one NVIDIA GPU: the six benchmark programs through
`torch.compile(backend="mirage")` match eager within float16's tolerance, the compiled
module runs under CUDA-graph capture, and mode="reduce-overhead" replays it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from dynamo.tb_helpers import NormLinear, torch_programs  # noqa: E402

from mirage.torch import BackendOptions, MirageBackend  # noqa: E402

pytestmark = pytest.mark.gpu

SMALL = {
    "gqa": "small",
    "qknorm": "small",
    "rmsnorm_linear": "small",
    "lora": "small",
    "gated_mlp": "small",
    "ntrans": "small",
}
F16_TOL = 2e-2


class _Program(torch.nn.Module):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.fn = torch_programs.PROGRAMS[name]

    def forward(self, *args: Any) -> Any:
        return self.fn(*args)


def _args(name: str, tag: str) -> list[Any]:
    gen = torch.Generator(device="cuda").manual_seed(0)
    out: list[Any] = []
    for shape in torch_programs.SHAPES[name][tag]:
        mag = torch.rand(shape, generator=gen, device="cuda") * 0.75 + 0.25
        sign = torch.randint(0, 2, shape, generator=gen, device="cuda") * 2 - 1
        out.append((mag * sign * 0.5).half())
    return out


def _rel(got: Any, want: Any) -> float:
    g, w = got.double(), want.double()
    return float(torch.linalg.vector_norm(g - w) / torch.linalg.vector_norm(w))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_six_programs_match_eager(name: str, tmp_path: Path) -> None:
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    args = _args(name, SMALL[name])
    backend = MirageBackend(
        BackendOptions(cache_dir=str(tmp_path), time_budget=20, unimproved="ours")
    )
    fast = torch.compile(_Program(name), backend=backend)
    with torch.no_grad():
        got = fast(*args)
        want = _Program(name)(*(a.double() for a in args))
    torch.cuda.synchronize()
    assert torch.isfinite(got).all()
    assert _rel(got, want) < F16_TOL
    assert any("kernels on cuda:" in s.where for s in backend.reports[0].subgraphs)


def test_the_string_backend_runs_our_kernels(tmp_path: Path) -> None:
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    m = NormLinear(tail=False).cuda().half()
    x = torch.rand(4, 64, device="cuda").half()
    fast = torch.compile(m, backend="mirage", options={"cache_dir": str(tmp_path)})
    with torch.no_grad():
        assert _rel(fast(x), m.double()(x.double())) < F16_TOL


def test_runs_under_cuda_graph_capture(tmp_path: Path) -> None:
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    m = NormLinear(tail=False).cuda().half()
    x = torch.rand(4, 64, device="cuda").half()
    backend = MirageBackend(BackendOptions(cache_dir=str(tmp_path), time_budget=10))
    fast = torch.compile(m, backend=backend)
    with torch.no_grad():
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            fast(x)  # specializes: searches, builds, loads
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = fast(x)
        x.copy_(torch.rand(4, 64, device="cuda").half())
        graph.replay()
        torch.cuda.synchronize()
        assert _rel(out, m(x)) < F16_TOL
        # A weight changed in place is seen by the next replay.
        m.w.mul_(2.0)
        graph.replay()
        torch.cuda.synchronize()
        assert _rel(out, m(x)) < F16_TOL


def test_reduce_overhead_replays(tmp_path: Path) -> None:
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    m = NormLinear(tail=False).cuda().half()
    # torch.compile takes a mode or options, not both: the mode goes in the options.
    fast = torch.compile(
        m, backend="mirage", options={"cache_dir": str(tmp_path), "mode": "reduce-overhead"}
    )
    with torch.no_grad():
        for seed in range(3):
            gen = torch.Generator("cuda").manual_seed(seed)
            x = torch.rand(4, 64, device="cuda", generator=gen).half()
            assert _rel(fast(x), m(x)) < F16_TOL
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    plain = torch.compile(m, backend="mirage", mode="reduce-overhead")
    with torch.no_grad():
        x = torch.rand(4, 64, device="cuda").half()
        assert _rel(plain(x), m(x)) < F16_TOL
