// RUN: mask-opt %s -p lane-affine | filecheck %s

// lane-affine: kv_idx becomes the base of a 32-lane window (per-lane index
// kv_idx + L) and lane-affine comparisons become `mask.lane_cmp` with the
// lane-uniform part materialized by ops that cannot overflow.

// Windowing: kv_idx is replaced by kv_idx + lane; the function gets `window`.
// A per-lane gather cannot be rewritten and stays.
mask.func @gather {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc : tensor<1024xi32>):
  %dq = mask.load %doc[%q] : tensor<1024xi32>[i32] -> i32
  %dk = mask.load %doc[%kv] : tensor<1024xi32>[i32] -> i32
  %eq = arith.cmpi eq, %dq, %dk : i32
  mask.yield %eq : i1
}

// CHECK-LABEL: mask.func @gather window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[DOC:.*]]: tensor<1024xi32>):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[DQ:.*]] = mask.load %[[DOC]][%[[Q]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:    %[[DK:.*]] = mask.load %[[DOC]][%[[KVL]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[DQ]], %[[DK]] : i32
// CHECK-NEXT:    mask.yield %[[EQ]] : i1
// CHECK-NEXT:  }

// Causal: q >= kv + L  <=>  -L + (q - kv) >= 0. The lane op becomes dead.
mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @causal window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// Sliding window: the constant goes into the lane_cmp offset.
mask.func @sliding_window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  %d = arith.subi %q, %kv : i32
  %c256 = arith.constant 256 : i32
  %near = arith.cmpi sle, %d, %c256 : i32
  %r = arith.andi %ge, %near : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @sliding_window window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D0]] + 0 : i32
// CHECK-NEXT:    %[[D1:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[NEAR:.*]] = mask.lane_cmp "sle", -1 * lane + %[[D1]] + -256 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.andi %[[GE]], %[[NEAR]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// Prefix LM: kv + L < 128  <=>  L + kv - 128 < 0.
mask.func @prefix_lm {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c128 = arith.constant 128 : i32
  %p = arith.cmpi slt, %kv, %c128 : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %r = arith.ori %p, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @prefix_lm window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "slt", 1 * lane + %[[KV]] + -128 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.ori %[[P]], %[[GE]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// The lane on the right-hand side: 128 > kv + L  <=>  -L + (0 - kv) + 128 > 0.
mask.func @constant_lhs {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c128 = arith.constant 128 : i32
  %p = arith.cmpi sgt, %c128, %kv : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @constant_lhs window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[NEG:.*]] = arith.subi %[[ZERO]], %[[KV]] : i32
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "sgt", -1 * lane + %[[NEG]] + 128 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// Block comparison: q // 64 == (kv + L) // 64 is the block range
// 0 <= kv + L - 64 * (q // 64) <= 63: two lane_cmps.
mask.func @same_block {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c64 = arith.constant 64 : i32
  %qb = arith.floordivsi %q, %c64 : i32
  %kb = arith.floordivsi %kv, %c64 : i32
  %eq = arith.cmpi eq, %qb, %kb : i32
  mask.yield %eq : i1
}

// CHECK-LABEL: mask.func @same_block window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[QB:.*]] = arith.floordivsi %[[Q]], %[[C64]] : i32
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[S0:.*]] = arith.muli %[[QB]], %[[K0]] : i32
// CHECK-NEXT:    %[[U0:.*]] = arith.subi %[[KV]], %[[S0]] : i32
// CHECK-NEXT:    %[[LO:.*]] = mask.lane_cmp "sge", 1 * lane + %[[U0]] + 0 : i32
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[S1:.*]] = arith.muli %[[QB]], %[[K1]] : i32
// CHECK-NEXT:    %[[U1:.*]] = arith.subi %[[KV]], %[[S1]] : i32
// CHECK-NEXT:    %[[HI:.*]] = mask.lane_cmp "sle", 1 * lane + %[[U1]] + -63 : i32
// CHECK-NEXT:    %[[EQ:.*]] = arith.andi %[[LO]], %[[HI]] : i1
// CHECK-NEXT:    mask.yield %[[EQ]] : i1
// CHECK-NEXT:  }

// `ne` is the complement: below the block or above it.
mask.func @other_block {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c64 = arith.constant 64 : i32
  %qb = arith.floordivsi %q, %c64 : i32
  %kb = arith.floordivsi %kv, %c64 : i32
  %ne = arith.cmpi ne, %kb, %qb : i32
  mask.yield %ne : i1
}

// CHECK-LABEL: mask.func @other_block window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[QB:.*]] = arith.floordivsi %[[Q]], %[[C64]] : i32
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[S0:.*]] = arith.muli %[[QB]], %[[K0]] : i32
// CHECK-NEXT:    %[[U0:.*]] = arith.subi %[[KV]], %[[S0]] : i32
// CHECK-NEXT:    %[[BELOW:.*]] = mask.lane_cmp "slt", 1 * lane + %[[U0]] + 0 : i32
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[S1:.*]] = arith.muli %[[QB]], %[[K1]] : i32
// CHECK-NEXT:    %[[U1:.*]] = arith.subi %[[KV]], %[[S1]] : i32
// CHECK-NEXT:    %[[ABOVE:.*]] = mask.lane_cmp "sgt", 1 * lane + %[[U1]] + -63 : i32
// CHECK-NEXT:    %[[NE:.*]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
// CHECK-NEXT:    mask.yield %[[NE]] : i1
// CHECK-NEXT:  }

// q // 128 > (kv + L) // 128  <=>  kv + L < 128 * (q // 128): one bound.
mask.func @earlier_block {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c128 = arith.constant 128 : i32
  %qb = arith.floordivsi %q, %c128 : i32
  %kb = arith.floordivsi %kv, %c128 : i32
  %p = arith.cmpi sgt, %qb, %kb : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @earlier_block window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[QB:.*]] = arith.floordivsi %[[Q]], %[[C128]] : i32
