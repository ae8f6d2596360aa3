"""The ptxas min/max negation miscompile (maskopt.lowering.cute.PTXAS_NEGATION).

ptxas fuses `max(max(a, 0 - x), b)` into one VIMNMX3 and drops the negation.
The CuTe target never prints an i32 negation: it pushes it into the negated
value or calls the `neg_i32` inline-PTX helper. These tests check the printed
code, its words against eager torch (emulated), and, with nvidia-cutlass-dsl,
the PTX that LLVM produced, with a lint that is shown to find the hazard in
the code the printer used to emit."""

import itertools
import re
from pathlib import Path

import pytest
import torch

import maskopt
from conftest import compiled
from maskopt.lowering.cute_emulator import load_module
from maskopt.tools import corpus
from maskopt.tools.ptx_lint import negation_into_minmax

I32_MIN, I32_MAX = -(2**31), 2**31 - 1

_PTX = """
    neg.s32 \t%r39, %r24;
    add.s32 \t%r40, %r36, -16;
    max.s32 \t%r44, %r33, %r39;   // hazard: max(max(a, -x), b)
    max.s32 \t%r45, %r44, %r40;
    sub.s32 \t%r50, 0, %r3;
    min.s32 \t%r49, %r2, %r1;
    min.s32 \t%r51, %r49, %r50;   // hazard: min(min(a, b), -x)
    mul.lo.s32 \t%r60, %r4, -1;
    max.relu.s32 \t%r61, %r1, %r60;  // hazard: the outer max is after it
    max.s32 \t%r62, %r7, %r61;
    neg.s32 \t%r70, %r5;
    add.s32 \t%r71, %r70, %r1;    // not a min/max
    sub.s32 \t%r80, %r6, %r7;
    max.s32 \t%r81, %r80, %r1;    // a difference, not a negation
    max.s32 \t%r82, %r81, %r2;
    // begin inline asm
    { .reg .b32 t; not.b32 t, %r8; add.s32 %r90, t, 1; }
    // end inline asm
    max.s32 \t%r91, %r90, %r1;    // the neg_i32 helper
    max.s32 \t%r92, %r91, %r2;
    neg.s32 \t%r95, %r9;
    mov.b32 \t%r95, %r10;         // redefined before use
    max.s32 \t%r96, %r95, %r1;
    max.s32 \t%r97, %r96, %r2;
    neg.s64 \t%rd3, %rd2;
    max.s64 \t%rd4, %rd3, 0;      // a lone two-input max: compiled right
    neg.s32 \t%r100, %r11;
    max.s32 \t%r101, %r100, %r1;  // chained with a min, not a max
    min.s32 \t%r102, %r101, %r2;
    neg.s32 \t%r110, %r12;
    max.s32 \t%r111, %r110, %r1;
    mov.b32 \t%r111, %r13;        // its result is redefined before the outer max
    max.s32 \t%r112, %r111, %r2;
"""


def test_lint_finds_exactly_the_negations_that_reach_chained_min_or_max():
    hazards = negation_into_minmax(_PTX)
    assert [(h.negation.split()[0], h.use.split()[0]) for h in hazards] == [
        ("neg.s32", "max.s32"),
        ("sub.s32", "min.s32"),
        ("mul.lo.s32", "max.relu.s32"),
    ]


def test_no_corpus_module_prints_a_bare_negation():
    from maskopt.tools.ptx_lint import BARE_NEGATION as bare
    offenders = [
        c.name for c in corpus.CORPUS if bare.search(compiled(c.name)[2].cute_source)
    ]
    assert offenders == []


def test_no_corpus_module_has_a_min_or_max_with_a_constant_left_operand():
    """maskopt.lowering.cute.DSL_CONSTANT_MINMAX: such a min/max is signed."""
    const_first = re.compile(r"\b(?:min|max)\((?:cutlass\.\w+\()?-?\d")
    offenders = [
        c.name for c in corpus.CORPUS if const_first.search(compiled(c.name)[2].cute_source)
    ]
    assert offenders == []


