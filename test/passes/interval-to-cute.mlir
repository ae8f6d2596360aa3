// RUN: mask-opt %s --split-input-file -p interval-to-cute,dce | filecheck %s

// interval-to-cute chooses the CuTe word form of every i32 lane run: each
// `interval.range` becomes `cute.lanes` of a word built from `cute` ops,
// making the choices the CuTe printer used to make (one function per form);
// `interval.periodic` and `interval.table` sets likewise, table sets of one
// shift in an intersection sharing one word.
// The named values (%lo, %base, %h) are the ones the module printer binds.
// The corpus functions are pack-mask's output for the corpus case of that name.

// A run that value ranges show empty: the word 0.
mask.func @empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %q, %c0 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @empty
// CHECK:       %[[V0:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V0]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// A run that value ranges show full: all ones.
mask.func @full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %c0 = arith.constant 0 : i32
  %c40 = arith.constant 40 : i32
  %r = interval.range %c0, %c40 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @full
// CHECK:       %[[V0:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V0]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// A suffix [lo, 32): shl_u32(ONES, max(lo, 0)), lo clamped as it may be negative.
mask.func @suffix window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %d, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @suffix
// CHECK:       %[[V0:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.max %{{.*}}, %[[V0]] : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.shl_u32 %[[V2]], %[[V1]] : i32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V3]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// An upper bound 32 - A with a lower side: shr_u32(ONES, A) & shl_u32(ONES, lo).
mask.func @shift_amount_and_lo window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c32 = arith.constant 32 : i32
  %hi = arith.subi %c32, %kv : i32
  %r = interval.range %q, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @shift_amount_and_lo
// CHECK:       %[[V0:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[V1:.*]] = cute.shr_u32 %[[V0]], %{{.*}} : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.shl_u32 %[[V2]], %{{.*}} : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.and %[[V1]], %[[V3]] : ui32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V4]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// Any other prefix: bmsk(0, max(hi, 0)).
mask.func @bmsk_prefix window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %hi = mask.load %t[%b] : tensor<4xi32>[i32] -> i32
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @bmsk_prefix
// CHECK:       %[[V0:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.max %{{.*}}, %[[V1]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.to_u32 %[[V2]] : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.bmsk %[[V0]], %[[V3]]
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V4]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// Any other range: bmsk(lo, max(hi, lo) - lo), lo clamped at 0 and named.
mask.func @bmsk_range window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %lo = mask.load %t[%b] : tensor<4xi32>[i32] -> i32
  %hi = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %r = interval.range %lo, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @bmsk_range
// CHECK:       %[[V0:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[LO_1:lo[_0-9]*]] = cute.max %{{.*}}, %[[V0]] : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.to_u32 %[[LO_1]] : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.max %{{.*}}, %[[LO_1]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.sub %[[V2]], %[[LO_1]] : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.to_u32 %[[V3]] : i32
// CHECK-NEXT:  %[[V5:.*]] = cute.bmsk %[[V1]], %[[V4]]
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.lanes %[[V5]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// interval.span: W lanes at the start a = sign * u + k.
// One lane (a diagonal, u = q - kv): bmsk(u, 1), 0 for u < 0 (an unsigned
// position >= 32).
mask.func @span_lane window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %q, %kv : i32
  %s = interval.span %u * 1 + 0 width 1 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_lane
// CHECK:       %[[U:u[_0-9]*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[P:.*]] = cute.to_u32 %[[U]] : i32
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V:.*]] = cute.bmsk %[[P]], %[[ONE]]
// CHECK-NEXT:  %[[S:s[_0-9]*]] = cute.lanes %[[V]]

// -----

// Nine lanes from a start that is never negative: bmsk(kv + 3, 9).
mask.func @span_nonneg window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %s = interval.span %kv * 1 + 3 width 9 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_nonneg
// CHECK:       %[[C3:.*]] = cute.constant 3 : i32
// CHECK-NEXT:  %[[A:.*]] = cute.add %{{.*}}, %[[C3]] : i32
// CHECK-NEXT:  %[[P:.*]] = cute.to_u32 %[[A]] : i32
// CHECK-NEXT:  %[[C9:.*]] = cute.constant 9 : ui32
// CHECK-NEXT:  %[[V:.*]] = cute.bmsk %[[P]], %[[C9]]
// CHECK-NEXT:  %[[S:s[_0-9]*]] = cute.lanes %[[V]]

// -----

// Nine lanes from a start of either sign: the high word of a 64-bit shift by
// a + 32 = u + 24, computed in Int64 and truncated (u + 24 may pass 2^31 - 1).
mask.func @span_either_sign window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %q, %kv : i32
  %s = interval.span %u * 1 + -8 width 9 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_either_sign
// CHECK:       %[[U:u[_0-9]*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[UW:.*]] = cute.to_i64 %[[U]]
// CHECK-NEXT:  %[[C24:.*]] = cute.constant 24 : i64
// CHECK-NEXT:  %[[A:.*]] = cute.add %[[UW]], %[[C24]] : i64
// CHECK-NEXT:  %[[AU:.*]] = cute.to_u32 %[[A]] : i64
// CHECK-NEXT:  %[[P:.*]] = cute.constant 511 : ui32 hex
// CHECK-NEXT:  %[[V:.*]] = cute.shl_hi64 %[[P]], %[[AU]] : ui32
// CHECK-NEXT:  %[[S:s[_0-9]*]] = cute.lanes %[[V]]

// -----

// The lane -u: the negation pushed into u = kv - q (q - kv), no `0 - x`.
mask.func @span_negated window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %kv, %q : i32
  %s = interval.span %u * -1 + 0 width 1 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_negated
// CHECK:       %[[N:.*]] = cute.sub %[[Q:.*]], %[[KV:.*]] : i32
// CHECK-NEXT:  %[[P:.*]] = cute.to_u32 %[[N]] : i32
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V:.*]] = cute.bmsk %[[P]], %[[ONE]]
// CHECK-NOT:   cute.neg_i32

// -----

// The lane 100 - u: 100 - u may pass 2^31 - 1, so it is computed in Int64
// and truncated (no op wraps).
mask.func @span_u32 window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %kv, %q : i32
  %s = interval.span %u * -1 + 100 width 1 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_u32
// CHECK:       %[[U:u[_0-9]*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[UW:.*]] = cute.to_i64 %[[U]]
// CHECK-NEXT:  %[[C100:.*]] = cute.constant 100 : i64
// CHECK-NEXT:  %[[A:.*]] = cute.sub %[[C100]], %[[UW]] : i64
// CHECK-NEXT:  %[[P:.*]] = cute.to_u32 %[[A]] : i64
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V:.*]] = cute.bmsk %[[P]], %[[ONE]]

// -----

// A start past 2^32 on part of the range (2^32 - d for an i64 d that may be
// <= 0) would alias lanes modulo 2^32: d is clamped to where the start is in
// [-1, 32] first, then subtracted from 2^32 in Int64.
mask.func @span_clamped window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %d = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %s = interval.span %d * -1 + 4294967296 width 1 : i64
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_clamped
// CHECK:       %[[D:d[_0-9]*]] = mask.load
// CHECK-NEXT:  %[[LO:.*]] = cute.constant 4294967264 : i64
// CHECK-NEXT:  %[[M:.*]] = cute.max %[[D]], %[[LO]] : i64
// CHECK-NEXT:  %[[HI:.*]] = cute.constant 4294967297 : i64
// CHECK-NEXT:  %[[C:.*]] = cute.min %[[M]], %[[HI]] : i64
// CHECK-NEXT:  %[[K:.*]] = cute.constant 4294967296 : i64
// CHECK-NEXT:  %[[A:.*]] = cute.sub %[[K]], %[[C]] : i64
// CHECK-NEXT:  %[[P:.*]] = cute.to_u32 %[[A]] : i64
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V:.*]] = cute.bmsk %[[P]], %[[ONE]]

