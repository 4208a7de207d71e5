// gqa of benchmarks/torch_programs.py at Q 16x256x128, K 16x128x32768, V 16x32768x128 (f16):
// the μGraph `mirage-opt PROGRAM -p 'superoptimize{time-budget=120}'` found on the 2-core
// development machine, PROGRAM the function exported by mirage.tools.from_torch.import_module;
// timed by benchmarks/attention_gpu.py.
builtin.module {
  func.func @ugraph(%arg0: tensor<16x256x128xf16>, %arg1: tensor<16x128x32768xf16>, %arg2: tensor<16x32768x128xf16>) -> tensor<16x256x128xf16> {
    %0 = kernel.matmul %arg0, %arg1 : tensor<16x256x128xf16>, tensor<16x128x32768xf16> -> tensor<16x256x32768xf16>
    %1 = kernel.exp %0 : tensor<16x256x32768xf16> -> tensor<16x256x32768xf16>
    %2 = kernel.reduce_sum %1 dim 2 : tensor<16x256x32768xf16> -> tensor<16x256x1xf16>
    %3 = kernel.div %1, %2 : tensor<16x256x32768xf16>, tensor<16x256x1xf16> -> tensor<16x256x32768xf16>
    %4 = kernel.matmul %3, %arg2 : tensor<16x256x32768xf16>, tensor<16x32768x128xf16> -> tensor<16x256x128xf16>
    func.return %4 : tensor<16x256x128xf16>
  }
}

