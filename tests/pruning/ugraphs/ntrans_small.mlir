// nTrans, O = rms_norm(X + alpha (rms_norm(H) - X)), at a small shape: H, X, alpha 8x16.
// @ugraph: one kernel; each block owns 2 whole rows (a loop of one step), normalizes H,
// runs the elementwise chain in registers and normalizes the result.

func.func @program(%h: tensor<8x16xf32>, %x: tensor<8x16xf32>, %alpha: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %hn = kernel.rms_norm %h : tensor<8x16xf32> -> tensor<8x16xf32>
  %d = kernel.sub %hn, %x : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %m = kernel.mul %alpha, %d : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = kernel.add %x, %m : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o = kernel.rms_norm %s : tensor<8x16xf32> -> tensor<8x16xf32>
  func.return %o : tensor<8x16xf32>
}

func.func @ugraph(%h: tensor<8x16xf32>, %x: tensor<8x16xf32>, %alpha: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %o = kernel.graph(%h, %x, %alpha) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%gh: tensor<8x16xf32>, %gx: tensor<8x16xf32>, %ga: tensor<8x16xf32>):
    %acc = block.for_loop : tensor<2x16xf32> {
      %ht = block.input %gh imap [0, -1, -1] : tensor<8x16xf32> -> tensor<2x16xf32>
      %xt = block.input %gx imap [0, -1, -1] : tensor<8x16xf32> -> tensor<2x16xf32>
      %at = block.input %ga imap [0, -1, -1] : tensor<8x16xf32> -> tensor<2x16xf32>
      %hn = block.rms_norm %ht : tensor<2x16xf32> -> tensor<2x16xf32>
      %s = thread.fuse(%hn, %xt, %at) : (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32> {
      ^bb1(%hv: f32, %xv: f32, %av: f32):
        %d = thread.sub %hv, %xv : f32
        %m = thread.mul %av, %d : f32
        %r = thread.add %xv, %m : f32
        thread.yield %r : f32
      }
      %n = block.rms_norm %s : tensor<2x16xf32> -> tensor<2x16xf32>
      %a = block.accum_sum %n : tensor<2x16xf32> -> tensor<2x16xf32>
      block.yield %a : tensor<2x16xf32>
    }
    %out = block.output %acc omap [0, -1, -1] : tensor<2x16xf32> -> tensor<8x16xf32>
    block.return %out : tensor<8x16xf32>
  }
  func.return %o : tensor<8x16xf32>
}
