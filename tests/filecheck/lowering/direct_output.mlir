// RUN: mirage-opt %S/../../lowering/data/direct_outputs.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/direct_outputs.mlir -p plan-ugraph | mirage-opt -p convert-kernel-to-gpu,convert-nvvm-to-llvm -t ptx | FileCheck %s --check-prefix=PTX

// LoRA's last product stores the block output from its registers: its epilogue (the add
// of x W, the one-step accumulator) is fused, nothing runs after the loop, and the kernel
// has the one barrier between the products.
// CHECK-LABEL: func.func @lora_ragged
// CHECK: kernel.graph
// CHECK-SAME: post []>
// CHECK-SAME: mirage.barriers = 2 : i64
// CHECK: block.matmul {{.*}}#mirage.mma<mma.sync.m16n8k16 warps {{.*}} store, a 4, b 5, target 8>
// CHECK: block.matmul {{.*}}#mirage.mma<mma.sync.m16n8k16 warps {{.*}} store, a 4, b 6, target 9>
// CHECK: block.matmul {{.*}}mirage.fused, mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps 1x2x1x1 global, a 9, b 7, target 13>
// CHECK: block.add {{.*}}mirage.fused
// CHECK-LABEL: func.func @gated_once
// CHECK: post [#mirage.task<output

// PTX-LABEL: .entry lora_ragged_k0(
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16
// PTX: bar.sync
// PTX: mma.sync.aligned.m16n8k16
// PTX-NOT: bar.sync
// PTX-NOT: st.shared
// PTX: st.global.b32
// PTX-NOT: st.global.b16
// PTX: ret;
