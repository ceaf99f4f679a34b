#!/usr/bin/env python3
# ===- resnet50_nhwc.py - ResNet-50 v1, NHWC, 224x224, in linalg -----------===#
#
# Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
#
# Writes ResNet-50 v1 (He et al., "Deep Residual Learning for Image
# Recognition", 2015, table 1: the stride-2 downsampling in the first 1x1
# convolution of a stage) as one MLIR function on linalg, NHWC, for a
# 1x224x224x3 input:
#
#   conv 7x7/2 (64) + bias + ReLU, max pool 3x3/2,
#   bottleneck stages of 3, 4, 6 and 3 blocks (64/256, 128/512, 256/1024,
#   512/2048 channels): 1x1 + bias + ReLU, 3x3 + bias + ReLU, 1x1 + bias,
#   plus the shortcut (a 1x1 convolution + bias in the first block of a
#   stage), then ReLU;
#   global average pool as a sum over the 7x7 positions then a division by
#   49, and the fully connected layer (2048 -> 1000) + bias.
#
# Biases take the place of batch norms (folded, as for inference).
# Convolution and fc weights are small splats (0.001; zeros would be taken
# for accumulator inits), to be replaced by seeded random values
# (`amp-run --randomize-weights --seed 7`); biases are small splats. Padding is `tensor.pad` with zeros (the max pool reads ReLU
# outputs, which are >= 0).
#
#   bench/tuning/resnet50_nhwc.py -o resnet50-nhwc-224.mlir
#
# ===------------------------------------------------------------------------===#

import argparse
import sys

MAP4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
BIAS4 = "affine_map<(d0, d1, d2, d3) -> (d3)>"


