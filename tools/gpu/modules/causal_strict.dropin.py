import cutlass
import cutlass.cute as cute
import flash_attn.cute.utils as utils

@cute.jit
def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):




    mask_mod_packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
    mask_mod_packed[0] = cutlass.Uint32(0)

    mask_mod_packed[0] = mask_mod_packed[0] | utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(cutlass.Uint32((cutlass.Int64(max((kv_idx[0] + (cutlass.Int32(31) - q_idx[0])), cutlass.Int32(-1))) + cutlass.Int64(1)))))

    return mask_mod_packed.load()



mask_mod.__vec_size__ = 32
