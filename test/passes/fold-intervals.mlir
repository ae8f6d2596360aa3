// RUN: mask-opt %s -p fold-intervals | filecheck %s --check-prefix=FOLD
// RUN: mask-opt %s -p fold-intervals,lower-interval-bounds | filecheck %s
// RUN: mask-opt %s -p 'fold-intervals{max-intervals=1}' --no-remarks | filecheck %s --check-prefix=LIMIT

// fold-intervals on hand-written lane-affine input: the i1 keep value of a
// windowed function becomes a union of lane runs and the function yields
// its keep word. Each lane bound is an `interval.bound %u * sign + k side S`,
// clip(sign * u + k, 0, 32) (the FOLD prefix checks fold-intervals' output,
// of the functions with a bound). `lower-interval-bounds` then computes it
// (the CHECK prefix): a bound that could overflow i32 is clamped, on the
// sides where it overflows only (or re-associated from its linear form with
// an atom clamped), which leaves the clipped bound unchanged; among such
// forms the one needing the fewest clamps, counting the clamp the CuTe
// target adds to a bound that may be negative, is chosen.
//
// With coefficient +1, `L + u <pred> 0` keeps L <pred> -u; with -1,
// `-L + u <pred> 0` keeps u <pred> L.

// L < -u: the run [0, -u); 0 - u overflows only for u = -2^31, so u is
// clamped from below only.
mask.func @slt_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "slt", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @slt_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -32 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @slt_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 0 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// u < L: the run [u + 1, 32).
mask.func @slt_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "slt", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @slt_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.minsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.addi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V3]], %[[V4]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @slt_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 1 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L <= -u: the run [0, 1 - u).
mask.func @sle_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sle", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sle_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sle_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// u <= L: the run [u, 32); u needs no clamp (range clips).
mask.func @sle_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sle", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sle_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V1:.*]] = interval.range %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V1]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sle_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 0 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L > -u: the run [1 - u, 32).
mask.func @sgt_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sgt", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sgt_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V3]], %[[V4]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sgt_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 1 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// u > L: the run [0, u).
mask.func @sgt_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sgt", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sgt_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V1:.*]] = interval.range %[[V0]], %[[U]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V1]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sgt_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 0 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L >= -u: the run [-u, 32).
mask.func @sge_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sge", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sge_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -32 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V3]], %[[V4]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sge_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 0 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// u >= L: the run [0, u + 1).
mask.func @sge_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "sge", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sge_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.minsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.addi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sge_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L == -u: the run [-u, 1 - u).
mask.func @eq_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "eq", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @eq_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = interval.span %[[U]] * -1 + 0 width 1 : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @eq_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 0 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[U]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L == u: the run [u, u + 1).
mask.func @eq_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "eq", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @eq_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = interval.span %[[U]] * 1 + 0 width 1 : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @eq_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 0 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[U]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L != -u: two runs, [0, -u) and [1 - u, 32).
mask.func @ne_plus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "ne", 1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ne_plus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -32 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant -31 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.maxsi %[[U]], %[[V4]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[V5]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V9:.*]] = interval.range %[[V8]], %[[V3]] : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V11:.*]] = interval.range %[[V7]], %[[V10]] : i32
// CHECK-NEXT:    %[[V12:.*]] = interval.union %[[V9]], %[[V11]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V12]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @ne_plus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 0 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[U]] * -1 + 1 side "lo" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[V0]] : i32
// FOLD-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V5:.*]] = interval.range %[[V1]], %[[V4]] : i32
// FOLD-NEXT:    %[[V6:.*]] = interval.union %[[V3]], %[[V5]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V6]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Two runs exceed max-intervals=1.
// LIMIT-LABEL: mask.func @ne_plus window unpacked "2 ranges exceed max-intervals=1 at `lane + s[b] != 0`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {
// LIMIT-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// LIMIT-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// LIMIT-NEXT:    %[[P:.*]] = mask.lane_cmp "ne", 1 * lane + %[[U]] + 0 : i32
// LIMIT-NEXT:    mask.yield %[[P]] : i1
// LIMIT-NEXT:  }

// L != u: two runs, [0, u) and [u + 1, 32).
mask.func @ne_minus window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : tensor<2xi32>):
  %u = mask.load %s[%b] : tensor<2xi32>[i32] -> i32
  %p = mask.lane_cmp "ne", -1 * lane + %u + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ne_minus window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// CHECK-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.minsi %[[U]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.addi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V5:.*]] = interval.range %[[V4]], %[[U]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.range %[[V3]], %[[V6]] : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.union %[[V5]], %[[V7]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V8]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @ne_minus window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: tensor<2xi32>):