// -----

// A start that value ranges keep at or past 32: no lane, the word 0.
mask.func @span_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %s = interval.span %kv * 1 + 32 width 4 : i32
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @span_empty
// CHECK:       %[[Z:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[S:s[_0-9]*]] = cute.lanes %[[Z]]

// -----

// A periodic set whose phase may be negative: ph = phase % P, moved up by P
// where negative (CuTe's % truncates), both named in a module.
mask.func @periodic_signed_phase window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %s = interval.periodic %x period 3 residues 5 : i64
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @periodic_signed_phase
// CHECK:       %[[V0:.*]] = cute.constant 3 : i64
// CHECK-NEXT:  %[[REM:rem[_0-9]*]] = cute.rem %{{.*}}, %[[V0]] : i64
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 0 : i64
// CHECK-NEXT:  %[[V2:.*]] = cute.lt %[[REM]], %[[V1]] : i64
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 3 : i64
// CHECK-NEXT:  %[[V4:.*]] = cute.add %[[REM]], %[[V3]] : i64
// CHECK-NEXT:  %[[V5:.*]] = cute.select %[[V2]], %[[V4]], %[[REM]] : i64
// CHECK-NEXT:  %[[PH:ph[_0-9]*]] = cute.to_i32 %[[V5]]
// CHECK-NEXT:  %[[V6:.*]] = cute.constant 1840700269 : ui32 hex
// CHECK-NEXT:  %[[V7:.*]] = cute.shr_u32 %[[V6]], %[[PH]] : i32
// CHECK-NEXT:  %[[V8:.*]] = cute.constant 32 : i32
// CHECK-NEXT:  %[[V9:.*]] = cute.sub %[[V8]], %[[PH]] : i32
// CHECK-NEXT:  %[[V10:.*]] = cute.constant 3681400539 : ui32 hex
// CHECK-NEXT:  %[[V11:.*]] = cute.shl_u32 %[[V10]], %[[V9]] : i32
// CHECK-NEXT:  %[[V12:.*]] = cute.or %[[V7]], %[[V11]] : ui32
// CHECK-NEXT:  %[[S:s[_0-9]*]] = cute.lanes %[[V12]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[S]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// Table sets of one non-negative shift in an intersection: their unshifted
// words (eager select chains on t >= v) ANDed, named tbl, then shifted right.
mask.func @tables_one_shift window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<4xi32>):
  %c7 = arith.constant 7 : i32
  %x = arith.andi %kv, %c7 : i32
  %t = mask.load %s[%b] : tensor<4xi32>[i32] -> i32
  %c2 = arith.constant 2 : i32
  %a = interval.table %x, %t table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %g = interval.table %x, %c2 gt table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %i = interval.intersect %a, %g
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @tables_one_shift
// CHECK:       %[[V0:.*]] = cute.constant 0 : ui32 hex
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.ge %{{.*}}, %[[V1]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 16843009 : ui32 hex
// CHECK-NEXT:  %[[V4:.*]] = cute.select %[[V2]], %[[V3]], %[[V0]] eager : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.constant 1 : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.ge %{{.*}}, %[[V5]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.constant 50529027 : ui32 hex
// CHECK-NEXT:  %[[V8:.*]] = cute.select %[[V6]], %[[V7]], %[[V4]] eager : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[V10:.*]] = cute.ge %{{.*}}, %[[V9]] : i32
// CHECK-NEXT:  %[[V11:.*]] = cute.constant 117901063 : ui32 hex
// CHECK-NEXT:  %[[V12:.*]] = cute.select %[[V10]], %[[V11]], %[[V8]] eager : ui32
// CHECK-NEXT:  %[[V13:.*]] = cute.constant 3 : i32
// CHECK-NEXT:  %[[V14:.*]] = cute.ge %{{.*}}, %[[V13]] : i32
// CHECK-NEXT:  %[[V15:.*]] = cute.constant 252645135 : ui32 hex
// CHECK-NEXT:  %[[V16:.*]] = cute.select %[[V14]], %[[V15]], %[[V12]] eager : ui32
// CHECK-NEXT:  %[[V17:.*]] = cute.constant 4 : i32
// CHECK-NEXT:  %[[V18:.*]] = cute.ge %{{.*}}, %[[V17]] : i32
// CHECK-NEXT:  %[[V19:.*]] = cute.constant 522133279 : ui32 hex
// CHECK-NEXT:  %[[V20:.*]] = cute.select %[[V18]], %[[V19]], %[[V16]] eager : ui32
// CHECK-NEXT:  %[[V21:.*]] = cute.constant 5 : i32
// CHECK-NEXT:  %[[V22:.*]] = cute.ge %{{.*}}, %[[V21]] : i32
// CHECK-NEXT:  %[[V23:.*]] = cute.constant 1061109567 : ui32 hex
// CHECK-NEXT:  %[[V24:.*]] = cute.select %[[V22]], %[[V23]], %[[V20]] eager : ui32
// CHECK-NEXT:  %[[V25:.*]] = cute.constant 6 : i32
// CHECK-NEXT:  %[[V26:.*]] = cute.ge %{{.*}}, %[[V25]] : i32
// CHECK-NEXT:  %[[V27:.*]] = cute.constant 2139062143 : ui32 hex
// CHECK-NEXT:  %[[V28:.*]] = cute.select %[[V26]], %[[V27]], %[[V24]] eager : ui32
// CHECK-NEXT:  %[[V29:.*]] = cute.constant 7 : i32
// CHECK-NEXT:  %[[V30:.*]] = cute.ge %{{.*}}, %[[V29]] : i32
// CHECK-NEXT:  %[[V31:.*]] = cute.constant 4294967295 : ui32 hex
// CHECK-NEXT:  %[[V32:.*]] = cute.select %[[V30]], %[[V31]], %[[V28]] eager : ui32
// CHECK-NEXT:  %[[V33:.*]] = cute.constant 4177066232 : ui32 hex
// CHECK-NEXT:  %[[TBL:tbl[_0-9]*]] = cute.and %[[V32]], %[[V33]] : ui32
// CHECK-NEXT:  %[[V34:.*]] = cute.shr_u32 %[[TBL]], %{{.*}} : i32
// CHECK-NEXT:  %[[V35:.*]] = cute.lanes %[[V34]]
// CHECK:       %[[W:w[_0-9]*]] = interval.keep_word %{{.*}} : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// A table whose shift is <= 0: shifted left by the negated shift, the
// negation pushed into the shift's difference (32 - x for x - 32).
mask.func @table_negative_shift window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<4xi32>):
  %c7 = arith.constant 7 : i32
  %x = arith.andi %kv, %c7 : i32
  %c32 = arith.constant 32 : i32
  %sh = arith.subi %x, %c32 : i32
  %t = mask.load %s[%b] : tensor<4xi32>[i32] -> i32
  %a = interval.table %sh, %t table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %w = interval.keep_word %a : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @table_negative_shift
