#!/usr/bin/env python3
# Makes a corpus model runnable and its outputs informative:
#  - every splat weight constant of rank 2 or 4 (the corpus models have one
#    value per tensor) becomes a linalg.generic that computes a fixed
#    pseudo-random pattern from the element's indices, scaled by
#    1/sqrt(fan-in);
#  - a @main is appended that runs @forward on a fixed input (not symmetric
#    in H and W) and prints the output with printMemrefF32.
# Usage: prepare_model.py MODEL.mlir > RUNNABLE.mlir
import math
import re
import sys

SPLAT = re.compile(r'^(\s*)%([\w]+) = arith\.constant dense<[-0-9.e+]+> : '
                   r'tensor<((?:\d+x){1,3}\d+)xf32>$', re.M)


def generated_weight(match):
    indent, name, shape = match.groups()
    dims = [int(d) for d in shape.split('x')]
    if len(dims) not in (2, 4):
        return match.group(0)
    scale = 1.0 / (8.0 * math.sqrt(math.prod(dims[1:])))
    names = ['a', 'b', 'c', 'd'][:len(dims)]
    multipliers = [7, 13, 3, 5][:len(dims)]
    iterators = ', '.join(['"parallel"'] * len(dims))
    lines = [f'{indent}%{name}_init = tensor.empty() : tensor<{shape}xf32>',
             f'{indent}%{name} = linalg.generic {{indexing_maps = '
             f'[affine_map<({", ".join(names)}) -> ({", ".join(names)})>], '
             f'iterator_types = [{iterators}]}} '
             f'outs(%{name}_init : tensor<{shape}xf32>) {{',
             f'{indent}^bb0(%out: f32):']
    total = None
    for i, (n, k) in enumerate(zip(names, multipliers)):
        lines.append(f'{indent}  %{name}_i{i} = linalg.index {i} : index')
        lines.append(f'{indent}  %{name}_k{i} = arith.constant {k} : index')
        lines.append(f'{indent}  %{name}_m{i} = arith.muli %{name}_i{i}, %{name}_k{i} : index')
        if total is None:
            total = f'%{name}_m{i}'
        else:
            lines.append(f'{indent}  %{name}_s{i} = arith.addi {total}, %{name}_m{i} : index')
            total = f'%{name}_s{i}'
    lines += [
        f'{indent}  %{name}_17 = arith.constant 17 : index',
        f'{indent}  %{name}_r = arith.remui {total}, %{name}_17 : index',
        f'{indent}  %{name}_ri = arith.index_cast %{name}_r : index to i32',
        f'{indent}  %{name}_rf = arith.sitofp %{name}_ri : i32 to f32',
        f'{indent}  %{name}_8 = arith.constant 8.0 : f32',
        f'{indent}  %{name}_z = arith.subf %{name}_rf, %{name}_8 : f32',
        f'{indent}  %{name}_scale = arith.constant {scale:.8e} : f32',
        f'{indent}  %{name}_v = arith.mulf %{name}_z, %{name}_scale : f32',
        f'{indent}  linalg.yield %{name}_v : f32',
        f'{indent}}} -> tensor<{shape}xf32>']
    return '\n'.join(lines)


def main():
    src = open(sys.argv[1]).read()
    signature = re.search(r'func\.func @forward\(%arg0: tensor<([0-9x]+)xf32>\)'
                          r' -> tensor<([0-9x]+)xf32>', src)
    ins, outs = signature.groups()
    src = SPLAT.sub(generated_weight, src)
    harness = f'''
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {{
    %e = tensor.empty() : tensor<{ins}xf32>
    %x = linalg.generic {{indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} outs(%e : tensor<{ins}xf32>) {{
    ^bb0(%out: f32):
      %c = linalg.index 1 : index
      %h = linalg.index 2 : index
      %w = linalg.index 3 : index
      %c7 = arith.constant 7 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c13 = arith.constant 13 : index
      %t0 = arith.muli %c, %c7 : index
      %t1 = arith.muli %h, %c3 : index
      %t2 = arith.muli %w, %c5 : index
      %t3 = arith.addi %t0, %t1 : index
      %t4 = arith.addi %t3, %t2 : index
      %t5 = arith.remui %t4, %c13 : index
      %i = arith.index_cast %t5 : index to i32
      %f = arith.sitofp %i : i32 to f32
      %s = arith.constant 0.1 : f32
      %g = arith.mulf %f, %s : f32
      linalg.yield %g : f32
    }} -> tensor<{ins}xf32>
    %y = call @forward(%x) : (tensor<{ins}xf32>) -> tensor<{outs}xf32>
    %m = bufferization.to_buffer %y : tensor<{outs}xf32> to memref<{outs}xf32>
    %u = memref.cast %m : memref<{outs}xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }}
}}
'''
    end = src.rstrip().rfind('}')
    sys.stdout.write(src[:end] + harness)


if __name__ == '__main__':
    main()
