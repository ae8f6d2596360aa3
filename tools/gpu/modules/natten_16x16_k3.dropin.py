import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):




    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | (utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Int32(32) - min((cutlass.Int32(32) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), (cutlass.Int32(32) - ((cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16)) - min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14))) + cutlass.Int32(30)))))) & utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max(max((cutlass.Int32(-16) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), min(min(((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(-1)), ((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(15))), ((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(31)))), cutlass.Int32(0)))))

    mask_mod_packed[0] = mask_mod_packed[0] | (utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Int32(32) - min((cutlass.Int32(32) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), (cutlass.Int32(18) - (cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16)) - min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14))))))) & utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max((cutlass.Int32(-16) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), min(((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(15)), ((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(31)))))))

    mask_mod_packed[0] = mask_mod_packed[0] | (utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Int32(32) - min(min((cutlass.Int32(32) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), (cutlass.Int32(34) - (cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16)) - min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14))))), cutlass.Int32(32)))) & utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max((cutlass.Int32(-16) - (kv_idx[0] - (min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) // cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) * cutlass.Int32(16)))), ((min(max(cutlass.Int32(cutlass.Uint32(q_idx[0]) % cutlass.Uint32(16)), cutlass.Int32(1)), cutlass.Int32(14)) - cutlass.Int32(cutlass.Uint32(kv_idx[0]) % cutlass.Uint32(16))) + cutlass.Int32(31))))))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
