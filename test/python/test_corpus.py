"""Tests for maskopt.lowering.trace and maskopt.tools.corpus."""

from __future__ import annotations

import os
import time

import pytest
import torch

from maskopt.lowering.trace import (
    MaskTraceError,
    TracedMask,
    capture_inductor_mask_graph,
    graph_signature,
    trace_mask_mod,
)
from maskopt.tools.corpus import (
    CORPUS,
    INT32_MAX,
    MaskCase,
    count_runs,
    get_case,
    inductor_interval_words,
    inductor_select,
    max_runs_of,
    reference_words,
    reference_words_slow,
    sample_points,
)

THIS_FILE = os.path.abspath(__file__)
aten = torch.ops.aten


# --------------------------------------------------------------------------
# tracing
# --------------------------------------------------------------------------


def _doc_tensors():
    doc_ids = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2, 3], dtype=torch.int32)
    starts = torch.tensor([0, 3, 5, 9], dtype=torch.int64)
    return doc_ids, starts


def test_trace_placeholders_aux_order_and_metadata():
    doc_ids, starts = _doc_tensors()
    window = 5  # a captured Python int stays a constant

    def doc_window(b, h, q_idx, kv_idx):
        start = starts[doc_ids[q_idx]]  # doc_ids is used first, then starts
        return (kv_idx >= start) & (kv_idx <= q_idx) & (q_idx - kv_idx <= window) & (doc_ids[kv_idx] >= 0)

    tr = trace_mask_mod(doc_window)
    assert isinstance(tr, TracedMask)
    gm = tr.graph_module
    phs = list(gm.graph.find_nodes(op="placeholder"))
    assert [p.name for p in phs] == ["b", "h", "q_idx", "kv_idx", "doc_ids", "starts"]
    assert len(tr.aux_tensors) == 2
    assert tr.aux_tensors[0] is doc_ids and tr.aux_tensors[1] is starts  # one placeholder per tensor
    assert tr.aux_scalars == []
    for p in phs[:4]:
        assert p.meta["val"].dtype == torch.int32 and tuple(p.meta["val"].shape) == ()
    assert phs[4].meta["val"].dtype == torch.int32 and tuple(phs[4].meta["val"].shape) == (10,)
    assert phs[5].meta["val"].dtype == torch.int64 and tuple(phs[5].meta["val"].shape) == (4,)
    assert [p.meta["aux_index"] for p in phs[4:]] == [0, 1]
    for node in gm.graph.nodes:
        if node.op == "output":
            continue
        assert isinstance(node.meta.get("val"), torch.Tensor), node
        tm = node.meta["tensor_meta"]
        assert tm.dtype == node.meta["val"].dtype and tuple(tm.shape) == tuple(node.meta["val"].shape)
        assert node.op != "get_attr", "captured tensors must be placeholders, not get_attr"
    out = tr.output_node
    assert out.meta["val"].dtype == torch.bool and out.meta["val"].dim() == 0
    # the window is a constant, not a placeholder
    assert any(n.target is aten.le.Scalar and n.args[1] == 5 for n in gm.graph.nodes)
    # graph runs and matches the python mask
    i32 = lambda v: torch.tensor(v, dtype=torch.int32)  # noqa: E731
    for q in range(10):
        for kv in range(10):
            assert bool(tr(i32(0), i32(0), i32(q), i32(kv))) == bool(
                (kv >= starts[doc_ids[q]]) and kv <= q and q - kv <= window
            )


