"""Model shapes that stress how the pass scales (issue 43), beside the three
families of gen_model.py. Each is a function (writer, n) -> None that writes
a whole module of about writer.target ops:

  mlp-shared    the MLP of gen_model.py, with one `arith.constant 0.0 : f32`
                shared by every fill and every ReLU body (read from above),
                as torch-mlir writes it;
  shared-value  one mask argument and one position table, computed once,
                read by a generic in every layer (thousands of readers of
                one value);
  chain         long chains of gray generics between contractions, with a
                red op (exp) in the middle of each, so that the cut has to
                place casts inside them;
  fanout        a contraction's output read by 32 gray branches that one
                generic of 32 inputs sums up again (wide fan-out and fan-in);
  funcs         many small private functions, one layer each, called in
                turn by @model;
  nested        layers inside scf.for loops and scf.if branches nested 8
                deep, repeated.
"""

from gen_model import MAP2, fresh, generic2


def unary(op, constant=None):
    """Body of `op a, constant` (or `op a` without a constant)."""
    def lines_of(args):
        r = fresh()
        if constant is None:
            return [f"{r} = {op} {args[0]} : f32"], r
        return [f"{r} = {op} {args[0]}, {constant} : f32"], r
    return lines_of


def matmul(w, x, n, zero, value):
    t = f"tensor<{n}x{n}xf32>"
    wt, e, f, mm = fresh(), fresh(), fresh(), fresh()
    w.op(f"{wt} = arith.constant dense<{value}> : {t}")
    w.op(f"{e} = tensor.empty() : {t}")
    w.op(f"{f} = linalg.fill ins({zero} : f32) outs({e} : {t}) -> {t}")
    w.op(f"{mm} = linalg.matmul ins({x}, {wt} : {t}, {t}) outs({f} : {t}) "
         f"-> {t}")
    return mm


def mlp_layer(w, x, n, zero):
    """matmul + bias + ReLU; the fill and the ReLU read `zero` from above."""
    t = f"tensor<{n}x{n}xf32>"
    mm = matmul(w, x, n, zero, 0.015625)
    b, e, bias = fresh(), fresh(), fresh()
    w.op(f"{b} = arith.constant dense<0.125> : tensor<{n}xf32>")
    w.op(f"{e} = tensor.empty() : {t}")
    a, bb, o, s = fresh("a"), fresh("b"), fresh("o"), fresh()
    w.op(f"{bias} = linalg.generic {{indexing_maps = [{MAP2}, affine_map<(d0, "
         f"d1) -> (d1)>, {MAP2}], iterator_types = [\"parallel\", "
         f"\"parallel\"]}} ins({mm}, {b} : {t}, tensor<{n}xf32>) outs({e} : "
         f"{t}) {{\n    ^bb0({a}: f32, {bb}: f32, {o}: f32):\n      {s} = "
         f"arith.addf {a}, {bb} : f32\n      linalg.yield {s} : f32\n    }} "
         f"-> {t}")
    w.ops += 2
    return generic2(w, [bias], unary("arith.maximumf", zero), n)


def func_header(w, name, args, result, private=False):
    vis = "private " if private else ""
    w.out.write(f"func.func {vis}@{name}({args}) -> {result} {{\n")
    w.ops += 1


def mlp_shared(w, n):
    t = f"tensor<{n}x{n}xf32>"
    func_header(w, "model", f"%input: {t}", t)
    w.op("%zero = arith.constant 0.0 : f32")
    x = "%input"
    while w.ops < w.target:
        x = mlp_layer(w, x, n, "%zero")
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


def shared_value(w, n):
    t = f"tensor<{n}x{n}xf32>"
    func_header(w, "model", f"%input: {t}, %mask: {t}", t)
    w.op("%zero = arith.constant 0.0 : f32")
    w.op(f"%table = arith.constant dense<0.5> : {t}")
    pos = generic2(w, ["%table"], unary("math.sin"), n)
    x = "%input"
    while w.ops < w.target:
        mm = matmul(w, x, n, "%zero", 0.0625)

        def add3(args):
            s, r = fresh(), fresh()
            return [f"{s} = arith.addf {args[0]}, {args[1]} : f32",
                    f"{r} = arith.addf {s}, {args[2]} : f32"], r
        x = generic2(w, [mm, "%mask", pos], add3, n)
        x = generic2(w, [x], unary("arith.maximumf", "%zero"), n)
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


