// REQUIRES: ptxas
// ptxas assembles the wgmma kernels for sm_90a: with tensor-map loads and a producer warp,
// and with cp.async loads (A from registers, B of a partial panel; bf16 through an epilogue).
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "cubin{arch=sm_90a loads=tma matmuls=wgmma function=plain}" | FileCheck %s --check-prefix=TMA
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "cubin{arch=sm_90a loads=tma matmuls=wgmma function=two_groups}" | FileCheck %s --check-prefix=TWO
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "cubin{arch=sm_90a matmuls=wgmma function=skinny}" | FileCheck %s --check-prefix=CP
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "cubin{arch=sm_90a loads=tma matmuls=wgmma function=epilogue}" | FileCheck %s --check-prefix=CUBIN
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "cubin{arch=sm_90a matmuls=wgmma function=batched_max}" | FileCheck %s --check-prefix=CUBIN
// RUN: mirage-opt %S/../../../benchmarks/found/gqa_b1.mlir -t "cubin{arch=sm_90a loads=tma matmuls=wgmma function=ugraph}" | FileCheck %s --check-prefix=CUBIN
// RUN: mirage-opt %S/../../../benchmarks/found/rmsnorm_linear_b8.mlir -t "cubin{arch=sm_90a loads=tma matmuls=wgmma function=ugraph}" | FileCheck %s --check-prefix=CUBIN

// TMA: "arch": "sm_90a"
// TMA: {"name": "plain_k0", "grid": [4, 2, 1], "block": [160, 1, 1]
// TMA-SAME: "tensor_maps": [{"buffer": 0, "dims": [1024, 128], "strides": [2048], "box": [64, 64], "swizzle": 128, "dtype": "f16"}, {"buffer": 1, "dims": [512, 1024], "strides": [1024], "box": [64, 64], "swizzle": 128, "dtype": "f16"}]
// TMA: wgmma.mma_async.sync.aligned.m64n128k16
// TMA: "cubin_base64": "f0VMR

// TWO: "block": [288, 1, 1]
// TWO: "cubin_base64": "f0VMR

// CP: {"name": "skinny_k0", "grid": [16, 1, 1], "block": [128, 1, 1]
// CP: wgmma.mma_async.sync.aligned.m64n96k16
// CP: "cubin_base64": "f0VMR

// CUBIN: wgmma.mma_async.sync.aligned
// CUBIN: "cubin_base64": "f0VMR
