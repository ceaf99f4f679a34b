//===- Passes.td - amp GPU lowering passes -----------------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes of amp's GPU lowering. `--amp-gpu-pipeline` strings them
// together with the upstream bufferization, GPU and NVVM passes; each one can
// also be run on its own.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_TD
#define AMP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def AmpGPUConvToMatmulPass : Pass<"amp-gpu-conv-to-matmul"> {
  let summary = "Rewrite 2-D convolutions as an im2col gather and a matmul, "
                "for the matmul kernels to compute as implicit GEMMs";
  let description = [{
    Rewrites `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc` and
    `linalg.conv_2d_nchw_fchw` on tensors with static shapes, any strides
    and dilations, f16, bf16 (or, with `include-f32`, f32) input and filter
    and an f32 output into:

    * an im2col *gather*: a `linalg.generic` without operands whose payload
      computes, from `linalg.index`, the input element each entry of the
      im2col matrix reads and reads it with `tensor.extract`. A
      `tensor.pad` of the input's spatial dimensions with a constant (also
      behind an elementwise op of the padded tensor, such as mixed
      precision's cast) is folded in: the gather reads the unpadded input
      and yields the padding value outside it;
    * `linalg.matmul`: NHWC, the batch folded into the rows
      (`[N*OH*OW, KH*KW*C] x [KH*KW*C, F]`, an FHWC filter transposed, at
      compile time when it is a constant); NCHW with batch 1
      (`[F, C*KH*KW] x [C*KH*KW, OH*OW]`); or `linalg.batch_matmul` for NCHW
      batches, the filter broadcast over the batch.

    The matmul carries `amp.kernel = "conv2d"`. `--amp-gpu-matmul-to-mma`
    computes the gather where its kernels load the operand, so the im2col
    matrix is never stored: the convolution reads its tiles from the
    activation tensor (an implicit GEMM).

    Depthwise convolutions (`linalg.depthwise_conv_2d_nchw_chw`,
    `linalg.depthwise_conv_2d_nhwc_hwc`: one filter per channel, no
    contraction over channels, nothing for Tensor Cores) become instead a
    reduction `linalg.generic` over (batch, channel, output pixel) rows and
    (kh, kw) columns that reads the input, padding folded, in its payload:
    `amp.kernel = "dwconv2d"`, which `--amp-gpu-row-reductions` computes in
    one kernel with the batch norm and activation after it. Grouped
    convolutions with more than one channel per group are not rewritten
    (they stay loops).

    Example:

    ```mlir
    // amp-opt --amp-gpu-conv-to-matmul
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { ... yield %zero }
    %0 = linalg.conv_2d_nhwc_hwcf
           ins(%p, %w : tensor<1x16x16x32xf16>, tensor<3x3x32x64xf16>)
           outs(%o : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
    // becomes a gather producing tensor<256x288xf16> from %x (bounds
    // checked), linalg.matmul with the collapsed filter tensor<288x64xf16>,
    // and tensor.expand_shape back to tensor<1x16x16x64xf32>.
    ```
  }];
  let options = [
    Option<"includeF32", "include-f32", "bool", /*default=*/"true",
           "Also rewrite f32 convolutions (for the tiled SIMT matmul kernel "
           "of the FP32 baseline)">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
  ];
  let statistics = [
    Statistic<"numConvs", "convs", "Convolutions rewritten">,
  ];
}

