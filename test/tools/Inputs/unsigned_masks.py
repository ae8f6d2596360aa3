"""mask_mods reading unsigned aux tensors, for test/tools/python-unsigned.mlir."""

import torch

win_u8 = torch.tensor([0, 1, 127, 128, 200, 255, 31, 32], dtype=torch.uint8)
doc_u8 = torch.tensor([0, 0, 1, 200, 200, 255], dtype=torch.uint8)
starts = torch.arange(256, dtype=torch.int32) * 4
row_u8 = torch.tensor([[1, 2, 3], [200, 255, 0]], dtype=torch.uint8)
win_u16 = torch.tensor([0, 40000, 65535], dtype=torch.uint16)
ids_u64 = torch.tensor([2**64 - 1, 2**63, 7], dtype=torch.uint64)


def window_u8(b, h, q_idx, kv_idx):
    return (q_idx - kv_idx <= win_u8[h]) & (q_idx >= kv_idx)


def index_table_u8(b, h, q_idx, kv_idx):
    return (starts[doc_u8[q_idx].long()] <= kv_idx) & (kv_idx <= q_idx)


def wrapping_u8(b, h, q_idx, kv_idx):
    return win_u8[h] + 100 > q_idx - kv_idx


def row_u8_vs_q(b, h, q_idx, kv_idx):
    return (row_u8[h] <= q_idx).all() & (kv_idx <= q_idx)


def window_u16(b, h, q_idx, kv_idx):
    return q_idx - kv_idx <= win_u16[h].int()


def same_u64(b, h, q_idx, kv_idx):
    return (ids_u64[h] == ids_u64[0]) & (kv_idx <= q_idx)


def add_u16(b, h, q_idx, kv_idx):
    return (win_u16[h] + 1).int() >= kv_idx


def index_by_u8(b, h, q_idx, kv_idx):
    return starts[doc_u8[q_idx]] <= kv_idx


def u8_past_255(b, h, q_idx, kv_idx):
    return win_u8[h] < 300
