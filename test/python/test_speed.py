"""Non-timed tests of the speed work (issue #8): import hygiene of `.mlir`
runs, deep graphs without RecursionError, and the fast rewrite drivers
computing exactly what xDSL's stock canonicalize / cse / dce compute.

Timings live in `python -m maskopt.tools.bench_speed` (test/speed-results.md).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from maskopt.tools.bench_speed import FAMILIES, _MLIR

_PROBE = (
    "import sys\n"
    "from maskopt.tools.mask_opt import main\n"
    "rc = main(sys.argv[1:])\n"
    "heavy = [m for m in ('torch', 'cutlass', 'flash_attn', 'sympy', 'numpy') if m in sys.modules]\n"
    "print('HEAVY:' + ','.join(heavy), file=sys.stderr)\n"
    "sys.exit(rc)\n"
)


def test_mlir_run_imports_neither_torch_nor_cutlass(tmp_path):
    path = tmp_path / "masks.mlir"
    path.write_text(_MLIR)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path), "-p", "pack-mask", "-t", "cute"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "def sliding_window(" in proc.stdout and "def document_causal(" in proc.stdout
    heavy = [ln for ln in proc.stderr.splitlines() if ln.startswith("HEAVY:")]
    assert heavy == ["HEAVY:"], proc.stderr


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_deep_generated_graphs_compile(family):
    """1200-node generated graphs (chains deeper than Python's default
    recursion limit) compile; the emitted module agrees with eager torch."""
    import maskopt

    gm = FAMILIES[family](1200)
    limit = sys.getrecursionlimit()
    res = maskopt.compile_mask(gm)
    assert sys.getrecursionlimit() == limit
    if family == "per-lane-chain":  # nothing in it is lane-affine
        assert not res.packed
    elif family != "or/and-tree":  # the tree may have more runs than max-intervals
        assert res.packed, res.reason
    _check_words(gm, res)


def _check_words(gm, res):
    """Keep words of the emitted module (CPU emulator) == eager evaluation of gm."""
    import torch

    from maskopt.lowering import cute_emulator
    from maskopt.tools.corpus import reference_words

    aux = [
        (torch.arange(p.meta["val"].numel(), dtype=p.meta["val"].dtype) * 7) % 3001
        for p in list(gm.graph.find_nodes(op="placeholder"))[4:]
    ]

    def mask_mod(b, h, q, kv):
        return gm(b, h, q, kv, *aux)

    g = torch.Generator().manual_seed(0)
    q = torch.randint(0, 3000, (8,), generator=g, dtype=torch.int32)
    kv = (q - torch.randint(-40, 1200, (8,), generator=g, dtype=torch.int32)).clamp(0, 4000)
    b = torch.zeros_like(q)
    expected = reference_words(mask_mod, b, b, q, kv)
    got = cute_emulator.load_module(res.cute_source).keep_words(b, b, q, kv, aux_tensors=aux)
    assert torch.equal(got, expected)


def _stock_pipeline():
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import (
        CommonSubexpressionElimination,
    )

    from maskopt.passes import pipeline

    return tuple(
        CanonicalizePass() if p.name == "canonicalize"
        else CommonSubexpressionElimination() if p.name == "cse"
        else p
        for p in pipeline.pack_mask_passes()
    )


def test_fast_drivers_match_stock_xdsl_on_the_corpus():
    """pack-mask with maskopt's canonicalize/cse/dce drivers prints the same
    IR as with xDSL's stock passes (region_dce for the dce) on every mask."""
    from unittest import mock

    from xdsl.dialects.builtin import ModuleOp
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier
    from xdsl.printer import Printer
    from xdsl.transforms.dead_code_elimination import region_dce

    import maskopt
    from maskopt.lowering.fx_import import import_graph
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.lowering import interval_bounds
    from maskopt.passes import fold_intervals, lane_affine, pipeline, simplify_intervals
    from maskopt.tools.corpus import CORPUS

    def run(passes, gm):
        module = ModuleOp([import_graph(gm, "f")])
        ctx = maskopt.make_context()
        for p in passes:
            p.apply(ctx, module)
        out = io.StringIO()
        Printer(stream=out).print_op(module)
        return out.getvalue()

    for case in CORPUS[::3]:  # a third of the corpus keeps this test cheap
        gm = trace_mask_mod(case.make(), name=case.name).graph_module
        fast = run(pipeline.pack_mask_passes(), gm)
        with (
            mock.patch.object(fold_intervals, "region_dce", region_dce),
            mock.patch.object(lane_affine, "region_dce", region_dce),
            mock.patch.object(interval_bounds, "dce", region_dce),
            mock.patch.object(simplify_intervals, "dce", region_dce),
            mock.patch.object(simplify_intervals, "cse", _stock_cse()),
            mock.patch.object(
                simplify_intervals, "PatternApplier", lambda ps: GreedyRewritePatternApplier(list(ps))
            ),
        ):
            stock = run(_stock_pipeline(), gm)
        assert fast == stock, case.name