// FOLD-NEXT:    %[[U:.*]] = mask.load %[[S]][%[[B]]] : tensor<2xi32>[i32] -> i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 0 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[U]] * 1 + 1 side "lo" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[V0]] : i32
// FOLD-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V5:.*]] = interval.range %[[V1]], %[[V4]] : i32
// FOLD-NEXT:    %[[V6:.*]] = interval.union %[[V3]], %[[V5]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V6]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Causal with an offset-free and a sliding-window bound: an intersection is
// one run [max(los), min(his)). The offset -256 is folded into the clamp.
mask.func @and window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %near = mask.lane_cmp "sle", -1 * lane + %d + -256 : i32
  %r = arith.andi %ge, %near : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @and window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.maxsi %[[D]], %[[V6]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant -256 : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.addi %[[V7]], %[[V8]] : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.range %[[V9]], %[[V5]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @and window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * 1 + -256 side "lo" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @and window {
// LIMIT:         %[[SET:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// LIMIT-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[SET]] : i32
// LIMIT-NEXT:    mask.yield %[[KEEP]] : i32

// Two bounds on the same side: min of the two ends.
mask.func @and_two_his window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %p = mask.lane_cmp "slt", 1 * lane + %kv + -128 : i32
  %r = arith.andi %ge, %p : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @and_two_his window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[KV]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.minsi %[[V5]], %[[V7]] : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.range %[[V8]], %[[V9]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @and_two_his window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[KV]] * -1 + 128 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = arith.minsi %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.range %[[V2]], %[[V3]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Prefix LM: a union of two runs that both start at lane 0, so one run up to
// the larger end (even under max-intervals=1).
mask.func @or window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %p = mask.lane_cmp "slt", 1 * lane + %kv + -128 : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %r = arith.ori %p, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @or window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[KV]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V2]], %[[D]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.maxsi %[[V3]], %[[V4]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[V5]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.maxsi %[[V1]], %[[V7]] : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.range %[[V9]], %[[V8]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @or window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[KV]] * -1 + 128 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.maxsi %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.range %[[V3]], %[[V2]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @or window {
// LIMIT:         %[[SET:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// LIMIT-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[SET]] : i32

// Negation complements: not causal is [q - kv + 1, 32).
mask.func @not window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %t = arith.constant true
  %r = arith.xori %ge, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.range %[[V5]], %[[V6]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V7]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @not window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @not window {

// De Morgan: not (A and B) is (not A) or (not B).
mask.func @not_and window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %near = mask.lane_cmp "sle", -1 * lane + %d + -256 : i32
  %a = arith.andi %ge, %near : i1
  %t = arith.constant true
  %r = arith.xori %t, %a : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_and window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.maxsi %[[D]], %[[V6]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant -256 : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.addi %[[V7]], %[[V8]] : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V11:.*]] = interval.range %[[V10]], %[[V9]] : i32
// CHECK-NEXT:    %[[V12:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V13:.*]] = interval.range %[[V5]], %[[V12]] : i32
// CHECK-NEXT:    %[[V14:.*]] = interval.union %[[V11]], %[[V13]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V14]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @not_and window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * 1 + -256 side "lo" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[V1]] : i32
// FOLD-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V5:.*]] = interval.range %[[V0]], %[[V4]] : i32
// FOLD-NEXT:    %[[V6:.*]] = interval.union %[[V3]], %[[V5]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V6]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @not_and window unpacked "2 ranges exceed max-intervals=1 at `~((-lane + (q - kv) >= 0) & (-lane + (q - kv) - 256 <= 0))`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// A xor B of two lane-dependent values: (A and not B) or (not A and B).
mask.func @xor window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %p = mask.lane_cmp "slt", 1 * lane + %kv + -128 : i32
  %r = arith.xori %ge, %p : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @xor window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[KV]] : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.range %[[V7]], %[[V5]] : i32
// CHECK-NEXT:    %[[V9:.*]] = interval.range %[[V5]], %[[V7]] : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.union %[[V8]], %[[V9]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @xor window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[KV]] * -1 + 128 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.union %[[V2]], %[[V3]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @xor window unpacked "2 ranges exceed max-intervals=1 at `(-lane + (q - kv) >= 0) ^ (lane + kv - 128 < 0)`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// select on a lane-uniform condition: each run is guarded by the condition.
mask.func @select window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %c = arith.cmpi eq, %b, %h : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %p = mask.lane_cmp "slt", 1 * lane + %kv + -128 : i32
  %r = arith.select %c, %ge, %p : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @select window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[KV]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V9:.*]] = interval.range %[[V8]], %[[V5]] : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.empty
// CHECK-NEXT:    %[[V11:.*]] = interval.select %[[C]], %[[V9]], %[[V10]]
// CHECK-NEXT:    %[[V12:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V13:.*]] = interval.range %[[V12]], %[[V7]] : i32
// CHECK-NEXT:    %[[V14:.*]] = interval.empty
// CHECK-NEXT:    %[[V15:.*]] = arith.constant true
// CHECK-NEXT:    %[[V16:.*]] = arith.xori %[[C]], %[[V15]] : i1
// CHECK-NEXT:    %[[V17:.*]] = interval.select %[[V16]], %[[V13]], %[[V14]]
// CHECK-NEXT:    %[[V18:.*]] = interval.union %[[V11]], %[[V17]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V18]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @select window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[KV]] * -1 + 128 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[V0]] : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.empty
// FOLD-NEXT:    %[[V5:.*]] = interval.select %[[C]], %[[V3]], %[[V4]]
// FOLD-NEXT:    %[[V6:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V7:.*]] = interval.range %[[V6]], %[[V1]] : i32
// FOLD-NEXT:    %[[V8:.*]] = interval.empty
// FOLD-NEXT:    %[[V9:.*]] = arith.constant true
// FOLD-NEXT:    %[[V10:.*]] = arith.xori %[[C]], %[[V9]] : i1
// FOLD-NEXT:    %[[V11:.*]] = interval.select %[[V10]], %[[V7]], %[[V8]]
// FOLD-NEXT:    %[[V12:.*]] = interval.union %[[V5]], %[[V11]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V12]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @select window unpacked "2 ranges exceed max-intervals=1 at `torch.where(b == h, -lane + (q - kv) >= 0, lane + kv - 128 < 0)`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// An i1 select on a lane-dependent condition c is (c & a) | (~c & b): here
// lanes below 64 - kv that are causal, and lanes from 64 - kv below 128 - kv.
mask.func @select_lane_condition window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %c = mask.lane_cmp "slt", 1 * lane + %kv + -64 : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %p = mask.lane_cmp "slt", 1 * lane + %kv + -128 : i32
  %r = arith.select %c, %ge, %p : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @select_lane_condition window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[C64]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[CAUSAL:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[END:.*]] = arith.subi %[[C128]], %[[KV]] : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.minsi %[[SPLIT]], %[[CAUSAL]] : i32
// CHECK-NEXT:    %[[YES:.*]] = interval.range %[[ZERO]], %[[HI]] : i32
// CHECK-NEXT:    %[[NO:.*]] = interval.range %[[SPLIT]], %[[END]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[YES]], %[[NO]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @select_lane_condition window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[KV]] * -1 + 64 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.bound %[[KV]] * -1 + 128 side "hi" : i32
// FOLD-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V4:.*]] = arith.minsi %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V5:.*]] = interval.range %[[V3]], %[[V4]] : i32
// FOLD-NEXT:    %[[V6:.*]] = interval.range %[[V0]], %[[V2]] : i32
// FOLD-NEXT:    %[[V7:.*]] = interval.union %[[V5]], %[[V6]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V7]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @select_lane_condition window unpacked "2 ranges exceed max-intervals=1 at `torch.where(lane + kv - 64 < 0, -lane + (q - kv) >= 0, lane + kv - 128 < 0)`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// A lane-uniform condition keeps all lanes of a run or none: interval.select.
mask.func @uniform_and window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.cmpi eq, %b, %h : i32
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %r = arith.andi %c, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @uniform_and window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.range %[[V6]], %[[V5]] : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.empty
// CHECK-NEXT:    %[[V9:.*]] = interval.select %[[C]], %[[V7]], %[[V8]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V9]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @uniform_and window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.empty
// FOLD-NEXT:    %[[V4:.*]] = interval.select %[[C]], %[[V2]], %[[V3]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @uniform_and window {
// LIMIT:         interval.select
// LIMIT:         mask.yield %{{.*}} : i32

// A keep value that is lane-uniform: full or empty.
mask.func @uniform_only window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.cmpi eq, %b, %h : i32
  mask.yield %c : i1
}

// CHECK-LABEL: mask.func @uniform_only window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[V0:.*]] = interval.full
// CHECK-NEXT:    %[[V1:.*]] = interval.empty
// CHECK-NEXT:    %[[V2:.*]] = interval.select %[[C]], %[[V0]], %[[V1]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// not (c and causal) = (not causal) or (not c): the condition is negated.
mask.func @uniform_negated window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.cmpi eq, %b, %h : i32
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  %r = arith.andi %c, %ge : i1
  %t = arith.constant true
  %n = arith.xori %r, %t : i1
  mask.yield %n : i1
}

// CHECK-LABEL: mask.func @uniform_negated window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[V0]], %[[D]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V1]], %[[V2]] : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[V3]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.range %[[V5]], %[[V6]] : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.full
// CHECK-NEXT:    %[[V9:.*]] = interval.empty
// CHECK-NEXT:    %[[V10:.*]] = arith.constant true
// CHECK-NEXT:    %[[V11:.*]] = arith.xori %[[C]], %[[V10]] : i1
// CHECK-NEXT:    %[[V12:.*]] = interval.select %[[V11]], %[[V8]], %[[V9]]
// CHECK-NEXT:    %[[V13:.*]] = interval.union %[[V7]], %[[V12]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V13]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @uniform_negated window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[C:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.full
// FOLD-NEXT:    %[[V4:.*]] = interval.empty
// FOLD-NEXT:    %[[V5:.*]] = arith.constant true
// FOLD-NEXT:    %[[V6:.*]] = arith.xori %[[C]], %[[V5]] : i1
// FOLD-NEXT:    %[[V7:.*]] = interval.select %[[V6]], %[[V3]], %[[V4]]
// FOLD-NEXT:    %[[V8:.*]] = interval.union %[[V2]], %[[V7]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V8]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @uniform_negated window unpacked "2 ranges exceed max-intervals=1 at `~((b == h) & (-lane + (q - kv) >= 0))`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

mask.func @constant_true window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK-LABEL: mask.func @constant_true window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = interval.full
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

mask.func @constant_false window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %f = arith.constant false
  mask.yield %f : i1
}

