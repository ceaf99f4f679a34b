// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | FileCheck %s
// The policy option overrides the module's amp.policy.
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts policy=#amp.default_policy" --split-input-file | FileCheck %s --check-prefix=OPTION

// A policy on the module: the default policy with a MAC threshold. The small
// matmul (8x8x8 = 512 MACs) is gray and follows its FP32 inputs.
// CHECK-LABEL: module @default_policy_threshold
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)
// OPTION-LABEL: module @default_policy_threshold
// OPTION: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
module @default_policy_threshold attributes {amp.policy = #amp.default_policy<min_macs = 1000>} {
  func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %x: tensor<64x64xf32>) -> (tensor<8x8xf32>, tensor<64x64xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.matmul ins(%x, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%x : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<64x64xf32>
  }
}

// -----

// A policy on the module: accumulate in f32, keep the f32 output.
// CHECK-LABEL: module @default_policy_output
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: tosa.tanh %[[M]] : (tensor<8x8xf32>) -> tensor<8x8xf32>
module @default_policy_output attributes {amp.policy = #amp.default_policy<accumulate = f32, output = f32>} {
  func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = tosa.tanh %0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = linalg.matmul ins(%1, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}

// -----

// A user policy from outside the core (the amp_test dialect): convolutions
// are green only above 100000 MACs; matmuls keep the default lists. The
// small convolution (1x4x6x6 outputs x 4x3x3 = 5184 MACs) stays FP32, the
// large one (1x16x30x30 x 16x3x3 = 2073600 MACs) and the small matmul run
// in f16.
// CHECK-LABEL: module @user_policy
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg1 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x16x32x32xf16>, tensor<16x16x3x3xf16>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>)
module @user_policy attributes {amp.policy = #amp_test.conv_mac_threshold<100000>} {
  func.func @f(%i: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %o: tensor<1x4x6x6xf32>,
               %i2: tensor<1x16x32x32xf32>, %w2: tensor<16x16x3x3xf32>, %o2: tensor<1x16x30x30xf32>,
               %m: tensor<4x4xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x16x30x30xf32>, tensor<4x4xf32>) {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i2, %w2 : tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) outs(%o2 : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
    %2 = linalg.matmul ins(%m, %m : tensor<4x4xf32>, tensor<4x4xf32>) outs(%m : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0, %1, %2 : tensor<1x4x6x6xf32>, tensor<1x16x30x30xf32>, tensor<4x4xf32>
  }
}
