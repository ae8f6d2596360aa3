// RUN: mask-opt %s --split-input-file -p interval-to-cute,dce | filecheck %s
// RUN: mask-opt %s --split-input-file -p interval-to-cute -t cute | filecheck %s --check-prefix=PY

// interval-to-cute's expression rewrites (maskopt.lowering.cute_expressions):
// the arith shapes the CuTe DSL cannot print as written become cute ops, so
// that the printer prints each op as it stands.

// FoldNegationIntoSum: y + (0 - x) is y - x where neither may wrap.
mask.func @sum_with_negation window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %c0 = arith.constant 0 : i32
  %c100 = arith.constant 100 : i32
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %lim = arith.minsi %w, %c100 : i32
  %x = arith.maxsi %lim, %c0 : i32
  %n = arith.subi %c0, %x : i32
  %s = arith.addi %q, %n : i32
  mask.yield %s : i32
}

// CHECK-LABEL: mask.func @sum_with_negation
// CHECK:       %[[X:.*]] = arith.maxsi
// CHECK-NEXT:  %[[S:.*]] = cute.sub %q, %[[X]] : i32
// CHECK-NEXT:  mask.yield %[[S]] : i32

// PY-LABEL:    maskopt: mask.func @sum_with_negation,
// PY:          s = (q - x)

// -----

// LowerNegation: a negation pushed into a difference that cannot wrap.
mask.func @pushed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %d = arith.subi %q, %kv : i32
  %n = arith.subi %c0, %d : i32
  mask.yield %n : i32
}

// CHECK-LABEL: mask.func @pushed
// CHECK:       %[[N:n[_0-9]*]] = cute.sub %kv, %q : i32
// CHECK-NEXT:  mask.yield %[[N]] : i32

// PY-LABEL:    maskopt: mask.func @pushed,
// PY:          n = (kv - q)

// -----

// LowerNegation: an aux value may be MIN, so its negation wraps: the helper.
mask.func @wrapping window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %c0 = arith.constant 0 : i32
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %n = arith.subi %c0, %w : i32
  mask.yield %n : i32
}

// CHECK-LABEL: mask.func @wrapping
// CHECK:       %[[W:.*]] = mask.load
// CHECK-NEXT:  %[[N:n[_0-9]*]] = cute.neg_i32 %[[W]]
// CHECK-NEXT:  mask.yield %[[N]] : i32

// PY-LABEL:    maskopt: mask.func @wrapping,
// PY:          n = neg_i32(w)

// -----

// NarrowTruncatedDifference: fold-intervals' i64 clamp of q - kv - win as one
// i32 cute.clamped_sub of the narrowed q - kv and the window (value ranges
// keep q - kv - 32 and q - kv in i32).
mask.func @clamped window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %q64 = arith.extsi %q : i32 to i64
  %kv64 = arith.extsi %kv : i32 to i64
  %w64 = arith.extsi %w : i32 to i64
  %d = arith.subi %q64, %kv64 : i64
  %e = arith.subi %d, %w64 : i64
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %lo = arith.maxsi %e, %c0 : i64
  %hi = arith.minsi %lo, %c32 : i64
  %r = arith.trunci %hi : i64 to i32
  mask.yield %r : i32
}

// CHECK-LABEL: mask.func @clamped
// CHECK:       %[[W:.*]] = mask.load
// CHECK-NEXT:  %[[A:.*]] = cute.sub %q, %kv : i32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.clamped_sub %[[A]], %[[W]] lo 0 hi 32 : i32
// CHECK-NEXT:  mask.yield %[[R]] : i32

// PY-LABEL:    maskopt: mask.func @clamped,
// PY:          a = (q - kv)
// PY-NEXT:     r = (a - min(max(w, (a - cutlass.Int32(32))), a))

// -----