// CHECK:       %[[V0:.*]] = cute.constant 0 : ui32 hex
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.ge %{{.*}}, %[[V1]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 16843009 : ui32 hex
// CHECK-NEXT:  %[[V4:.*]] = cute.select %[[V2]], %[[V3]], %[[V0]] eager : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.constant 1 : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.ge %{{.*}}, %[[V5]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.constant 50529027 : ui32 hex
// CHECK-NEXT:  %[[V8:.*]] = cute.select %[[V6]], %[[V7]], %[[V4]] eager : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[V10:.*]] = cute.ge %{{.*}}, %[[V9]] : i32
// CHECK-NEXT:  %[[V11:.*]] = cute.constant 117901063 : ui32 hex
// CHECK-NEXT:  %[[V12:.*]] = cute.select %[[V10]], %[[V11]], %[[V8]] eager : ui32
// CHECK-NEXT:  %[[V13:.*]] = cute.constant 3 : i32
// CHECK-NEXT:  %[[V14:.*]] = cute.ge %{{.*}}, %[[V13]] : i32
// CHECK-NEXT:  %[[V15:.*]] = cute.constant 252645135 : ui32 hex
// CHECK-NEXT:  %[[V16:.*]] = cute.select %[[V14]], %[[V15]], %[[V12]] eager : ui32
// CHECK-NEXT:  %[[V17:.*]] = cute.constant 4 : i32
// CHECK-NEXT:  %[[V18:.*]] = cute.ge %{{.*}}, %[[V17]] : i32
// CHECK-NEXT:  %[[V19:.*]] = cute.constant 522133279 : ui32 hex
// CHECK-NEXT:  %[[V20:.*]] = cute.select %[[V18]], %[[V19]], %[[V16]] eager : ui32
// CHECK-NEXT:  %[[V21:.*]] = cute.constant 5 : i32
// CHECK-NEXT:  %[[V22:.*]] = cute.ge %{{.*}}, %[[V21]] : i32
// CHECK-NEXT:  %[[V23:.*]] = cute.constant 1061109567 : ui32 hex
// CHECK-NEXT:  %[[V24:.*]] = cute.select %[[V22]], %[[V23]], %[[V20]] eager : ui32
// CHECK-NEXT:  %[[V25:.*]] = cute.constant 6 : i32
// CHECK-NEXT:  %[[V26:.*]] = cute.ge %{{.*}}, %[[V25]] : i32
// CHECK-NEXT:  %[[V27:.*]] = cute.constant 2139062143 : ui32 hex
// CHECK-NEXT:  %[[V28:.*]] = cute.select %[[V26]], %[[V27]], %[[V24]] eager : ui32
// CHECK-NEXT:  %[[V29:.*]] = cute.constant 7 : i32
// CHECK-NEXT:  %[[V30:.*]] = cute.ge %{{.*}}, %[[V29]] : i32
// CHECK-NEXT:  %[[V31:.*]] = cute.constant 4294967295 : ui32 hex
// CHECK-NEXT:  %[[V32:.*]] = cute.select %[[V30]], %[[V31]], %[[V28]] eager : ui32
// CHECK-NEXT:  %[[V33:.*]] = cute.sub %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[V34:.*]] = cute.shl_u32 %[[V32]], %[[V33]] : i32
// CHECK-NEXT:  %[[A:a[_0-9]*]] = cute.lanes %[[V34]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[A]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// A table whose shift may have either sign: a select between the two shifts.
mask.func @table_either_shift window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<4xi32>):
  %sh = mask.load %s[%h] : tensor<4xi32>[i32] -> i32
  %t = mask.load %s[%b] : tensor<4xi32>[i32] -> i32
  %a = interval.table %sh, %t table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %w = interval.keep_word %a : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @table_either_shift