// CHECK-NEXT:    %[[K:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.muli %[[QB]], %[[K]] : i32
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[KV]], %[[S]] : i32
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "slt", 1 * lane + %[[U]] + 0 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// (kv + L) // 64 <= b  <=>  kv + L - 64 * b - 63 <= 0; 64 * b may leave
// i32, so the uniform part is computed in i64.
mask.func @block_le_uniform {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c64 = arith.constant 64 : i32
  %kb = arith.floordivsi %kv, %c64 : i32
  %le = arith.cmpi sle, %kb, %b : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @block_le_uniform window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[KV64:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[B64:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i64
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[B64]], %[[C64]] : i64
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[KV64]], %[[M]] : i64
// CHECK-NEXT:    %[[LE:.*]] = mask.lane_cmp "sle", 1 * lane + %[[U]] + -63 : i64
// CHECK-NEXT:    mask.yield %[[LE]] : i1
// CHECK-NEXT:  }

// Constants on both sides are summed into the offset; `q + 5` may wrap in
// i32 (as in torch), so it is an atom and kv - (q + 5) is computed in i64.
mask.func @offsets {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c5 = arith.constant 5 : i32
  %c3 = arith.constant 3 : i32
  %q5 = arith.addi %q, %c5 : i32
  %k3 = arith.subi %kv, %c3 : i32
  %p = arith.cmpi eq, %k3, %q5 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @offsets window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[Q5:.*]] = arith.addi %[[Q]], %[[C5]] : i32
// CHECK-NEXT:    %[[KV64:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[Q564:.*]] = arith.extsi %[[Q5]] : i32 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[KV64]], %[[Q564]] : i64
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "eq", 1 * lane + %[[U]] + -3 : i64
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// kv + s < q with an i32 aux scalar, written in i64: materialized in i64.
// The original extsi ops (and kv + lane) are dead and erased: maskopt marks
// arith.extsi Pure.
mask.func @i64_form {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : i32):
  %k64 = arith.extsi %kv : i32 to i64
  %s64 = arith.extsi %s : i32 to i64
  %q64 = arith.extsi %q : i32 to i64
  %sum = arith.addi %k64, %s64 : i64
  %lt = arith.cmpi slt, %sum, %q64 : i64
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @i64_form window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// CHECK-NEXT:    %[[KV64:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[S64:.*]] = arith.extsi %[[S]] : i32 to i64
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[KV64]], %[[S64]] : i64
// CHECK-NEXT:    %[[Q64:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[SUM]], %[[Q64]] : i64
// CHECK-NEXT:    %[[LT:.*]] = mask.lane_cmp "slt", 1 * lane + %[[U]] + 0 : i64
// CHECK-NEXT:    mask.yield %[[LT]] : i1
// CHECK-NEXT:  }

// An int64 aux bound: kv - bound may overflow i64, so the one wide atom is
// clamped to +-2^40 first (same comparison for every lane).
mask.func @int64_bound {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %lim : tensor<4xi64>):
  %l = mask.load %lim[%b] : tensor<4xi64>[i32] -> i64
  %k64 = arith.extsi %kv : i32 to i64
  %lt = arith.cmpi slt, %k64, %l : i64
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @int64_bound window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[LIM:.*]]: tensor<4xi64>):
// CHECK-NEXT:    %[[L:.*]] = mask.load %[[LIM]][%[[B]]] : tensor<4xi64>[i32] -> i64
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 1099511627776 : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -1099511627776 : i64
// CHECK-NEXT:    %[[MIN:.*]] = arith.minsi %[[L]], %[[HI]] : i64
// CHECK-NEXT:    %[[CL:.*]] = arith.maxsi %[[MIN]], %[[LO]] : i64
// CHECK-NEXT:    %[[KV64:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[KV64]], %[[CL]] : i64
// CHECK-NEXT:    %[[LT:.*]] = mask.lane_cmp "slt", 1 * lane + %[[U]] + 0 : i64
// CHECK-NEXT:    mask.yield %[[LT]] : i1
// CHECK-NEXT:  }

// With a constant offset in the comparison the clamp lies beyond it too:
// kv > min(l, q) + (2^40 + 7) (no wrap: min(l, q) <= q) decides lanes for
// min(l, q) near -2^40, so that atom is clamped to +-(2^40 + 2^40 + 7), not
// +-2^40 (fuzzer seed 12, mask 8381).
mask.func @int64_bound_far_offset {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %lim : tensor<4xi64>):
  %l = mask.load %lim[%b] : tensor<4xi64>[i32] -> i64
  %q64 = arith.extsi %q : i32 to i64
  %m = arith.minsi %l, %q64 : i64
  %c = arith.constant 1099511627783 : i64
  %s = arith.addi %m, %c : i64
  %k64 = arith.extsi %kv : i32 to i64
  %gt = arith.cmpi sgt, %k64, %s : i64
  mask.yield %gt : i1
}

// CHECK-LABEL: mask.func @int64_bound_far_offset window {
// CHECK:         %[[HI:.*]] = arith.constant 2199023255559 : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.constant -2199023255559 : i64
// CHECK:         mask.lane_cmp "sgt", 1 * lane + %{{.*}} + -1099511627783 : i64

// kv * kv is not lane-affine (and may overflow): the comparison stays.
mask.func @square {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %sq = arith.muli %kv, %kv : i32
  %lt = arith.cmpi slt, %sq, %q : i32
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @square window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[SQ:.*]] = arith.muli %[[KVL]], %[[KVL]] : i32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[SQ]], %[[Q]] : i32
// CHECK-NEXT:    mask.yield %[[LT]] : i1
// CHECK-NEXT:  }