// NarrowTruncatedDifference: one side (a uint8 window's lower end).
mask.func @one_sided window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi8>):
  %w8 = mask.load %t[%h] : tensor<4xi8>[i32] -> i8
  %q64 = arith.extsi %q : i32 to i64
  %kv64 = arith.extsi %kv : i32 to i64
  %w = arith.extui %w8 : i8 to i32
  %w64 = arith.extsi %w : i32 to i64
  %d = arith.subi %q64, %kv64 : i64
  %e = arith.subi %d, %w64 : i64
  %c0 = arith.constant 0 : i64
  %lo = arith.maxsi %e, %c0 : i64
  %r = arith.trunci %lo : i64 to i32
  mask.yield %r : i32
}

// CHECK-LABEL: mask.func @one_sided
// CHECK:       %[[W:w[_0-9]*]] = arith.extui
// CHECK-NEXT:  %[[A:.*]] = cute.sub %q, %kv : i32
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.clamped_sub %[[A]], %[[W]] lo 0 : i32
// CHECK-NEXT:  mask.yield %[[R]] : i32

// PY-LABEL:    maskopt: mask.func @one_sided,
// PY:          a = (q - kv)
// PY-NEXT:     r = (a - min(w, a))

// -----

// NarrowTruncatedDifference: an i64 aux value against kv, clamped around kv
// in Int64 (only kv fits i32); fold-intervals' +-2^40 guard clamps of the aux
// value change nothing in [kv, kv + 32] and are looked through.
mask.func @wide window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %s = mask.load %t[%h] : tensor<4xi64>[i32] -> i64
  %g = arith.constant 1099511627776 : i64
  %ng = arith.constant -1099511627776 : i64
  %s1 = arith.minsi %s, %g : i64
  %s2 = arith.maxsi %s1, %ng : i64
  %kv64 = arith.extsi %kv : i32 to i64
  %e = arith.subi %s2, %kv64 : i64
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %lo = arith.maxsi %e, %c0 : i64
  %hi = arith.minsi %lo, %c32 : i64
  %r = arith.trunci %hi : i64 to i32
  mask.yield %r : i32
}

// CHECK-LABEL: mask.func @wide
// CHECK:       %[[S:.*]] = mask.load
// CHECK:       %[[R:r[_0-9]*]] = cute.clamped_sub %[[S]], %kv lo 0 hi 32 : i64
// CHECK-NEXT:  mask.yield %[[R]] : i32

// PY-LABEL:    maskopt: mask.func @wide,
// PY:          wide = cutlass.Int64(kv)
// PY-NEXT:     r = cutlass.Int32(min(max(s, wide), (wide + cutlass.Int64(32))) - wide)

// -----

// NarrowTruncatedDifference: q - kv against an i64 window (only q - kv fits
// i32): q - kv - clamp(sat_i32(w), q - kv - 32, q - kv), the window saturated
// to i32, which changes no clamp whose bounds are in i32; the +-2^40 guard
// clamps are looked through.
mask.func @saturated window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %w = mask.load %t[%h] : tensor<4xi64>[i32] -> i64
  %g = arith.constant 1099511627776 : i64
  %ng = arith.constant -1099511627776 : i64
  %w1 = arith.minsi %w, %g : i64
  %w2 = arith.maxsi %w1, %ng : i64
  %q64 = arith.extsi %q : i32 to i64
  %kv64 = arith.extsi %kv : i32 to i64
  %d = arith.subi %q64, %kv64 : i64
  %e = arith.subi %d, %w2 : i64
  %c0 = arith.constant 0 : i64
  %c32 = arith.constant 32 : i64
  %lo = arith.maxsi %e, %c0 : i64
  %hi = arith.minsi %lo, %c32 : i64
  %r = arith.trunci %hi : i64 to i32
  mask.yield %r : i32
}

// CHECK-LABEL: mask.func @saturated
// CHECK:       %[[W:.*]] = mask.load
// CHECK:       %[[A:.*]] = cute.sub %q, %kv : i32
// CHECK-NEXT:  %[[S:.*]] = cute.sat_i32 %[[W]]
// CHECK-NEXT:  %[[R:r[_0-9]*]] = cute.clamped_sub %[[A]], %[[S]] lo 0 hi 32 : i32
// CHECK-NEXT:  mask.yield %[[R]] : i32

