// RUN: mirage-opt %S/../../lowering/data/long_k.mlir -p "plan-ugraph{arch=sm_80}" | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/direct_outputs.mlir -p "plan-ugraph{arch=sm_80}" | FileCheck %s --check-prefix=LORA
// RUN: mirage-opt %S/../../lowering/data/long_k.mlir -p "plan-ugraph{arch=sm_80}" | mirage-opt -p "convert-kernel-to-gpu{arch=sm_80},convert-nvvm-to-llvm" -t "ptx{arch=sm_80}" | FileCheck %s --check-prefix=PTX

// Tiles that ldmatrix reads with rows of 64 or 32 bytes are swizzled at their row width
// rather than padded; longer rows keep an odd number of 16-byte chunks.
// CHECK-LABEL: func.func @long_k
// CHECK: block.input {{.*}}#mirage.tile<16x256xf16, offset {{[0-9]+}}, pitch 264>
// CHECK: block.input {{.*}}#mirage.tile<256x32xf16, offset {{[0-9]+}}, swizzle 64>
// CHECK-LABEL: func.func @long_k_looped
// CHECK: block.input {{.*}}#mirage.tile<96x32xbf16, offset {{[0-9]+}}, stages 3, swizzle 64>

// A's 128 rows of 32 bytes take the 32-byte swizzle; W's rows of 80 bytes (an odd number of
// chunks already) and the 20 rows of the product x A (less than one atom) stay as they are.
// LORA-LABEL: func.func @lora_ragged
// LORA: block.input {{.*}}#mirage.tile<128x40xf16, offset {{[0-9]+}}>
// LORA: block.input {{.*}}#mirage.tile<128x16xf16, offset {{[0-9]+}}, swizzle 32>
// LORA: block.matmul {{.*}}#mirage.tile<20x16xf16, offset {{[0-9]+}}, pitch 24>

// The swizzle is an XOR of the chunk index in the addresses of the copies and of ldmatrix.
// PTX-LABEL: .entry long_k_k0(
// PTX: xor.b32
// PTX: cp.async.cg.shared.global
// PTX: ldmatrix.sync.aligned