// CHECK-LABEL: mask.func @constant_false window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = interval.empty
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// L + kv < 0 never holds (kv >= 0): the bound is the constant 0, and the
// run is provably empty.
mask.func @bound_below_window window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 1 * lane + %kv + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @bound_below_window window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = interval.empty
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// An offset outside i32: L + q - 9e9 < 0 always holds (the bound is the
// constant 32, so the run is all lanes).
mask.func @wide_offset window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 1 * lane + %q + -9000000000 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @wide_offset window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = interval.full
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// An i64 uniform part start - kv (two i32 atoms): re-associated in i32 with
// the atom start clamped at 0 (below 0 the run starts at lane 0 anyway).
mask.func @i64_bound window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %starts : tensor<4xi32>):
  %start = mask.load %starts[%b] : tensor<4xi32>[i32] -> i32
  %k64 = arith.extsi %kv : i32 to i64
  %s64 = arith.extsi %start : i32 to i64
  %u = arith.subi %k64, %s64 : i64
  %p = mask.lane_cmp "sge", 1 * lane + %u + 0 : i64
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @i64_bound window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[STARTS:.*]]: tensor<4xi32>):
// CHECK-NEXT:    %[[START:.*]] = mask.load %[[STARTS]][%[[B]]] : tensor<4xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[START]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[V1]], %[[KV]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V4:.*]] = interval.range %[[V2]], %[[V3]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @i64_bound window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[STARTS:.*]]: tensor<4xi32>):
// FOLD-NEXT:    %[[START:.*]] = mask.load %[[STARTS]][%[[B]]] : tensor<4xi32>[i32] -> i32
// FOLD-NEXT:    %[[K64:.*]] = arith.extsi %[[KV]] : i32 to i64
// FOLD-NEXT:    %[[S64:.*]] = arith.extsi %[[START]] : i32 to i64
// FOLD-NEXT:    %[[U:.*]] = arith.subi %[[K64]], %[[S64]] : i64
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * -1 + 0 side "lo" : i64
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// L <= s - kv for an aux scalar s: s - kv needs s clamped from below, and
// + 1 overflows at the top, so the sum is clamped at 31 before adding 1.
mask.func @sum_clamp window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : i32):
  %s64 = arith.extsi %s : i32 to i64
  %k64 = arith.extsi %kv : i32 to i64
  %u = arith.subi %s64, %k64 : i64
  %p = mask.lane_cmp "sge", -1 * lane + %u + 0 : i64
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @sum_clamp window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[S]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[V1]], %[[KV]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.minsi %[[V2]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.addi %[[V4]], %[[V5]] : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.range %[[V7]], %[[V6]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V8]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @sum_clamp window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// FOLD-NEXT:    %[[S64:.*]] = arith.extsi %[[S]] : i32 to i64
// FOLD-NEXT:    %[[K64:.*]] = arith.extsi %[[KV]] : i32 to i64
// FOLD-NEXT:    %[[U:.*]] = arith.subi %[[S64]], %[[K64]] : i64
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[U]] * 1 + 1 side "hi" : i64
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Overflow legalization: q + s may wrap in i32 (as in torch); it is computed
// in i64 and truncated, which wraps the same way without overflowing.
mask.func @wrapping_add window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : i32):
  %w = arith.addi %q, %s : i32
  %p = mask.lane_cmp "sle", 1 * lane + %w + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @wrapping_add window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[V1:.*]] = arith.extsi %[[S]] : i32 to i64
