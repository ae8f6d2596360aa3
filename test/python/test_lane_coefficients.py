"""Lane coefficients other than +-1 (issue 18): `c * kv + r <pred> 0` with
|c| >= 2, where value ranges (from a stated domain, or int64 arithmetic) prove
that `c * kv + r` cannot wrap, is rewritten exactly into a +-1 comparison of
the lane with a lane-uniform floor-division bound (the LaneCmpScaled*
canonicalization patterns). The emitted words equal eager torch on every
sampled point inside the domain and on its edges, and the CPU emulator fails
on any overflow of the emitted arithmetic. Over the whole int32 domain, where
`2 * kv` wraps, the mask stays per-lane with the reason."""

import itertools
import random

import pytest
import torch

import maskopt
from maskopt import inductor as mi
from maskopt.lowering import cute_emulator
from maskopt.lowering.trace import trace_mask_mod
from maskopt.tools import corpus
from maskopt.tools.flash_template import template_mask_mod

Q17 = 2**17
OPS = {"<": torch.lt, "<=": torch.le, ">": torch.gt, ">=": torch.ge, "==": torch.eq, "!=": torch.ne}


def domain_points(domain, boundaries=(), *, seed=0, n=6):
    """(b, h, q, kv_base) inside `domain` = (B, H, Q, KV): q at 0, 1, Q - 2,
    Q - 1 and random; window bases at 0, 31, 32 and KV - 33 .. KV - 1 (whose
    lanes reach KV + 30), and 40 bases about each boundary `boundaries(q)`
    gives for a row (every lane alignment of the edge there)."""
    B, H, Q, KV = domain
    g = random.Random(seed)
    qs = sorted({0, 1, 2, Q - 2, Q - 1, *[g.randrange(Q) for _ in range(n)]})
    rows = []
    for q in qs:
        kvs = {0, 1, 31, 32, *range(KV - 33, KV), *[g.randrange(KV) for _ in range(4)]}
        for centre in boundaries(q) if callable(boundaries) else boundaries:
            kvs |= set(range(centre - 34, centre + 6))
        bv, hv = g.randrange(B), g.randrange(H)
        rows += [(bv, hv, q, kv) for kv in sorted(kvs) if 0 <= kv < KV]
    return tuple(torch.tensor(x, dtype=torch.int32) for x in zip(*rows))


def assert_exact(fn, result, points):
    want = corpus.reference_words(fn, *points)
    got = cute_emulator.load_module(result.cute_source).keep_words(*points, aux_tensors=result.aux_tensors)
    bad = (got != want).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} of {len(want)} words differ; first at q={int(points[2][bad[0]])} "
        f"kv={int(points[3][bad[0]])}: got {int(got[bad[0]]):#010x}, want {int(want[bad[0]]):#010x}"
    )


def affine(c, k, op, d=1, *, i64=False):
    def mask_mod(b, h, q_idx, kv_idx):
        kv = kv_idx.to(torch.int64) if i64 else kv_idx
        return OPS[op](c * kv + d * q_idx + k, 0)

    return mask_mod


