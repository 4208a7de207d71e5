#!/usr/bin/env bash
# On a GPU machine where this checkout is not installed: check and time the programs that
# `python benchmarks/lowering_gpu.py --build DIR` built (on any machine), with only numpy and
# cuda-python. Usage: benchmarks/lowering_gpu.sh DIR [lowering_gpu.py --check options]
set -u -o pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
ns=$(mktemp -d)
mkdir -p "$ns/mirage"
for d in dialects passes lowering tools; do ln -s "$PWD/$d" "$ns/mirage/$d"; done
export PYTHONPATH="$ns:${PYTHONPATH:-}"
dir=$1
shift
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 benchmarks/lowering_gpu.py "$dir" --check "$@"