// CHECK-NEXT:    %[[V2:.*]] = arith.addi %[[V0]], %[[V1]] : i64
// CHECK-NEXT:    %[[W:.*]] = arith.trunci %[[V2]] : i64 to i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant -31 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.maxsi %[[W]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.subi %[[V5]], %[[V4]] : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V8:.*]] = interval.range %[[V7]], %[[V6]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V8]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @wrapping_add window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// FOLD-NEXT:    %[[V0:.*]] = arith.extsi %[[Q]] : i32 to i64
// FOLD-NEXT:    %[[V1:.*]] = arith.extsi %[[S]] : i32 to i64
// FOLD-NEXT:    %[[V2:.*]] = arith.addi %[[V0]], %[[V1]] : i64
// FOLD-NEXT:    %[[W:.*]] = arith.trunci %[[V2]] : i64 to i32
// FOLD-NEXT:    %[[V3:.*]] = interval.bound %[[W]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V4:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V5:.*]] = interval.range %[[V4]], %[[V3]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// A wrapping chain is one i64 chain truncated once: each link reuses the
// i64 value of the link before it (`+ - *` commute with reduction mod 2^32),
// and each i32 operand is extended once. Where the reused value would make
// the i64 op overflow (the second `* s`), the link starts from the truncated
// value again.
mask.func @wrapping_chain window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : i32):
  %w = arith.addi %q, %s : i32
  %x = arith.subi %w, %h : i32
  %y = arith.muli %x, %s : i32
  %z = arith.muli %y, %s : i32
  %p = mask.lane_cmp "sle", 1 * lane + %z + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @wrapping_chain window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// CHECK-NEXT:    %[[Q64:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[S64:.*]] = arith.extsi %[[S]] : i32 to i64
