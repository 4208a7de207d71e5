// REQUIRES: ptxas
// ptxas assembles the TMA kernels for sm_90a; the descriptor lists the tensor maps the
// runtime encodes (buffer, dims and box innermost first, row stride in bytes).
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "cubin{arch=sm_90a loads=tma function=stream}" | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "cubin{arch=sm_90a loads=tma function=stream_wide}" | FileCheck %s --check-prefix=WIDE
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "cubin{arch=sm_90a loads=tma function=running_max}" | FileCheck %s --check-prefix=MAX

// CHECK: "arch": "sm_90a"
// CHECK: {"name": "stream_k0", "grid": [128, 1, 1], "block": [160, 1, 1], "shared_bytes": 165120, "args": [0, 1, 2], "tensor_maps": [{"buffer": 0, "dims": [4096, 16], "strides": [8192], "box": [64, 16], "swizzle": 128, "dtype": "f16"}, {"buffer": 1, "dims": [8192, 4096], "strides": [16384], "box": [64, 64], "swizzle": 128, "dtype": "f16"}]}
// CHECK: "cubin_base64": "f0VMR

// WIDE: "block": [160, 1, 1]
// WIDE-SAME: {"buffer": 1, "dims": [8192, 4096], "strides": [16384], "box": [64, 64], "swizzle": 128, "dtype": "f16"}
// WIDE: "cubin_base64": "f0VMR

// MAX: "block": [160, 1, 1]
// MAX: "cubin_base64": "f0VMR
