// RUN: mask-opt %s -p fold-intervals --no-remarks | filecheck %s
// RUN: mask-opt %s -p fold-intervals 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: mask-opt %s -p 'fold-intervals{max-intervals=1}' --no-remarks | filecheck %s --check-prefix=LIMIT

// fold-intervals on comparisons of bitwise functions of kv = kv_idx + L
// (`interval.table`): the window spans two aligned blocks of 32 KV indices,
// block 0 (lanes L < 32 - o, o = kv_idx & 31, offset r = L + o) and block 1
// (the other lanes, r = L + o - 32). In a block starting at H, v(H + r) =
// v(H) + T(r) for a constant table T, so each comparison keeps a threshold
// set of T in each block: one run per block.

// (kv & 7) < 3: the value at a block start is the constant 0 (every bit of
// kv & 7 is a bit of the offset), so the thresholds are constants.
mask.func @low_bits window {
^bb0(%b : i32, %h : i32, %q : i32, %kv_idx : i32):
  %lane = mask.lane : i32
  %kv = arith.addi %kv_idx, %lane : i32
  %c7 = arith.constant 7 : i32
  %c3 = arith.constant 3 : i32
  %m = arith.andi %kv, %c7 : i32
  %p = arith.cmpi slt, %m, %c3 : i32
  mask.yield %p : i1
}

// The threshold is T(r) <= 3 - 1 - v(H) = 2, v(H) = 0.
// CHECK-LABEL: mask.func @low_bits window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[OFF:.*]] = arith.andi %[[KV]], %[[C31]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[S1:.*]] = arith.subi %[[OFF]], %[[C32]] : i32
// CHECK-NEXT:    %[[W:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[T0:.*]] = interval.table %[[OFF]], %[[W]] table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
// CHECK-NEXT:    %[[T1:.*]] = interval.table %[[S1]], %[[W]] table [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7] : i32, i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[T0]], %[[T1]]
// CHECK-NEXT:    %[[K:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[K]] : i32