// PY-LABEL:    maskopt: mask.func @saturated,
// PY:          a = (q - kv)
// PY-NEXT:     r = (a - min(max(sat_i32(w), (a - cutlass.Int32(32))), a))

// -----

// UnsignedDivision: an i32 division or remainder of a dividend >= 0 by a
// divisor > 0 is divui / remui, printed in Uint32 (a constant divisor as a
// Uint32 constant); floormod likewise.
mask.func @unsigned_division window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %c96 = arith.constant 96 : i32
  %c1 = arith.constant 1 : i32
  %qb = arith.floordivsi %q, %c96 : i32
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %d = arith.maxsi %w, %c1 : i32
  %r = mask.floormod %kv, %d : i32
  %x = arith.remsi %q, %d : i32
  %s = arith.addi %qb, %r : i32
  %y = arith.addi %s, %x : i32
  mask.yield %y : i32
}

// CHECK-LABEL: mask.func @unsigned_division
// CHECK:       %[[QB:.*]] = arith.divui %q, %{{.*}} : i32
// CHECK:       %[[R:.*]] = arith.remui %kv, %[[D:.*]] : i32
// CHECK-NEXT:  %[[X:.*]] = arith.remui %q, %[[D]] : i32
// CHECK-NOT:   arith.floordivsi
// CHECK-NOT:   mask.floormod
// CHECK:       mask.yield

// PY-LABEL:    maskopt: mask.func @unsigned_division,
// PY:          qb = cutlass.Int32(cutlass.Uint32(q) // cutlass.Uint32(96))
// PY:          cutlass.Int32(cutlass.Uint32(kv) % cutlass.Uint32(d))

// -----

// A dividend that may be negative, or a divisor that may be <= 0, keeps
// the signed op.
mask.func @signed_division window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %c96 = arith.constant 96 : i32
  %diff = arith.subi %q, %kv : i32
  %db = arith.floordivsi %diff, %c96 : i32
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %r = mask.floormod %kv, %w : i32
  %s = arith.addi %db, %r : i32
  mask.yield %s : i32
}

// CHECK-LABEL: mask.func @signed_division
// CHECK:       arith.floordivsi %{{.*}}, %{{.*}} : i32
// CHECK:       mask.floormod %kv, %{{.*}} : i32
// CHECK-NOT:   arith.divui
// CHECK-NOT:   arith.remui
// CHECK:       mask.yield

// -----

// WrapNegativeIndex: an aux index that may be negative is wrapped by its
// dimension size (torch's negative indexing), a constant one in [-size, 0)
// folded; an index >= 0 and a wrapped index stay as they are.
mask.func @negative_index window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc : tensor<8xi32>, %start : tensor<5x3xi32>):
  %cm1 = arith.constant -1 : i32
  %d = mask.load %doc[%q] : tensor<8xi32>[i32] -> i32
  %s = mask.load %start[%d, %cm1] : tensor<5x3xi32>[i32, i32] -> i32
  %e = arith.addi %s, %kv : i32
  mask.yield %e : i32
}

// CHECK-LABEL: mask.func @negative_index
// CHECK:       %[[D:.*]] = mask.load %doc[%q] : tensor<8xi32>[i32] -> i32
// CHECK-NEXT:  %[[I:.*]] = cute.wrap_index %[[D]] by 5 : i32
// CHECK-NEXT:  %[[C2:.*]] = cute.constant 2 : i32
// CHECK-NEXT:  %[[S:.*]] = mask.load %start[%[[I]], %[[C2]]] : tensor<5x3xi32>[i32, i32] -> i32
// CHECK-NOT:   cute.wrap_index
// CHECK:       mask.yield