def test_trace_aten_ops():
    C = 4

    def ops(b, h, q_idx, kv_idx):
        a = (q_idx // C == kv_idx // C) & (kv_idx % 2 == 0)
        w = torch.where(q_idx > kv_idx, q_idx - kv_idx, kv_idx - q_idx)
        m = torch.minimum(q_idx, kv_idx) <= torch.maximum(q_idx - 3, kv_idx)
        return a & ~(w < 5) & m & ((q_idx - kv_idx).abs() <= 3) & (q_idx.clamp(2, 6) >= kv_idx)

    targets = {n.target for n in trace_mask_mod(ops).graph_module.graph.nodes if n.op == "call_function"}
    for t in (
        aten.div.Tensor_mode, aten.remainder.Scalar, aten.eq.Tensor, aten.eq.Scalar, aten.where.self,
        aten.minimum.default, aten.maximum.default, aten.abs.default, aten.bitwise_not.default,
        aten.bitwise_and.Tensor, aten.clamp_min.default, aten.clamp_max.default, aten.sub.Tensor,
    ):
        assert t in targets, t
    div = next(n for n in trace_mask_mod(ops).graph_module.graph.nodes if n.target is aten.div.Tensor_mode)
    assert div.kwargs["rounding_mode"] == "floor"


def test_int_index_becomes_full():
    doc_ids, _ = _doc_tensors()

    def last_doc(b, h, q_idx, kv_idx):
        return doc_ids[kv_idx] == doc_ids[-1]

    gm = trace_mask_mod(last_doc).graph_module
    fulls = [n for n in gm.graph.nodes if n.target is aten.full.default]
    assert len(fulls) == 1 and fulls[0].args == ([], -1) and fulls[0].kwargs["dtype"] == torch.int64
    assert len(list(gm.graph.find_nodes(op="placeholder"))) == 5


def test_stack_traces_point_at_user_source():
    def my_mask(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (kv_idx >= 3)  # MARKER-LINE

    gm = trace_mask_mod(my_mask).graph_module
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    assert calls
    for n in calls:
        st = n.meta.get("stack_trace")
        assert st and THIS_FILE in st and "MARKER-LINE" in st and "in my_mask" in st, st
    for n in gm.graph.find_nodes(op="placeholder"):
        assert not n.meta.get("stack_trace")


def test_stack_traces_through_attn_gym_and_combinators():
    gm = trace_mask_mod(get_case("sliding_window_100").make()).graph_module
    for n in gm.graph.nodes:
        if n.op == "call_function":
            assert n.meta.get("stack_trace"), n
    le = next(n for n in gm.graph.nodes if n.target is aten.le.Scalar)
    assert "attn_gym/masks/sliding_window.py" in le.meta["stack_trace"]
    assert "_trace_wrapped_higher_order_op" not in le.meta["stack_trace"]


def _raises(b, h, q_idx, kv_idx):
    raise ValueError("boom\nsecond line")


def _arity(b, q_idx, kv_idx):
    return q_idx >= kv_idx


def _non_bool(b, h, q_idx, kv_idx):
    return q_idx - kv_idx


def _py_bool(b, h, q_idx, kv_idx):
    return True


def _data_dependent(b, h, q_idx, kv_idx):
    if q_idx > 3:
        return q_idx >= kv_idx
    return q_idx < kv_idx


def _item(b, h, q_idx, kv_idx):
    return kv_idx <= q_idx.item()


def _non_scalar(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx).reshape(1)


@pytest.mark.parametrize(
    "fn,needle",
    [
        (_raises, "ValueError: boom"),
        (_arity, "takes 3 positional arguments, but a mask_mod needs 4 (b, h, q_idx, kv_idx)"),
        (_non_bool, "torch.int32"),
        (_py_bool, "bool"),
        (_data_dependent, "data-dependent"),
        (_item, "scalar"),
        (_non_scalar, "shape (1,)"),
    ],
)
def test_mask_trace_errors(fn, needle):
    with pytest.raises(MaskTraceError) as ei:
        trace_mask_mod(fn)
    msg = str(ei.value)
    assert "\n" not in msg
    assert fn.__name__ in msg and needle in msg, msg
    with pytest.raises(MaskTraceError, match="custom_name"):
        trace_mask_mod(fn, name="custom_name")


def test_matches_graph_inductor_receives():
    """trace_mask_mod == the mask graph torch.compile(flex_attention) hands to inductor."""
    mm = get_case("doc_start_causal_i64").make()
    gt = capture_inductor_mask_graph(mm, (1, 1, 256, 256))
    assert graph_signature(gt) == graph_signature(trace_mask_mod(mm).graph_module)


# --------------------------------------------------------------------------
# reference evaluation and sampling
# --------------------------------------------------------------------------


def _subsample(points, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    idx = torch.randperm(points[0].numel(), generator=g)[:n]
    # always include the first and last points (q = 0 row, large-index tail)
    idx = torch.cat([idx, torch.tensor([0, points[0].numel() - 1])])
    return tuple(p[idx] for p in points)


@pytest.mark.parametrize(
    "name",
    ["causal", "doc_start_causal_i64", "natten_24x24_k7", "jetspec_tree_causal",
     "dilated_sliding_window_64_d2", "bottom_right_causal", "global_sliding_window_32", "full"],
)
def test_reference_words_matches_scalar_loop(name):
    case = get_case(name)
    mm = case.make()
    pts = _subsample(sample_points(case, n_rows=6), 24)
    fast = reference_words(mm, *pts)
    slow = reference_words_slow(mm, *pts)
    assert fast.dtype == torch.int64
    assert torch.equal(fast, slow)
    assert int(fast.min()) >= 0 and int(fast.max()) < 2**32


_ROWS_U8 = torch.tensor([[1, 2, 3], [100, 200, 255]], dtype=torch.uint8)
_ROWS_I8 = torch.tensor([[1, 2, 3], [100, -56, -1]], dtype=torch.int8)
_TABLE_I32 = torch.tensor([5, 300, 2**20], dtype=torch.int32)


@pytest.mark.parametrize(
    "mm",
    [
        lambda b, h, q, kv: (_ROWS_U8[h] <= q).all() & (kv <= q),  # compares in uint8: q wraps
        lambda b, h, q, kv: ((_ROWS_U8[h] + kv) > 100).any(),  # a uint8 sum
        lambda b, h, q, kv: (_ROWS_I8[h] < q - kv).all(),  # compares in int8
        lambda b, h, q, kv: kv <= _TABLE_I32[_ROWS_U8[h, 0].long() % 3],  # an index is not promoted
    ],
    ids=["uint8_row_vs_q", "uint8_row_plus_kv", "int8_row_vs_q", "index"],
)
def test_reference_words_promote_rows_like_eager(mm):
    """A dimensioned row (`t[h]`) against the 0-dim q_idx/kv_idx computes in
    the row's dtype in eager torch (torch.result_type), so q_idx wraps into
    uint8; vmap would promote the physical, batched q_idx instead. The
    vmapped reference follows eager (the scalar loop)."""
    qs = [0, 1, 99, 100, 101, 255, 256, 300, 356, 2**31 - 1]
    pts = torch.tensor([(h, q, kv) for h in (0, 1) for q in qs for kv in (0, 1, 200, 300)], dtype=torch.int32)
    h, q, kv = pts[:, 0], pts[:, 1], pts[:, 2]
    z = torch.zeros_like(h)
    assert torch.equal(reference_words(mm, z, h, q, kv), reference_words_slow(mm, z, h, q, kv))


def test_reference_words_known_values():
    causal = get_case("causal").make()
    z = torch.zeros(4, dtype=torch.int32)
    w = reference_words(causal, z, z, torch.tensor([0, 31, 40, 5]), torch.tensor([0, 0, 32, 64]))
    assert w.tolist() == [1, 0xFFFFFFFF, (1 << 9) - 1, 0]
    assert count_runs(torch.tensor([0, 1, 0b1011, 0x55555555, 0xFFFFFFFF])).tolist() == [0, 1, 2, 16, 1]


def test_reference_words_speed():
    case = get_case("doc_start_causal_i32")
    mm = case.make()
    n = 100_000
    g = torch.Generator().manual_seed(1)
    q = torch.randint(0, 1024, (n,), generator=g, dtype=torch.int32)
    kv = torch.randint(0, 1024, (n,), generator=g, dtype=torch.int32)
    z = torch.zeros(n, dtype=torch.int32)
    t = time.time()
    reference_words(mm, z, z, q, kv)
    assert time.time() - t < 5.0


def test_sample_points_cover_all_alignments():
    case = get_case("causal")
    B, H, Q, KV = case.shape
    b, h, q, kv = sample_points(case, n_rows=5)
    for t in (b, h, q, kv):
        assert t.dtype == torch.int32 and t.dim() == 1 and t.numel() == b.numel()
    assert int(kv.min()) >= 0 and int(q.min()) >= 0
    assert int(kv.to(torch.int64).max()) + 31 <= INT32_MAX
    small = (q.to(torch.int64) < Q) & (kv.to(torch.int64) < KV)
    rows = {}
    for bi, hi, qi, ki in zip(b[small].tolist(), h[small].tolist(), q[small].tolist(), kv[small].tolist()):
        rows.setdefault((bi, hi, qi), set()).add(ki)
    assert len(rows) >= 3
    assert all(set(range(KV)) <= s for s in rows.values())
    # large-index rows
    assert int(q.max()) == INT32_MAX
    assert int(kv.max()) == INT32_MAX - 31
    assert ((q.to(torch.int64) - 2**30).abs() < 1000).any()
    # no large indices for aux masks indexed by q/kv
    b2, h2, q2, kv2 = sample_points(get_case("doc_start_causal_i32"), n_rows=5)
    Q2, KV2 = get_case("doc_start_causal_i32").shape[2:]
    assert int(q2.max()) < Q2 and int(kv2.max()) < KV2


# --------------------------------------------------------------------------
# the corpus
# --------------------------------------------------------------------------


def test_corpus_contents():
    names = [c.name for c in CORPUS]
    assert len(names) == len(set(names)) and len(CORPUS) >= 50
    for required in (
        "causal", "causal_strict", "sliding_window_100", "bottom_right_causal", "prefix_lm_77",
        "streaming_sink", "chunked_causal_96", "doc_start_causal_i32", "doc_start_causal_i64",
        "per_batch_window", "per_head_window", "row_bounded_causal", "natten_24x24_k7",
        "tiled_natten_24x24_k7_t8", "morton_natten_32x32_k7", "block_diffusion",
        "global_sliding_window_32", "attn_gym_doc_causal", "shared_prefix", "vision_cross_attention",
        "packed_causal_doc", "doc_mask_gather", "is_global_gather", "even_kv_causal",
        # forms of the coverage issue: periodic, piecewise, simplification
        "nine_diagonals", "odd_kv", "every_third_causal", "kv_mod5_lt2", "block_start_causal_64",
        "alternating_blocks_48", "half_period_40_causal", "batchify_noop_64",
        "batchify_sliding_window_16_128", "natten_40x40_k5", "sta_2d_32x32_t8",
        "block_diffusion_512_b32", "window_or_prefix", "long_range_only",
        "vsa_t64_k4", "vsa_t64_k4_padded", "vsa_padding_t64",
    ):
        assert required in names, required
    # every mask_mod generator of attn_gym.masks (and of attn_gym.masks.vsa,
    # whose padding predicate the package does not re-export)
    import attn_gym.masks as gym
    import attn_gym.masks.vsa as gym_vsa
    from maskopt.tools import corpus as corpus_module

    source = open(corpus_module.__file__).read()
    for name in {*dir(gym), *dir(gym_vsa)}:
        if name.startswith("generate_") or name in ("batchify_mask_mod", "causal_mask"):
            assert name in source, name
    for c in CORPUS:
        assert isinstance(c, MaskCase) and len(c.shape) == 4 and all(x > 0 for x in c.shape)
        if "gather" in c.tags:
            assert not c.expect_pack and not c.inductor_packs, c.name


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_corpus_case_builds_traces_and_samples(case: MaskCase):
    mm = case.make()
    tr = trace_mask_mod(mm, name=case.name)
    phs = list(tr.graph_module.graph.find_nodes(op="placeholder"))
    assert [p.name for p in phs[:4]] == ["b", "h", "q_idx", "kv_idx"]
    assert len(phs) == 4 + len(tr.aux_tensors)
    assert (len(tr.aux_tensors) == 0) or ("aux" in case.tags), case.name
    assert tr.output_node.meta["val"].dtype == torch.bool
    assert (inductor_select(tr) is not None) == case.inductor_packs
    pts = sample_points(case, n_rows=4)
    words = reference_words(mm, *pts)
    assert max_runs_of(words) <= case.max_runs
    if case.inductor_packs:
        # inductor's intervals agree with the reference inside the shape (large
        # indices can overflow inductor's Int32 bound arithmetic; not tested here)
        B, H, Q, KV = case.shape
        keep = (pts[2].to(torch.int64) < Q) & (pts[3].to(torch.int64) < KV)
        sub = _subsample(tuple(p[keep] for p in pts), 600)
        ind = inductor_interval_words(inductor_select(tr), tr.aux_tensors, *sub)
        # ... except where its Int32 truncation of an int64 aux value is wrong
        right = torch.equal(ind, reference_words(mm, *sub))
        assert right != ("inductor_wrong" in case.tags)
