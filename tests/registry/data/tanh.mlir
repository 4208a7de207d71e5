// tanh at the kernel, block and thread levels; @wrong is silu where tanh belongs.
func.func @program(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %m = kernel.matmul %x, %w : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
  %t = kernel.tanh %m : tensor<8x32xf16> -> tensor<8x32xf16>
  func.return %t : tensor<8x32xf16>
}

func.func @ugraph(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %y = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16> {
  ^bb0(%gx: tensor<8x64xf16>, %gw: tensor<64x32xf16>):
    %acc = block.for_loop : tensor<8x16xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<64x32xf16> -> tensor<16x16xf16>
      %xw = block.matmul %xt, %wt : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf32>
      %a = block.accum_sum %xw : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %a : tensor<8x16xf32>
    }
    %yt = thread.fuse(%acc) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%v: f32):
      %o = thread.tanh %v : f32
      thread.yield %o : f32
    }
    %out = block.output %yt omap [1, -1, -1] : tensor<8x16xf32> -> tensor<8x32xf16>
    block.return %out : tensor<8x32xf16>
  }
  func.return %y : tensor<8x32xf16>
}

func.func @block_level(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.graph(%x) grid [8, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%gx: tensor<8x64xf32>):
    %t = block.for_loop : tensor<1x64xf32> {
      %xt = block.input %gx imap [0, -1, -1] forloop_dim -1 : tensor<8x64xf32> -> tensor<1x64xf32>
      %h = block.tanh %xt : tensor<1x64xf32> -> tensor<1x64xf32>
      %a = block.accum_sum %h : tensor<1x64xf32> -> tensor<1x64xf32>
      block.yield %a : tensor<1x64xf32>
    }
    %out = block.output %t omap [0, -1, -1] : tensor<1x64xf32> -> tensor<8x64xf32>
    block.return %out : tensor<8x64xf32>
  }
  func.return %y : tensor<8x64xf32>
}

func.func @wrong(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %m = kernel.matmul %x, %w : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
  %t = kernel.silu %m : tensor<8x32xf16> -> tensor<8x32xf16>
  func.return %t : tensor<8x32xf16>
}
