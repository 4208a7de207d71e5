// RUN: mirage-opt %S/../../lowering/data/split_pairs.mlir -p "plan-ugraph{clusters=true}" | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/split_pairs.mlir -p plan-ugraph | FileCheck %s --check-prefix=OFF
// RUN: mirage-opt %S/../../lowering/data/split_pairs.mlir -t "ptx{clusters=true}" | FileCheck %s --check-prefix=PTX

// Where asked (clusters=true; off by default), a split-KV pair's combine runs in the
// launch of its first kernel: planned with the first
// kernel's 128 threads and every key slice's tile resident (8 stages for 8 slices).
// CHECK-LABEL: func.func @split8
// CHECK: kernel.graph
// CHECK: kernel.graph({{.*}}) grid [4, 16, 1] block [64, 1, 1] forloop 8 {{{.*}}mirage.stages = 8 : i64{{.*}}mirage.join = #mirage.join<axis 2, size 8, threads 128>}
// CHECK-LABEL: func.func @split4_swapped
// CHECK: mirage.join = #mirage.join<axis 2, size 4, threads 128>

// OFF-NOT: mirage.join

// One kernel a pair, of clusters along the key slices; the partial sums never leave
// shared memory: the combine pulls each slice's tile from the peer that holds it, all
// slices' loads before the first store, between two cluster barriers.
// PTX-LABEL: .entry split8_k0(
// PTX: .reqnctapercluster 1, 1, 8
// PTX: barrier.cluster.arrive
// PTX-NEXT: barrier.cluster.wait
// PTX-COUNT-8: ld.shared::cluster.v4.f32
// PTX-NOT: ld.shared::cluster
// PTX: st.shared.v4
// PTX: barrier.cluster.arrive
// PTX-NEXT: barrier.cluster.wait
// PTX-NEXT: ret;
// PTX-NOT: .entry split8_k1(
// PTX-LABEL: .entry split4_swapped_k0(
// PTX: .reqnctapercluster 1, 1, 4

// RUN: mirage-opt %S/../../lowering/data/split_pairs.mlir -t "ptx{arch=sm_90a loads=tma clusters=true}" | FileCheck %s --check-prefix=TMA
// Key and value tiles by tensor maps of the batched tensors where asked (loads=tma) (batch and rows folded into one
// row coordinate): a producer warp beside the 128 threads; the combine runs on those 128
// alone (their own barrier), the producer waits at the cluster barriers.
// TMA-LABEL: .entry split4_tma_k0(
// TMA: .maxntid 160, 1, 1
// TMA: .reqnctapercluster 1, 1, 4
// TMA: cp.async.bulk.tensor.2d
// TMA: mbarrier.try_wait.parity
// TMA: barrier.cluster.arrive
// TMA-NEXT: barrier.cluster.wait
// TMA-NEXT: @%p{{[0-9]+}} bra
// TMA: ld.shared::cluster.v4.f32
// TMA-NOT: bar.sync 0;
// TMA: bar.sync 1, 128;
// TMA: barrier.cluster.arrive
// TMA-NEXT: barrier.cluster.wait
// TMA-NEXT: ret;
// TMA-NOT: .entry split4_tma_k1(
