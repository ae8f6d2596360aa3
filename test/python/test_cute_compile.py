"""Tests for maskopt.tools.cute_compile (CuTe DSL sm_100a compiles, no GPU)."""

import textwrap

import pytest

pytest.importorskip("cutlass")
pytest.importorskip("cutlass.cute")
pytest.importorskip("flash_attn.cute")  # the harness uses FA4's utils and SeqlenInfoQK

from maskopt.tools import cute_compile as cc  # noqa: E402

CAUSAL = textwrap.dedent(
    """\
    import cutlass
    import cutlass.cute as cute
    from flash_attn.cute import utils


    @cute.jit
    def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
        q = q_idx[0]
        kv = kv_idx[0]
        v0 = q - kv
        v1 = min(max(v0, cutlass.Int32(-1)), cutlass.Int32(31)) + cutlass.Int32(1)
        keep = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Int32(32) - v1))
        packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
        packed[0] = keep
        return packed.load()


    mask_mod.__vec_size__ = 32
    """
)

AUX_INT64 = textwrap.dedent(
    """\
    import cutlass
    import cutlass.cute as cute
    from flash_attn.cute import utils


    @cute.jit
    def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
        q = q_idx[0]
        kv = kv_idx[0]
        doc = cutlass.Int32(aux_tensors[0][b_idx[0]])
        off = cutlass.Int32(aux_tensors[1][q, cutlass.Int32(3)])
        n = min(max(q - kv + doc + off, cutlass.Int32(0)), cutlass.Int32(32))
        packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
        packed[0] = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(n))
        return packed.load()


    mask_mod.__vec_size__ = 32
    """
)

DSL_ERROR = textwrap.dedent(
    """\
    import cutlass
    import cutlass.cute as cute


    @cute.jit
    def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
        packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
        packed[0] = cute.no_such_dsl_function(q_idx[0], kv_idx[0])
        return packed.load()


    mask_mod.__vec_size__ = 32
    """
)

SCALAR_RETURN = CAUSAL.replace(
    "packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)\n    packed[0] = keep\n    return packed.load()",
    "return keep",
)


def test_count_sass_skips_nop_and_self_branch():
    text = textwrap.dedent(
        """\
                Function : k
                /*0000*/                   LDC R1, c[0x0][0x37c] ;   /* 0x0000df00ff017b82 */
                /*0010*/              @!P0 IADD3 R0, PT, PT, -R0, 0x1f, RZ ;  /* 0x0 */
                /*0020*/                   BRA 0x40 ;  /* 0x0 */
                /*0030*/                   EXIT ;   /* 0x0 */
                /*0040*/                   BRA 0x40;  /* 0x0 */
                /*0050*/                   NOP;  /* 0x0 */
        """
    )
    total, hist, per_func = cc.count_sass(text)
    assert total == 4
    assert hist == {"LDC": 1, "IADD3": 1, "BRA": 1, "EXIT": 1}
    assert per_func == {"k": 4}


def test_cuobjdump_found():
    assert cc.find_cuda_tool("cuobjdump") is not None


def test_causal_compiles_in_harness(tmp_path):
    res = cc.compile_mask_module(CAUSAL, keep_dir=tmp_path / "causal")
    assert res.ok and res.mode == "harness"
    assert res.vec_size == 32
    assert res.sass_count is not None and res.sass_count > 0
    assert res.cubin_path and res.cubin_path.endswith(".sm_100a.cubin")
    assert (tmp_path / "causal").is_dir()
    ptx = open(res.ptx_path).read()
    assert "shr.u32" in ptx and "st.global" in ptx


def test_batch_and_delta():
    delta, res, base = cc.sass_delta(CAUSAL)
    assert res.ok and base.ok
    assert res.sass_count > base.sass_count > 0
    assert delta == res.sass_count - base.sass_count > 0


def test_int64_aux_tensor_compiles():
    import torch

    res = cc.compile_mask_module(
        AUX_INT64, aux_tensor_specs=((torch.int64, (4,)), ("int32", (1024, 8)))
    )
    assert res.ok and res.sass_count > 0
    # the two aux loads survive into SASS
    assert sum(n for op, n in res.sass_histogram.items() if op.startswith("LDG")) >= 2


def test_dsl_error_raises():
    with pytest.raises(cc.CuteCompileError) as ei:
        cc.compile_mask_module(DSL_ERROR)
    assert "no_such_dsl_function" in str(ei.value)
    assert "mask module line" in str(ei.value)


def test_batch_does_not_raise():
    results = cc.compile_mask_modules([CAUSAL, DSL_ERROR, SCALAR_RETURN])
    assert [r.ok for r in results] == [True, False, False]
    assert results[0].sass_count > 0
    assert "no_such_dsl_function" in results[1].error
    # FA4 indexes mask_value[c]: a plain Uint32 return is rejected (harness does the same)
    assert "not subscriptable" in results[2].error


def test_cli(tmp_path, capsys):
    good = tmp_path / "causal.py"
    good.write_text(CAUSAL)
    bad = tmp_path / "bad.py"
    bad.write_text(DSL_ERROR)
    rc = cc.main([str(good), str(bad), "--sass"])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"{good}: OK" in out and "delta=" in out
    assert f"{bad}: ERROR" in out and "no_such_dsl_function" in out


def test_causal_compiles_in_fa4():
    pytest.importorskip("flash_attn.cute.interface")
    res = cc.compile_in_fa4(CAUSAL)
    assert res.ok and res.mode == "fa4"
    assert res.sass_count is not None and res.sass_count > 1000
    assert any("FlashAttentionForward" in f for f in res.sass_per_function)
