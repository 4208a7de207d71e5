// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// CHECK: slice.mlir:7:3: error: 'tensor.extract_slice' op is not supported by convert-linalg-to-kernel
func.func @slice(%x: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