def AmpGPUFuseElementwisePass : Pass<"amp-gpu-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops into each other, never into "
                "named contractions";
  let description = [{
    On tensors, before bufferization:

    1. Named linalg ops that are elementwise computations or data movement
       (`linalg.add`, `linalg.exp`, `linalg.broadcast`, `linalg.transpose`,
       `linalg.map`, ...) become `linalg.generic` ops; contractions,
       convolutions, pooling, fills and copies keep their names.
    2. Upstream's elementwise fusion (`linalg::populateElementwiseOpsFusionPatterns`)
       of generic producers into generic consumers, and upstream's folding
       of `tensor.expand_shape` / `collapse_shape` into generics by
       expansion, so that reshapes between elementwise ops do not stop the
       fusion (a matmul's `[256, 128]` result reshaped to `[32, 8, 2, 64]`
       for a transpose: one generic reading the matmul's result through the
       reshape). Named contractions are never fused into or expanded: they
       keep their form and their 16-bit operands, and
       `--amp-gpu-matmul-to-mma` computes the generic that consumes their
       result in its epilogue instead.
    3. Every `tensor.empty` gets one use, and a `linalg.fill` of a
       `tensor.empty` used as the init of several ops is copied before each:
       one-shot bufferization would otherwise give successive ops one buffer
       (the next layer's matmul input and this layer's epilogue output), and
       a fill plus a copy kernel per use instead of fills the matmul kernels
       fold.

    Example:

    ```mlir
    // amp-opt --amp-gpu-fuse-elementwise
    %0 = linalg.generic {...} ins(%x : tensor<64xf32>) ... { arith.addf }
    %1 = linalg.generic {...} ins(%0 : tensor<64xf32>) ... { arith.mulf }
    // becomes one linalg.generic computing addf then mulf.
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def AmpGPURowReductionsPass : Pass<"amp-gpu-row-reductions"> {
  let summary = "Softmax, layer and RMS norms, means and global pooling on "
                "buffers as one kernel with warp and block reductions";
  let description = [{
    Groups consecutive `linalg.generic` ops on memrefs (static shapes,
    elements of at most 32 bits) that work over one row space: at least one
    reduction whose leading loops are parallel (the rows) and whose other
    loops reduce (the columns), and the ops after it that are elementwise
    over the same rows and columns, or over the rows alone, reading the
    reductions' results broadcast over the row. A softmax (max, sum of
    exponentials, division), a layer norm (mean, variance, normalization),
    an RMS norm and a global average pool (sum over the window, division)
    are each one group. Named pooling ops are generalized first and take
    part like any reduction.

    Each group becomes one `gpu.launch` of 256-thread blocks: T threads per
    row (the columns rounded up to a power of two, at most 256; one thread
    for rows of at most 16 columns, such as a 3x3 pooling window or
    depthwise convolution, whose loop is shorter than a shuffle tree),
    256 / T rows per block. A reduction: each thread combines its columns from the
    combiner's identity, the row's T partial values are combined with
    `gpu.shuffle xor` (and through shared memory across warps when T > 32),
    and the result is combined with the output's initial value: the
    `linalg.fill` before the reduction, folded, or the value in memory.
    Elementwise members compute their columns reading the row's results
    from registers; ops over the rows alone are computed once per row.
    Results read after the group are stored; reduction buffers nothing else
    reads are removed. Combiners: `addf`, `mulf`, `maximumf`, `minimumf`,
    `maxnumf`, `minnumf` and the integer `addi`, `maxsi`, `minsi`, `maxui`,
    `minui`, `ori`, `andi`, `xori` (float sums are combined in a tree, so
    they differ from a sequential sum by rounding).

    Example:

    ```mlir
    // amp-opt --amp-gpu-row-reductions
    linalg.fill ins(%ninf : f32) outs(%max : memref<64xf32>)
    linalg.generic {... iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<64x1024xf32>) outs(%max : memref<64xf32>) { maximumf }
    linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
    linalg.generic {... ["parallel", "reduction"]}
        ins(%x, %max : ...) outs(%sum : memref<64xf32>) { exp(x - max), addf }
    linalg.generic {... ["parallel", "parallel"]}
        ins(%x, %max, %sum : ...) outs(%y : memref<64x1024xf32>) { exp(x - max) / sum }
    // becomes one gpu.launch (amp.kernel = "softmax") of 64 blocks of 256
    // threads, one row each; %max and %sum are no longer buffers.
    ```
  }];
  let statistics = [
    Statistic<"numKernels", "row-kernels", "Groups mapped to one row kernel">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def AmpGPULinalgToLoopsPass : Pass<"amp-gpu-linalg-to-loops"> {
  let summary = "Lower the remaining linalg ops on buffers to scf.parallel "
                "loops named for what they compute";
  let description = [{
    Upstream's lowering of linalg ops to parallel loops
    (`linalg::linalgOpToParallelLoops`), which also tags the outermost
    `scf.parallel` with `amp.kernel`: what the op computes (a named op's
    name, e.g. `pooling_nchw_max`; a generic's payload described, e.g.
    `bias_relu`, `cast`, `transpose`). `--amp-gpu-parallel-loops-to-launch`
    carries it to the kernel and `--amp-gpu-name-kernels` names the kernel
    after it.

    Example:

    ```mlir
    // amp-opt --amp-gpu-linalg-to-loops
    linalg.generic {... iterator_types = ["parallel"]}
        ins(%x, %b : memref<64xf32>, memref<64xf32>) outs(%y : memref<64xf32>) {
      addf, maximumf with 0
    }
    // becomes
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) { ... } {amp.kernel = "add_relu"}
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def AmpGPUNameKernelsPass : Pass<"amp-gpu-name-kernels", "::mlir::ModuleOp"> {
  let summary = "Name every gpu.launch <function>_<n>_<what it computes>";
  let description = [{
    Sets the `function` and `module` names of every `gpu.launch` (what
    kernel outlining names the kernel and its module) to
    `<function>_<n>_<what>`: `n` counts the launches of the function in
    program order, `what` is the launch's `amp.kernel` attribute (set by the
    passes that build kernels: `conv2d_wgmma_bias_relu`, `softmax`,
    `add_relu`, ...) or `kernel`. Names are made unique in the module. The
    PTX, Nsight Systems and Compute, and `amp-emulate --trace/--profile`
    show them.

    Example:

    ```mlir
    // amp-opt --amp-gpu-name-kernels
    func.func @forward(...) {
      gpu.launch ... { ... } {amp.kernel = "softmax"}
    // becomes
      gpu.launch ... module(@forward_0_softmax) function(@forward_0_softmax) { ... }
    ```
  }];
}

