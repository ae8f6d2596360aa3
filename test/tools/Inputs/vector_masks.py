"""Vector-valued mask_mods (VSA-style top-k rows) for python-vector.mlir."""

import torch

# (H, Q // 64, K): each query tile's K selected KV tiles
topk = torch.tensor([[[0, 2, 3], [1, 2, 0]], [[3, 1, 0], [0, 1, 2]]], dtype=torch.int32)
sizes = torch.tensor([64, 64, 64, 48, 0], dtype=torch.int64)
wide = torch.zeros(2, 33, dtype=torch.int32)


def vsa(b, h, q_idx, kv_idx):
    kv_tile = kv_idx // 64
    selected = (topk[h, q_idx // 64] == kv_tile.unsqueeze(-1)).any(dim=-1)
    return selected & (kv_idx % 64 < sizes[kv_tile])


def none_of(b, h, q_idx, kv_idx):
    return (topk[h, q_idx // 64] != (kv_idx // 64).unsqueeze(-1)).all(-1)


def too_wide(b, h, q_idx, kv_idx):
    return (wide[h] == kv_idx).any()
