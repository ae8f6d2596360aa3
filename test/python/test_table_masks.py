"""
Bitwise functions of kv_idx (`interval.table`): Morton-order NATTEN of other
canvas and kernel sizes and hand-written bitwise masks pack, and the emitted
keep words (CPU emulator of the CuTe module) and the IR after every pass
(xDSL interpreter) equal eager torch on points that put every edge at every
lane, with kv_idx and q_idx near 2^31 where the mask allows.
"""

import pytest
import torch

import maskopt
from maskopt.dialects import semantics
from maskopt.lowering import cute_emulator
from maskopt.lowering.fx_import import import_mask_mod
from maskopt.passes.pipeline import pack_mask_passes
from maskopt.tools import corpus


def _morton(cw, ch, kw, kh):
    from attn_gym.masks import generate_morton_natten

    return generate_morton_natten(canvas_w=cw, canvas_h=ch, kernel_w=kw, kernel_h=kh)


def low_bits(b, h, q_idx, kv_idx):
    return (kv_idx & 7) < 3


def bit_equals_q(b, h, q_idx, kv_idx):
    return ((kv_idx >> 1) & 1) == (q_idx & 1)


def nibble_ne(b, h, q_idx, kv_idx):
    return (kv_idx & 12) != (q_idx & 12)


def pow2_div_mod(b, h, q_idx, kv_idx):
    return (kv_idx // 4) % 2 == 0


def or_const_causal(b, h, q_idx, kv_idx):
    return (kv_idx | 3) <= q_idx


def xor_window(b, h, q_idx, kv_idx):
    return ((kv_idx ^ 5) & 7) >= (q_idx & 7)


def high_plus_low(b, h, q_idx, kv_idx):
    # a sum of two bitwise values: lane-uniform part kv >> 3, table kv & 7
    return (kv_idx >> 3) + (kv_idx & 7) <= q_idx


def shifted_left(b, h, q_idx, kv_idx):
    return ((kv_idx << 3) & 0xF8) > (q_idx & 0xFF)


def int64_bits(b, h, q_idx, kv_idx):
    return (kv_idx.to(torch.int64) & 0x1F) >= (q_idx.to(torch.int64) & 0x1F)


def morton_causal(b, h, q_idx, kv_idx):
    return _morton(16, 16, 5, 5)(b, h, q_idx, kv_idx) & (q_idx >= kv_idx)


def not_bits(b, h, q_idx, kv_idx):
    return ~((kv_idx & 3) == 1)


def mixed_xor(b, h, q_idx, kv_idx):
    # a kv bit and a q bit in one position: not a table; per-lane, still exact
    return ((kv_idx ^ q_idx) & 1) == 0


CASES = {
    # name: (mask_mod factory, shape, large indices, packs)
    "morton_16x16_k3": (lambda: _morton(16, 16, 3, 3), (1, 1, 256, 256), True, True),
    "morton_64x64_k7": (lambda: _morton(64, 64, 7, 7), (1, 1, 4096, 4096), True, True),
    "morton_32x16_k5x3": (lambda: _morton(32, 16, 5, 3), (1, 1, 512, 512), True, True),
    "low_bits": (lambda: low_bits, (1, 1, 64, 256), True, True),
    "bit_equals_q": (lambda: bit_equals_q, (1, 1, 64, 256), True, True),
    "nibble_ne": (lambda: nibble_ne, (1, 1, 64, 256), True, True),
    "pow2_div_mod": (lambda: pow2_div_mod, (1, 1, 64, 256), True, True),
    "or_const_causal": (lambda: or_const_causal, (1, 1, 256, 256), True, True),
    "xor_window": (lambda: xor_window, (1, 1, 64, 256), True, True),
    "high_plus_low": (lambda: high_plus_low, (1, 1, 256, 512), True, True),
    "shifted_left": (lambda: shifted_left, (1, 1, 256, 256), True, True),
    "int64_bits": (lambda: int64_bits, (1, 1, 64, 256), True, True),
    "morton_causal": (lambda: morton_causal, (1, 1, 256, 256), True, True),
    "not_bits": (lambda: not_bits, (1, 1, 64, 256), True, True),
    "mixed_xor": (lambda: mixed_xor, (1, 1, 64, 256), True, False),
}


def _case(name):
    make, shape, large, _ = CASES[name]
    return corpus.MaskCase(name, make, shape, None, True, None, large)


@pytest.mark.parametrize("name", sorted(CASES))
def test_emitted_words_match_eager_torch(name):
    case = _case(name)
    fn = case.make()
    result = maskopt.compile_mask(fn, name=name)
    assert result.packed == CASES[name][3], result.reason
    b, h, q, kv = corpus.sample_points(case, n_rows=8)
    ref = corpus.reference_words(fn, b, h, q, kv)
    emu = cute_emulator.load_module(result.cute_source)
    words = emu.keep_words(b, h, q, kv, aux_tensors=result.aux_tensors)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} of {len(ref)} words differ; first at q={int(q[bad[0]])} "
        f"kv={int(kv[bad[0]])}: got {int(words[bad[0]]):#010x}, want {int(ref[bad[0]]):#010x}"
    )
    if result.packed:
        assert "interval.table" in str(result.module)
        assert result.keep_mask_exprs


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_pass_preserves_words(name):
    case = _case(name)
    fn = case.make()
    module, traced = import_mask_mod(fn, name=name)
    b, h, q, kv = corpus.sample_points(case, n_rows=3)
    ref = corpus.reference_words(fn, b, h, q, kv)
    ctx = maskopt.make_context()
    for p in pack_mask_passes():
        p.apply(ctx, module)
        module.verify()
        words = semantics.keep_words(module.ops.first, b, h, q, kv, traced.aux_tensors)
        assert torch.equal(words, ref), f"words differ after {p.name}"


def test_morton_runs_and_reason():
    """Morton NATTEN takes one run per aligned 32-block; a kv bit xor-ed with
    a q bit is rejected with the reason."""
    result = maskopt.compile_mask(_morton(64, 64, 7, 7), name="m")
    assert corpus.packed_runs(result) == 2
    mixed = maskopt.compile_mask(mixed_xor, name="mixed")
    assert not mixed.packed
    assert "combines a bit of the offset with a lane-uniform bit" in mixed.reason