def test_dsl_min_max_signedness_follows_the_left_operand(tmp_path):
    """The DSL behaviour behind DSL_CONSTANT_MINMAX, in its PTX: the printed
    order (runtime operand first) gives max.u32, the other order max.s32."""
    pytest.importorskip("cutlass")
    from maskopt.tools.cute_compile import compile_mask_modules

    res = maskopt.compile_mask(lambda b, h, q_idx, kv_idx: (kv_idx < 77) | (q_idx >= kv_idx))
    new = res.cute_source
    printed = "max((cutlass.Uint32(q) + cutlass.Uint32(1)), cutlass.Uint32(77))"
    assert printed in new
    old = new.replace(printed, "max(cutlass.Uint32(77), (cutlass.Uint32(q) + cutlass.Uint32(1)))")
    results = compile_mask_modules([new, old], keep_dir=tmp_path)
    assert all(r.ok for r in results), [r.error for r in results]
    ptx = ["".join(p.read_text() for p in (tmp_path / v).glob("*.ptx")) for v in ("v000", "v001")]
    assert "max.s32" not in ptx[0] and "max.u32" in ptx[0]
    assert "max.s32" in ptx[1]


def test_negation_is_pushed_into_the_difference():
    # The module an H200 miscompiled: its lower bound -(kv - 128 * (q // 128))
    # is now printed as a difference (no 0 - x), and it still packs.
    src = compiled("batchify_sliding_window_16_128")[2].cute_source
    assert "(v - kv)" in src and "neg_i32" not in src


LENS = torch.tensor([5, -7, I32_MAX, I32_MIN], dtype=torch.int32)


def _neg_leaf_packed(b, h, q_idx, kv_idx):
    return torch.maximum(torch.maximum(q_idx - 40, -LENS[b]), -h) <= kv_idx


def _neg_leaf_per_lane(b, h, q_idx, kv_idx):
    return (torch.maximum(-LENS[b], -q_idx) + kv_idx) % 5 == 0


def _points():
    bs, hs = range(4), [0, 1, 7, I32_MAX]
    qs = [0, 1, 39, 40, 41, 100, 2**30, I32_MAX]
    kvs = list(range(0, 140)) + [I32_MAX - 31 - k for k in range(40)]
    rows = list(itertools.product(bs, hs, qs, kvs))
    return tuple(torch.tensor(col, dtype=torch.int32) for col in zip(*rows))


@pytest.mark.parametrize("fn,packed", [(_neg_leaf_packed, True), (_neg_leaf_per_lane, False)])
def test_leaf_negations_use_the_helper_and_match_eager(fn, packed):
    res = maskopt.compile_mask(fn)
    assert res.packed is packed
    assert "neg_i32(" in res.cute_source and "def neg_i32(" in res.cute_source
    assert "Int32(0) - " not in res.cute_source
    b, h, q, kv = _points()
    want = corpus.reference_words(fn, b, h, q, kv)
    got = load_module(res.cute_source).keep_words(b, h, q, kv, aux_tensors=res.aux_tensors)
    assert torch.equal(got, want)
    if not packed:
        assert res.keep_mask_exprs == []
        return
    # The self-contained expressions cannot define the helper: they write the
    # same helper's inline asm in place (lowering/helpers.py), never `0 - x`,
    # and the drop-in rendered through torch's template gives eager's words.
    from maskopt.lowering.helpers import HELPERS
    from maskopt.tools.flash_template import dropin_module

    assert res.keep_mask_exprs
    assert any(HELPERS["neg_i32"].asm in e for e in res.keep_mask_exprs)
    assert not any("Int32(0) - " in e for e in res.keep_mask_exprs)
    d = dropin_module(fn)
    assert d is not None
    got = load_module(d.source).keep_words(b, h, q, kv, aux_tensors=list(d.aux_tensors))
    assert torch.equal(got, want)


def test_dsl_ptx_of_the_old_and_new_forms():
    """The lint finds the hazard in the PTX of the module the printer used to emit
    (`0 - v_1`, miscompiled on an H200) and none in today's modules."""
    pytest.importorskip("cutlass")
    from maskopt.tools.ptx_lint import lint_sources

    new = compiled("batchify_sliding_window_16_128")[2].cute_source
    # The pushed negation `v - kv` as the bare `0 - (kv - v)` it used to be.
    old = new.replace(
        "    v_1 = (v - kv)\n", "    v_6 = (kv - v)\n    v_1 = (cutlass.Int32(0) - v_6)\n"
    )
    assert old != new
    leaf = maskopt.compile_mask(_neg_leaf_packed)
    specs = [(t.dtype, tuple(t.shape)) for t in leaf.aux_tensors]
    hazards, errors = lint_sources(
        ["old", "new", "leaf"], [old, new, leaf.cute_source], [[], [], specs]
    )
    assert errors == {}
    assert set(hazards) == {"old"}
    assert any("max" in h.use for h in hazards["old"])


