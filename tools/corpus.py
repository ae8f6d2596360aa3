"""The mask test corpus, a reference evaluator and edge-covering sample points.

* ``CORPUS``: named, realistic FlexAttention mask_mods (hand-written ones and
  every simply-parameterized ``attn_gym.masks`` generator), each with the
  sampling shape, what torch 2.13's inductor packer does with it, whether a
  good packer should pack it and the measured maximum number of kept-lane runs
  per 32-lane word.
* ``reference_words(mask_mod, b, h, q, kv_base)``: eager, vectorized (vmap)
  ground truth for packed 32-lane keep words.
* ``sample_points(case)``: (b, h, q, kv_base) vectors that put every mask edge at
  every lane position.
* ``inductor_select(traced)``: torch 2.13's ``select_packed_mask_intervals`` on a
  traced mask graph, under a minimal inductor graph handler.

Aux-tensor sizing convention: a 32-lane word starting at ``kv_base`` reads
``kv_idx`` up to ``kv_base + 31``, and ``sample_points`` takes every
``kv_base < KV_LEN``, so every aux tensor that a case indexes by ``kv_idx``
covers indices ``[0, KV_LEN + 32)`` (documents / images extend into that
padding).  Aux tensors indexed by ``q_idx`` cover ``[0, Q_LEN)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import torch

__all__ = [
    "MaskCase",
    "CORPUS",
    "DOMAIN_CORPUS",
    "CORPUS_BY_NAME",
    "get_case",
    "reference_words",
    "reference_words_slow",
    "sample_points",
    "inductor_select",
    "inductor_packs",
    "inductor_interval_words",
    "count_runs",
    "max_runs_of",
    "INT32_MAX",
]

INT32_MAX = 2**31 - 1
PAD = 32  # kv-indexed aux tensors cover [0, KV_LEN + PAD)


@dataclass
class MaskCase:
    name: str
    make: Callable[[], Callable]  # builds the mask_mod (and its captured aux tensors)
    shape: tuple[int, int, int, int]  # (B, H, Q_LEN, KV_LEN) for sampling
    inductor_packs: bool | None  # torch 2.13 select_packed_mask_intervals(...) is not None
    expect_pack: bool  # kept lanes per word = union of <= 8 runs with lane-uniform bounds
    max_runs: int | None  # max runs of kept lanes in any sampled 32-lane word
    large_indices: bool  # no aux tensor indexed by q/kv: q/kv near 2^31 may be sampled
    tags: tuple[str, ...] = ()
    note: str = ""
    #: maskopt's expected result (see EXPECTED): the number of runs the keep
    #: word is built from (0 for a constant word), or None when it stays
    #: per-lane, then with a fragment of the reason.
    ranges: int | None = None
    reason: str | None = None
    #: more q rows sampled like the q near 2^31 - 1 ones (``large_indices``
    #: only): where the mask's own int32 arithmetic wraps, e.g. q + c.
    edge_qs: tuple[int, ...] = ()
    #: the (B, H, Q, KV) domain the case is compiled for (`compile_mask(...,
    #: domain=)`), None for the whole int32 domain. Only `DOMAIN_CORPUS`
    #: cases state one: their int32 arithmetic wraps outside it.
    domain: tuple[int, int, int, int] | None = None

    def __repr__(self) -> str:  # keep pytest ids / failure output short
        return f"MaskCase({self.name!r})"


# ----------------------------------------------------------------------------
# inductor's packer
# ----------------------------------------------------------------------------


class _MiniGraphHandler:
    """The part of inductor's GraphLowering that interval_mask_packing touches.

    torch.testing._internal.inductor_utils.MockGraphHandler is the upstream
    mock, but importing it needs ``expecttest``; this stand-in has what the
    packer uses (``V.graph.sizevars``: simplify / guard_int /
    analyze_lane_contiguity).
    """

    def __init__(self) -> None:
        from torch._inductor.sizevars import SizeVarAllocator

        self.sizevars = SizeVarAllocator()
        self.name_to_buffer: dict = {}
        self.graph_inputs: dict = {}
        self.constants: dict = {}
        self.scheduler = None


def _mock_graph_handler():
    try:  # pragma: no cover - needs expecttest
        from torch.testing._internal.inductor_utils import MockGraphHandler

        return MockGraphHandler()
    except Exception:  # noqa: BLE001
        return _MiniGraphHandler()


def inductor_select(traced) -> tuple | None:
    """torch 2.13 ``select_packed_mask_intervals`` on a TracedMask / GraphModule.

    Returns the tuple of ``PackedMaskInterval`` (half-open lane intervals whose
    union is the keep set of a word) or None when inductor would fall back to
    per-lane evaluation (unsupported op, > 8 intervals, or the full mask).
    """
    from torch._inductor.kernel.flex.interval_mask_packing import (
        select_packed_mask_intervals,
    )
    from torch._inductor.virtualized import V

    gm = getattr(traced, "graph_module", traced)
    with V.set_graph_handler(_mock_graph_handler()):
        return select_packed_mask_intervals(gm)


def inductor_packs(traced) -> bool:
    return inductor_select(traced) is not None


class _Cutlass:
    """Just enough of ``cutlass`` to evaluate inductor's rendered interval bounds."""

    @staticmethod
    def Int32(x):
        import numpy as np

        return np.int64(x).astype(np.int32)

    @staticmethod
    def Int64(x):
        import numpy as np

        return np.int64(x)


def inductor_interval_words(intervals, aux_tensors, b, h, q, kv_base) -> torch.Tensor:
    """Evaluate inductor's packed intervals the way its CuTe code would, per word.

    ``intervals`` is what ``inductor_select`` returned; ``aux_tensors`` are the
    traced mask's aux tensors (``TracedMask.aux_tensors``, placeholder order).
    The rendered bounds (``render_lower/upper``) are evaluated with numpy int32
    scalars, so Int32 arithmetic wraps as on the GPU; ``//`` is evaluated as
    floor division.  The keep mask of an interval is bits
    ``[clamp(lower, 0, 32), clamp(upper, 0, 32))`` (same as
    ``PackedMaskInterval.keep_mask_expr``: ``32 - upper`` is computed in Int32
    there too); the word is the OR over intervals.  Slow (Python loop): meant
    for differential tests on ~10^4-10^5 words.
    """
    import numpy as np

    aux = [t.numpy() for t in aux_tensors]
    codes = [
        (compile(iv.render_lower(), "<lower>", "eval"), compile(iv.render_upper(), "<upper>", "eval"))
        for iv in intervals
    ]
    b, h, q, kv_base = (_as_i32(x).tolist() for x in (b, h, q, kv_base))
    env = {"cutlass": _Cutlass, "aux_tensors": aux, "min": min, "max": max}
    i32 = np.int32
    out = []
    with np.errstate(over="ignore"):
        for bi, hi, qi, ki in zip(b, h, q, kv_base):
            env["b_idx"] = [i32(bi)]
            env["h_idx"] = [i32(hi)]
            env["q_idx"] = [i32(qi)]
            env["kv_idx"] = [i32(ki)]
            w = 0
            for lo_c, up_c in codes:
                lo = int(eval(lo_c, env))  # noqa: S307 - inductor's own rendering
                up = int(eval(up_c, env))  # noqa: S307
                shr = min(max(int(i32(32) - i32(up)), 0), 32)  # Int32(32) - upper, as in keep_mask_expr
                shl = min(max(lo, 0), 32)
                hi_mask = (0xFFFFFFFF >> shr) if shr < 32 else 0
                lo_mask = (0xFFFFFFFF << shl) & 0xFFFFFFFF if shl < 32 else 0
                w |= hi_mask & lo_mask
            out.append(w)
    return torch.tensor(out, dtype=torch.int64)


# ----------------------------------------------------------------------------
# reference evaluation
# ----------------------------------------------------------------------------

_LANES = None


def _lanes() -> torch.Tensor:
    global _LANES
    if _LANES is None:
        _LANES = torch.arange(32, dtype=torch.int32)
    return _LANES


def _as_i32(x) -> torch.Tensor:
    t = torch.as_tensor(x)
    if t.dim() != 1:
        t = t.reshape(-1)
    if t.dtype != torch.int32:
        t64 = t.to(torch.int64)
        if t64.numel() and (int(t64.min()) < -(2**31) or int(t64.max()) > INT32_MAX):
            raise ValueError("index out of int32 range")
        t = t64.to(torch.int32)
    return t


def _check_result(out: torch.Tensor, n: int) -> torch.Tensor:
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"mask_mod returned {type(out).__name__}, expected a bool tensor")
    if out.dtype != torch.bool:
        raise TypeError(f"mask_mod returned dtype {out.dtype}, expected torch.bool")
    return out.reshape(-1).expand(n) if out.numel() == 1 else out.reshape(n)