// 2 * (kv + L) may wrap in i32 (torch wraps): E = 2 * kv + 2 * L is in
// [0, 2^32 - 2], so wrap(E) is E - 2^32 where E >= 2^31 and E below: the
// wrapped-comparison split, k = -1 and k = 0, with lane coefficient 2 (the
// canonicalization turns each into a +-1 comparison; see lane-coefficient.mlir).
mask.func @times_two_wraps {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c2 = arith.constant 2 : i32
  %k2 = arith.muli %kv, %c2 : i32
  %lt = arith.cmpi slt, %k2, %q : i32
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @times_two_wraps window {
// CHECK:         mask.lane_cmp "sge", 2 * lane + %{{.*}} + -2147483648 {mask.wrap} : i64
// CHECK:         mask.lane_cmp "slt", 2 * lane + %{{.*}} + -4294967296 : i64
// CHECK:         mask.lane_cmp "sle", 2 * lane + %{{.*}} + -2147483647 {mask.wrap} : i64
// CHECK:         mask.lane_cmp "slt", 2 * lane + %{{.*}} + 0 : i64
// CHECK:         %[[LT:.*]] = arith.ori
// CHECK-NEXT:    mask.yield %[[LT]] : i1

// ... but in i64 it is exact: coefficient 2.
mask.func @times_two_i64 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %k64 = arith.extsi %kv : i32 to i64
  %q64 = arith.extsi %q : i32 to i64
  %c2 = arith.constant 2 : i64
  %k2 = arith.muli %k64, %c2 : i64
  %lt = arith.cmpi slt, %k2, %q64 : i64
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @times_two_i64 window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[KV64:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[KV2:.*]] = arith.muli %[[KV64]], %[[TWO]] : i64
// CHECK-NEXT:    %[[Q64:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[KV2]], %[[Q64]] : i64
// CHECK-NEXT:    %[[LT:.*]] = mask.lane_cmp "slt", 2 * lane + %[[U]] + 0 : i64
// CHECK-NEXT:    mask.yield %[[LT]] : i1
// CHECK-NEXT:  }

// Unsigned predicates are not rewritten.
mask.func @unsigned {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi uge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @unsigned window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi uge, %[[Q]], %[[KVL]] : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// A lane-uniform comparison is left alone.
mask.func @uniform {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %eq = arith.cmpi eq, %b, %h : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %r = arith.andi %eq, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @uniform window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.andi %[[EQ]], %[[GE]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// A function that never reads kv_idx is windowed too.
mask.func @uniform_only {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %eq = arith.cmpi eq, %b, %h : i32
  mask.yield %eq : i1
}

// CHECK-LABEL: mask.func @uniform_only window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    mask.yield %[[EQ]] : i1
// CHECK-NEXT:  }

// The lane cancels: (kv + L) - (kv + L) < q is the uniform 0 - q < 0.
mask.func @lane_cancels {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %kv, %kv : i32
  %p = arith.cmpi slt, %d, %q : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @lane_cancels window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[NQ:.*]] = arith.subi %[[Z0]], %[[Q]] : i32
// CHECK-NEXT:    %[[Z1:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi slt, %[[NQ]], %[[Z1]] : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// An already windowed function is not touched (its kv_idx is the window base).
mask.func @already_windowed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @already_windowed window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// kv >= -2^63 in i64: the lane_cmp offset would be +2^63, beyond its i64
// attribute; the comparison holds on the whole domain, so it folds.
mask.func @offset_beyond_i64 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %k64 = arith.extsi %kv : i32 to i64
  %min = arith.constant -9223372036854775808 : i64
  %ge = arith.cmpi sge, %k64, %min : i64
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @offset_beyond_i64 window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[GE:.*]] = arith.constant true
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// Lane case splitting of a remainder by 40: (kv + L) mod 40 takes two affine
// pieces over the window, [0, 40 - R) and [40 - R, 80 - R) with R = kv mod 40.
// The piece guards share R, so fold-intervals sees them disjoint.
mask.func @column_pieces {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c40 = arith.constant 40 : i32
  %col = mask.floormod %kv, %c40 : i32
  %qcol = mask.floormod %q, %c40 : i32
  %le = arith.cmpi sle, %col, %qcol : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @column_pieces window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[C40:.*]] = arith.constant 40 : i32
// CHECK-NEXT:   %[[QCOL:.*]] = mask.floormod %[[Q]], %[[C40]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 40 : i32
// CHECK-NEXT:   %[[V1:.*]] = mask.floormod %[[KV]], %[[V0]] : i32
// CHECK-NEXT:   %[[V2:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V3:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -40 : i32
// CHECK-NEXT:   %[[V4:.*]] = arith.andi %[[V2]], %[[V3]] : i1
// CHECK-NEXT:   %[[V5:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -40 : i32
// CHECK-NEXT:   %[[V6:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -80 : i32
// CHECK-NEXT:   %[[V7:.*]] = arith.andi %[[V5]], %[[V6]] : i1
// CHECK-NEXT:   %[[V8:.*]] = arith.subi %[[V1]], %[[QCOL]] : i32
// CHECK-NEXT:   %[[V9:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V8]] + 0 : i32
// CHECK-NEXT:   %[[V10:.*]] = arith.andi %[[V4]], %[[V9]] : i1
// CHECK-NEXT:   %[[V11:.*]] = arith.subi %[[V1]], %[[QCOL]] : i32
// CHECK-NEXT:   %[[V12:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V11]] + -40 : i32
// CHECK-NEXT:   %[[V13:.*]] = arith.andi %[[V7]], %[[V12]] : i1
// CHECK-NEXT:   %[[LE:.*]] = arith.ori %[[V10]], %[[V13]] : i1
// CHECK-NEXT:   mask.yield %[[LE]] : i1
// CHECK-NEXT: }

// A quotient by 48 splits into two pieces where it is lane-uniform
// (Q = kv // 48, Q + 1); the comparison kv + L < 480 = 10 * 48 is aligned
// with the pieces and becomes Q + k < 10 in piece k.
mask.func @aligned_blocks {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c48 = arith.constant 48 : i32
  %c2 = arith.constant 2 : i32
  %c0 = arith.constant 0 : i32
  %c480 = arith.constant 480 : i32
  %blk = arith.floordivsi %kv, %c48 : i32
  %par = mask.floormod %blk, %c2 : i32
  %even = arith.cmpi eq, %par, %c0 : i32
  %in = arith.cmpi slt, %kv, %c480 : i32
  %keep = arith.andi %even, %in : i1
  mask.yield %keep : i1
}

// CHECK-LABEL: mask.func @aligned_blocks window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 48 : i32
// CHECK-NEXT:   %[[V1:.*]] = mask.floormod %[[KV]], %[[V0]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 48 : i32
// CHECK-NEXT:   %[[V3:.*]] = arith.floordivsi %[[KV]], %[[V2]] : i32
// CHECK-NEXT:   %[[V4:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V5:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -48 : i32
// CHECK-NEXT:   %[[V6:.*]] = arith.andi %[[V4]], %[[V5]] : i1
// CHECK-NEXT:   %[[V7:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -48 : i32
// CHECK-NEXT:   %[[V8:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -96 : i32
// CHECK-NEXT:   %[[V9:.*]] = arith.andi %[[V7]], %[[V8]] : i1
// CHECK-NEXT:   %[[V10:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V11:.*]] = arith.addi %[[V3]], %[[V10]] : i32
// CHECK-NEXT:   %[[V12:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V13:.*]] = arith.addi %[[V3]], %[[V12]] : i32
// CHECK-NEXT:   %[[PAR:.*]] = mask.floormod %[[V11]], %[[C2]] : i32
// CHECK-NEXT:   %[[EVEN:.*]] = arith.cmpi eq, %[[PAR]], %[[C0]] : i32
// CHECK-NEXT:   %[[V14:.*]] = arith.andi %[[V6]], %[[EVEN]] : i1
// CHECK-NEXT:   %[[PAR_1:.*]] = mask.floormod %[[V13]], %[[C2]] : i32
// CHECK-NEXT:   %[[EVEN_1:.*]] = arith.cmpi eq, %[[PAR_1]], %[[C0]] : i32
// CHECK-NEXT:   %[[V15:.*]] = arith.andi %[[V9]], %[[EVEN_1]] : i1
// CHECK-NEXT:   %[[EVEN_2:.*]] = arith.ori %[[V14]], %[[V15]] : i1
// CHECK-NEXT:   %[[V16:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V17:.*]] = arith.addi %[[V3]], %[[V16]] : i32
// CHECK-NEXT:   %[[V18:.*]] = arith.constant 10 : i32
// CHECK-NEXT:   %[[V19:.*]] = arith.cmpi slt, %[[V17]], %[[V18]] : i32
// CHECK-NEXT:   %[[V20:.*]] = arith.andi %[[V6]], %[[V19]] : i1
// CHECK-NEXT:   %[[V21:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V22:.*]] = arith.addi %[[V3]], %[[V21]] : i32
// CHECK-NEXT:   %[[V23:.*]] = arith.constant 10 : i32
// CHECK-NEXT:   %[[V24:.*]] = arith.cmpi slt, %[[V22]], %[[V23]] : i32
// CHECK-NEXT:   %[[V25:.*]] = arith.andi %[[V9]], %[[V24]] : i1
// CHECK-NEXT:   %[[IN:.*]] = arith.ori %[[V20]], %[[V25]] : i1
// CHECK-NEXT:   %[[KEEP:.*]] = arith.andi %[[EVEN_2]], %[[IN]] : i1
// CHECK-NEXT:   mask.yield %[[KEEP]] : i1
// CHECK-NEXT: }

// A select deep in an operand (abs(q - kv) mod 4 == 0) splits the
// comparison over its arms; each arm is left as a periodic comparison.
mask.func @select_in_operand {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c4 = arith.constant 4 : i32
  %c0 = arith.constant 0 : i32
  %d = arith.subi %q, %kv : i32
  %n = arith.subi %kv, %q : i32
  %pos = arith.cmpi sge, %d, %c0 : i32
  %abs = arith.select %pos, %d, %n : i32
  %r = mask.floormod %abs, %c4 : i32
  %dil = arith.cmpi eq, %r, %c0 : i32
  mask.yield %dil : i1
}

// CHECK-LABEL: mask.func @select_in_operand window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:   %[[KV_1:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[D:.*]] = arith.subi %[[Q]], %[[KV_1]] : i32
// CHECK-NEXT:   %[[N:.*]] = arith.subi %[[KV_1]], %[[Q]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:   %[[POS:.*]] = mask.lane_cmp "sge", -1 * lane + %[[V0]] + 0 : i32
// CHECK-NEXT:   %[[V1:.*]] = arith.constant true
// CHECK-NEXT:   %[[V2:.*]] = arith.xori %[[POS]], %[[V1]] : i1
// CHECK-NEXT:   %[[R:.*]] = mask.floormod %[[D]], %[[C4]] : i32
// CHECK-NEXT:   %[[DIL:.*]] = arith.cmpi eq, %[[R]], %[[C0]] : i32
// CHECK-NEXT:   %[[V3:.*]] = arith.andi %[[POS]], %[[DIL]] : i1
// CHECK-NEXT:   %[[R_1:.*]] = mask.floormod %[[N]], %[[C4]] : i32
// CHECK-NEXT:   %[[DIL_1:.*]] = arith.cmpi eq, %[[R_1]], %[[C0]] : i32
// CHECK-NEXT:   %[[V4:.*]] = arith.andi %[[V2]], %[[DIL_1]] : i1
// CHECK-NEXT:   %[[DIL_2:.*]] = arith.ori %[[V3]], %[[V4]] : i1
// CHECK-NEXT:   mask.yield %[[DIL_2]] : i1
// CHECK-NEXT: }

// A quotient by a lane-uniform divisor D > 0 (here h mod 4 + 1, in [1, 4])
// compared with a lane-uniform value W: kv // D <= W is kv + L - W * D -
// D + 1 <= 0, with W * D computed exactly in i64.
mask.func @uniform_divisor {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %r = mask.floormod %h, %c4 : i32
  %d = arith.addi %r, %c1 : i32
  %qb = arith.floordivsi %q, %d : i32
  %kb = arith.floordivsi %kv, %d : i32
  %same = arith.cmpi sle, %kb, %qb : i32
  mask.yield %same : i1
}

// CHECK-LABEL: mask.func @uniform_divisor window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[R:.*]] = mask.floormod %[[H]], %[[C4]] : i32
// CHECK-NEXT:   %[[D:.*]] = arith.addi %[[R]], %[[C1]] : i32
// CHECK-NEXT:   %[[QB:.*]] = arith.floordivsi %[[Q]], %[[D]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.extsi %[[QB]] : i32 to i64
// CHECK-NEXT:   %[[V1:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V2:.*]] = arith.muli %[[V0]], %[[V1]] : i64
// CHECK-NEXT:   %[[V3:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V4:.*]] = arith.subi %[[V3]], %[[V2]] : i64
// CHECK-NEXT:   %[[V5:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V6:.*]] = arith.subi %[[V4]], %[[V5]] : i64
// CHECK-NEXT:   %[[SAME:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V6]] + 1 : i64
// CHECK-NEXT:   mask.yield %[[SAME]] : i1
// CHECK-NEXT: }

// Step 6: `kv // 64` compared with three lane-uniform tile ids (VSA's
// any(topk[q // 64] == kv // 64)) is split at the tile boundary, where each
// comparison is the lane-uniform Q + k == t (Q = kv // 64), rather than
// becoming three block ranges.
mask.func @topk_tiles {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %topk : tensor<16x3xi32>):
  %c64 = arith.constant 64 : i32
  %i0 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64
  %i2 = arith.constant 2 : i64
  %qt = arith.floordivsi %q, %c64 : i32
  %t0 = mask.load %topk[%qt, %i0] : tensor<16x3xi32>[i32, i64] -> i32
  %t1 = mask.load %topk[%qt, %i1] : tensor<16x3xi32>[i32, i64] -> i32
  %t2 = mask.load %topk[%qt, %i2] : tensor<16x3xi32>[i32, i64] -> i32
  %kt = arith.floordivsi %kv, %c64 : i32
  %e0 = arith.cmpi eq, %t0, %kt : i32
  %e1 = arith.cmpi eq, %t1, %kt : i32
  %e2 = arith.cmpi eq, %t2, %kt : i32
  %a = arith.ori %e0, %e1 : i1
  %any = arith.ori %a, %e2 : i1
  mask.yield %any : i1
}

// CHECK-LABEL: mask.func @topk_tiles window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[TOPK:.*]]: tensor<16x3xi32>):
// CHECK-NEXT:   %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[I0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[I1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:   %[[I2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:   %[[QT:.*]] = arith.floordivsi %[[Q]], %[[C64]] : i32
// CHECK-NEXT:   %[[T0:.*]] = mask.load %[[TOPK]][%[[QT]], %[[I0]]] : tensor<16x3xi32>[i32, i64] -> i32
// CHECK-NEXT:   %[[T1:.*]] = mask.load %[[TOPK]][%[[QT]], %[[I1]]] : tensor<16x3xi32>[i32, i64] -> i32
// CHECK-NEXT:   %[[T2:.*]] = mask.load %[[TOPK]][%[[QT]], %[[I2]]] : tensor<16x3xi32>[i32, i64] -> i32
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V1:.*]] = mask.floormod %[[KV]], %[[V0]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V3:.*]] = arith.floordivsi %[[KV]], %[[V2]] : i32
// CHECK-NEXT:   %[[V4:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V5:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V6:.*]] = arith.andi %[[V4]], %[[V5]] : i1
// CHECK-NEXT:   %[[V7:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V8:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -128 : i32
// CHECK-NEXT:   %[[V9:.*]] = arith.andi %[[V7]], %[[V8]] : i1
// CHECK-NEXT:   %[[V10:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V11:.*]] = arith.addi %[[V3]], %[[V10]] : i32
// CHECK-NEXT:   %[[V12:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V13:.*]] = arith.addi %[[V3]], %[[V12]] : i32
// CHECK-NEXT:   %[[E0:.*]] = arith.cmpi eq, %[[T0]], %[[V11]] : i32
// CHECK-NEXT:   %[[V14:.*]] = arith.andi %[[V6]], %[[E0]] : i1
// CHECK-NEXT:   %[[E0_1:.*]] = arith.cmpi eq, %[[T0]], %[[V13]] : i32
// CHECK-NEXT:   %[[V15:.*]] = arith.andi %[[V9]], %[[E0_1]] : i1
// CHECK-NEXT:   %[[E0_2:.*]] = arith.ori %[[V14]], %[[V15]] : i1
// CHECK-NEXT:   %[[V16:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V17:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V18:.*]] = arith.andi %[[V16]], %[[V17]] : i1
// CHECK-NEXT:   %[[V19:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V20:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -128 : i32
// CHECK-NEXT:   %[[V21:.*]] = arith.andi %[[V19]], %[[V20]] : i1
// CHECK-NEXT:   %[[V22:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V23:.*]] = arith.addi %[[V3]], %[[V22]] : i32
// CHECK-NEXT:   %[[V24:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V25:.*]] = arith.addi %[[V3]], %[[V24]] : i32
// CHECK-NEXT:   %[[E1:.*]] = arith.cmpi eq, %[[T1]], %[[V23]] : i32
// CHECK-NEXT:   %[[V26:.*]] = arith.andi %[[V18]], %[[E1]] : i1
// CHECK-NEXT:   %[[E1_1:.*]] = arith.cmpi eq, %[[T1]], %[[V25]] : i32
// CHECK-NEXT:   %[[V27:.*]] = arith.andi %[[V21]], %[[E1_1]] : i1
// CHECK-NEXT:   %[[E1_2:.*]] = arith.ori %[[V26]], %[[V27]] : i1
// CHECK-NEXT:   %[[V28:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V29:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V30:.*]] = arith.andi %[[V28]], %[[V29]] : i1
// CHECK-NEXT:   %[[V31:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V32:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -128 : i32
// CHECK-NEXT:   %[[V33:.*]] = arith.andi %[[V31]], %[[V32]] : i1
// CHECK-NEXT:   %[[V34:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V35:.*]] = arith.addi %[[V3]], %[[V34]] : i32
// CHECK-NEXT:   %[[V36:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V37:.*]] = arith.addi %[[V3]], %[[V36]] : i32
// CHECK-NEXT:   %[[E2:.*]] = arith.cmpi eq, %[[T2]], %[[V35]] : i32
// CHECK-NEXT:   %[[V38:.*]] = arith.andi %[[V30]], %[[E2]] : i1
// CHECK-NEXT:   %[[E2_1:.*]] = arith.cmpi eq, %[[T2]], %[[V37]] : i32
// CHECK-NEXT:   %[[V39:.*]] = arith.andi %[[V33]], %[[E2_1]] : i1
// CHECK-NEXT:   %[[E2_2:.*]] = arith.ori %[[V38]], %[[V39]] : i1
// CHECK-NEXT:   %[[A:.*]] = arith.ori %[[E0_2]], %[[E1_2]] : i1
// CHECK-NEXT:   %[[ANY:.*]] = arith.ori %[[A]], %[[E2_2]] : i1
// CHECK-NEXT:   mask.yield %[[ANY]] : i1
// CHECK-NEXT: }