def _stock_cse():
    from xdsl.transforms.common_subexpression_elimination import cse

    return cse


def test_compile_pauses_gc_and_restores_its_state():
    import gc

    import maskopt

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    assert gc.isenabled()
    seen = []
    with maskopt.gc_paused():
        seen.append(gc.isenabled())
    assert seen == [False] and gc.isenabled()
    assert maskopt.compile_mask(causal).packed and gc.isenabled()
    gc.disable()
    try:
        assert maskopt.compile_mask(causal).packed and not gc.isenabled()
    finally:
        gc.enable()


def test_linear_bound_pruning_matches_the_pairwise_definition():
    """fold-intervals prunes a run's bounds in linear time (`_prune_bounds`,
    `_some_le`): the same bounds in the same order as the pairwise `_prune`
    with `le`, on random keys (unknown, constants around 0 and LANES, shared
    and distinct (base, sign) groups, repeated bounds)."""
    import random

    from maskopt.passes.fold_intervals import LANES, _prune, _prune_bounds, _some_le

    class Bound:
        pass

    rng = random.Random(8)
    for _ in range(5000):
        bounds = [Bound() for _ in range(rng.randint(0, 9))]
        keys = {}
        for b in bounds:
            r = rng.random()
            if r < 0.2:
                keys[id(b)] = None
            elif r < 0.5:
                keys[id(b)] = (None, rng.choice([0, 0, 1]), rng.choice([-3, 0, 1, 5, 31, 32, 40]))
            else:
                keys[id(b)] = (rng.choice("ab"), rng.choice([1, -1]), rng.randint(-3, 35))

        def key(b):
            return keys[id(b)]

        def le(x, y):  # _Folder.le on keys
            kx, ky = key(x), key(y)
            if x is y:
                return True
            if kx is None or ky is None:
                return False
            if kx[0] is None and kx[2] <= 0 or ky[0] is None and ky[2] >= LANES:
                return True
            return kx[:2] == ky[:2] and kx[2] <= ky[2]

        items = bounds + ([rng.choice(bounds)] if bounds and rng.random() < 0.2 else [])
        rng.shuffle(items)
        assert _prune_bounds(items, key, False) == _prune(items, le)
        assert _prune_bounds(items, key, True) == _prune(items, lambda x, y: le(y, x))
        xs = rng.sample(items, rng.randint(0, len(items)))
        ys = rng.sample(items, rng.randint(0, len(items)))
        assert _some_le(xs, ys, key) == any(le(x, y) for y in ys for x in xs)


