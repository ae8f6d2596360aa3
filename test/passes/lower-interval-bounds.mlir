// RUN: mask-opt %s --split-input-file -p lower-interval-bounds | filecheck %s

// lower-interval-bounds expands each `interval.bound %u * sign + k side S`
// (clip(sign * u + k, 0, 32)) into the i32 arith of the plan its cost model
// picks from u's range and linear form, sign, k and side; one function per
// plan kind.

// Plain: u + 0 fits i32 and a lower bound clips by itself, so u is the bound.
mask.func @plain window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %lo = interval.bound %u * 1 + 0 side "lo" : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @plain window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[U]], %[[C32]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// Clamped on one side: 0 - u overflows only for u = -2^31, so u is clamped
// from below (at -32: below it the bound is past 32 anyway).
mask.func @clamped_one_side window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %hi = interval.bound %u * -1 + 0 side "hi" : i32
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @clamped_one_side window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[M32:.*]] = arith.constant -32 : i32
// CHECK-NEXT:    %[[X:.*]] = arith.maxsi %[[U]], %[[M32]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.subi %[[C0]], %[[X]] : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[Z]], %[[HI]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// An i64 u of the whole i64 range, clamped on both sides into [0, 32]
// (where the bound is u itself), then truncated to i32.
mask.func @clamped_both_sides_i64 window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi64>):
  %u = mask.load %s[%b] : tensor<2xi64>[i32] -> i64
  %lo = interval.bound %u * 1 + 0 side "lo" : i64
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @clamped_both_sides_i64 window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi64>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi64>[i32] -> i64
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[X:.*]] = arith.maxsi %[[U]], %[[C0]] : i64
// CHECK-NEXT:    %[[C32A:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[Y:.*]] = arith.minsi %[[X]], %[[C32A]] : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.trunci %[[Y]] : i64 to i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[C32]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// An i64 u whose range fits i32 (a sign extension of an i32 x): x itself
// (its linear form), no clamp and no truncation.
mask.func @i64_narrow window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %x = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %u = arith.extsi %x : i32 to i64
  %lo = interval.bound %u * 1 + 0 side "lo" : i64
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @i64_narrow window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[X]], %[[C32]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// Affine, re-associated: u = start - kv in i64 (two i32 atoms) is computed
// in i32 from its linear form, the atom start clamped at 0 (below 0 the
// run starts at lane 0 anyway): one i32 clamp, where clamping u costs two
// i64 ones and a truncation. The i64 u is then dead.
mask.func @affine window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %starts : tensor<4xi32>):
  %start = mask.load %starts[%b] : tensor<4xi32>[i32] -> i32
  %k64 = arith.extsi %kv : i32 to i64
  %s64 = arith.extsi %start : i32 to i64
  %u = arith.subi %k64, %s64 : i64
  %lo = interval.bound %u * -1 + 0 side "lo" : i64
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @affine window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[STARTS:.*]]: tensor<4xi32>):
// CHECK-NEXT:    %[[START:.*]] = mask.load %[[STARTS]][%[[B]]] : tensor<4xi32>[i32] -> i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[X:.*]] = arith.maxsi %[[START]], %[[C0]] : i32
// CHECK-NEXT:    %[[LO:.*]] = arith.subi %[[X]], %[[KV]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[C32]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// A shift amount: causal's upper bound q - kv + 1 as 32 - a, a = 31 - (q - kv)
// clamped at 0 (FA4 shifts by a; q - kv + 1 would need an overflow clamp).
mask.func @amount window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %q, %kv : i32
  %hi = interval.bound %u * 1 + 1 side "hi" : i32
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @amount window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.subi %[[C31]], %[[U]] : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[A0:.*]] = arith.maxsi %[[A]], %[[Z]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.subi %[[C32]], %[[A0]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[HI]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// Two upper bounds whose plans are both shift amounts: min(32 - a, 32 - b)
// is 32 - max(a, b), one amount (the min of the bounds is dropped).
mask.func @amounts_min window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.subi %q, %kv : i32
  %v = arith.subi %h, %kv : i32
  %hu = interval.bound %u * 1 + 1 side "hi" : i32
  %hv = interval.bound %v * 1 + 5 side "hi" : i32
  %hi = arith.minsi %hu, %hv : i32
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @amounts_min window {
// CHECK:         %[[A:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK:         %[[B:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[AB:.*]] = arith.maxsi %[[A]], %[[B]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.subi %[[C32]], %[[AB]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[HI]] : i32
// CHECK-NOT:     arith.minsi
// CHECK:         mask.yield

// -----

// A bound that is a constant on the whole domain: u & 7 - 9 < 0.
mask.func @constant window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c7 = arith.constant 7 : i32
  %u = arith.andi %q, %c7 : i32
  %lo = interval.bound %u * 1 + -9 side "lo" : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @constant window {
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[Z]], %[[C32]] : i32

// -----

// A negated i32 u whose k is past i32 (a wrap point's bound, 2^31 + 16 - u):
// u is clamped at k - 32 before the subtraction, so that k itself is never
// a constant; 32 - (max(u, 2^31 - 16) - (2^31 - 16)) is exact in i32 (fuzz
// seed 88 mask 1633, `(kv - 16) - clamp(q, -100, -31) <= -100`, crashed here).
mask.func @negated_i32_beyond_i32 window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %lo = interval.bound %u * -1 + 2147483664 side "lo" : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @negated_i32_beyond_i32 window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2147483632 : i32
// CHECK-NEXT:    %[[X:.*]] = arith.maxsi %[[U]], %[[C]] : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2147483632 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[X]], %[[C2]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[LO:.*]] = arith.subi %[[C32]], %[[D]] : i32
// CHECK-NEXT:    %[[C32B:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[C32B]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// -----

// Spans: a range whose bounds are of one u and one sign, k apart by W <= 32,
// is the fixed-width run `interval.span %u * sign + k width W` (its bounds
// are erased where nothing else uses them): one lane (a diagonal), nine
// lanes, a whole word. Bounds 33 apart, of two signs or of two values stay
// a range.
mask.func @spans window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = arith.subi %q, %kv : i32
  %x = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %lo1 = interval.bound %u * 1 + 0 side "lo" : i32
  %hi1 = interval.bound %u * 1 + 1 side "hi" : i32
  %one = interval.range %lo1, %hi1 : i32
  %lo9 = interval.bound %u * -1 + -8 side "lo" : i32
  %hi9 = interval.bound %u * -1 + 1 side "hi" : i32
  %nine = interval.range %lo9, %hi9 : i32
  %hi32 = interval.bound %x * 1 + 32 side "hi" : i32
  %lo32 = interval.bound %x * 1 + 0 side "lo" : i32
  %word = interval.range %lo32, %hi32 : i32
  %hi33 = interval.bound %x * 1 + 33 side "hi" : i32
  %wide = interval.range %lo32, %hi33 : i32
  %signs = interval.range %lo1, %hi9 : i32
  %values = interval.range %lo32, %hi1 : i32
  %s1 = interval.union %one, %nine, %word
  %s2 = interval.intersect %wide, %signs, %values
  %r = interval.union %s1, %s2
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @spans window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NOT:     interval.bound
// CHECK:         %[[ONE:.*]] = interval.span %[[U]] * 1 + 0 width 1 : i32
// CHECK:         %[[NINE:.*]] = interval.span %[[U]] * -1 + -8 width 9 : i32
// CHECK:         %[[WORD:.*]] = interval.span %[[X]] * 1 + 0 width 32 : i32
// CHECK:         %[[WIDE:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[SIGNS:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[VALUES:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = interval.union %[[ONE]], %[[NINE]], %[[WORD]]
// CHECK-NEXT:    %{{.*}} = interval.intersect %[[WIDE]], %[[SIGNS]], %[[VALUES]]
