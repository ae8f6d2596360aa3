// RUN: mask-opt %s --split-input-file -t cute | filecheck %s

// CuTe printing of `interval.table`: the unshifted word (bit r iff
// table[r] <= t) is a chain of `cutlass.select_`s on t (a chain of nested conditional
// expressions compiled for over 30 s in the DSL), one per distinct table value in
// the range of t, and is shifted right by a shift >= 0, left by the negated
// shift (printed without a bare negation) when the shift is <= 0. Tables of
// one shift in an intersection are ANDed before the single shift.

mask.func @shifts window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %c7 = arith.constant 7 : i32
  %off = arith.andi %kv, %c31 : i32
  %s1 = arith.subi %off, %c32 : i32
  %t = arith.andi %q, %c7 : i32
  %a = interval.table %off, %t table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %b2 = interval.table %s1, %t gt table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %u = interval.union %a, %b2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// t = q & 7 is in [0, 7]: table values 0 and below are decided.
// CHECK-LABEL: def mask_mod(
// CHECK:         t = (q & cutlass.Int32(7))
// CHECK-NEXT:    off = (kv & cutlass.Int32(31))
// CHECK-NEXT:    a = utils.shr_u32(cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(7), cutlass.Uint32(0xffffffff), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(6), cutlass.Uint32(0x7f7f7f7f), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(5), cutlass.Uint32(0x3f3f3f3f), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(4), cutlass.Uint32(0x1f1f1f1f), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(3), cutlass.Uint32(0xf0f0f0f), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(2), cutlass.Uint32(0x7070707), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(1), cutlass.Uint32(0x3030303), cutlass.Uint32(0x1010101))))))))))))))), cutlass.Uint32(off))
// CHECK-NEXT:    b2 = utils.shl_u32(cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(7), cutlass.Uint32(0x0), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(6), cutlass.Uint32(0x80808080), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(5), cutlass.Uint32(0xc0c0c0c0), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(4), cutlass.Uint32(0xe0e0e0e0), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(3), cutlass.Uint32(0xf0f0f0f0), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(2), cutlass.Uint32(0xf8f8f8f8), cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(1), cutlass.Uint32(0xfcfcfcfc), cutlass.Uint32(0xfefefefe))))))))))))))), cutlass.Uint32((cutlass.Int32(32) - off)))
// CHECK-NEXT:    u = (a | b2)
// CHECK-NOT:     cutlass.Int32(0) -

// -----

mask.func @grouped window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c31 = arith.constant 31 : i32
  %c1 = arith.constant 1 : i32
  %off = arith.andi %kv, %c31 : i32
  %t = arith.andi %q, %c1 : i32
  %c4 = arith.constant 4 : i32
  %a = interval.table %off, %t table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %b2 = interval.table %off, %c4 gt table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %i = interval.intersect %a, %b2
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// A constant threshold is one word; the two words are ANDed, then shifted.
// CHECK-LABEL: def mask_mod(
// CHECK:         tbl = (cutlass.Uint32(cutlass.select_(t >= cutlass.Int32(1), cutlass.Uint32(0x3030303), cutlass.Uint32(0x1010101))) & cutlass.Uint32(0xe0e0e0e0))
// CHECK-NEXT:    off = (kv & cutlass.Int32(31))
// CHECK-NEXT:    i = (utils.shr_u32(tbl, cutlass.Uint32(off)))

// -----

mask.func @any_sign window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c7 = arith.constant 7 : i32
  %s = arith.subi %q, %kv : i32
  %a = interval.table %s, %c7 table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %w = interval.keep_word %a : i32
  mask.yield %w : i32
}

// A shift of either sign selects the direction.
// CHECK-LABEL: def mask_mod(
// CHECK:         s = (q - kv)
// CHECK-NEXT:    a = (utils.shr_u32(cutlass.Uint32(0xffffffff), cutlass.Uint32(s)) if s >= cutlass.Int32(0) else utils.shl_u32(cutlass.Uint32(0xffffffff), cutlass.Uint32((kv - q))))