class ScalarPromotion(torch.overrides.TorchFunctionMode):
    """
    Eager 0-dim type promotion under torch.vmap.

    Every value a mask_mod computes is a 0-dim tensor, so an op on integer
    tensors of different dtypes promotes to the wider one (`t[0] >= q_idx`
    with int64 `t` compares in int64). torch.vmap's batching rules promote
    the *physical* tensors instead: an unbatched 0-dim int64 (`t[0]`, a
    captured scalar) against a batched int32 is cast to int32 and wraps.
    This mode sees the logical 0-dim operands and casts the integer ones to
    their promoted dtype first, so the vmapped evaluation is the eager one
    (`reference_words_slow`, one call per lane, is the oracle in the tests).
    Likewise where a dimensioned operand meets a 0-dim one (a row `t[h]`
    against q_idx): eager torch computes in the dimensioned operand's dtype
    when both are integers (`torch.result_type`: a uint8 row compared with
    an int32 q_idx compares in uint8, q_idx wrapping), vmap in the promoted
    physical one. Indexing is left alone (an index is not promoted).
    """

    _NOT_PROMOTING = frozenset({"__getitem__", "__setitem__", "index", "index_select", "gather", "take", "select"})

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        ints = {t.dtype for t in tensors if not t.is_floating_point() and t.dtype != torch.bool}
        target = None
        if len(ints) > 1 and all(t.dim() == 0 for t in tensors):
            target = functools.reduce(torch.promote_types, ints)
        elif len(ints) > 1 and getattr(func, "__name__", None) not in self._NOT_PROMOTING:
            logical = [
                torch.empty((1,) * t.dim(), dtype=t.dtype)
                for t in tensors
                if not t.is_floating_point() and t.dtype != torch.bool
            ]
            target = functools.reduce(
                lambda a, b: torch.empty((1,) * max(a.dim(), b.dim()), dtype=torch.result_type(a, b)),
                logical,
            ).dtype
        if target is not None:

            def cast(a):
                if isinstance(a, torch.Tensor) and a.dtype in ints and a.dtype != target:
                    return a.to(target)
                return a

            args = tuple(cast(a) for a in args)
            kwargs = {k: cast(v) for k, v in kwargs.items()}
        return func(*args, **kwargs)


def reference_words(mask_mod, b, h, q, kv_base, *, chunk_words: int = 1 << 17) -> torch.Tensor:
    """Packed keep words, evaluated eagerly: bit L of word i = mask_mod(b[i], h[i], q[i], kv_base[i] + L).

    b, h, q, kv_base: 1-D integer tensors (or sequences) of equal length N;
    they are converted to int32 (values must fit; kv_base + 31 must not
    overflow).  The mask_mod runs once, vmapped over all N*32 (point, lane)
    pairs, with 1-element int32 index tensors per call and
    ``TransformGetItemToIndex`` active, i.e. the same semantics as
    ``torch.nn.attention.flex_attention.create_mask`` (int32 arithmetic wraps
    exactly as in the kernel), with eager 0-dim type promotion (see
    ``ScalarPromotion``).  Returns int64 words in [0, 2^32).
    """
    from torch._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex

    b, h, q, kv_base = (_as_i32(x) for x in (b, h, q, kv_base))
    n = b.numel()
    if not (h.numel() == q.numel() == kv_base.numel() == n):
        raise ValueError("b, h, q, kv_base must have equal length")
    if n and int(kv_base.to(torch.int64).max()) + 31 > INT32_MAX:
        raise ValueError("kv_base + 31 overflows int32")
    lanes = _lanes()
    shifts = torch.arange(32, dtype=torch.int64)
    vm = torch.vmap(mask_mod, in_dims=(0, 0, 0, 0))
    out_words = []
    with TransformGetItemToIndex(), ScalarPromotion():
        for s in range(0, n, chunk_words):
            e = min(n, s + chunk_words)
            m = e - s
            bb = b[s:e, None].expand(m, 32).reshape(-1)
            hh = h[s:e, None].expand(m, 32).reshape(-1)
            qq = q[s:e, None].expand(m, 32).reshape(-1)
            kk = (kv_base[s:e, None] + lanes).reshape(-1)
            bits = _check_result(vm(bb, hh, qq, kk), m * 32).view(m, 32)
            out_words.append((bits.to(torch.int64) << shifts).sum(dim=1))
    if not out_words:
        return torch.zeros(0, dtype=torch.int64)
    return torch.cat(out_words)


def reference_words_slow(mask_mod, b, h, q, kv_base) -> torch.Tensor:
    """Scalar-loop reference (one mask_mod call per lane with 0-dim int32 tensors); for tests."""
    from torch._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex

    b, h, q, kv_base = (_as_i32(x) for x in (b, h, q, kv_base))
    words = []
    with TransformGetItemToIndex():
        for i in range(b.numel()):
            w = 0
            for lane in range(32):
                r = mask_mod(b[i], h[i], q[i], kv_base[i] + lane)
                if bool(r):
                    w |= 1 << lane
            words.append(w)
    return torch.tensor(words, dtype=torch.int64)


def count_runs(words: torch.Tensor) -> torch.Tensor:
    """Number of maximal runs of set bits in each 32-bit word (int64 tensor)."""
    w = words.to(torch.int64) & 0xFFFFFFFF
    starts = w & ~(w << 1) & 0xFFFFFFFF
    cnt = torch.zeros_like(starts)
    x = starts
    for _ in range(32):
        cnt += x & 1
        x = x >> 1
    return cnt


def max_runs_of(words: torch.Tensor) -> int:
    return int(count_runs(words).max()) if words.numel() else 0


# ----------------------------------------------------------------------------
# sample points
# ----------------------------------------------------------------------------


def sample_points(case: MaskCase, *, seed: int = 0, n_rows: int = 48):
    """(b, h, q, kv_base) int32 vectors covering every edge at every lane.

    For each of ``n_rows`` (b, h, q) rows (q = 0, 1, Q_LEN-1 and random ones,
    random b < B, h < H) take every kv_base in [0, KV_LEN), i.e. all
    alignments.  When ``case.large_indices``, add rows with q near 2^31-1 and
    near 2^30 (and at ``case.edge_qs``) with kv_base windows around q, near 0
    and up to 2^31-32.  All
    values are >= 0 and kv_base + 31 < 2^31.
    """
    B, H, Q, KV = case.shape
    g = torch.Generator().manual_seed(seed)
    fixed_q = [0, 1, Q - 1]
    n_rand = max(0, n_rows - len(fixed_q))
    rq = torch.randint(0, Q, (n_rand,), generator=g).tolist()
    qs = (fixed_q + rq)[:n_rows] if n_rows >= len(fixed_q) else fixed_q[:n_rows]
    bs = torch.randint(0, B, (len(qs),), generator=g).tolist()
    hs = torch.randint(0, H, (len(qs),), generator=g).tolist()
    kv_all = torch.arange(KV, dtype=torch.int64)
    parts_b, parts_h, parts_q, parts_kv = [], [], [], []

    def add_row(bv, hv, qv, kvs: torch.Tensor):
        kvs = kvs[(kvs >= 0) & (kvs + 31 <= INT32_MAX)]
        n = kvs.numel()
        parts_b.append(torch.full((n,), bv, dtype=torch.int64))
        parts_h.append(torch.full((n,), hv, dtype=torch.int64))
        parts_q.append(torch.full((n,), qv, dtype=torch.int64))
        parts_kv.append(kvs)

    for bv, hv, qv in zip(bs, hs, qs):
        add_row(bv, hv, qv, kv_all)

    if case.large_indices:
        top = INT32_MAX - 31  # largest legal kv_base
        big_qs = [INT32_MAX, INT32_MAX - 1, INT32_MAX - 40, INT32_MAX - 1000,
                  2**30, 2**30 - 1, 2**30 + 17, 2**30 - 333, *case.edge_qs]
        win = torch.arange(-160, 161, dtype=torch.int64)
        for i, qv in enumerate(big_qs):
            bv = int(torch.randint(0, B, (1,), generator=g))
            hv = int(torch.randint(0, H, (1,), generator=g))
            around_q = qv + win
            near_zero = torch.arange(0, 96, dtype=torch.int64)
            near_top = top - torch.arange(0, 96, dtype=torch.int64)
            add_row(bv, hv, qv, torch.cat([around_q, near_zero, near_top]))
        # a couple of ordinary q rows against huge kv_base
        for qv in (0, Q - 1):
            add_row(0, 0, qv, torch.cat([top - torch.arange(0, 64), 2**30 + torch.arange(-64, 64)]))

    def cat(parts):
        return torch.cat(parts).to(torch.int32)

    return cat(parts_b), cat(parts_h), cat(parts_q), cat(parts_kv)


# ----------------------------------------------------------------------------
# mask builders
# ----------------------------------------------------------------------------


def _rng(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _doc_lengths(total: int, mean: int, seed: int) -> list[int]:
    """Random document lengths (>= 1) summing to ``total``."""
    g = _rng(seed)
    lengths: list[int] = []
    left = total
    while left > 0:
        n = int(torch.randint(1, 2 * mean, (1,), generator=g))
        n = min(n, left)
        lengths.append(n)
        left -= n
    return lengths


def _doc_ids_and_starts(total: int, mean: int, seed: int, dtype: torch.dtype):
    lengths = _doc_lengths(total, mean, seed)
    doc_ids = torch.repeat_interleave(
        torch.arange(len(lengths), dtype=dtype), torch.tensor(lengths)
    )
    starts = torch.cumsum(torch.tensor([0] + lengths[:-1]), 0).to(dtype)
    return doc_ids, starts, lengths


def _offsets(lengths: list[int]) -> torch.Tensor:
    from attn_gym.masks.document_mask import length_to_offsets

    return length_to_offsets(lengths, "cpu")


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def make_causal():
    return causal


def make_causal_strict():
    def causal_strict(b, h, q_idx, kv_idx):
        return q_idx > kv_idx

    return causal_strict


def make_attn_gym_causal():
    from attn_gym.masks import causal_mask

    return causal_mask


def make_sliding_window(window=100):
    from attn_gym.masks import generate_sliding_window

    return generate_sliding_window(window)


def make_bottom_right_causal(offset=768):
    def bottom_right_causal(b, h, q_idx, kv_idx):
        return q_idx + offset >= kv_idx

    return bottom_right_causal


def make_per_head_strict_window(H=8):
    """A causal window of per-head width, strict (`q - kv < win[h]`, an int32
    tensor; a width of 0 keeps nothing): its lower end (q - kv) - win + 1
    may leave int32 (an i64 bound), where, unlike `per_head_window`'s
    `<=`, the i32 narrowing a - clamp(win, a - 31, a + 1) would need
    q - kv + 1, so the + 1 is folded into the window first, a - clamp(win - 1,
    a - 32, a) (issue 17's held-out per-head window)."""
    win = torch.tensor([1, 0, 31, 32, 33, 100, 255, 4000][:H], dtype=torch.int32)

    def per_head_strict_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx < win[h]) & (q_idx >= kv_idx)

    return per_head_strict_window


