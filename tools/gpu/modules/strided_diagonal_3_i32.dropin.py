import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):




    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass.select_(((((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) + cutlass.Int64(2)) % cutlass.Int64(3)) + cutlass.Int64(cutlass.select_(((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) + cutlass.Int64(2)) % cutlass.Int64(3)) < cutlass.Int64(0), cutlass.Int64(3), cutlass.Int64(0)))) == cutlass.Int64(0)), (utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max((cutlass.Int32(((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) + cutlass.Int64(2)) // cutlass.Int64(3))) + cutlass.Int32(-1431655735)), cutlass.Int32(0)))) & utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max(max((cutlass.Int32(715827883) - cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) + cutlass.Int64(1)) // cutlass.Int64(3)))), (cutlass.Int32(1431655766) - cutlass.Int32(max(((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) + cutlass.Int64(2)) // cutlass.Int64(3)), cutlass.Int64(1431655734))))), cutlass.Int32(0))))), cutlass.Uint32(0)))

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass.select_((((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) % cutlass.Int64(3)) + cutlass.Int64(cutlass.select_((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) % cutlass.Int64(3)) < cutlass.Int64(0), cutlass.Int64(3), cutlass.Int64(0)))) == cutlass.Int64(0)), cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32(max(cutlass.Int32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Int32(cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) // cutlass.Int64(3)))).ir_value()], "{ .reg .b32 t; not.b32 t, $1; add.s32 $0, t, 1; }", "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT)), cutlass.Int32(0)))).ir_value(), cutlass.Uint32(cutlass.Uint32((max(min((cutlass.Int32(715827883) - cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) + cutlass.Int64(1)) // cutlass.Int64(3)))), (cutlass.Int32(1) - cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) // cutlass.Int64(3))))), max(cutlass.Int32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Int32(cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) // cutlass.Int64(3)))).ir_value()], "{ .reg .b32 t; not.b32 t, $1; add.s32 $0, t, 1; }", "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT)), cutlass.Int32(0))) - max(cutlass.Int32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Int32(cutlass.Int32((((cutlass.Int64(kv_idx[0]) * cutlass.Int64(3)) - cutlass.Int64(q_idx[0])) // cutlass.Int64(3)))).ir_value()], "{ .reg .b32 t; not.b32 t, $1; add.s32 $0, t, 1; }", "=r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT)), cutlass.Int32(0))))).ir_value()], "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT)), cutlass.Uint32(0)))

    mask_mod_packed[0] = mask_mod_packed[0] | cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32((q_idx[0] - kv_idx[0]))).ir_value(), cutlass.Uint32(cutlass.Uint32(1)).ir_value()], "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", has_side_effects=False, is_align_stack=False, asm_dialect=cutlass._mlir.dialects.llvm.AsmDialect.AD_ATT))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
