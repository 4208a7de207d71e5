// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear_small.mlir -t llvm | FileCheck %s

// The xDSL llvm backend's output with the GPU fix-ups: kernels use the ptx_kernel calling
// convention and carry their block size; shared memory is an opaque addrspace(3) global.
// CHECK: target triple = "nvptx64-nvidia-cuda"
// CHECK: @"mirage_smem" = external addrspace(3) global [0 x i8], align 16
// CHECK: define ptx_kernel void @"program_k0"(ptr addrspace(1) %{{.*}}, ptr addrspace(1) %{{.*}}) "nvvm.maxntid"="128,1,1"
// CHECK: getelementptr inbounds i8, ptr addrspace(3) @"mirage_smem"
// CHECK: call void @"llvm.nvvm.cp.async.cg.shared.global.16"(ptr addrspace(3)