// CHECK-NEXT:    %[[W:.*]] = arith.addi %[[Q64]], %[[S64]] : i64
// CHECK-NEXT:    %[[H64:.*]] = arith.extsi %[[H]] : i32 to i64
// CHECK-NEXT:    %[[X:.*]] = arith.subi %[[W]], %[[H64]] : i64
// CHECK-NEXT:    %[[Y64:.*]] = arith.muli %[[X]], %[[S64]] : i64
// CHECK-NEXT:    %[[Y:.*]] = arith.trunci %[[Y64]] : i64 to i32
// CHECK-NEXT:    %[[YE:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK-NEXT:    %[[Z64:.*]] = arith.muli %[[YE]], %[[S64]] : i64
// CHECK-NEXT:    %[[Z:.*]] = arith.trunci %[[Z64]] : i64 to i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant -31 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.maxsi %[[Z]], %[[C]] : i32

// FOLD-LABEL: mask.func @wrapping_chain window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[S:.*]]: i32):
// FOLD-NEXT:    %[[V0:.*]] = arith.extsi %[[Q]] : i32 to i64
// FOLD-NEXT:    %[[V1:.*]] = arith.extsi %[[S]] : i32 to i64
// FOLD-NEXT:    %[[V2:.*]] = arith.addi %[[V0]], %[[V1]] : i64
// FOLD-NEXT:    %[[V3:.*]] = arith.extsi %[[H]] : i32 to i64
// FOLD-NEXT:    %[[V4:.*]] = arith.subi %[[V2]], %[[V3]] : i64
// FOLD-NEXT:    %[[V5:.*]] = arith.muli %[[V4]], %[[V1]] : i64
// FOLD-NEXT:    %[[Y:.*]] = arith.trunci %[[V5]] : i64 to i32
// FOLD-NEXT:    %[[V6:.*]] = arith.extsi %[[Y]] : i32 to i64
// FOLD-NEXT:    %[[V7:.*]] = arith.muli %[[V6]], %[[V1]] : i64
// FOLD-NEXT:    %[[Z:.*]] = arith.trunci %[[V7]] : i64 to i32
// FOLD-NEXT:    %[[V8:.*]] = interval.bound %[[Z]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V9:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V10:.*]] = interval.range %[[V9]], %[[V8]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Rejected: a lane coefficient other than +-1.
mask.func @coeff_two window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 2 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @coeff_two window unpacked "`2 * lane + q < 0` has lane coefficient 2 (kv_idx is scaled by 2): only comparisons of kv_idx with coefficient +-1 fold to ranges" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "slt", 2 * lane + %[[Q]] + 0 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// Rejected: a comparison lane-affine could not rewrite.
mask.func @unsigned window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lane = mask.lane : i32
  %kvl = arith.addi %kv, %lane : i32
  %ge = arith.cmpi uge, %q, %kvl : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @unsigned window unpacked "`q uge (kv + lane)` compares lane-dependent values in a way lane-affine could not rewrite (unsigned predicate or a bound that may overflow i64)" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi uge, %[[Q]], %[[KVL]] : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// A division whose divisor may be zero packs: torch raises on a division by
// zero, so any word is right there, and the CuTe printer replaces a zero
// divisor by 1 (`safe_divisor`), so the emitted code has no UB.
mask.func @divisor_may_be_zero window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.floordivsi %q, %b : i32
  %p = mask.lane_cmp "slt", 1 * lane + %x + -40 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @divisor_may_be_zero window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.floordivsi %[[Q]], %[[B]] : i32
// CHECK-NEXT:    %[[C40:.*]] = arith.constant 40 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.subi %[[C40]], %[[X]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[HI]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @divisor_may_be_zero window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[X:.*]] = arith.floordivsi %[[Q]], %[[B]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[X]] * -1 + 40 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Rejected: not windowed.
mask.func @not_windowed {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = arith.cmpi sge, %q, %kv : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @not_windowed unpacked "the function is not windowed: run lane-affine first" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// Skipped: already unpacked (the reason is kept), or already packed.
mask.func @already_unpacked window unpacked "earlier reason" {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %ge = mask.lane_cmp "sge", -1 * lane + %d + 0 : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @already_unpacked window unpacked "earlier reason" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

mask.func @already_packed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %w = arith.constant 7 : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @already_packed window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }


// simplify before max-intervals: nine adjacent diagonals q - kv - L == j,
// j = 0..8, are runs whose bounds differ by constants; they merge into the
// one run [q - kv - 8, q - kv + 1), so even max-intervals=1 packs them.
mask.func @nine_diagonals window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = arith.subi %q, %kv : i32
  %p0 = mask.lane_cmp "eq", -1 * lane + %d + 0 : i32
  %p1 = mask.lane_cmp "eq", -1 * lane + %d + -1 : i32
  %p2 = mask.lane_cmp "eq", -1 * lane + %d + -2 : i32
  %p3 = mask.lane_cmp "eq", -1 * lane + %d + -3 : i32
  %p4 = mask.lane_cmp "eq", -1 * lane + %d + -4 : i32
  %p5 = mask.lane_cmp "eq", -1 * lane + %d + -5 : i32
  %p6 = mask.lane_cmp "eq", -1 * lane + %d + -6 : i32
  %p7 = mask.lane_cmp "eq", -1 * lane + %d + -7 : i32
  %p8 = mask.lane_cmp "eq", -1 * lane + %d + -8 : i32
  %o1 = arith.ori %p0, %p1 : i1
  %o2 = arith.ori %o1, %p2 : i1
  %o3 = arith.ori %o2, %p3 : i1
  %o4 = arith.ori %o3, %p4 : i1
  %o5 = arith.ori %o4, %p5 : i1
  %o6 = arith.ori %o5, %p6 : i1
  %o7 = arith.ori %o6, %p7 : i1
  %o8 = arith.ori %o7, %p8 : i1
  mask.yield %o8 : i1
}