// CHECK:       %[[V0:.*]] = cute.constant 0 : ui32 hex
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V2:.*]] = cute.ge %{{.*}}, %[[V1]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 16843009 : ui32 hex
// CHECK-NEXT:  %[[V4:.*]] = cute.select %[[V2]], %[[V3]], %[[V0]] eager : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.constant 1 : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.ge %{{.*}}, %[[V5]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.constant 50529027 : ui32 hex
// CHECK-NEXT:  %[[V8:.*]] = cute.select %[[V6]], %[[V7]], %[[V4]] eager : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[V10:.*]] = cute.ge %{{.*}}, %[[V9]] : i32
// CHECK-NEXT:  %[[V11:.*]] = cute.constant 117901063 : ui32 hex
// CHECK-NEXT:  %[[V12:.*]] = cute.select %[[V10]], %[[V11]], %[[V8]] eager : ui32
// CHECK-NEXT:  %[[V13:.*]] = cute.constant 3 : i32
// CHECK-NEXT:  %[[V14:.*]] = cute.ge %{{.*}}, %[[V13]] : i32
// CHECK-NEXT:  %[[V15:.*]] = cute.constant 252645135 : ui32 hex
// CHECK-NEXT:  %[[V16:.*]] = cute.select %[[V14]], %[[V15]], %[[V12]] eager : ui32
// CHECK-NEXT:  %[[V17:.*]] = cute.constant 4 : i32
// CHECK-NEXT:  %[[V18:.*]] = cute.ge %{{.*}}, %[[V17]] : i32
// CHECK-NEXT:  %[[V19:.*]] = cute.constant 522133279 : ui32 hex
// CHECK-NEXT:  %[[V20:.*]] = cute.select %[[V18]], %[[V19]], %[[V16]] eager : ui32
// CHECK-NEXT:  %[[V21:.*]] = cute.constant 5 : i32
// CHECK-NEXT:  %[[V22:.*]] = cute.ge %{{.*}}, %[[V21]] : i32
// CHECK-NEXT:  %[[V23:.*]] = cute.constant 1061109567 : ui32 hex
// CHECK-NEXT:  %[[V24:.*]] = cute.select %[[V22]], %[[V23]], %[[V20]] eager : ui32
// CHECK-NEXT:  %[[V25:.*]] = cute.constant 6 : i32
// CHECK-NEXT:  %[[V26:.*]] = cute.ge %{{.*}}, %[[V25]] : i32
// CHECK-NEXT:  %[[V27:.*]] = cute.constant 2139062143 : ui32 hex
// CHECK-NEXT:  %[[V28:.*]] = cute.select %[[V26]], %[[V27]], %[[V24]] eager : ui32
// CHECK-NEXT:  %[[V29:.*]] = cute.constant 7 : i32
// CHECK-NEXT:  %[[V30:.*]] = cute.ge %{{.*}}, %[[V29]] : i32
// CHECK-NEXT:  %[[V31:.*]] = cute.constant 4294967295 : ui32 hex
// CHECK-NEXT:  %[[TBL:tbl[_0-9]*]] = cute.select %[[V30]], %[[V31]], %[[V28]] eager : ui32
// CHECK-NEXT:  %[[V32:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V33:.*]] = cute.ge %{{.*}}, %[[V32]] : i32
// CHECK-NEXT:  %[[V34:.*]] = cute.shr_u32 %[[TBL]], %{{.*}} : i32
// CHECK-NEXT:  %[[V35:.*]] = cute.neg_i32 %{{.*}}
// CHECK-NEXT:  %[[V36:.*]] = cute.shl_u32 %[[TBL]], %[[V35]] : i32
// CHECK-NEXT:  %[[V37:.*]] = cute.select %[[V33]], %[[V34]], %[[V36]] : ui32
// CHECK-NEXT:  %[[A:a[_0-9]*]] = cute.lanes %[[V37]]
// CHECK-NEXT:  %[[W:w[_0-9]*]] = interval.keep_word %[[A]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32

// -----

// causal: A prefix whose bound is the shift amount A = max(31 - (q - kv), 0): shr_u32(ONES, min(A, 32)), the clamp kept (FA4 compiles it smallest).
mask.func @causal window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.constant 31 : i32
  %2 = arith.subi %1, %0 : i32
  %3 = arith.constant 0 : i32
  %4 = arith.maxsi %2, %3 : i32
  %5 = arith.constant 32 : i32
  %6 = arith.subi %5, %4 : i32
  %7 = interval.range %3, %6 : i32
  %keep = interval.keep_word %7 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @causal
// CHECK:       %[[V5:.*]] = cute.constant 32 : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.min %{{.*}}, %[[V5]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.shr_u32 %[[V7]], %[[V6]] : i32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V8]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// sliding_window_100: An affine causal end with lower_start: base = max(q - 100, kv), lo = base - kv, bmsk(lo, max(q + 1, base) - base) in Uint32.
mask.func @sliding_window_100 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.constant 100 : i32
  %2 = arith.maxsi %0, %1 : i32
  %3 = arith.constant -100 : i32
  %4 = arith.addi %2, %3 : i32
  %5 = arith.constant 31 : i32
  %6 = arith.subi %5, %0 : i32
  %7 = arith.constant 0 : i32
  %8 = arith.maxsi %6, %7 : i32
  %9 = arith.constant 32 : i32
  %10 = arith.subi %9, %8 : i32
  %11 = interval.range %4, %10 : i32
  %keep = interval.keep_word %11 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @sliding_window_100
// CHECK:       %[[V0:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V2:.*]] = cute.add %[[V0]], %[[V1]] : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 100 : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.sub %{{.*}}, %[[V3]] : i32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.max %[[V4]], %{{.*}} : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.sub %[[BASE]], %{{.*}} : i32
// CHECK-NEXT:  %[[V5:.*]] = cute.to_u32 %[[LO]] : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.to_u32 %[[BASE]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.max %[[V2]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.sub %[[V7]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.bmsk %[[V5]], %[[V8]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V9]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// bottom_right_causal: A guarded prefix whose width may pass 2^31 - 1 (offset_max_prefix): a right shift by max(kv + h, -1) + 1 with the q-only h = 30 - max(add, -1); kv + h stays in i32, the + 1 is exact in Int64.
mask.func @bottom_right_causal window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.constant 768 : i32
  %1 = arith.extsi %q_idx : i32 to i64
  %2 = arith.extsi %0 : i32 to i64
  %3 = arith.addi %1, %2 : i64
  %add = arith.trunci %3 : i64 to i32
  %4 = arith.constant -1 : i32
  %5 = arith.maxsi %add, %4 : i32
  %6 = arith.subi %5, %kv_idx : i32
  %7 = arith.constant 31 : i32
  %8 = arith.minsi %6, %7 : i32
  %9 = arith.constant 1 : i32
  %10 = arith.addi %8, %9 : i32
  %11 = arith.constant 0 : i32
  %12 = interval.range %11, %10 : i32
  %keep = interval.keep_word %12 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @bottom_right_causal
// CHECK:       %[[XC:.*]] = arith.maxsi %add, %{{.*}} : i32
// CHECK-NEXT:  %[[C30:.*]] = cute.constant 30 : i32
// CHECK-NEXT:  %[[H_1:h[_0-9]*]] = cute.sub %[[C30]], %[[XC]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.add %kv_idx, %[[H_1]] : i32
// CHECK-NEXT:  %[[M1:.*]] = cute.constant -1 : i32
// CHECK-NEXT:  %[[V9:.*]] = cute.max %[[V7]], %[[M1]] : i32
// CHECK-NEXT:  %[[V10:.*]] = cute.to_i64 %[[V9]]
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : i64
// CHECK-NEXT:  %[[V12:.*]] = cute.add %[[V10]], %[[ONE]] : i64
// CHECK-NEXT:  %[[A:.*]] = cute.to_u32 %[[V12]] : i64
// CHECK-NEXT:  %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[W:.*]] = cute.shr_u32 %[[ONES]], %[[A]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// per_batch_offset_causal: the same guarded prefix with X = q + off[b] read from an aux tensor (select_source_prefix): the source word is ONES where add >= 0 (else no lane is kept), shifted right by max(kv + h, 0) with h = 31 - max(add, 0); kv + h stays in i32, and no + 1 follows the max (FA4's kernel: +121 against +180 for offset_max_prefix).
mask.func @per_batch_offset_causal window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %off: tensor<4xi32>):
  %index = mask.load %off[%b] : tensor<4xi32>[i32] -> i32
  %0 = arith.extsi %q_idx : i32 to i64
  %1 = arith.extsi %index : i32 to i64
  %2 = arith.addi %0, %1 : i64
  %add = arith.trunci %2 : i64 to i32
  %3 = arith.constant -1 : i32
  %4 = arith.maxsi %add, %3 : i32
  %5 = arith.subi %4, %kv_idx : i32
  %6 = arith.constant 31 : i32
  %7 = arith.minsi %5, %6 : i32
  %8 = arith.constant 1 : i32
  %9 = arith.addi %7, %8 : i32
  %10 = arith.constant 0 : i32
  %11 = interval.range %10, %9 : i32
  %keep = interval.keep_word %11 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @per_batch_offset_causal
// CHECK:       %[[ADD:add[_0-9]*]] = arith.trunci
// CHECK-NOT:   cute.to_i64
// CHECK:       %[[ZERO:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[GE:.*]] = cute.ge %[[ADD]], %[[ZERO]] : i32
// CHECK-NEXT:  %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[NONE:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.select %[[GE]], %[[ONES]], %[[NONE]] : ui32
// CHECK-NEXT:  %[[C31:.*]] = cute.constant 31 : i32
// CHECK-NEXT:  %[[ZERO2:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[XC:.*]] = cute.max %[[ADD]], %[[ZERO2]] : i32
// CHECK-NEXT:  %[[H_1:h[_0-9]*]] = cute.sub %[[C31]], %[[XC]] : i32
// CHECK-NEXT:  %[[S:.*]] = cute.add %kv_idx, %[[H_1]] : i32
// CHECK-NEXT:  %[[ZERO3:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[A:.*]] = cute.max %[[S]], %[[ZERO3]] : i32
// CHECK-NEXT:  %[[W:.*]] = cute.shr_u32 %[[BASE]], %[[A]] : i32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// unsigned_offset_prefix: the same prefix where y (here q_idx, up to 2^31 - 1) is too wide for y + h in i32: a right shift by the unsigned amount max(y + h, 2^31 - 32) - (2^31 - 32), h named.
mask.func @unsigned_offset_prefix_wide_y window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.constant 768 : i32
  %1 = arith.extsi %h : i32 to i64
  %2 = arith.extsi %0 : i32 to i64
  %3 = arith.addi %1, %2 : i64
  %add = arith.trunci %3 : i64 to i32
  %4 = arith.constant -1 : i32
  %5 = arith.maxsi %add, %4 : i32
  %6 = arith.subi %5, %q_idx : i32
  %7 = arith.constant 31 : i32
  %8 = arith.minsi %6, %7 : i32
  %9 = arith.constant 1 : i32
  %10 = arith.addi %8, %9 : i32
  %11 = arith.constant 0 : i32
  %12 = interval.range %11, %10 : i32
  %keep = interval.keep_word %12 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @unsigned_offset_prefix_wide_y
