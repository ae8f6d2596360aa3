"""
FA4 end to end (tools/examples/fa4_end_to_end.py): an attention-gym mask_mod
goes through `maskopt.compile_mask`, the emitted module is imported, and its
mask_mod compiles inside FA4's real SM100 forward kernel (fake tensors, no GPU).
"""

import importlib.util
import os

import pytest

pytest.importorskip("cutlass")
pytest.importorskip("flash_attn.cute")

EXAMPLE = os.path.join(
    os.path.dirname(__file__), "..", "..", "tools", "examples", "fa4_end_to_end.py"
)


def _example():
    spec = importlib.util.spec_from_file_location("fa4_end_to_end", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_attn_gym_mask_compiles_inside_fa4_forward_kernel(capsys):
    example = _example()
    assert example.main(["--mask", "packed_causal_doc", "--seqlen", "1024"]) == 0
    out = capsys.readouterr().out
    assert "packed_causal_doc: packed=True" in out
    assert "aux tensor: torch.int32 (1024,)" in out
    assert "FA4 SM100 forward kernel with this mask_mod: compiled for sm_100a" in out


def test_emitted_module_imports_as_fa4_mask_mod():
    import torch

    import maskopt

    example = _example()
    result = maskopt.compile_mask(example.make_mask("sliding_window", 1024))
    module = result.import_module()
    assert module.mask_mod.__vec_size__ == 32
    assert callable(module.mask_mod)
    # The same source on the CPU emulator computes the mask.
    from maskopt.tools import corpus

    q = torch.arange(0, 1024, 37, dtype=torch.int32).repeat_interleave(64)
    kv = torch.arange(0, 1024, 16, dtype=torch.int32).repeat(len(q) // 64)
    z = torch.zeros_like(q)
    words = result.emulate().keep_words(z, z, q, kv)
    assert torch.equal(words, corpus.reference_words(example.make_mask("sliding_window", 1024), z, z, q, kv))
