"""
The semantics contract, tested end to end: for every corpus mask, the keep
words of the emitted CuTe module (executed by the CPU emulator with exact
CuTe semantics, overflow being an error) equal eager torch evaluation of the
original mask_mod, on points that put every edge at every lane; and every
stage of the pipeline evaluates (xDSL interpreter) to the same words.
"""

import pytest
import torch

from conftest import compiled, points
from maskopt.dialects import semantics
from maskopt.lowering import cute_emulator
from maskopt.lowering.fx_import import import_mask_mod
from maskopt.passes.pipeline import pack_mask_passes
from maskopt.tools import corpus

ALL = [c.name for c in corpus.CORPUS]

#: The masks the foundation issue requires to pack (inductor packs them too).
MUST_PACK = [
    "causal",
    "attn_gym_causal",
    "causal_strict",
    "sliding_window_100",
    "bottom_right_causal",
    "prefix_lm_77",
    "streaming_sink",
    "chunked_causal_96",
    "doc_start_causal_i32",
    "doc_start_causal_i64",
    "batched_doc_start_causal",
    "per_batch_window",
    "per_head_window",
    "row_bounded_causal",
    "packed_causal_doc",
]

GATHERS = [
    "doc_mask_gather",
    "is_global_gather",
    "attn_gym_doc_causal",
    "vision_cross_attention",
    "global_sliding_window_32",
    "jetspec_tree_causal",
]


def reference(name):
    case, fn, _ = compiled(name)
    b, h, q, kv = points(name)
    return (b, h, q, kv), corpus.reference_words(fn, b, h, q, kv)


@pytest.mark.parametrize("name", MUST_PACK)
def test_must_pack(name):
    _, _, result = compiled(name)
    assert result.packed, result.reason
    assert result.keep_mask_exprs


@pytest.mark.parametrize("name", ALL)
def test_emitted_words_match_eager_torch(name):
    """Packed or per-lane, the emitted module computes the mask exactly."""
    _, _, result = compiled(name)
    (b, h, q, kv), ref = reference(name)
    emu = cute_emulator.load_module(result.cute_source)
    words = emu.keep_words(b, h, q, kv, aux_tensors=result.aux_tensors)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (
        f"{bad.numel()} of {len(ref)} words differ; first at "
        f"b={int(b[bad[0]])} h={int(h[bad[0]])} q={int(q[bad[0]])} kv={int(kv[bad[0]])}: "
        f"got {int(words[bad[0]]):#010x}, want {int(ref[bad[0]]):#010x}"
    )


@pytest.mark.parametrize("name", ALL)
def test_every_pass_preserves_words(name):
    """Translation validation: interpret the IR after each pass of pack-mask
    and after interval-to-cute (the word forms the CuTe target prints)."""
    import maskopt

    case = corpus.get_case(name)
    fn = case.make()
    module, traced = import_mask_mod(fn, name=name)
    b, h, q, kv = points(name, n_rows=4)
    ref = corpus.reference_words(fn, b, h, q, kv)
    ctx = maskopt.make_context()
    from maskopt.lowering.interval_to_cute import IntervalToCutePass

    # and the CuTe target's own lowering of the runs' words
    stages = [("import", None)] + [(p.name, p) for p in (*pack_mask_passes(), IntervalToCutePass())]
    for stage, p in stages:
        if p is not None:
            p.apply(ctx, module)
            module.verify()
        words = semantics.keep_words(module.ops.first, b, h, q, kv, traced.aux_tensors)
        assert torch.equal(words, ref), f"words differ after {stage}"


@pytest.mark.parametrize("name", ALL)
def test_folds_to_expected_runs(name):
    """Each corpus mask packs into its expected number of runs (0: a constant
    word), or stays per-lane with its expected reason."""
    case, _, result = compiled(name)
    assert corpus.packed_runs(result) == case.ranges, result.reason
    if case.ranges is None:
        assert case.reason in result.reason


def test_corpus_packing_figures():
    """The corpus has at least 50 masks; maskopt packs all that inductor packs
    and, of the others, every one but the per-lane gathers."""
    assert len(corpus.CORPUS) >= 50
    per_lane = {c.name for c in corpus.CORPUS if c.ranges is None}
    assert per_lane == set(GATHERS) | {"attn_gym_doc_full"}
    assert all(c.ranges is not None for c in corpus.CORPUS if c.inductor_packs)


@pytest.mark.parametrize("name", GATHERS)
def test_gathers_are_rejected_with_a_reason(name):
    _, _, result = compiled(name)
    assert not result.packed
    assert "is a per-lane gather: its index depends on kv_idx" in result.reason
    if name in GATHERS[:4]:  # indexed by kv_idx itself
        assert "[kv_idx]`" in result.reason  # the gather, as the mask_mod writes it
    assert "for kv_idx" in result.cute_source or "for lane in" in result.cute_source


def test_doc_gather_reason_suggests_lane_uniform_index():
    _, _, result = compiled("doc_mask_gather")
    assert "per-lane gather" in result.reason
    assert "`(kv_idx >= doc_starts[doc_ids[q_idx]]) & (kv_idx < doc_ends[doc_ids[q_idx]])` packs" in result.reason


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if c.inductor_packs])
def test_packs_whatever_inductor_packs(name):
    """Differential: every corpus mask torch 2.13 packs, maskopt packs too."""
    _, _, result = compiled(name)
    assert result.packed, result.reason


@pytest.mark.parametrize("name", [c.name for c in corpus.CORPUS if c.inductor_packs])
def test_same_words_as_inductor_inside_the_shape(name):
    """Inside the mask's shape both agree with eager torch, except where the
    case is tagged `inductor_wrong` (inductor truncates an int64 aux value)."""
    case, fn, result = compiled(name)
    traced = __import__("maskopt.lowering.trace", fromlist=["x"]).trace_mask_mod(fn, name=name)
    intervals = corpus.inductor_select(traced)
    assert intervals is not None
    b, h, q, kv = corpus.sample_points(case, n_rows=3)
    inside = (q < case.shape[2]) & (kv < case.shape[3])
    b, h, q, kv = b[inside][:400], h[inside][:400], q[inside][:400], kv[inside][:400]
    theirs = corpus.inductor_interval_words(intervals, traced.aux_tensors, b, h, q, kv)
    emu = cute_emulator.load_module(result.cute_source)
    ours = emu.keep_words(b, h, q, kv, aux_tensors=result.aux_tensors)
    ref = corpus.reference_words(fn, b, h, q, kv)
    assert torch.equal(theirs, ref) != ("inductor_wrong" in case.tags)
    assert torch.equal(ours, ref)


