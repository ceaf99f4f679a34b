// RUN: amp-opt %s --amp-gpu-device-memory --split-input-file -verify-diagnostics | FileCheck %s

memref.global "private" constant @weights : memref<4x8xf32> = dense<1.0>

// Heap buffers on the GPU, weights uploaded through the runtime (the call is
// hoisted to the top), contiguous copies as gpu.memcpy, public functions
// with C interfaces.
// CHECK-LABEL: func.func private @ampDeviceConstant_f32(memref<*xf32>) -> memref<*xf32>
// CHECK-LABEL: func.func @model
// CHECK-SAME:      llvm.emit_c_interface
// CHECK:         %[[G:.+]] = memref.get_global @weights
// CHECK:         %[[U:.+]] = memref.cast %[[G]] : memref<4x8xf32> to memref<*xf32>
// CHECK:         %[[D:.+]] = call @ampDeviceConstant_f32(%[[U]])
// CHECK-DAG:     %[[W:.+]] = memref.cast %[[D]] : memref<*xf32> to memref<4x8xf32>
// CHECK-DAG:     %[[BUF:.+]] = gpu.alloc () : memref<4x8xf32>
// CHECK:         gpu.memcpy %[[BUF]], %[[W]]
// CHECK:         gpu.launch
// CHECK:           memref.load %[[BUF]]
// CHECK:         gpu.dealloc %[[BUF]]
func.func @model(%out: memref<4x8xf32>) {
  %buf = memref.alloc() : memref<4x8xf32>
  %w = memref.get_global @weights : memref<4x8xf32>
  memref.copy %w, %buf : memref<4x8xf32> to memref<4x8xf32>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %c0 = arith.constant 0 : index
    %v = memref.load %buf[%c0, %c0] : memref<4x8xf32>
    memref.store %v, %out[%c0, %c0] : memref<4x8xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<4x8xf32>
  return
}

// -----

// Host code that writes device memory runs in a single-thread kernel;
// strided copies become copy kernels.
// CHECK-LABEL: func.func @host_loop
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:.+]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]],
// CHECK-NEXT:      scf.for
// CHECK:         gpu.launch
// CHECK:           memref.load %{{.*}} : memref<4x4xf32, strided<[8, 1]>>
// CHECK-NOT:     memref.copy
func.func @host_loop(%a: memref<16xf32>, %m: memref<4x8xf32>, %n: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %zero, %a[%i] : memref<16xf32>
  }
  %sub = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %sub, %n : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// -----

// The body of a 1-element op whose loops canonicalization folded away: the
// load, the arithmetic and the store run together in one single-thread
// kernel; the allocation between them stays on the host, above the kernel.
// CHECK-LABEL: func.func @one_element_cast
// CHECK-SAME:    (%[[A:.+]]: memref<1x1xf32>, %[[B:.+]]: memref<1x1xf32>)
// CHECK:         %[[O:.+]] = gpu.alloc () : memref<1x1xf16>
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:.+]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK-NEXT:      %[[V:.+]] = memref.load %[[A]]
// CHECK-NEXT:      %[[T:.+]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:      memref.store %[[T]], %[[O]]
// CHECK-NEXT:      gpu.terminator
// CHECK:         %[[O2:.+]] = gpu.alloc () : memref<1x1xf16>
// CHECK:         gpu.launch
// CHECK-NEXT:      memref.load %[[B]]
// CHECK-NEXT:      arith.truncf
// CHECK-NEXT:      memref.store %{{.+}}, %[[O2]]
// CHECK-NEXT:      gpu.terminator
// CHECK:         return %[[O]], %[[O2]]
func.func @one_element_cast(%a: memref<1x1xf32>, %b: memref<1x1xf32>)
    -> (memref<1x1xf16>, memref<1x1xf16>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0, %c0] : memref<1x1xf32>
  %out = memref.alloc() : memref<1x1xf16>
  %t = arith.truncf %v : f32 to f16
  memref.store %t, %out[%c0, %c0] : memref<1x1xf16>
  %out2 = memref.alloc() : memref<1x1xf16>
  %w = memref.load %b[%c0, %c0] : memref<1x1xf32>
  %u = arith.truncf %w : f32 to f16
  memref.store %u, %out2[%c0, %c0] : memref<1x1xf16>
  return %out, %out2 : memref<1x1xf16>, memref<1x1xf16>
}

// -----

// A scalar read of a device buffer used on the host (here returned, or
// below deciding a branch) cannot run on the GPU.
func.func @negative_host_scalar(%a: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{amp-gpu-device-memory: this op reads GPU memory and its result is used on the host; only whole-buffer code can run on the GPU}}
  %v = memref.load %a[%c0] : memref<16xf32>
  return %v : f32
}

// -----

func.func @negative_host_branch_on_device_value(%a: memref<16xf32>, %b: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{amp-gpu-device-memory: this op reads GPU memory and its result is used on the host; only whole-buffer code can run on the GPU}}
  %v = memref.load %a[%c0] : memref<16xf32>
  %positive = arith.cmpf ogt, %v, %zero : f32
  cf.cond_br %positive, ^bb1, ^bb2
^bb1:
  memref.store %v, %b[%c0] : memref<16xf32>
  return
^bb2:
  return
}