// CHECK:       %[[V6:.*]] = cute.constant 2147483647 : i64
// CHECK-NEXT:  %[[V7:.*]] = cute.to_i64 %{{.*}}
// CHECK-NEXT:  %[[V8:.*]] = cute.sub %[[V6]], %[[V7]] : i64
// CHECK-NEXT:  %[[H_1:h[_0-9]*]] = cute.to_u32 %[[V8]] : i64
// CHECK-NEXT:  %[[V9:.*]] = cute.constant 2147483616 : ui32
// CHECK-NEXT:  %[[V10:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V11:.*]] = cute.add %[[V10]], %[[H_1]] : ui32
// CHECK-NEXT:  %[[V12:.*]] = cute.max %[[V11]], %[[V9]] : ui32
// CHECK-NEXT:  %[[V13:.*]] = cute.sub %[[V12]], %[[V9]] : ui32
// CHECK-NEXT:  %[[V14:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[V15:.*]] = cute.shr_u32 %[[V14]], %[[V13]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V15]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// bottom_right_window_256: guarded_lower_start: base = max(Uint32(X) + k, Uint32(kv)) for a lower bound min(X - kv, c) + k.
mask.func @bottom_right_window_256 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.constant -737 : i32
  %2 = arith.minsi %0, %1 : i32
  %3 = arith.subi %1, %2 : i32
  %4 = arith.constant 32 : i32
  %5 = arith.subi %4, %3 : i32
  %6 = arith.constant -480 : i32
  %7 = arith.minsi %0, %6 : i32
  %8 = arith.constant 512 : i32
  %9 = arith.addi %7, %8 : i32
  %10 = interval.range %9, %5 : i32
  %keep = interval.keep_word %10 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @bottom_right_window_256
// CHECK:       %[[V0:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 769 : ui32
// CHECK-NEXT:  %[[V2:.*]] = cute.add %[[V0]], %[[V1]] : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.constant 512 : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.add %[[V3]], %[[V4]] : ui32
// CHECK-NEXT:  %[[V6:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.max %[[V5]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V7:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.sub %[[BASE]], %[[V7]] : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.max %[[V2]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.sub %[[V8]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V10:.*]] = cute.bmsk %[[LO]], %[[V9]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V10]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// doc_start_causal_i64: wide_lower_start: base = max(sat_u32(start), Uint32(kv)) for an i64 start.
mask.func @doc_start_causal_i64 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %doc_ids: tensor<1056xi64>, %starts: tensor<8xi64>):
  %index = mask.load %doc_ids[%q_idx] : tensor<1056xi64>[i32] -> i64
  %index_1 = mask.load %starts[%index] : tensor<8xi64>[i64] -> i64
  %0 = arith.constant 1099511627776 : i64
  %1 = arith.constant -1099511627776 : i64
  %2 = arith.minsi %index_1, %0 : i64
  %3 = arith.maxsi %2, %1 : i64
  %4 = arith.extsi %kv_idx : i32 to i64
  %5 = arith.subi %3, %4 : i64
  %6 = arith.subi %kv_idx, %q_idx : i32
  %7 = arith.constant 0 : i64
  %8 = arith.maxsi %5, %7 : i64
  %9 = arith.constant 32 : i64
  %10 = arith.minsi %8, %9 : i64
  %11 = arith.trunci %10 : i64 to i32
  %12 = arith.constant 31 : i32
  %13 = arith.addi %6, %12 : i32
  %14 = arith.constant 0 : i32
  %15 = arith.maxsi %13, %14 : i32
  %16 = arith.constant 32 : i32
  %17 = arith.subi %16, %15 : i32
  %18 = interval.range %11, %17 : i32
  %keep = interval.keep_word %18 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @doc_start_causal_i64
// CHECK:       %[[V0:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V2:.*]] = cute.add %[[V0]], %[[V1]] : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.sat_u32 %{{.*}}
// CHECK-NEXT:  %[[V4:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.max %[[V3]], %[[V4]] : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.sub %[[BASE]], %[[V5]] : ui32
// CHECK-NEXT:  %[[V6:.*]] = cute.max %[[V2]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V7:.*]] = cute.sub %[[V6]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.bmsk %[[LO]], %[[V7]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V8]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// kv_padding_i64 (kv < len[b], an int64 length): wide_clamped_difference: the upper
// end 0 - trunc(clamp(kv - len, -32, 0)) keeps the lanes with kv + L < len,
// those with kv + L < sat_u32(len) (kv + L < 2^31): the Uint32 width
// max(sat_u32(len), Uint32(kv)) - Uint32(kv), bmsk clipping it at 32; the
// +-2^40 guard clamps of len are looked through.
mask.func @kv_padding_i64 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %kv_len: tensor<4xi64>):
  %index = mask.load %kv_len[%b] : tensor<4xi64>[i32] -> i64
  %0 = arith.constant 1099511627776 : i64
  %1 = arith.constant -1099511627776 : i64
  %2 = arith.minsi %index, %0 : i64
  %3 = arith.maxsi %2, %1 : i64
  %4 = arith.extsi %kv_idx : i32 to i64
  %5 = arith.subi %4, %3 : i64
  %6 = arith.constant -32 : i64
  %7 = arith.maxsi %5, %6 : i64
  %8 = arith.constant 0 : i64
  %9 = arith.minsi %7, %8 : i64
  %10 = arith.trunci %9 : i64 to i32
  %11 = arith.constant 0 : i32
  %12 = arith.subi %11, %10 : i32
  %13 = interval.range %11, %12 : i32
  %keep = interval.keep_word %13 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @kv_padding_i64
// CHECK:       %[[LEN:index[_0-9]*]] = mask.load
// CHECK-NEXT:  %[[S:.*]] = cute.sat_u32 %[[LEN]]
// CHECK-NEXT:  %[[KV:.*]] = cute.to_u32 %kv_idx : i32
// CHECK-NEXT:  %[[Z:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[M:.*]] = cute.max %[[S]], %[[KV]] : ui32
// CHECK-NEXT:  %[[W:.*]] = cute.sub %[[M]], %[[KV]] : ui32
// CHECK-NEXT:  %[[B:.*]] = cute.bmsk %[[Z]], %[[W]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[B]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// symmetric_window_40: An affine end whose lower bound has no start form: lo = max(lo, 0) named, base = Uint32(y) + Uint32(lo).
mask.func @symmetric_window_40 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.subi %kv_idx, %q_idx : i32
  %2 = arith.constant 31 : i32
  %3 = arith.minsi %0, %2 : i32
  %4 = arith.constant 1 : i32
  %5 = arith.addi %3, %4 : i32
  %6 = arith.constant 9 : i32
  %7 = arith.maxsi %1, %6 : i32
  %8 = arith.constant -9 : i32
  %9 = arith.addi %7, %8 : i32
  %10 = arith.constant 32 : i32
  %11 = arith.subi %10, %9 : i32
  %12 = arith.constant 40 : i32
  %13 = arith.maxsi %0, %12 : i32
  %14 = arith.constant -40 : i32
  %15 = arith.addi %13, %14 : i32
  %16 = interval.range %5, %11 : i32
  %17 = interval.range %15, %5 : i32
  %18 = interval.union %16, %17
  %keep = interval.keep_word %18 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @symmetric_window_40
