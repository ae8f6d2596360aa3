// RUN: not mask-opt %s 2>&1 | filecheck %s

// A domain bound outside [1, 2^31] fails verification.

mask.func @bad domain array<i64: 8, 0, 1024, 32768> {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK: mask-opt: error: mask.func @bad: domain must be array<i64: B, H, Q, KV> with each bound in [1, 2^31]
