"""maskopt.create_block_mask against torch's create_block_mask, tensor by tensor.

torch orders each kv_indices row with a stable descending argsort of the
dense block table: the listed blocks ascending, then every other block
ascending. That tail is deterministic, so nothing is normalised: every
tensor of the BlockMask is compared exactly (values, dtype, shape).
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch.nn.attention.flex_attention import create_block_mask as torch_create_block_mask
from torch.nn.attention.flex_attention import create_mask

import maskopt
from maskopt.lowering import block_mask as bm
from maskopt.tools.corpus import CORPUS

_TENSORS = (
    "kv_num_blocks", "kv_indices", "full_kv_num_blocks", "full_kv_indices",
    "q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices",
)


def assert_same_block_mask(got, want) -> None:
    for name in _TENSORS:
        a, b = getattr(got, name), getattr(want, name)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        assert a.dtype == b.dtype and a.shape == b.shape, (name, a.dtype, b.dtype, a.shape, b.shape)
        assert torch.equal(a, b), name
    assert got.seq_lengths == want.seq_lengths
    assert got.BLOCK_SIZE == want.BLOCK_SIZE


def check(mask_mod, B, H, Q, KV, **kw):
    """Build both; assert equal; return maskopt's BlockMaskBuild."""
    got = bm.build_block_mask(mask_mod, B, H, Q, KV, "cpu", **kw)
    want = torch_create_block_mask(mask_mod, B, H, Q, KV, "cpu", **kw)
    assert_same_block_mask(got.block_mask, want)
    return got


def _shapes(case):
    B, H, Q, KV = case.shape
    # whole blocks; neither length a multiple of the block size and Q != KV
    return [(B, H, Q, KV), (B, H, Q - 37, KV - 100)]


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_corpus_mask_equals_torch(case):
    mm = case.make()
    for B, H, Q, KV in _shapes(case):
        got = check(mm, B, H, Q, KV)
        if case.ranges is not None:
            # a mask maskopt packs takes the keep-word path (its chained loads
            # `offsets[doc[q]]` as row tables: "specialized"), or a documented
            # fallback: an i32 result that may wrap, where torch's int64 does not
            assert got.path in ("packed", "specialized") or "i32" in (got.reason or ""), (
                got.path, got.reason)
            if got.path == "specialized":
                _assert_eager_equal(mm, got.block_mask.mask_mod, B, H, Q, KV)


def test_corpus_paths():
    """The packed corpus masks take the keep-word path at their own shape
    (not the fallback); record which went where."""
    packed = [c for c in CORPUS if c.ranges is not None]
    paths = {c.name: bm.build_block_mask(c.make(), *c.shape, "cpu").path for c in packed}
    fell_back = [n for n, p in paths.items() if p not in ("packed", "specialized")]
    assert len(fell_back) <= 2, fell_back  # wrapped_conjunction-style large-index masks only


@pytest.mark.parametrize("block", [64, (128, 64), (64, 256)])
def test_block_sizes(block):
    for name in ("causal", "sliding_window_100", "doc_start_causal_i64", "per_head_window"):
        case = next(c for c in CORPUS if c.name == name)
        B, H, Q, KV = case.shape
        got = check(case.make(), B, H, Q - 5, KV - 70, BLOCK_SIZE=block)
        assert got.path in ("packed", "specialized")


def test_kv_block_not_multiple_of_32_falls_back():
    got = check(lambda b, h, q, kv: q >= kv, 1, 1, 300, 300, BLOCK_SIZE=48)
    assert got.path == "torch" and "multiple of 32" in got.reason


def test_broadcast_over_b_h_and_options():
    causal = lambda b, h, q, kv: q >= kv  # noqa: E731
    check(causal, 2, 3, 500, 700)
    check(causal, None, None, 257, 129)
    check(causal, 2, 1, 300, 300, separate_full_blocks=False)
    check(causal, 1, 2, 384, 512, compute_dq_write_order=True)
    got = check(causal, 1, 2, 384, 512, compute_dq_write_order=True, dq_kv_order=False)
    assert got.path == "packed"
    torch.testing.assert_close(got.block_mask.dq_write_order,
                               torch_create_block_mask(causal, 1, 2, 384, 512, "cpu",
                                                       compute_dq_write_order=True,
                                                       dq_kv_order=False).dq_write_order)