def test_gpu_repro_uses_the_emitted_helper_and_lints_as_expected(tmp_path):
    """tools/gpu/ptxas_repro.py (the GPU reproducer) carries a verbatim copy of
    the neg_i32 helper; compiled for sm_90a, its plain `max(max(a, 0 - x), b)`
    and min variants are the two hazards the lint reports, its helper variants none."""
    import importlib.util
    import os
    import subprocess
    import sys
    from pathlib import Path

    from maskopt.lowering.helpers import HELPERS

    path = Path(__file__).resolve().parents[2] / "tools" / "gpu" / "ptxas_repro.py"
    spec = importlib.util.spec_from_file_location("ptxas_repro", path)
    repro = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(repro)
    assert repro.NEG_I32 == HELPERS["neg_i32"].definition()

    pytest.importorskip("cutlass")
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", CUTE_DSL_KEEP="cubin,ptx",
               CUTE_DSL_DUMP_DIR=str(tmp_path))
    subprocess.run([sys.executable, str(path), "--compile-only", "--n", "256"],
                   env=env, check=True, capture_output=True)
    (ptx,) = tmp_path.glob("*.ptx")
    hazards = negation_into_minmax(ptx.read_text())
    assert sorted(h.use.split()[0] for h in hazards) == ["max.s32", "min.s32"]
    assert len({h.negation for h in hazards}) == 1  # both from the one plain `0 - x`


# The inductor drop-in: its keep-mask expressions rendered through torch's
# FLASH template (maskopt.tools.flash_template), linted like the modules.