// CHECK-LABEL: mask.func @nine_diagonals window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:  %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:  %[[V0:.*]] = interval.span %[[D]] * 1 + -8 width 9 : i32
// CHECK-NEXT:  %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @nine_diagonals window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * 1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * 1 + -8 side "lo" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @nine_diagonals window {
// LIMIT:         %[[SET:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// LIMIT-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[SET]] : i32

// [2 - q, 4 - q) absorbs its subset [3 - q, 4 - q); [5 - q, 4 - q) is
// provably empty (bounds of one value compare by their constants).
mask.func @empty_and_subset window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lo = mask.lane_cmp "sge", 1 * lane + %q + -2 : i32
  %hi = mask.lane_cmp "slt", 1 * lane + %q + -4 : i32
  %run = arith.andi %lo, %hi : i1
  %inner = mask.lane_cmp "sge", 1 * lane + %q + -3 : i32
  %sub = arith.andi %run, %inner : i1
  %past = mask.lane_cmp "sge", 1 * lane + %q + -5 : i32
  %none = arith.andi %hi, %past : i1
  %u = arith.ori %run, %sub : i1
  %r = arith.ori %u, %none : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @empty_and_subset window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[V0:.*]] = interval.span %[[Q]] * -1 + 2 width 2 : i32
// CHECK-NEXT:   %[[KEEP:.*]] = interval.keep_word %[[V0]] : i32
// CHECK-NEXT:   mask.yield %[[KEEP]] : i32
// CHECK-NEXT: }

// FOLD-LABEL: mask.func @empty_and_subset window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[Q]] * -1 + 2 side "lo" : i32
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[Q]] * -1 + 4 side "hi" : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// (kv + L) mod 3 <= 1 is the periodic set of residues {0, 1}; its complement
// keeps residue 2 (De Morgan through the periodic factor).
mask.func @periodic_cmp window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lane = mask.lane : i32
  %x = arith.addi %kv, %lane : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %r = mask.floormod %x, %c3 : i32
  %le = arith.cmpi sle, %r, %c1 : i32
  %causal = mask.lane_cmp "sle", 1 * lane + %kv + 0 : i32
  %keep = arith.andi %le, %causal : i1
  %not = arith.constant true
  %odd = arith.xori %keep, %not : i1
  mask.yield %odd : i1
}

// CHECK-LABEL: mask.func @periodic_cmp window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:  %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:  %[[V1:.*]] = arith.addi %[[KV]], %[[V0]] : i32
// CHECK-NEXT:  %[[V2:.*]] = arith.constant 32 : i32
// CHECK-NEXT:  %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:  %[[V4:.*]] = arith.constant 32 : i32
// CHECK-NEXT:  %[[V5:.*]] = interval.range %[[V3]], %[[V4]] : i32
// CHECK-NEXT:  %[[V6:.*]] = interval.periodic %[[KV]] period 3 residues 4 : i32
// CHECK-NEXT:  %[[V7:.*]] = interval.union %[[V5]], %[[V6]]
// CHECK-NEXT:  %[[KEEP:.*]] = interval.keep_word %[[V7]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @periodic_cmp window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[KV]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.periodic %[[KV]] period 3 residues 4 : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.union %[[V2]], %[[V3]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V4]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// LIMIT-LABEL: mask.func @periodic_cmp window unpacked "2 ranges exceed max-intervals=1 at `~(((... % 3) <= 1) & (lane + kv <= 0))`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// (kv + L) mod 4 == h mod 4 holds exactly when 4 divides kv + L - h: the
// periodic set of residue 0 of (L + kv - h) mod 4; `!=` keeps the others.
mask.func @same_residue window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lane = mask.lane : i32
  %x = arith.addi %kv, %lane : i32
  %c4 = arith.constant 4 : i32
  %r = mask.floormod %x, %c4 : i32
  %rh = mask.floormod %h, %c4 : i32
  %eq = arith.cmpi eq, %r, %rh : i32
  mask.yield %eq : i1
}

// CHECK-LABEL: mask.func @same_residue window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK:       %[[PH:.*]] = arith.subi %[[KV]], %[[H]] : i32
// CHECK:       %[[P:.*]] = interval.periodic %[[PH]] period 4 residues 1 : i32
// CHECK-NEXT:  %[[KEEP:.*]] = interval.keep_word %[[P]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32

// Residues modulo different divisors are not compared this way (by 3 and 6:
// remainders by powers of two would pack as table sets).
mask.func @different_divisors window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lane = mask.lane : i32
  %x = arith.addi %kv, %lane : i32
  %c3 = arith.constant 3 : i32
  %c6 = arith.constant 6 : i32
  %r = mask.floormod %x, %c3 : i32
  %rh = mask.floormod %h, %c6 : i32
  %ne = arith.cmpi ne, %r, %rh : i32
  mask.yield %ne : i1
}

