"""Stand-in for the flash_attn package on machines without flash-attn-4 (see tools/gpu/README.md)."""
