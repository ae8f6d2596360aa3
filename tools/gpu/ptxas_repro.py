"""A minimal GPU reproducer of the ptxas bug that made one emitted mask wrong.

ptxas (CUDA 13.0, and the compiler bundled with nvidia-cutlass-dsl 4.8.1;
sm_90a and sm_100a) compiles ``max(max(a, 0 - x), b)`` and
``min(min(a, 0 - x), b)`` into one three-input ``VIMNMX3 a, x, b``: the
negation is dropped. The H200 run of the corpus found it in
``batchify_sliding_window_16_128`` (see ``test/gpu-results.md``). maskopt's
CuTe target therefore never prints a bare negation (``maskopt.lowering.cute``)
and calls ``neg_i32``, a two-instruction inline-PTX negation, where there is
nothing to push the negation into.

This script builds one kernel, one thread per element, that computes from
int32 tensors ``a``, ``x``, ``b``:

* ``plain_max``: ``max(max(a, 0 - x), b)`` written plainly in the CuTe DSL;
* ``plain_min``: ``min(min(a, 0 - x), b)``;
* ``helper_max`` / ``helper_min``: the same with ``neg_i32(x)``, the helper
  maskopt emits (``NEG_I32`` below is a verbatim copy of
  ``maskopt.lowering.helpers.HELPERS["neg_i32"].definition()``; a CPU test checks that);

and compares each with torch (int32 arithmetic, wrapping negation). On a GPU
machine (repository root)::

    CUTE_DSL_ARCH=sm_90a python3 tools/gpu/ptxas_repro.py [--n N] [--out DIR]

prints one line per variant with its mismatches (and a few examples) and
writes ``DIR/ptxas_repro.json``. Exit status 0 when the helper variants match
everywhere; the plain variants are expected to mismatch while the ptxas bug
stands (their status is reported, not asserted). Without a GPU,
``--compile-only`` only compiles the kernel for ``CUTE_DSL_ARCH``.
"""

import argparse
import json
import os
import sys
import time
import types
from pathlib import Path

os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")  # read once, at `import cutlass`

NTHREADS = 128
VARIANTS = ("plain_max", "plain_min", "helper_max", "helper_min")

#: Verbatim copy of maskopt.lowering.helpers.HELPERS["neg_i32"].definition() (the GPU
#: machine has no xDSL to import maskopt.lowering.cute from).
NEG_I32 = '''\
@dsl_user_op
def neg_i32(x, *, loc=None, ip=None):
    """-x of an Int32, wrapping (two\'s complement), as `not` and `add 1` in
    inline PTX so that no min/max sees a negation (see maskopt.lowering.cute)."""
    return cutlass.Int32(
        llvm.inline_asm(
            T.i32(),
            [cutlass.Int32(x).ir_value(loc=loc, ip=ip)],
            "{ .reg .b32 t; not.b32 t, $1; add.s32 $0, t, 1; }",
            "=r,r",
            has_side_effects=False,
            is_align_stack=False,
            asm_dialect=llvm.AsmDialect.AD_ATT,
        )
    )
'''


def neg_i32_function():
    """`neg_i32`, defined from the NEG_I32 source like an emitted module does."""
    import cutlass
    from cutlass._mlir.dialects import llvm
    from cutlass.cutlass_dsl import T, dsl_user_op

    mod = types.ModuleType("maskopt_neg_helper")
    mod.__dict__.update(cutlass=cutlass, llvm=llvm, T=T, dsl_user_op=dsl_user_op)
    exec(compile(NEG_I32, "<neg_i32>", "exec"), mod.__dict__)
    return mod.neg_i32