// CHECK-LABEL: mask.func @different_divisors window unpacked

// bool == bool, traced by torch as a comparison of zero extensions, is xnor.
mask.func @bool_equality window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c256 = arith.constant 256 : i32
  %qn = arith.cmpi slt, %q, %c256 : i32
  %kvn = mask.lane_cmp "slt", 1 * lane + %kv + -256 : i32
  %a = arith.extui %qn : i1 to i8
  %k = arith.extui %kvn : i1 to i8
  %same = arith.cmpi eq, %a, %k : i8
  mask.yield %same : i1
}

// CHECK-LABEL: mask.func @bool_equality window {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:   %[[C256:.*]] = arith.constant 256 : i32
// CHECK-NEXT:   %[[QN:.*]] = arith.cmpi slt, %[[Q]], %[[C256]] : i32
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 256 : i32
// CHECK-NEXT:   %[[V1:.*]] = arith.subi %[[V0]], %[[KV]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[V3:.*]] = interval.range %[[V2]], %[[V1]] : i32
// CHECK-NEXT:   %[[V4:.*]] = interval.empty
// CHECK-NEXT:   %[[V5:.*]] = interval.select %[[QN]], %[[V3]], %[[V4]]
// CHECK-NEXT:   %[[V6:.*]] = arith.constant 32 : i32
// CHECK-NEXT:   %[[V7:.*]] = interval.range %[[V1]], %[[V6]] : i32
// CHECK-NEXT:   %[[V8:.*]] = interval.empty
// CHECK-NEXT:   %[[V9:.*]] = arith.constant true
// CHECK-NEXT:   %[[V10:.*]] = arith.xori %[[QN]], %[[V9]] : i1
// CHECK-NEXT:   %[[V11:.*]] = interval.select %[[V10]], %[[V7]], %[[V8]]
// CHECK-NEXT:   %[[V12:.*]] = interval.union %[[V5]], %[[V11]]
// CHECK-NEXT:   %[[KEEP:.*]] = interval.keep_word %[[V12]] : i32
// CHECK-NEXT:   mask.yield %[[KEEP]] : i32
// CHECK-NEXT: }

// FOLD-LABEL: mask.func @bool_equality window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[C256:.*]] = arith.constant 256 : i32
// FOLD-NEXT:    %[[QN:.*]] = arith.cmpi slt, %[[Q]], %[[C256]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[KV]] * -1 + 256 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V1]], %[[V0]] : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.empty
// FOLD-NEXT:    %[[V4:.*]] = interval.select %[[QN]], %[[V2]], %[[V3]]
// FOLD-NEXT:    %[[V5:.*]] = arith.constant 32 : i32
// FOLD-NEXT:    %[[V6:.*]] = interval.range %[[V0]], %[[V5]] : i32
// FOLD-NEXT:    %[[V7:.*]] = interval.empty
// FOLD-NEXT:    %[[V8:.*]] = arith.constant true
// FOLD-NEXT:    %[[V9:.*]] = arith.xori %[[QN]], %[[V8]] : i1
// FOLD-NEXT:    %[[V10:.*]] = interval.select %[[V9]], %[[V6]], %[[V7]]
// FOLD-NEXT:    %[[V11:.*]] = interval.union %[[V4]], %[[V10]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V11]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// Runs with the same lanes under different lane-uniform conditions are one run
// under the disjunction.
mask.func @same_lanes_any_condition window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %h0 = arith.cmpi eq, %h, %c0 : i32
  %h1 = arith.cmpi eq, %h, %c1 : i32
  %causal = mask.lane_cmp "sle", 1 * lane + %kv + 0 : i32
  %x = arith.andi %h0, %causal : i1
  %y = arith.andi %h1, %causal : i1
  %r = arith.ori %x, %y : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @same_lanes_any_condition window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:  %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:  %[[H0:.*]] = arith.cmpi eq, %[[H]], %[[C0]] : i32