def AmpGPUForwardCopiesPass : Pass<"amp-gpu-forward-copies"> {
  let summary = "Let the readers of a copied buffer read the copy's source";
  let description = [{
    A `memref.copy` or `linalg.copy` on buffers whose target is a fresh
    allocation that later linalg ops in the same block only read (as
    inputs): when nothing writes the source before the last reader, the
    readers read the source instead (a strided view is fine for them), and
    the copy, its allocation and deallocation are removed. Bufferization
    leaves such copies for a slice of a result copied out before a cast,
    or a tensor copied before an elementwise op: on the GPU each is a
    kernel or a device copy, and a buffer.

    Example:

    ```mlir
    // amp-opt --amp-gpu-forward-copies
    %s = memref.subview %r[0, 0, 0] [1, 1, 8] [1, 1, 1] : ... to memref<1x8xf16, strided<[1024, 1]>>
    %t = memref.alloc() : memref<1x8xf16>
    linalg.copy ins(%s : ...) outs(%t : memref<1x8xf16>)
    linalg.generic ... ins(%t : memref<1x8xf16>) outs(%o : memref<1x8xf32>) { extf }
    // becomes
    linalg.generic ... ins(%s : memref<1x8xf16, strided<[1024, 1]>>) outs(%o : memref<1x8xf32>) { extf }
    ```
  }];
  let statistics = [
    Statistic<"numForwarded", "forwarded-copies", "Copies removed">,
  ];
}