def make_per_batch_offset_causal():
    """Bottom-right causal with a per-batch offset read from an int32 tensor
    (KV cache length less query length): torch's int32 q + off[b] wraps for
    q >= 2^31 - off[b], where no lane is kept."""
    off = torch.tensor([0, 100, 1000, 4096], dtype=torch.int32)

    def per_batch_offset_causal(b, h, q_idx, kv_idx):
        return q_idx + off[b] >= kv_idx

    return per_batch_offset_causal


def make_bottom_right_window(offset=768, window=256):
    """Bottom-right aligned sliding window (decoding with a KV cache of
    `offset` more keys than queries): torch's int32 `q - kv + offset` wraps
    for q near 2^31."""

    def bottom_right_window(b, h, q_idx, kv_idx):
        d = q_idx - kv_idx + offset
        return (d >= 0) & (d <= window)

    return bottom_right_window


def make_wrapped_conjunction(terms=10, offset=3000):
    """A conjunction of `terms` shifted causal-like bounds (issue 20):
    `kv_idx + k <= q_idx + offset + k % 7`. In torch's int32 `kv_idx + k`
    wraps for kv_idx >= 2^31 - k and `q_idx + offset + k % 7` for q_idx >=
    2^31 - offset - k % 7: each comparison is split in two runs at its kv
    wrap point, and its bound is a wrapped uniform value."""

    def wrapped_conjunction(b, h, q_idx, kv_idx):
        keep = kv_idx <= q_idx + offset
        for k in range(1, terms):
            keep = keep & (kv_idx + k <= q_idx + offset + k % 7)
        return keep

    return wrapped_conjunction


def make_prefix_lm(prefix=77):
    from attn_gym.masks import generate_prefix_lm_mask

    return generate_prefix_lm_mask(prefix)


def make_streaming_sink(sink=4, window=64):
    def streaming_sink(b, h, q_idx, kv_idx):
        in_window = (q_idx - kv_idx <= window) & (q_idx >= kv_idx)
        return (kv_idx < sink) | in_window

    return streaming_sink


def make_chunked_causal(chunk=96):
    def chunked_causal(b, h, q_idx, kv_idx):
        return (q_idx // chunk == kv_idx // chunk) & (q_idx >= kv_idx)

    return chunked_causal


def make_symmetric_window(window=40):
    def symmetric_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx).abs() <= window

    return symmetric_window


def make_full():
    from torch.nn.attention.flex_attention import noop_mask

    return noop_mask


def make_doc_start_causal(dtype=torch.int32, total=1024 + PAD, mean=150, seed=1):
    doc_ids, starts, _ = _doc_ids_and_starts(total, mean, seed, dtype)

    def doc_start_causal(b, h, q_idx, kv_idx):
        return (starts[doc_ids[q_idx]] <= kv_idx) & (kv_idx <= q_idx)

    return doc_start_causal


def make_batched_doc_start_causal(B=3, total=768, seed=2):
    rows = []
    for i in range(B):
        doc_ids, starts, _ = _doc_ids_and_starts(total, 100 + 40 * i, seed + i, torch.int64)
        rows.append(starts[doc_ids].to(torch.int32))
    doc_start = torch.stack(rows)  # (B, Q_LEN): start of q's document, per batch row

    def batched_doc_start_causal(b, h, q_idx, kv_idx):
        return (kv_idx >= doc_start[b, q_idx]) & (kv_idx <= q_idx)

    return batched_doc_start_causal


#: Int64 starts at the edges of what the keep word must get right: below 0,
#: around 2^31 and 2^32 (where a start saturated to Uint32 or truncated to
#: Int32 would differ), and the int64 extremes.
EXTREME_I64_STARTS = (
    -(2**63), -(2**40) - 5, -(2**32), -1, 0, 5, 40, 2**31 - 40, 2**31 - 1,
    2**31, 2**32 - 1, 2**32, 2**32 + 7, 2**40 + 3, 2**63 - 1,
)


def make_extreme_start_causal():
    starts = torch.tensor(EXTREME_I64_STARTS, dtype=torch.int64)

    def extreme_start_causal(b, h, q_idx, kv_idx):
        return (kv_idx >= starts[b]) & (kv_idx <= q_idx)

    return extreme_start_causal


def make_per_batch_window(B=4):
    win = torch.tensor([0, 17, 64, 300][:B], dtype=torch.int32)

    def per_batch_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win[b]) & (q_idx >= kv_idx)

    return per_batch_window


def make_kv_padding(B=4):
    """Per-batch key padding (`kv_idx < kv_len[b]`): one run from lane 0."""
    kv_len = torch.tensor([1024, 517, 64, 3][:B], dtype=torch.int32)

    def kv_padding(b, h, q_idx, kv_idx):
        return kv_idx < kv_len[b]

    return kv_padding


def make_per_head_window(H=8):
    win = torch.tensor([1, 5, 31, 32, 33, 100, 255, 4000][:H], dtype=torch.int32)

    def per_head_window(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win[h]) & (q_idx >= kv_idx)

    return per_head_window


#: Per-head windows of a uint8 tensor: both ends, both sides of 127/128, and
#: ones that end inside and past a 32-lane word.
UINT8_WINDOWS = (0, 1, 127, 128, 200, 255, 31, 32)


def make_per_head_window_u8():
    win_u8 = torch.tensor(UINT8_WINDOWS, dtype=torch.uint8)

    def per_head_window_u8(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win_u8[h]) & (q_idx >= kv_idx)

    return per_head_window_u8


def make_per_head_window_u16():
    win_u16 = torch.tensor([0, 1, 255, 256, 32767, 32768, 40000, 65535], dtype=torch.uint16)

    def per_head_window_u16(b, h, q_idx, kv_idx):
        # torch 2.13 has no uint16 `-` or `<=` on CPU: the window converts to int32
        return (q_idx - kv_idx <= win_u16[h].int()) & (q_idx >= kv_idx)

    return per_head_window_u16


#: Per-head windows of an int64 tensor: small ones, ones about a 32-lane
#: word, and "no window" sentinels past int32, which inductor truncates to
#: Int32: 2^32 - 1 becomes -1 (no lane, not even the diagonal) and 2^40 0
#: (the diagonal only).
INT64_WINDOWS = (2**32 - 1, 1, 5, 31, 32, 33, 100, 2**40)


def make_per_head_window_i64():
    win_i64 = torch.tensor(INT64_WINDOWS, dtype=torch.int64)

    def per_head_window_i64(b, h, q_idx, kv_idx):
        return (q_idx - kv_idx <= win_i64[h]) & (q_idx >= kv_idx)

    return per_head_window_i64


def make_kv_padding_i64():
    """Per-batch key padding from an int64 length tensor; 2^40 is a "no
    padding" sentinel, which inductor truncates to Int32 (0: no key kept)."""
    kv_len = torch.tensor([2**40, 517, 64, 3], dtype=torch.int64)

    def kv_padding_i64(b, h, q_idx, kv_idx):
        return kv_idx < kv_len[b]

    return kv_padding_i64


def make_prefix_lm_i64():
    """Prefix LM with a per-batch int64 prefix length (2^40: the whole
    sequence is prefix; inductor truncates it to Int32, 0: causal only)."""
    prefix = torch.tensor([2**40, 77, 500, 0], dtype=torch.int64)

    def prefix_lm_i64(b, h, q_idx, kv_idx):
        return (kv_idx < prefix[b]) | (q_idx >= kv_idx)

    return prefix_lm_i64


def make_compressed_causal_i64(stride=4):
    """Causal attention to compressed KV (NSA-style block compression): token
    kv summarizes positions [stride * kv, stride * kv + stride - 1] and is
    visible once q has passed them all. `kv * stride` in int64 cannot wrap,
    so over the whole int32 domain this is `stride * L + ... <= 0`, a lane
    coefficient of 4 (issue 18)."""

    def compressed_causal_i64(b, h, q_idx, kv_idx):
        return kv_idx.to(torch.int64) * stride + (stride - 1) <= q_idx

    return compressed_causal_i64


def make_pooled_cross_i64(stride=3):
    """Cross attention to a pooled sequence: q attends the pooled token of
    its own bucket, `3 * kv <= q < 3 * kv + 3` (kv == q // 3), in int64."""

    def pooled_cross_i64(b, h, q_idx, kv_idx):
        d = q_idx - kv_idx.to(torch.int64) * stride
        return (d >= 0) & (d < stride)

    return pooled_cross_i64


def make_compressed_causal_s2():
    """`q_idx - 2 * kv_idx >= 0` in int32 (issue 18's example): exact only
    where `2 * kv_idx` cannot wrap, i.e. inside a domain such as q, kv < 2^17."""

    def compressed_causal_s2(b, h, q_idx, kv_idx):
        return q_idx - 2 * kv_idx >= 0

    return compressed_causal_s2


def make_compressed_window_s3(window=384):
    """A sliding window over KV compressed by 3, in int32."""

    def compressed_window_s3(b, h, q_idx, kv_idx):
        d = q_idx - 3 * kv_idx
        return (d >= 0) & (d < window)

    return compressed_window_s3


