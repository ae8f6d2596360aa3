import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):





    aux_tensors = [aux_tensors[0]]

    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32(((q_idx[0] - kv_idx[0]) - min(max((max(aux_tensors[0][h_idx[0]], cutlass.Int32(-2147483647)) + cutlass.Int32(-1)), ((q_idx[0] - kv_idx[0]) - cutlass.Int32(32))), (q_idx[0] - kv_idx[0]))))).ir_value(), cutlass.Uint32((max((cutlass.Uint32(q_idx[0]) + cutlass.Uint32(1)), (cutlass.Uint32(kv_idx[0]) + cutlass.Uint32(((q_idx[0] - kv_idx[0]) - min(max((max(aux_tensors[0][h_idx[0]], cutlass.Int32(-2147483647)) + cutlass.Int32(-1)), ((q_idx[0] - kv_idx[0]) - cutlass.Int32(32))), (q_idx[0] - kv_idx[0])))))) - (cutlass.Uint32(kv_idx[0]) + cutlass.Uint32(((q_idx[0] - kv_idx[0]) - min(max((max(aux_tensors[0][h_idx[0]], cutlass.Int32(-2147483647)) + cutlass.Int32(-1)), ((q_idx[0] - kv_idx[0]) - cutlass.Int32(32))), (q_idx[0] - kv_idx[0]))))))).ir_value()], "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