// One comparison of `kv // 64` whose quotient also indexes an aux tensor
// (the load only packs split) is split too, aligned with the load's pieces;
// in piece 1 the load index Q + 1 is clamped to (kv + 31) // 64, the tile of
// the last lane, so an empty piece 1 reads no tile the mask does not read.
mask.func @tile_sizes {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %sizes : tensor<17xi64>, %t : i32):
  %c64 = arith.constant 64 : i32
  %kt = arith.floordivsi %kv, %c64 : i32
  %hit = arith.cmpi eq, %kt, %t : i32
  %off = mask.floormod %kv, %c64 : i32
  %n = mask.load %sizes[%kt] : tensor<17xi64>[i32] -> i64
  %off64 = arith.extsi %off : i32 to i64
  %real = arith.cmpi slt, %off64, %n : i64
  %keep = arith.andi %hit, %real : i1
  mask.yield %keep : i1
}

// CHECK-LABEL: mask.func @tile_sizes window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[SIZES:.*]]: tensor<17xi64>, %[[T:.*]]: i32):
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V1:.*]] = mask.floormod %[[KV]], %[[V0]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V3:.*]] = arith.floordivsi %[[KV]], %[[V2]] : i32
// CHECK-NEXT:   %[[V4:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V5:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V6:.*]] = arith.andi %[[V4]], %[[V5]] : i1
// CHECK-NEXT:   %[[V7:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V8:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -128 : i32
// CHECK-NEXT:   %[[V9:.*]] = arith.andi %[[V7]], %[[V8]] : i1
// CHECK-NEXT:   %[[V10:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V11:.*]] = arith.addi %[[V3]], %[[V10]] : i32
// CHECK-NEXT:   %[[V12:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V13:.*]] = arith.addi %[[V3]], %[[V12]] : i32
// CHECK-NEXT:   %[[HIT:.*]] = arith.cmpi eq, %[[V11]], %[[T]] : i32
// CHECK-NEXT:   %[[V14:.*]] = arith.andi %[[V6]], %[[HIT]] : i1
// CHECK-NEXT:   %[[HIT_1:.*]] = arith.cmpi eq, %[[V13]], %[[T]] : i32
// CHECK-NEXT:   %[[V15:.*]] = arith.andi %[[V9]], %[[HIT_1]] : i1
// CHECK-NEXT:   %[[HIT_2:.*]] = arith.ori %[[V14]], %[[V15]] : i1
// CHECK-NEXT:   %[[V16:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + 0 : i32
// CHECK-NEXT:   %[[V17:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V18:.*]] = arith.andi %[[V16]], %[[V17]] : i1
// CHECK-NEXT:   %[[V19:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V1]] + -64 : i32
// CHECK-NEXT:   %[[V20:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V1]] + -128 : i32
// CHECK-NEXT:   %[[V21:.*]] = arith.andi %[[V19]], %[[V20]] : i1
// CHECK-NEXT:   %[[V22:.*]] = arith.constant 31 : i32
// CHECK-NEXT:   %[[V23:.*]] = arith.addi %[[KV]], %[[V22]] : i32
// CHECK-NEXT:   %[[V24:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V25:.*]] = arith.floordivsi %[[V23]], %[[V24]] : i32
// CHECK-NEXT:   %[[V26:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V27:.*]] = arith.addi %[[V3]], %[[V26]] : i32
// CHECK-NEXT:   %[[V28:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[V29:.*]] = arith.addi %[[V3]], %[[V28]] : i32
// CHECK-NEXT:   %[[V30:.*]] = arith.minsi %[[V29]], %[[V25]] : i32
// CHECK-NEXT:   %[[N:.*]] = mask.load %[[SIZES]][%[[V27]]] : tensor<17xi64>[i32] -> i64
// CHECK-NEXT:   %[[V31:.*]] = arith.constant 1099511627776 : i64
// CHECK-NEXT:   %[[V32:.*]] = arith.constant -1099511627776 : i64
// CHECK-NEXT:   %[[V33:.*]] = arith.minsi %[[N]], %[[V31]] : i64
// CHECK-NEXT:   %[[V34:.*]] = arith.maxsi %[[V33]], %[[V32]] : i64
// CHECK-NEXT:   %[[V35:.*]] = arith.extsi %[[V1]] : i32 to i64
// CHECK-NEXT:   %[[V36:.*]] = arith.subi %[[V35]], %[[V34]] : i64
// CHECK-NEXT:   %[[V37:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V36]] + 0 : i64
// CHECK-NEXT:   %[[V38:.*]] = arith.andi %[[V18]], %[[V37]] : i1
// CHECK-NEXT:   %[[N_1:.*]] = mask.load %[[SIZES]][%[[V30]]] : tensor<17xi64>[i32] -> i64
// CHECK-NEXT:   %[[V39:.*]] = arith.constant 1099511627840 : i64
// CHECK-NEXT:   %[[V40:.*]] = arith.constant -1099511627840 : i64
// CHECK-NEXT:   %[[V41:.*]] = arith.minsi %[[N_1]], %[[V39]] : i64
// CHECK-NEXT:   %[[V42:.*]] = arith.maxsi %[[V41]], %[[V40]] : i64
// CHECK-NEXT:   %[[V43:.*]] = arith.extsi %[[V1]] : i32 to i64
// CHECK-NEXT:   %[[V44:.*]] = arith.subi %[[V43]], %[[V42]] : i64
// CHECK-NEXT:   %[[V45:.*]] = mask.lane_cmp "slt", 1 * lane + %[[V44]] + -64 : i64
// CHECK-NEXT:   %[[V46:.*]] = arith.andi %[[V21]], %[[V45]] : i1
// CHECK-NEXT:   %[[REAL:.*]] = arith.ori %[[V38]], %[[V46]] : i1
// CHECK-NEXT:   %[[KEEP:.*]] = arith.andi %[[HIT_2]], %[[REAL]] : i1
// CHECK-NEXT:   mask.yield %[[KEEP]] : i1
// CHECK-NEXT: }