def make_strided_diagonal_3():
    """The diagonal of a 3x strided KV (`3 * kv == q`, a lane only where 3
    divides q) with the causal diagonal, in int32."""

    def strided_diagonal_3(b, h, q_idx, kv_idx):
        return (3 * kv_idx == q_idx) | (kv_idx == q_idx)

    return strided_diagonal_3


def make_compressed_causal_s2_i32():
    """`q_idx - 2 * kv_idx >= 0` in int32 over the whole domain (issue 18):
    torch wraps `q - 2 * kv` below -2^31 (kv > ~2^30 + q / 2), where the
    wrapped value is >= 0 again; the window splits at its wrap lane."""

    def compressed_causal_s2_i32(b, h, q_idx, kv_idx):
        return q_idx - 2 * kv_idx >= 0

    return compressed_causal_s2_i32


def make_compressed_window_s3_i32(window=384):
    """A sliding window over KV compressed by 3, int32, whole domain."""

    def compressed_window_s3_i32(b, h, q_idx, kv_idx):
        d = q_idx - 3 * kv_idx
        return (d >= 0) & (d < window)

    return compressed_window_s3_i32


def make_strided_diagonal_3_i32():
    """`3 * kv == q` (where 3 divides q, or where 3 * kv wraps onto q) with the
    causal diagonal, int32, whole domain."""

    def strided_diagonal_3_i32(b, h, q_idx, kv_idx):
        return (3 * kv_idx == q_idx) | (kv_idx == q_idx)

    return strided_diagonal_3_i32


def make_upsampled_causal_neg3():
    """A negative coefficient written as such: `kv * -3 + q + 5 >= 0` (KV at a
    third of Q's rate, causal with a lookahead of 5), int32, whole domain."""

    def upsampled_causal_neg3(b, h, q_idx, kv_idx):
        return kv_idx * -3 + q_idx + 5 >= 0

    return upsampled_causal_neg3


def make_kv_scaled(c):
    """`kv * c` against q with a large |c| (2^20: `kv * c` itself wraps 2^19
    times over the domain; -2^27: |c| * 31 < 2^32, still one wrap lane per
    window), int32, whole domain: split at the window's wrap lane."""

    if c > 0:

        def kv_scaled(b, h, q_idx, kv_idx):
            return kv_idx * c <= q_idx

    else:

        def kv_scaled(b, h, q_idx, kv_idx):
            return q_idx + kv_idx * c >= 0

    kv_scaled.__name__ = f"kv_scaled_{'neg_' if c < 0 else ''}2p{abs(c).bit_length() - 1}"
    return kv_scaled


def make_doc_start_causal_u8_ids(total=1024 + PAD, mean=4, seed=12):
    """Documents of a uint8 id table (> 128 documents, ids up to 255) whose
    ids index an int32 table of starts: `starts[doc_u8[q].long()]` (torch
    reads a uint8 *index* as a boolean mask, so the id is converted)."""
    lengths = _doc_lengths(total, mean, seed)[:256]
    lengths[-1] += total - sum(lengths)
    doc_u8 = torch.repeat_interleave(
        torch.arange(len(lengths), dtype=torch.int32), torch.tensor(lengths)
    ).to(torch.uint8)
    starts = torch.cumsum(torch.tensor([0] + lengths[:-1]), 0).to(torch.int32)

    def doc_start_causal_u8_ids(b, h, q_idx, kv_idx):
        return (starts[doc_u8[q_idx].long()] <= kv_idx) & (kv_idx <= q_idx)

    return doc_start_causal_u8_ids


def make_row_bounded_causal(Q=1024, seed=3):
    g = _rng(seed)
    row_len = torch.randint(0, Q, (Q,), generator=g, dtype=torch.int32)

    def row_bounded_causal(b, h, q_idx, kv_idx):
        return (kv_idx <= q_idx) & (kv_idx < row_len[q_idx])

    return row_bounded_causal


def make_doc_mask_gather(total=1024 + PAD, mean=120, seed=4):
    doc_ids, _, _ = _doc_ids_and_starts(total, mean, seed, torch.int32)

    def doc_mask_gather(b, h, q_idx, kv_idx):
        return doc_ids[kv_idx] == doc_ids[q_idx]

    return doc_mask_gather


def make_is_global_gather(total=512 + PAD, seed=5):
    g = _rng(seed)
    is_global = torch.rand(total, generator=g) < 0.1
    is_global[0] = True

    def is_global_gather(b, h, q_idx, kv_idx):
        return is_global[kv_idx] & (q_idx >= kv_idx)

    return is_global_gather


def make_even_kv():
    def even_kv_causal(b, h, q_idx, kv_idx):
        return (kv_idx % 2 == 0) & (q_idx >= kv_idx)

    return even_kv_causal


def make_natten():
    from attn_gym.masks import generate_natten

    return generate_natten(canvas_w=24, canvas_h=24, kernel_w=7, kernel_h=7)


def make_tiled_natten():
    from attn_gym.masks import generate_tiled_natten

    return generate_tiled_natten(W=24, H=24, K_W=7, K_H=7, T_W=8, T_H=8)


def make_morton_natten():
    from attn_gym.masks import generate_morton_natten

    return generate_morton_natten(canvas_w=32, canvas_h=32, kernel_w=7, kernel_h=7)


def make_dilated_sliding_window(window=64, dilation=2):
    from attn_gym.masks import generate_dilated_sliding_window

    return generate_dilated_sliding_window(window, dilation)


def make_block_diffusion():
    from attn_gym.masks import generate_block_diffusion_mask

    return generate_block_diffusion_mask(seq_len=256, block_size=16)


def make_global_sliding_window(total=512 + PAD, seed=6):
    from attn_gym.masks import generate_global_sliding_window

    g = _rng(seed)
    is_global = torch.zeros(total, dtype=torch.bool)
    is_global[torch.randint(0, total, (12,), generator=g)] = True
    is_global[0] = True
    return generate_global_sliding_window(32, is_global)


def make_attn_gym_doc_mask(causal_inner=True, total=1024 + PAD, mean=150, seed=7):
    from attn_gym.masks import causal_mask, generate_doc_mask_mod
    from torch.nn.attention.flex_attention import noop_mask

    offsets = _offsets(_doc_lengths(total, mean, seed))
    return generate_doc_mask_mod(causal_mask if causal_inner else noop_mask, offsets)


def make_packed_causal_doc(total=1024 + PAD, mean=150, seed=8):
    from attn_gym.masks import generate_packed_causal_doc_mask_mod

    offsets = _offsets(_doc_lengths(total, mean, seed))
    return generate_packed_causal_doc_mask_mod(offsets)


def make_shared_prefix(total=1024 + PAD, seed=9):
    from attn_gym.masks import generate_shared_prefix_mask_mod

    # groups of (prefix, 3 continuations); the last document absorbs the padding
    g = _rng(seed)
    lengths, prefix_of = [], []
    while sum(lengths) < total:
        p = len(lengths)
        lengths.append(int(torch.randint(40, 160, (1,), generator=g)))
        prefix_of.append(p)
        for _ in range(3):
            lengths.append(int(torch.randint(10, 90, (1,), generator=g)))
            prefix_of.append(p)
    lengths[-1] -= sum(lengths) - total
    if lengths[-1] <= 0:
        lengths[-1] = 1
    offsets = _offsets(lengths)
    prefix_document_id = torch.tensor(prefix_of, dtype=torch.int32)
    return generate_shared_prefix_mask_mod(offsets, prefix_document_id)


def make_vision_cross_attention(image_token_length=64, num_images=5):
    from attn_gym.masks import generate_vision_cross_attention_mask_mod

    # text positions [start, end) that see each image; the last image is padding
    intervals = torch.tensor(
        [[0, 200], [37, 200], [200, 390], [390, 512], [0, 0]][:num_images], dtype=torch.int32
    )
    return generate_vision_cross_attention_mask_mod(intervals, image_token_length)


