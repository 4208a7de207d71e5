// RUN: not mirage-opt %s -p 'superoptimize{target=sm_70}' 2>&1 | FileCheck %s --check-prefixes=TARGET,ANY
// RUN: not mirage-opt %s -p 'superoptimize{max-block-ops=2}' 2>&1 | FileCheck %s --check-prefixes=BLOCKOPS,ANY
// RUN: not mirage-opt %s -p 'superoptimize{workers=0}' 2>&1 | FileCheck %s --check-prefixes=WORKERS,ANY
// RUN: not mirage-opt %s -p 'superoptimize{time-budget=-1}' 2>&1 | FileCheck %s --check-prefixes=BUDGET,ANY
// RUN: not mirage-opt %s -p 'superoptimize{executor="ray://10.0.0.5:6379"}' 2>&1 | FileCheck %s --check-prefixes=EXECUTOR,ANY
// RUN: not mirage-opt %s -p 'superoptimize{time-budget=60 workers=1}' -o %t.out 2>&1 | FileCheck %s --check-prefixes=MARKED,ANY
// RUN: not test -e %t.out

// ANY-NOT: Traceback
// TARGET: error: superoptimize: target must be one of sm_80, sm_90, got 'sm_70'
// BLOCKOPS: error: superoptimize: max-block-ops must be at least 3, got 2
// WORKERS: error: superoptimize: workers must be at least 1, got 0
// BUDGET: error: superoptimize: time-budget must be at least 0, got -1
// EXECUTOR: error: superoptimize: executor must be 'local', 'dask://HOST:PORT' or 'dask-scheduler-file:PATH', got 'ray://10.0.0.5:6379'
// MARKED: error: superoptimize: @already_fused is marked but is not a function of pre-defined kernel ops
// ANY-NOT: Traceback

func.func @plain(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  func.return %e : tensor<8x64xf32>
}

func.func @already_fused(%x: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {mirage.superoptimize} {
  %y = kernel.graph(%x) grid [8, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%g: tensor<8x64xf32>):
    %a = block.for_loop : tensor<1x64xf32> {
      %t = block.input %g imap [0, -1, -1] : tensor<8x64xf32> -> tensor<1x64xf32>
      %e = block.exp %t : tensor<1x64xf32> -> tensor<1x64xf32>
      %s = block.accum_sum %e : tensor<1x64xf32> -> tensor<1x64xf32>
      block.yield %s : tensor<1x64xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<1x64xf32> -> tensor<8x64xf32>
    block.return %o : tensor<8x64xf32>
  }
  func.return %y : tensor<8x64xf32>
}