def test_int32_window_sentinel_does_not_overflow():
    """`q - kv <= 2**31 - 1` (a 'no window' sentinel) packs without Int32 overflow."""
    import maskopt

    def no_window(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= 2**31 - 1)

    result = maskopt.compile_mask(no_window)
    assert result.packed
    q = torch.tensor([0, 5, 2**31 - 1, 2**31 - 1, 40], dtype=torch.int32)
    kv = torch.tensor([0, 0, 0, 2**31 - 32, 30], dtype=torch.int32)
    z = torch.zeros_like(q)
    words = cute_emulator.load_module(result.cute_source).keep_words(z, z, q, kv)
    assert torch.equal(words, corpus.reference_words(no_window, z, z, q, kv))


@pytest.mark.parametrize("negated", [False, True])
def test_int64_starts_at_the_extremes(negated):
    """An int64 start of any value: the run start max(sat_u32(start), kv)
    (the saturating narrowing of cvt.sat.u32.s64) is exact at starts below 0, around 2^31 and 2^32,
    and at the int64 extremes, with q and kv at the ends of their range."""
    import maskopt

    starts = torch.tensor(corpus.EXTREME_I64_STARTS, dtype=torch.int64)

    def start_causal(b, h, q_idx, kv_idx):
        s = starts[b]
        ge = (kv_idx >= s) if negated else (s <= kv_idx)  # fold-intervals' two i64 forms
        return ge & (kv_idx <= q_idx)

    result = maskopt.compile_mask(start_causal)
    assert result.packed
    assert "sat_u32(" in result.cute_source
    qs = [0, 3, 45, 2**31 - 64, 2**31 - 33, 2**31 - 1]
    kvs = [0, 1, 13, 32, 2**31 - 70, 2**31 - 41, 2**31 - 32]
    pts = torch.tensor(
        [(b, q, kv) for b in range(len(starts)) for q in qs for kv in kvs], dtype=torch.int64
    )
    b, q, kv = (pts[:, i].to(torch.int32) for i in range(3))
    words = cute_emulator.load_module(result.cute_source).keep_words(
        b, torch.zeros_like(b), q, kv, aux_tensors=result.aux_tensors
    )
    assert torch.equal(words, corpus.reference_words(start_causal, b, torch.zeros_like(b), q, kv))


def test_wrapping_int32_chain_matches_eager_at_the_wrap():
    """A chain of int32 `+ - *` that wraps like torch's int32 is one i64 chain
    truncated once (fold-intervals reuses each link's i64 value); the words
    still equal eager torch where the links wrap, alone and together."""
    import maskopt

    def chain(b, h, q_idx, kv_idx):
        x = (q_idx + 2_000_000_000) - h
        x = (x * 3 + 1_500_000_000) * 5
        return x >= kv_idx

    result = maskopt.compile_mask(chain)
    assert result.packed
    module = str(result.module)
    assert module.count("arith.trunci") < 4, module  # not one truncation per link
    qs = [0, 1, 7, 147_483_647, 147_483_648, 2**30, 2**31 - 40, 2**31 - 1]
    kvs = [0, 5, 2**20, 2**31 - 32]
    hs = [0, 3, 2**31 - 1]
    pts = torch.tensor([(h, q, kv) for h in hs for q in qs for kv in kvs], dtype=torch.int64)
    h, q, kv = (pts[:, i].to(torch.int32) for i in range(3))
    z = torch.zeros_like(h)
    words = cute_emulator.load_module(result.cute_source).keep_words(z, h, q, kv)
    assert torch.equal(words, corpus.reference_words(chain, z, h, q, kv))


def _q_kv_grid(qs, kvs):
    """(zeros, q, kv): every pair of `qs` and `kvs` as int32 tensors, b = h = 0."""
    pts = torch.tensor([(q, kv) for q in qs for kv in kvs], dtype=torch.int64)
    q, kv = (pts[:, i].to(torch.int32) for i in range(2))
    return torch.zeros_like(q), q, kv


@pytest.mark.parametrize("offset", [1, 31, 768, 2**30, 2**31 - 1])
@pytest.mark.parametrize("strict", [False, True])
def test_offset_causal_at_the_int32_wrap(offset, strict):
    """`q + c >= kv` with torch's wrapping int32 `q + c`: the guarded prefix,
    whose width reaches 2^31 at the wrap point (q' = 2^31 - 1, kv = 0), a
    right shift by the amount max(kv + h, -1) + 1, h = 31 - k - max(q', -1)
    (`offset_max_prefix`), is exact on both sides of the
    wrap and at the ends of kv's range (the emulator fails on any overflow)."""
    import maskopt

    def offset_causal(b, h, q_idx, kv_idx):
        s = q_idx + offset
        return (s > kv_idx) if strict else (s >= kv_idx)

    result = maskopt.compile_mask(offset_causal)
    assert result.packed
    if offset == 768 and not strict:
        assert "cutlass.Int32(-1))) + cutlass.Int64(1)" in result.cute_source, result.cute_source  # the offset form
    wrap = 2**31 - offset  # the first q where q + c wraps
    qs = sorted({max(q, 0) for q in (0, 1, 40, wrap - 2, wrap - 1, wrap, wrap + 1, 2**31 - 1)} - {2**31})
    kvs = [0, 1, 2, 31, 32, 33, 2**31 - 70, 2**31 - 33, 2**31 - 32]
    z, q, kv = _q_kv_grid(qs, kvs)
    words = cute_emulator.load_module(result.cute_source).keep_words(z, z, q, kv)
    assert torch.equal(words, corpus.reference_words(offset_causal, z, z, q, kv))


def _strict_lt(b, h, q_idx, kv_idx):
    return kv_idx < q_idx


def _strict_gt(b, h, q_idx, kv_idx):
    return q_idx > kv_idx


def _strict_diff(b, h, q_idx, kv_idx):
    return q_idx - kv_idx > 0


@pytest.mark.parametrize("fn", [_strict_lt, _strict_gt, _strict_diff])
def test_strict_causal_spellings_share_the_shift(fn):
    """`kv < q`, `q > kv` and `q - kv > 0` all lower to offset_max_prefix's
    right shift by max(kv + 31 - q, -1) + 1 (the + 1 in Int64: the amount
    reaches 2^31 at q = 0, kv = 2^31 - 32), exact against eager torch at the
    ends of q and kv (the emulator fails on any overflow)."""
    import maskopt

    result = maskopt.compile_mask(fn)
    assert result.packed
    src = result.cute_source
    assert "h = (cutlass.Int32(31) - q)" in src and "cutlass.Int32(-1))) + cutlass.Int64(1)" in src, src
    top = 2**31 - 1
    qs = [0, 1, 2, 31, 32, 33, 1000, top - 33, top - 32, top - 1, top]
    kvs = [0, 1, 2, 31, 32, 33, 1000, top - 64, top - 33, top - 32, top - 31]
    z, q, kv = _q_kv_grid(qs, kvs)
    words = cute_emulator.load_module(src).keep_words(z, z, q, kv)
    assert torch.equal(words, corpus.reference_words(fn, z, z, q, kv))


