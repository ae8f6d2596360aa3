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

// RUN: mask-opt %s -p canonicalize --split-input-file | filecheck %s --check-prefix=CANON

// -----

// A constant threshold that keeps no entry is empty; one that keeps every
// entry is full when the shift is 0 (else the clip still drops lanes).
mask.func @folds window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %cm1 = arith.constant -1 : i32
  %c7 = arith.constant 7 : i32
  %none = interval.table %kv, %cm1 table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %all = interval.table %c0, %c7 table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %clip = interval.table %kv, %c7 table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
  %i = interval.union %none, %all, %clip
  %j = interval.intersect %i, %clip
  %w = interval.keep_word %j : i32
  mask.yield %w : i32
}

// CANON-LABEL: mask.func @folds window {
// CANON:         %[[CLIP:.*]] = interval.table %kv, %{{.*}} table
// CANON-NEXT:    %[[W:.*]] = interval.keep_word %[[CLIP]] : i32
// CANON-NEXT:    mask.yield %[[W]] : i32
