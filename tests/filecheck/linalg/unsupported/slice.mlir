// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// A static slice of unit strides is a kernel.slice; one of stride 2 has no kernel form.
// CHECK: slice.mlir:8:3: error: 'tensor.extract_slice' op has strides [2, 1]; only unit strides are supported
func.func @slice(%x: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 8] [2, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
