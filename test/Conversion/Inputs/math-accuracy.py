#!/usr/bin/env python3
"""Accuracy of --amp-gpu-expand-math against Python's libm (in double).

    math-accuracy.py gen > m.mlir      # a program that prints op(x) per sample
    math-accuracy.py check OUT         # OUT: what the program printed

`gen` writes a module whose @main applies each math op of CASES to its
samples (read from a constant global) and prints the bits of every result,
one `vector.print` per line. The test runs it through --amp-gpu-expand-math
and on the CPU (the expansions use only IEEE-rounded operations, so the CPU
computes what the GPU does, up to the FMA contraction NVPTX may add).
`check` compares every result with the correctly rounded reference and
prints, per case, the maximum error in units in the last place (ulp of the
result type) and the maximum absolute error; it fails when a case exceeds
its limits.
"""

import math
import struct
import sys

N = 2001


def f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def from_f32_bits(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f16(x):
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def from_f16_bits(b):
    return struct.unpack("<e", struct.pack("<H", b & 0xFFFF))[0]


def bf16(x):
    # Round to nearest even on the upper 16 bits of the f32 pattern.
    b = f32_bits(f32(x))
    b += 0x7FFF + ((b >> 16) & 1)
    return from_f32_bits(b & 0xFFFF0000)


def from_bf16_bits(b):
    return from_f32_bits((b & 0xFFFF) << 16)


TYPES = {
    # name: (round, from bits, mantissa bits, min normal exponent, int type)
    "f32": (f32, from_f32_bits, 23, -126, "i32"),
    "f16": (f16, from_f16_bits, 10, -14, "i16"),
    "bf16": (bf16, from_bf16_bits, 7, -126, "i16"),
}


def ulp(value, type_name):
    _, _, mantissa, min_exp, _ = TYPES[type_name]
    if value == 0 or math.isinf(value) or math.isnan(value):
        return 2.0 ** (min_exp - mantissa)
    exp = max(math.frexp(abs(value))[1] - 1, min_exp)
    return 2.0 ** (exp - mantissa)


def linear(lo, hi):
    return [lo + (hi - lo) * i / (N - 1) for i in range(N)]


def logarithmic(lo, hi):
    a, b = math.log(lo), math.log(hi)
    return [math.exp(a + (b - a) * i / (N - 1)) for i in range(N)]


# (op, type, samples, reference, max ulp, max abs error): the limits are
# what was measured (rounded up), so that a change that loses accuracy fails.
# sin and cos are checked by absolute error (relative error is meaningless
# near their zeros); erf and erfc too (their upstream approximations promise
# an absolute error).
CASES = [
    ("exp", "f32", linear(-87.0, 88.0), math.exp, 1, None),
    ("exp", "f32", linear(-1.0, 1.0), math.exp, 1, None),
    ("exp2", "f32", linear(-149.0, 128.0), lambda x: 2.0 ** x, 1, None),
    ("expm1", "f32", linear(-10.0, 10.0), math.expm1, 2, None),
    ("log", "f32", logarithmic(1e-30, 1e30), math.log, 1, None),
    ("log", "f32", linear(0.5, 2.0), math.log, 1, None),
    ("log2", "f32", logarithmic(1e-30, 1e30), math.log2, 1.5, None),
    ("log10", "f32", logarithmic(1e-30, 1e30), math.log10, 2, None),
    ("log1p", "f32", linear(-0.9, 10.0), math.log1p, 2, None),
    ("tanh", "f32", linear(-10.0, 10.0), math.tanh, 4, None),
    ("erf", "f32", linear(-4.0, 4.0), math.erf, None, 2e-7),
    ("erfc", "f32", linear(-4.0, 9.0), math.erfc, None, 2e-7),
    ("sin", "f32", linear(-3.2, 3.2), math.sin, None, 2.5e-7),
    ("cos", "f32", linear(-3.2, 3.2), math.cos, None, 2.5e-7),
    ("sin", "f32", linear(-100.0, 100.0), math.sin, None, 2.5e-7),
    ("cos", "f32", linear(-100.0, 100.0), math.cos, None, 2.5e-7),
    ("sin", "f32", linear(-5000.0, 5000.0), math.sin, None, 2.5e-7),
    ("atan", "f32", linear(-50.0, 50.0), math.atan, 40, None),
    ("sqrt", "f32", logarithmic(1e-30, 1e30), math.sqrt, 0.5, None),
    ("rsqrt", "f32", logarithmic(1e-30, 1e30), lambda x: 1 / math.sqrt(x),
     1.5, None),
    ("cbrt", "f32", linear(-100.0, 100.0),
     lambda x: math.copysign(abs(x) ** (1 / 3), x), 12, None),
    ("sinh", "f32", linear(-10.0, 10.0), math.sinh, 8, None),
    ("cosh", "f32", linear(-10.0, 10.0), math.cosh, 1.5, None),
    # exp(y * log(x)): the error grows with |y * log(x)| (upstream's
    # expansion).
    ("powf 2.5", "f32", linear(0.01, 30.0), lambda x: x ** 2.5, 13, None),
    ("powf -0.75", "f32", logarithmic(1e-10, 1e10), lambda x: x ** -0.75, 25,
     None),
    ("floor", "f32", linear(-10.0, 10.0), math.floor, 0, None),
    ("ceil", "f32", linear(-10.0, 10.0), math.ceil, 0, None),
    ("roundeven", "f32", linear(-10.0, 10.0), round, 0, None),
    # 16-bit types are computed in f32 and rounded: within half an ulp of
    # theirs, but for double rounding.
    ("exp", "f16", linear(-10.0, 10.0), math.exp, 0.6, None),
    ("tanh", "f16", linear(-5.0, 5.0), math.tanh, 0.6, None),
    ("erf", "f16", linear(-3.0, 3.0), math.erf, 0.6, None),
    ("rsqrt", "f16", linear(0.01, 100.0), lambda x: 1 / math.sqrt(x), 0.6,
     None),
    ("exp", "bf16", linear(-80.0, 80.0), math.exp, 0.6, None),
    ("log", "bf16", logarithmic(1e-30, 1e30), math.log, 0.6, None),
]


def samples(case):
    _, type_name, xs, _, _, _ = case
    rnd = TYPES[type_name][0]
    return [rnd(x) for x in xs]


def generate():
    out = []
    for i, case in enumerate(CASES):
        op, type_name = case[0], case[1]
        values = ", ".join(repr(x) for x in samples(case))
        out.append('memref.global "private" constant @in%d : memref<%dx%s> = '
                   'dense<[%s]>' % (i, N, type_name, values))
    out.append("func.func @main() {")
    out.append("  %c0 = arith.constant 0 : index")
    out.append("  %c1 = arith.constant 1 : index")
    out.append("  %%cn = arith.constant %d : index" % N)
    for i, case in enumerate(CASES):
        op, type_name = case[0], case[1]
        int_type = TYPES[type_name][4]
        out.append("  %%g%d = memref.get_global @in%d : memref<%dx%s>" %
                   (i, i, N, type_name))
        out.append("  scf.for %i = %c0 to %cn step %c1 {")
        out.append("    %%x = memref.load %%g%d[%%i] : memref<%dx%s>" %
                   (i, N, type_name))
        if " " in op:  # a binary op with a constant second operand
            op, operand = op.split()
            out.append("    %%c = arith.constant %s : %s" %
                       (float(operand), type_name))
            out.append("    %%y = math.%s %%x, %%c : %s" % (op, type_name))
        else:
            out.append("    %%y = math.%s %%x : %s" % (op, type_name))
        out.append("    %%b = arith.bitcast %%y : %s to %s" %
                   (type_name, int_type))
        out.append("    vector.print %%b : %s" % int_type)
        out.append("  }")
    out.append("  return")
    out.append("}")
    print("\n".join(out))


def check(path):
    with open(path) as f:
        lines = [int(line) for line in f.read().split()]
    if len(lines) != N * len(CASES):
        sys.exit("math-accuracy: expected %d results, got %d" %
                 (N * len(CASES), len(lines)))
    failed = False
    for i, case in enumerate(CASES):
        op, type_name, _, reference, max_ulp, max_abs = case
        rnd, from_bits = TYPES[type_name][0], TYPES[type_name][1]
        worst_ulp, worst_abs, worst_x = 0.0, 0.0, None
        for x, bits in zip(samples(case), lines[i * N:(i + 1) * N]):
            got = from_bits(bits)
            try:
                want = reference(x)
            except (OverflowError, ValueError):
                continue
            if math.isinf(rnd(want)) and got == rnd(want):
                continue
            err = abs(got - want)
            err_ulp = err / ulp(want, type_name)
            if err_ulp > worst_ulp:
                worst_ulp, worst_x = err_ulp, x
            worst_abs = max(worst_abs, err)
        bad = ((max_ulp is not None and worst_ulp > max_ulp) or
               (max_abs is not None and worst_abs > max_abs))
        failed |= bad
        print("%-11s %-4s max %7.2f ulp (x=%-12.6g) max abs %.2e  %s" % (
            op, type_name, worst_ulp, worst_x if worst_x is not None else 0,
            worst_abs, "FAIL" if bad else "ok"))
    print("math-accuracy: %s" % ("FAILED" if failed else "all within limits"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if sys.argv[1:2] == ["gen"]:
        generate()
    elif sys.argv[1:2] == ["check"] and len(sys.argv) == 3:
        check(sys.argv[2])
    else:
        sys.exit(__doc__)
