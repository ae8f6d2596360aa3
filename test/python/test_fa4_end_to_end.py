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


def test_real_without_cuda_is_one_line_error():
    """`--real` on a machine without an SM100 GPU and a CUDA build of torch:
    one line on stderr naming the failed check, status 1, nothing compiled."""
    import subprocess
    import sys

    import torch

    if torch.backends.cuda.is_built():
        pytest.skip("needs a CPU-only build of torch")
    proc = subprocess.run(
        [sys.executable, EXAMPLE, "--real"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stdout == ""  # before any work: no compile, no "packed=" line
    (line,) = proc.stderr.splitlines()
    assert line.startswith("fa4_end_to_end.py: error: --real needs an SM100 GPU and a CUDA build of torch"), line
    assert f"torch {torch.__version__} is not a CUDA build" in line, line


@pytest.mark.parametrize(
    ("built", "available", "capability", "needle"),
    [
        (True, False, None, "no visible GPU"),
        (True, True, (9, 0), "NVIDIA H100 (compute capability 9.0) is not SM100"),
    ],
)
def test_real_names_the_failed_check(monkeypatch, capsys, built, available, capability, needle):
    import torch

    example = _example()
    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: built)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: available)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: int(available))
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda device=None: "NVIDIA H100")
    monkeypatch.setattr(example.maskopt, "compile_mask", None)  # nothing is compiled
    assert example.main(["--real"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("fa4_end_to_end.py: error: --real needs an SM100 GPU and a CUDA build of torch: ")
    assert needle in line, line