class Model:
    def __init__(self):
        self.lines = []
        self.next = 0

    def fresh(self):
        self.next += 1
        return "%%v%d" % self.next

    def emit(self, text):
        self.lines.append("    " + text)

    def constant(self, value, shape):
        v = self.fresh()
        self.emit("%s = arith.constant dense<%s> : %s" %
                  (v, value, tensor(shape)))
        return v

    def zeros(self, shape):
        """A tensor filled with 0.0 (an accumulator)."""
        e, f, z = self.fresh(), self.fresh(), self.fresh()
        t = tensor(shape)
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = tensor.empty() : %s" % (e, t))
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" %
                  (f, z, e, t, t))
        return f

    def pad(self, x, shape, p):
        if p == 0:
            return x, shape
        n, h, w, c = shape
        out = [n, h + 2 * p, w + 2 * p, c]
        v, z = self.fresh(), self.fresh()
        self.emit("%s = arith.constant 0.0 : f32" % z)
        self.emit("%s = tensor.pad %s low[0, %d, %d, 0] high[0, %d, %d, 0] {\n"
                  "    ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
                  "      tensor.yield %s : f32\n"
                  "    } : %s to %s" % (v, x, p, p, p, p, z, tensor(shape),
                                        tensor(out)))
        return v, out

    def conv(self, x, shape, k, cout, stride, pad, relu):
        """conv_2d_nhwc_hwcf + bias (+ ReLU)."""
        x, padded = self.pad(x, shape, pad)
        n, h, w, cin = padded
        oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
        out = [n, oh, ow, cout]
        weights = self.constant("0.001", [k, k, cin, cout])
        acc = self.zeros(out)
        v = self.fresh()
        self.emit("%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
                  "tensor<2xi64>, strides = dense<%d> : tensor<2xi64>} "
                  "ins(%s, %s : %s, %s) outs(%s : %s) -> %s" %
                  (v, stride, x, weights, tensor(padded),
                   tensor([k, k, cin, cout]), acc, tensor(out), tensor(out)))
        return self.bias(v, out, relu), out

    def bias(self, x, shape, relu):
        b = self.constant("0.01", [shape[-1]])
        e, v = self.fresh(), self.fresh()
        t = tensor(shape)
        body = ["%s_s = arith.addf %%in, %%b : f32" % v]
        result = "%s_s" % v
        if relu:
            body.append("%s_z = arith.constant 0.0 : f32" % v)
            body.append("%s_r = arith.maximumf %s, %s_z : f32" % (v, result, v))
            result = "%s_r" % v
        self.emit("%s = tensor.empty() : %s" % (e, t))
        self.emit("%s = linalg.generic {indexing_maps = [%s, %s, %s], "
                  "iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
                  "\"parallel\"]} ins(%s, %s : %s, %s) outs(%s : %s) {\n"
                  "    ^bb0(%%in: f32, %%b: f32, %%out: f32):\n"
                  "      %s\n"
                  "      linalg.yield %s : f32\n"
                  "    } -> %s" %
                  (v, MAP4, BIAS4, MAP4, x, b, t, tensor([shape[-1]]), e, t,
                   "\n      ".join(body), result, t))
        return v

    def add_relu(self, a, b, shape):
        e, v = self.fresh(), self.fresh()
        t = tensor(shape)
        self.emit("%s = tensor.empty() : %s" % (e, t))
        self.emit("%s = linalg.generic {indexing_maps = [%s, %s, %s], "
                  "iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
                  "\"parallel\"]} ins(%s, %s : %s, %s) outs(%s : %s) {\n"
                  "    ^bb0(%%x: f32, %%y: f32, %%out: f32):\n"
                  "      %%s = arith.addf %%x, %%y : f32\n"
                  "      %%z = arith.constant 0.0 : f32\n"
                  "      %%r = arith.maximumf %%s, %%z : f32\n"
                  "      linalg.yield %%r : f32\n"
                  "    } -> %s" % (v, MAP4, MAP4, MAP4, a, b, t, t, e, t, t))
        return v

    def max_pool(self, x, shape):
        x, padded = self.pad(x, shape, 1)
        n, h, w, c = padded
        out = [n, (h - 3) // 2 + 1, (w - 3) // 2 + 1, c]
        window, acc, v = self.fresh(), self.zeros(out), self.fresh()
        self.emit("%s = tensor.empty() : tensor<3x3xf32>" % window)
        self.emit("%s = linalg.pooling_nhwc_max {dilations = dense<1> : "
                  "tensor<2xi64>, strides = dense<2> : tensor<2xi64>} "
                  "ins(%s, %s : %s, tensor<3x3xf32>) outs(%s : %s) -> %s" %
                  (v, x, window, tensor(padded), acc, tensor(out),
                   tensor(out)))
        return v, out

    def bottleneck(self, x, shape, mid, cout, stride):
        a, s = self.conv(x, shape, 1, mid, stride, 0, True)
        b, s = self.conv(a, s, 3, mid, 1, 1, True)
        c, s = self.conv(b, s, 1, cout, 1, 0, False)
        shortcut = x
        if stride != 1 or shape[-1] != cout:
            shortcut, _ = self.conv(x, shape, 1, cout, stride, 0, False)
        return self.add_relu(c, shortcut, s), s

    def head(self, x, shape):
        """Average pool (sum, then / 49) and the fully connected layer."""
        n, h, w, c = shape
        acc = self.zeros([n, c])
        total, e, mean = self.fresh(), self.fresh(), self.fresh()
        self.emit("%s = linalg.generic {indexing_maps = [%s, "
                  "affine_map<(d0, d1, d2, d3) -> (d0, d3)>], iterator_types = "
                  "[\"parallel\", \"reduction\", \"reduction\", \"parallel\"]} "
                  "ins(%s : %s) outs(%s : %s) {\n"
                  "    ^bb0(%%in: f32, %%out: f32):\n"
                  "      %%s = arith.addf %%out, %%in : f32\n"
                  "      linalg.yield %%s : f32\n"
                  "    } -> %s" % (total, MAP4, x, tensor(shape), acc,
                                   tensor([n, c]), tensor([n, c])))
        self.emit("%s = tensor.empty() : %s" % (e, tensor([n, c])))
        self.emit("%s = linalg.generic {indexing_maps = ["
                  "affine_map<(d0, d1) -> (d0, d1)>, "
                  "affine_map<(d0, d1) -> (d0, d1)>], iterator_types = "
                  "[\"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {\n"
                  "    ^bb0(%%in: f32, %%out: f32):\n"
                  "      %%d = arith.constant %s : f32\n"
                  "      %%q = arith.divf %%in, %%d : f32\n"
                  "      linalg.yield %%q : f32\n"
                  "    } -> %s" % (mean, total, tensor([n, c]), e,
                                   tensor([n, c]), "%.1f" % (h * w),
                                   tensor([n, c])))
        weights = self.constant("0.001", [c, 1000])
        fc_acc, fc = self.zeros([n, 1000]), self.fresh()
        self.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (fc, mean, weights, tensor([n, c]), tensor([c, 1000]),
                     fc_acc, tensor([n, 1000]), tensor([n, 1000])))
        b = self.constant("0.01", [1000])
        e2, logits = self.fresh(), self.fresh()
        t = tensor([n, 1000])
        self.emit("%s = tensor.empty() : %s" % (e2, t))
        self.emit("%s = linalg.generic {indexing_maps = ["
                  "affine_map<(d0, d1) -> (d0, d1)>, "
                  "affine_map<(d0, d1) -> (d1)>, "
                  "affine_map<(d0, d1) -> (d0, d1)>], iterator_types = "
                  "[\"parallel\", \"parallel\"]} ins(%s, %s : %s, "
                  "tensor<1000xf32>) outs(%s : %s) {\n"
                  "    ^bb0(%%in: f32, %%b: f32, %%out: f32):\n"
                  "      %%s = arith.addf %%in, %%b : f32\n"
                  "      linalg.yield %%s : f32\n"
                  "    } -> %s" % (logits, fc, b, t, e2, t, t))
        return logits


def tensor(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--size", type=int, default=224,
                        help="input height and width (default 224)")
    args = parser.parse_args()
    m = Model()
    shape = [1, args.size, args.size, 3]
    x, shape = m.conv("%input", shape, 7, 64, 2, 3, True)
    x, shape = m.max_pool(x, shape)
    for blocks, mid, cout, stride in [(3, 64, 256, 1), (4, 128, 512, 2),
                                      (6, 256, 1024, 2), (3, 512, 2048, 2)]:
        for i in range(blocks):
            x, shape = m.bottleneck(x, shape, mid, cout,
                                    stride if i == 0 else 1)
    logits = m.head(x, shape)
    text = ("// ResNet-50 v1, NHWC, %dx%d input, biases for batch norms; "
            "written by bench/tuning/resnet50_nhwc.py\n"
            "func.func @forward(%%input: tensor<1x%dx%dx3xf32>) -> "
            "tensor<1x1000xf32> {\n%s\n    return %s : tensor<1x1000xf32>\n}\n"
            % (args.size, args.size, args.size, args.size,
               "\n".join(m.lines), logits))
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
