// RUN: mask-opt %s | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round-trip of `interval.table`: the lanes L with r = L + shift in [0, 32)
// and table[r] <= t (`gt`: table[r] > t); shift and t of any integer type.

mask.func @tables window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c31 = arith.constant 31 : i32
  %off = arith.andi %kv, %c31 : i32
  %t = arith.extsi %q : i32 to i64
  %le = interval.table %off, %q table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %gt = interval.table %off, %t gt table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i64
  %i = interval.intersect %le, %gt
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @tables window {
// CHECK:         %le = interval.table %off, %q table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
// CHECK-NEXT:    %gt = interval.table %off, %t gt table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i64
// CHECK-NEXT:    %i = interval.intersect %le, %gt

// GENERIC: "interval.table"(%off, %q) <{table = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7>}> : (i32, i32) -> !interval.set
// GENERIC: "interval.table"(%off, %t) <{gt, table = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7>}> : (i32, i64) -> !interval.set