// PY-LABEL:    maskopt: mask.func @negative_index,
// PY:          d = aux_tensors[0][q]
// PY-NEXT:     s = aux_tensors[1][(d + cutlass.Int32(5) if d < cutlass.Int32(0) else d), cutlass.Int32(2)]

// -----

// GuardDivisor: a divisor that may be 0 becomes cute.safe_divisor (1 there:
// torch raises, so any word is right), and a remainder's divisor that may be
// -1 while the dividend may be MIN also replaces -1 (LLVM's srem is UB
// there; x mod -1 is 0). A divisor that is never 0 stays as it is.
mask.func @guarded_divisor window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>, %u : tensor<4xi32>):
  %c7 = arith.constant 7 : i32
  %w = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
  %x = mask.load %u[%h] : tensor<4xi32>[i32] -> i32
  %qw = arith.floordivsi %q, %w : i32
  %r = arith.remsi %x, %w : i32
  %s = arith.floordivsi %x, %c7 : i32
  %y = arith.xori %qw, %r : i32
  %z = arith.xori %y, %s : i32
  mask.yield %z : i32
}

// CHECK-LABEL: mask.func @guarded_divisor
// CHECK:       %[[W:.*]] = mask.load %t[%h] : tensor<4xi32>[i32] -> i32
// CHECK:       %[[D:.*]] = cute.safe_divisor %[[W]] : i32
// CHECK-NEXT:  %{{.*}} = arith.floordivsi %q, %[[D]] : i32
// CHECK-NEXT:  %[[D1:.*]] = cute.safe_divisor %[[W]] or_minus_one : i32
// CHECK-NEXT:  %{{.*}} = arith.remsi %{{.*}}, %[[D1]] : i32
// CHECK-NEXT:  %{{.*}} = arith.floordivsi %{{.*}}, %{{.*}} : i32
// CHECK-NOT:   cute.safe_divisor
// CHECK:       mask.yield

// PY-LABEL:    maskopt: mask.func @guarded_divisor,
// PY:          divisor = (cutlass.Int32(1) if (w == cutlass.Int32(0)) else w)
// PY-NEXT:     qw = (q // divisor)
// PY:          divisor_1 = (cutlass.Int32(1) if (w == cutlass.Int32(0)) | (w == cutlass.Int32(-1)) else w)
// PY-NEXT:     r = (x % divisor_1)

// -----

// LowerFloorRemainder: a floor remainder whose divisor's sign value ranges
// show is C's truncating cute.rem where the dividend is >= 0 and the divisor
// > 0, else cute.floor_rem (the truncated remainder and the correction of
// that sign). One by a divisor of either sign stays mask.floormod.
mask.func @floor_remainder window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>, %u : tensor<4xi32>):
  %c5 = arith.constant 5 : i64
  %cm3 = arith.constant -3 : i32
  %x = mask.load %t[%h] : tensor<4xi64>[i32] -> i64
  %q64 = arith.extsi %q : i32 to i64
  %pos = mask.floormod %q64, %c5 : i64
  %anysign = mask.floormod %x, %c5 : i64
  %diff = arith.subi %q, %kv : i32
  %neg = mask.floormod %diff, %cm3 : i32
  %w = mask.load %u[%h] : tensor<4xi32>[i32] -> i32
  %both = mask.floormod %diff, %w : i32
  %r1 = arith.trunci %pos : i64 to i32
  %r2 = arith.trunci %anysign : i64 to i32
  %s1 = arith.xori %r1, %r2 : i32
  %s2 = arith.xori %s1, %neg : i32
  %s3 = arith.xori %s2, %both : i32
  mask.yield %s3 : i32
}

// CHECK-LABEL: mask.func @floor_remainder
// CHECK:       %[[POS:.*]] = cute.rem %{{.*}}, %{{.*}} : i64
// CHECK:       %[[ANY:.*]] = cute.floor_rem %[[X:.*]], %{{.*}} : i64
// CHECK:       %[[NEG:.*]] = cute.floor_rem %{{.*}}, %{{.*}} negative : i32
// CHECK:       %[[D:.*]] = cute.safe_divisor %{{.*}} : i32
// CHECK-NEXT:  %{{.*}} = mask.floormod %{{.*}}, %[[D]] : i32
// CHECK-NOT:   cute.floor_rem
// CHECK:       mask.yield