def test_wrapped_conjunction_band_exact_about_the_wrap():
    """`wrapped_conjunction_10`: the single-lane band that lane-affine splits
    off at q + 3000's int32 wrap, computed from q clamped to the band
    (`refine_selected_spans`) and positioned as (q' + 3000) - kv in i32,
    against eager torch for every q about the band and kv at both ends of
    its range (the emulator fails on any overflow)."""
    import maskopt

    fn = corpus.make_wrapped_conjunction()
    result = maskopt.compile_mask(fn)
    src = result.cute_source
    assert "min(v_10, cutlass.Int32(2147480645))" in src and "cutlass.Int64(3000)" not in src, src
    top = 2**31 - 1
    qs = [0, 1, 2**30] + list(range(2147480641 - 40, 2147480645 + 40)) + [top - 1, top]
    kvs = [0, 1, 31, 2**30] + list(range(top - 80, top - 30))
    z, q, kv = _q_kv_grid(qs, kvs)
    want = corpus.reference_words(fn, z, z, q, kv)
    assert want.ne(0).any()
    assert torch.equal(cute_emulator.load_module(src).keep_words(z, z, q, kv), want)


_OFFSETS = [-(2**31), -(2**31) + 31, -33, -2, -1, 0, 1, 31, 768, 2**31 - 33, 2**31 - 2, 2**31 - 1]


@pytest.mark.parametrize("strict", [False, True])
def test_aux_offset_causal_at_the_int32_wrap(strict):
    """`q + off[b] >= kv` (and `>`) with torch's wrapping int32 sum of q and
    an int32 offset read from an aux tensor: for `>=` the guarded prefix in
    the form chosen for an X that reads memory (`select_source_prefix`: a source word
    selected once per row, shifted by max(kv + h, 0)), module and drop-in,
    exact against eager torch for offsets at both ends of int32, on both
    sides of each wrap and at the ends of kv's range (the emulator fails on
    any overflow)."""
    import maskopt
    from maskopt import inductor
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.flash_template import template_mask_mod

    off = torch.tensor(_OFFSETS, dtype=torch.int32)

    def aux_offset_causal(b, h, q_idx, kv_idx):
        s = q_idx + off[b]
        return (s > kv_idx) if strict else (s >= kv_idx)

    result = maskopt.compile_mask(aux_offset_causal)
    assert result.packed
    if not strict:  # `>`: the width max(X, 0) - kv fits i32, one bmsk
        assert "base = (cutlass.Uint32(0xFFFFFFFF) if add >= " in result.cute_source, result.cute_source
    traced = trace_mask_mod(aux_offset_causal)
    elements = inductor.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    assert elements is not None
    top = 2**31 - 1
    kvs = [0, 1, 2, 31, 32, 33, 1000, 2**31 - 70, 2**31 - 33, 2**31 - 32]
    pts = []
    for b, o in enumerate(_OFFSETS):
        wrap = 2**31 - o if o > 0 else top  # the first q where q + o wraps
        qs = {0, 1, 40, 767, 2**30, top - 1, top} | {q for q in range(wrap - 2, wrap + 2) if 0 <= q <= top}
        qs |= {q for q in (-o - 2, -o - 1, -o, -o + 1, -o + 40) if 0 <= q <= top}  # q + o about 0
        pts += [(b, q, kv) for q in sorted(qs) for kv in kvs]
    t = torch.tensor(pts, dtype=torch.int64)
    b, q, kv = (t[:, i].to(torch.int32) for i in range(3))
    z = torch.zeros_like(b)
    want = corpus.reference_words(aux_offset_causal, b, z, q, kv)
    assert want.eq(0).any() and want.eq(2**32 - 1).any() and not torch.isin(want, torch.tensor([0, 2**32 - 1])).all()
    words = cute_emulator.load_module(result.cute_source).keep_words(b, z, q, kv, aux_tensors=[off])
    assert torch.equal(words, want)
    dropin = cute_emulator.load_module(template_mask_mod(elements, 1))
    assert torch.equal(dropin.keep_words(b, z, q, kv, aux_tensors=[off]), want)


def _bottom_right_window(b, h, q_idx, kv_idx):
    s = q_idx + 768
    return (s >= kv_idx) & (s - kv_idx <= 100)


def _bottom_right_window_d(b, h, q_idx, kv_idx):
    d = q_idx - kv_idx + 768
    return (d >= 0) & (d <= 100)


def _tripled_q(b, h, q_idx, kv_idx):
    return (q_idx * 3 - kv_idx) < 1000


def _top_wrap(b, h, q_idx, kv_idx):
    return (kv_idx + 2**30) + 2**30 > q_idx


def _negative_wrap(b, h, q_idx, kv_idx):
    return (kv_idx - q_idx - (2**31 - 5)) < -3


