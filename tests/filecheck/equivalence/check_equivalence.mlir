// RUN: mirage-opt %s -p 'check-equivalence{reference=program candidate=ugraph}' | filecheck %s
// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear_small.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | filecheck %s --check-prefix=FIXTURE
// RUN: mirage-opt %S/../../fixtures/attention_small.mlir -p 'check-equivalence{reference=program candidate=ugraph seed=3}' | filecheck %s --check-prefix=FIXTURE

// An equivalent candidate: the module comes out unchanged.

// CHECK:      func.func @program(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:   %n = kernel.rms_norm %x : tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT:   %y = kernel.matmul %n, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
// CHECK:      func.func @ugraph
// CHECK:        block.accum_rms_last
// CHECK:        block.div %acc, %rms
// FIXTURE:    func.func @program
// FIXTURE:    func.func @ugraph

func.func @program(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %n = kernel.rms_norm %x : tensor<4x16xf32> -> tensor<4x16xf32>
  %y = kernel.matmul %n, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

func.func @ugraph(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x16xf32>, %gw: tensor<16x8xf32>):
    %acc, %rms = block.for_loop : tensor<4x4xf32>, tensor<4x1xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<4x4xf32>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<16x8xf32> -> tensor<4x4xf32>
      %p = block.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %a = block.accum_sum %p : tensor<4x4xf32> -> tensor<4x4xf32>
      %b = block.accum_rms_last %xt : tensor<4x4xf32> -> tensor<4x1xf32>
      block.yield %a, %b : tensor<4x4xf32>, tensor<4x1xf32>
    }
    %y = block.div %acc, %rms : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = block.output %y omap [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
