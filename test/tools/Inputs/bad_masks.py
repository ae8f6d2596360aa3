"""mask_mods that cannot be compiled, for test/tools/python-bad-masks.mlir."""

import torch

bounds = torch.tensor([1.5, 2.5, 3.5, 4.5])


def raises(b, h, q_idx, kv_idx):
    offsets = {"q": 1}
    return q_idx >= kv_idx + offsets["kv"]


def three_args(b, q_idx, kv_idx):
    return q_idx >= kv_idx


def not_bool(b, h, q_idx, kv_idx):
    return q_idx - kv_idx


def float_bounds(b, h, q_idx, kv_idx):
    return kv_idx < bounds[q_idx]


def float_math(b, h, q_idx, kv_idx):
    return torch.sin(q_idx.float()) > 0


def control_flow(b, h, q_idx, kv_idx):
    if q_idx >= kv_idx:
        return q_idx >= 0
    return q_idx < 0


def five_args(b, h, q_idx, kv_idx, window):
    return q_idx - kv_idx <= window