def test_edge_blocks_are_never_full():
    """A block cut by Q_LEN or KV_LEN is partial even when all its elements
    inside are kept (torch pads with False)."""
    full = lambda b, h, q, kv: q >= 0  # noqa: E731
    got = check(full, 1, 1, 200, 300)
    assert got.path == "packed"
    # q block 0 (rows 0-127): kv blocks 0, 1 full, block 2 (kv 256-299) partial;
    # q block 1 (rows 128-199): all three partial
    assert got.block_mask.full_kv_num_blocks.tolist() == [[[2, 0]]]
    assert got.block_mask.kv_num_blocks.tolist() == [[[1, 3]]]


def test_per_lane_mask_falls_back():
    got = check(lambda b, h, q, kv: (q * kv) % 7 == 3, 1, 1, 256, 256)
    assert got.path == "torch"


def test_i32_wrap_falls_back():
    """torch evaluates with int64 indices: q + 2^31 - 10 does not wrap there."""
    got = check(lambda b, h, q, kv: q + (2**31 - 10) >= kv, 1, 1, 300, 300)
    assert got.path == "torch" and "i32" in got.reason


def test_cache_new_values_and_scalars():
    def make(win, lens):
        def per_batch(b, h, q_idx, kv_idx):
            return (q_idx - kv_idx <= win) & (kv_idx < lens[b]) & (q_idx >= kv_idx)
        return per_batch

    bm.CACHE.clear()
    first = check(make(100, torch.tensor([700, 3])), 2, 1, 700, 700)
    assert not first.cache_hit and first.path == "packed"
    again = check(make(100, torch.tensor([65, 400])), 2, 1, 700, 700)  # new values, same meta
    assert again.cache_hit
    other = check(make(7, torch.tensor([65, 400])), 2, 1, 700, 700)  # a different constant
    assert not other.cache_hit


def test_public_export_is_lazy_and_equal():
    import subprocess
    import sys

    code = "import sys, maskopt; maskopt.create_block_mask; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    mm = lambda b, h, q, kv: (q >= kv) & (q - kv < 300)  # noqa: E731
    assert_same_block_mask(maskopt.create_block_mask(mm, 1, 1, 1000, 900, device="cpu"),
                           torch_create_block_mask(mm, 1, 1, 1000, 900, device="cpu"))


# value specialization ---------------------------------------------------------


def _doc_ids(lengths, dtype=torch.int32):
    return torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths)).to(dtype)


def _doc_mask(doc, causal):
    def doc_mask(b, h, q_idx, kv_idx):
        same = doc[q_idx] == doc[kv_idx]
        return same & (q_idx >= kv_idx) if causal else same
    return doc_mask


def _assert_eager_equal(a, b, B, H, Q, KV):
    assert torch.equal(create_mask(a, B, H, Q, KV, "cpu"), create_mask(b, B, H, Q, KV, "cpu"))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_document_ids_specialize(causal, dtype):
    lengths = [1, 130, 7, 300, 64, 129, 250, 143]  # 1024
    mm = _doc_mask(_doc_ids(lengths, dtype), causal)
    got = check(mm, 1, 1, 1024, 1024)
    assert got.path == "specialized", (got.path, got.reason)
    _assert_eager_equal(mm, got.block_mask.mask_mod, 1, 1, 1024, 1024)
    assert maskopt.compile_mask(got.block_mask.mask_mod).packed
    got = check(mm, 1, 1, 1000, 777)
    assert got.path == "specialized"
    _assert_eager_equal(mm, got.block_mask.mask_mod, 1, 1, 1000, 777)