def test_sum_order_matches_its_definition():
    """The bound planner's `_sum_order` (cached orders, int arithmetic) returns the
    first order, positive terms or the constant first, whose every partial sum
    fits i32, the first term alone included, with no constant outside i32
    (it is emitted as an i32 constant, wherever it comes), never starting
    with `0 - x` for an x outside i32; on random terms, ranges and constants
    around the i32 limits."""
    import random
    from itertools import permutations

    from maskopt.passes.analysis import Range
    from maskopt.passes.bound_plans import BoundPlanner

    lo32, hi32 = -(2**31), 2**31 - 1

    def fits(lo, hi):
        return lo32 <= lo and hi <= hi32

    def reference(terms, rs, const):
        idx = list(range(len(terms))) + ([-1] if const else [])
        perms = sorted(permutations(idx), key=lambda p: p[0] != -1 and terms[p[0]][1] < 0)
        for perm in perms:
            lo = hi = 0
            ok = True
            for i, t in enumerate(perm):
                if t == -1:
                    tl = th = const
                    if not fits(const, const):
                        ok = False
                        break
                else:
                    d, r = terms[t][1], rs[t]
                    tl, th = sorted((r.lo * d, r.hi * d))
                    if not fits(tl, th) or (i == 0 and d < 0 and not fits(r.lo, r.hi)):
                        ok = False
                        break
                lo, hi = lo + tl, hi + th
                if not fits(lo, hi):
                    ok = False
                    break
            if ok and all(fits(*sorted((rs[t].lo * d, rs[t].hi * d))) for t, (_, d) in enumerate(terms)):
                return list(perm)
        return None

    rng = random.Random(7)
    edges = [lo32 - 40, lo32, lo32 + 40, -5, 0, 5, hi32 - 40, hi32, hi32 + 40]
    for _ in range(3000):
        n = rng.randint(1, 3)
        terms = [(object(), rng.choice([1, -1, 2, -3])) for _ in range(n)]
        rs = [Range(*sorted((rng.choice(edges), rng.choice(edges)))) for _ in range(n)]
        const = rng.choice([0, 0, 7, -7, hi32, lo32, hi32 + 10, lo32 - 10])
        assert BoundPlanner._sum_order(terms, rs, const) == reference(terms, rs, const), (terms, rs, const)


def test_plan_pruning_keeps_the_chosen_bounds(monkeypatch):
    """The bound planner skips the affine plan search where no affine plan can
    cost less than a plan listed before it (`_least`, `beat`): the packed IR
    is the same as with the full search, on corpus masks whose bounds use
    every kind of plan and on generated chains."""
    import maskopt
    from maskopt.passes import bound_plans
    from maskopt.tools import corpus
    from maskopt.tools.bench_speed import gen_affine_chain, gen_and_chain, gen_tree

    names = ["causal", "sliding_window_100", "prefix_lm_77", "chunked_causal_96",
             "doc_start_causal_i64", "extreme_start_causal", "bottom_right_causal",
             "natten_24x24_k7", "block_diffusion", "window_or_prefix", "streaming_sink",
             "row_bounded_causal", "nine_diagonals", "spatial_head", "vsa_padding_t64"]
    masks = [(n, corpus.get_case(n).make()) for n in names]
    masks += [(f.__name__, f(60)) for f in (gen_and_chain, gen_tree, gen_affine_chain)]

    def irs():
        return [str(maskopt.compile_mask(m, name=n).module) for n, m in masks]

    pruned = irs()
    monkeypatch.setattr(bound_plans, "_least", lambda plans: None)  # search every plan
    assert irs() == pruned


def test_stage_breakdown_runs_compile_masks_path():
    """`bench_speed --stages` times the stages of compile_mask's default path:
    the module it ends with is compile_mask's, and every stage is listed."""
    import maskopt
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.bench_speed import bench_stages, print_stages
    from maskopt.tools.corpus import get_case

    names = ["sliding_window_100", "attn_gym_doc_causal"]  # packed, per-lane
    result = bench_stages(names, repeat=1)
    for name in names:
        gm = trace_mask_mod(get_case(name).make(), name=name).graph_module
        want = maskopt.compile_mask(gm, name="f").cute_source
        got = result["masks"][name]
        assert got["cute_source"] == want
        labels = [k.split(":", 1)[1] for k in got["stages"]]
        assert labels[0] == "FX import" and labels[-3:] == ["verify", "CuTe module", "keep-mask exprs"]
        assert labels[1:-3] == [p.name for p in maskopt.passes.pipeline.pack_mask_passes()]
        assert got["ops"] > 0
    out = io.StringIO()
    sys.stdout, saved = out, sys.stdout
    try:
        print_stages(result)
    finally:
        sys.stdout = saved
    assert "| **total** |" in out.getvalue()
    assert "xDSL's own costs in this process (us): build arith.addi" in out.getvalue()