def AmpGPUMatmulToMmaPass : Pass<"amp-gpu-matmul-to-mma"> {
  let summary = "Rewrite f16/bf16 x f16/bf16 -> f32 matmuls on buffers into "
                "Tensor Core GPU kernels (mma.sync or wgmma)";
  let description = [{
    Replaces every `linalg.matmul` and `linalg.batch_matmul` on memrefs with
    the default indexing maps, f16 or bf16 inputs (both the same type) and
    an f32 output by a `gpu.launch` that computes `C += A * B` on Tensor
    Cores:

    * `kind=mma-sync` (sm_80 and later): 128x256 block tiles, 16 warps of
      64x32, A and B tiles staged in workgroup memory (`mma-sync-stages`
      stages of `mma-sync-k-tile` columns, `cp.async` when rows are
      16-byte aligned, plain loads otherwise), fragments loaded with
      `ldmatrix` and multiplied with `mma.sync.m16n8k16` (f32
      accumulation);
    * `kind=wgmma` (sm_90a): 128x256 block tiles (128x128 when N <= 128), a
      producer warpgroup loading A and B tiles by TMA into 128-byte swizzled
      workgroup memory through a 4-stage `mbarrier` ring, two consumer
      warpgroups multiplying with `wgmma.mma_async`. It needs K and N to be
      multiples of 8 (TMA strides); batch matmuls also need M a multiple of
      128 and K a multiple of 64. Matmuls that do not qualify use the
      mma.sync kernel.

    The last write of C before the matmul, when it is a `linalg.fill` (the
    usual zero init), a generic that writes one value everywhere, or a
    `memref.copy` into C of a constant global whose elements are all one
    value or of a buffer filled that way, is folded into the kernel, which
    then computes `init + A * B` without reading C.

    **Operands computed by their producers (implicit GEMM).** When A or B
    is written by an all-parallel `linalg.generic` that only this matmul
    reads (a cast, a transpose, a broadcast, the im2col gather that
    `amp-gpu-conv-to-matmul` makes of a convolution, a padding copy), the
    kernel evaluates the producer where it would load the operand: the
    staging loads read the producer's inputs and run its payload, and the
    producer and its buffer are erased. Producers whose maps are affine
    (casts, transposes) are evaluated when the operand has at most 1M
    elements or each element is read at most twice (larger ones stay a
    kernel of their own: recomputing them per tile would cost more than
    writing them once); gathers (`tensor.extract`-style index arithmetic in
    the payload) always are. The wgmma kernel then stages computed tiles
    with its producer warpgroup (plain loads, the payload, 128-byte
    swizzled stores, `fence.proxy.async` before the consumers'
    `wgmma`) instead of TMA; batched matmuls with a computed operand, and
    affine producers of matmuls with more than 128 rows, use mma.sync.

    **Epilogue fusion.** The first all-parallel `linalg.generic` after the
    matmul that reads C (directly or through `memref.collapse_shape` /
    `expand_shape` views of C's buffer, with a permutation indexing map) is
    computed in the kernel's epilogue, for every kernel kind (mma.sync,
    wgmma, skinny, SIMT): bias adds, batch-norm scale and shift,
    activations, residual adds, the cast to f16 and transposes of the
    output, whatever the generic computes. Each thread that has the final
    value of `C[b, row, col]` finds the generic's element that reads it (the
    position in C's row-major buffer, delinearized over the shape the
    generic reads), loads the generic's other inputs there, runs its payload
    and stores its outputs. The generic is erased, and C's buffer too when
    nothing else reads it (otherwise the kernel stores C as well). Not fused
    when something between the matmul and the generic writes what the
    generic reads or touches what it writes, or when the generic writes the
    buffer the matmul reads A or B from (blocks of the kernel would
    overwrite what other blocks still read).

    Sizes that are not multiples of the tile are handled by zero-filling the
    staged tiles (masked loads, or TMA's out-of-bounds fill) and masking the
    stores. Dynamic sizes are supported. With `simt-f32`, FP32 matmuls (the
    baseline of the speed-ups) get a tiled SIMT kernel: 128x128 block tiles,
    256 threads computing 8x8 outputs each with FMAs, K in steps of 8 staged
    in workgroup memory. Matmuls with other element types, other indexing
    maps, or on tensors are left to the generic path.

    Before either, a `linalg.matmul` with a static M of at most
    `skinny-max-m` rows (default 16; f16/bf16 inputs unless `kind=none`,
    f32 inputs with `simt-f32`) gets the skinny kernel, which is bound by
    reading B once: 256 threads over 32 columns (each warp reads 32
    consecutive elements of a row of B), K split over the 8 warps and, when
    N/32 blocks are too few for the GPU, over blocks too; each block writes
    its partial sums to a workspace, and the last block of a column (found
    with an atomic counter after a `membar.gl`) adds them in a fixed order
    and runs the epilogue, all in one kernel (the workspace and counters are
    zeroed by a `gpu.memset` before it).
    At 16 rows it does 16 FMAs per element of B, still about the rate at
    which an H100 reads f32 B (more rows belong to the tiled kernels, whose
    128-row tiles are then at least an eighth used). Accumulation is in f32.
    When the 16-bit B is rounded from an f32 function argument by an
    elementwise kernel that feeds only this matmul, the skinny kernel reads
    the f32 argument and rounds in registers (the same values), and the
    rounding kernel and its buffer are erased.

    Example:

    ```mlir
    // amp-opt --amp-gpu-matmul-to-mma
    linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x512xf16>)
                  outs(%c : memref<256x512xf32>)
    // becomes
    gpu.launch blocks(...) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(...) in (%tx = %c512, %ty = %c1, %tz = %c1)
               dynamic_shared_memory_size %c208896_i32 {
      // 4 stages of A (128x72) and B (64x264) in dynamic shared memory
      ... nvgpu.device_async_copy / nvgpu.ldmatrix / nvgpu.mma.sync ...
    }
    ```
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"mma-sync\"",
           "Tensor Core instruction family: mma-sync (sm_80+), wgmma "
           "(sm_90a), or none (only the simt-f32 kernels)">,
    Option<"simtF32", "simt-f32", "bool", /*default=*/"false",
           "Also map f32 x f32 -> f32 matmuls to a tiled SIMT kernel (the "
           "FP32 baseline) instead of leaving them to the generic path">,
    Option<"skinnyMaxM", "skinny-max-m", "int64_t", /*default=*/"16",
           "linalg.matmuls with a static M of at most this many rows get "
           "the memory-bound skinny kernel (0: never)">,
    Option<"mmaSyncKTile", "mma-sync-k-tile", "int64_t",
           /*default=*/"::mlir::amp::MmaSyncTiling().blockK",
           "K columns per shared-memory stage of the mma.sync kernel (32 or "
           "64)">,
    Option<"mmaSyncStages", "mma-sync-stages", "int64_t",
           /*default=*/"::mlir::amp::MmaSyncTiling().stages",
           "Shared-memory stages in flight in the mma.sync kernel (2 or "
           "more, within 227 KiB)">,
    Option<"mmaSyncPrefetch", "mma-sync-prefetch", "bool",
           /*default=*/"::mlir::amp::MmaSyncTiling().prefetchFragments",
           "Load the next k16 step's fragments into registers before the "
           "current step's mma.sync (the barrier between K tiles then "
           "precedes a tile's last step)">,
  ];
  let statistics = [
    Statistic<"numMmaSync", "mma-sync-kernels", "Matmuls mapped to mma.sync">,
    Statistic<"numWgmma", "wgmma-kernels", "Matmuls mapped to wgmma">,
    Statistic<"numSimt", "simt-f32-kernels",
              "FP32 matmuls mapped to the tiled SIMT kernel">,
    Statistic<"numSkinny", "skinny-kernels",
              "Matmuls with few rows mapped to the skinny kernel">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def AmpGPUElideHostSyncsPass : Pass<"amp-gpu-elide-host-syncs"> {
  let summary = "Keep host-only runtime calls from splitting the GPU stream "
                "that gpu-async-region builds";
  let description = [{
    Upstream's `gpu-async-region` treats every host op with side effects as a
    reader or writer of device data: it ends the asynchronous region before
    it with a blocking `gpu.wait [%tokens]` (stream synchronize and destroy)
    and starts a new one after it with `gpu.wait async` (a new stream). amp's
    runtime calls that only read a memref descriptor or host memory
    (`ampTensorMap2D_*`, which encodes a TMA descriptor from a pointer and
    sizes, and `ampDeviceConstant_*`, which uploads a constant global) need
    no such round trip: their declarations carry the unit attribute
    `amp.host_only`, and on a cache miss the runtime waits for its own
    upload.

    Within a block, this pass looks for a blocking `gpu.wait [%tokens]`
    followed only by ops without memory effects and calls to `amp.host_only`
    functions, up to a `%n = gpu.wait async` without operands. It erases the
    blocking wait and replaces `%n` by the waited token (one) or by
    `gpu.wait async [%tokens]` (several): the work after the calls stays on
    the stream before them. Anything else between the two waits (another
    call, a host memory access, a GPU op) leaves them alone.

    Example:

    ```mlir
    // amp-opt --amp-gpu-elide-host-syncs
    %t0 = gpu.launch_func async [%t] @kernels::@k ...
    gpu.wait [%t0]
    %map = func.call @ampTensorMap2D_f16(%a, %c128, %c64)
        : (memref<*xf16>, index, index) -> !llvm.ptr
    %t1 = gpu.wait async
    %t2 = gpu.launch_func async [%t1] @kernels::@mm ... args(%map : !llvm.ptr)
    // becomes
    %t0 = gpu.launch_func async [%t] @kernels::@k ...
    %map = func.call @ampTensorMap2D_f16(%a, %c128, %c64) ...
    %t2 = gpu.launch_func async [%t0] @kernels::@mm ... args(%map : !llvm.ptr)
    ```
  }];
  let statistics = [
    Statistic<"numElided", "elided-syncs",
              "Blocking waits around host-only calls removed">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def AmpGPUExternDynamicSharedPass : Pass<"amp-gpu-extern-dynamic-shared"> {
  let summary = "Declare the dynamic shared memory of GPU kernels as external "
                "(.extern .shared) so that it follows the static variables";
  let description = [{
    The NVVM lowering of `gpu.dynamic_shared_memory` defines a zero-sized
    `llvm.mlir.global internal` array in address space 3. The NVPTX back end
    demotes such a global into the kernel as a one-byte static variable
    (`.shared .align 16 .b8 __dynamic_shmem__0;`), so that kernels address
    their dynamic shared memory from the start of the static variables: on
    hardware it overlaps any other shared variable (the wgmma kernel's
    mbarriers) and ends past the memory the launch provides. This pass makes
    every zero-sized, uninitialized address-space-3 global external, which
    NVPTX prints as `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`:
    the dynamic shared memory, placed after the static variables. Found by
    running the wgmma kernel on amp's PTX emulator (TMA data overwrote the
    mbarriers).

    Example:

    ```mlir
    // amp-opt --pass-pipeline="builtin.module(gpu.module(amp-gpu-extern-dynamic-shared))"
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // becomes
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AmpGPUParallelLoopsToLaunchPass : Pass<"amp-gpu-parallel-loops-to-launch"> {
  let summary = "Map every outermost host scf.parallel to a flat 1-D "
                "gpu.launch";
  let description = [{
    Turns each `scf.parallel` that is not already inside a `gpu.launch` into
    a `gpu.launch` with one thread per point of its iteration space:
    `block-size` threads per block and as many blocks as needed. Each thread
    delinearizes its global id into the loop's induction variables and runs
    the body (including any nested sequential loops, e.g. reductions) when
    the id is in range. This is the generic path of `--amp-gpu-pipeline`
    for elementwise ops, reductions, fills and copies after
    `--convert-linalg-to-parallel-loops`. Loops with results (`scf.reduce`)
    are left alone with a remark.

    Example:

    ```mlir
    // amp-opt --amp-gpu-parallel-loops-to-launch
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
      ...
    }
    // becomes
    gpu.launch blocks(%bx, ...) in (%gx = %c8, ...) threads(%tx, ...) in (%t = %c256, ...) {
      // %id = %bx * 256 + %tx; if %id < 2048: %i = %id / 32, %j = %id % 32
    }
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Parallel loops mapped to kernels">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def AmpGPUMergeLaunchesPass : Pass<"amp-gpu-merge-launches"> {
  let summary = "Run independent SIMT kernels side by side in one launch";
  let description = [{
    Horizontal fusion. Two `gpu.launch` ops of the same host block that amp
    built as flat SIMT or row kernels (1-D grid and block of constant sizes,
    the same block size, one body block, no attributions, clusters or
    Tensor Core operations) and that touch no buffer the other writes become
    one launch: its grid is the two grids side by side; a block below the
    first grid runs the first body, the others run the second body with
    their block id shifted down. The branch is uniform per block, so
    barriers and shared memory stay correct; the merged launch gets the
    larger dynamic shared memory size.

    The later launch moves up to the earlier one past the operations in
    between when it does not conflict with them (no buffer written by one
    and touched by the other; function arguments may alias each other); the
    allocations and pure operations it depends on move with it. Kernels
    keep both names (`<first>_and_<second>`, then `..._and_<n>_more`).

    Example:

    ```mlir
    // amp-opt --amp-gpu-merge-launches
    gpu.launch blocks(%b, ...) in (%g = %c4, ...) threads(...) in (%t = %c256, ...) {
      ... // writes %x
    }
    gpu.launch blocks(%b, ...) in (%g = %c2, ...) threads(...) in (%t = %c256, ...) {
      ... // writes %y, reads neither %x nor anything the first writes
    }
    // becomes one launch of 6 blocks: blocks 0-3 run the first body,
    // blocks 4-5 the second with block id %b - 4.
    ```
  }];
  let statistics = [
    Statistic<"numMerged", "merged", "Launches merged into an earlier one">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def AmpGPUDeviceMemoryPass : Pass<"amp-gpu-device-memory", "::mlir::ModuleOp"> {
  let summary = "Place a bufferized model's buffers in GPU memory and run "
                "its remaining host code on the GPU";
  let description = [{
    Prepares host functions whose compute has been mapped to `gpu.launch`
    for a machine where all tensors live in GPU memory (arguments and
    results of public functions are device pointers):

    * `memref.alloc` / `memref.dealloc` become `gpu.alloc` / `gpu.dealloc`
      (allocations only read and written on the host, such as the
      deallocation helpers' bookkeeping, stay on the host);
    * `memref.get_global` of a constant (the weights) becomes a device copy
      of the global, uploaded with `gpu.memcpy` on first use and cached in a
      device-pointer slot for later calls;
    * host ops that still read or write memory (`memref.copy`, loops,
      `memref.load`/`memref.store` whose results stay in memory) are wrapped
      in single-thread `gpu.launch`es so that no host code dereferences a
      device pointer. Ops whose results are used on the host (a scalar read
      from a buffer) are reported as errors;
    * public functions get `llvm.emit_c_interface`: they are the entry points
      of the compiled model, called by harnesses through
      `_mlir_ciface_<name>` with device pointers.

    Example:

    ```mlir
    // amp-opt --amp-gpu-device-memory
    %0 = memref.alloc() : memref<64xf32>
    // becomes
    %0 = gpu.alloc () : memref<64xf32>
    ```
  }];
  let statistics = [
    Statistic<"numAllocs", "device-allocs", "Allocations moved to the GPU">,
    Statistic<"numGlobals", "device-globals", "Globals copied to the GPU">,
    Statistic<"numWrapped", "wrapped-host-ops",
              "Host ops wrapped in single-thread kernels">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def AmpGPUCheckFP8Pass : Pass<"amp-gpu-check-fp8"> {
  let summary = "Reject FP8 computations for GPUs without FP8 Tensor Cores";
  let description = [{
    FP8 mixed precision (`--amp-mixed-precision="target-type=f8E4M3FN"` or
    `f8E5M2`, docs/fp8.md) leaves contractions on `f8E4M3FN`/`f8E5M2`
    operands with f32 accumulators. The GPU pipeline runs them with
    `wgmma.mma_async...e4m3`/`e5m2` (m64nNk32), which only sm_90a has; the
    FP8 conversions around them need `cvt` forms of sm_89 and later. For
    any other `chip`, this pass reports an error at every contraction (or
    convolution) with FP8 operands, naming the chip and the op, and at the
    first other op with FP8 values when there is no contraction: nothing is
    silently computed in another precision. Convert the model for an FP8
    GPU (`chip=sm_90a`), or with a 16-bit target type.

    The pipeline runs it first; it changes nothing.

    Example:

    ```mlir
    // amp-opt --amp-gpu-check-fp8="chip=sm_80"
    %0 = linalg.matmul ... ins(%a, %b : tensor<64x64xf8E4M3FN>, ...)
    // error: 'linalg.matmul' with f8E4M3FN operands needs FP8 Tensor Cores
    // (wgmma e4m3/e5m2, sm_90a); chip sm_80 has none: ...
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "The target GPU (sm_90a allows FP8)">,
  ];
}

def AmpGPULowerFP8Pass : Pass<"amp-gpu-lower-fp8"> {
  let summary = "Lower FP8 conversions in GPU code to PTX cvt (sm_89+)";
  let description = [{
    Rewrites `arith.truncf` to `f8E4M3FN`/`f8E5M2` and `arith.extf` from
    them (scalars and 1-D vectors) under the op it runs on (the pipeline
    runs it on each `gpu.module`, before the NVVM lowering) into NVVM's FP8
    conversions, single PTX instructions on sm_89 and later:

    * `truncf` from f32 (f16 and bf16 through an exact `extf`):
      `nvvm.convert.f32x2.to.f8x2`, i.e. `cvt.rn.satfinite.e4m3x2.f32`
      (`e5m2x2`), two values per instruction: a vector's elements in pairs,
      two scalar `truncf` of one block when the first one's result is used
      only after the second (as the wgmma kernel's FP8 epilogue emits a
      row's elements: computations first, stores after), else a scalar with
      0. The result is amp's FP8 `truncf` (docs/fp8.md, the
      same as `--amp-expand-fp8` on the CPU): round to nearest even, NaN
      stays NaN, f8E4M3FN saturates beyond +-448 (what `.satfinite` does),
      f8E5M2 gives infinities from +-61440 on, for which a compare and
      select follow the `cvt` (which saturates to 57344) unless the operand
      is a clamp to +-57344 or less (`arith.minimumf`/`maximumf` with
      constants, as FP8 narrowing writes it);
    * `extf` to f16: `nvvm.convert.f8x2.to.f16x2` (`cvt.rn.f16x2.e4m3x2`),
      exact; to f32, f64 and bf16 through f16, exact too.

    Other `arith`/`math` ops on FP8 values (besides constants, selects and
    bitcasts, which the LLVM lowering handles as `i8`), truncations from
    f64 (double rounding) and rounding modes other than to-nearest-even are
    errors.

    Example:

    ```mlir
    // amp-opt --amp-gpu-lower-fp8
    %0 = arith.truncf %x : f32 to f8E4M3FN
    // becomes
    %p = nvvm.convert.f32x2.to.f8x2 %zero, %x {rnd = #nvvm.fp_rnd_mode<rn>,
        sat = #nvvm.sat_mode<satfinite>} : vector<2xi8> (f8E4M3FN)
    %b = vector.extract %p[0] : i8 from vector<2xi8>
    %0 = arith.bitcast %b : i8 to f8E4M3FN
    ```
  }];
  let statistics = [
    Statistic<"numConversions", "fp8-conversions",
              "FP8 conversion instructions (cvt) emitted">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def AmpGPUExpandMathPass : Pass<"amp-gpu-expand-math"> {
  let summary = "Expand math ops into arithmetic and PTX-native intrinsics, "
                "so that GPU code needs no libdevice";
  let description = [{
    Rewrites every `math` op under the op it runs on (the pipeline runs it
    on each `gpu.module`, before the NVVM lowering) into code that the NVPTX
    back end turns into plain PTX instructions, so that no kernel calls a
    libdevice function (`__nv_expf`, `__nv_fmaf`, ...). The PTX is then the
    same with or without a CUDA toolkit, and loads without anything linked
    in. In order:

    1. f16 and bf16 math is computed in f32 (`arith.extf`, the op in f32,
       `arith.truncf`; upstream `math-extend-to-supported-types`), except
       `math.fma`, which PTX has in 16 bits;
    2. functions without a PTX instruction are expanded with upstream's
       rewrites: polynomial approximations of `exp`, `expm1`, `log`, `log2`,
       `log1p`, `tanh`, `erf`, `erfc`, `sin`, `cos`, `atan`, `atan2`,
       `asin`, `acos` and `cbrt` (`populateMathPolynomialApproximationPatterns`;
       `sin` and `cos` first reduce their argument to [-pi, pi] with 2*pi in
       three parts), and `math-expand-ops` for `powf`, `fpowi`, `rsqrt`,
       `tan`, the hyperbolic functions and `clampf`; `exp2` becomes
       `2^n * exp(f * ln 2)` with `n` the nearest integer, `log10` becomes
       `log(x) * log10(e)`;
    3. what PTX has instructions for becomes LLVM intrinsics: `fma`
       (`fma.rn`), `sqrt` (`sqrt.rn`), `absf`, `floor`, `ceil`, `trunc`,
       `roundeven` (`cvt.rmi`/`cvt.rpi`/`cvt.rzi`/`cvt.rni`), `round`,
       `copysign`, `absi`, `ctlz`, `cttz`, `ctpop`, `isnan`, `isinf`,
       `isfinite`. Those whose LLVM dialect op the NVVM lowering reserves for
       libdevice are emitted as `llvm.call_intrinsic`.

    Before them, `arith.remf` (C's `fmod`, which the NVVM lowering would
    make a libdevice call) becomes an exact binary long division: two
    `scf.while` loops that double `|y|` up to `|x|` and halve it back,
    subtracting wherever it fits, each step exact (f16 and bf16 in f32).

    A `math` op left after that (e.g. on f64, which upstream does not
    approximate) is reported as an error: the kernel could not be loaded.
    The expansions use IEEE-rounded adds, multiplies, FMAs, divisions and
    square roots only, no approximate PTX instruction: the results depend on
    the PTX alone, not on a GPU or a library version. Measured errors against
    libm are in docs/gpu.md (test/Conversion/gpu-expand-math-accuracy.test).

    Example:

    ```mlir
    // amp-opt --amp-gpu-expand-math
    %0 = math.fma %a, %b, %c : f32
    %1 = math.exp %x : f16
    // becomes
    %0 = llvm.call_intrinsic "llvm.fma"(%a, %b, %c) : (f32, f32, f32) -> f32
    %e = arith.extf %x : f16 to f32
    // ... a polynomial in %e (arith.mulf, llvm.call_intrinsic "llvm.fma",
    // arith.bitcast for the exponent) ...
    %1 = arith.truncf %r : f32 to f16
    ```
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded-ops",
              "Math ops expanded into arithmetic">,
    Statistic<"numIntrinsics", "intrinsic-ops",
              "Math ops mapped to LLVM intrinsics">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

//===----------------------------------------------------------------------===//
// FP8 arithmetic without FP8 support
//===----------------------------------------------------------------------===//

def AmpExpandFP8Pass : Pass<"amp-expand-fp8"> {
  let summary = "Expand FP8 conversions (arith.truncf and arith.extf to and "
                "from f8E4M3FN and f8E5M2) into integer arithmetic";
  let description = [{
    LLVM has no FP8 type: the LLVM type converter stores `f8E4M3FN` and
    `f8E5M2` as `i8`, but `arith.truncf` and `arith.extf` to and from them
    do not lower through `convert-arith-to-llvm`. This pass rewrites them
    into integer arithmetic on the bits (`arith.bitcast` to `i32` and `i8`,
    shifts, adds, selects), for any code without FP8 instructions: amp-run's
    CPU lowering, and SIMT code of the GPU pipeline.

    * `arith.truncf` from f32 (from f16 and bf16 through an exact
      `arith.extf` to f32) rounds to nearest even, subnormals included.
      f8E4M3FN has no infinity: finite values beyond its largest finite
      value 448, and infinities, saturate to +-448 (as PTX's
      `cvt.rn.satfinite` does), NaN becomes the NaN `0x7f`/`0xff`. f8E5M2 is
      IEEE-like: values from the midpoint above 57344 on become infinities,
      NaN stays a quiet NaN. A `truncf` with a rounding mode other than
      `to_nearest_even` is left alone.
    * `arith.extf` to f32 (and through f32 to f64, f16 or bf16, which hold
      every FP8 value exactly) is exact; NaNs stay NaNs, f8E5M2 infinities
      stay infinities.

    Scalars, vectors and tensors are rewritten alike. The same arithmetic
    converts weights at compile time (`amp::convertF32ToFP8`), and unit
    tests compare both with `llvm::APFloat` on every FP8 value and rounding
    boundary.

    Example:

    ```mlir
    // amp-opt --amp-expand-fp8
    %0 = arith.truncf %x : f32 to f8E4M3FN
    // becomes
    %u = arith.bitcast %x : f32 to i32
    // ... sign, exponent rebias, rounding (normal and subnormal), saturation,
    // NaN, in i32 ...
    %t = arith.trunci %r : i32 to i8
    %0 = arith.bitcast %t : i8 to f8E4M3FN
    ```
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded-ops",
              "FP8 conversions expanded into integer arithmetic">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // AMP_CONVERSION_PASSES_TD
