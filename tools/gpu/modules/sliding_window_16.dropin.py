import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):




    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32(0x1ffff)).ir_value(), cutlass.Uint32(cutlass.Uint32((cutlass.Int64((q_idx[0] - kv_idx[0])) + cutlass.Int64(16)))).ir_value()], "{ .reg .b64 t; .reg .b32 lo; cvt.u64.u32 t, $1; shl.b64 t, t, $2; mov.b64 {lo, $0}, t; }", "=r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
