"""Every emitted module of the corpus JIT-compiles with nvidia-cutlass-dsl for
sm_100a (no GPU needed), in a harness kernel and inside FA4's real SM100
forward kernel."""

import pytest

pytest.importorskip("cutlass")

import maskopt  # noqa: E402
import torch  # noqa: E402
from conftest import compiled  # noqa: E402
from maskopt.tools import corpus  # noqa: E402
from maskopt.tools.cute_compile import compile_mask_modules  # noqa: E402
from maskopt.tools.ptx_lint import negation_into_minmax  # noqa: E402


def _sources(names):
    results = [compiled(n)[2] for n in names]
    specs = [[(t.dtype, tuple(t.shape)) for t in r.aux_tensors] for r in results]
    return [r.cute_source for r in results], specs


_T64 = torch.tensor([-(2**63), 5, 2**63 - 1], dtype=torch.int64)
_D64 = torch.tensor([-1, 3], dtype=torch.int64)
_T32 = torch.tensor([-(2**31), 7, -5], dtype=torch.int32)
_D32 = torch.tensor([-1, 3], dtype=torch.int32)


def _wrapping_and_guarded_divisions(b, h, q_idx, kv_idx):
    """Per-lane code with int64 ops computed in Uint64 (they may wrap), MIN // -1 and
    divisors guarded against -1 and 0 (see lowering/cute.py)."""
    wrap = _T64[b] * 3 + 7 > kv_idx
    div = _T64[b] // _D64[h] > kv_idx
    rem = (torch.fmod(_T32[b], _D32[h]) == 0) & ((_T32[b] % _D32[h]) + q_idx >= kv_idx)
    return wrap | div | rem | ((q_idx << 1) > kv_idx)


def test_whole_corpus_compiles_for_sm100a(tmp_path):
    names = [c.name for c in corpus.CORPUS]
    sources, specs = _sources(names)
    extra = maskopt.compile_mask(_wrapping_and_guarded_divisions)
    assert not extra.packed and "cutlass.Uint64(" in extra.cute_source
    names.append("wrapping_and_guarded_divisions")
    sources.append(extra.cute_source)
    specs.append([(t.dtype, tuple(t.shape)) for t in extra.aux_tensors])
    results = compile_mask_modules(
        sources, aux_tensor_specs=(), per_source_aux_specs=specs, keep_dir=tmp_path
    )
    failed = [(n, r.error) for n, r in zip(names, results) if not r.ok]
    assert not failed, failed
    assert all(r.sass_count and r.sass_count > 0 for r in results)
    # No negation reaches a min/max in the PTX LLVM made of them (a ptxas
    # miscompile drops it, see maskopt.tools.ptx_lint).
    hazards = {
        n: [str(h) for h in negation_into_minmax(open(r.ptx_path).read())]
        for n, r in zip(names, results)
    }
    assert {n: h for n, h in hazards.items() if h} == {}


def test_packed_masks_compile_inside_fa4_forward_kernel():
    pytest.importorskip("flash_attn.cute")
    names = ["causal", "doc_start_causal_i32"]
    sources, specs = _sources(names)
    results = compile_mask_modules(
        sources, aux_tensor_specs=(), per_source_aux_specs=specs, fa4=True
    )
    failed = [(n, r.error) for n, r in zip(names, results) if not r.ok]
    assert not failed, failed
