// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear_small.mlir -p lower-to-llvm | FileCheck %s

// Host functions take one pointer per buffer (inputs, outputs, intermediates) and launch
// kernels of one gpu.module; every plain kernel op got a kernel of its own.
// CHECK: builtin.module attributes {gpu.container_module}
// CHECK: func.func @program(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME: mirage.buffers = [tensor<4x64xf16>, tensor<64x96xf16>, tensor<4x96xf16>, tensor<4x64xf16>]
// CHECK-SAME: mirage.num_inputs = 2 : i64, mirage.num_outputs = 1 : i64
// CHECK: "gpu.launch_func"({{.*}}) <{kernel = @mirage_kernels::@program_k0
// CHECK: "gpu.launch_func"({{.*}}) <{kernel = @mirage_kernels::@program_k1
// CHECK: func.func @ugraph
// CHECK: "gpu.launch_func"({{.*}}) <{kernel = @mirage_kernels::@ugraph_k0
// CHECK: "gpu.module"() <{sym_name = "mirage_kernels"}>
// CHECK: llvm.mlir.global external @mirage_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @program_k0(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK: llvm.func @ugraph_k0
// CHECK: llvm.call_intrinsic "llvm.nvvm.cp.async.cg.shared.global.16"
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
// CHECK-NOT: nvvm.read.ptx
// CHECK-NOT: nvvm.mma.sync
