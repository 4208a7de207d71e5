"""Fuzzing mirage-opt: valid modules and pass options, mutated (tokens dropped, swapped or
duplicated, numbers out of range, files truncated). Whatever comes in, the tool exits 0 or
1, prints no traceback and no `internal error`, and leaves no output file unless it
succeeded (and no temporary file either).

Searches are kept to `time-budget=0` with one worker so that the examples stay quick: the
point is the handling of what comes in, not the search.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from tool_runner import opt

MODULES = [
    (FIXTURES / "rmsnorm_linear_small.mlir").read_text(),
    """
func.func @program(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
func.func @ugraph(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %m = kernel.mul_scalar %x scalar 1.0 : tensor<8x64xf32> -> tensor<8x64xf32>
  %e = kernel.exp %m : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
""",
]

PASSES: list[tuple[str, list[str]]] = [
    (
        "check-equivalence",
        [
            "reference=program",
            "candidate=ugraph",
            "seed=3",
            "error-bound=1.0e-6",
            "stability=false",
        ],
    ),
    (
        "superoptimize",
        ["max-kernel-ops=2", "max-block-ops=6", "keep=1", "target=sm_80", "seed=2", 'cache=""'],
    ),
    ("annotate-abstract-expr", []),
    ("convert-kernel-to-linalg", []),
    ("wrap-kernel-ops", []),
]

OUT_OF_RANGE = ["-1", "0", "-0.0", "1.5", "99999999999999999999", "1.0e308", "2", "-7"]
_TOKEN = re.compile(r"\s+|[%@^#]?[\w.]+|\S")
_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


@st.composite
def mutated(draw: st.DrawFn, tokens: list[str]) -> list[str]:
    """`tokens` after a few drops, swaps, duplications and number replacements."""
    tokens = list(tokens)
    for _ in range(draw(st.integers(0, 3))):
        if not tokens:
            break
        kind = draw(st.sampled_from(["drop", "swap", "duplicate", "number"]))
        i = draw(st.integers(0, len(tokens) - 1))
        if kind == "drop":
            del tokens[i]
        elif kind == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "duplicate":
            tokens.insert(i, tokens[i])
        else:
            numbers = [k for k, t in enumerate(tokens) if _NUMBER.search(t)]
            if numbers:
                k = draw(st.sampled_from(numbers))
                tokens[k] = _NUMBER.sub(draw(st.sampled_from(OUT_OF_RANGE)), tokens[k], count=1)
    return tokens


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(st.sampled_from(MODULES))
    if draw(st.booleans()):
        text = "".join(draw(mutated(_TOKEN.findall(text))))
    if draw(st.integers(0, 4)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # truncated
    name, options = draw(st.sampled_from(PASSES))
    if draw(st.booleans()):
        options = draw(mutated(options))
    if name == "superoptimize":
        keep = [o for o in options if "time" not in o and "workers" not in o]
        options = [*keep, "time-budget=0", "workers=1"]
    pipeline = f"{name}{{{' '.join(options)}}}" if options else name
    return text, pipeline


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cases())
def test_mutated_input_is_handled(case: tuple[str, str], tmp_path: Path) -> None:
    text, pipeline = case
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    source = folder / "in.mlir"
    source.write_text(text)
    out = folder / "out.mlir"
    result = opt(str(source), "-p", pipeline, "-o", str(out))
    assert result.status in (0, 1), (pipeline, result.err)
    assert result.clean, (pipeline, result.err)
    if result.status == 1:
        assert result.err.strip(), pipeline
        assert not out.exists(), pipeline
    left = sorted(p.name for p in folder.iterdir())
    assert left in (["in.mlir"], ["in.mlir", "out.mlir"]), left