@pytest.mark.parametrize("c,k,d", [(2, 0, -1), (-2, 0, 1), (3, -7, 1), (-3, 5, 3), (7, 1, -1), (-32, 100, 1), (33, -(2**20), 1)])
@pytest.mark.parametrize("op", list(OPS))
def test_int32_inside_the_domain(c, k, d, op):
    """`c * kv + d * q + k <op> 0` in int32 inside q, kv < 2^17: packed, exact
    on the domain's edges and about the boundary -(d * q + k) / c."""
    fn = affine(c, k, op, d)
    res = maskopt.compile_mask(fn, domain=dict(q=Q17, kv=Q17))
    assert res.packed, res.reason
    assert corpus.packed_runs(res) <= 3  # `!=`: all lanes where c does not divide, else two runs
    assert "floordivsi" in str(res.module)
    pts = domain_points((1, 1, Q17, Q17), lambda q: [(-(d * q + k)) // c])
    assert_exact(fn, res, pts)


@pytest.mark.parametrize("c", [2, -3, 2**31 + 1, -(2**31)])
@pytest.mark.parametrize("op", list(OPS))
def test_int64_over_the_whole_domain(c, op):
    """In int64 `c * kv + q` cannot wrap: it packs with no domain, exact near
    q = 2^31 - 1 and kv near 2^31 - 32 too."""
    fn = affine(c, 1, op, 1, i64=True)
    res = maskopt.compile_mask(fn)
    assert res.packed, res.reason
    top = 2**31 - 32
    pts = domain_points((1, 1, 2**31, top + 1), lambda q: [(-(q + 1)) // c, q])
    assert_exact(fn, res, pts)


def test_the_issue_example():
    """Issue 18's `q - 2 * kv >= 0`: inside q, kv < 2^17 one run, the bound
    (q - 2 * kv) // 2 + 1 computed in int32 (it cannot overflow there); over the
    whole domain `q - 2 * kv` wraps once per window at most: two runs."""
    fn = corpus.make_compressed_causal_s2()
    res = maskopt.compile_mask(fn, domain=dict(q=Q17, kv=Q17))
    assert res.packed and corpus.packed_runs(res) == 1, res.reason
    assert "Int64" not in res.cute_source
    assert_exact(fn, res, domain_points((1, 1, Q17, Q17), lambda q: [q // 2]))
    full = maskopt.compile_mask(fn)
    assert full.packed and corpus.packed_runs(full) == 2, full.reason  # split at the wrap lane
    assert_exact(fn, full, corpus.sample_points(corpus.get_case("causal"), n_rows=4))


@pytest.mark.parametrize("case", corpus.DOMAIN_CORPUS, ids=[c.name for c in corpus.DOMAIN_CORPUS])
def test_domain_corpus(case):
    """The DOMAIN_CORPUS cases: their expected runs inside their domain, exact
    there (edges and every alignment of the boundaries), packed over the
    whole domain too (split at the wrap lanes); and the drop-in, given the domain as the
    flex lowering gives it, packs the same words."""
    fn = case.make()
    res = maskopt.compile_mask(fn, domain=case.domain, name=case.name)
    assert corpus.packed_runs(res) == case.ranges, res.reason
    pts = domain_points(case.domain, lambda q: [q // 2, q // 3, q // 3 - 128, q])
    assert_exact(fn, res, pts)
    full = maskopt.compile_mask(fn, name=case.name)
    assert full.packed, full.reason  # split at the wrap lanes: test_lane_coefficient_wraps.py
    big = corpus.sample_points(corpus.get_case("causal"), n_rows=4)  # q, kv up to 2^31 - 1
    assert_exact(fn, full, big)
    traced = trace_mask_mod(fn, name=case.name)
    whole = mi.select_packed_mask_intervals(traced.graph_module)
    assert whole is not None  # the drop-in packs it over the whole domain too
    kernel = cute_emulator.load_module(template_mask_mod(whole, 0))
    assert torch.equal(kernel.keep_words(*big), corpus.reference_words(fn, *big))
    with mi.domain(case.domain):
        elements = mi.select_packed_mask_intervals(traced.graph_module)
    assert elements is not None
    kernel = cute_emulator.load_module(template_mask_mod(elements, 0))
    assert torch.equal(kernel.keep_words(*pts), corpus.reference_words(fn, *pts))


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if "lane_coefficient" in c.tags])
def test_corpus_cases_pack_over_the_whole_domain(name):
    case = corpus.get_case(name)
    fn = case.make()
    res = maskopt.compile_mask(fn, name=name)
    assert corpus.packed_runs(res) == case.ranges, res.reason
    assert_exact(fn, res, corpus.sample_points(case, n_rows=8))


def test_a_bound_that_may_wrap_is_left_alone():
    """`2 * L + t[b] + 1 < 0` with any int64 t[b]: t[b] + 1 may overflow, so the
    rewrite is skipped and fold-intervals names the coefficient (still exact,
    per-lane)."""
    src = """
mask.func @wide window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %u = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %p = mask.lane_cmp "slt", 2 * lane + %u + 1 : i64
  mask.yield %p : i1
}
"""
    m = maskopt.parse_mlir(src)
    maskopt.run_pipeline(m, "pack-mask")
    assert "has lane coefficient 2" in str(m)