def test_attn_gym_doc_masks_specialize():
    from attn_gym.masks import causal_mask, generate_doc_mask_mod
    from torch.nn.attention.flex_attention import noop_mask

    offsets = torch.tensor([0, 100, 101, 400, 777, 1024])
    for inner in (causal_mask, noop_mask):
        mm = generate_doc_mask_mod(inner, offsets)
        for Q, KV in [(1024, 1024), (900, 1000)]:
            got = check(mm, 2, 2, Q, KV)
            assert got.path == "specialized", (got.path, got.reason)
            _assert_eager_equal(mm, got.block_mask.mask_mod, 2, 2, Q, KV)


def test_document_ids_new_values_reuse_the_compile():
    bm.CACHE.clear()
    a = check(_doc_mask(_doc_ids([500, 524]), True), 1, 1, 1024, 1024)
    b_mm = _doc_mask(_doc_ids([10, 90, 900, 24]), True)
    b = check(b_mm, 1, 1, 1024, 1024)
    assert a.path == b.path == "specialized" and b.cache_hit
    _assert_eager_equal(b_mm, b.block_mask.mask_mod, 1, 1, 1024, 1024)


def test_interleaved_documents_keep_the_original_with_a_remark():
    """Documents in a few ranges each are row runs (exact); ids that alternate
    have too many runs per row: torch's path, with both reasons as remarks."""
    doc = _doc_ids([300, 300, 424])
    doc[100:150] = 2  # document 2 occupies two ranges: rows of it keep 2 runs
    mm = _doc_mask(doc, True)
    got = check(mm, 1, 1, 1024, 1024)
    assert got.path == "specialized", (got.path, got.reason)
    assert any("more than one contiguous range" in r.message for r in got.remarks)
    _assert_eager_equal(mm, got.block_mask.mask_mod, 1, 1, 1024, 1024)
    alternating = torch.arange(1024) % 3  # every document in 341 ranges
    mm = _doc_mask(alternating, True)
    got = check(mm, 1, 1, 1024, 1024)
    assert got.path == "torch" and got.block_mask.mask_mod is mm
    assert any("more than one contiguous range" in r.message for r in got.remarks)
    assert any("runs of kv in a row" in r.message for r in got.remarks)


@pytest.mark.parametrize("runs", [[(0, 4)], [(0, 4), (500, 530)], []])
def test_global_tokens_specialize(runs):
    flags = torch.zeros(1024, dtype=torch.bool)
    for lo, hi in runs:
        flags[lo:hi] = True

    def global_causal(b, h, q_idx, kv_idx):
        return flags[kv_idx] | ((q_idx >= kv_idx) & (q_idx - kv_idx < 128))

    got = check(global_causal, 1, 1, 1024, 1000)
    assert got.path == "specialized", (got.path, got.reason)
    _assert_eager_equal(global_causal, got.block_mask.mask_mod, 1, 1, 1024, 1000)


def test_scattered_global_tokens_remark():
    flags = torch.zeros(1024, dtype=torch.bool)
    flags[::100] = True
    got = check(lambda b, h, q, kv: flags[kv] | (q >= kv), 1, 1, 1024, 1024)
    assert got.path == "torch"
    assert any("runs of True" in r.message for r in got.remarks)