// A comparison of a value that wraps in i32: d = (q + 768) - (kv + L) is the
// exact E = s - kv - L wrapped to i32 (s = q + 768, an atom; the wrap of s is
// the atom's own). E + 2^32 * k is in i32 for k = 0 (E >= -2^31) or k = 1
// (E <= -2^31 - 1), so `d <= 100` is the OR of the two branches, each a bound
// on E and the comparison of E + 2^32 * k; every lane coefficient stays -1.
// The bounds on E (where it wraps) are marked `mask.wrap`, for remarks.
mask.func @wrapping_difference {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c768 = arith.constant 768 : i32
  %c100 = arith.constant 100 : i32
  %s = arith.addi %q, %c768 : i32
  %d = arith.subi %s, %kv : i32
  %le = arith.cmpi sle, %d, %c100 : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @wrapping_difference window {
// CHECK:         %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         %[[E0:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[IN0:.*]] = mask.lane_cmp "sge", -1 * lane + %[[E0]] + 2147483648 {mask.wrap} : i64
// CHECK:         %[[LE0:.*]] = mask.lane_cmp "sle", -1 * lane + %{{.*}} + -100 : i64
// CHECK-NEXT:    %[[B0:.*]] = arith.andi %[[IN0]], %[[LE0]] : i1
// CHECK:         %[[IN1:.*]] = mask.lane_cmp "sle", -1 * lane + %{{.*}} + 2147483649 {mask.wrap} : i64
// CHECK:         %[[LE1:.*]] = mask.lane_cmp "sle", -1 * lane + %{{.*}} + 4294967196 : i64
// CHECK-NEXT:    %[[B1:.*]] = arith.andi %[[IN1]], %[[LE1]] : i1
// CHECK-NEXT:    %[[LE:.*]] = arith.ori %[[B0]], %[[B1]] : i1
// CHECK-NEXT:    mask.yield %[[LE]] : i1

// ... also when the comparison itself gets lane coefficient -2 (d = s -
// (kv + L) against kv + L): the branches' `s - 2 * kv - 2 * L < 0` become
// +-1 comparisons with a floor division by 2 in the canonicalization.
mask.func @wrapping_against_kv {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c768 = arith.constant 768 : i32
  %s = arith.addi %q, %c768 : i32
  %d = arith.subi %s, %kv : i32
  %lt = arith.cmpi slt, %d, %kv : i32
  mask.yield %lt : i1
}

// CHECK-LABEL: mask.func @wrapping_against_kv window {
// CHECK:         mask.lane_cmp "sge", -1 * lane + %{{.*}} + 2147483648 {mask.wrap} : i64
// CHECK:         mask.lane_cmp "slt", -2 * lane + %{{.*}} + 0 : i64
// CHECK:         mask.lane_cmp "sle", -1 * lane + %{{.*}} + 2147483649 {mask.wrap} : i64
// CHECK:         mask.lane_cmp "slt", -2 * lane + %{{.*}} + 4294967296 : i64
// CHECK:         %[[LT:.*]] = arith.ori
// CHECK-NEXT:    mask.yield %[[LT]] : i1

// Nested selects: the inner condition (kv // 64 == h) is rewritten first, into
// two lane_cmps; the outer comparison is then split over the outer select
// (kv < 4), and each piece's clone of the inner select, whose condition is
// now those lane_cmps, is distributed over its arms too. No lane_cmp may take
// a select of a lane-dependent condition as its lane-uniform operand.
mask.func @nested_select_rewritten_condition {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c4 = arith.constant 4 : i32
  %c20 = arith.constant 20 : i32
  %c64 = arith.constant 64 : i32
  %sink = arith.cmpi slt, %kv, %c4 : i32
  %qm = arith.subi %q, %c20 : i32
  %x = arith.select %sink, %q, %qm : i32
  %blk = arith.floordivsi %kv, %c64 : i32
  %head = arith.cmpi eq, %blk, %h : i32
  %xm = arith.subi %x, %c20 : i32
  %y = arith.select %head, %x, %xm : i32
  %keep = arith.cmpi sge, %y, %kv : i32
  mask.yield %keep : i1
}

// CHECK-LABEL: mask.func @nested_select_rewritten_condition window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[SINK:.*]] = mask.lane_cmp "slt", 1 * lane + %[[KV]] + -4 : i32
// CHECK:         %[[LO:.*]] = mask.lane_cmp "sge", 1 * lane + %{{.*}} + 0 : i64
// CHECK:         %[[HI:.*]] = mask.lane_cmp "sle", 1 * lane + %{{.*}} + -63 : i64
// CHECK-NEXT:    %[[HEAD:.*]] = arith.andi %[[LO]], %[[HI]] : i1
// CHECK-NEXT:    %[[T0:.*]] = arith.constant true
// CHECK-NEXT:    %[[NSINK:.*]] = arith.xori %[[SINK]], %[[T0]] : i1
// CHECK-NEXT:    %[[D0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[A0:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D0]] + 0 : i32
// CHECK-NEXT:    %[[D1:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[B0:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D1]] + -20 : i32
// CHECK-NEXT:    %[[T1:.*]] = arith.constant true
// CHECK-NEXT:    %[[NHEAD:.*]] = arith.xori %[[HEAD]], %[[T1]] : i1
// CHECK-NEXT:    %[[Y0:.*]] = arith.andi %[[HEAD]], %[[A0]] : i1
// CHECK-NEXT:    %[[N0:.*]] = arith.andi %[[NHEAD]], %[[B0]] : i1
// CHECK-NEXT:    %[[P0:.*]] = arith.ori %[[Y0]], %[[N0]] : i1
// CHECK-NEXT:    %[[G0:.*]] = arith.andi %[[SINK]], %[[P0]] : i1
// CHECK-NEXT:    %[[D2:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[A1:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D2]] + -20 : i32
// CHECK-NEXT:    %[[D3:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[B1:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D3]] + -40 : i32
// CHECK-NEXT:    %[[T2:.*]] = arith.constant true
// CHECK-NEXT:    %[[NHEAD1:.*]] = arith.xori %[[HEAD]], %[[T2]] : i1
// CHECK-NEXT:    %[[Y1:.*]] = arith.andi %[[HEAD]], %[[A1]] : i1
// CHECK-NEXT:    %[[N1:.*]] = arith.andi %[[NHEAD1]], %[[B1]] : i1
// CHECK-NEXT:    %[[P1:.*]] = arith.ori %[[Y1]], %[[N1]] : i1
// CHECK-NEXT:    %[[G1:.*]] = arith.andi %[[NSINK]], %[[P1]] : i1
// CHECK-NEXT:    %[[KEEP:.*]] = arith.ori %[[G0]], %[[G1]] : i1
// CHECK-NEXT:    mask.yield %[[KEEP]] : i1
// CHECK-NEXT:  }

// A floor division by a negative constant D compared with a lane-uniform W:
// A // D decreases in A, so A // D == W keeps A in [W * D + D + 1, W * D]
// (q // -64 == kv // -64: the blocks (64k - 64, 64k] of q and kv).
mask.func @negative_divisor {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm64 = arith.constant -64 : i32
  %qb = arith.floordivsi %q, %cm64 : i32
  %kb = arith.floordivsi %kv, %cm64 : i32
  %same = arith.cmpi eq, %qb, %kb : i32
  mask.yield %same : i1
}

// CHECK-LABEL: mask.func @negative_divisor window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[CM64:.*]] = arith.constant -64 : i32
// CHECK-NEXT:   %[[QB:.*]] = arith.floordivsi %[[Q]], %[[CM64]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V1:.*]] = arith.muli %[[QB]], %[[V0]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.addi %[[KV]], %[[V1]] : i32
// CHECK-NEXT:   %[[V3:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V2]] + 63 : i32
// CHECK-NEXT:   %[[V4:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[V5:.*]] = arith.muli %[[QB]], %[[V4]] : i32
// CHECK-NEXT:   %[[V6:.*]] = arith.addi %[[KV]], %[[V5]] : i32
// CHECK-NEXT:   %[[V7:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V6]] + 0 : i32
// CHECK-NEXT:   %[[SAME:.*]] = arith.andi %[[V3]], %[[V7]] : i1
// CHECK-NEXT:   mask.yield %[[SAME]] : i1
// CHECK-NEXT: }

// A // D >= W for D < 0 is A <= W * D (kv // -100 >= q // -100 - 1).
mask.func @negative_divisor_sge {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm100 = arith.constant -100 : i32
  %c1 = arith.constant 1 : i32
  %qb = arith.floordivsi %q, %cm100 : i32
  %w = arith.subi %qb, %c1 : i32
  %kb = arith.floordivsi %kv, %cm100 : i32
  %ge = arith.cmpi sge, %kb, %w : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @negative_divisor_sge window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[CM100:.*]] = arith.constant -100 : i32
// CHECK-NEXT:   %[[QB:.*]] = arith.floordivsi %[[Q]], %[[CM100]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V1:.*]] = arith.extsi %[[QB]] : i32 to i64
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 100 : i64
// CHECK-NEXT:   %[[V3:.*]] = arith.muli %[[V1]], %[[V2]] : i64
// CHECK-NEXT:   %[[V4:.*]] = arith.addi %[[V0]], %[[V3]] : i64
// CHECK-NEXT:   %[[GE:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V4]] + -100 : i64
// CHECK-NEXT:   mask.yield %[[GE]] : i1
// CHECK-NEXT: }

// A lane-uniform divisor of unknown sign (an aux load, zero included):
// A // D == W keeps A in [W * D + min(D + 1, 0), W * D + max(D - 1, 0)],
// which is [W * D, W * D + D - 1] for D > 0 and [W * D + D + 1, W * D] for
// D < 0 (D = 0: torch raises, any word is right).
mask.func @aux_divisor {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %chunk : tensor<4xi32>):
  %d = mask.load %chunk[%b] : tensor<4xi32>[i32] -> i32
  %qb = arith.floordivsi %q, %d : i32
  %kb = arith.floordivsi %kv, %d : i32
  %same = arith.cmpi eq, %kb, %qb : i32
  mask.yield %same : i1
}

// CHECK-LABEL: mask.func @aux_divisor window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[CHUNK:.*]]: tensor<4xi32>):
// CHECK-NEXT:   %[[D:.*]] = mask.load %[[CHUNK]][%[[B]]] : tensor<4xi32>[i32] -> i32
// CHECK-NEXT:   %[[QB:.*]] = arith.floordivsi %[[Q]], %[[D]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.extsi %[[QB]] : i32 to i64
// CHECK-NEXT:   %[[V1:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V2:.*]] = arith.muli %[[V0]], %[[V1]] : i64
// CHECK-NEXT:   %[[V3:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V4:.*]] = arith.constant 1 : i64
// CHECK-NEXT:   %[[V5:.*]] = arith.addi %[[V3]], %[[V4]] : i64
// CHECK-NEXT:   %[[V6:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[V7:.*]] = arith.minsi %[[V5]], %[[V6]] : i64
// CHECK-NEXT:   %[[V8:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V9:.*]] = arith.constant -1 : i64
// CHECK-NEXT:   %[[V10:.*]] = arith.addi %[[V8]], %[[V9]] : i64
// CHECK-NEXT:   %[[V11:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[V12:.*]] = arith.maxsi %[[V10]], %[[V11]] : i64
// CHECK-NEXT:   %[[V13:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V14:.*]] = arith.subi %[[V13]], %[[V2]] : i64
// CHECK-NEXT:   %[[V15:.*]] = arith.subi %[[V14]], %[[V7]] : i64
// CHECK-NEXT:   %[[V16:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V15]] + 0 : i64
// CHECK-NEXT:   %[[V17:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V18:.*]] = arith.subi %[[V17]], %[[V2]] : i64
// CHECK-NEXT:   %[[V19:.*]] = arith.subi %[[V18]], %[[V12]] : i64
// CHECK-NEXT:   %[[V20:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V19]] + 0 : i64
// CHECK-NEXT:   %[[SAME:.*]] = arith.andi %[[V16]], %[[V20]] : i1
// CHECK-NEXT:   mask.yield %[[SAME]] : i1
// CHECK-NEXT: }

// ... and an inequality is the OR of its forms for D > 0 and D < 0, each
// guarded by the lane-uniform sign test.
mask.func @aux_divisor_sle {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %chunk : tensor<4xi32>):
  %d = mask.load %chunk[%b] : tensor<4xi32>[i32] -> i32
  %qb = arith.floordivsi %q, %d : i32
  %kb = arith.floordivsi %kv, %d : i32
  %le = arith.cmpi sle, %kb, %qb : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @aux_divisor_sle window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[CHUNK:.*]]: tensor<4xi32>):
