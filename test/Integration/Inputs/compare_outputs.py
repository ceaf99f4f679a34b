#!/usr/bin/env python3
# Compares two outputs printed by printMemrefF32 (a reference and a converted
# model): prints the error metrics of the BRIEF (max abs error, relative L2
# error, cosine similarity, argmax agreement, non-finite values) and fails if
# the relative L2 error exceeds --max-rel-l2 or the argmax differs.
# Usage: compare_outputs.py REF OUT [--max-rel-l2=X]
import math
import re
import sys


def load(path):
    text = open(path).read()
    text = text[text.index('data ='):]
    return [float(v) for v in
            re.findall(r'-?(?:nan|inf|\d+(?:\.\d+)?(?:e[-+]?\d+)?)', text[6:])]


def main():
    ref, out = load(sys.argv[1]), load(sys.argv[2])
    limit = 1e-5
    for arg in sys.argv[3:]:
        if arg.startswith('--max-rel-l2='):
            limit = float(arg.split('=', 1)[1])
    if len(ref) != len(out) or not ref:
        print(f'FAIL: {len(ref)} reference values, {len(out)} values')
        return 1
    nonfinite = sum(not math.isfinite(v) for v in out)
    max_abs = max(abs(a - b) for a, b in zip(ref, out))
    norm_ref = math.sqrt(sum(a * a for a in ref))
    norm_out = math.sqrt(sum(b * b for b in out))
    diff = math.sqrt(sum((a - b) ** 2 for a, b in zip(ref, out)))
    rel_l2 = diff / norm_ref if norm_ref else (0.0 if diff == 0 else math.inf)
    dot = sum(a * b for a, b in zip(ref, out))
    cosine = dot / (norm_ref * norm_out) if norm_ref and norm_out else 0.0
    same_argmax = ref.index(max(ref)) == out.index(max(out))
    print(f'values={len(ref)} max_abs={max_abs:.3g} rel_l2={rel_l2:.3g} '
          f'cosine={cosine:.9f} argmax_agrees={same_argmax} '
          f'nonfinite={nonfinite}')
    if nonfinite or rel_l2 > limit or not same_argmax:
        print(f'FAIL: rel_l2 above {limit:g}, argmax differs or non-finite')
        return 1
    print('OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
