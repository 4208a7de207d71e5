// Input iterators and output savers that read and write through strided views: nn.Linear's
// weight read transposed in place, heads split by view/transpose, and the heads merged back
// into the output.
builtin.module {
  func.func @transposed_weight(%x: tensor<8x64xf32>, %w: tensor<96x64xf32>, %bias: tensor<1x96xf32>) -> tensor<8x96xf32> {
    %y = kernel.graph(%x, %w, %bias) grid [8, 6, 1] block [128, 1, 1] forloop 4 : (tensor<8x64xf32>, tensor<96x64xf32>, tensor<1x96xf32>) -> tensor<8x96xf32> {
    ^bb0(%gx: tensor<8x64xf32>, %gw: tensor<96x64xf32>, %gb: tensor<1x96xf32>):
      %acc = block.for_loop : tensor<1x16xf32> {
        %xt = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<8x64xf32> -> tensor<1x16xf32>
        %wt = block.input %gw imap [-1, 1, -1] forloop_dim 0 view [64, 96] strides [1, 64] : tensor<96x64xf32> -> tensor<16x16xf32>
        %p = block.matmul %xt, %wt : tensor<1x16xf32>, tensor<16x16xf32> -> tensor<1x16xf32>
        %a = block.accum_sum %p : tensor<1x16xf32> -> tensor<1x16xf32>
        block.yield %a : tensor<1x16xf32>
      }
      %o = block.output %acc omap [0, 1, -1] : tensor<1x16xf32> -> tensor<8x96xf32>
      block.return %o : tensor<8x96xf32>
    }
    func.return %y : tensor<8x96xf32>
  }
  func.func @head_split_attention(%0: tensor<2x16x64xf32>, %1: tensor<2x16x64xf32>, %2: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
      %3 = kernel.graph(%0, %1, %2) grid [16, 2, 4] block [128, 1, 1] forloop 1 : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
      ^bb0(%4: tensor<2x16x64xf32>, %5: tensor<2x16x64xf32>, %6: tensor<2x16x64xf32>):
        %7, %8 = block.for_loop : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> {
          %9 = block.input %4 imap [2, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<2x16x64xf32> -> tensor<1x1x1x16xf32>
          %10 = block.input %5 imap [-1, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 1, 64] : tensor<2x16x64xf32> -> tensor<1x1x16x16xf32>
          %11 = block.input %6 imap [-1, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<2x16x64xf32> -> tensor<1x1x16x16xf32>
          %12 = block.matmul %9, %10 : tensor<1x1x1x16xf32>, tensor<1x1x16x16xf32> -> tensor<1x1x1x16xf32>
          %13 = block.mul_scalar %12, 2.500000e-01 : tensor<1x1x1x16xf32> -> tensor<1x1x1x16xf32>
          %14 = block.reduce_max %13 dim 3 : tensor<1x1x1x16xf32> -> tensor<1x1x1x1xf32>
          %15 = thread.fuse(%13, %14) : (tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x16xf32> {
          ^bb0(%16: f32, %17: f32):
            %18 = thread.sub %16, %17 : f32
            %19 = thread.exp %18 : f32
            thread.yield %19 : f32
          }
          %20 = block.matmul %15, %11 : tensor<1x1x1x16xf32>, tensor<1x1x16x16xf32> -> tensor<1x1x1x16xf32>
          %21 = block.reduce_sum %15 dim 3 : tensor<1x1x1x16xf32> -> tensor<1x1x1x1xf32>
          %22 = block.accum_rescale %20, %14 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x16xf32>
          %23 = block.accum_rescale %21, %14 : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
          block.yield %22, %23 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>
        }
        %24 = block.div %7, %8 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x16xf32>
        %25 = block.output %24 omap [2, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<1x1x1x16xf32> -> tensor<2x16x64xf32>
        block.return %25 : tensor<2x16x64xf32>
      }
      func.return %3 : tensor<2x16x64xf32>
    }

  // nn.Linear in f16: W (5120, 4096) read as its transpose; tensor cores take the transposed
  // tile stored in W's own order (16-byte copies, ldmatrix without .trans)
  func.func @linear_f16(%x: tensor<16x4096xf16>, %w: tensor<5120x4096xf16>) -> tensor<16x5120xf16> {
    %y = kernel.graph(%x, %w) grid [80, 1, 1] block [128, 1, 1] forloop 64 : (tensor<16x4096xf16>, tensor<5120x4096xf16>) -> tensor<16x5120xf16> {
    ^bb0(%gx: tensor<16x4096xf16>, %gw: tensor<5120x4096xf16>):
      %acc = block.for_loop : tensor<16x64xf32> {
        %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x64xf16>
        %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 view [4096, 5120] strides [1, 4096] : tensor<5120x4096xf16> -> tensor<64x64xf16>
        %p = block.matmul %xt, %wt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
        %a = block.accum_sum %p : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %a : tensor<16x64xf32>
      }
      %o = block.output %acc omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x5120xf16>
      block.return %o : tensor<16x5120xf16>
    }
    func.return %y : tensor<16x5120xf16>
  }
  // scores q k^T in f16 with k stored (batch, keys, dim): batched transposed B tiles
  func.func @scores_f16(%q: tensor<2x64x64xf16>, %k: tensor<2x128x64xf16>) -> tensor<2x64x128xf16> {
    %s = kernel.graph(%q, %k) grid [4, 2, 2] block [128, 1, 1] forloop 1 : (tensor<2x64x64xf16>, tensor<2x128x64xf16>) -> tensor<2x64x128xf16> {
    ^bb0(%gq: tensor<2x64x64xf16>, %gk: tensor<2x128x64xf16>):
      %p = block.for_loop : tensor<1x16x64xf32> {
        %qt = block.input %gq imap [1, -1, 0] : tensor<2x64x64xf16> -> tensor<1x16x64xf16>
        %kt = block.input %gk imap [-1, 2, 0] view [2, 64, 128] strides [8192, 1, 64] : tensor<2x128x64xf16> -> tensor<1x64x64xf16>
        %m = block.matmul %qt, %kt : tensor<1x16x64xf16>, tensor<1x64x64xf16> -> tensor<1x16x64xf32>
        %a = block.accum_sum %m : tensor<1x16x64xf32> -> tensor<1x16x64xf32>
        block.yield %a : tensor<1x16x64xf32>
      }
      %o = block.output %p omap [1, 2, 0] : tensor<1x16x64xf32> -> tensor<2x64x128xf16>
      block.return %o : tensor<2x64x128xf16>
    }
    func.return %s : tensor<2x64x128xf16>
  }
  // linear_f16 with W given as (4096, 5120), no view: the same bytes and accesses
  func.func @linear_f16_kn(%x: tensor<16x4096xf16>, %w: tensor<4096x5120xf16>) -> tensor<16x5120xf16> {
    %y = kernel.graph(%x, %w) grid [80, 1, 1] block [128, 1, 1] forloop 64 : (tensor<16x4096xf16>, tensor<4096x5120xf16>) -> tensor<16x5120xf16> {
    ^bb0(%gx: tensor<16x4096xf16>, %gw: tensor<4096x5120xf16>):
      %acc = block.for_loop : tensor<16x64xf32> {
        %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x64xf16>
        %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<4096x5120xf16> -> tensor<64x64xf16>
        %p = block.matmul %xt, %wt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
        %a = block.accum_sum %p : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %a : tensor<16x64xf32>
      }
      %o = block.output %acc omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x5120xf16>
      block.return %o : tensor<16x5120xf16>
    }
    func.return %y : tensor<16x5120xf16>
  }
}
