"""The compiled path of maskopt.create_block_mask (the default on CUDA), forced
on the CPU: every BlockMask tensor equal to torch's, one trace and compile
per mask and shape however many new tensor values and closures follow, and
the eager path (and its fallbacks) wherever a check of the compiled graph
fires. Semantics only; speed is in `maskopt.tools.bench_block_mask`.

Each new (mask, shape) pays an inductor compile (seconds on the CPU), so the
cases are few and small.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch._inductor")

from torch.nn.attention.flex_attention import create_block_mask as torch_create_block_mask
from torch.nn.attention.flex_attention import create_mask

from maskopt.lowering import block_mask as bm
from maskopt.tools.corpus import CORPUS

_TENSORS = (
    "kv_num_blocks", "kv_indices", "full_kv_num_blocks", "full_kv_indices",
    "q_num_blocks", "q_indices", "full_q_num_blocks", "full_q_indices",
)


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    monkeypatch.setattr(bm, "COMPILED", True)
    traces = []
    real = bm._trace_tables

    def counting(*a, **k):
        out = real(*a, **k)
        traces.append(a[2:])
        return out
    monkeypatch.setattr(bm, "_trace_tables", counting)
    return traces


def check(mask_mod, B, H, Q, KV, **kw):
    got = bm.build_block_mask(mask_mod, B, H, Q, KV, "cpu", **kw)
    want = torch_create_block_mask(mask_mod, B, H, Q, KV, "cpu", **kw)
    for name in _TENSORS:
        a, b = getattr(got.block_mask, name), getattr(want, name)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        assert a.dtype == b.dtype and a.shape == b.shape, (name, a.dtype, b.dtype, a.shape, b.shape)
        assert torch.equal(a, b), name
    assert got.block_mask.seq_lengths == want.seq_lengths
    assert got.block_mask.BLOCK_SIZE == want.BLOCK_SIZE
    return got


def _doc_mask(lengths, causal=True):
    doc = torch.repeat_interleave(torch.arange(len(lengths), dtype=torch.int32), torch.tensor(lengths))

    def doc_mask(b, h, q_idx, kv_idx):
        same = doc[q_idx] == doc[kv_idx]
        return same & (q_idx >= kv_idx) if causal else same
    return doc_mask


def test_plain_masks_and_edges(compiled):
    causal = lambda b, h, q, kv: q >= kv  # noqa: E731
    got = check(causal, 1, 1, 700, 1000)  # neither a multiple of the block size
    assert got.path == "packed" and len(compiled) == 1
    check(lambda b, h, q, kv: (q >= kv) & (q - kv < 300), 2, 3, 513, 385)
    check(lambda b, h, q, kv: q >= 0, 1, 1, 200, 300)  # cut blocks are never full
    check(causal, 2, 1, 300, 300, separate_full_blocks=False)
    check(causal, 1, 1, 500, 700, BLOCK_SIZE=(128, 64))


def test_new_values_and_closures_do_not_retrace(compiled):
    bm.CACHE.clear()
    for lengths in ([500, 524], [10, 90, 900, 24], [1] * 4 + [1020], [1024]):
        got = check(_doc_mask(lengths), 1, 1, 1024, 1024)
        assert got.path == "specialized"
    assert len(compiled) == 1, compiled
    _assert_eager_equal(_doc_mask([1024]), got.block_mask.mask_mod, 1024, 1024)
    check(_doc_mask([300, 400], causal=False), 1, 1, 700, 700)  # another shape: a new trace
    assert len(compiled) == 2


def test_per_head_and_per_batch_values(compiled):
    def make(lens, win):
        def per_batch(b, h, q_idx, kv_idx):
            return (q_idx - kv_idx <= win[h]) & (kv_idx < lens[b]) & (q_idx >= kv_idx)
        return per_batch
    check(make(torch.tensor([700, 3]), torch.tensor([5, 100, 1000])), 2, 3, 700, 700)
    check(make(torch.tensor([65, 400]), torch.tensor([0, 64, 129])), 2, 3, 700, 700)
    assert len(compiled) == 1


def test_checks_fall_back_like_the_eager_path():
    # an i32 result out of range: torch's int64 reading differs -> torch
    got = check(lambda b, h, q, kv: q + (2**31 - 10) >= kv, 1, 1, 300, 300)
    assert got.path == "torch" and "i32" in got.reason
    # values that make an i32 sum wrap only for some calls
    off = torch.tensor([0], dtype=torch.int32)

    def shifted(b, h, q_idx, kv_idx):
        return q_idx + off[0] >= kv_idx
    assert check(shifted, 1, 1, 300, 300).path == "packed"
    off[0] = 2**31 - 10
    assert check(shifted, 1, 1, 300, 300).path == "torch"
    # an aux load out of bounds: torch raises, so does maskopt (through torch)
    short = torch.arange(100)

    def oob(b, h, q_idx, kv_idx):
        return short[q_idx] >= kv_idx
    with pytest.raises(IndexError):
        torch_create_block_mask(oob, 1, 1, 300, 300, "cpu")
    with pytest.raises(IndexError):
        bm.build_block_mask(oob, 1, 1, 300, 300, "cpu")


@pytest.mark.parametrize("name", ["sliding_window_100", "doc_start_causal_i64", "per_head_window",
                                  "prefix_lm_77", "chunked_causal_96",
                                  "natten_24x24_k7", "attn_gym_doc_causal", "per_head_window_u8"])
def test_corpus_masks(name):
    case = next((c for c in CORPUS if c.name == name), None)
    if case is None:
        pytest.skip(f"no corpus mask {name}")
    B, H, Q, KV = case.shape
    got = check(case.make(), B, H, Q - 37, KV - 100)
    assert got.path in ("packed", "specialized") or "i32" in (got.reason or "")


def _assert_eager_equal(a, b, Q, KV):
    assert torch.equal(create_mask(a, 1, 1, Q, KV, "cpu"), create_mask(b, 1, 1, Q, KV, "cpu"))
