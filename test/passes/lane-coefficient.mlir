// RUN: mask-opt %s -p canonicalize | filecheck %s
// RUN: mask-opt %s -p lane-affine,canonicalize | filecheck %s --check-prefix=AFFINE
// RUN: mask-opt %s -p pack-mask | filecheck %s --check-prefix=PACK

// Lane coefficients other than +-1 (LaneCmpScaledOrder, LaneCmpScaledEquality
// in passes/canonicalization_patterns/mask.py). A lane_cmp is exact, so with
// a = |c| >= 2, s = sign(c), V = u + k:
//   c * L + V >= 0  <=>  s * L + floor(V / a) >= 0
// (`>` is `- 1 >= 0`, `<` and `<=` the negations), and c * L + V == 0 iff
// a divides V and s * L + V / a == 0. floor((u + k) / a) is computed as
// floor((u + r) / a) + k // a with r = k mod a, the constant in the offset;
// u is widened to i64 where value ranges do not rule out that u + r wraps.
// (Captures are defined on plain CHECK lines: the Python filecheck port binds
// them wrongly on CHECK-NEXT lines.)

// c = -2, `>=`: -2L + q >= 0 <=> -L + q // 2 >= 0. q + 0 needs no widening.
mask.func @ge window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "sge", -2 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ge window {
// CHECK:         %[[A:.*]] = arith.constant 2 : i32
// CHECK:         %[[D:.*]] = arith.floordivsi %[[Q:.*]], %[[A]] : i32
// CHECK:         %[[P:.*]] = mask.lane_cmp "sge", -1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1

// c = 3, `>`: 3L + q - 7 > 0 <=> 3L + q - 8 >= 0 <=> L + (q + 1) // 3 - 3 >= 0
// (-8 = 3 * -3 + 1). Over the whole int32 domain q + 1 may wrap: in i64.
mask.func @gt window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "sgt", 3 * lane + %q + -7 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @gt window {
// CHECK:         %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:         %[[R:.*]] = arith.constant 1 : i64
// CHECK:         %[[S:.*]] = arith.addi %[[W]], %[[R]] : i64
// CHECK:         %[[A:.*]] = arith.constant 3 : i64
// CHECK:         %[[D:.*]] = arith.floordivsi %[[S]], %[[A]] : i64
// CHECK:         %[[P:.*]] = mask.lane_cmp "sge", 1 * lane + %[[D]] + -3 : i64
// CHECK-NEXT:    mask.yield %[[P]] : i1

// ... and inside q < 2^17 it cannot: no widening.
mask.func @gt_in_domain window domain array<i64: 2147483648, 2147483648, 131072, 131072> {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "sgt", 3 * lane + %q + -7 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @gt_in_domain window domain
// CHECK-NOT:     arith.extsi
// CHECK:         %[[R:.*]] = arith.constant 1 : i32
// CHECK:         %[[S:.*]] = arith.addi %{{.*}}, %[[R]] : i32
// CHECK:         %[[A:.*]] = arith.constant 3 : i32
// CHECK:         %[[D:.*]] = arith.floordivsi %[[S]], %[[A]] : i32
// CHECK:         %[[P:.*]] = mask.lane_cmp "sge", 1 * lane + %[[D]] + -3 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1

// c = 4, `<=`: 4L + q + 2 <= 0 <=> not (4L + q + 1 >= 0) <=> L + (q + 1) // 4 < 0.
mask.func @le window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "sle", 4 * lane + %q + 2 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @le window {
// CHECK:         %[[A:.*]] = arith.constant 4 : i64
// CHECK:         %[[D:.*]] = arith.floordivsi %{{.*}}, %[[A]] : i64
// CHECK:         %[[P:.*]] = mask.lane_cmp "slt", 1 * lane + %[[D]] + 0 : i64
// CHECK-NEXT:    mask.yield %[[P]] : i1

// `==`: 3L + q == 0 iff 3 divides q and L + q // 3 == 0, a lane-uniform
// condition and a ±1 lane_cmp.
mask.func @eq window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "eq", 3 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @eq window {
// CHECK:         %[[A:.*]] = arith.constant 3 : i32
// CHECK:         %[[D:.*]] = arith.floordivsi %[[Q:.*]], %[[A]] : i32
// CHECK:         %[[M:.*]] = mask.floormod %[[Q]], %[[A]] : i32
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         %[[DIV:.*]] = arith.cmpi eq, %[[M]], %[[Z]] : i32
// CHECK:         %[[L:.*]] = mask.lane_cmp "eq", 1 * lane + %[[D]] + 0 : i32
// CHECK:         %[[P:.*]] = arith.andi %[[DIV]], %[[L]] : i1
// CHECK-NEXT:    mask.yield %[[P]] : i1

// `!=`, c = -2: -2L + q + 5 != 0 iff 2 does not divide q + 1 or
// -L + (q + 1) // 2 + 2 != 0 (5 = 2 * 2 + 1).
mask.func @ne window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "ne", -2 * lane + %q + 5 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ne window {
// CHECK:         %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:         %[[A:.*]] = arith.constant 2 : i64
// CHECK:         %[[D:.*]] = arith.floordivsi %[[S]], %[[A]] : i64
// CHECK:         %[[M:.*]] = mask.floormod %[[S]], %[[A]] : i64
// CHECK:         %[[NDIV:.*]] = arith.cmpi ne, %[[M]], %{{.*}} : i64
// CHECK:         %[[L:.*]] = mask.lane_cmp "ne", -1 * lane + %[[D]] + 2 : i64
// CHECK:         %[[P:.*]] = arith.ori %[[NDIV]], %[[L]] : i1
// CHECK-NEXT:    mask.yield %[[P]] : i1

// Coefficient +-1: unchanged.
mask.func @unit window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "sge", -1 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @unit window {
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "sge", -1 * lane + %{{.*}} + 0 : i32
// CHECK-NEXT:    mask.yield

// An i64 u + 1 that value ranges cannot rule out wrapping (any int64 aux
// value) is left alone: fold-intervals then names the coefficient.
mask.func @wide window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %u = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %p = mask.lane_cmp "slt", 2 * lane + %u + 1 : i64
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @wide window {
// CHECK:         mask.lane_cmp "slt", 2 * lane + %{{.*}} + 1 : i64
// CHECK-NOT:     arith.floordivsi
// CHECK:         mask.yield

// End to end: `q - 2 * kv >= 0` is exact inside q, kv < 2^17, so lane-affine
// gives the lane_cmp -2 * lane + (q - 2 * kv) >= 0, canonicalize its bound
// (q - 2 * kv) // 2, and pack-mask one run [0, bound + 1).
mask.func @strided_causal domain array<i64: 2147483648, 2147483648, 131072, 131072> {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c2 = arith.constant 2 : i32
  %kv2 = arith.muli %kv, %c2 : i32
  %d = arith.subi %q, %kv2 : i32
  %c0 = arith.constant 0 : i32
  %p = arith.cmpi sge, %d, %c0 : i32
  mask.yield %p : i1
}

// AFFINE-LABEL: mask.func @strided_causal window domain
// AFFINE:         %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// AFFINE:         %[[A:.*]] = arith.constant 2 : i32
// AFFINE:         %[[B:.*]] = arith.floordivsi %[[D]], %[[A]] : i32
// AFFINE:         %[[P:.*]] = mask.lane_cmp "sge", -1 * lane + %[[B]] + 0 : i32
// AFFINE-NEXT:    mask.yield %[[P]] : i1

// PACK-LABEL: mask.func @strided_causal window domain
// PACK-NOT:     unpacked
// PACK:         %[[B:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : i32
// PACK:         %[[E:.*]] = arith.addi %[[B]], %{{.*}} : i32
// PACK:         %[[R:.*]] = interval.range %{{.*}}, %[[E]] : i32
// PACK:         interval.keep_word %[[R]] : i32

// Over the whole int32 domain `q - 2 * kv` wraps (torch wraps too): with
// D = q - 2 * kv (exact, i64) the lanes' E = D - 2L is in [-2^32 + 2, 2^31),
// so wrap(E) = E where E >= -2^31 and E + 2^32 (>= 2, kept) below. The first
// piece is L <= D // 2 = bound: [0, bound + 1); the second E < -2^31, i.e.
// L >= bound + 2^30 + 1: [32 - max(-2^30 + 31 - bound, 0), 32). Both bounds
// from the one floor division by 2 in i64, truncated where they fit i32.
mask.func @strided_causal_full {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c2 = arith.constant 2 : i32
  %kv2 = arith.muli %kv, %c2 : i32
  %d = arith.subi %q, %kv2 : i32
  %c0 = arith.constant 0 : i32
  %p = arith.cmpi sge, %d, %c0 : i32
  mask.yield %p : i1
}

// PACK-LABEL: mask.func @strided_causal_full window {
// PACK-NOT:     unpacked
// PACK:         %[[Q:.*]] = arith.extsi %{{.*}} : i32 to i64
// PACK:         %[[KV:.*]] = arith.extsi %{{.*}} : i32 to i64
// PACK:         %[[S:.*]] = arith.constant 2 : i64
// PACK:         %[[K2:.*]] = arith.muli %[[KV]], %[[S]] : i64
// PACK:         %[[D:.*]] = arith.subi %[[Q]], %[[K2]] : i64
// PACK:         %[[B:.*]] = arith.floordivsi %[[D]], %[[S]] : i64
// PACK:         %[[BT:.*]] = arith.trunci %[[B]] : i64 to i32
// PACK:         %[[W:.*]] = arith.constant -1073741793 : i32
// PACK:         %[[N:.*]] = arith.subi %[[W]], %[[BT]] : i32
// PACK:         %[[Z:.*]] = arith.constant 0 : i32
// PACK:         %[[NZ:.*]] = arith.maxsi %[[N]], %[[Z]] : i32
// PACK:         %[[C32:.*]] = arith.constant 32 : i32
// PACK:         %[[LO:.*]] = arith.subi %[[C32]], %[[NZ]] : i32
// PACK:         %[[HI:.*]] = arith.addi %[[BT]], %{{.*}} : i32
// PACK:         %[[R0:.*]] = interval.range %[[Z]], %[[HI]] : i32
// PACK:         %[[R1:.*]] = interval.range %[[LO]], %[[C32]] : i32
// PACK:         %[[U:.*]] = interval.union %[[R0]], %[[R1]]
// PACK:         interval.keep_word %[[U]] : i32

// c = -3 over the whole domain: `0 <= q - 3 * kv < 384` (D = q - 3 * kv in
// [-3 * (2^31 - 32), 2^31), E = D - 3L wraps at most once, below -2^31, at
// the wrap lane (D + 2) // 3 + 715827883 (2^31 = 3 * 715827882 + 2)). Each
// comparison splits into the pieces k = 0 and k = 1; fold-intervals joins
// them into two runs: [max(D // 3 - 127, 0), min(D // 3 + 1, wrap lane))
// where E does not wrap, and [max(wrap lane, (D + 1) // 3 + 1431655638),
// min(32, (D + 1) // 3 + 1431655766)) where E + 2^32 is in [0, 384).
mask.func @compressed_window_s3_full {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c3 = arith.constant 3 : i32
  %kv3 = arith.muli %kv, %c3 : i32
  %d = arith.subi %q, %kv3 : i32
  %c0 = arith.constant 0 : i32
  %c384 = arith.constant 384 : i32
  %ge = arith.cmpi sge, %d, %c0 : i32
  %lt = arith.cmpi slt, %d, %c384 : i32
  %p = arith.andi %ge, %lt : i1
  mask.yield %p : i1
}

// AFFINE-LABEL: mask.func @compressed_window_s3_full window {
// AFFINE:         mask.lane_cmp "sge", -1 * lane + %{{.*}} + 715827882 : i64
// AFFINE:         mask.lane_cmp "sge", -1 * lane + %{{.*}} + 0 : i64
// AFFINE:         mask.lane_cmp "slt", -1 * lane + %{{.*}} + -128 : i64
// AFFINE:         mask.yield

// PACK-LABEL: mask.func @compressed_window_s3_full window {
// PACK-NOT:     unpacked
// PACK:         %[[S:.*]] = arith.constant 3 : i64
// PACK:         %[[K3:.*]] = arith.muli %{{.*}}, %[[S]] : i64
// PACK:         %[[D:.*]] = arith.subi %{{.*}}, %[[K3]] : i64
// PACK:         %[[D2:.*]] = arith.addi %[[D]], %{{.*}} : i64
// PACK:         arith.floordivsi %[[D2]], %[[S]] : i64
// PACK:         %[[B:.*]] = arith.floordivsi %[[D]], %[[S]] : i64
// PACK:         %[[D1:.*]] = arith.addi %[[D]], %{{.*}} : i64
// PACK:         arith.floordivsi %[[D1]], %[[S]] : i64
// PACK:         %[[C127:.*]] = arith.constant 127 : i64
// PACK:         arith.maxsi %[[B]], %[[C127]] : i64
// PACK:         %[[R0:.*]] = interval.range
// PACK:         %[[R1:.*]] = interval.range
// PACK:         %[[U:.*]] = interval.union %[[R0]], %[[R1]]
// PACK:         interval.keep_word %[[U]] : i32