// CHECK:       %[[V12:.*]] = cute.constant 41 : ui32
// CHECK-NEXT:  %[[V13:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V14:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.max %{{.*}}, %[[V14]] : i32
// CHECK-NEXT:  %[[V15:.*]] = cute.to_u32 %[[LO]] : i32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.add %[[V13]], %[[V15]] : ui32
// CHECK-NEXT:  %[[V16:.*]] = cute.max %[[BASE]], %[[V12]] : ui32
// CHECK-NEXT:  %[[V17:.*]] = cute.sub %[[V16]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V18:.*]] = cute.bmsk %[[V15]], %[[V17]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V18]]
// CHECK-NEXT:  %[[V19:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V20:.*]] = cute.max %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[V21:.*]] = cute.sub %[[V20]], %{{.*}} : i32
// CHECK-NEXT:  %[[V22:.*]] = cute.to_u32 %[[V21]] : i32
// CHECK-NEXT:  %[[V23:.*]] = cute.bmsk %[[V19]], %[[V22]]
// CHECK-NEXT:  %[[V_1:v[_0-9]*]] = cute.lanes %[[V23]]
// CHECK:       %[[KEEP:keep[_0-9]*]] = interval.keep_word %{{.*}} : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// prefix_lm_77: an affine prefix whose top is max(q + 1, 77): bmsk(0, max(max(Uint32(q) + 1, 77), Uint32(kv)) - Uint32(kv)), the constant never a left operand.
mask.func @prefix_lm_77 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.constant 77 : i32
  %2 = arith.subi %1, %kv_idx : i32
  %3 = arith.constant 31 : i32
  %4 = arith.subi %3, %0 : i32
  %5 = arith.constant 0 : i32
  %6 = arith.maxsi %4, %5 : i32
  %7 = arith.constant 32 : i32
  %8 = arith.subi %7, %6 : i32
  %9 = arith.maxsi %2, %8 : i32
  %10 = interval.range %5, %9 : i32
  %keep = interval.keep_word %10 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @prefix_lm_77
// CHECK:       %[[V0:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V2:.*]] = cute.add %[[V0]], %[[V1]] : ui32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 77 : ui32
// CHECK-NEXT:  %[[V4:.*]] = cute.max %[[V2]], %[[V3]] : ui32
// CHECK-NEXT:  %[[V5:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.constant 0 : ui32
// CHECK-NEXT:  %[[V7:.*]] = cute.max %[[V4]], %[[V5]] : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.sub %[[V7]], %[[V5]] : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.bmsk %[[V6]], %[[V8]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V9]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// chunked_causal_96: An affine end with a chunk start (lower_start through the chunk's clamp).
mask.func @chunked_causal_96 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.constant 96 : i32
  %div = arith.floordivsi %q_idx, %0 : i32
  %1 = arith.muli %div, %0 : i32
  %2 = arith.subi %kv_idx, %1 : i32
  %3 = arith.subi %q_idx, %kv_idx : i32
  %4 = arith.constant 0 : i32
  %5 = arith.subi %4, %2 : i32
  %6 = arith.constant 31 : i32
  %7 = arith.subi %6, %3 : i32
  %8 = arith.maxsi %7, %4 : i32
  %9 = arith.constant 32 : i32
  %10 = arith.subi %9, %8 : i32
  %11 = interval.range %5, %10 : i32
  %keep = interval.keep_word %11 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @chunked_causal_96
// CHECK:       %[[V2:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[V4:.*]] = cute.add %[[V2]], %[[V3]] : ui32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.max %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.sub %[[BASE]], %{{.*}} : i32
// CHECK-NEXT:  %[[V5:.*]] = cute.to_u32 %[[LO]] : i32
// CHECK-NEXT:  %[[V6:.*]] = cute.to_u32 %[[BASE]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.max %[[V4]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V8:.*]] = cute.sub %[[V7]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V9:.*]] = cute.bmsk %[[V5]], %[[V8]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V9]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// odd_kv: A periodic set whose phase is in range: no reduction, the pattern's halves in hex.
mask.func @odd_kv window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = interval.periodic %kv_idx period 2 residues 2 : i32
  %keep = interval.keep_word %0 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @odd_kv
// CHECK:       %[[V0:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[PH:ph[_0-9]*]] = cute.rem %{{.*}}, %[[V0]] : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 2863311530 : ui32 hex
// CHECK-NEXT:  %[[V2:.*]] = cute.shr_u32 %[[V1]], %[[PH]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 32 : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.sub %[[V3]], %[[PH]] : i32
// CHECK-NEXT:  %[[V5:.*]] = cute.constant 2863311530 : ui32 hex
// CHECK-NEXT:  %[[V6:.*]] = cute.shl_u32 %[[V5]], %[[V4]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.or %[[V2]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V7]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// kv_mod5_lt2: A periodic set of a non-negative phase: ph = phase % P, named.
mask.func @kv_mod5_lt2 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = interval.periodic %kv_idx period 5 residues 3 : i32
  %keep = interval.keep_word %0 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @kv_mod5_lt2
// CHECK:       %[[V0:.*]] = cute.constant 5 : i32
// CHECK-NEXT:  %[[PH:ph[_0-9]*]] = cute.rem %{{.*}}, %[[V0]] : i32
// CHECK-NEXT:  %[[V1:.*]] = cute.constant 3325135971 : ui32 hex
// CHECK-NEXT:  %[[V2:.*]] = cute.shr_u32 %[[V1]], %[[PH]] : i32
// CHECK-NEXT:  %[[V3:.*]] = cute.constant 32 : i32
// CHECK-NEXT:  %[[V4:.*]] = cute.sub %[[V3]], %[[PH]] : i32
// CHECK-NEXT:  %[[V5:.*]] = cute.constant 831283992 : ui32 hex
// CHECK-NEXT:  %[[V6:.*]] = cute.shl_u32 %[[V5]], %[[V4]] : i32
// CHECK-NEXT:  %[[V7:.*]] = cute.or %[[V2]], %[[V6]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V7]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// dilated_sliding_window_64_d2: A window intersected with a periodic set: both lowered, the intersection stays.
mask.func @dilated_sliding_window_64_d2 window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %1 = arith.subi %kv_idx, %q_idx : i32
  %2 = arith.constant 31 : i32
  %3 = arith.minsi %0, %2 : i32
  %4 = arith.constant 1 : i32
  %5 = arith.addi %3, %4 : i32
  %6 = arith.constant 33 : i32
  %7 = arith.maxsi %1, %6 : i32
  %8 = arith.constant -33 : i32
  %9 = arith.addi %7, %8 : i32
  %10 = arith.constant 32 : i32
  %11 = arith.subi %10, %9 : i32
  %12 = arith.constant 64 : i32
  %13 = arith.maxsi %0, %12 : i32
  %14 = arith.constant -64 : i32
  %15 = arith.addi %13, %14 : i32
  %16 = interval.periodic %1 period 2 residues 1 : i32
  %17 = interval.range %5, %11 : i32
  %18 = interval.intersect %17, %16
  %19 = interval.range %15, %5 : i32
  %20 = interval.intersect %19, %16
  %21 = interval.union %18, %20
  %keep = interval.keep_word %21 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @dilated_sliding_window_64_d2