def chain(w, n, length=50):
    t = f"tensor<{n}x{n}xf32>"
    func_header(w, "model", f"%input: {t}", t)
    w.op("%zero = arith.constant 0.0 : f32")
    w.op("%c1 = arith.constant 1.0 : f32")
    w.op("%c2 = arith.constant 0.5 : f32")
    ops = [("arith.addf", "%c1"), ("arith.mulf", "%c2"),
           ("arith.maximumf", "%zero")]
    x = "%input"
    while w.ops < w.target:
        x = matmul(w, x, n, "%zero", 0.0625)
        for i in range(length):
            if i == length // 2:
                x = generic2(w, [x], unary("math.exp"), n)
            op, c = ops[i % len(ops)]
            x = generic2(w, [x], unary(op, c), n)
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


def fanout(w, n, width=32):
    t = f"tensor<{n}x{n}xf32>"
    func_header(w, "model", f"%input: {t}", t)
    w.op("%zero = arith.constant 0.0 : f32")
    scales = []
    for i in range(width):
        w.op(f"%s{i} = arith.constant {1.0 + i / 64} : f32")
        scales.append(f"%s{i}")
    x = "%input"
    while w.ops < w.target:
        mm = matmul(w, x, n, "%zero", 0.0625)
        branches = [generic2(w, [mm], unary("arith.mulf", s), n)
                    for s in scales]

        def total(args):
            lines, acc = [], args[0]
            for a in args[1:-1]:
                r = fresh()
                lines.append(f"{r} = arith.addf {acc}, {a} : f32")
                acc = r
            return lines, acc
        x = generic2(w, branches, total, n)
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


def funcs(w, n):
    t = f"tensor<{n}x{n}xf32>"
    count = 0
    # About 15 ops a function, 3 for its call.
    while w.ops < w.target * 0.8:
        func_header(w, f"layer{count}", f"%x: {t}", t, private=True)
        w.op("%zero = arith.constant 0.0 : f32")
        y = mlp_layer(w, "%x", n, "%zero")
        w.op(f"return {y} : {t}")
        w.out.write("}\n")
        count += 1
    func_header(w, "model", f"%input: {t}", t)
    x = "%input"
    for i in range(count):
        y = fresh()
        w.op(f"{y} = func.call @layer{i}({x}) : ({t}) -> {t}")
        x = y
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


def nest(w, x, n, depth):
    """An scf.for around a layer and an scf.if that holds the next level."""
    t = f"tensor<{n}x{n}xf32>"
    r, i, acc = fresh(), fresh("i"), fresh("acc")
    w.op(f"{r} = scf.for {i} = %c0 to %c2 step %c1 iter_args({acc} = {x}) "
         f"-> ({t}) {{")
    y = mlp_layer(w, acc, n, "%zero")
    if depth > 1:
        z = fresh()
        w.op(f"{z} = scf.if %cond -> ({t}) {{")
        inner = nest(w, y, n, depth - 1)
        w.op(f"scf.yield {inner} : {t}")
        w.op("} else {")
        w.op(f"scf.yield {y} : {t}")
        w.op("}")
        y = z
    w.op(f"scf.yield {y} : {t}")
    w.op("}")
    return r


def nested(w, n, depth=8):
    t = f"tensor<{n}x{n}xf32>"
    func_header(w, "model", f"%input: {t}, %cond: i1", t)
    w.op("%zero = arith.constant 0.0 : f32")
    w.op("%c0 = arith.constant 0 : index")
    w.op("%c1 = arith.constant 1 : index")
    w.op("%c2 = arith.constant 2 : index")
    x = "%input"
    while w.ops < w.target:
        x = nest(w, x, n, depth)
    w.op(f"return {x} : {t}")
    w.out.write("}\n")


SHAPES = {
    "mlp-shared": mlp_shared,
    "shared-value": shared_value,
    "chain": chain,
    "fanout": fanout,
    "funcs": funcs,
    "nested": nested,
}
