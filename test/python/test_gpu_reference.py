"""The GPU tools' reference (tools/gpu/run_gpu_check.reference_words, run here
on the CPU device) evaluates a mask_mod as corpus.reference_words does, with
eager 0-dim type promotion. Without it, vmap cast a captured int64 scalar to
int32, and an H200 run (seed 91, masks 1695, 1721, 1987, 2242) reported the
GPU kernels wrong where only its reference was."""

import importlib.util
import sys
from pathlib import Path

import pytest
import torch

from maskopt.tools import corpus, fuzz

GPU = Path(__file__).resolve().parents[2] / "tools" / "gpu"


@pytest.fixture
def rgc(monkeypatch):
    # run_gpu_check sets CUTE_DSL_ARCH when it is unset: keep this process's value
    import os

    monkeypatch.setenv("CUTE_DSL_ARCH", os.environ.get("CUTE_DSL_ARCH", "sm_100a"))
    spec = importlib.util.spec_from_file_location("_test_run_gpu_check", GPU / "run_gpu_check.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "_test_run_gpu_check", mod)
    spec.loader.exec_module(mod)
    return mod


T1 = torch.tensor([8, 24, 2**63 - 1], dtype=torch.int64)


def _int64_scalar(b, h, q_idx, kv_idx):
    # (q + q) <= t1[-1] compares in int64 (both 0-dim): always true
    return ~((q_idx + q_idx) <= T1[-1]) | (kv_idx == q_idx)


@pytest.mark.parametrize("seed_id", [None, 1987, 2242, 1721, 1695])
def test_gpu_reference_matches_the_cpu_reference(rgc, seed_id):
    fn = _int64_scalar if seed_id is None else fuzz.random_mask(91 * 1_000_003 + seed_id).mask_mod
    pts = fuzz.sample_points(fuzz.random_mask(91 * 1_000_003 + (seed_id or 1987)))
    want = corpus.reference_words(fn, *pts)
    got = rgc.reference_words(fn, *(p.to(torch.int32) for p in pts))
    assert torch.equal(got, want)


@pytest.fixture
def rgf(rgc, monkeypatch):
    """tools/gpu/run_gpu_fuzz.py, loaded as the GPU machine runs it."""
    monkeypatch.syspath_prepend(str(GPU))
    monkeypatch.setitem(sys.modules, "run_gpu_check", rgc)
    spec = importlib.util.spec_from_file_location("_test_run_gpu_fuzz", GPU / "run_gpu_fuzz.py")
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "_test_run_gpu_fuzz", mod)
    spec.loader.exec_module(mod)
    return mod


def _u64_mask(seed=31, first=0):
    for i in range(first, first + 2000):
        m = fuzz.random_mask(seed * 1_000_003 + i)
        if "torch.uint64" in m.source:
            return m
    raise AssertionError("no uint64 mask")


def test_gpu_fuzz_reference_of_uint64_aux_runs_on_the_cpu(rgf):
    """CUDA does not index uint64 tensors ("index_cuda" not implemented for
    'UInt64'): run_gpu_fuzz computes the reference of such a mask on the
    CPU (only the reference: the kernel's aux tensors are left alone), and
    of every other mask on the device."""
    m = _u64_mask()
    assert any(t.dtype == torch.uint64 for t in rgf.captured_tensors(m.mask_mod))
    assert rgf.reference_device(m.mask_mod, "cuda") == "cpu"
    assert rgf.reference_device(m.mask_mod, "cpu") == "cpu"
    plain = fuzz.random_mask(31 * 1_000_003 + 1)
    assert "torch.uint64" not in plain.source
    assert rgf.reference_device(plain.mask_mod, "cuda:0") == "cuda:0"
    pts = fuzz.sample_points(m)
    got, where = rgf.reference_words_on(m.mask_mod, [p.to(torch.int32) for p in pts], "cpu")
    assert where == "cpu"
    assert torch.equal(got, corpus.reference_words(m.mask_mod, *pts))


def test_gpu_fuzz_reference_falls_back_to_the_cpu(rgf, monkeypatch):
    """An op the device lacks (NotImplementedError) in the reference: it is
    computed again on the CPU, with the same words."""
    m = fuzz.random_mask(31 * 1_000_003 + 1)
    pts = [p.to(torch.int32) for p in fuzz.sample_points(m)]
    real = rgf.rgc.reference_words
    calls = []

    def flaky(fn, *points, **kw):
        calls.append(points[0].device.type)
        if len(calls) == 1:
            raise NotImplementedError("\"index_cuda\" not implemented for 'UInt64'")
        return real(fn, *points, **kw)

    monkeypatch.setattr(rgf.rgc, "reference_words", flaky)
    monkeypatch.setattr(rgf, "reference_device", lambda fn, device: "meta")
    monkeypatch.setattr(rgf.rgc, "move_closure_tensors", lambda fn, device: fn)
    got, where = rgf.reference_words_on(m.mask_mod, pts, "cpu")
    assert where == "cpu" and len(calls) == 2
    assert torch.equal(got, corpus.reference_words(m.mask_mod, *pts))
