"""The CUDA-graph path of maskopt.create_block_mask (`block_mask.GRAPHS`).

On the CPU it runs as `GRAPHS = "eager"`: the same per-call flow (static
copies of the aux tensors, the specialization replayed from the first call's
host decisions without syncs, its device checks, the compiled tables, the
outputs in flat buffers, cloned per call) with the captured step run eagerly
instead of replayed. On a GPU the last test captures real CUDA graphs.
Every BlockMask tensor is compared with torch's create_block_mask of the
same mask_mod and values, and calls with new values give new results.
"""

from __future__ import annotations

import inspect

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch._inductor")

from torch.nn.attention.flex_attention import create_block_mask as torch_create_block_mask
from torch.nn.attention.flex_attention import create_mask

from maskopt.lowering import block_mask as bm

_TENSORS = bm._TENSOR_ATTRS


@pytest.fixture(autouse=True)
def graphs(monkeypatch):
    monkeypatch.setattr(bm, "COMPILED", True)
    monkeypatch.setattr(bm, "GRAPHS", "eager")
    bm.CACHE.clear()
    yield
    bm.CACHE.clear()


def check(mask_mod, B, H, Q, KV, device="cpu", **kw):
    got = bm.build_block_mask(mask_mod, B, H, Q, KV, device, **kw)
    want = torch_create_block_mask(mask_mod, B, H, Q, KV, device, **kw)
    for name in _TENSORS:
        a, b = getattr(got.block_mask, name), getattr(want, name)
        if a is None or b is None:
            assert a is None and b is None, name
            continue
        assert a.dtype == b.dtype and a.shape == b.shape, (name, a.dtype, b.dtype, a.shape, b.shape)
        assert torch.equal(a, b), name
    assert got.block_mask.seq_lengths == want.seq_lengths
    return got


def _doc_ids(lengths, dtype=torch.int32, device="cpu"):
    return torch.repeat_interleave(torch.arange(len(lengths), dtype=dtype),
                                   torch.tensor(lengths)).to(device)


def _doc_mask(doc):
    def doc_mask(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)
    return doc_mask


def _snapshot(block_mask):
    return {n: getattr(block_mask, n).clone() for n in _TENSORS if getattr(block_mask, n) is not None}


def _unchanged(block_mask, snap):
    return all(torch.equal(getattr(block_mask, n), t) for n, t in snap.items())


def _eager_equal(a, b, B, H, Q, KV, device="cpu"):
    return torch.equal(create_mask(a, B, H, Q, KV, device), create_mask(b, B, H, Q, KV, device))


def test_document_ids_replay_new_values():
    """The first call captures, later calls replay with their own values; an
    earlier BlockMask (and its specialized mask_mod) is not overwritten."""
    kept = []
    for i, lengths in enumerate(([500, 524], [10, 90, 900, 24], [1] * 4 + [1020], [1024], [700, 324])):
        mm = _doc_mask(_doc_ids(lengths))
        got = check(mm, 1, 1, 1024, 1024)
        assert got.path == "specialized" and got.graph == (i > 0), (i, got.graph, bm.LAST_GRAPH_ERROR)
        assert _eager_equal(mm, got.block_mask.mask_mod, 1, 1, 1024, 1024)
        kept.append((mm, got.block_mask, _snapshot(got.block_mask)))
    for mm, block_mask, snap in kept:
        assert _unchanged(block_mask, snap)
        assert _eager_equal(mm, block_mask.mask_mod, 1, 1, 1024, 1024)


def test_values_without_the_structure_take_the_path_without_the_graph():
    check(_doc_mask(_doc_ids([300, 724])), 1, 1, 1024, 1024)  # captures
    doc = torch.arange(1024, dtype=torch.int32) % 2  # interleaved: a document in many ranges
    got = check(_doc_mask(doc), 1, 1, 1024, 1024)
    assert not got.graph and got.path == "torch"
    assert any("more than one contiguous range" in r.message for r in got.remarks)
    doc = _doc_ids([100, 200, 300, 424])
    doc[5] = 3  # document 3 in two ranges: the device check fires, row runs follow
    got = check(_doc_mask(doc), 1, 1, 1024, 1024)
    assert not got.graph and got.path == "specialized"
    got = check(_doc_mask(_doc_ids([1000, 24])), 1, 1, 1024, 1024)
    assert got.graph and got.path == "specialized"


