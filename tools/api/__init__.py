"""maskopt: an MLIR-style mask compiler for FlexAttention mask_mods."""

__version__ = "0.1.0"
