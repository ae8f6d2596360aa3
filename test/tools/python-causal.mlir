// A Python mask_mod as input (`FILE.py:FUNCTION`): traced like inductor,
// packed with pack-mask when no -p is given, printed with -t cute.
// (One mask-opt run per file: loading tools/examples/masks.py imports torch.)

// RUN: mask-opt %S/../../tools/examples/masks.py:causal -t cute | filecheck %s

// CHECK:      import cutlass
// CHECK:      @cute.jit
// CHECK-NEXT: def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CHECK-NEXT:     """maskopt: mask.func @causal, packed keep word."""
// CHECK-NEXT:     q = q_idx[0]
// CHECK-NEXT:     kv = kv_idx[0]
// CHECK-NEXT:     v = (q - kv)
// CHECK-NEXT:     v_1 = (cutlass.Int32(31) - v)
// CHECK-NEXT:     v_2 = max(v_1, cutlass.Int32(0))
// CHECK-NEXT:     v_3 = utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(min(v_2, cutlass.Int32(32))))
// CHECK-NEXT:     packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
// CHECK-NEXT:     packed[0] = v_3
// CHECK-NEXT:     return packed.load()
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NEXT: mask_mod.__vec_size__ = 32
