// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts target-type=bf16" | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts accumulate-type=target" | FileCheck %s --check-prefix=ACC16
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts output-type=f32" | FileCheck %s --check-prefix=OUT32
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts red=linalg.matmul gray=math.exp" | FileCheck %s --check-prefix=LISTS
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts min-macs=100000" | FileCheck %s --check-prefix=MACS
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts skip-layers=0,-1" | FileCheck %s --check-prefix=SKIP
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts skip-layers=1" | FileCheck %s --check-prefix=SKIP1

// Three matmuls (64x64x64 = 262144 MACs, 8x8x64 = 4096 MACs, 64x64x64)
// with tanh and exp between them.
func.func @three_layers(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>, %s: tensor<8x64xf32>, %o: tensor<8x64xf32>) -> (tensor<64x64xf32>, tensor<8x64xf32>) {
  %0 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%x : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = tosa.tanh %0 : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.matmul ins(%s, %1 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%o : tensor<8x64xf32>) -> tensor<8x64xf32>
  %3 = math.exp %2 : tensor<8x64xf32>
  %4 = linalg.matmul ins(%1, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%x : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %4, %3 : tensor<64x64xf32>, tensor<8x64xf32>
}

// BF16-LABEL: func.func @three_layers
// BF16: %[[M0:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%arg0 : tensor<64x64xf32>)
// BF16: %[[L0:.+]] = tosa.cast %[[M0]] : (tensor<64x64xf32>) -> tensor<64x64xbf16>
// BF16: %[[T:.+]] = tosa.tanh %[[L0]] : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
// BF16: linalg.matmul ins(%{{.+}}, %[[T]] : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%arg3 : tensor<8x64xf32>)

// accumulate-type=target: the accumulator (the init) is cast down too and
// the result is f16; consumers in FP32 get it cast up.
// ACC16-LABEL: func.func @three_layers
// ACC16: %[[M0:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>) outs(%{{.+}} : tensor<64x64xf16>) -> tensor<64x64xf16>
// ACC16: tosa.tanh %[[M0]] : (tensor<64x64xf16>) -> tensor<64x64xf16>
// ACC16: %[[M1:.+]] = linalg.matmul {{.*}} outs(%{{.+}} : tensor<8x64xf16>) -> tensor<8x64xf16>
// ACC16: arith.extf %[[M1]] : tensor<8x64xf16> to tensor<8x64xf32>

// output-type=f32: green results are FP32, so gray consumers stay FP32 and
// the next matmul casts its input.
// OUT32-LABEL: func.func @three_layers
// OUT32: %[[M0:.+]] = linalg.matmul
// OUT32: %[[T:.+]] = tosa.tanh %[[M0]] : (tensor<64x64xf32>) -> tensor<64x64xf32>
// OUT32: %[[T16:.+]] = tosa.cast %[[T]] : (tensor<64x64xf32>) -> tensor<64x64xf16>
// OUT32: linalg.matmul ins(%{{.+}}, %[[T16]] : tensor<8x64xf16>, tensor<64x64xf16>)

// red=linalg.matmul keeps every matmul in FP32; gray=math.exp lets exp
// follow its (FP32) input.
// LISTS-LABEL: func.func @three_layers
// LISTS-NOT: f16
// LISTS: return

// min-macs: the small matmul is gray and follows its FP32 input.
// MACS-LABEL: func.func @three_layers
// MACS: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)
// MACS: linalg.matmul ins(%arg2, %{{.+}} : tensor<8x64xf32>, tensor<64x64xf32>) outs(%arg3 : tensor<8x64xf32>)
// MACS: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)

// skip-layers=0,-1: the first and the last green op stay in FP32.
// SKIP-LABEL: func.func @three_layers
// SKIP: linalg.matmul ins(%arg0, %arg1 : tensor<64x64xf32>, tensor<64x64xf32>)
// SKIP: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x64xf16>, tensor<64x64xf16>)
// SKIP: linalg.matmul ins(%{{.+}}, %arg1 : tensor<64x64xf32>, tensor<64x64xf32>)

// SKIP1-LABEL: func.func @three_layers
// SKIP1: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)
// SKIP1: linalg.matmul ins(%arg2, %{{.+}} : tensor<8x64xf32>, tensor<64x64xf32>)
// SKIP1: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x64xf16>, tensor<64x64xf16>)
