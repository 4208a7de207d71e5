#!/usr/bin/env bash
# The runtime's GPU checks and the harness's validation against docs/MEASURING.md, in one go, on a
# machine with a GPU, python3, cuda-python, numpy and torch, where this checkout need not be
# installed. Wheels in .whl/ (xdsl and its pure-Python needs, for machines without network
# access) are installed into a private folder first. Logs go to $LOGS (default /tmp).
set -u -o pipefail
cd "$(dirname "$0")/.."
LOGS=${LOGS:-/tmp}
export PYTHONUNBUFFERED=1

# `mirage` is a namespace package assembled from the top-level folders (see pyproject.toml).
ns=$(mktemp -d)
mkdir -p "$ns/mirage"
for d in dialects passes lowering tools; do ln -s "$PWD/$d" "$ns/mirage/$d"; done
if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/mirage-site .whl/*.whl || exit 1
  export PYTHONPATH="/tmp/mirage-site:${PYTHONPATH:-}"
fi
export PYTHONPATH="$ns:${PYTHONPATH:-}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 - <<'EOF'
import cuda.bindings, numpy
from mirage.lowering.runtime.cubin_cache import find_assembler
a = find_assembler()
print("cuda-bindings", cuda.bindings.__version__, "numpy", numpy.__version__,
      "assembler", a.name if a else None)
EOF

timeout 200 python3 -m pytest -m gpu --noconftest --continue-on-collection-errors \
  -p no:cacheprovider -q -rs tests/runtime 2>&1 | tee "$LOGS/runtime_gpu_tests.log"

python3 - <<'EOF'
import sys
sys.path.insert(0, "tests")
from runtime.runtime_kernels import scale_add_program
scale_add_program(1 << 24, "f16", block=256).save("/tmp/scale_add_16M_f16.json")
EOF
timeout 240 python3 benchmarks/run_gpu.py --bandwidth --program /tmp/scale_add_16M_f16.json \
  --baseline rmsnorm_linear:b1 --baseline gated_mlp "$@" 2>&1 | tee "$LOGS/run_gpu.log"
