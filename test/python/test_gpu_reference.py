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