def test_benchmark_runs_tiny(capsys):
    """The benchmark runs end to end on a tiny size and prints its table
    (not a timing test: only that it runs, and that the tensors matched)."""
    from maskopt.tools import bench_block_mask

    rc = bench_block_mask.main(["--lengths", "256", "--repeat", "1", "--no-compile", "--no-memory",
                                "--masks", "causal,doc_causal_64"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "speedup" in out and "doc_causal_64" in out and "WRONG" not in out


def test_specialized_block_mask_in_flex_attention():
    """flex_attention (eager, CPU) with the specialized BlockMask gives the
    output of torch's BlockMask of the original mask."""
    import warnings

    from torch.nn.attention.flex_attention import flex_attention

    mm = _doc_mask(_doc_ids([100, 200, 50, 162]), True)
    ours = maskopt.create_block_mask(mm, 1, 2, 512, 512, device="cpu")
    assert ours.mask_mod is not mm  # specialized
    theirs = torch_create_block_mask(mm, 1, 2, 512, 512, device="cpu")
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, 512, 16, generator=g) for _ in range(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.testing.assert_close(flex_attention(q, k, v, block_mask=ours),
                                   flex_attention(q, k, v, block_mask=theirs), rtol=0, atol=0)


@pytest.mark.parametrize("name", ["causal", "block_diffusion", "morton_natten_32x32_k7", "per_batch_chunk",
                                  "batched_doc_start_causal", "global_tokens_where", "odd_kv"])
def test_bounds_prefilter_matches_words_only(name):
    """The blocks settled by bounds (lowering.block_bounds) are what the keep
    words of every block give (both paths; torch's equality is tested above)."""
    from maskopt.lowering.keep_words import GridWords

    case = next(c for c in CORPUS if c.name == name)
    B, H, Q, KV = case.shape
    compiled = maskopt.compile_mask(case.make())
    grid = GridWords(compiled.module, "cpu")
    aux = tuple(compiled.aux_tensors)
    for q, kv in [(Q, KV), (Q - 37, KV - 100)]:
        a = bm.block_tables(grid, aux, B, H, q, kv, 128, 128, torch.device("cpu"), use_bounds=True)
        b = bm.block_tables(grid, aux, B, H, q, kv, 128, 128, torch.device("cpu"), use_bounds=False)
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_document_ids_with_window_specialize():
    doc = _doc_ids([200, 1, 311, 400, 112])

    def doc_window(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx) & (q_idx - kv_idx < 150)

    got = check(doc_window, 1, 1, 1024, 1024)
    assert got.path == "specialized", (got.path, got.reason)
    _assert_eager_equal(doc_window, got.block_mask.mask_mod, 1, 1, 1024, 1024)


def test_batched_document_ids_specialize():
    """One row of document ids per batch: `doc[b, q] == doc[b, kv]`."""
    doc = torch.stack([_doc_ids([100, 400, 524]), _doc_ids([1, 2, 3, 1018])])

    def batched_doc(b, h, q_idx, kv_idx):
        return (doc[b, q_idx] == doc[b, kv_idx]) & (q_idx >= kv_idx)

    got = check(batched_doc, 2, 2, 1024, 1000)
    assert got.path == "specialized", (got.path, got.reason)
    _assert_eager_equal(batched_doc, got.block_mask.mask_mod, 2, 2, 1024, 1000)
    doc[1, 10:20] = 0  # document 0 of row 1 now occupies two ranges: row runs
    got = check(batched_doc, 2, 2, 1024, 1000)
    assert got.path == "specialized" and got.block_mask.mask_mod is not batched_doc
    assert any("(row 1)" in r.message for r in got.remarks)
    _assert_eager_equal(batched_doc, got.block_mask.mask_mod, 2, 2, 1024, 1000)
    doc[1] = torch.arange(1024) % 2  # two documents, alternating: too many runs
    got = check(batched_doc, 2, 2, 1024, 1000)
    assert got.path == "torch" and got.block_mask.mask_mod is batched_doc
    assert any("runs of kv in a row" in r.message for r in got.remarks)


@pytest.mark.parametrize("chunk", range(4))
def test_fuzzed_masks_equal_torch(chunk):
    """Grammar-fuzzed mask_mods (maskopt.tools.fuzz: constants near the int32
    limits, aux loads, shifts, divisions, ...), two shapes and block sizes each."""
    from maskopt.tools.fuzz import build, random_mask

    packed = 0
    for seed in range(1000 + 25 * chunk, 1025 + 25 * chunk):
        m = random_mask(seed)
        fn = build(m)
        B, H, Q, KV = m.shape
        Q, KV = min(Q, 700), min(KV, 700)
        for q, kv, block in [(Q, KV, 128), (max(1, Q - 37), max(1, KV - 45), 64)]:
            try:
                want = torch_create_block_mask(fn, B, H, q, kv, "cpu", BLOCK_SIZE=block)
            except (IndexError, RuntimeError):
                continue  # torch cannot evaluate it at this shape
            got = bm.build_block_mask(fn, B, H, q, kv, "cpu", BLOCK_SIZE=block)
            assert_same_block_mask(got.block_mask, want)
            packed += got.path == "packed"
    assert packed > 0


def test_uint64_aux_with_the_top_bit_set():
    """A uint64 aux value >= 2^63 read at a constant index (fuzz seed 1022):
    the block bounds read it as the load yields it, its bits in int64 (it
    overflowed int64_t before)."""
    t0 = torch.tensor([42, 2**64 - 2, 32], dtype=torch.uint64)

    def mask_mod(b, h, q_idx, kv_idx):
        return ((kv_idx % 2) < (t0[b].to(torch.int32) % 2)) | ((b - kv_idx) != q_idx)

    for B in (1, 2, 3):
        want = torch_create_block_mask(mask_mod, B, 1, 300, 260, "cpu", BLOCK_SIZE=128)
        got = bm.build_block_mask(mask_mod, B, 1, 300, 260, "cpu", BLOCK_SIZE=128)
        assert_same_block_mask(got.block_mask, want)


# row runs: any per-lane gather, tabulated by its values ------------------------

_ROW_SHAPES = [(1024, 1024), (1000, 777), (300, 1100)]


def _check_specialized(mm, B, H, Q, KV, family=None):
    got = check(mm, B, H, Q, KV)
    assert got.path == "specialized", (got.path, got.reason, [r.message for r in got.remarks])
    _assert_eager_equal(mm, got.block_mask.mask_mod, B, H, Q, KV)
    assert maskopt.compile_mask(got.block_mask.mask_mod).packed
    return got


def _images(n_images, tokens, Q, seed):
    """Flamingo intervals: image i is seen by text rows [start_i, end_i), both
    nondecreasing in i (each image from the text position it appears at)."""
    g = torch.Generator().manual_seed(seed)
    starts = torch.sort(torch.randint(0, Q, (n_images,), generator=g)).values
    ends = torch.minimum(starts + torch.randint(1, Q, (n_images,), generator=g), torch.tensor(Q))
    ends = torch.cummax(ends, 0).values
    return torch.stack([starts, ends], 1).to(torch.int32)


@pytest.mark.parametrize("Q,KV", _ROW_SHAPES)
def test_attn_gym_vision_cross_attention_specializes(Q, KV):
    from attn_gym.masks import generate_vision_cross_attention_mask_mod

    tokens = 64
    n_images = -(-KV // tokens)
    mm = generate_vision_cross_attention_mask_mod(_images(n_images, tokens, Q, Q + KV), tokens)
    got = _check_specialized(mm, 1, 1, Q, KV)
    # new intervals of the same shape reuse the compile
    mm2 = generate_vision_cross_attention_mask_mod(_images(n_images, tokens, Q, 7), tokens)
    again = _check_specialized(mm2, 1, 1, Q, KV)
    assert again.cache_hit


def test_vision_cross_attention_unordered_images():
    """Images whose text intervals are not ordered: a row sees a few separate
    image runs (still exact); too many, and the original is kept."""
    from attn_gym.masks import generate_vision_cross_attention_mask_mod

    iv = torch.tensor([[0, 700], [200, 300], [0, 100], [500, 1000], [250, 260]], dtype=torch.int32)
    _check_specialized(generate_vision_cross_attention_mask_mod(iv, 128), 1, 1, 1000, 640)
    iv = torch.tensor([[0, 1000] if i % 2 else [0, 1] for i in range(40)], dtype=torch.int32)
    mm = generate_vision_cross_attention_mask_mod(iv, 16)
    got = check(mm, 1, 1, 1000, 640)
    assert got.path == "torch"
    assert any("runs of kv in a row" in r.message for r in got.remarks)


def _tree(parents):
    from attn_gym.masks import build_tree_ancestor_matrix

    return build_tree_ancestor_matrix(parents, "cpu")


@pytest.mark.parametrize("prefix", [0, 200, 1000])
def test_jetspec_tree_ancestors_specialize(prefix):
    """ancestor[q_idx, kv_idx - prefix]: per-row runs of the ancestor rows."""
    from attn_gym.masks import generate_jetspec_tree_causal_mask_mod

    # a few chains hanging off a trunk: every root-to-node path is <= 3 runs
    parents = [-1] + [i - 1 if i % 50 else 0 for i in range(1, 300)]
    mm = generate_jetspec_tree_causal_mask_mod(prefix, _tree(parents))
    _check_specialized(mm, 1, 1, 300, prefix + 300)
    # the paper's Figure 3 tree, KV not a multiple of the block size
    mm = generate_jetspec_tree_causal_mask_mod(prefix, _tree([-1, 0, 1, 1, 3, 3, 0]))
    _check_specialized(mm, 1, 1, 7, prefix + 7)


def test_ancestor_rows_with_too_many_runs_keep_the_original():
    import random

    from attn_gym.masks import generate_jetspec_tree_causal_mask_mod

    rng = random.Random(0)
    parents = [-1] + [rng.randrange(i) for i in range(1, 300)]
    mm = generate_jetspec_tree_causal_mask_mod(100, _tree(parents))
    got = check(mm, 1, 1, 300, 400)
    assert got.path == "torch"
    assert any("runs of kv in a row (more than 8)" in r.message for r in got.remarks)


def test_plain_2d_ancestor_matrix():
    """A[q_idx, kv_idx] with interval rows, alone and with causal."""
    Q, KV = 700, 900
    lo = torch.randint(0, KV, (Q, 1), generator=torch.Generator().manual_seed(3))
    cols = torch.arange(KV)
    A = (cols >= lo) & (cols < lo + 77) | (cols < 5)
    _check_specialized(lambda b, h, q_idx, kv_idx: A[q_idx, kv_idx], 1, 1, Q, KV)
    _check_specialized(lambda b, h, q_idx, kv_idx: A[q_idx, kv_idx] & (q_idx >= kv_idx), 2, 1, Q, KV)


@pytest.mark.parametrize("Q,KV", _ROW_SHAPES)
def test_kv_tensor_against_lane_uniform_values(Q, KV):
    """T[kv] compared with per-head, per-batch and per-query values."""
    g = torch.Generator().manual_seed(Q)
    T = torch.sort(torch.randint(0, 50, (KV,), generator=g)).values.to(torch.int32)
    x = torch.tensor([0, 10, 49, -1])
    y = torch.tensor([3, 25])
    _check_specialized(lambda b, h, q_idx, kv_idx: T[kv_idx] <= x[h], 2, 4, Q, KV)
    _check_specialized(lambda b, h, q_idx, kv_idx: (T[kv_idx] > y[b]) & (q_idx >= kv_idx), 2, 4, Q, KV)
    _check_specialized(lambda b, h, q_idx, kv_idx: T[kv_idx] == T[q_idx % KV], 1, 1, Q, KV)
    seg = (torch.arange(KV) // 100 % 3).to(torch.int64)  # 3 values, each in <= 4 ranges
    _check_specialized(lambda b, h, q_idx, kv_idx: seg[kv_idx] != seg[q_idx % KV], 1, 1, Q, KV)
    seg = (torch.arange(KV) // 20 % 3).to(torch.int64)  # each in >= 12 ranges
    got = check(lambda b, h, q_idx, kv_idx: seg[kv_idx] == seg[q_idx % KV], 1, 1, Q, KV)
    assert got.path == "torch"
    assert any("runs of kv in a row" in r.message for r in got.remarks)
    flags = torch.zeros(KV, dtype=torch.bool)
    flags[10:20] = flags[300:333] = flags[-5:] = True
    _check_specialized(lambda b, h, q_idx, kv_idx: flags[kv_idx] ^ (h == 1), 1, 2, Q, KV)


def test_bool_tensor_of_kv_with_many_runs_per_head():
    """is_global[h, kv]: runs per head (2-D, indexed by a lane-uniform value)."""
    G = torch.zeros(3, 1024, dtype=torch.bool)
    G[0, :4] = True
    G[1, 100:200] = G[1, 900:] = True
    _check_specialized(lambda b, h, q_idx, kv_idx: G[h, kv_idx] | (q_idx >= kv_idx), 1, 3, 1024, 1000)


def test_attn_gym_global_sliding_window_and_doc_masks():
    """attn-gym's global + sliding window (both is_global[q] and is_global[kv])
    and its document masks: all specialize and pack."""
    from attn_gym.masks import causal_mask, generate_doc_mask_mod, generate_global_sliding_window
    from attn_gym.masks.sliding_window import generate_sliding_window

    flags = torch.zeros(1000, dtype=torch.bool)
    flags[0] = flags[500] = True
    _check_specialized(generate_global_sliding_window(64, flags), 1, 1, 1000, 1000, None)
    offsets = torch.tensor([0, 100, 101, 400, 777, 1000])
    for inner in (causal_mask, generate_sliding_window(64)):
        _check_specialized(generate_doc_mask_mod(inner, offsets), 1, 1, 1000, 1000, None)


def test_doc_ids_and_kv_flags_in_one_mask():
    """A document mask with global tokens: the document family, then row runs
    for the flags left per-lane."""
    doc = _doc_ids([100, 400, 524])
    flags = torch.zeros(1024, dtype=torch.bool)
    flags[:2] = True

    def doc_global(b, h, q_idx, kv_idx):
        return ((doc[q_idx] == doc[kv_idx]) | flags[kv_idx]) & (q_idx >= kv_idx)

    got = check(doc_global, 1, 1, 1024, 1024)
    _assert_eager_equal(doc_global, got.block_mask.mask_mod, 1, 1, 1024, 1024)
    assert got.path == "specialized", (got.path, got.reason)


@pytest.mark.parametrize("Q", [4096, 4000])
def test_attn_gym_shared_prefix_narrowed(Q):
    """attn-gym's shared prefix reads no tensor at kv_idx; its int64 prefix ids
    (`prefix[doc] + 1` may wrap in i64) pack as the same values in int32."""
    from attn_gym.masks import generate_shared_prefix_mask_mod

    offsets = torch.tensor([0, 300, 301, 1001, 2001, 2096, Q], dtype=torch.int32)
    mm = generate_shared_prefix_mask_mod(offsets, torch.tensor([0, 0, 0, 3, 3, 3]))
    assert not maskopt.compile_mask(mm).packed
    got = _check_specialized(mm, 1, 1, Q, Q)
    assert got.block_mask.mask_mod is not mm


def test_older_torch_without_the_sparse_helper(monkeypatch):
    """Where torch lacks `_create_sparse_block_from_block_mask(..., seq_lengths)`
    (as older releases may), the tables go through `_dense_to_ordered` and
    `BlockMask.from_kv_blocks`: the same BlockMask."""
    from torch.nn.attention import flex_attention as fa

    real = fa._create_sparse_block_from_block_mask

    def without_seq_lengths(block_mask, mask_mod, *args):  # torch's own call still works
        return real(block_mask, mask_mod, *args)
    monkeypatch.setattr(fa, "_create_sparse_block_from_block_mask", without_seq_lengths)
    mm = lambda b, h, q, kv: (q >= kv) & (q - kv < 300)  # noqa: E731
    got = check(mm, 2, 1, 1000, 900)
    assert got.path == "packed"
    check(mm, 1, 1, 300, 300, separate_full_blocks=False)
