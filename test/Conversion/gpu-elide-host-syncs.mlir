// RUN: amp-opt %s --split-input-file --amp-gpu-elide-host-syncs | FileCheck %s

// The stream split that gpu-async-region puts around a host-only call (and
// the pure ops feeding it) is undone: no blocking wait, the launch after the
// call waits for the launch before it.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @ampTensorMap2D_f16(memref<*xf16>, index, index) -> !llvm.ptr attributes {amp.host_only}

  // CHECK-LABEL: func.func @one_token_rechained
  // CHECK: %[[T1:.+]] = gpu.launch_func async [%{{.+}}] @kernels::@k
  // CHECK-NOT: gpu.wait
  // CHECK: call @ampTensorMap2D_f16
  // CHECK-NOT: gpu.wait
  // CHECK: %[[T2:.+]] = gpu.launch_func async [%[[T1]]] @kernels::@k
  // CHECK: gpu.wait [%[[T2]]]
  // CHECK-NEXT: return
  func.func @one_token_rechained(%a: memref<64x64xf16>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    %c64 = arith.constant 64 : index
    %u = memref.cast %a : memref<64x64xf16> to memref<*xf16>
    %map = func.call @ampTensorMap2D_f16(%u, %c64, %c64) : (memref<*xf16>, index, index) -> !llvm.ptr
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t3]
    return
  }
}

// -----

// Two streams joined: the new work waits for both on the device.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @ampDeviceConstant_f32(memref<*xf32>) -> memref<*xf32> attributes {amp.host_only}

  // CHECK-LABEL: func.func @two_tokens_joined_on_device
  // CHECK: %[[A:.+]] = gpu.launch_func async
  // CHECK: %[[B:.+]] = gpu.launch_func async
  // CHECK-NOT: gpu.wait [
  // CHECK: call @ampDeviceConstant_f32
  // CHECK: %[[J:.+]] = gpu.wait async [%[[A]], %[[B]]]
  // CHECK: gpu.launch_func async [%[[J]]]
  func.func @two_tokens_joined_on_device(%w: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %ta = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %tb = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%ta, %tb]
    %u = memref.cast %w : memref<16xf32> to memref<*xf32>
    %d = func.call @ampDeviceConstant_f32(%u) : (memref<*xf32>) -> memref<*xf32>
    %t1 = gpu.wait async
    %t2 = gpu.launch_func async [%t1] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2]
    return
  }
}

// -----

// Host work that may read device data keeps the synchronization: a call to
// a function without amp.host_only, or a host memory access.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func private @ampTensorMap2D_f16(memref<*xf16>, index, index) -> !llvm.ptr attributes {amp.host_only}
  func.func private @printMemrefF16(memref<*xf16>)

  // CHECK-LABEL: func.func @negative_unmarked_call_keeps_sync
  // CHECK: %[[T1:.+]] = gpu.launch_func async
  // CHECK: gpu.wait [%[[T1]]]
  // CHECK: call @ampTensorMap2D_f16
  // CHECK: call @printMemrefF16
  // CHECK: %[[T2:.+]] = gpu.wait async
  // CHECK: gpu.launch_func async [%[[T2]]]
  func.func @negative_unmarked_call_keeps_sync(%a: memref<64x64xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    %u = memref.cast %a : memref<64x64xf16> to memref<*xf16>
    %map = func.call @ampTensorMap2D_f16(%u, %c64, %c64) : (memref<*xf16>, index, index) -> !llvm.ptr
    func.call @printMemrefF16(%u) : (memref<*xf16>) -> ()
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t3]
    return
  }

  // CHECK-LABEL: func.func @negative_host_load_keeps_sync
  // CHECK: %[[T1:.+]] = gpu.launch_func async
  // CHECK: gpu.wait [%[[T1]]]
  // CHECK: memref.load
  // CHECK: %[[T2:.+]] = gpu.wait async
  // CHECK: gpu.launch_func async [%[[T2]]]
  func.func @negative_host_load_keeps_sync(%a: memref<64x64xf16>) -> f16 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    %v = memref.load %a[%c0, %c0] : memref<64x64xf16>
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t3]
    return %v : f16
  }
}
