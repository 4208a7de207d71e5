"""Find the places that decide what to do by testing for a particular op kind.

A kind test is a comparison with a kind's name (`kind == "mul_scalar"`, `"exp" != k`), a
membership test in a literal of names (`kind in ("add", "mul")`), a table keyed by kind names
(`{"exp": ...}`), a literal set of names (`frozenset({"add", "sub"})`), a prefix test
(`kind.startswith("accum_")`), or an `isinstance` / `match` on a kind's op class
(`isinstance(op, block.ExpOp)`). Structural ops (`graph`, `fuse`, `for_loop`, `yield`,
`return`) are the IR's skeleton, not kinds, and are not counted.

`python tests/registry/kind_dispatch.py` prints the count per file and in all, over the
five source folders; the registry and the dialect definitions are left out.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("dialects", "passes", "lowering", "tools", "torch_backend")
EXEMPT = {
    # the registry and the dialect definitions
    "dialects/opkinds.py",
    "dialects/kernel.py",
    "dialects/block.py",
    "dialects/thread.py",
    "dialects/common.py",
    "dialects/elementwise.py",
}

KIND_NAMES = frozenset(
    {
        *("exp", "square", "sqrt", "rsqrt", "silu", "gelu", "relu", "tanh", "sigmoid"),
        *("add", "sub", "mul", "div", "pow", "max"),
        *("matmul", "mul_scalar", "reduce_sum", "reduce_max", "rms_norm", "concat"),
        *("constant", "transpose", "reshape", "slice", "input", "output"),
        *("accum_sum", "accum_max", "accum_sum_last", "accum_mean_last", "accum_rms_last"),
        "accum_rescale",
    }
)
KIND_PREFIXES = ("accum_", "reduce_")
KIND_CLASS = re.compile(
    r"\b(?:kernel|block|thread|krn|blk|thr|k|b|t)\.(?!GraphOp|ForLoopOp|YieldOp|ReturnOp|FuseOp)"
    r"[A-Z]\w*Op\b"
)
ISINSTANCE = re.compile(r"\bisinstance\(")


def _string_value(tok: tokenize.TokenInfo) -> str | None:
    s = tok.string
    if not s or s[0] not in "'\"" or s.startswith(('"""', "'''")):
        return None
    return s[1:-1]


def kind_tests(source: str) -> list[int]:
    """The line numbers of every kind test in `source` (one entry per test)."""
    toks = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT)
    ]
    hits: list[int] = []
    stack: list[int] = []  # indices of open brackets
    counted_brackets: set[int] = set()
    for i, tok in enumerate(toks):
        if tok.type == tokenize.OP and tok.string in "([{":
            stack.append(i)
            continue
        if tok.type == tokenize.OP and tok.string in ")]}":
            if stack:
                stack.pop()
            continue
        value = _string_value(tok) if tok.type == tokenize.STRING else None
        if value is None:
            continue
        is_kind = value in KIND_NAMES
        is_prefix = value in KIND_PREFIXES
        if not (is_kind or is_prefix):
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if is_prefix:
            if (
                prev is not None
                and prev.string == "("
                and i >= 2
                and toks[i - 2].string
                in (
                    "startswith",
                    "removeprefix",
                )
            ):
                hits.append(tok.start[0])
            continue
        if prev is not None and prev.string in ("==", "!=", "is", "case"):
            hits.append(tok.start[0])
            continue
        if nxt is not None and nxt.string in ("==", "!="):
            hits.append(tok.start[0])
            continue
        if nxt is not None and nxt.string == ":" and stack and toks[stack[-1]].string == "{":
            hits.append(tok.start[0])  # a table keyed by kind
            continue
        if prev is not None and prev.string == "in":
            hits.append(tok.start[0])  # `x in "exp"` is odd but still a test
            continue
        if not stack:
            continue
        opener = stack[-1]
        before = toks[opener - 1] if opener else None
        # A literal of names: a membership test, a set or a frozenset of kinds.
        if before is not None and before.string in ("in", "frozenset", "set", "=", "|", "&"):
            counted_brackets.add(opener)
            hits.append(tok.start[0])
            continue
        if (
            toks[opener].string == "{"
            and before is not None
            and before.string == "("
            and opener >= 2
            and toks[opener - 2].string in ("frozenset", "set")
        ):
            hits.append(tok.start[0])  # frozenset({...})
            continue
    for lineno, line in enumerate(source.splitlines(), 1):
        if ISINSTANCE.search(line) or re.search(r"^\s*case\b", line):
            hits.extend(lineno for _ in KIND_CLASS.finditer(line))
    return hits


def count(root: Path = ROOT) -> Counter[str]:
    found: Counter[str] = Counter()
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel in EXEMPT:
                continue
            n = len(kind_tests(path.read_text()))
            if n:
                found[rel] = n
    return found


def mul_scalar_files(root: Path = ROOT) -> list[str]:
    return sorted(
        path.relative_to(root).as_posix()
        for folder in SOURCE_DIRS
        for path in (root / folder).rglob("*.py")
        if '"mul_scalar"' in path.read_text()
    )


def main() -> int:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    found = count(root)
    for rel, n in found.most_common():
        print(f"{n:4d}  {rel}")
    print(f"kind tests: {sum(found.values())} in {len(found)} files")
    ms = mul_scalar_files(root)
    print(f'"mul_scalar" in {len(ms)} source files: {", ".join(ms)}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
