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
    if family != "or/and-tree":  # the tree has more runs than max-intervals
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
