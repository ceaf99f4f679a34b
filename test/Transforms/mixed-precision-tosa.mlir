// RUN: amp-opt %s --amp-mixed-precision --split-input-file | FileCheck %s
// The result is valid TOSA 1.0 (profile pro_fp): f16 convolutions with f32
// accumulation, f16 zero points, f16 clamp bounds.
// RUN: amp-opt %s --amp-mixed-precision --split-input-file \
// RUN:   --tosa-attach-target="profiles=pro_fp extensions=bf16" --tosa-validate -o /dev/null
// RUN: amp-opt %s --amp-mixed-precision=target-type=bf16 --split-input-file \
// RUN:   --tosa-attach-target="profiles=pro_fp extensions=bf16" --tosa-validate -o /dev/null

// Convolution: input, weight and bias in f16 (tosa.cast in TOSA code), zero
// points rebuilt in f16, acc_type f32, result f16 (TOSA 1.0). clamp and
// max_pool2d follow; exp and reduce_sum stay in FP32.
// CHECK-LABEL: func.func @conv_clamp_pool
// CHECK-DAG: %[[IN:.+]] = tosa.cast %arg0 : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf16>
// CHECK-DAG: %[[W:.+]] = tosa.cast %arg1 : (tensor<6x3x3x4xf32>) -> tensor<6x3x3x4xf16>
// CHECK-DAG: %[[B:.+]] = tosa.cast %arg2 : (tensor<6xf32>) -> tensor<6xf16>
// CHECK-DAG: %[[ZP:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK: %[[CONV:.+]] = tosa.conv2d %[[IN]], %[[W]], %[[B]], %[[ZP]], %[[ZP]] {acc_type = f32, {{.*}}} : ({{.*}}) -> tensor<1x6x6x6xf16>
// CHECK: %[[CLAMP:.+]] = tosa.clamp %[[CONV]] {max_val = 6.550400e+04 : f16, min_val = 0.000000e+00 : f16} : (tensor<1x6x6x6xf16>) -> tensor<1x6x6x6xf16>
// CHECK: %[[POOL:.+]] = tosa.max_pool2d %[[CLAMP]] {{.*}} -> tensor<1x3x3x6xf16>
// CHECK: %[[W2:.+]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<6x1x1x6xf16>}>
// CHECK: %[[CONV2:.+]] = tosa.conv2d %[[POOL]], %[[W2]], %[[B]], {{.*}} -> tensor<1x3x3x6xf16>
// CHECK: %[[UP:.+]] = tosa.cast %[[CONV2]] : (tensor<1x3x3x6xf16>) -> tensor<1x3x3x6xf32>
// CHECK: %[[EXP:.+]] = tosa.exp %[[UP]] : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x6xf32>
// CHECK: tosa.reduce_sum %[[EXP]] {axis = 3 : i32} : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x1xf32>
func.func @conv_clamp_pool(%in: tensor<1x8x8x4xf32>, %w: tensor<6x3x3x4xf32>, %b: tensor<6xf32>) -> tensor<1x3x3x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x6xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %2 = tosa.max_pool2d %1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x6xf32>) -> tensor<1x3x3x6xf32>
  %w2 = "tosa.const"() <{values = dense<0.25> : tensor<6x1x1x6xf32>}> : () -> tensor<6x1x1x6xf32>
  %3 = tosa.conv2d %2, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x6xf32>, tensor<6x1x1x6xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x6xf32>
  %4 = tosa.exp %3 : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x6xf32>
  %5 = tosa.reduce_sum %4 {axis = 3 : i32} : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x1xf32>
  return %5 : tensor<1x3x3x1xf32>
}

// -----

// tosa.matmul: f16 inputs with f32 accumulation produce f32 (TOSA 1.0), so a
// gray op reading it in FP32 needs no cast at all.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[MM:.+]] = tosa.matmul %{{.+}}, %{{.+}}, %[[Z:.+]], %[[Z]] : (tensor<1x16x32xf16>, tensor<1x32x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x8xf32>
// CHECK: tosa.sigmoid %[[MM]] : (tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
func.func @matmul(%a: tensor<1x16x32xf32>, %b: tensor<1x32x8xf32>) -> tensor<1x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  %1 = tosa.sigmoid %0 : (tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  return %1 : tensor<1x16x8xf32>
}

// -----

