"""Lane coefficients other than +-1 over the whole int32 domain (issue 18):
`c * kv + d * q + k <pred> R` in int32, where `c * kv` or the sum wraps, packs
by the wrapped-comparison split (`_Rewriter.wrapped_compare`): the window
splits at its lane-uniform wrap lanes, each piece a comparison with slope c
whose kept lanes are a prefix or suffix found by a floor division by c. The
words equal eager torch (int32 wraps) on rows and window bases sampled about
every wrap point and every comparison boundary of the window (all lane
alignments), near 2^31 / |c| and near kv = 2^31 - 32; the CPU emulator fails
on any overflow of the emitted arithmetic."""

import random

import pytest
import torch

import maskopt
from maskopt.lowering import cute_emulator
from maskopt.tools import corpus

TOP = 2**31 - 32  # the largest window base
P = 2**32


def crossings(c, d, k, q, targets, *, g, n=6):
    """Window bases about the kv where c * kv + d * q + k crosses a value
    congruent to a target mod 2^32 (the wrap at 2^31, a comparison's bound):
    the first and last such kv in [0, TOP] and `n` random ones."""
    out = set()
    base = d * q + k
    for t in targets:
        # kv* = ceil((t + m * 2^32 - base) / c) in [0, TOP + 31] for m in [m0, m1]
        lo_v, hi_v = base, base + c * (TOP + 31)
        lo_v, hi_v = min(lo_v, hi_v), max(lo_v, hi_v)
        m0 = -((-(lo_v - t)) // P)
        m1 = (hi_v - t) // P
        ms = {m0, m0 + 1, m1 - 1, m1} | {g.randint(m0, m1) for _ in range(n) if m1 >= m0}
        for m in ms:
            if not m0 <= m <= m1:
                continue
            num = t + m * P - base
            kv = -((-num) // c) if c > 0 else num // c
            out |= set(range(kv - 34, kv + 6))
    return out


def wrap_points(forms, *, targets=(), seed=0, rows=10):
    """(b, h, q, kv_base) int32 points: rows q at 0, 1, 2^31 - 1, 2^31 - 2,
    2^30, about 2^31 / |c| and random; for each, bases 0..40, near TOP,
    about 2^31 / |c| and about the crossings of every form (c, d, k) with
    2^31 (its wrap) and with each target."""
    g = random.Random(seed)
    qs = {0, 1, 2, 2**31 - 1, 2**31 - 2, 2**30}
    for c, _, _ in forms:
        qs |= {min(2**31 - 1, 2**31 // abs(c) + x) for x in (-1, 0, 1)}
    qs |= {g.randrange(2**31) for _ in range(rows)}
    pts = []
    for q in sorted(qs):
        kvs = set(range(0, 41)) | set(range(TOP - 40, TOP + 1))
        for c, d, k in forms:
            x = 2**31 // abs(c)
            kvs |= set(range(x - 34, x + 6))
            kvs |= crossings(c, d, k, q, (2**31, *targets), g=g)
        pts += [(0, 0, q, kv) for kv in sorted(kvs) if 0 <= kv <= TOP]
    return tuple(torch.tensor(x, dtype=torch.int32) for x in zip(*pts))


def assert_exact(fn, result, points):
    want = corpus.reference_words(fn, *points)
    got = cute_emulator.load_module(result.cute_source).keep_words(*points, aux_tensors=result.aux_tensors)
    bad = (got != want).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} of {len(want)} words differ; first at q={int(points[2][bad[0]])} "
        f"kv={int(points[3][bad[0]])}: got {int(got[bad[0]]):#010x}, want {int(want[bad[0]]):#010x}"
    )


OPS = {"<": torch.lt, "<=": torch.le, ">": torch.gt, ">=": torch.ge, "==": torch.eq, "!=": torch.ne}


def affine(c, d, k, op, r):
    def mask_mod(b, h, q_idx, kv_idx):
        return OPS[op](kv_idx * c + d * q_idx + k, r)

    return mask_mod


COEFFS = [
    # (c, d, k, r): `c * kv + d * q + k <op> r` in int32
    (-2, 1, 0, 0),  # q - 2 * kv >= 0: the sum wraps below -2^31
    (2, 1, 0, 1000),  # q + 2 * kv < 1000: 2 * kv and the sum wrap past 2^31
    (3, -1, -5, 0),  # 3 * kv <= q + 5
    (-3, 1, 7, 0),
    (5, -7, 3, -100),
    (1 << 20, -1, 0, 0),  # kv * 2^20 > q: c * kv itself wraps 2^19 times
    (-(1 << 20), 1, 0, 0),
    (1 << 27, -1, 0, 0),  # |c| * 31 < 2^32: still one wrap lane per window
    (-(1 << 27), 0, 12345, 0),
    (1 << 28, -1, 0, 0),  # up to two wrap lanes per window
    (3 << 27, 0, 0, 0),  # 3 * 2^27: up to three
    (1 << 29, 1, 0, 0),  # up to four
]


ALL, SOME = list(OPS), [">=", "<", "=="]
CASES = [
    (c, d, k, r, op)
    for c, d, k, r in COEFFS
    for op in (ALL if abs(c) in (2, 3, 1 << 20, 1 << 28) else SOME + ["!="] * (c == 1 << 27))
]


@pytest.mark.parametrize("c,d,k,r,op", CASES, ids=[f"c{c}_d{d}_k{k}_r{r}_{op}" for c, d, k, r, op in CASES])
def test_int32_over_the_whole_domain(c, d, k, r, op):
    fn = affine(c, d, k, op, r)
    res = maskopt.compile_mask(fn)
    assert res.packed, res.reason
    assert_exact(fn, res, wrap_points([(c, d, k)], targets=(r, r + 1)))


def test_not_equal_with_three_wrap_lanes():
    """`kv * 3 * 2^27 != 0`: four pieces of up to three runs each, 9 in all
    after simplification, more than max-intervals=8: per-lane (exact), with
    the limit that packs it."""
    fn = affine(3 << 27, 0, 0, "!=", 0)
    res = maskopt.compile_mask(fn)
    assert not res.packed and "exceed max-intervals=8" in res.reason, res.reason
    assert_exact(fn, res, wrap_points([(3 << 27, 0, 0)], targets=(0, 1), rows=2))
    wide = maskopt.compile_mask(fn, max_intervals=12)
    assert wide.packed, wide.reason
    assert_exact(fn, wide, wrap_points([(3 << 27, 0, 0)], targets=(0, 1), rows=2))


@pytest.mark.parametrize(
    "name,fn,forms,targets",
    [
        ("q_minus_2kv", lambda b, h, q, kv: q - 2 * kv >= 0, [(-2, 1, 0)], (0,)),
        ("3kv_le_q5", lambda b, h, q, kv: 3 * kv <= q + 5, [(3, -1, -5)], (0, 1)),
        ("kv3_le_q5", lambda b, h, q, kv: kv * 3 <= q + 5, [(3, -1, -5)], (0, 1)),
        ("2kv_q_5", lambda b, h, q, kv: 2 * kv + q + 5 < 77, [(2, 1, 5)], (77,)),
        ("q_plus_2kv", lambda b, h, q, kv: q + 2 * kv < 1000, [(2, 1, 0)], (1000,)),
        ("window_s3", lambda b, h, q, kv: ((q - 3 * kv) >= 0) & ((q - 3 * kv) < 384), [(-3, 1, 0)], (0, 384)),
        ("diag_s3", lambda b, h, q, kv: (3 * kv == q) | (kv == q), [(3, -1, 0), (1, -1, 0)], (0,)),
        ("shl20", lambda b, h, q, kv: (kv << 20) <= q, [(1 << 20, -1, 0)], (0, 1)),
        ("neg_shl", lambda b, h, q, kv: q - (kv << 3) > 10, [(-8, 1, 0)], (10, 11)),
        ("kv_minus", lambda b, h, q, kv: 2 * kv - kv * 5 + q >= 0, [(-3, 1, 0)], (0,)),
        # coefficient -1 with a uniform part that wraps many times: split on wrap_32(5 * q)
        ("q5_minus_kv", lambda b, h, q, kv: q * 5 - kv > 3, [(-1, 5, 0)], (3, 4)),
        # `(q + 768) - kv < kv`: the comparison's own lane coefficient is -2
        ("against_kv", lambda b, h, q, kv: q + 768 - kv < kv, [(-2, 1, 768), (-1, 1, 768)], (0,)),
    ],
)
def test_written_forms(name, fn, forms, targets):
    res = maskopt.compile_mask(fn, name=name)
    assert res.packed, res.reason
    assert_exact(fn, res, wrap_points(forms, targets=targets))


def test_too_many_wraps_stay_per_lane():
    """`kv * 2^30` wraps up to 8 times in a window: more pieces than
    lane-affine splits into; it stays per-lane (exactly), the reason naming
    the wraps."""
    fn = lambda b, h, q, kv: kv * (1 << 30) > q  # noqa: E731
    res = maskopt.compile_mask(fn)
    assert not res.packed
    assert "wraps up to 8 times in a 32-lane window" in res.reason, res.reason
    assert_exact(fn, res, wrap_points([(1 << 30, -1, 0)], targets=(0, 1), rows=3))
