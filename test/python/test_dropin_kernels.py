"""The inductor drop-in's kernels compile: its keep-mask expressions rendered
through torch's FLASH template (maskopt.tools.flash_template) and compiled for
sm_100a in the harness (nvidia-cutlass-dsl, no GPU needed).

A self-contained expression is nested inside the template's
`mask_mod_packed[0] = mask_mod_packed[0] | (...)`. A Python conditional
expression there (`a if c else b`, which the DSL rewrites into a branch)
crashed the DSL compiler or made it build invalid IR on fuzzed masks, so the
expressions select with `cutlass.select_` (see `_FunctionPrinter.ternary`)."""

import re

import pytest
import torch

import maskopt
from maskopt.lowering.cute_emulator import load_module
from maskopt.tools import corpus, fuzz
from maskopt.tools.flash_template import dropin_module


def _fuzzed_select_mask():
    """Fuzzer mask 0 of seed 91: selects on `h == 2**31 - 1` of range words
    with an int64 aux bound."""
    t0 = torch.zeros(64, dtype=torch.int64)
    t0[36] = -(2**30)

    def mask_mod(b, h, q_idx, kv_idx):
        return (
            ((kv_idx + (2**31 - 2)) <= 5) | (((kv_idx - q_idx) >= 1574859877) & ((kv_idx - q_idx) <= t0[36]))
        ) & ((~(q_idx > kv_idx)) & torch.logical_and(((kv_idx + 7) <= 63), (h == (2**31 - 1))))

    return mask_mod


def _head_select_mask(b, h, q_idx, kv_idx):
    return torch.where(h % 2 == 0, q_idx >= kv_idx, (q_idx - kv_idx).abs() <= 64)


MASKS = {"fuzzed_select": _fuzzed_select_mask(), "head_select": _head_select_mask}


@pytest.mark.parametrize("name", sorted(MASKS))
def test_dropin_selects_are_select_calls_and_exact(name):
    fn = MASKS[name]
    d = dropin_module(fn)
    assert d is not None
    assert "cutlass.select_(" in d.source
    b, h, q, kv = fuzz.box_points((2, 4, 128, 128), consts={0, 5, 63, 64}, uses_h=False)
    want = corpus.reference_words(fn, b, h, q, kv)
    got = load_module(d.source).keep_words(b, h, q, kv, aux_tensors=list(d.aux_tensors))
    assert torch.equal(got, want)


def test_dropin_kernels_with_selects_compile():
    pytest.importorskip("cutlass")
    from maskopt.tools.cute_compile import compile_mask_modules

    names, sources, specs = [], [], []
    for name, fn in sorted(MASKS.items()):
        d = dropin_module(fn)
        names.append(name)
        sources.append(d.source)
        specs.append([(t.dtype, tuple(t.shape)) for t in d.aux_tensors])
        # the module of the same mask keeps its (named) conditional expressions
        names.append(name + " [module]")
        r = maskopt.compile_mask(fn)
        sources.append(r.cute_source)
        specs.append([(t.dtype, tuple(t.shape)) for t in r.aux_tensors])
    results = compile_mask_modules(sources, per_source_aux_specs=specs)
    failed = {n: (r.error or "")[:300] for n, r in zip(names, results) if not r.ok}
    assert failed == {}


def test_constant_negative_index_wraps_statically():
    """`t[-1]` (fuzz seed 91 mask 1987): the index wraps in Python, not by a
    select on a constant condition, which `cutlass.select_` (and the
    emulator, like the DSL) requires to be dynamic."""
    t = torch.tensor([5, 9, 40, 17], dtype=torch.int32)

    def mask_mod(b, h, q_idx, kv_idx):
        return (q_idx + q_idx <= t[-1]) | (kv_idx <= q_idx)

    d = dropin_module(mask_mod)
    assert d is not None and re.search(r"aux_tensors\[0\]\[cutlass\.Int(32|64)\(3\)\]", d.source)
    b, h, q, kv = fuzz.box_points((1, 1, 64, 64), consts={8, 9, 17})
    want = corpus.reference_words(mask_mod, b, h, q, kv)
    got = load_module(d.source).keep_words(b, h, q, kv, aux_tensors=list(d.aux_tensors))
    assert torch.equal(got, want)
