"""A mask file for the driver tests that imports nothing (fast to load)."""


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


NOT_A_FUNCTION = 3
