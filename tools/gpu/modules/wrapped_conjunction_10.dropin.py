import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):




    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass.select_((q_idx[0] <= cutlass.Int32(2147480641)), utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(min((max((kv_idx[0] - q_idx[0]), cutlass.Int32(2962)) + cutlass.Int32(-2962)), cutlass.Int32(32)))), cutlass.Uint32(0)))

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass.select_(((q_idx[0] >= cutlass.Int32(2147480641)) & (q_idx[0] <= cutlass.Int32(2147480645))), cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32(((min(max(q_idx[0], cutlass.Int32(2147480641)), cutlass.Int32(2147480645)) + cutlass.Int32(3000)) - kv_idx[0]))).ir_value(), cutlass.Uint32(cutlass.Uint32(1)).ir_value()], "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT)), cutlass.Uint32(0)))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
