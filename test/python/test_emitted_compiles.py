"""Every emitted module of the corpus JIT-compiles with nvidia-cutlass-dsl for
sm_100a (no GPU needed), in a harness kernel and inside FA4's real SM100
forward kernel."""

import pytest

pytest.importorskip("cutlass")

from conftest import compiled  # noqa: E402
from maskopt.tools import corpus  # noqa: E402
from maskopt.tools.cute_compile import compile_mask_modules  # noqa: E402


def _sources(names):
    results = [compiled(n)[2] for n in names]
    specs = [[(t.dtype, tuple(t.shape)) for t in r.aux_tensors] for r in results]
    return [r.cute_source for r in results], specs


def test_whole_corpus_compiles_for_sm100a():
    names = [c.name for c in corpus.CORPUS]
    sources, specs = _sources(names)
    results = compile_mask_modules(sources, aux_tensor_specs=(), per_source_aux_specs=specs)
    failed = [(n, r.error) for n, r in zip(names, results) if not r.ok]
    assert not failed, failed
    assert all(r.sass_count and r.sass_count > 0 for r in results)


def test_packed_masks_compile_inside_fa4_forward_kernel():
    pytest.importorskip("flash_attn.cute")
    names = ["causal", "doc_start_causal_i32"]
    sources, specs = _sources(names)
    results = compile_mask_modules(
        sources, aux_tensor_specs=(), per_source_aux_specs=specs, fa4=True
    )
    failed = [(n, r.error) for n, r in zip(names, results) if not r.ok]
    assert not failed, failed