def build_kernel():
    import cutlass.cute as cute
    from cutlass import Int32

    neg_i32 = neg_i32_function()

    @cute.kernel
    def repro_kernel(at: cute.Tensor, xt: cute.Tensor, bt: cute.Tensor, out: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        i = bidx * NTHREADS + tidx
        a = Int32(at[i])
        x = Int32(xt[i])
        b = Int32(bt[i])
        nx = Int32(0) - x
        hx = neg_i32(x)
        out[i, 0] = max(max(a, nx), b)
        out[i, 1] = min(min(a, nx), b)
        out[i, 2] = max(max(a, hx), b)
        out[i, 3] = min(min(a, hx), b)

    @cute.jit
    def repro_launch(at: cute.Tensor, xt: cute.Tensor, bt: cute.Tensor, out: cute.Tensor,
                     nblocks: Int32):
        repro_kernel(at, xt, bt, out).launch(grid=(nblocks, 1, 1), block=(NTHREADS, 1, 1))

    return repro_launch


def to_cute(t):
    from cutlass.cute.runtime import from_dlpack

    return from_dlpack(t.detach(), assumed_align=4).mark_layout_dynamic()


def inputs(n, device, seed):
    """Random int32 triples plus the special values (0, +-1, MIN, MAX)."""
    import torch

    g = torch.Generator().manual_seed(seed)
    lo, hi = -(2**31), 2**31 - 1
    special = torch.tensor([0, 1, -1, 31, -31, 2**30, -(2**30), hi, lo], dtype=torch.int64)
    cols = []
    for _ in range(3):
        small = torch.randint(-64, 65, (n // 2,), generator=g)
        wide = torch.randint(lo, hi, (n - n // 2 - special.numel(),), generator=g)
        col = torch.cat([small, wide, special])
        cols.append(col[torch.randperm(n, generator=g)])
    return [c.to(torch.int32).to(device) for c in cols]


def reference(a, x, b):
    import torch

    nx = torch.neg(x)  # int32: wraps, -MIN == MIN
    mx = torch.maximum(torch.maximum(a, nx), b)
    mn = torch.minimum(torch.minimum(a, nx), b)
    return torch.stack([mx, mn, mx, mn], dim=1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1 << 20, help="elements (rounded up to 128)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="write ptxas_repro.json here")
    ap.add_argument("--compile-only", action="store_true", help="compile for CUTE_DSL_ARCH, no GPU")
    args = ap.parse_args(argv)

    import cutlass.cute as cute
    import torch
    from cutlass import Int32

    n = -(-max(args.n, 128) // NTHREADS) * NTHREADS
    device = "cpu" if args.compile_only else "cuda"
    a, x, b = inputs(n, device, args.seed)
    out = torch.zeros((n, 4), dtype=torch.int32, device=device)
    t0 = time.perf_counter()
    compiled = cute.compile(build_kernel(), to_cute(a), to_cute(x), to_cute(b), to_cute(out),
                            Int32(n // NTHREADS))
    print(f"compiled for {os.environ['CUTE_DSL_ARCH']} in {time.perf_counter() - t0:.1f} s")
    if args.compile_only:
        return 0
    compiled(to_cute(a), to_cute(x), to_cute(b), to_cute(out), Int32(n // NTHREADS))
    torch.cuda.synchronize()
    want = reference(a, x, b)
    result = {"n": n, "seed": args.seed, "arch": os.environ["CUTE_DSL_ARCH"],
              "device": torch.cuda.get_device_name(), "variants": {}}
    for j, name in enumerate(VARIANTS):
        bad = (out[:, j] != want[:, j]).nonzero().flatten()
        examples = [
            {"a": int(a[i]), "x": int(x[i]), "b": int(b[i]), "got": int(out[i, j]),
             "want": int(want[i, j])}
            for i in bad[:5].tolist()
        ]
        result["variants"][name] = {"mismatches": int(bad.numel()), "examples": examples}
        print(f"{name:11s} {n} values, {bad.numel()} mismatches"
              + (f"; e.g. {examples[0]}" if examples else ""))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "ptxas_repro.json").write_text(json.dumps(result, indent=1) + "\n")
    helpers_ok = all(result["variants"][v]["mismatches"] == 0 for v in VARIANTS[2:])
    return 0 if helpers_ok else 1


if __name__ == "__main__":
    sys.exit(main())
