// REQUIRES: torch-mlir-opt
// Generic output parses in a real MLIR parser, and what MLIR prints back (properties
// reordered, values renamed) parses here into the same programs: the CHECK lines of the ops
// files match it.
// RUN: mirage-opt %S/kernel_ops.mlir --print-op-generic | torch-mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | mirage-opt | FileCheck %S/kernel_ops.mlir
// RUN: mirage-opt %S/block_ops.mlir --print-op-generic | torch-mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | mirage-opt | FileCheck %S/block_ops.mlir
// RUN: mirage-opt %S/thread_ops.mlir --print-op-generic | torch-mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | mirage-opt | FileCheck %S/thread_ops.mlir
// RUN: mirage-opt %S/block_ops.mlir --print-op-generic | torch-mlir-opt --allow-unregistered-dialect | FileCheck %s

// CHECK: "kernel.graph"(%{{.*}}) <{block = array<i64: 128, 1, 1>, forloop_range = 4 : i64, grid = array<i64: 2, 2, 1>}>
// CHECK: "block.input"(%{{.*}}) <{forloop_dim = 1 : i64, imap = array<i64: 0, 1, -1>}>
// CHECK: "block.mul_scalar"(%{{.*}}) <{scalar = 5.000000e-01 : f64}>
// CHECK: "block.reduce_sum"(%{{.*}}) <{dim = 1 : i64, size = 16 : i64}>
