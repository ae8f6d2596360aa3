// RUN: mask-opt %s -p simplify-intervals | filecheck %s

// simplify-intervals: CSE, the interval canonicalization patterns and DCE.
// It folds constant and trivial lane sets and deduplicates equal sets; it
// does not run the arith canonicalizations.

// Equal ranges built from equal constants are one set after CSE; the union
// of a set with itself is the set.
mask.func @dedupe window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %c0_1 = arith.constant 0 : i32
  %s = interval.range %c0_1, %q : i32
  %u = interval.union %r, %s
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @dedupe window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// An empty constant run disappears from a union.
mask.func @empty_run window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %c0_1 = arith.constant 0 : i32
  %e = interval.range %c0_1, %c0 : i32
  %r = interval.range %c0, %q : i32
  %u = interval.union %e, %r
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @empty_run window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// [-3, 40) covers the window: full, which the intersection drops.
mask.func @full_run window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c40 = arith.constant 40 : i32
  %cm3 = arith.constant -3 : i32
  %r = interval.range %cm3, %c40 : i32
  %cond = arith.cmpi eq, %b, %h : i32
  %e = interval.empty
  %s = interval.select %cond, %r, %e
  %c = interval.complement %s
  %i = interval.intersect %c, %r
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @full_run window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[R:.*]] = interval.full
// CHECK-NEXT:    %[[COND:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[E:.*]] = interval.empty
// CHECK-NEXT:    %[[S:.*]] = interval.select %[[COND]], %[[R]], %[[E]]
// CHECK-NEXT:    %[[C:.*]] = interval.complement %[[S]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[C]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Flattening a single-use union exposes a duplicate operand; [kv, q) is
// within [0, q) and is dropped.
mask.func @flatten_dedupe window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %u = interval.union %r, %s
  %c0_1 = arith.constant 0 : i32
  %r2 = interval.range %c0_1, %q : i32
  %v = interval.union %u, %r2
  %w = interval.keep_word %v : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @flatten_dedupe window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[V:.*]] = interval.union %[[R]], %[[S]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// The output of fold-intervals for a bound that is always past the window:
// [0, 32) is full and its keep word all ones.
mask.func @folded_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %0 = arith.constant 32 : i32
  %1 = arith.constant 0 : i32
  %2 = interval.range %1, %0 : i32
  %keep = interval.keep_word %2 : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: mask.func @folded_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[KEEP:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// A select between a run and `empty` on a constant condition.
mask.func @select_constant window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant false
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %e = interval.empty
  %s = interval.select %t, %r, %e
  %f = interval.full
  %u = interval.union %s, %f
  %n = interval.complement %u
  %w = interval.keep_word %n : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @select_constant window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// arith is left as it is: 1 + 2 is not folded.
mask.func @arith_untouched window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %x = arith.addi %c1, %c2 : i32
  %r = interval.range %x, %q : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @arith_untouched window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[X:.*]] = arith.addi %[[C1]], %[[C2]] : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[X]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Dead sets are removed.
mask.func @dead_sets window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %unused = interval.complement %r
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @dead_sets window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// [kv, kv + 1), [kv + 1, kv + 4) touch: one range; [kv + 1, kv + 2) is
// within it. kv + k cannot wrap (kv <= 2^31 - 32), so the bounds are ordered.
mask.func @touching window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %k1 = arith.addi %kv, %c1 : i32
  %k4 = arith.addi %kv, %c4 : i32
  %c2 = arith.constant 2 : i32
  %k2 = arith.addi %kv, %c2 : i32
  %in2 = interval.range %k1, %k2 : i32
  %a = interval.range %kv, %k1 : i32
  %b2 = interval.range %k1, %k4 : i32
  %u = interval.union %a, %in2, %b2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @touching window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:  %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:  %[[K4:.*]] = arith.addi %[[KV]], %[[C4]] : i32
// CHECK-NEXT:  %[[U:.*]] = interval.range %[[KV]], %[[K4]] : i32
// CHECK-NEXT:  %[[W:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:  mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// q + 1 may wrap (q <= 2^31 - 1): the ranges are not merged.
mask.func @may_wrap window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c1 = arith.constant 1 : i32
  %q1 = arith.addi %q, %c1 : i32
  %a = interval.range %q, %q1 : i32
  %b2 = interval.range %q1, %kv : i32
  %u = interval.union %a, %b2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @may_wrap window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[Q1:.*]] = arith.addi %[[Q]], %[[C1]] : i32
// CHECK-NEXT:   %[[A:.*]] = interval.range %[[Q]], %[[Q1]] : i32
// CHECK-NEXT:   %[[B2:.*]] = interval.range %[[Q1]], %[[KV]] : i32
// CHECK-NEXT:   %[[U:.*]] = interval.union %[[A]], %[[B2]]
// CHECK-NEXT:   %[[W:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:   mask.yield %[[W]] : i32
// CHECK-NEXT: }

// [kv + 3, kv) is empty.
mask.func @provably_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c3 = arith.constant 3 : i32
  %k3 = arith.addi %kv, %c3 : i32
  %e = interval.range %k3, %kv : i32
  %w = interval.keep_word %e : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @provably_empty window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   mask.yield %[[W]] : i32
// CHECK-NEXT: }

// Bounds as `interval.bound`s compare by their attributes: bounds of one
// (u, sign) are ordered by k (sign -1 too, and through u = x + 3, which does
// not wrap), so [16 - x, 4 - x) is empty and the touching runs
// [-x, 10 - x) and [5 - x, 20 - x) are one run.
mask.func @bound_attributes window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi16>):
  %x16 = mask.load %s[%b] : tensor<2xi16>[i32] -> i16
  %x = arith.extsi %x16 : i16 to i32
  %c3 = arith.constant 3 : i32
  %u = arith.addi %x, %c3 : i32
  %a = interval.bound %x * -1 + 0 side "lo" : i32
  %b10 = interval.bound %u * -1 + 13 side "hi" : i32
  %c5 = interval.bound %x * -1 + 5 side "lo" : i32
  %d20 = interval.bound %x * -1 + 20 side "hi" : i32
  %e16 = interval.bound %u * -1 + 19 side "lo" : i32
  %f4 = interval.bound %x * -1 + 4 side "hi" : i32
  %r1 = interval.range %a, %b10 : i32
  %r2 = interval.range %c5, %d20 : i32
  %r3 = interval.range %e16, %f4 : i32
  %un = interval.union %r1, %r2, %r3
  %w = interval.keep_word %un : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @bound_attributes window {
// CHECK:         %[[X:.*]] = arith.extsi %{{.*}} : i16 to i32
// CHECK:         %[[A:.*]] = interval.bound %[[X]] * -1 + 0 side "lo" : i32
// CHECK:         %[[D20:.*]] = interval.bound %[[X]] * -1 + 20 side "hi" : i32
// CHECK:         %[[R:.*]] = interval.range %[[A]], %[[D20]] : i32
// CHECK-NOT:     interval.range
// CHECK-NOT:     interval.union
// CHECK:         %{{.*}} = interval.keep_word %[[R]] : i32
