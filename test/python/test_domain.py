"""A stated domain (`compile_mask(domain=...)`, `mask-opt --domain`, the
`set-domain` pass): value ranges start from it, and the emitted words are
exact on every lane of every window inside it (the CPU emulator also fails
on any overflow there), sampled inside the domain and on its edges."""

import pytest
import torch

import maskopt
from maskopt.lowering import cute_emulator
from maskopt.passes.domain import DomainError, domain_bounds
from maskopt.tools import corpus

U = 2**31


def test_domain_spellings():
    assert domain_bounds(None) == (U, U, U, U)
    assert domain_bounds({"q": 4096, "kv_idx": 8192}) == (U, U, 4096, 8192)
    assert domain_bounds((2, None, 3, 4)) == (2, U, 3, 4)
    assert domain_bounds("b<8, h<16,q<32768,kv<32768") == (8, 16, 32768, 32768)
    for bad in ("q<0", "x<3", "q=3", "q<3,q<4", (1, 2, 3), {"q": 2**31 + 1}, {"q": 1.5}):
        with pytest.raises(DomainError):
            domain_bounds(bad)


def _edge_points(shape, n=6):
    """Points inside (B, H, Q, KV), with every edge of it."""
    B, H, Q, KV = shape
    g = torch.Generator().manual_seed(0)

    def axis(hi, extra=()):
        vals = {0, 1, hi - 1, hi // 2, *[x for x in extra if 0 <= x < hi]}
        vals |= set(torch.randint(0, hi, (n,), generator=g).tolist())
        return sorted(vals)

    bs, hs = axis(B), axis(H)
    qs = axis(Q, (Q - 2, 31, 32, 33))
    kvs = axis(KV, (KV - 31, KV - 32, KV - 33, 31, 32, 33))
    rows = [(b, h, q, kv) for b in bs[:3] for h in hs[:3] for q in qs for kv in kvs]
    return tuple(torch.tensor(c, dtype=torch.int32) for c in zip(*rows))


@pytest.mark.parametrize("case", corpus.CORPUS, ids=[c.name for c in corpus.CORPUS])
def test_corpus_is_exact_inside_its_shape(case):
    fn = case.make()
    # windows start below KV - 31, so that every lane is a kv_idx < KV (aux
    # tensors indexed by kv_idx are KV long)
    B, H, Q, KV = case.shape
    shape = (B, H, Q, KV - 31)
    res = maskopt.compile_mask(fn, domain=shape)
    full = maskopt.compile_mask(fn)
    # A domain never loses a pack.
    assert res.packed or not full.packed, res.reason
    b, h, q, kv = _edge_points(shape)
    if case.name.startswith("vsa_"):
        b, h = torch.zeros_like(b), torch.zeros_like(h)  # its tensors have one batch and head
    want = corpus.reference_words(fn, b, h, q, kv)
    got = cute_emulator.load_module(res.cute_source).keep_words(b, h, q, kv, aux_tensors=res.aux_tensors)
    assert torch.equal(got, want)


def _bottom_right_causal(b, h, q_idx, kv_idx):
    return q_idx + 768 >= kv_idx


def test_a_domain_removes_the_wrap_guard():
    """Inside q < 2^15 the int32 `q + 768` cannot wrap: no i64 path, no
    unsigned-offset amount, no clamp at -1 (the IR pins the domain)."""
    full = maskopt.compile_mask(_bottom_right_causal)
    res = maskopt.compile_mask(_bottom_right_causal, domain="q<32768,kv<32768")
    assert "Int64" in full.cute_source and "Int64" not in res.cute_source
    func = res.module.ops.first
    assert func.domain_bounds == (U, U, 32768, 32768)
    assert "domain array<i64: 2147483648, 2147483648, 32768, 32768>" in str(res.module)
    b, h, q, kv = _edge_points((1, 1, 32768, 32768), n=40)
    want = corpus.reference_words(_bottom_right_causal, b, h, q, kv)
    got = cute_emulator.load_module(res.cute_source).keep_words(b, h, q, kv)
    assert torch.equal(got, want)


def test_the_window_lanes_past_kv_are_exact_too():
    """A window starting at kv = KV - 1 has lanes up to KV + 30: they are exact
    (the domain bounds window starts, not lanes)."""
    def fn(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx) * 65536 >= -(2**31 - 1)  # wraps once kv passes q + 32767

    res = maskopt.compile_mask(fn, domain={"q": 1, "kv": 32769 - 31})
    kv = torch.arange(32769 - 31 - 64, 32769 - 31, dtype=torch.int32)
    z = torch.zeros_like(kv)
    want = corpus.reference_words(fn, z, z, z, kv)
    got = cute_emulator.load_module(res.cute_source).keep_words(z, z, z, kv)
    assert torch.equal(got, want)
