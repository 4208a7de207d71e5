#!/usr/bin/env bash
# The corpus's found μGraphs (a folder written by `corpus.py --save`) checked and timed on a
# machine with one GPU, python3, torch, cuda-python and numpy, where this checkout need not
# be installed: one process per program (one that hangs loses only its own row), each
# under a time limit, then one table of them all; $OUT (default /tmp/corpus_gpu) gets two
# files, whatever the number of programs: corpus_gpu.json (every program's record) and
# corpus_gpu.log (every program's output). Wheels in .whl/ (xdsl, z3-solver and their pure-Python needs, for machines
# without network access) are installed into a private folder first.
#
#   benchmarks/corpus_gpu.sh DIR [NAME ...]     # default: every program DIR holds
set -u -o pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/corpus_gpu}
LIMIT=${LIMIT:-150}
dir=$1
shift
mkdir -p "$OUT"
work=$(mktemp -d)
: >"$OUT/corpus_gpu.log"

# `mirage` is a namespace package assembled from the top-level folders (see pyproject.toml).
ns=$(mktemp -d)
mkdir -p "$ns/mirage"
for d in dialects passes lowering tools; do ln -s "$PWD/$d" "$ns/mirage/$d"; done
ln -s "$PWD/torch_backend" "$ns/mirage/torch"
if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/mirage-site .whl/*.whl || exit 1
  export PYTHONPATH="/tmp/mirage-site:${PYTHONPATH:-}"
fi
export PYTHONPATH="$ns:${PYTHONPATH:-}"

names=("$@")
if [ "${#names[@]}" -eq 0 ]; then
  for f in "$dir"/*_f16.mlir; do
    n=$(basename "$f" _f16.mlir)
    names+=("$n")
  done
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || echo "corpus_gpu.sh: nvidia-smi found no GPU"
for n in "${names[@]}"; do
  timeout -k 5 "$LIMIT" python3 benchmarks/corpus.py --gpu --load "$dir" "$n" \
    --json "$work/$n.json" >"$work/$n.log" 2>&1
  status=$?
  [ "$status" -eq 0 ] || echo "$n: exit $status"
  { echo "== $n (exit $status)"; cat "$work/$n.log"; } >>"$OUT/corpus_gpu.log"
done
python3 - "$work" "$OUT/corpus_gpu.json" "${names[@]}" <<'EOF'
import json, sys
from pathlib import Path
work, out, names = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
rows = {}
for n in names:
    f = work / f"{n}.json"
    rows[n] = json.loads(f.read_text()) if f.exists() else []
out.write_text(json.dumps([r for n in names for r in rows[n]], indent=1))
print("| program | launches | expert | ours µs | eager µs | torch.compile µs | compile/ours | error | correct |")
print("|---|---|---|---|---|---|---|---|---|")
for n in names:
    if not rows[n]:
        print(f"| {n} | — | — | — | — | — | — | — | no record (see corpus_gpu.log) |")
    for r in rows[n]:
        g = r.get("gpu") or {}
        if not g:
            print(f"| {r['name']} | {r['launches_out']} | {r['expert']} | — | — | — | — | — | {r.get('error') or 'no GPU row'} |")
            continue
        print(f"| {r['name']} | {r['launches_out']} | {r['expert']} | {g['us']:.2f} | {g['eager_us']:.2f} "
              f"| {g['compile_us']:.2f} | {g['compile_us'] / g['us']:.2f}x | {g['rel_error']:.1e} | {g['correct']} |")
EOF