def _doc_tables_mask():
    """A fuzzed mask (issue 20) whose drop-in kernel an H200 miscompiled: a clamp
    of an aux load between `-kv + 479` and `-kv + 511`, printed with a bare
    `0 - kv` (487 of 903,625 words wrong, the CPU emulation right)."""
    g = torch.Generator().manual_seed(0)
    docid = torch.randint(0, 8, (4096,), dtype=torch.int32, generator=g)
    offs = torch.randint(0, 600, (16,), dtype=torch.int32, generator=g)
    tab_b = torch.randint(-50, 600, (4,), dtype=torch.int32, generator=g)
    tab_h = torch.randint(-50, 100, (4,), dtype=torch.int32, generator=g)

    def mask_mod(b, h, q, kv):
        return (
            (offs[docid[q]] <= kv + (q % 100 - q // 300))
            & (46 - kv < tab_b[b])
            & (q // 64 == kv // 64)
            & (((kv + 292) < offs[offs[q % 9] % 9]) | ((511 - kv) > offs[docid[q] + 1]))
            & ((q // 16 == kv // 16) | (tab_b[b] - tab_h[h] >= kv))
        )

    return mask_mod


_OLD_DROPIN = Path(__file__).parent / "Inputs" / "old_dropin_negation.py"


def test_dropin_inlines_the_negation_it_cannot_define():
    """The clamped difference `0 - kv - t` has nothing to push its negation
    into: the module calls neg_i64, and the drop-in's expressions write that
    helper's inline asm in place of the miscompiled bare negation. The words
    of both, the drop-in rendered through torch's template, match eager torch."""
    from maskopt.lowering.helpers import HELPERS
    from maskopt.tools.flash_template import dropin_module
    from maskopt.tools.ptx_lint import BARE_NEGATION

    fn = _doc_tables_mask()
    res = maskopt.compile_mask(fn)
    assert res.packed and "neg_i64(" in res.cute_source
    assert not BARE_NEGATION.search(res.cute_source)
    assert res.keep_mask_exprs
    assert any(HELPERS["neg_i64"].asm in e for e in res.keep_mask_exprs)
    d = dropin_module(fn)
    assert d is not None and not BARE_NEGATION.search(d.source)
    b, h, q, kv = (torch.tensor(x) for x in zip(*itertools.product(
        [0, 3], [0, 2], [0, 63, 64, 300, 517, 4095], [0, 5, 31, 32, 460, 480, 500, 511, 4064]
    )))
    want = corpus.reference_words(fn, b, h, q, kv)
    got = load_module(res.cute_source).keep_words(b, h, q, kv, aux_tensors=res.aux_tensors)
    assert torch.equal(got, want)
    got = load_module(d.source).keep_words(b, h, q, kv, aux_tensors=list(d.aux_tensors))
    assert torch.equal(got, want)


def test_lint_finds_the_hazard_in_the_old_dropin_kernel():
    pytest.importorskip("cutlass")
    from maskopt.tools.ptx_lint import lint_sources

    old = _OLD_DROPIN.read_text()
    assert "(cutlass.Int32(0) - kv_idx[0])" in old
    specs = [(torch.int32, (4096,)), (torch.int32, (16,)), (torch.int32, (4,)), (torch.int32, (4,))]
    hazards, errors = lint_sources(["old"], [old], [specs])
    assert errors == {}
    assert set(hazards) == {"old"}


def test_no_dropin_kernel_of_the_corpus_has_a_negation_hazard():
    """`python -m maskopt.tools.ptx_lint --corpus --dropin-only`: every corpus
    mask the drop-in packs, rendered through torch's template and compiled for
    sm_100a, has no negation that reaches a chained min/max."""
    pytest.importorskip("cutlass")
    from maskopt.tools.ptx_lint import _corpus_sources, lint_sources

    names, sources, specs = _corpus_sources(module=False, dropin=True)
    packed = [c.name for c in corpus.CORPUS if compiled(c.name)[2].packed and c.name != "full"]
    assert sorted(n.removesuffix(" [drop-in]") for n in names) == sorted(packed)
    hazards, errors = lint_sources(names, sources, specs)
    assert errors == {}
    assert hazards == {}


def _sub_self_mask(b, h, q_idx, kv_idx):
    """Fuzzer mask 1697 of seed 91, wrong on an H200 (2,974 words): `q - q`
    left unfolded printed `(q - q) - kv`, a bare negation once LLVM folds it."""
    return (((q_idx - q_idx) - (2**31 - 1)) == kv_idx.abs()) & (
        ((kv_idx <= -100) & (kv_idx < -(2**31))) | (((q_idx - kv_idx) <= 7) ^ ((q_idx - kv_idx) > q_idx))
    )


def test_sub_self_folds_and_its_ptx_has_no_hazard():
    res = maskopt.compile_mask(_sub_self_mask)
    assert "(q - q)" not in res.cute_source
    pytest.importorskip("cutlass")
    from maskopt.tools.flash_template import dropin_module
    from maskopt.tools.ptx_lint import lint_sources

    d = dropin_module(_sub_self_mask)
    names, sources = ["module"], [res.cute_source]
    if d is not None:
        names.append("drop-in")
        sources.append(d.source)
    hazards, errors = lint_sources(names, sources, [[]] * len(names))
    assert errors == {}
    assert hazards == {}


def _llvm_negation_mask():
    """Fuzzer mask 1744 of seed 91, wrong on an H200 (520 words, module and
    drop-in): fold-intervals' guarded bound `32 - trunc(clamp(d, 2^32 - 32,
    2^32) - (2^32 - 32))` was `-trunc(clamp(d, ...))` mod 2^32, and LLVM
    emitted that negation into a chained min (PTXAS_NEGATION). The bound now
    subtracts in i64 before it clamps (`wide_negated_bound`)."""
    t0 = torch.tensor([2, 60, 81, -3, 71], dtype=torch.int32)
    t1 = torch.tensor([False, True], dtype=torch.bool)
    t2 = torch.tensor([42, 102, 25, 86], dtype=torch.int32)

    def mask_mod(b, h, q_idx, kv_idx):
        return (
            (kv_idx < (1 - t0[q_idx % 5])) ^ (torch.where(t1[1], h, t2[0]) == torch.sub(h, kv_idx, alpha=-1))
        ) & (((kv_idx // 64) == (q_idx // 64)) | ((kv_idx // 2) < -32))

    return mask_mod


def test_llvm_formed_negation_of_a_guarded_bound_lints_clean():
    pytest.importorskip("cutlass")
    from maskopt.tools.flash_template import dropin_module
    from maskopt.tools.ptx_lint import lint_sources

    mask_mod = _llvm_negation_mask()
    res = maskopt.compile_mask(mask_mod)
    assert res.packed
    spec = [(t.dtype, tuple(t.shape)) for t in res.aux_tensors]
    d = dropin_module(mask_mod)
    assert d is not None  # both consumers pack it, and both lint clean
    hazards, errors = lint_sources(["module", "drop-in"], [res.cute_source, d.source], [spec, spec])
    assert errors == {}
    assert hazards == {}
