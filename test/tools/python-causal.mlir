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
// CHECK-NEXT:     v = bmsk_u32(cutlass.Uint32(0), (max((cutlass.Uint32(q) + cutlass.Uint32(1)), cutlass.Uint32(kv)) - cutlass.Uint32(kv)))
// CHECK-NEXT:     packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
// CHECK-NEXT:     packed[0] = v
// CHECK-NEXT:     return packed.load()
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NEXT: mask_mod.__vec_size__ = 32
