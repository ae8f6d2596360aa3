"""Example FlexAttention mask_mods for `mask-opt FILE.py:FUNCTION`."""

import torch

SLIDING_WINDOW = 256
PREFIX = 128
CHUNK = 512

# Document layout for `document_causal`: 4 documents packed into 1024 tokens.
_lengths = [300, 200, 400, 124]
doc_ids = torch.repeat_interleave(
    torch.arange(len(_lengths), dtype=torch.int32), torch.tensor(_lengths)
)
doc_starts = torch.cumsum(torch.tensor([0] + _lengths[:-1]), 0).to(torch.int32)


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def sliding_window(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx) & (q_idx - kv_idx <= SLIDING_WINDOW)


def prefix_lm(b, h, q_idx, kv_idx):
    return (kv_idx < PREFIX) | (q_idx >= kv_idx)


def chunked_causal(b, h, q_idx, kv_idx):
    return (q_idx // CHUNK == kv_idx // CHUNK) & (q_idx >= kv_idx)


def document_causal(b, h, q_idx, kv_idx):
    """Causal within a document: the document start is indexed by q only."""
    return (kv_idx >= doc_starts[doc_ids[q_idx]]) & (kv_idx <= q_idx)


def document_gather(b, h, q_idx, kv_idx):
    """The same mask written as a per-lane gather: does not pack."""
    return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx)
