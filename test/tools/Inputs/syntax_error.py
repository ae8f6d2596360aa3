"""A mask file with a syntax error."""


def causal(b, h, q_idx, kv_idx)
    return q_idx >= kv_idx
