// RUN: mask-opt %s -p canonicalize | filecheck %s

// Canonicalization patterns of the `interval` dialect.

// A range ending at or before lane 0 is empty, whatever its start.
mask.func @range_hi_not_positive window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %q, %c0 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_hi_not_positive window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A range starting at lane 32 or later is empty.
mask.func @range_lo_past_window window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c32 = arith.constant 32 : i32
  %r = interval.range %c32, %q : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_lo_past_window window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Constant bounds with lo >= hi.
mask.func @range_inverted window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c10 = arith.constant 10 : i32
  %c5 = arith.constant 5 : i32
  %r = interval.range %c10, %c5 : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_inverted window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Bounds are clipped to [0, 32] first: [-8, -2) and [40, 50) hold no lane.
mask.func @range_clipped_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm8 = arith.constant -8 : i32
  %cm2 = arith.constant -2 : i32
  %a = interval.range %cm8, %cm2 : i32
  %c40 = arith.constant 40 : i32
  %c50 = arith.constant 50 : i32
  %b2 = interval.range %c40, %c50 : i32
  %u = interval.union %a, %b2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_clipped_empty window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A range covering [0, 32) is full (here in i64).
mask.func @range_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lo = arith.constant -5 : i64
  %hi = arith.constant 100 : i64
  %r = interval.range %lo, %hi : i64
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A constant range that is neither empty nor full stays.
mask.func @range_partial window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lo = arith.constant 3 : i32
  %hi = arith.constant 40 : i32
  %r = interval.range %lo, %hi : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_partial window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[LO:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.constant 40 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[HI]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// [x, x) is empty.
mask.func @range_same_bounds window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %r = interval.range %q, %q : i32
  %w = interval.keep_word %r : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @range_same_bounds window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Empty operands and duplicates are dropped.
mask.func @union_identities window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %q, %kv : i32
  %e = interval.empty
  %u = interval.union %r, %e, %s, %r
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_identities window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R]], %[[S]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A union left with one operand is that operand.
mask.func @union_single window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %e = interval.empty
  %u = interval.union %r, %e, %r
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_single window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A union of empty sets is empty.
mask.func @union_all_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %e = interval.empty
  %e2 = interval.empty
  %u = interval.union %e, %e2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_all_empty window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// `full` absorbs a union.
mask.func @union_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %f = interval.full
  %u = interval.union %r, %f
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A single-use inner union is flattened into its user.
mask.func @union_flatten window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %t = interval.range %h, %kv : i32
  %u = interval.union %r, %s
  %v = interval.union %u, %t
  %w = interval.keep_word %v : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_flatten window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[T:.*]] = interval.range %[[H]], %[[KV]] : i32
