// gqa of benchmarks/torch_programs.py at Q 16x256x128, K 16x128x32768, V 16x32768x128 (f16):
// the μGraph `mirage-opt PROGRAM -p 'superoptimize{time-budget=400}'` found on the 2-core
// development machine, PROGRAM the function exported by mirage.tools.from_torch.import_module;
// timed by benchmarks/attention_gpu.py.
builtin.module {
  func.func @ugraph(%0: tensor<16x256x128xf16>, %1: tensor<16x128x32768xf16>, %2: tensor<16x32768x128xf16>) -> tensor<16x256x128xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [16, 2, 4] block [256, 1, 1] forloop 64 : (tensor<16x256x128xf16>, tensor<16x128x32768xf16>, tensor<16x32768x128xf16>) -> (tensor<16x256x512xf32>, tensor<16x256x4xf32>, tensor<16x256x4xf32>) {
    ^bb0(%6: tensor<16x256x128xf16>, %7: tensor<16x128x32768xf16>, %8: tensor<16x32768x128xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x128x128xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32> {
        %12 = block.input %6 imap [0, 1, -1] : tensor<16x256x128xf16> -> tensor<1x128x128xf16>
        %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<16x128x32768xf16> -> tensor<1x128x128xf16>
        %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<16x32768x128xf16> -> tensor<1x128x128xf16>
        %15 = block.matmul %12, %13 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
        %16 = block.reduce_max %15 dim 2 : tensor<1x128x128xf32> -> tensor<1x128x1xf32>
        %17 = block.sub %15, %16 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
        %18 = block.exp %17 : tensor<1x128x128xf32> -> tensor<1x128x128xf16>
        %19 = block.matmul %18, %14 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
        %20 = block.reduce_sum %18 dim 2 : tensor<1x128x128xf16> -> tensor<1x128x1xf32>
        %21 = block.accum_rescale %19, %16 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
        %22 = block.accum_rescale %20, %16 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        %23 = block.accum_max %16 : tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        block.yield %21, %22, %23 : tensor<1x128x128xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32>
      }
      %24 = block.output %9 omap [0, 1, 2] : tensor<1x128x128xf32> -> tensor<16x256x512xf32>
      %25 = block.output %10 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<16x256x4xf32>
      %26 = block.output %11 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<16x256x4xf32>
      block.return %24, %25, %26 : tensor<16x256x512xf32>, tensor<16x256x4xf32>, tensor<16x256x4xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [16, 8, 1] block [128, 1, 1] forloop 4 : (tensor<16x256x512xf32>, tensor<16x256x4xf32>, tensor<16x256x4xf32>) -> tensor<16x256x128xf16> {
    ^bb0(%7: tensor<16x256x512xf32>, %8: tensor<16x256x4xf32>, %9: tensor<16x256x4xf32>):
      %10, %11 = block.for_loop : tensor<1x32x128xf32>, tensor<1x32x1xf32> {
        %12 = block.input %7 imap [0, 1, -1] forloop_dim 2 : tensor<16x256x512xf32> -> tensor<1x32x128xf32>
        %13 = block.input %8 imap [0, 1, -1] forloop_dim 2 : tensor<16x256x4xf32> -> tensor<1x32x1xf32>
        %14 = block.input %9 imap [0, 1, -1] forloop_dim 2 : tensor<16x256x4xf32> -> tensor<1x32x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x32x128xf32>, tensor<1x32x1xf32> -> tensor<1x32x128xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x32x1xf32>, tensor<1x32x1xf32> -> tensor<1x32x1xf32>
        block.yield %15, %16 : tensor<1x32x128xf32>, tensor<1x32x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x32x128xf32>, tensor<1x32x1xf32> -> tensor<1x32x128xf32>
      %18 = block.output %17 omap [0, 1, -1] : tensor<1x32x128xf32> -> tensor<16x256x128xf16>
      block.return %18 : tensor<16x256x128xf16>
    }
    func.return %6 : tensor<16x256x128xf16>
  }
}