// Morton x decode of kv (bits 0, 2, 4, ... compacted) compared on both sides
// with lane-uniform bounds: in a block, x(H + r) = x(H) + T(r) with T(r) the
// bits 0, 2, 4 of r compacted; x(H) is the decode computed at the block
// start (the cloned ops). `lo <= x` is -T(r) <= x(H) - lo: a factor of the
// negated table; both factors of a block share its run.
mask.func @morton_x window {
^bb0(%b : i32, %h : i32, %q : i32, %kv_idx : i32):
  %lane = mask.lane : i32
  %kv = arith.addi %kv_idx, %lane : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %m1 = arith.constant 1431655765 : i32
  %m2 = arith.constant 858993459 : i32
  %m3 = arith.constant 252645135 : i32
  %x0 = arith.andi %kv, %m1 : i32
  %s0 = arith.shrsi %x0, %c1 : i32
  %o0 = arith.ori %x0, %s0 : i32
  %x1 = arith.andi %o0, %m2 : i32
  %s1 = arith.shrsi %x1, %c2 : i32
  %o1 = arith.ori %x1, %s1 : i32
  %x = arith.andi %o1, %m3 : i32
  %lo = arith.subi %q, %c2 : i32
  %hi = arith.addi %q, %c2 : i32
  %ge = arith.cmpi sle, %lo, %x : i32
  %le = arith.cmpi sle, %x, %hi : i32
  %p = arith.andi %ge, %le : i1
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @morton_x window {
// CHECK:         %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[CM32:.*]] = arith.constant -32 : i32
// CHECK-NEXT:    %[[OFF:.*]] = arith.andi %kv_idx, %[[C31]] : i32
// CHECK-NEXT:    %[[H0:.*]] = arith.andi %kv_idx, %[[CM32]] : i32
// CHECK-NEXT:    %[[KV31:.*]] = arith.addi %kv_idx, %[[C31]] : i32
// CHECK-NEXT:    %[[H1:.*]] = arith.andi %[[KV31]], %[[CM32]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[S1:.*]] = arith.subi %[[OFF]], %[[C32]] : i32
// CHECK-NEXT:    %x0 = arith.andi %[[H0]], %m1 : i32
// CHECK:         %[[X:.*]] = arith.andi %{{.*}}, %m3 : i32
// CHECK-NEXT:    %[[XQ:.*]] = arith.subi %[[X]], %q : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[LO0:.*]] = arith.addi %[[XQ]], %[[C2]] : i32
// CHECK-NEXT:    %x0_1 = arith.andi %[[H1]], %m1 : i32
// CHECK:         %[[X1:.*]] = arith.andi %{{.*}}, %m3 : i32
// CHECK:         %[[LO1:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         %[[HI0:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK:         %[[HI1:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[A:.*]] = interval.table %[[OFF]], %[[LO0]] table [0, -1, 0, -1, -2, -3, -2, -3, 0, -1, 0, -1, -2, -3, -2, -3, -4, -5, -4, -5, -6, -7, -6, -7, -4, -5, -4, -5, -6, -7, -6, -7] : i32, i32
// CHECK-NEXT:    %[[B:.*]] = interval.table %[[OFF]], %[[HI0]] table [0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 4, 5, 4, 5, 6, 7, 6, 7] : i32, i64
// CHECK-NEXT:    %[[R0:.*]] = interval.intersect %[[A]], %[[B]]
// CHECK-NEXT:    %[[A1:.*]] = interval.table %[[S1]], %[[LO1]] table
// CHECK-NEXT:    %[[B1:.*]] = interval.table %[[S1]], %[[HI1]] table
// CHECK-NEXT:    %[[R1:.*]] = interval.intersect %[[A1]], %[[B1]]
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R0]], %[[R1]]
// CHECK-NEXT:    %[[K:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[K]] : i32

// `!=` of a table value: two runs per block (T < w or T > w).
mask.func @ne window {
^bb0(%b : i32, %h : i32, %q : i32, %kv_idx : i32):
  %lane = mask.lane : i32
  %kv = arith.addi %kv_idx, %lane : i32
  %c12 = arith.constant 12 : i32
  %x = arith.andi %kv, %c12 : i32
  %y = arith.andi %q, %c12 : i32
  %p = arith.cmpi ne, %x, %y : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @ne window {
// CHECK-COUNT-4: interval.table
// CHECK:         interval.union %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}

// A table comparison takes a run per block: with max-intervals=1 none packs.
// LIMIT: mask.func @low_bits window unpacked "2 ranges exceed max-intervals=1 at `((kv_idx + lane) & 7) < 3`
// LIMIT: mask.func @morton_x window unpacked "2 ranges exceed max-intervals=1
// LIMIT: mask.func @ne window unpacked "4 ranges exceed max-intervals=1 at `((kv_idx + lane) & 12) != (q & 12)`

// A bit of kv and a bit of q in the same position: `^` mixes a lane bit
// with a lane-uniform one, so no table; the function stays as it is.
mask.func @mixed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv_idx : i32):
  %lane = mask.lane : i32
  %kv = arith.addi %kv_idx, %lane : i32
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %x = arith.xori %kv, %q : i32
  %y = arith.andi %x, %c1 : i32
  %p = arith.cmpi eq, %y, %c0 : i32
  mask.yield %p : i1
}

// REMARK: remark: mask.func @mixed not packed: `(kv_idx + lane) ^ q` is not linear in kv_idx (`^` of a value that depends on kv_idx); nor a bitwise function of the KV offset within a 32-block: it combines a bit of the offset with a lane-uniform bit in one position
// CHECK-LABEL: mask.func @mixed window unpacked
// CHECK-NOT:     interval.
// CHECK:         mask.yield %{{.*}} : i1