// CHECK-NEXT:    %[[V:.*]] = interval.union %[[R]], %[[S]], %[[T]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Ranges of a union that share a bound merge: [0, a) | [0, b) is
// [0, max(a, b)), [a, 32) | [b, 32) is [min(a, b), 32).
mask.func @union_merge_shared_bound window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %c0, %kv : i32
  %t = interval.range %h, %c32 : i32
  %t2 = interval.range %b, %c32 : i32
  %u = interval.union %r, %s, %t, %t2
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_merge_shared_bound window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.maxsi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V1:.*]] = interval.range %[[C0]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.minsi %[[H]], %[[B]] : i32
// CHECK-NEXT:    %[[V3:.*]] = interval.range %[[V2]], %[[C32]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[V3]], %[[V1]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// An inner union with another use stays.
mask.func @union_shared_not_flattened window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %t = interval.range %h, %kv : i32
  %u = interval.union %r, %s
  %v = interval.union %u, %t
  %i = interval.intersect %u, %v
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @union_shared_not_flattened window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[T:.*]] = interval.range %[[H]], %[[KV]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R]], %[[S]]
// CHECK-NEXT:    %[[V:.*]] = interval.union %[[U]], %[[T]]
// CHECK-NEXT:    %[[I:.*]] = interval.intersect %[[U]], %[[V]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[I]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// `full` operands and duplicates are dropped.
mask.func @intersect_identities window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %f = interval.full
  %i = interval.intersect %r, %f, %s, %r
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @intersect_identities window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[I:.*]] = interval.intersect %[[R]], %[[S]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[I]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// An intersection left with one operand is that operand.
mask.func @intersect_single window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %f = interval.full
  %i = interval.intersect %f, %r, %r
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @intersect_single window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// `empty` absorbs an intersection.
mask.func @intersect_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %e = interval.empty
  %i = interval.intersect %r, %e
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @intersect_empty window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// An intersection of full sets is full.
mask.func @intersect_all_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %f = interval.full
  %i = interval.intersect %f, %f
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @intersect_all_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @double_complement window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %c = interval.complement %r
  %d = interval.complement %c
  %w = interval.keep_word %d : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @double_complement window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A single complement of a range stays.
mask.func @complement_kept window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %c = interval.complement %r
  %w = interval.keep_word %c : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @complement_kept window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[C:.*]] = interval.complement %[[R]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[C]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @complement_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %f = interval.full
  %c = interval.complement %f
  %w = interval.keep_word %c : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @complement_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @complement_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %e = interval.empty
  %c = interval.complement %e
  %w = interval.keep_word %c : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @complement_empty window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @select_true window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %t = arith.constant true
  %x = interval.select %t, %r, %s
  %w = interval.keep_word %x : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @select_true window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @select_false window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %s = interval.range %kv, %h : i32
  %f = arith.constant false
  %x = interval.select %f, %r, %s
  %w = interval.keep_word %x : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @select_false window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[S]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A select between one set and itself is that set.
mask.func @select_same_sets window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %cond = arith.cmpi eq, %b, %h : i32
  %x = interval.select %cond, %r, %r
  %w = interval.keep_word %x : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @select_same_sets window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A select on a runtime condition stays.
mask.func @select_kept window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %r = interval.range %c0, %q : i32
  %cond = arith.cmpi eq, %b, %h : i32
  %e = interval.empty
  %x = interval.select %cond, %r, %e
  %w = interval.keep_word %x : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @select_kept window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[C0]], %[[Q]] : i32
// CHECK-NEXT:    %[[COND:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[E:.*]] = interval.empty
// CHECK-NEXT:    %[[X:.*]] = interval.select %[[COND]], %[[R]], %[[E]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[X]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @keep_word_full window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %f = interval.full
  %w = interval.keep_word %f : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @keep_word_full window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

mask.func @keep_word_empty window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %e = interval.empty
  %w = interval.keep_word %e : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @keep_word_empty window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// Patterns compose: ~((empty | full) & ~(select true, empty, full)) is empty.
mask.func @nested_fold window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %e = interval.empty
  %f = interval.full
  %t = arith.constant true
  %u = interval.union %e, %f
  %s = interval.select %t, %e, %f
  %n = interval.complement %s
  %i = interval.intersect %u, %n
  %x = interval.complement %i
  %w = interval.keep_word %x : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @nested_fold window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[W:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A periodic set keeping no residue is empty; one keeping every residue is
// every lane.
mask.func @periodic_constant window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %none = interval.periodic %kv period 4 residues 0 : i32
  %all = interval.periodic %q period 4 residues 15 : i32
  %some = interval.periodic %q period 4 residues 5 : i32
  %u = interval.union %none, %some
  %i = interval.intersect %u, %all
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @periodic_constant window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[SOME:.*]] = interval.periodic %[[Q]] period 4 residues 5 : i32
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[SOME]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// A bound of a constant is a constant: clip(-1 * 40 + 50, 0, 32) = 10 and
// clip(1 * 40 + 0, 0, 32) = 32; a range from 10 to 32 stays.
mask.func @bound_constant window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c40 = arith.constant 40 : i64
  %lo = interval.bound %c40 * -1 + 50 side "lo" : i64
  %hi = interval.bound %c40 * 1 + 0 side "hi" : i64
  %keep = interval.bound %q * 1 + 0 side "hi" : i32
  %r = interval.range %lo, %hi : i32
  %s = interval.range %lo, %keep : i32
  %u = interval.intersect %r, %s
  %w = interval.keep_word %u : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @bound_constant window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-DAG:     %[[LO:.*]] = arith.constant 10 : i32
// CHECK-DAG:     %[[HI:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[KEEP:.*]] = interval.bound %[[Q]] * 1 + 0 side "hi" : i32
// CHECK:         %[[R:.*]] = interval.range %[[LO]], %[[HI]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.range %[[LO]], %[[KEEP]] : i32