// Depthwise, 3-D and transposed convolutions are green too.
// CHECK-LABEL: func.func @other_convolutions
// CHECK: tosa.depthwise_conv2d {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x8x8x4xf16>, tensor<3x3x4x2xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x6x8xf16>
// CHECK: tosa.conv3d {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x4x4x4x2xf16>, tensor<3x2x2x2x2xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x3x3x3xf16>
// CHECK: tosa.transpose_conv2d {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x4x4x2xf16>, tensor<3x2x2x2xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x5x5x3xf16>
func.func @other_convolutions(%in: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>, %bias: tensor<8xf32>,
                              %in3: tensor<1x4x4x4x2xf32>, %w3: tensor<3x2x2x2x2xf32>, %b3: tensor<3xf32>,
                              %int: tensor<1x4x4x2xf32>, %wt: tensor<3x2x2x2xf32>)
    -> (tensor<1x6x6x8xf32>, tensor<1x3x3x3x3xf32>, tensor<1x5x5x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %in, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  %1 = tosa.conv3d %in3, %w3, %b3, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x4x4x2xf32>, tensor<3x2x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3x3xf32>
  %2 = tosa.transpose_conv2d %int, %wt, %b3, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x3xf32>
  return %0, %1, %2 : tensor<1x6x6x8xf32>, tensor<1x3x3x3x3xf32>, tensor<1x5x5x3xf32>
}

// -----

// Red TOSA ops keep FP32 inputs; negate's zero points follow its data type
// when it runs low.
// CHECK-LABEL: func.func @red_and_negate
// CHECK: %[[MM:.+]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// CHECK-DAG: tosa.reciprocal %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: tosa.rsqrt %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: tosa.log %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: tosa.erf %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: tosa.pow %[[MM]], %[[MM]] : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: %[[LOW:.+]] = tosa.cast %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[NEG:.+]] = tosa.negate %[[LOW]], %[[NZ:[^,]+]], %[[NZ]] : (tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[NEG]]
func.func @red_and_negate(%a: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.reciprocal %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.rsqrt %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.log %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %4 = tosa.erf %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %5 = tosa.pow %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %6 = tosa.negate %0, %zp, %zp : (tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %7 = tosa.matmul %6, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %1, %2, %3, %4, %5, %7 : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

// -----

// Data movement follows: reshape, transpose, slice, concat, pad (its pad
// value constant is folded to f16), between two matmuls.
// CHECK-LABEL: func.func @data_movement
// CHECK: %[[MM:.+]] = tosa.matmul {{.*}} -> tensor<1x4x8xf32>
// CHECK: %[[LOW:.+]] = tosa.cast %[[MM]] : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK: %[[R:.+]] = tosa.reshape %[[LOW]], %{{.+}} : (tensor<1x4x8xf16>, !tosa.shape<3>) -> tensor<1x8x4xf16>
// CHECK: %[[T:.+]] = tosa.transpose %[[R]] {perms = array<i32: 0, 2, 1>} : (tensor<1x8x4xf16>) -> tensor<1x4x8xf16>
// CHECK: %[[S:.+]] = tosa.slice %[[T]], %{{.+}}, %{{.+}} : (tensor<1x4x8xf16>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x4x4xf16>
// CHECK: %[[C:.+]] = tosa.concat %[[S]], %[[S]] {axis = 2 : i32} : (tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x8xf16>
// CHECK: %[[PV:.+]] = "tosa.const"() <{values = dense<-1.000000e+00> : tensor<1xf16>}>
// CHECK: %[[P:.+]] = tosa.pad %[[C]], %{{.+}}, %[[PV]] : (tensor<1x4x8xf16>, !tosa.shape<6>, tensor<1xf16>) -> tensor<1x4x8xf16>
// CHECK: tosa.matmul %[[P]]
func.func @data_movement(%a: tensor<1x4x4xf32>, %b: tensor<1x4x8xf32>, %c: tensor<1x8x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %s1 = tosa.const_shape {values = dense<[1, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %1 = tosa.reshape %0, %s1 : (tensor<1x4x8xf32>, !tosa.shape<3>) -> tensor<1x8x4xf32>
  %2 = tosa.transpose %1 {perms = array<i32: 0, 2, 1>} : (tensor<1x8x4xf32>) -> tensor<1x4x8xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %3 = tosa.slice %2, %start, %size : (tensor<1x4x8xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x4x4xf32>
  %4 = tosa.concat %3, %3 {axis = 2 : i32} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x8xf32>
  %pads = tosa.const_shape {values = dense<0> : tensor<6xindex>} : () -> !tosa.shape<6>
  %pv = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %5 = tosa.pad %4, %pads, %pv : (tensor<1x4x8xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %6 = tosa.matmul %5, %c, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %6 : tensor<1x4x2xf32>
}

// -----

// Two matmuls read the same two zero-point constants: each constant is
// converted in place once, for both matmuls (no copy per reader, no FP32
// constant left).
// CHECK-LABEL: func.func @zero_points_shared
// CHECK-NOT: tensor<1xf32>
// CHECK: %[[AZ:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK: %[[BZ:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK-NOT: "tosa.const"
// CHECK: tosa.matmul %{{.+}}, %{{.+}}, %[[AZ]], %[[BZ]] :
// CHECK: tosa.matmul %{{.+}}, %{{.+}}, %[[AZ]], %[[BZ]] :
func.func @zero_points_shared(%a: tensor<1x16x16xf32>, %b: tensor<1x16x16xf32>) -> tensor<1x16x16xf32> {
  %azp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %1 = tosa.matmul %0, %b, %azp, %bzp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  return %1 : tensor<1x16x16xf32>
}
