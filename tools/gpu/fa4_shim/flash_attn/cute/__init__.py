"""Stand-in for flash_attn.cute: only ``utils`` (the helpers maskopt's emitted modules call)."""
