// RUN: mask-opt %s --split-input-file -t cute --no-remarks | filecheck %s
// RUN: mask-opt %s --split-input-file -p pack-mask -t cute --no-remarks | filecheck %s --check-prefix=PACKED

// The CuTe target prints no bare negation (`0 - x`, `x * -1`): ptxas folds
// `max(max(a, 0 - x), b)` into one VIMNMX3 and drops the negation (see
// maskopt.lowering.cute). A negation is pushed into the value it negates, or
// folded into the sum that uses it; with nothing left to push it into, the
// module defines and calls the inline-PTX helper neg_i32 / neg_i64.

// `0 - (kv - q)` is printed as `q - kv`.
mask.func @pushed_into_sub {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %d = arith.subi %kv, %q : i32
  %n = arith.subi %c0, %d : i32
  %c5 = arith.constant 5 : i32
  %m = arith.maxsi %n, %c5 : i32
  %ge = arith.cmpi sge, %m, %h : i32
  mask.yield %ge : i1
}

// CHECK-NOT:  neg_i
// CHECK-LABEL: """maskopt: mask.func @pushed_into_sub, per-lane evaluation."""
// CHECK:        n = (q - kv_idx[lane])
// CHECK-NEXT:   m = max(n, cutlass.Int32(5))
// CHECK-NOT:    neg_i
// CHECK:        {{/}}/ -----

// The packed word compares `5 + (0 - h)` with 0: printed as `5 - h`.
// PACKED-NOT:  neg_i
// PACKED-LABEL: """maskopt: mask.func @pushed_into_sub, packed keep word."""
// PACKED:        v = (q - kv)
// PACKED:        [[D:v_[0-9]+]] = (cutlass.Int32(5) - h)
// PACKED-NEXT:   {{v_[0-9]+}} = ([[D]] >= cutlass.Int32(0))
// PACKED-NOT:    neg_i
// PACKED:        {{/}}/ -----

// -----

// `max(max(q, 0 - h), 5)`: nothing to push `0 - h` into.
mask.func @leaf {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %n = arith.subi %c0, %h : i32
  %m1 = arith.maxsi %q, %n : i32
  %c5 = arith.constant 5 : i32
  %m2 = arith.maxsi %m1, %c5 : i32
  %ge = arith.cmpi sge, %m2, %kv : i32
  mask.yield %ge : i1
}

// CHECK:      from cutlass._mlir.dialects import llvm
// CHECK-NEXT: from cutlass.cutlass_dsl import T, dsl_user_op
// CHECK-NEXT: from flash_attn.cute import utils
// CHECK:      @dsl_user_op
// CHECK-NEXT: def neg_i32(x, *, loc=None, ip=None):
// CHECK:          "{ .reg .b32 t; not.b32 t, $1; add.s32 $0, t, 1; }",
// CHECK-NOT:  def neg_i64
// CHECK-LABEL: """maskopt: mask.func @leaf, per-lane evaluation."""
// CHECK:        n = neg_i32(h)
// CHECK-NEXT:   m1 = max(q, n)
// CHECK-NEXT:   m2 = max(m1, cutlass.Int32(5))

// PACKED:       def neg_i32(x, *, loc=None, ip=None):
// PACKED-LABEL: """maskopt: mask.func @leaf, packed keep word."""
// PACKED:        [[N:[a-z_0-9]+]] = neg_i32(h)
// PACKED-NEXT:   {{[a-z_0-9]+}} = max(q, [[N]])

// -----

// An i64 negation `0 - ext(h)` truncated back to i32 calls neg_i64 (LLVM
// would narrow a 64-bit `0 - x` under a truncation to a 32-bit one).
mask.func @leaf_i64 {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %h64 = arith.extsi %h : i32 to i64
  %c0 = arith.constant 0 : i64
  %n = arith.subi %c0, %h64 : i64
  %t = arith.trunci %n : i64 to i32
  %m1 = arith.maxsi %q, %t : i32
  %c5 = arith.constant 5 : i32
  %m2 = arith.maxsi %m1, %c5 : i32
  %ge = arith.cmpi sge, %m2, %kv : i32
  mask.yield %ge : i1
}

// CHECK-NOT:  def neg_i32
// CHECK:      def neg_i64(x, *, loc=None, ip=None):
// CHECK:          "{ .reg .b64 t; not.b64 t, $1; add.s64 $0, t, 1; }",
// CHECK-LABEL: """maskopt: mask.func @leaf_i64, per-lane evaluation."""
// CHECK:        neg_i64(