// CHECK-NEXT:   %[[D:.*]] = mask.load %[[CHUNK]][%[[B]]] : tensor<4xi32>[i32] -> i32
// CHECK-NEXT:   %[[QB:.*]] = arith.floordivsi %[[Q]], %[[D]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.extsi %[[QB]] : i32 to i64
// CHECK-NEXT:   %[[V1:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V2:.*]] = arith.muli %[[V0]], %[[V1]] : i64
// CHECK-NEXT:   %[[V3:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V4:.*]] = arith.subi %[[V3]], %[[V2]] : i64
// CHECK-NEXT:   %[[V5:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V6:.*]] = arith.subi %[[V4]], %[[V5]] : i64
// CHECK-NEXT:   %[[V7:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V6]] + 1 : i64
// CHECK-NEXT:   %[[V8:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V9:.*]] = arith.cmpi sgt, %[[D]], %[[V8]] : i32
// CHECK-NEXT:   %[[V10:.*]] = arith.andi %[[V9]], %[[V7]] : i1
// CHECK-NEXT:   %[[V11:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:   %[[V12:.*]] = arith.subi %[[V11]], %[[V2]] : i64
// CHECK-NEXT:   %[[V13:.*]] = arith.extsi %[[D]] : i32 to i64
// CHECK-NEXT:   %[[V14:.*]] = arith.subi %[[V12]], %[[V13]] : i64
// CHECK-NEXT:   %[[V15:.*]] = mask.lane_cmp "sge", 1 * lane + %[[V14]] + -1 : i64
// CHECK-NEXT:   %[[V16:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V17:.*]] = arith.cmpi slt, %[[D]], %[[V16]] : i32
// CHECK-NEXT:   %[[V18:.*]] = arith.andi %[[V17]], %[[V15]] : i1
// CHECK-NEXT:   %[[LE:.*]] = arith.ori %[[V10]], %[[V18]] : i1
// CHECK-NEXT:   mask.yield %[[LE]] : i1
// CHECK-NEXT: }

// Not rewritten: MIN // -1 wraps (the quotient is not the floor of A / D).
mask.func @wrapping_quotient {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %min = arith.constant -2147483648 : i32
  %x = arith.addi %kv, %min : i32
  %cm1 = arith.constant -1 : i32
  %kb = arith.floordivsi %x, %cm1 : i32
  %eq = arith.cmpi eq, %kb, %q : i32
  mask.yield %eq : i1
}

// CHECK-LABEL: mask.func @wrapping_quotient window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:   %[[KV_1:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:   %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:   %[[X:.*]] = arith.addi %[[KV_1]], %[[MIN]] : i32
// CHECK-NEXT:   %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:   %[[KB:.*]] = arith.floordivsi %[[X]], %[[CM1]] : i32
// CHECK-NEXT:   %[[EQ:.*]] = arith.cmpi eq, %[[KB]], %[[Q]] : i32
// CHECK-NEXT:   mask.yield %[[EQ]] : i1
// CHECK-NEXT: }