def make_jetspec_tree(prefix=100):
    from attn_gym.masks import build_tree_ancestor_matrix, generate_jetspec_tree_causal_mask_mod

    # a 64-node tree: node i's parent is (i - 1) // 3 (3-ary tree, parent-before-child)
    parents = [-1] + [(i - 1) // 3 for i in range(1, 64)]
    anc = build_tree_ancestor_matrix(parents, device="cpu")
    return generate_jetspec_tree_causal_mask_mod(prefix, anc)


def make_jetspec_training(prefix=100, block_size=16):
    from attn_gym.masks import generate_jetspec_training_mask_mod

    return generate_jetspec_training_mask_mod(prefix, block_size)


def make_spatial_head(attn_sink=False):
    from attn_gym.masks import generate_spatial_head_mask_mod

    return generate_spatial_head_mask_mod(
        prompt_length=50, num_frames=8, token_per_frame=120, width=2,
        attn_sink=attn_sink, round_width=32,
    )


def make_temporal_head():
    from attn_gym.masks import generate_temporal_head_mask_mod

    return generate_temporal_head_mask_mod(prompt_length=50, num_frames=8, token_per_frame=120, width=2)


def make_sta_2d():
    from attn_gym.masks import generate_sta_mask_mod_2d

    return generate_sta_mask_mod_2d((24, 24), (12, 12), (4, 4), text_seq_len=64)


def make_sta_3d():
    from attn_gym.masks import generate_sta_mask_mod_3d

    return generate_sta_mask_mod_3d((4, 16, 16), (2, 8, 8), (2, 4, 4), text_seq_len=32)


def make_batchify_causal(size=64):
    from attn_gym.masks import batchify_mask_mod, causal_mask

    return batchify_mask_mod(causal_mask, size)


def make_diagonal():
    """Each query attends to its own key only (`q_idx == kv_idx`): one lane
    per word, where it falls in the window."""

    def diagonal(b, h, q_idx, kv_idx):
        return q_idx == kv_idx

    return diagonal


def make_nine_diagonals():
    def nine_diagonals(b, h, q_idx, kv_idx):
        keep = q_idx == kv_idx
        for j in range(1, 9):
            keep = keep | (q_idx - kv_idx == j)
        return keep

    return nine_diagonals


def make_odd_kv():
    def odd_kv(b, h, q_idx, kv_idx):
        return kv_idx % 2 == 1

    return odd_kv


def make_every_third_causal():
    def every_third_causal(b, h, q_idx, kv_idx):
        return ((q_idx - kv_idx) % 3 == 0) & (kv_idx <= q_idx)

    return every_third_causal


def make_kv_mod5_lt2():
    def kv_mod5_lt2(b, h, q_idx, kv_idx):
        return kv_idx % 5 < 2

    return kv_mod5_lt2


def make_block_start_causal(block=64):
    def block_start_causal(b, h, q_idx, kv_idx):
        return (kv_idx >= q_idx - q_idx % block) & (kv_idx <= q_idx)

    return block_start_causal


def make_alternating_blocks(block=48):
    def alternating_blocks(b, h, q_idx, kv_idx):
        return (kv_idx // block) % 2 == (q_idx // block) % 2

    return alternating_blocks


def make_half_period_40():
    def half_period_40(b, h, q_idx, kv_idx):
        return (kv_idx % 40 < 20) & (q_idx >= kv_idx)

    return half_period_40


def make_batchify(inner: str, size: int):
    from attn_gym.masks import batchify_mask_mod, generate_prefix_lm_mask, generate_sliding_window
    from torch.nn.attention.flex_attention import noop_mask

    mm = {"noop": noop_mask, "sliding_window_16": generate_sliding_window(16),
          "prefix_lm_8": generate_prefix_lm_mask(8)}[inner]
    return batchify_mask_mod(mm, size)


def make_natten_sized(canvas, kernel):
    from attn_gym.masks import generate_natten

    return generate_natten(canvas_w=canvas, canvas_h=canvas, kernel_w=kernel, kernel_h=kernel)


def make_sta_2d_32():
    from attn_gym.masks import generate_sta_mask_mod_2d

    return generate_sta_mask_mod_2d((32, 32), (16, 16), (8, 8), text_seq_len=0)


def make_block_diffusion_sized(seq_len, block_size):
    from attn_gym.masks import generate_block_diffusion_mask

    return generate_block_diffusion_mask(seq_len=seq_len, block_size=block_size)


def make_jetspec_training_sized(prefix, block_size):
    from attn_gym.masks import generate_jetspec_training_mask_mod

    return generate_jetspec_training_mask_mod(prefix, block_size)


def make_per_head_chunked_causal():
    def per_head_chunked_causal(b, h, q_idx, kv_idx):
        chunk = 64 * (h % 4 + 1)  # a lane-uniform divisor in [64, 256]
        return (q_idx // chunk == kv_idx // chunk) & (q_idx >= kv_idx)

    return per_head_chunked_causal


def make_chunked_causal_neg(chunk=-64):
    def chunked_causal_neg64(b, h, q_idx, kv_idx):
        # floor division by a negative constant: the blocks (64k - 64, 64k]
        return (q_idx // chunk == kv_idx // chunk) & (kv_idx <= q_idx)

    return chunked_causal_neg64


def make_per_batch_chunk():
    chunk = torch.tensor([1, 7, 64, 1000, -64], dtype=torch.int32)

    def per_batch_chunk(b, h, q_idx, kv_idx):
        # a lane-uniform divisor of kv of either sign (an aux load)
        return (q_idx // chunk[b] == kv_idx // chunk[b]) & (kv_idx <= q_idx)

    return per_batch_chunk


def make_window_or_prefix():
    from attn_gym.masks import causal_mask, generate_prefix_lm_mask, generate_sliding_window
    from torch.nn.attention.flex_attention import and_masks, or_masks

    return or_masks(and_masks(causal_mask, generate_sliding_window(256)), generate_prefix_lm_mask(16))


def make_long_range_only():
    from attn_gym.masks import causal_mask, generate_sliding_window

    window = generate_sliding_window(64)

    def long_range_only(b, h, q_idx, kv_idx):
        return causal_mask(b, h, q_idx, kv_idx) & ~window(b, h, q_idx, kv_idx)

    return long_range_only


def make_head_strided_causal(stride=4):
    """Head h attends to the causal kv positions congruent to h modulo `stride`."""

    def head_strided_causal(b, h, q_idx, kv_idx):
        return (kv_idx % stride == h % stride) & (kv_idx <= q_idx)

    return head_strided_causal


def make_global_tokens_where(sink=4):
    """Global tokens written as a torch.where with a kv-dependent condition:
    `(kv_idx < sink) | (q_idx >= kv_idx)` (an i1 select with a constant arm)."""

    def global_tokens_where(b, h, q_idx, kv_idx):
        return torch.where(kv_idx < sink, True, q_idx >= kv_idx)

    return global_tokens_where


def make_block_summary_window(block=64, summary=8, near=64, far=256):
    """Causal; the first `summary` tokens of every `block` stay visible for
    `far` positions, the others for `near`: an integer torch.where on a
    kv-dependent condition, compared with q - kv."""

    def block_summary_window(b, h, q_idx, kv_idx):
        window = torch.where(kv_idx % block < summary, far, near)
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= window)

    return block_summary_window


def make_far_summaries_where(near=256, block=64, summary=8):
    """Causal within `near`; beyond it only the first `summary` tokens of each
    `block`: an i1 torch.where whose arms are both kv-dependent."""

    def far_summaries_where(b, h, q_idx, kv_idx):
        return torch.where(q_idx - kv_idx > near, kv_idx % block < summary, q_idx >= kv_idx)

    return far_summaries_where


def make_sink_summary_window(sink=4, block=64, summary=8, near=64, far=256):
    """block_summary_window whose first `sink` tokens stay visible for ever:
    nested integer torch.where (the inner one on kv < sink)."""

    def sink_summary_window(b, h, q_idx, kv_idx):
        window = torch.where(kv_idx % block < summary, torch.where(kv_idx < sink, 2**30, far), near)
        return (q_idx >= kv_idx) & (q_idx - kv_idx <= window)

    return sink_summary_window


def _vsa_inputs(B=1, H=2, seq=1024, tile=64, top_k=4, video=(8, 8, 15), seed=11):
    """
    VSA's fine-pass inputs as attn-gym computes them: the tile layout of a
    `video` latent grid (4x4x4 cubes, `tile` = 64 tokens each, edge cubes
    padded), each query tile's top-k KV tiles from the coarse (tile-pooled)
    scores of random q/k, and the real-token count of every KV tile. The
    counts get PAD // tile + 1 zero entries (tiles of padding only), since
    a word at kv_base < seq reads tiles up to (seq + PAD - 1) // tile.
    """
    from attn_gym.masks import compute_vsa_topk_indices, create_vsa_tile_metadata

    meta = create_vsa_tile_metadata(video)
    assert meta.padded_seq_length == seq and meta.tile_numel == tile
    g = _rng(seed)
    q = torch.randn(B, H, seq, 16, generator=g)
    k = torch.randn(B, H, seq, 16, generator=g)
    sizes = meta.variable_block_sizes
    topk = compute_vsa_topk_indices(
        q, k, tile, top_k, q_variable_block_sizes=sizes, kv_variable_block_sizes=sizes
    )
    padded = torch.cat([sizes, sizes.new_zeros(PAD // tile + 1)])
    return topk, padded


def make_vsa(padding=False, top_k=4):
    from attn_gym.masks import generate_vsa_mask_mod

    topk, sizes = _vsa_inputs(top_k=top_k)
    return generate_vsa_mask_mod(topk, 64, sizes if padding else None)


def make_vsa_padding():
    from attn_gym.masks.vsa import generate_vsa_padding_mask_mod

    _, sizes = _vsa_inputs()
    return generate_vsa_padding_mask_mod(sizes, 64)


# ----------------------------------------------------------------------------
# the corpus
# ----------------------------------------------------------------------------
# inductor_packs / max_runs are measured (python -m maskopt.tools.corpus prints
# and checks them).  max_runs is measured exhaustively: over every
# (b, h, q, kv_base < KV_LEN) of the shape plus the large-index rows of
# sample_points(case), so the max over sample_points(case) is <= max_runs.

_P = functools.partial

CORPUS: list[MaskCase] = [
    MaskCase("causal", make_causal, (2, 2, 1024, 1024), True, True, 1, True, ("basic",)),
    MaskCase("attn_gym_causal", make_attn_gym_causal, (1, 1, 512, 512), True, True, 1, True, ("basic", "attn_gym")),
    MaskCase("causal_strict", make_causal_strict, (1, 2, 1024, 1024), True, True, 1, True, ("basic",)),
    MaskCase("full", make_full, (1, 1, 256, 256), False, True, 1, True, ("basic", "trivial"),
             note="noop_mask: inductor returns None for the unconditional [0, 32) interval by design"),
    MaskCase("sliding_window_100", _P(make_sliding_window, 100), (1, 1, 1024, 1024), True, True, 1, True, ("basic", "attn_gym")),
    # a window narrower than a word: the 17 lanes q - kv - 16 .. q - kv (an `interval.span`)
    MaskCase("sliding_window_16", _P(make_sliding_window, 16), (1, 1, 1024, 1024), True, True, 1, True, ("basic", "attn_gym")),
    MaskCase("diagonal", make_diagonal, (1, 1, 1024, 1024), True, True, 1, True, ("basic",)),
    # q + 768 wraps from q = 2^31 - 768 on; at q = 2^31 - 769 and kv = 0 the run is 2^31 long
    MaskCase("bottom_right_causal", _P(make_bottom_right_causal, 768), (1, 1, 256, 1024), True, True, 1, True, ("basic",),
             edge_qs=(2**31 - 770, 2**31 - 769, 2**31 - 768)),
    # q - kv + 768 wraps from q - kv = 2^31 - 768 on (the run's lanes never wrap into the window)
    MaskCase("bottom_right_window_256", _P(make_bottom_right_window, 768, 256), (1, 1, 256, 1024), True, True, 1, True,
             ("basic",), edge_qs=(2**31 - 770, 2**31 - 769, 2**31 - 768)),
    # kv + k wraps at kv = 2^31 - k, q + 3000 + c at q = 2^31 - 3000 - c (c = 0..6)
    MaskCase("wrapped_conjunction_10", make_wrapped_conjunction, (1, 1, 256, 512), True, True, 2, True, ("union", "wrap"),
             note="inductor's one interval [0, min(q + 2994, q + 3001) - kv) ignores the int32 wraps: wrong for q near 2^31",
             edge_qs=tuple(2**31 - 1 - 3000 - c + d for c in range(7) for d in (-1, 0, 1))),
    MaskCase("prefix_lm_77", _P(make_prefix_lm, 77), (1, 1, 1024, 1024), True, True, 1, True, ("basic", "attn_gym", "union")),
    MaskCase("streaming_sink", make_streaming_sink, (1, 1, 1024, 1024), True, True, 2, True, ("basic", "union")),
    MaskCase("chunked_causal_96", _P(make_chunked_causal, 96), (1, 1, 1024, 1024), True, True, 1, True, ("basic", "floordiv")),
    MaskCase("symmetric_window_40", make_symmetric_window, (1, 1, 1024, 1024), False, True, 1, True, ("basic", "abs")),
    MaskCase("batchify_causal_64", make_batchify_causal, (1, 1, 1024, 1024), False, True, 1, True, ("attn_gym", "floordiv", "mod")),
    MaskCase("doc_start_causal_i32", _P(make_doc_start_causal, torch.int32), (1, 1, 1024, 1024), True, True, 1, False, ("aux",)),
    MaskCase("doc_start_causal_i64", _P(make_doc_start_causal, torch.int64), (1, 1, 1024, 1024), True, True, 1, False, ("aux",)),
    MaskCase("batched_doc_start_causal", make_batched_doc_start_causal, (3, 1, 768, 768), True, True, 1, False, ("aux", "aux2d")),
    MaskCase("extreme_start_causal", make_extreme_start_causal, (15, 1, 1024, 1024), True, True, 1, True, ("aux", "inductor_wrong"),
             note="inductor truncates the int64 start to Int32: wrong for starts outside int32"),
    MaskCase("per_batch_window", make_per_batch_window, (4, 1, 1024, 1024), True, True, 1, True, ("aux",)),
    MaskCase("per_head_window", make_per_head_window, (1, 8, 1024, 1024), True, True, 1, True, ("aux",)),
    MaskCase("per_head_strict_window", make_per_head_strict_window, (1, 8, 1024, 1024), True, True, 1, True, ("aux",)),
    # q + off[b] wraps from q = 2^31 - off[b] on (inductor's words ignore it)
    MaskCase("per_batch_offset_causal", make_per_batch_offset_causal, (4, 1, 1024, 1024), True, True, 1, True, ("aux",),
             edge_qs=tuple(2**31 - o + d for o in (100, 1000, 4096) for d in (-2, -1, 0, 1))),
    MaskCase("kv_padding", make_kv_padding, (4, 1, 1024, 1024), True, True, 1, True, ("aux",)),
    MaskCase("row_bounded_causal", make_row_bounded_causal, (1, 1, 1024, 1024), True, True, 1, False, ("aux",)),
    MaskCase("packed_causal_doc", make_packed_causal_doc, (1, 1, 1024, 1024), True, True, 1, False, ("attn_gym", "aux")),
    MaskCase("shared_prefix", make_shared_prefix, (1, 1, 1024, 1024), False, True, 2, False, ("attn_gym", "aux", "union")),
    MaskCase("block_diffusion", make_block_diffusion, (1, 1, 512, 512), False, True, 2, True, ("attn_gym", "floordiv", "mod", "union")),
    MaskCase("jetspec_training", make_jetspec_training, (1, 1, 256, 356), False, True, 2, True, ("attn_gym", "floordiv", "mod", "union")),
    MaskCase("spatial_head", make_spatial_head, (1, 1, 1010, 1010), False, True, 2, True, ("attn_gym", "abs", "union")),
    MaskCase("spatial_head_sink", _P(make_spatial_head, True), (1, 1, 1010, 1010), False, True, 2, True, ("attn_gym", "abs", "union")),
    MaskCase("temporal_head", make_temporal_head, (1, 1, 1010, 1010), False, True, 2, True, ("attn_gym", "abs", "mod", "union")),
    MaskCase("natten_24x24_k7", make_natten, (1, 1, 576, 576), False, True, 2, True, ("attn_gym", "2d", "floordiv", "mod", "clamp")),
    MaskCase("tiled_natten_24x24_k7_t8", make_tiled_natten, (1, 1, 576, 576), False, True, 5, True, ("attn_gym", "2d", "floordiv", "mod", "clamp")),
    MaskCase("morton_natten_32x32_k7", make_morton_natten, (1, 1, 1024, 1024), False, True, 7, True, ("attn_gym", "2d", "bitops", "clamp"),
             note="Morton-order decode with shifts/ands: in each aligned 32-block the decoded x, y are a lane-uniform value plus a table of the offset (interval.table)"),
    MaskCase("sta_2d", make_sta_2d, (1, 1, 640, 640), False, True, 2, True, ("attn_gym", "2d", "floordiv", "mod", "clamp", "union")),
    MaskCase("sta_3d", make_sta_3d, (1, 1, 1056, 1056), False, True, 1, True, ("attn_gym", "3d", "floordiv", "mod", "clamp", "union")),
    MaskCase("dilated_sliding_window_64_d2", _P(make_dilated_sliding_window, 64, 2), (1, 1, 1024, 1024), False, False, 16, True, ("attn_gym", "abs", "mod", "gather_like"),
             note="16 singleton runs per word: more than 8"),
    MaskCase("dilated_sliding_window_96_d8", _P(make_dilated_sliding_window, 96, 8), (1, 1, 1024, 1024), False, True, 4, True, ("attn_gym", "abs", "mod")),
    MaskCase("global_sliding_window_32", make_global_sliding_window, (1, 1, 512, 512), False, False, 4, False, ("attn_gym", "aux", "gather", "abs", "union")),
    MaskCase("attn_gym_doc_causal", make_attn_gym_doc_mask, (1, 1, 1024, 1024), False, False, 1, False, ("attn_gym", "aux", "gather"),
             note="same_doc = document_id[q] == document_id[kv]: a per-lane gather (equal to doc-start causal only because document_id is sorted)"),
    MaskCase("attn_gym_doc_full", _P(make_attn_gym_doc_mask, False), (1, 1, 1024, 1024), False, False, 1, False, ("attn_gym", "aux", "gather")),
    MaskCase("vision_cross_attention", make_vision_cross_attention, (1, 1, 512, 256), False, False, 1, False, ("attn_gym", "aux", "gather")),
    MaskCase("jetspec_tree_causal", make_jetspec_tree, (1, 1, 64, 164), False, False, 4, False, ("attn_gym", "aux", "gather", "aux2d", "clamp")),
    MaskCase("doc_mask_gather", make_doc_mask_gather, (1, 1, 1024, 1024), False, False, 1, False, ("aux", "gather")),
    MaskCase("is_global_gather", make_is_global_gather, (1, 1, 512, 512), False, False, 8, False, ("aux", "gather")),
    MaskCase("even_kv_causal", make_even_kv, (1, 1, 512, 512), False, False, 16, True, ("mod", "gather_like")),
    MaskCase("nine_diagonals", make_nine_diagonals, (1, 1, 512, 512), False, True, 1, True, ("union", "simplify")),
    MaskCase("odd_kv", make_odd_kv, (1, 1, 256, 256), False, True, 16, True, ("mod", "periodic")),
    MaskCase("every_third_causal", make_every_third_causal, (1, 1, 512, 512), False, True, 11, True, ("mod", "periodic")),
    MaskCase("kv_mod5_lt2", make_kv_mod5_lt2, (1, 1, 256, 256), False, True, 7, True, ("mod", "periodic")),
    MaskCase("block_start_causal_64", make_block_start_causal, (1, 1, 512, 512), False, True, 1, True, ("mod",)),
    MaskCase("alternating_blocks_48", make_alternating_blocks, (1, 1, 512, 512), False, True, 1, True, ("floordiv", "mod", "piecewise")),
    MaskCase("half_period_40_causal", make_half_period_40, (1, 1, 512, 512), False, True, 2, True, ("mod", "piecewise")),
    MaskCase("batchify_noop_64", _P(make_batchify, "noop", 64), (1, 1, 512, 512), True, True, 1, True, ("attn_gym", "floordiv", "mod")),
    MaskCase("batchify_sliding_window_16_128", _P(make_batchify, "sliding_window_16", 128), (1, 1, 512, 512), False, True, 1, True, ("attn_gym", "floordiv", "mod", "piecewise")),
    MaskCase("batchify_prefix_lm_8_256", _P(make_batchify, "prefix_lm_8", 256), (1, 1, 768, 768), False, True, 1, True, ("attn_gym", "floordiv", "mod", "piecewise", "union")),
    MaskCase("natten_40x40_k5", _P(make_natten_sized, 40, 5), (1, 1, 1600, 1600), False, True, 1, True, ("attn_gym", "2d", "floordiv", "mod", "clamp", "piecewise")),
    MaskCase("natten_16x16_k3", _P(make_natten_sized, 16, 3), (1, 1, 256, 256), False, True, 3, True, ("attn_gym", "2d", "floordiv", "mod", "clamp", "piecewise")),
    MaskCase("sta_2d_32x32_t8", make_sta_2d_32, (1, 1, 1024, 1024), False, True, 1, True, ("attn_gym", "2d", "floordiv", "mod", "clamp", "piecewise")),
    MaskCase("block_diffusion_512_b32", _P(make_block_diffusion_sized, 512, 32), (1, 1, 1024, 1024), False, True, 1, True, ("attn_gym", "floordiv", "mod", "union", "piecewise")),
    MaskCase("jetspec_training_p50_b64", _P(make_jetspec_training_sized, 50, 64), (1, 1, 256, 306), False, True, 1, True, ("attn_gym", "floordiv", "mod", "union", "piecewise")),
    MaskCase("per_head_chunked_causal", make_per_head_chunked_causal, (1, 4, 512, 512), False, True, 1, True, ("floordiv", "uniform_divisor")),
    # floor division by a negative constant / a lane-uniform divisor of either sign (issue 18)
    MaskCase("chunked_causal_neg64", make_chunked_causal_neg, (1, 1, 1024, 1024), True, True, 1, True, ("floordiv", "inductor_wrong"),
             note="inductor packs it, but its words are wrong inside the shape"),
    MaskCase("per_batch_chunk", make_per_batch_chunk, (5, 1, 1024, 1024), False, True, 1, True, ("aux", "floordiv", "uniform_divisor")),
    MaskCase("window_or_prefix", make_window_or_prefix, (1, 1, 1024, 1024), True, True, 1, True, ("attn_gym", "union")),
    MaskCase("long_range_only", make_long_range_only, (1, 1, 1024, 1024), False, True, 1, True, ("attn_gym", "complement")),
    MaskCase("head_strided_causal_4", make_head_strided_causal, (1, 8, 256, 256), False, True, 8, True, ("mod", "periodic", "uniform")),
    MaskCase("vsa_t64_k4", make_vsa, (1, 2, 1024, 1024), False, True, 1, False, ("attn_gym", "aux", "vector", "floordiv", "piecewise")),
    MaskCase("vsa_t64_k4_padded", _P(make_vsa, True), (1, 2, 1024, 1024), False, True, 2, False, ("attn_gym", "aux", "vector", "floordiv", "mod", "piecewise")),
    MaskCase("vsa_t64_k12", _P(make_vsa, False, 12), (1, 2, 1024, 1024), False, True, 1, False, ("attn_gym", "aux", "vector", "floordiv", "piecewise"),
             note="12 block ranges would be more than 8 runs; split at the tile boundary it is 2"),
    MaskCase("vsa_padding_t64", make_vsa_padding, (1, 1, 1024, 1024), False, True, 2, False, ("attn_gym", "aux", "floordiv", "mod", "piecewise")),
    # torch.where with a kv-dependent condition (issue 20)
    MaskCase("global_tokens_where", make_global_tokens_where, (1, 1, 1024, 1024), False, True, 1, True, ("where", "union")),
    MaskCase("block_summary_window", make_block_summary_window, (1, 1, 1024, 1024), False, True, 2, True, ("where", "mod", "piecewise")),
    MaskCase("sink_summary_window", make_sink_summary_window, (1, 1, 1024, 1024), False, True, 2, True, ("where", "mod", "piecewise", "union")),
    MaskCase("far_summaries_where", make_far_summaries_where, (1, 1, 1024, 1024), False, True, 2, True, ("where", "mod", "piecewise")),
    # unsigned aux tensors (issue 18): zero-extended, windows >= 128 included
    MaskCase("per_head_window_u8", make_per_head_window_u8, (1, 8, 1024, 1024), True, True, 1, True, ("aux", "unsigned")),
    MaskCase("per_head_window_u16", make_per_head_window_u16, (1, 8, 1024, 1024), False, True, 1, True, ("aux", "unsigned")),
    MaskCase("kv_padding_i64", make_kv_padding_i64, (4, 1, 1024, 1024), True, True, 1, True, ("aux", "inductor_wrong"),
             note="inductor truncates the int64 length to Int32: 2^40 becomes 0"),
    MaskCase("prefix_lm_i64", make_prefix_lm_i64, (4, 1, 1024, 1024), True, True, 1, True, ("aux", "union", "inductor_wrong"),
             note="inductor truncates the int64 prefix length to Int32: 2^40 becomes 0"),
    MaskCase("per_head_window_i64", make_per_head_window_i64, (1, 8, 1024, 1024), True, True, 1, True, ("aux", "inductor_wrong"),
             note="inductor truncates the int64 window to Int32: 2^32 - 1 becomes -1, 2^40 0"),
    MaskCase("doc_start_causal_u8_ids", make_doc_start_causal_u8_ids, (1, 1, 1024, 1024), False, True, 1, False, ("aux", "unsigned")),
    # lane coefficients other than +-1 (issue 18), exact in int64 everywhere
    MaskCase("compressed_causal_i64", make_compressed_causal_i64, (1, 1, 1024, 1024), False, True, 1, True, ("lane_coefficient",)),
    MaskCase("pooled_cross_i64", make_pooled_cross_i64, (1, 1, 1024, 1024), False, True, 1, True, ("lane_coefficient",)),
    # ... in int32 over the whole domain: split at the lane-uniform wrap lanes (issue 18)
    MaskCase("compressed_causal_s2_i32", make_compressed_causal_s2_i32, (1, 1, 1024, 1024), False, True, 2, True, ("lane_coefficient", "wrap")),
    MaskCase("compressed_window_s3_i32", make_compressed_window_s3_i32, (1, 1, 1024, 1024), False, True, 2, True, ("lane_coefficient", "wrap")),
    MaskCase("strided_diagonal_3_i32", make_strided_diagonal_3_i32, (1, 1, 1024, 1024), False, True, 3, True, ("lane_coefficient", "wrap", "union")),
    MaskCase("upsampled_causal_neg3", make_upsampled_causal_neg3, (1, 1, 1024, 1024), False, True, 2, True, ("lane_coefficient", "wrap")),
    MaskCase("kv_scaled_2p20", _P(make_kv_scaled, 1 << 20), (1, 1, 1024, 1024), False, True, 2, True, ("lane_coefficient", "wrap")),
    MaskCase("kv_scaled_neg_2p27", _P(make_kv_scaled, -(1 << 27)), (1, 1, 1024, 1024), False, True, 2, True, ("lane_coefficient", "wrap")),
]

#: Cases whose int32 arithmetic is exact only inside a stated domain
#: (`MaskCase.domain`): outside it `2 * kv_idx` wraps, and over the whole
#: int32 domain they stay per-lane. Not in `CORPUS` (whose consumers compile
#: for the whole domain); `test_lane_coefficients.py` compiles them for their
#: domain and samples inside it and on its edges.
_Q17 = (1, 1, 2**17, 2**17)
DOMAIN_CORPUS = [
    MaskCase("compressed_causal_s2", make_compressed_causal_s2, (1, 1, 1024, 1024), False, True, 1, False,
             ("lane_coefficient", "domain"), domain=_Q17),
    MaskCase("compressed_window_s3", make_compressed_window_s3, (1, 1, 1024, 1024), False, True, 1, False,
             ("lane_coefficient", "domain"), domain=_Q17),
    MaskCase("strided_diagonal_3", make_strided_diagonal_3, (1, 1, 1024, 1024), False, True, 2, False,
             ("lane_coefficient", "domain", "union"), domain=_Q17),
]

CORPUS_BY_NAME: dict[str, MaskCase] = {c.name: c for c in CORPUS}
assert len(CORPUS_BY_NAME) == len(CORPUS), "duplicate corpus names"

#: What maskopt folds each case to: (runs, None) when it packs into a keep word
#: built from that many runs (0: a constant word), or (None, reason fragment)
#: when it stays per-lane. `python -m maskopt.tools.corpus --packing` prints
#: the measured figures next to these and next to inductor's.
EXPECTED: dict[str, tuple[int | None, str | None]] = {
    "causal": (1, None),
    "attn_gym_causal": (1, None),
    "causal_strict": (1, None),
    "full": (0, None),
    "sliding_window_100": (1, None),
    "sliding_window_16": (1, None),
    "diagonal": (1, None),
    "bottom_right_causal": (1, None),
    "bottom_right_window_256": (1, None),
    # by cases on where q + 3000 + c wraps: [0, q + 2994 - kv) where none does
    # (q <= 2^31 - 3007), the lane q + 3000 - kv for q = 2^31 - 3007 .. 2^31 - 3003
    # (at 2^31 - 3007 it is the run [2^31 - 7 - kv, q + 3001 - kv) past kv's wrap)
    "wrapped_conjunction_10": (2, None),
    "prefix_lm_77": (1, None),
    "streaming_sink": (2, None),
    "chunked_causal_96": (1, None),
    "symmetric_window_40": (2, None),
    "batchify_causal_64": (2, None),
    "doc_start_causal_i32": (1, None),
    "doc_start_causal_i64": (1, None),
    "batched_doc_start_causal": (1, None),
    "extreme_start_causal": (1, None),
    "per_batch_window": (1, None),
    "per_head_window": (1, None),
    "per_head_strict_window": (1, None),
    "per_batch_offset_causal": (1, None),
    "row_bounded_causal": (1, None),
    "packed_causal_doc": (1, None),
    "shared_prefix": (2, None),
    "block_diffusion": (3, None),
    "jetspec_training": (4, None),
    "spatial_head": (4, None),
    "spatial_head_sink": (4, None),
    "temporal_head": (6, None),
    "natten_24x24_k7": (3, None),
    "tiled_natten_24x24_k7_t8": (5, None),
    "morton_natten_32x32_k7": (2, None),  # one run per aligned 32-block, each four table thresholds
    "sta_2d": (3, None),
    "sta_3d": (2, None),
    "dilated_sliding_window_64_d2": (2, None),
    "dilated_sliding_window_96_d8": (2, None),
    "global_sliding_window_32": (None, "per-lane gather"),
    "attn_gym_doc_causal": (None, "per-lane gather"),
    "attn_gym_doc_full": (None, "per-lane gather"),
    "vision_cross_attention": (None, "per-lane gather"),
    "jetspec_tree_causal": (None, "per-lane gather"),
    "doc_mask_gather": (None, "per-lane gather"),
    "is_global_gather": (None, "per-lane gather"),
    "even_kv_causal": (1, None),
    "nine_diagonals": (1, None),
    "odd_kv": (1, None),
    "every_third_causal": (1, None),
    "kv_mod5_lt2": (1, None),
    "block_start_causal_64": (1, None),
    "alternating_blocks_48": (2, None),
    "half_period_40_causal": (2, None),
    "batchify_noop_64": (1, None),
    "batchify_sliding_window_16_128": (2, None),
    "batchify_prefix_lm_8_256": (2, None),  # the two prefix runs of a piece share their start: one run
    "natten_40x40_k5": (2, None),
    "natten_16x16_k3": (3, None),
    "sta_2d_32x32_t8": (2, None),
    "block_diffusion_512_b32": (2, None),
    "jetspec_training_p50_b64": (3, None),
    "per_head_chunked_causal": (1, None),
    "chunked_causal_neg64": (1, None),
    "per_batch_chunk": (1, None),  # the block of q // chunk[b] for either sign of chunk[b]
    "window_or_prefix": (2, None),
    "long_range_only": (1, None),
    "head_strided_causal_4": (1, None),  # kv % 4 == h % 4 is ((kv - h) mod 4) == 0: one periodic run
    # any(topk[b, h, q // 64] == kv // 64) split at the tile boundary: the two
    # pieces, each kept under a lane-uniform OR of K tile-id equalities
    "vsa_t64_k4": (2, None),
    "vsa_t64_k4_padded": (2, None),  # & kv % 64 < sizes[kv // 64]: one bound per piece
    "vsa_t64_k12": (2, None),
    "vsa_padding_t64": (2, None),
    "global_tokens_where": (1, None),  # select(kv < 4, True, q >= kv) = (kv < 4) | (q >= kv): one run from lane 0
    # kv % 64 < 8 splits the window at the block boundary: in each of the two
    # blocks, a run of summary lanes (far window) and one of the others (near)
    "block_summary_window": (4, None),
    # the inner where's pieces (kv < 4 or not) each hold the outer where on
    # kv % 64 < 8, itself split at the block boundary
    "sink_summary_window": (7, None),
    "far_summaries_where": (3, None),  # (c & a) | (~c & b) with a split at the block boundary
    "kv_padding": (1, None),
    "per_head_window_u8": (1, None),
    "per_head_window_u16": (1, None),
    "per_head_window_i64": (1, None),
    "kv_padding_i64": (1, None),
    "prefix_lm_i64": (1, None),
    "doc_start_causal_u8_ids": (1, None),
    "compressed_causal_i64": (1, None),  # 4 * L + ... <= 0: L < -((u + 2) // 4) + 1
    "pooled_cross_i64": (1, None),
    # [0, D // 2 + 1) and the lanes past the wrap lane D // 2 + 2^30 + 1 (D = q - 2 * kv)
    "compressed_causal_s2_i32": (2, None),
    "compressed_window_s3_i32": (2, None),
    "strided_diagonal_3_i32": (3, None),
    "upsampled_causal_neg3": (2, None),
    "kv_scaled_2p20": (2, None),
    "kv_scaled_neg_2p27": (2, None),
    # the DOMAIN_CORPUS, compiled for its domain
    "compressed_causal_s2": (1, None),
    "compressed_window_s3": (1, None),
    "strided_diagonal_3": (2, None),  # the lane 3 * L == q - 3 * kv where 3 divides it, and L == q - kv
}
for _case in CORPUS + DOMAIN_CORPUS:
    _case.ranges, _case.reason = EXPECTED[_case.name]
assert set(EXPECTED) == set(CORPUS_BY_NAME) | {c.name for c in DOMAIN_CORPUS}, "EXPECTED must cover the corpus"


def get_case(name: str) -> MaskCase:
    return CORPUS_BY_NAME[name]


def all_points(case: MaskCase):
    """Every (b, h, q, kv_base) with kv_base < KV_LEN of the case's shape, as int32 vectors."""
    B, H, Q, KV = case.shape
    grid = torch.cartesian_prod(
        torch.arange(B), torch.arange(H), torch.arange(Q), torch.arange(KV)
    ).to(torch.int32)
    return tuple(grid[:, i].contiguous() for i in range(4))


def measure(case: MaskCase, *, seed: int = 0, n_rows: int = 48, exhaustive: bool = True) -> dict:
    """Trace, run inductor's packer and measure max_runs for one case.

    With ``exhaustive`` (how CORPUS.max_runs was filled in) the words are all
    of ``all_points(case)`` plus ``sample_points(case)`` (for the large-index
    rows); otherwise just ``sample_points``.
    """
    from maskopt.lowering.trace import trace_mask_mod

    mm = case.make()
    traced = trace_mask_mod(mm, name=case.name)
    sel = inductor_select(traced)
    words = reference_words(mm, *sample_points(case, seed=seed, n_rows=n_rows))
    if exhaustive:
        words = torch.cat([words, reference_words(mm, *all_points(case))])
    return {
        "name": case.name,
        "inductor_packs": sel is not None,
        "n_intervals": None if sel is None else len(sel),
        "max_runs": max_runs_of(words),
        "n_words": words.numel(),
    }


def packed_runs(result) -> int | None:
    """The number of runs a ``maskopt.CompiledMask``'s keep word is built from:
    0 for a constant word, None when it is per-lane."""
    if not result.packed:
        return None
    from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

    from maskopt.dialects import interval

    word = result.module.ops.first.yield_op.value
    if const_evaluate_operand(word) is not None:
        return 0
    s = word.owner.set
    return len(s.owner.sets) if isinstance(s.owner, interval.UnionOp) else 1


def packing_report(cases=None) -> list[dict]:
    """Compile every case with maskopt and run inductor's packer on it."""
    import maskopt
    from maskopt.lowering.trace import trace_mask_mod

    rows = []
    for case in cases or CORPUS:
        fn = case.make()
        result = maskopt.compile_mask(fn, name=case.name)
        rows.append({
            "name": case.name,
            "runs": packed_runs(result),
            "expected": case.ranges,
            "reason": result.reason,
            "inductor": inductor_select(trace_mask_mod(fn, name=case.name)) is not None,
            "max_runs": case.max_runs,
        })
    return rows


def _print_packing() -> None:  # pragma: no cover - maintenance tool
    rows = packing_report()
    print(f"{'mask':34s} {'maskopt':>8s} {'expect':>6s} {'inductor':>8s} {'max runs':>8s}  reason")
    for r in rows:
        got = "lane" if r["runs"] is None else str(r["runs"])
        exp = "lane" if r["expected"] is None else str(r["expected"])
        why = "" if r["reason"] is None else " ".join(r["reason"].split())[:70]
        print(f"{r['name']:34s} {got:>8s} {exp:>6s} {str(r['inductor']):>8s} {r['max_runs']!s:>8s}  {why}")
    n = len(rows)
    packed = [r for r in rows if r["runs"] is not None]
    print(
        f"maskopt packs {len(packed)}/{n} ({sum(r['runs'] for r in packed)} runs in all); "
        f"inductor packs {sum(r['inductor'] for r in rows)}/{n}; "
        f"differing from expected: {sum(r['runs'] != r['expected'] for r in rows)}"
    )


def _main() -> None:  # pragma: no cover - maintenance tool
    import time

    print(f"{'name':32s} {'ind':>5s} {'rec':>5s} {'runs':>4s} {'rec':>4s} {'exp':>5s} {'words':>7s} {'s':>5s}")
    bad = 0
    for case in CORPUS:
        t = time.time()
        m = measure(case)
        dt = time.time() - t
        ind_ok = m["inductor_packs"] == case.inductor_packs
        runs_ok = m["max_runs"] == case.max_runs
        bad += (not ind_ok) + (not runs_ok)
        print(
            f"{case.name:32s} {str(m['inductor_packs']):>5s} {str(case.inductor_packs):>5s} "
            f"{m['max_runs']:4d} {str(case.max_runs):>4s} {str(case.expect_pack):>5s} {m['n_words']:7d} {dt:5.2f}"
            + ("" if ind_ok and runs_ok else "   <-- MISMATCH")
        )
    print("mismatches:", bad)


if __name__ == "__main__":  # pragma: no cover
    import sys

    if "--packing" in sys.argv[1:]:
        _print_packing()
    else:
        _main()