@pytest.mark.parametrize(
    "fn,consts",
    [(_bottom_right_window, (768, 100)), (_bottom_right_window_d, (768, 668, 100)),
     (_tripled_q, (1000, 2**31 // 3)), (_top_wrap, (2**30,)), (_negative_wrap, (2**31 - 5, 3))],
)
def test_wrapping_comparisons_pack_exactly(fn, consts):
    """A comparison of an int32 value that wraps like torch's (a sum or
    difference with kv_idx): lane-affine splits it at the wrap, so it packs,
    and the words equal eager torch on every lane alignment, where q + c or
    q - kv + c wraps, and at the ends of kv's range."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    b, h, q, kv = fuzz.box_points((1, 1, 256, 512), consts=consts)
    words = cute_emulator.load_module(result.cute_source).keep_words(b, h, q, kv)
    ref = corpus.reference_words(fn, b, h, q, kv)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (int(q[bad[0]]), int(kv[bad[0]]), hex(int(words[bad[0]])), hex(int(ref[bad[0]])))


def _wrapped_conjunction(b, h, q_idx, kv_idx):
    keep = kv_idx <= q_idx + 3000
    for k in range(1, 10):
        keep = keep & (kv_idx + k <= q_idx + 3000 + k % 7)
    return keep


def _conjunction_of(terms, offset, modulus):
    """`kv_idx + k <= q_idx + offset + k % modulus` for k < terms."""

    def wrapped_conjunction(b, h, q_idx, kv_idx):
        keep = kv_idx <= q_idx + offset
        for k in range(1, terms):
            keep = keep & (kv_idx + k <= q_idx + offset + k % modulus)
        return keep

    return wrapped_conjunction


def _wrapped_diagonals(b, h, q_idx, kv_idx):
    keep = kv_idx == q_idx
    for i in range(1, 9):
        keep = keep | (kv_idx == q_idx + i)
    return keep


def _wrap_rows(wrap_qs, offsets):
    """(b, h, q, kv_base) for each q of `wrap_qs` and its neighbours (+-3),
    against every kv_base from 2^31 - 128 to 2^31 - 32 (where kv + k wraps,
    at every alignment), from 0 to 64, and around q + c for each c of
    `offsets` (where the mask's edges are)."""
    top = 2**31 - 32
    qs = sorted({q + d for q in wrap_qs for d in range(-3, 4) if 0 <= q + d < 2**31})
    rows_q, rows_kv = [], []
    for q in qs:
        kvs = {*range(top - 96, top + 1), *range(0, 65)}
        kvs |= {q + c + d for c in offsets for d in range(-40, 8)}
        kvs = sorted(k for k in kvs if 0 <= k <= top)
        rows_q += [q] * len(kvs)
        rows_kv += kvs
    q = torch.tensor(rows_q, dtype=torch.int64).to(torch.int32)
    kv = torch.tensor(rows_kv, dtype=torch.int64).to(torch.int32)
    z = torch.zeros_like(q)
    return z, z, q, kv


@pytest.mark.parametrize(
    "fn,wrap_qs,offsets,runs",
    [
        # q + 3000 + c wraps from q = 2^31 - 3000 - c on (c = 0..6)
        (_wrapped_conjunction, [2**31 - 1 - 3000 - c for c in range(7)] + [2**31 - 1, 0],
         range(3000, 3007), 2),
        # q + i wraps from q = 2^31 - i on (i = 1..8)
        (_wrapped_diagonals, [2**31 - 1 - i for i in range(9)] + [0, 5], range(0, 9), 1),
        # more conjunctions: the run past kv's wrap is non-empty at one q and
        # joins the next case's lane (two runs), or is not (three and more)
        (_conjunction_of(8, 500, 5), [2**31 - 1 - 500 - c for c in range(5)] + [0], range(500, 505), 2),
        (_conjunction_of(12, 100, 4), [2**31 - 1 - 100 - c for c in range(4)] + [0], range(100, 104), 3),
        (_conjunction_of(6, 40, 3), [2**31 - 1 - 40 - c for c in range(3)] + [0], range(40, 43), 6),
        (_conjunction_of(9, 64, 2), [2**31 - 1 - 64 - c for c in range(2)] + [0], range(64, 66), 5),
    ],
    ids=["conjunction", "diagonals", "conjunction-8-500-5", "conjunction-12-100-4",
         "conjunction-6-40-3", "conjunction-9-64-2"],
)
def test_wrapped_uniform_bounds_pack_exactly(fn, wrap_qs, offsets, runs):
    """Comparisons whose lane-uniform side wraps at different q (q + 3000 +
    k % 7, q + i) and, in the conjunction, whose kv side wraps in the last
    window (kv + k): fold-intervals folds them by cases on where the uniform
    side wraps, within max-intervals=8 (a run that is non-empty only at a
    case's edge is dropped where the next case's run covers it), and the
    words equal eager torch at
    the wrap points and their neighbours, against kv near 0, near 2^31 - 32
    and around the edges."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    assert corpus.packed_runs(result) == runs
    rows = _wrap_rows(wrap_qs, offsets)
    box = fuzz.box_points((1, 1, 256, 512), consts=tuple(offsets))
    b, h, q, kv = (torch.cat([x, y]) for x, y in zip(box, rows))
    words = cute_emulator.load_module(result.cute_source).keep_words(b, h, q, kv)
    ref = corpus.reference_words(fn, b, h, q, kv)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (int(q[bad[0]]), int(kv[bad[0]]), hex(int(words[bad[0]])), hex(int(ref[bad[0]])))


def test_sub_alpha_is_honoured():
    """aten.sub with alpha=2 is q - 2 * kv: it wraps in int32 (torch wraps),
    so it packs split at the wrap lane (two runs), exact near q, kv = 2^31."""
    import maskopt

    def alpha(b, h, q_idx, kv_idx):
        return torch.sub(q_idx, kv_idx, alpha=2) >= 0

    result = maskopt.compile_mask(alpha)
    assert result.packed and corpus.packed_runs(result) == 2, result.reason
    top = 2**31 - 32
    qs = [*range(0, 300, 7), 2**31 - 1, 2**31 - 2, 2**30, 12345]
    kvs = [*range(0, 300, 7), *range(2**30 - 40, 2**30 + 8), *range(top - 40, top + 1)]
    pairs = [(qv, kv) for qv in qs for kv in kvs] + [(qv, (qv + 2**31) // 2 + d) for qv in qs for d in range(-34, 6)]
    q = torch.tensor([p[0] for p in pairs], dtype=torch.int32)
    kv = torch.tensor([min(p[1], top) for p in pairs], dtype=torch.int32)
    z = torch.zeros_like(q)
    words = cute_emulator.load_module(result.cute_source).keep_words(z, z, q, kv)
    assert torch.equal(words, corpus.reference_words(alpha, z, z, q, kv))


_OFFSETS = torch.tensor([-7, 0, 5, -(2**31), 2**31 - 1, 3, -1, 12], dtype=torch.int32)


def _kv_h_same_residue(b, h, q_idx, kv_idx):
    return kv_idx % 4 == h % 4


def _kv_q_other_residue(b, h, q_idx, kv_idx):
    return (kv_idx % 5 != q_idx % 5) & (kv_idx <= q_idx)


def _kv_aux_same_residue(b, h, q_idx, kv_idx):
    return kv_idx % 3 == _OFFSETS[h] % 3  # any int32 offset, negative ones too


def _q_kv_mirrored_residue(b, h, q_idx, kv_idx):
    return (q_idx % 32) == (kv_idx % 32)


@pytest.mark.parametrize(
    "fn", [_kv_h_same_residue, _kv_q_other_residue, _kv_aux_same_residue, _q_kv_mirrored_residue]
)
def test_same_residue_comparisons_pack_and_match_eager(fn):
    """`X % P == Y % P` is `(X - Y) % P == 0`: a periodic lane set, emitted without
    overflow (the difference is widened where it may leave int32) and exact."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    b, h, q, kv = fuzz.box_points((1, 8, 300, 300), consts=(3, 4, 5, 32), uses_h=True, seed=1)
    words = cute_emulator.load_module(result.cute_source).keep_words(
        b, h, q, kv, aux_tensors=result.aux_tensors
    )
    assert torch.equal(words, corpus.reference_words(fn, b, h, q, kv))


# Small tensor values (VSA's top-k rows), scalarized by the FX importer.
# Tile ids and sizes take any value of their dtype (negative, huge ones too).
_TOPK = torch.tensor(
    [
        [[3, -1, 0], [2**31 - 1, 1, 1], [-(2**31), 4, 2], [5, 5, 5]],
        [[0, 1, 2], [3, 4, 5], [2, 0, 7], [-7, 6, 4]],
    ],
    dtype=torch.int32,
)  # (H, Q // 32, K)
_TILE_SIZES = torch.tensor([32, 7, -5, 2**40, 0, 31, 2**62], dtype=torch.int64)  # kv // 32 <= 6
_TILES = torch.tensor([[[0, 2], [1, 6]], [[5, 3], [4, 4]]], dtype=torch.int64)  # (H, 2, 2), valid tile ids
_WIDE = torch.zeros(2, 40, dtype=torch.int32)


def _topk_any(b, h, q_idx, kv_idx):
    return (_TOPK[h, q_idx // 32] == (kv_idx // 32).unsqueeze(-1)).any(dim=-1)


def _topk_any_sized(b, h, q_idx, kv_idx):
    kv_tile = kv_idx // 32
    selected = (_TOPK[h, q_idx // 32] == kv_tile.unsqueeze(-1)).any(dim=-1)
    return selected & (kv_idx % 32 < _TILE_SIZES[kv_tile])


def _topk_none_causal(b, h, q_idx, kv_idx):
    others = (_TOPK[h, q_idx // 32] != (kv_idx // 32).unsqueeze(-1)).all(-1)
    return others & (kv_idx <= q_idx)


def _topk_keepdim(b, h, q_idx, kv_idx):
    hit = (_TOPK[h, q_idx // 32] == (kv_idx // 32).unsqueeze(-1)).any(-1, keepdim=True)
    return hit.squeeze(-1) | (q_idx - kv_idx == 3)


def _topk_first(b, h, q_idx, kv_idx):
    row = _TOPK[h, q_idx // 32]
    return (row[0] == kv_idx // 32) | (row[-1] <= kv_idx)


def _gathered_sizes(b, h, q_idx, kv_idx):
    sizes = _TILE_SIZES[_TILES[h, q_idx // 64]]  # a vector index: two loads
    return ((kv_idx % 32).unsqueeze(-1) < sizes).any(-1)


def _rows_2d(b, h, q_idx, kv_idx):
    tiles = _TILES[h]  # a 2x2 row, compared as a whole
    return (tiles == (kv_idx // 32)).any() & (tiles.expand(2, 2) >= 0).all()


@pytest.mark.parametrize(
    "fn",
    [_topk_any, _topk_any_sized, _topk_none_causal, _topk_keepdim, _topk_first, _gathered_sizes, _rows_2d],
)
def test_scalarized_tensors_pack_and_match_eager(fn):
    """Vector-valued mask_mods (any/all over a top-k row, unsqueeze, keepdim,
    constant element indices, vector gathers) import element by element,
    pack, and give the eager words on every alignment, for tile ids and sizes
    of any value."""
    import maskopt

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    case = corpus.MaskCase("t", fn, (1, 2, 128, 192), None, True, None, False)
    b, h, q, kv = corpus.sample_points(case, n_rows=12)
    words = cute_emulator.load_module(result.cute_source).keep_words(
        b, h, q, kv, aux_tensors=result.aux_tensors
    )
    assert torch.equal(words, corpus.reference_words(fn, b, h, q, kv))


def test_vsa_runs_do_not_grow_with_top_k():
    """any(topk[q // T] == kv // T) splits at the tile boundary: two runs, each
    kept under a lane-uniform OR of the K tile-id equalities (K block ranges
    would exceed max-intervals for K > 8)."""
    for name in ("vsa_t64_k4", "vsa_t64_k4_padded", "vsa_t64_k12"):
        _, _, result = compiled(name)
        assert corpus.packed_runs(result) == 2, name


def test_wide_tensor_value_is_rejected_with_a_reason():
    import maskopt
    from maskopt.lowering.fx_import import FXImportError

    def wide(b, h, q_idx, kv_idx):
        return (_WIDE[h] == kv_idx).any()

    with pytest.raises(FXImportError, match=r"`_WIDE\[h\]` \(aten.index\) is a tensor of shape \[40\] "
                       r"\(40 elements\); the mask dialect is scalar and maskopt scalarizes tensor "
                       r"values of at most 32 elements"):
        maskopt.compile_mask(wide)


_EDGE_SIZES = torch.tensor([64] * 16 + [48], dtype=torch.int64)  # kv < 17 * 64 exactly


def _tile_padding(b, h, q_idx, kv_idx):
    return kv_idx % 64 < _EDGE_SIZES[kv_idx // 64]


def test_split_load_reads_no_index_the_mask_does_not():
    """A load indexed by a split quotient (`sizes[kv // 64]`) reads tile Q + 1
    in the second piece; when that piece has no lanes (kv_base = 1024, the
    last tile) it must not read sizes[17], one past the end: the emulator
    reports an out-of-bounds read as UB."""
    import maskopt

    result = maskopt.compile_mask(_tile_padding)
    assert result.packed, result.reason
    kv = torch.arange(0, 17 * 64 - 31, dtype=torch.int32)
    z = torch.zeros_like(kv)
    words = cute_emulator.load_module(result.cute_source).keep_words(
        z, z, z, kv, aux_tensors=result.aux_tensors
    )
    assert torch.equal(words, corpus.reference_words(_tile_padding, z, z, z, kv))


# torch.where with a lane-dependent condition (issue 20).
def _where_nested(b, h, q_idx, kv_idx):
    # the inner condition is split into pieces first; the outer select's
    # pieces clone the inner select with that rewritten condition
    limit = torch.where(kv_idx < 4, q_idx + 100, q_idx)
    return torch.where(kv_idx % 64 < 8, limit, limit - 20) >= kv_idx


def _where_global(b, h, q_idx, kv_idx):
    return torch.where(kv_idx < 4, True, q_idx >= kv_idx)  # (kv < 4) | (q >= kv)


def _where_and(b, h, q_idx, kv_idx):
    return torch.where(q_idx - kv_idx <= 256, q_idx >= kv_idx, False)


def _where_and_not(b, h, q_idx, kv_idx):
    return torch.where(kv_idx < 4, False, q_idx >= kv_idx)


def _where_or_not(b, h, q_idx, kv_idx):
    return torch.where(kv_idx >= 4, q_idx >= kv_idx, True)


def _where_general(b, h, q_idx, kv_idx):
    # an i1 select with no constant arm: (c & a) | (~c & b)
    return torch.where(kv_idx < q_idx - 64, kv_idx % 64 < 8, q_idx >= kv_idx)


def _where_in_condition(b, h, q_idx, kv_idx):
    # a lane-dependent i1 select as the condition of another
    keep = torch.where(kv_idx < 16, q_idx - kv_idx <= 100, kv_idx % 4 == 0)
    return torch.where(keep, q_idx >= kv_idx, kv_idx == q_idx + 1)


def _where_uniform(b, h, q_idx, kv_idx):
    return torch.where(h < 4, q_idx >= kv_idx, True)


@pytest.mark.parametrize(
    "fn",
    [_where_nested, _where_global, _where_and, _where_and_not, _where_or_not, _where_general,
     _where_in_condition, _where_uniform],
)
def test_lane_dependent_where_packs_and_matches_eager(fn):
    """A `torch.where` whose condition depends on kv_idx packs, and the words
    equal eager torch on every lane alignment and near 2^31."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    b, h, q, kv = fuzz.box_points((1, 8, 300, 300), consts=(1, 4, 8, 16, 20, 64, 100, 256), seed=2)
    words = cute_emulator.load_module(result.cute_source).keep_words(b, h, q, kv)
    ref = corpus.reference_words(fn, b, h, q, kv)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (int(h[bad[0]]), int(q[bad[0]]), int(kv[bad[0]]), hex(int(words[bad[0]])), hex(int(ref[bad[0]])))


# Floor divisions by a negative constant or a lane-uniform divisor of either
# sign (issue 18): block ranges, exact on the whole domain.
_CHUNKS = torch.tensor([1, 7, 64, 1000, -1, -7, -64, -(2**31), 2**31 - 1, 0], dtype=torch.int32)


def _neg64_causal(b, h, q_idx, kv_idx):
    return (q_idx // -64 == kv_idx // -64) & (kv_idx <= q_idx)


def _neg64_ne(b, h, q_idx, kv_idx):
    return q_idx // -64 != kv_idx // -64


def _neg100_ge(b, h, q_idx, kv_idx):
    return kv_idx // -100 >= q_idx // -100 - 1


def _neg100_lt(b, h, q_idx, kv_idx):
    return kv_idx // -100 < q_idx // -100


def _neg_int32_max(b, h, q_idx, kv_idx):
    return q_idx // -(2**31 - 1) == kv_idx // -(2**31 - 1)


def _neg1_shifted(b, h, q_idx, kv_idx):
    return q_idx // -1 == kv_idx // -1 + 3


def _aux_chunk_causal(b, h, q_idx, kv_idx):
    return (q_idx // _CHUNKS[b] == kv_idx // _CHUNKS[b]) & (kv_idx <= q_idx)


def _aux_chunk_ne(b, h, q_idx, kv_idx):
    return q_idx // _CHUNKS[b] != kv_idx // _CHUNKS[b]


def _aux_chunk_le(b, h, q_idx, kv_idx):
    return kv_idx // _CHUNKS[b] <= q_idx // _CHUNKS[b]


def _aux_chunk_gt(b, h, q_idx, kv_idx):
    return kv_idx // _CHUNKS[b] > q_idx // _CHUNKS[b] + 1


def _h_plus_one(b, h, q_idx, kv_idx):
    return q_idx // (h + 1) == kv_idx // (h + 1)  # h + 1 wraps to MIN at h = 2^31 - 1


def _minus_h(b, h, q_idx, kv_idx):
    return (q_idx // (-h - 1) == kv_idx // (-h - 1)) & (kv_idx <= q_idx)


def _minus_h_ge(b, h, q_idx, kv_idx):
    return kv_idx // (-h - 1) >= q_idx // (-h - 1)


@pytest.mark.parametrize(
    "fn",
    [_neg64_causal, _neg64_ne, _neg100_ge, _neg100_lt, _neg_int32_max, _neg1_shifted,
     _aux_chunk_causal, _aux_chunk_ne, _aux_chunk_le, _aux_chunk_gt, _h_plus_one, _minus_h,
     _minus_h_ge],
)
def test_signed_divisors_pack_and_match_eager(fn):
    """`A // D <pred> W` with D a negative constant or a lane-uniform value of
    either sign packs as block ranges, and the words equal eager torch on every
    lane alignment, near 2^31 - 1 and for divisors 1, -1, MIN and MAX. Where a
    divisor is 0 eager torch raises (any word is right): the emitted code runs
    there without UB (the emulator reports a division by zero)."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn)
    assert result.packed, result.reason
    uses_b = fn.__name__.startswith("_aux")
    b, h, q, kv = fuzz.box_points(
        (len(_CHUNKS), 8, 300, 300), consts=(1, 7, 64, 100, 1000, 2**31 - 1), uses_b=uses_b, seed=1
    )
    words = cute_emulator.load_module(result.cute_source).keep_words(
        b, h, q, kv, aux_tensors=result.aux_tensors
    )
    ok = _CHUNKS[b.long()] != 0 if uses_b else torch.ones_like(b, dtype=torch.bool)
    assert (q >= 2**31 - 64).any()
    ref = corpus.reference_words(fn, b[ok], h[ok], q[ok], kv[ok])
    bad = (words[ok] != ref).nonzero().flatten()
    assert bad.numel() == 0, (
        int(b[ok][bad[0]]), int(h[ok][bad[0]]), int(q[ok][bad[0]]), int(kv[ok][bad[0]]),
        hex(int(words[ok][bad[0]])), hex(int(ref[bad[0]])),
    )


# Unsigned aux tensors (issue 18) ------------------------------------------------


def _window_edge_points(windows, qs=(0, 1, 31, 127, 128, 200, 255, 256, 300, 1000, 2**31 - 33, 2**31 - 1)):
    """(b, h, q, kv) putting the window edge q - kv = windows[h] and the causal
    edge kv = q at every lane of a word, for every head."""
    pts = []
    for h, w in enumerate(windows):
        for q in qs:
            for kv in {*range(q - w - 40, q - w + 9), *range(q - 40, q + 2), 0, 2**31 - 32}:
                if 0 <= kv <= 2**31 - 32:
                    pts.append((h, q, kv))
    t = torch.tensor(pts, dtype=torch.int64)
    h, q, kv = (t[:, i].to(torch.int32) for i in range(3))
    return torch.zeros_like(h), h, q, kv


def test_uint8_window_is_zero_extended_at_every_edge():
    """`q - kv <= win_u8[h]` with windows 0, 1, 127, 128, 200, 255 (zero
    extension: 200 is not -56): packed, and the words of the emitted module
    and of the drop-in's expression equal eager torch where the window edge
    falls on every lane, and at q near 2^31 - 1."""
    from maskopt import inductor
    from maskopt.lowering.trace import trace_mask_mod
    from maskopt.tools.flash_template import template_mask_mod

    case, fn, result = compiled("per_head_window_u8")
    assert result.packed, result.reason
    assert "arith.extui" in str(result.module) and "tensor<8xui8>" in str(result.module)
    assert "cutlass.Int32(cutlass.Uint8(" in result.cute_source
    b, h, q, kv = _window_edge_points(corpus.UINT8_WINDOWS)
    ref = corpus.reference_words(fn, b, h, q, kv)
    words = cute_emulator.load_module(result.cute_source).keep_words(b, h, q, kv, aux_tensors=result.aux_tensors)
    assert torch.equal(words, ref)
    traced = trace_mask_mod(fn)
    elements = inductor.select_packed_mask_intervals(traced.graph_module, traced.aux_tensors)
    inline = cute_emulator.load_module(template_mask_mod(elements, 1))
    assert torch.equal(inline.keep_words(b, h, q, kv, aux_tensors=result.aux_tensors), ref)
    # the vmapped reference is the eager one (one call per lane) here too
    some = torch.arange(0, b.numel(), 37)
    assert torch.equal(ref[some], corpus.reference_words_slow(fn, b[some], h[some], q[some], kv[some]))
    # a window of 200 keeps q - kv = 200: lanes 0..8 of the word at kv = q - 208
    w200 = corpus.UINT8_WINDOWS.index(200)
    one = tuple(torch.tensor([x], dtype=torch.int32) for x in (0, w200, 1000, 792))
    assert int(cute_emulator.load_module(result.cute_source).keep_words(*one, aux_tensors=result.aux_tensors)[0]) == 0xFFFFFF00


_U8 = torch.tensor([0, 1, 127, 128, 200, 255, 31, 32], dtype=torch.uint8)
_U8_ROWS = torch.tensor([[1, 2, 3], [200, 255, 0], [128, 127, 5], [0, 0, 0]] * 2, dtype=torch.uint8)
_I8 = torch.tensor([-1, -128, 127, 0, 5, -56, 3, 1], dtype=torch.int8)
_T = torch.arange(256, dtype=torch.int32) * 3
_U16 = torch.tensor([0, 1, 255, 256, 32767, 32768, 40000, 65535], dtype=torch.uint16)
_U32 = torch.tensor([0, 1, 2**31 - 1, 2**31, 2**32 - 1, 40000, 7, 3], dtype=torch.uint32)
_U64 = torch.tensor([0, 1, 2**63 - 1, 2**63, 2**64 - 1, 40000, 7, 3], dtype=torch.uint64)

#: mask_mods on unsigned values: (name, mask_mod, packs)
UNSIGNED_MASKS = [
    ("u8_plus_100_wraps", lambda b, h, q, kv: (_U8[h] + 100) > kv - q + 100, True),
    ("u8_minus_1_wraps", lambda b, h, q, kv: (_U8[h] - 1) >= (kv & 255), True),
    ("u8_times_3_wraps", lambda b, h, q, kv: (_U8[h] * 3) >= kv % 300, True),
    ("u8_negated", lambda b, h, q, kv: (-_U8[h]) <= kv % 256, True),
    ("u8_inverted", lambda b, h, q, kv: (~_U8[h]) <= kv % 256, True),
    ("u8_shl", lambda b, h, q, kv: (_U8[h] << 1) <= kv % 256, True),
    ("u8_shr_is_logical", lambda b, h, q, kv: (_U8[h] >> 1) <= kv % 256, True),
    ("u8_floordiv", lambda b, h, q, kv: (_U8[h] // 3) <= kv % 100, True),
    ("u8_remainder", lambda b, h, q, kv: (_U8[h] % 7) <= kv % 8, True),
    ("u8_gt_127", lambda b, h, q, kv: (_U8[h] > 127) & (kv >= q), True),
    ("u8_lt_minus_1", lambda b, h, q, kv: (_U8[h] < -1) & (kv <= q), True),  # -1 is 255 in uint8
    ("u8_to_int8", lambda b, h, q, kv: _U8[h].to(torch.int8) < kv - q, True),
    ("u8_index_long", lambda b, h, q, kv: kv <= _T[_U8[h].long()], True),
    ("u8_index_int_by_q", lambda b, h, q, kv: kv <= _T[_U8[q % 8].int()] + q, True),
    ("int8_to_uint8", lambda b, h, q, kv: _I8[h].to(torch.uint8) >= kv - q, True),
    ("int8_vs_uint8_in_int16", lambda b, h, q, kv: (_I8[h] < _U8[h]) | (kv <= q), True),
    ("u8_row_vs_q_in_uint8", lambda b, h, q, kv: (_U8_ROWS[h] <= q).any() & (kv <= q), True),
    ("u8_row_plus_q_wraps", lambda b, h, q, kv: ((_U8_ROWS[h] + q) > 100).all() | (kv <= q), True),
    ("u8_row_vs_kv", lambda b, h, q, kv: (_U8_ROWS[h] <= kv).any(), True),
    ("u8_where", lambda b, h, q, kv: torch.where(q > 500, _U8[h], 7) >= q - kv, True),
    ("u8_clamp", lambda b, h, q, kv: _U8[h].clamp(10, 130) >= q - kv, True),
    ("u8_maximum_of_two", lambda b, h, q, kv: torch.maximum(_U8[h], _U8[(h + 1) % 8]) >= q - kv, True),
    ("u8_maximum_with_int32", lambda b, h, q, kv: torch.maximum(_U8[h], q - kv) <= 200, True),
    ("u8_sign_bit", lambda b, h, q, kv: ((_U8[h] & 0x80) != 0) | (kv <= q), True),
    ("u8_gather_by_kv", lambda b, h, q, kv: _U8[kv % 8] >= 128, False),
    ("u16_window", lambda b, h, q, kv: q - kv <= _U16[h].long(), True),
    ("u16_eq", lambda b, h, q, kv: (_U16[h] == 65535) | (kv <= q), True),
    ("u16_times_3_wraps", lambda b, h, q, kv: (_U16[h] * 3).int() >= q - kv, True),
    ("u32_window", lambda b, h, q, kv: q - kv <= _U32[h].long(), True),
    ("u32_to_int32_wraps", lambda b, h, q, kv: q - kv <= _U32[h].int(), True),
    ("u32_times_3_wraps", lambda b, h, q, kv: (_U32[h] * 3).long() >= q - kv, True),
    ("u32_to_uint16", lambda b, h, q, kv: q - kv <= _U32[h].to(torch.uint16).int(), True),
    ("u64_window", lambda b, h, q, kv: q - kv <= _U64[h].long(), True),
    ("u64_eq", lambda b, h, q, kv: (_U64[h] == _U64[4]) | (kv <= q), True),
    ("u64_to_uint8", lambda b, h, q, kv: q - kv <= _U64[h].to(torch.uint8), True),
    ("u64_where", lambda b, h, q, kv: torch.where(q > 500, _U64[h], _U64[1]).long() >= q - kv, True),
]


@pytest.mark.parametrize("name,fn,packs", UNSIGNED_MASKS, ids=[m[0] for m in UNSIGNED_MASKS])
def test_unsigned_values_match_eager(name, fn, packs):
    """uint8 values (0, 1, 127, 128, 200, 255) computed like torch: zero
    extension, wrapping `+ - * << ~` and negation, torch.result_type
    promotion (a uint8 row against q_idx compares in uint8), and the ops
    torch implements on uint16/32/64: the emitted words (packed or per-lane)
    and the imported IR equal eager torch."""
    import maskopt
    from maskopt.tools import fuzz

    result = maskopt.compile_mask(fn, name=name)
    assert result.packed == packs, result.reason
    b, h, q, kv = fuzz.box_points((1, 8, 600, 300), consts=(1, 3, 100, 127, 128, 200, 255, 256), uses_h=True, seed=3)
    ref = corpus.reference_words(fn, b, h, q, kv)
    words = result.emulate().keep_words(b, h, q, kv)
    bad = (words != ref).nonzero().flatten()
    assert bad.numel() == 0, (int(h[bad[0]]), int(q[bad[0]]), int(kv[bad[0]]), hex(int(words[bad[0]])), hex(int(ref[bad[0]])))
    module, traced = import_mask_mod(fn, name=name)
    assert torch.equal(semantics.keep_words(module.ops.first, b, h, q, kv, traced.aux_tensors), ref)


def test_unsigned_aux_scalar_is_zero_extended():
    """A 0-dim uint8 capture is an aux scalar `ui8`, zero-extended where used."""
    import maskopt

    win = torch.tensor(200, dtype=torch.uint8)

    def scalar_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win) & (q_idx >= kv_idx)

    result = maskopt.compile_mask(scalar_window)
    assert result.packed, result.reason
    assert "arith.extui %win : ui8 to i32" in str(result.module)
    assert "cutlass.Int32(cutlass.Uint8(aux_scalars[0]))" in result.cute_source
    b, h, q, kv = _window_edge_points([200])
    words = result.emulate().keep_words(b, h, q, kv, aux_tensors=[], aux_scalars=[win])
    assert torch.equal(words, corpus.reference_words(scalar_window, b, h, q, kv))


_U16_CAPTURE = torch.tensor([3, 200, 65535], dtype=torch.uint16)


@pytest.mark.parametrize(
    "fn,message",
    [
        (lambda b, h, q, kv: (_U16_CAPTURE[h] + 1).int() >= kv,
         r"`_U16_CAPTURE\[h\] \+ 1` \(aten.add\) computes on torch.uint16, for which torch 2.13 implements only"),
        (lambda b, h, q, kv: _U16_CAPTURE[h] < 5, r"\(aten.lt\) computes on torch.uint16"),
        (lambda b, h, q, kv: _U8[h] < 300, r"`_U8\[h\] < 300` \(aten.lt\): the constant 300 does not fit torch.uint8"),
        (lambda b, h, q, kv: kv <= _T[_U8[h]], r"torch reads a uint8 index as a boolean mask"),
        # comparisons compute in torch.result_type: a float constant is float
        (lambda b, h, q, kv: q < 3.5, r"\(aten.lt\) compares in torch.float32; mask_mods compare bool and integer"),
    ],
    ids=["uint16_add", "uint16_lt", "uint8_constant_300", "uint8_index", "float_constant"],
)
def test_unsupported_unsigned_uses_are_clear_errors(fn, message):
    """What eager torch 2.13 cannot do on CPU (uint16 `+` and `<`, a uint8
    index, which is a boolean mask) or does surprisingly (300 wraps to 44 in
    uint8) is an error naming the expression, not a silent miscompile."""
    import maskopt
    from maskopt.lowering.fx_import import FXImportError
    from maskopt.lowering.trace import MaskTraceError

    with pytest.raises((FXImportError, MaskTraceError), match=message):
        maskopt.compile_mask(fn)


def test_inductor_bottom_right_causal_ignores_the_int32_wrap():
    """`q + 768 >= kv` with torch's wrapping int32 `q + 768`: for q >= 2^31 - 768
    the sum is negative and eager torch keeps no lane. Inductor's intervals keep
    every lane there, and its kernel's Int32 sum `769 + q` overflows from
    q = 2^31 - 769 on (the CPU emulator refuses it); maskopt's words are exact.
    This is the counter-example that lets maskopt's exact form cost more than
    inductor's in FA4's kernel (issue 17; test/sass-results.md)."""
    from maskopt.lowering.cute_emulator import EmulatedUB
    from maskopt.tools.bench_sass import inductor_source

    fn = corpus.get_case("bottom_right_causal").make()
    traced = __import__("maskopt.lowering.trace", fromlist=["x"]).trace_mask_mod(fn)
    intervals = corpus.inductor_select(traced)
    q = torch.tensor([100, 2**31 - 769, 2**31 - 768, 2**31 - 1], dtype=torch.int32)
    kv = torch.tensor([0, 0, 0, 2**31 - 32], dtype=torch.int32)
    z = torch.zeros(4, dtype=torch.int32)
    ref = corpus.reference_words(fn, z, z, q, kv)
    assert ref.tolist() == [0xFFFFFFFF, 0xFFFFFFFF, 0, 0]
    theirs = corpus.inductor_interval_words(intervals, traced.aux_tensors, z, z, q, kv)
    assert theirs.tolist() == [0xFFFFFFFF] * 4
    with pytest.raises(EmulatedUB, match="Int32 overflow"):
        cute_emulator.load_module(inductor_source(intervals, 0)).keep_words(z, z, q, kv)
    result = __import__("maskopt").compile_mask(fn)
    assert torch.equal(cute_emulator.load_module(result.cute_source).keep_words(z, z, q, kv), ref)


def test_strict_window_start_exact_for_every_int32_width():
    """`(q >= kv) & (q - kv < w[h])` with widths at the ends of int32 (and 0,
    and negative): the lower end (q - kv) - w + 1 leaves int32, so
    interval-to-cute folds the + 1 into the window (`fold_start_offset`) and
    narrows the start to a - clamp(w - 1, a - 32, a), a = q - kv, with
    w - 1 saturated at -2^31 (`max(w, -2^31 + 1) - 1`). The emulated words
    are eager torch's on rows at both ends of q and kv, and about each
    window's edge (the emulator fails on any overflow)."""
    import random

    win = torch.tensor([32, 64, 0, -5, 2**31 - 1, -(2**31), 1, 1024], dtype=torch.int32)

    def mask_mod(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx < win[h])

    result = __import__("maskopt").compile_mask(mask_mod)
    ir = str(result.cute_module)
    assert "cute.clamped_sub" in ir and "cute.constant -2147483647 : i32" in ir and result.packed, ir
    rng = random.Random(0)
    top = 2**31 - 1
    qs = [0, 1, 31, 32, 63, 100, 1055, top - 32, top - 1, top] + [rng.randrange(top) for _ in range(12)]
    kvs = [0, 1, 31, 32, 64, top - 63, top - 32, top - 31] + [rng.randrange(top - 31) for _ in range(12)]
    pts = [(0, h, q, kv) for h in range(8) for q in qs for kv in kvs]
    pts += [(0, h, q, min(top - 31, max(0, q - d))) for h in range(8) for q in qs for d in range(-40, 1100, 29)]
    b, h, q, kv = (torch.tensor(c, dtype=torch.int32) for c in zip(*pts))
    ref = corpus.reference_words(mask_mod, b, h, q, kv)
    assert ref.ne(0).any() and ref.ne(0xFFFFFFFF).any()
    assert torch.equal(result.emulate().keep_words(b, h, q, kv), ref)