// CHECK:       %[[V12:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[REM:rem[_0-9]*]] = cute.rem %{{.*}}, %[[V12]] : i32
// CHECK-NEXT:  %[[V13:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[V14:.*]] = cute.lt %[[REM]], %[[V13]] : i32
// CHECK-NEXT:  %[[V15:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[V16:.*]] = cute.add %[[REM]], %[[V15]] : i32
// CHECK-NEXT:  %[[PH:ph[_0-9]*]] = cute.select %[[V14]], %[[V16]], %[[REM]] : i32
// CHECK-NEXT:  %[[V17:.*]] = cute.constant 1431655765 : ui32 hex
// CHECK-NEXT:  %[[V18:.*]] = cute.shr_u32 %[[V17]], %[[PH]] : i32
// CHECK-NEXT:  %[[V19:.*]] = cute.constant 32 : i32
// CHECK-NEXT:  %[[V20:.*]] = cute.sub %[[V19]], %[[PH]] : i32
// CHECK-NEXT:  %[[V21:.*]] = cute.constant 1431655765 : ui32 hex
// CHECK-NEXT:  %[[V22:.*]] = cute.shl_u32 %[[V21]], %[[V20]] : i32
// CHECK-NEXT:  %[[V23:.*]] = cute.or %[[V18]], %[[V22]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[V23]]
// CHECK-NEXT:  %[[V24:.*]] = cute.constant 65 : ui32
// CHECK-NEXT:  %[[V25:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V26:.*]] = cute.constant 0 : i32
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.max %{{.*}}, %[[V26]] : i32
// CHECK-NEXT:  %[[V27:.*]] = cute.to_u32 %[[LO]] : i32
// CHECK-NEXT:  %[[BASE:base[_0-9]*]] = cute.add %[[V25]], %[[V27]] : ui32
// CHECK-NEXT:  %[[V28:.*]] = cute.max %[[BASE]], %[[V24]] : ui32
// CHECK-NEXT:  %[[V29:.*]] = cute.sub %[[V28]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[V30:.*]] = cute.bmsk %[[V27]], %[[V29]]
// CHECK-NEXT:  %[[V_1:v[_0-9]*]] = cute.lanes %[[V30]]
// CHECK:       %[[V32:.*]] = cute.to_u32 %{{.*}} : i32
// CHECK-NEXT:  %[[V33:.*]] = cute.max %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[V34:.*]] = cute.sub %[[V33]], %{{.*}} : i32
// CHECK-NEXT:  %[[V35:.*]] = cute.to_u32 %[[V34]] : i32
// CHECK-NEXT:  %[[V36:.*]] = cute.bmsk %[[V32]], %[[V35]]
// CHECK-NEXT:  %[[V_2:v[_0-9]*]] = cute.lanes %[[V36]]
// CHECK:       %[[KEEP:keep[_0-9]*]] = interval.keep_word %{{.*}} : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// per_head_strict_window: (q >= kv) & (q - kv < w[h]). The lower end trunc(clamp((q - kv) - w, -1, 31)) + 1 cannot be narrowed to i32
// as it stands (a - clamp(w, a - 31, a + 1) needs q - kv + 1), so fold_start_offset folds the + 1 into the window: the start is
// a - clamp(w - 1, a - 32, a) (a = q - kv), with w - 1 saturated at -2^31 as max(w, -2^31 + 1) - 1; the word is then the
// non-strict window's bmsk from the first kv position kv + start.
mask.func @per_head_strict_window window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %win: tensor<8xi32>):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %index = mask.load %win[%h] : tensor<8xi32>[i32] -> i32
  %1 = arith.extsi %q_idx : i32 to i64
  %2 = arith.extsi %kv_idx : i32 to i64
  %3 = arith.subi %1, %2 : i64
  %4 = arith.extsi %index : i32 to i64
  %5 = arith.subi %3, %4 : i64
  %6 = arith.constant 31 : i32
  %7 = arith.subi %6, %0 : i32
  %8 = arith.constant 0 : i32
  %9 = arith.maxsi %7, %8 : i32
  %10 = arith.constant 32 : i32
  %11 = arith.subi %10, %9 : i32
  %12 = arith.constant -1 : i64
  %13 = arith.maxsi %5, %12 : i64
  %14 = arith.constant 31 : i64
  %15 = arith.minsi %13, %14 : i64
  %16 = arith.trunci %15 : i64 to i32
  %17 = arith.constant 1 : i32
  %18 = arith.addi %16, %17 : i32
  %19 = interval.range %18, %11 : i32
  %keep = interval.keep_word %19 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @per_head_strict_window
// CHECK:       %[[A:.*]] = cute.sub %q_idx, %kv_idx : i32
// CHECK-NEXT:  %[[MIN1:.*]] = cute.constant -2147483647 : i32
// CHECK-NEXT:  %[[WS:.*]] = cute.max %index, %[[MIN1]] : i32
// CHECK-NEXT:  %[[M1:.*]] = cute.constant -1 : i32
// CHECK-NEXT:  %[[W1:.*]] = cute.add %[[WS]], %[[M1]] : i32
// CHECK-NEXT:  %[[LO:v[_0-9]*]] = cute.clamped_sub %[[A]], %[[W1]] lo 0 hi 32 : i32
// CHECK-NOT:   i64
// CHECK:       %[[BASE:base[_0-9]*]] = cute.add %{{.*}}, %{{.*}} : ui32
// CHECK-NEXT:  %[[TOP:.*]] = cute.max %{{.*}}, %[[BASE]] : ui32
// CHECK-NEXT:  %[[WIDTH:.*]] = cute.sub %[[TOP]], %[[BASE]] : ui32
// CHECK-NEXT:  %[[W:.*]] = cute.bmsk %{{.*}}, %[[WIDTH]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// offset_max_start: the same strict window over (q + h) - kv, whose difference a leaves i32 even with the + 1 folded (it is
// no narrowable i32 value), so the lane-uniform (q + h) - w is clamped once, in Int64, to an Int32 %lo, and the suffix shifts
// by max(lo - kv, -1) + 1, the + 1 in Int64; the upper end is the causal shift.
mask.func @offset_max_start_wide_a window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %win: tensor<8xi32>):
  %0 = arith.subi %q_idx, %kv_idx : i32
  %index = mask.load %win[%h] : tensor<8xi32>[i32] -> i32
  %q64 = arith.extsi %q_idx : i32 to i64
  %h64 = arith.extsi %h : i32 to i64
  %1 = arith.addi %q64, %h64 : i64
  %2 = arith.extsi %kv_idx : i32 to i64
  %3 = arith.subi %1, %2 : i64
  %4 = arith.extsi %index : i32 to i64
  %5 = arith.subi %3, %4 : i64
  %6 = arith.constant 31 : i32
  %7 = arith.subi %6, %0 : i32
  %8 = arith.constant 0 : i32
  %9 = arith.maxsi %7, %8 : i32
  %10 = arith.constant 32 : i32
  %11 = arith.subi %10, %9 : i32
  %12 = arith.constant -1 : i64
  %13 = arith.maxsi %5, %12 : i64
  %14 = arith.constant 31 : i64
  %15 = arith.minsi %13, %14 : i64
  %16 = arith.trunci %15 : i64 to i32
  %17 = arith.constant 1 : i32
  %18 = arith.addi %16, %17 : i32
  %19 = interval.range %18, %11 : i32
  %keep = interval.keep_word %19 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @offset_max_start_wide_a