// PY-LABEL:    maskopt: mask.func @floor_remainder,
// PY:          pos = (q64 % cutlass.Int64(5))
// PY:          rem = (x % cutlass.Int64(5))
// PY-NEXT:     anysign = (rem + cutlass.Int64(cutlass.select_(rem < cutlass.Int64(0), cutlass.Int64(5), cutlass.Int64(0))))
// PY:          rem_1 = (diff % cutlass.Int32(-3))
// PY-NEXT:     neg = (rem_1 + cutlass.Int32(cutlass.select_(rem_1 > cutlass.Int32(0), cutlass.Int32(-3), cutlass.Int32(0))))
// PY:          rem_2 = (diff % divisor)
// PY-NEXT:     both = (rem_2 + cutlass.Int32(cutlass.select_((rem_2 != cutlass.Int32(0)) & ((rem_2 < cutlass.Int32(0)) != (divisor < cutlass.Int32(0))), divisor, cutlass.Int32(0))))

// -----

// LowerWrappingArithmetic: an i32 +, -, *, // whose exact result value ranges
// do not keep in i32 wraps as torch's does (cute.add_wrap, ...: computed in
// Int64 and truncated), and so does an i64 one in per-lane code (in Uint64);
// one that stays in its type is left as it is.
mask.func @wrapping_arith {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>, %u : tensor<4xi32>):
  %c7 = arith.constant 7 : i32
  %x = mask.load %t[%h] : tensor<4xi64>[i32] -> i64
  %kv64 = arith.extsi %kv : i32 to i64
  %d = arith.subi %x, %kv64 : i64
  %p = arith.muli %q, %kv : i32
  %s = arith.addi %q, %kv : i32
  %n = arith.subi %q, %kv : i32
  %w = mask.load %u[%h] : tensor<4xi32>[i32] -> i32
  %f = arith.floordivsi %w, %n : i32
  %g = arith.floordivsi %p, %c7 : i32
  %d32 = arith.trunci %d : i64 to i32
  %y = arith.xori %d32, %s : i32
  %z = arith.xori %y, %f : i32
  %v = arith.xori %z, %g : i32
  %keep = arith.cmpi slt, %v, %q : i32
  mask.yield %keep : i1
}

// CHECK-LABEL: mask.func @wrapping_arith
// CHECK:       %[[D:.*]] = cute.sub_wrap %x, %kv64 : i64
// CHECK-NEXT:  %[[P:.*]] = cute.mul_wrap %q, %kv : i32
// CHECK-NEXT:  %[[S:.*]] = cute.add_wrap %q, %kv : i32
// CHECK-NEXT:  %[[N:.*]] = arith.subi %q, %kv : i32
// CHECK:       %[[G:.*]] = cute.safe_divisor %[[N]] : i32
// CHECK-NEXT:  %{{.*}} = cute.floordiv_wrap %w, %[[G]] : i32
// CHECK-NEXT:  %{{.*}} = arith.floordivsi %[[P]], %c7 : i32
// CHECK-NOT:   _wrap
// CHECK:       mask.yield

// PY-LABEL:    maskopt: mask.func @wrapping_arith,
// PY:          d = cutlass.Int64(cutlass.Uint64(x) - cutlass.Uint64(kv64))
// PY:          s = cutlass.Int32(cutlass.Int64(q) + cutlass.Int64(kv_idx[lane]))
// PY:          f = cutlass.Int32(cutlass.Int64(w) // cutlass.Int64(divisor))
// PY:          p = cutlass.Int32(cutlass.Int64(q) * cutlass.Int64(kv_idx[lane]))
// PY-NEXT:     g = (p // cutlass.Int32(7))
