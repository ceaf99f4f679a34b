// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt --mlir-print-op-generic %s | amp-opt | FileCheck %s

// CHECK-LABEL: func.func @colors
func.func @colors(%x: f32) -> f32 {
  // CHECK: arith.addf {{.*}} {amp.color = #amp.color<green>}
  %0 = arith.addf %x, %x {amp.color = #amp.color<green>} : f32
  // CHECK: arith.mulf {{.*}} {amp.color = #amp.color<gray>}
  %1 = arith.mulf %0, %x {amp.color = #amp.color<gray>} : f32
  // CHECK: math.exp {{.*}} {amp.color = #amp.color<red>}
  %2 = math.exp %1 {amp.color = #amp.color<red>} : f32
  return %2 : f32
}

// CHECK-LABEL: func.func @precision
func.func @precision(%x: f32) -> f32 {
  // CHECK: amp.precision = #amp.precision<accumulate = f32, output = f16>
  %0 = arith.addf %x, %x {amp.precision = #amp.precision<accumulate = f32, output = f16>} : f32
  // The parameters may come in any order.
  // CHECK: amp.precision = #amp.precision<accumulate = bf16, output = f32>
  %1 = arith.addf %0, %x {amp.precision = #amp.precision<output = f32, accumulate = bf16>} : f32
  return %1 : f32
}

// CHECK-LABEL: module @policies
// CHECK-SAME: amp.policy = #amp.default_policy
module @policies attributes {amp.policy = #amp.default_policy} {
  // CHECK: amp.policy = #amp.default_policy<accumulate = f32, output = f16, min_macs = 4096>
  func.func @f() attributes {amp.policy = #amp.default_policy<accumulate = f32, output = f16, min_macs = 4096>} {
    return
  }
  // CHECK: amp.policy = #amp.default_policy<min_macs = 10>
  func.func @g() attributes {amp.policy = #amp.default_policy<min_macs = 10>} {
    return
  }
  // A policy from another dialect (the test dialect's user policy).
  // CHECK: amp.policy = #amp_test.conv_mac_threshold<1000>
  func.func @h() attributes {amp.policy = #amp_test.conv_mac_threshold<1000>} {
    return
  }
}

// CHECK-LABEL: module @layout_configs
// CHECK-SAME: amp.layout_config = #amp.layout_config
// CHECK-NOT: <
module @layout_configs attributes {amp.layout_config = #amp.layout_config} {
  // CHECK: amp.layout_config = #amp.layout_config<filter = fhwc, skip_layers = [0, -1], ops = ["convolution", "linalg.pooling_nchw_max"]>
  func.func @all() attributes {amp.layout_config = #amp.layout_config<ops = ["convolution", "linalg.pooling_nchw_max"], skip_layers = [0, -1], filter = fhwc>} {
    return
  }
  // The default filter is not printed; an empty ops list is kept (it
  // converts nothing).
  // CHECK: amp.layout_config = #amp.layout_config<ops = []>
  func.func @none() attributes {amp.layout_config = #amp.layout_config<filter = hwcf, ops = []>} {
    return
  }
  // CHECK: amp.layout_config = #amp.layout_config<skip_layers = [2]>
  func.func @skip() attributes {amp.layout_config = #amp.layout_config<skip_layers = [2]>} {
    return
  }
}
