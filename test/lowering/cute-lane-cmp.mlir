// RUN: mask-opt %s --split-input-file -t cute --no-remarks | filecheck %s

// Per-lane `mask.lane_cmp`: `c * lane + u + k <pred> 0` prints as `u <pred>
// -c * lane - k`, with `lane` a compile-time int. Where that bound leaves the
// type on some lane, the lane's comparison is decided in Python instead of
// wrapping the bound into the type.

mask.func @i64_bound_above window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = arith.extsi %q : i32 to i64
  %r = mask.lane_cmp "sge", -1 * lane + %u + -9223372036854775807 : i64
  mask.yield %r : i1
}

// CHECK:      def mask_mod(
// CHECK:      for lane in cutlass.range_constexpr(32):
// CHECK-NEXT:     r = (cutlass.Boolean(False) if (1 * lane - -9223372036854775807) > 9223372036854775807 else (cutlass.Boolean(True) if (1 * lane - -9223372036854775807) < -9223372036854775808 else (u >= cutlass.Int64(1 * lane - -9223372036854775807))))

// -----

// An i32 `u` compares in Int64 where the bound leaves i32 (2**31 - 1 + lane).
mask.func @i32_widened window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %r = mask.lane_cmp "sle", -1 * lane + %q + -2147483647 : i32
  mask.yield %r : i1
}

// CHECK:      for lane in cutlass.range_constexpr(32):
// CHECK-NEXT:     r = (cutlass.Int64(q) <= cutlass.Int64(1 * lane - -2147483647))

// -----

mask.func @i32_inside window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %r = mask.lane_cmp "slt", 1 * lane + %q + -31 : i32
  mask.yield %r : i1
}

// CHECK:      for lane in cutlass.range_constexpr(32):
// CHECK-NEXT:     r = (q < cutlass.Int32(-1 * lane - -31))
