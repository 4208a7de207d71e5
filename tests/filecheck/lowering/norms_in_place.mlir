// RUN: mirage-opt %S/../../lowering/data/norms.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/norms.mlir -t ptx | FileCheck %s --check-prefix=PTX

// A norm read element by element keeps a tile of its row scales only (one f32 a row, here
// 6 rows a block); its task writes the scales, the output reads them with the norm's
// input and gain. The loop runs once: its accumulator is its operand (fused, no task).
// CHECK-LABEL: func.func @norm_in_place
// CHECK: norms [[[NORM:[0-9]+]] = [[SCALES:[0-9]+]]]
// CHECK-SAME: tiles [[[SCALES]] = #mirage.tile<1x6x1xf32
// CHECK-SAME: pre [], invariant [], loop [#mirage.task<rms_norm 3 [3, 4] -> [[[SCALES]]] phase 0>]
// CHECK-SAME: post [#mirage.task<output 7 [3, 4, 5, [[SCALES]]] -> [] phase 0>]
// CHECK: block.rms_norm {{.*}} {mirage.fused}
// CHECK: block.accum_max {{.*}} {mirage.fused}

// The norm that a matmul's epilogue reads: the matmul stores its epilogue (no accumulator
// to zero), its task reads the scales.
// CHECK-LABEL: func.func @norm_in_epilogue
// CHECK: norms [[[NORM2:[0-9]+]] = [[SCALES2:[0-9]+]]]
// CHECK-SAME: tiles [[[SCALES2]] = #mirage.tile<32x1xf32
// CHECK-SAME: pre []
// CHECK-SAME: #mirage.task<matmul 3 [3, 4, 5, [[SCALES2]]]

// In the PTX, the one store to shared memory of norm_in_place's kernel is a row's scale.
// PTX-LABEL: .entry norm_in_place_k0(
// PTX: rsqrt.approx.f32
// PTX-NEXT: st.shared.b32
// PTX-NOT: st.shared
// PTX: st.global
// PTX-LABEL: .entry norm_in_epilogue_k0(