def test_int64_ids_narrowed_and_out_of_range():
    mm = _doc_mask(_doc_ids([200, 300, 524], torch.int64))
    check(mm, 1, 1, 1024, 1024)
    got = check(_doc_mask(_doc_ids([1, 1000, 23], torch.int64)), 1, 1, 1024, 1024)
    assert got.graph
    big = _doc_ids([512, 512], torch.int64) + 2**40  # not narrowed: the check fires
    got = check(_doc_mask(big), 1, 1, 1024, 1024)
    assert not got.graph and got.path == "specialized"


def test_packed_batched_and_options():
    causal = lambda b, h, q, kv: q >= kv  # noqa: E731
    for _ in range(2):
        got = check(causal, 2, 1, 700, 1000)
    assert got.graph and got.path == "packed" and got.block_mask.mask_mod is causal
    # torch 2.11 (the GPU machine's) has no separate_full_blocks option
    has_option = "separate_full_blocks" in inspect.signature(torch_create_block_mask).parameters
    for sep in (True, False) if has_option else ():
        check(causal, 1, 1, 300, 300, separate_full_blocks=sep)
        assert check(causal, 1, 1, 300, 300, separate_full_blocks=sep).graph

    def batched(doc):
        def batched_doc(b, h, q_idx, kv_idx):
            return (doc[b, q_idx] == doc[b, kv_idx]) & (q_idx >= kv_idx)
        return batched_doc
    for i, rows in enumerate((([100, 400, 524], [1, 2, 3, 1018]), ([1024], [512, 512]))):
        mm = batched(torch.stack([_doc_ids(r) for r in rows]))
        got = check(mm, 2, 2, 1024, 1000)
        assert got.path == "specialized" and got.graph == (i > 0)
        assert _eager_equal(mm, got.block_mask.mask_mod, 2, 2, 1024, 1000)


def test_steps_with_host_syncs_are_not_captured():
    """kv flags need a host read of their runs: no graph, the same results."""
    def flags(g):
        def global_tokens(b, h, q_idx, kv_idx):
            return g[kv_idx] | (q_idx >= kv_idx)
        return global_tokens
    for k in (4, 9):
        g = torch.zeros(512, dtype=torch.bool)
        g[:k] = True
        got = check(flags(g), 1, 1, 512, 512)
        assert got.path == "specialized" and not got.graph
    assert "host syncs" in (bm.LAST_GRAPH_ERROR or "")


def test_graphs_off(monkeypatch):
    monkeypatch.setattr(bm, "GRAPHS", False)
    for lengths in ([500, 524], [1024]):
        got = check(_doc_mask(_doc_ids(lengths)), 1, 1, 1024, 1024)
        assert not got.graph


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_graphs_on_the_gpu(monkeypatch):
    monkeypatch.setattr(bm, "COMPILED", "auto")
    monkeypatch.setattr(bm, "GRAPHS", "auto")
    kept = []
    for i, lengths in enumerate(([1000, 3096], [10, 90, 900, 3096], [4096], [1] * 7 + [4089])):
        mm = _doc_mask(_doc_ids(lengths, device="cuda"))
        got = check(mm, 1, 1, 4096, 4096, "cuda")
        assert got.path == "specialized" and got.graph == (i > 0), (i, bm.LAST_GRAPH_ERROR)
        kept.append((mm, got.block_mask, _snapshot(got.block_mask)))
    for mm, block_mask, snap in kept:
        assert _unchanged(block_mask, snap)
        assert _eager_equal(mm, block_mask.mask_mod, 1, 1, 4096, 4096, "cuda")
    doc = torch.arange(4096, dtype=torch.int32, device="cuda") % 3
    got = check(_doc_mask(doc), 1, 1, 4096, 4096, "cuda")
    assert not got.graph and any("contiguous" in r.message for r in got.remarks)
    assert check(_doc_mask(_doc_ids([2048, 2048], device="cuda")), 1, 1, 4096, 4096, "cuda").graph
    causal = lambda b, h, q, kv: q >= kv  # noqa: E731
    check(causal, 1, 1, 4096, 4096, "cuda")
    assert check(causal, 1, 1, 4096, 4096, "cuda").graph
    assert bm.graph_pool_bytes() < 2**30
