// RUN: mask-opt %s --split-input-file -p pack-mask -t cute --no-remarks | filecheck %s
// RUN: mask-opt %s --split-input-file -p pack-mask -t cute-exprs --no-remarks | filecheck %s --check-prefix=EXPRS

// Unsigned aux tensors (torch uint8 .. uint64): `mask.load` of a
// `tensor<...xui8>` is the element's bits (i8), printed as the DSL's Int8 of
// the Uint8 it reads; `arith.extui` reinterprets them as Uint8 before
// widening, because the DSL extends by the *source* type's signedness
// (Int32(Int8(-56)) is -56, Int32(Uint8(200)) is 200).

// A per-head uint8 window with causal (issue 18): value ranges know the
// window is in [0, 255], so the lower end max(q - kv - w, 0) fits i32 and
// prints as `a - min(w, a)` in Int32.
mask.func @window_u8 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %win : tensor<8xui8>):
  %bits = mask.load %win[%h] : tensor<8xui8>[i32] -> i8
  %w = arith.extui %bits : i8 to i32
  %d = arith.subi %q, %kv : i32
  %near = arith.cmpi sle, %d, %w : i32
  %causal = arith.cmpi sge, %q, %kv : i32
  %keep = arith.andi %near, %causal : i1
  mask.yield %keep : i1
}

// CHECK-LABEL: def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CHECK-NEXT:     """maskopt: mask.func @window_u8, packed keep word."""
// CHECK-NEXT:     h = h_idx[0]
// CHECK-NEXT:     q = q_idx[0]
// CHECK-NEXT:     kv = kv_idx[0]
// CHECK-NEXT:     bits = cutlass.Int8(aux_tensors[0][h])
// CHECK-NEXT:     w = cutlass.Int32(cutlass.Uint8(bits))
// CHECK-NEXT:     a = (q - kv)
// CHECK-NEXT:     v = (a - min(w, a))
// CHECK-NEXT:     base = (cutlass.Uint32(kv) + cutlass.Uint32(v))
// CHECK-NEXT:     v_1 = bmsk_u32(cutlass.Uint32(v), (max((cutlass.Uint32(q) + cutlass.Uint32(1)), base) - base))
// CHECK-NEXT:     packed = cute.make_rmem_tensor(1, dtype=cutlass.Uint32)
// CHECK-NEXT:     packed[0] = v_1
// CHECK-NEXT:     return packed.load()

// EXPRS:      # mask.func @window_u8: 1 self-contained keep-mask expressions, ORed
// EXPRS-NEXT: cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), [cutlass.Uint32(cutlass.Uint32(((q_idx[0] - kv_idx[0]) - min(cutlass.Int32(cutlass.Uint8(cutlass.Int8(aux_tensors[0][h_idx[0]]))), (q_idx[0] - kv_idx[0]))))).ir_value(), {{.*}}"bmsk.clamp.b32 $0, $1, $2;"

// -----

// Per-lane code zero-extends the same way.
mask.func @gather_u8 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %ids : tensor<64xui8>):
  %bits = mask.load %ids[%kv] : tensor<64xui8>[i32] -> i8
  %id = arith.extui %bits : i8 to i32
  %c128 = arith.constant 128 : i32
  %keep = arith.cmpi sge, %id, %c128 : i32
  mask.yield %keep : i1
}

// CHECK-LABEL: def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CHECK-NEXT:     """maskopt: mask.func @gather_u8, per-lane evaluation."""
// CHECK:          for lane in cutlass.range_constexpr(32):
// CHECK-NEXT:         bits = cutlass.Int8(aux_tensors[0][kv_idx[lane]])
// CHECK-NEXT:         id = cutlass.Int32(cutlass.Uint8(bits))
// CHECK-NEXT:         keep = (id >= cutlass.Int32(128))

// EXPRS: # mask.func @gather_u8: not packed (per-lane), no self-contained expressions

// -----

// An unsigned aux scalar (a 0-dim uint16 capture) is extended the same way.
mask.func @scalar_u16 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : ui16):
  %w = arith.extui %s : ui16 to i32
  %d = arith.subi %q, %kv : i32
  %keep = arith.cmpi sle, %d, %w : i32
  mask.yield %keep : i1
}

// CHECK-LABEL: def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors, aux_scalars):
// CHECK-NEXT:     """maskopt: mask.func @scalar_u16, packed keep word."""
// CHECK-NEXT:     q = q_idx[0]
// CHECK-NEXT:     kv = kv_idx[0]
// CHECK-NEXT:     w = cutlass.Int32(cutlass.Uint16(aux_scalars[0]))
// CHECK-NEXT:     a = (q - kv)
// CHECK-NEXT:     v = (a - min(w, a))

// EXPRS:      # mask.func @scalar_u16: 1 self-contained keep-mask expressions, ORed
// EXPRS-NEXT: utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(((q_idx[0] - kv_idx[0]) - min(cutlass.Int32(cutlass.Uint16(aux_scalars[0])), (q_idx[0] - kv_idx[0])))))

// -----

// A uint64 element is its bits in i64 (torch compares uint64 only for
// equality): printed as the Int64 of the Uint64 it reads.
mask.func @same_u64 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xui64>):
  %x = mask.load %t[%h] : tensor<4xui64>[i32] -> i64
  %c0 = arith.constant 0 : i32
  %y = mask.load %t[%c0] : tensor<4xui64>[i32] -> i64
  %same = arith.cmpi eq, %x, %y : i64
  %causal = arith.cmpi sge, %q, %kv : i32
  %keep = arith.andi %same, %causal : i1
  mask.yield %keep : i1
}

// CHECK-LABEL: def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CHECK-NEXT:     """maskopt: mask.func @same_u64, packed keep word."""
// CHECK:          x = cutlass.Int64(aux_tensors[0][h])
// CHECK-NEXT:     y = cutlass.Int64(aux_tensors[0][cutlass.Int32(0)])
// CHECK-NEXT:     same = (x == y)

// EXPRS:      # mask.func @same_u64: 1 self-contained keep-mask expressions, ORed
// EXPRS-NEXT: cutlass.Uint32(cutlass.select_((cutlass.Int64(aux_tensors[0][h_idx[0]]) == cutlass.Int64(aux_tensors[0][cutlass.Int32(0)])), utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(min(max((cutlass.Int32(31) - (q_idx[0] - kv_idx[0])), cutlass.Int32(0)), cutlass.Int32(32)))), cutlass.Uint32(0)))
