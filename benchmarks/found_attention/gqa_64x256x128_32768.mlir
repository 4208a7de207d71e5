// gqa of benchmarks/torch_programs.py at Q 64x256x128, K 64x128x32768, V 64x32768x128 (f16):
// the μGraph `mirage-opt PROGRAM -p 'superoptimize{time-budget=400}'` found on the 2-core
// development machine, PROGRAM the function exported by mirage.tools.from_torch.import_module;
// timed by benchmarks/attention_gpu.py.
builtin.module {
  func.func @ugraph(%0: tensor<64x256x128xf16>, %1: tensor<64x128x32768xf16>, %2: tensor<64x32768x128xf16>) -> tensor<64x256x128xf16> {
    %3 = kernel.graph(%0, %1, %2) grid [4, 64, 1] block [128, 1, 1] forloop 256 : (tensor<64x256x128xf16>, tensor<64x128x32768xf16>, tensor<64x32768x128xf16>) -> tensor<64x256x128xf16> {
    ^bb0(%4: tensor<64x256x128xf16>, %5: tensor<64x128x32768xf16>, %6: tensor<64x32768x128xf16>):
      %7, %8 = block.for_loop : tensor<1x64x128xf32>, tensor<1x64x1xf32> {
        %9 = block.input %4 imap [1, 0, -1] : tensor<64x256x128xf16> -> tensor<1x64x128xf16>
        %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<64x128x32768xf16> -> tensor<1x128x128xf16>
        %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<64x32768x128xf16> -> tensor<1x128x128xf16>
        %12 = block.matmul %9, %10 : tensor<1x64x128xf16>, tensor<1x128x128xf16> -> tensor<1x64x128xf32>
        %13 = block.reduce_max %12 dim 2 : tensor<1x64x128xf32> -> tensor<1x64x1xf32>
        %14 = block.sub %12, %13 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
        %15 = block.exp %14 : tensor<1x64x128xf32> -> tensor<1x64x128xf16>
        %16 = block.matmul %15, %11 : tensor<1x64x128xf16>, tensor<1x128x128xf16> -> tensor<1x64x128xf32>
        %17 = block.reduce_sum %15 dim 2 : tensor<1x64x128xf16> -> tensor<1x64x1xf32>
        %18 = block.accum_rescale %16, %13 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
        %19 = block.accum_rescale %17, %13 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
        block.yield %18, %19 : tensor<1x64x128xf32>, tensor<1x64x1xf32>
      }
      %20 = block.div %7, %8 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
      %21 = block.output %20 omap [1, 0, -1] : tensor<1x64x128xf32> -> tensor<64x256x128xf16>
      block.return %21 : tensor<64x256x128xf16>
    }
    func.return %3 : tensor<64x256x128xf16>
  }
}