// CHECK:       %[[X:.*]] = cute.sub %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:  %[[M1:.*]] = cute.constant -1 : i64
// CHECK-NEXT:  %[[XL:.*]] = cute.max %[[X]], %[[M1]] : i64
// CHECK-NEXT:  %[[IMAX:.*]] = cute.constant 2147483647 : i64
// CHECK-NEXT:  %[[XH:.*]] = cute.min %[[XL]], %[[IMAX]] : i64
// CHECK-NEXT:  %[[LO:lo[_0-9]*]] = cute.to_i32 %[[XH]]
// CHECK-NEXT:  %[[D:.*]] = cute.sub %[[LO]], %kv_idx : i32
// CHECK-NEXT:  %[[N1:.*]] = cute.constant -1 : i32
// CHECK-NEXT:  %[[T:.*]] = cute.max %[[D]], %[[N1]] : i32
// CHECK-NEXT:  %[[T64:.*]] = cute.to_i64 %[[T]]
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : i64
// CHECK-NEXT:  %[[A64:.*]] = cute.add %[[T64]], %[[ONE]] : i64
// CHECK-NEXT:  %[[A:.*]] = cute.to_u32 %[[A64]] : i64
// CHECK-NEXT:  %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[SUF:.*]] = cute.shl_u32 %[[ONES]], %[[A]] : ui32
// CHECK-NEXT:  %[[ONES2:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[PRE:.*]] = cute.shr_u32 %[[ONES2]], %{{.*}} : i32
// CHECK-NEXT:  %[[W:.*]] = cute.and %[[PRE]], %[[SUF]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// causal_strict (`kv < q`, lane-affine's 0 - (kv - q) read as q - kv): a prefix q - kv whose x (q) reads no aux tensor is the right shift
// offset_max_prefix writes (FA4's kernel: +37 against +50 for bmsk(0, max(q - kv, 0)), inductor +37; `strict_causal/*`); kv + h stays in i32, the + 1 is exact in Int64.
mask.func @causal_strict window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %kv_idx, %q_idx : i32
  %1 = arith.constant 0 : i32
  %2 = arith.subi %1, %0 : i32
  %3 = interval.range %1, %2 : i32
  %keep = interval.keep_word %3 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @causal_strict
// CHECK-NEXT:  ^bb0(
// CHECK-NEXT:  %[[C31:.*]] = cute.constant 31 : i32
// CHECK-NEXT:  %[[H_1:h[_0-9]*]] = cute.sub %[[C31]], %q_idx : i32
// CHECK-NEXT:  %[[S:.*]] = cute.add %kv_idx, %[[H_1]] : i32
// CHECK-NEXT:  %[[M1:.*]] = cute.constant -1 : i32
// CHECK-NEXT:  %[[T:.*]] = cute.max %[[S]], %[[M1]] : i32
// CHECK-NEXT:  %[[T64:.*]] = cute.to_i64 %[[T]]
// CHECK-NEXT:  %[[ONE:.*]] = cute.constant 1 : i64
// CHECK-NEXT:  %[[A64:.*]] = cute.add %[[T64]], %[[ONE]] : i64
// CHECK-NEXT:  %[[A:.*]] = cute.to_u32 %[[A64]] : i64
// CHECK-NEXT:  %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:  %[[W:.*]] = cute.shr_u32 %[[ONES]], %[[A]] : ui32
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NEXT:  %[[KEEP:keep[_0-9]*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// -----

// A prefix x - kv whose x reads an aux tensor (`kv < len[b]`) stays bmsk(0, max(x - kv, 0)): FA4's kernel counts +87 for it
// against +154 for the shift (`python -m maskopt.tools.calibrate_fa4 --only padding/bmsk padding/shr-offset-max`).
mask.func @aux_prefix_keeps_bmsk window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32, %len: tensor<4xi32>):
  %l = mask.load %len[%b] : tensor<4xi32>[i32] -> i32
  %0 = arith.constant 0 : i32
  %1 = arith.maxsi %l, %0 : i32
  %2 = arith.subi %1, %kv_idx : i32
  %3 = interval.range %0, %2 : i32
  %keep = interval.keep_word %3 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @aux_prefix_keeps_bmsk
// CHECK-NOT:   cute.shr_u32
// CHECK:       %[[W:.*]] = cute.bmsk %{{.*}}, %{{.*}}
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]

// -----

// refine_selected_spans: a span that only a select on a band of q keeps (wrapped_conjunction_10's single lane past q + 3000's
// wrap) is computed from q clamped to the band, where its start 3000 - (kv - q) fits i32; span_amount writes it as the
// lane-uniform (q' + 3000) minus kv (FA4's kernel: +118 against +171 with the start in Int64).
mask.func @wrapped_band window {
^bb0(%b: i32, %h: i32, %q_idx: i32, %kv_idx: i32):
  %0 = arith.subi %kv_idx, %q_idx : i32
  %7 = arith.constant 2147480641 : i32
  %9 = arith.cmpi sge, %q_idx, %7 : i32
  %10 = arith.constant 2147480645 : i32
  %11 = arith.cmpi sle, %q_idx, %10 : i32
  %14 = interval.empty
  %16 = interval.span %0 * -1 + 3000 width 1 : i32
  %17 = arith.andi %9, %11 : i1
  %18 = interval.select %17, %16, %14
  %keep = interval.keep_word %18 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @wrapped_band
// CHECK:       interval.empty
// CHECK-NEXT:  %[[LO:.*]] = arith.constant 2147480641 : i32
// CHECK-NEXT:  %[[QL:.*]] = arith.maxsi %q_idx, %[[LO]] : i32
// CHECK-NEXT:  %[[HI:.*]] = arith.constant 2147480645 : i32
// CHECK-NEXT:  %[[QB:.*]] = arith.minsi %[[QL]], %[[HI]] : i32
// CHECK-NEXT:  %[[K:.*]] = cute.constant 3000 : i32
// CHECK-NEXT:  %[[P:.*]] = cute.add %[[QB]], %[[K]] : i32
// CHECK-NEXT:  %[[A:.*]] = cute.sub %[[P]], %kv_idx : i32
// CHECK-NEXT:  %[[POS:.*]] = cute.to_u32 %[[A]] : i32
// CHECK-NEXT:  %[[W1:.*]] = cute.constant 1 : ui32
// CHECK-NEXT:  %[[W:.*]] = cute.bmsk %[[POS]], %[[W1]]
// CHECK-NEXT:  %[[V:v[_0-9]*]] = cute.lanes %[[W]]
// CHECK-NOT:   i64
// CHECK:       interval.select %{{.*}}, %[[V]], %{{.*}}