// CHECK-NEXT:  %[[H1:.*]] = arith.cmpi eq, %[[H]], %[[C1]] : i32
// CHECK-NEXT:  %[[V0:.*]] = arith.constant 31 : i32
// CHECK-NEXT:  %[[V1:.*]] = arith.addi %[[KV]], %[[V0]] : i32
// CHECK-NEXT:  %[[V2:.*]] = arith.constant 32 : i32
// CHECK-NEXT:  %[[V3:.*]] = arith.subi %[[V2]], %[[V1]] : i32
// CHECK-NEXT:  %[[V4:.*]] = arith.ori %[[H0]], %[[H1]] : i1
// CHECK-NEXT:  %[[V5:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[V6:.*]] = interval.range %[[V5]], %[[V3]] : i32
// CHECK-NEXT:  %[[V7:.*]] = interval.empty
// CHECK-NEXT:  %[[V8:.*]] = interval.select %[[V4]], %[[V6]], %[[V7]]
// CHECK-NEXT:  %[[KEEP:.*]] = interval.keep_word %[[V8]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// FOLD-LABEL: mask.func @same_lanes_any_condition window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// FOLD-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// FOLD-NEXT:    %[[H0:.*]] = arith.cmpi eq, %[[H]], %[[C0]] : i32
// FOLD-NEXT:    %[[H1:.*]] = arith.cmpi eq, %[[H]], %[[C1]] : i32
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[KV]] * -1 + 1 side "hi" : i32
// FOLD-NEXT:    %[[V1:.*]] = arith.ori %[[H0]], %[[H1]] : i1
// FOLD-NEXT:    %[[V2:.*]] = arith.constant 0 : i32
// FOLD-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[V0]] : i32
// FOLD-NEXT:    %[[V4:.*]] = interval.empty
// FOLD-NEXT:    %[[V5:.*]] = interval.select %[[V1]], %[[V3]], %[[V4]]
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V5]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// A wrap point's bound beyond i32: `L + d == 2^32` (d = h + kv - t[b] in
// i64) keeps the run [2^32 - d, 2^32 + 1 - d), one lane: lower-interval-bounds
// makes it an `interval.span` of the i64 d (its bounds, each on its own, are
// in @ne_wrap_point below).
mask.func @eq_wrap_point window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %x = mask.load %t[%b] : tensor<4xi32>[i32] -> i32
  %hw = arith.extsi %h : i32 to i64
  %kw = arith.extsi %kv : i32 to i64
  %s = arith.addi %hw, %kw : i64
  %xw = arith.extsi %x : i32 to i64
  %d = arith.subi %s, %xw : i64
  %p = mask.lane_cmp "eq", 1 * lane + %d + -4294967296 : i64
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @eq_wrap_point window {
// CHECK:         %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[R:.*]] = interval.span %[[D]] * -1 + 4294967296 width 1 : i64
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32

// FOLD-LABEL: mask.func @eq_wrap_point window {
// FOLD-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T:.*]]: tensor<4xi32>):
// FOLD-NEXT:    %[[X:.*]] = mask.load %[[T]][%[[B]]] : tensor<4xi32>[i32] -> i32
// FOLD-NEXT:    %[[HW:.*]] = arith.extsi %[[H]] : i32 to i64
// FOLD-NEXT:    %[[KW:.*]] = arith.extsi %[[KV]] : i32 to i64
// FOLD-NEXT:    %[[S:.*]] = arith.addi %[[HW]], %[[KW]] : i64
// FOLD-NEXT:    %[[XW:.*]] = arith.extsi %[[X]] : i32 to i64
// FOLD-NEXT:    %[[D:.*]] = arith.subi %[[S]], %[[XW]] : i64
// FOLD-NEXT:    %[[V0:.*]] = interval.bound %[[D]] * -1 + 4294967296 side "lo" : i64
// FOLD-NEXT:    %[[V1:.*]] = interval.bound %[[D]] * -1 + 4294967297 side "hi" : i64
// FOLD-NEXT:    %[[V2:.*]] = interval.range %[[V0]], %[[V1]] : i32
// FOLD-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V2]] : i32
// FOLD-NEXT:    mask.yield %[[KEEP]] : i32
// FOLD-NEXT:  }

// The bounds of that lane, each in a run of its own (`L + d != 2^32`: [0,
// 2^32 - d) and [2^32 + 1 - d, 32)). Each bound subtracts in i64 before it
// clamps to [0, 32] and truncates: clamped first, `32 - trunc(clamp(d) -
// (2^32 - 32))` is `-trunc(clamp(d))` in i32, a negation LLVM forms and
// ptxas drops in a chained min (fuzz seed 91 mask 1744).
mask.func @ne_wrap_point window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %x = mask.load %t[%b] : tensor<4xi32>[i32] -> i32
  %hw = arith.extsi %h : i32 to i64
  %kw = arith.extsi %kv : i32 to i64
  %s = arith.addi %hw, %kw : i64
  %xw = arith.extsi %x : i32 to i64
  %d = arith.subi %s, %xw : i64
  %p = mask.lane_cmp "ne", 1 * lane + %d + -4294967296 : i64
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ne_wrap_point window {
// CHECK:         %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 4294967296 : i64
// CHECK-NEXT:    %[[N0:.*]] = arith.subi %[[K0]], %[[D]] : i64
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[A0:.*]] = arith.maxsi %[[N0]], %[[Z0]] : i64
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[B0:.*]] = arith.minsi %[[A0]], %[[C0]] : i64
// CHECK-NEXT:    %[[HI:.*]] = arith.trunci %[[B0]] : i64 to i32
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 4294967297 : i64
// CHECK-NEXT:    %[[N1:.*]] = arith.subi %[[K1]], %[[D]] : i64
// CHECK:         %[[LO:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R0:.*]] = interval.range %[[Z]], %[[HI]] : i32
// CHECK-NEXT:    %[[E:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R1:.*]] = interval.range %[[LO]], %[[E]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R0]], %[[R1]]

// FOLD-LABEL: mask.func @ne_wrap_point window {
// FOLD:         %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// FOLD-NEXT:    %[[HI:.*]] = interval.bound %[[D]] * -1 + 4294967296 side "hi" : i64
// FOLD-NEXT:    %[[LO:.*]] = interval.bound %[[D]] * -1 + 4294967297 side "lo" : i64
