// RUN: mask-opt %s | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic --no-remarks | filecheck %s --check-prefix=GENERIC

// Round-trips of every op of the `mask` dialect, in the custom and the
// generic form.

// CHECK-LABEL: builtin.module {

mask.func @plain {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @plain {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[GE]] : i1
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "plain"}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// GENERIC-NEXT:    %[[GE:.*]] = "arith.cmpi"(%[[Q]], %[[KV]]) <{predicate = 5 : i64}> : (i32, i32) -> i1
// GENERIC-NEXT:    "mask.yield"(%[[GE]]) : (i1) -> ()
// GENERIC-NEXT:  }) : () -> ()

mask.func @aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xi32>, %t2 : tensor<4x16xi64>, %tb : tensor<3xi1>, %s : i32, %s64 : i64):
  %x = mask.load %t1[%q] : tensor<8xi32>[i32] -> i32
  %y = mask.load %t2[%b, %h] : tensor<4x16xi64>[i32, i32] -> i64
  %z = mask.load %tb[%h] : tensor<3xi1>[i32] -> i1
  %c64 = arith.constant 64 : i32
  %m = mask.floormod %q, %c64 : i32
  %m64 = mask.floormod %y, %s64 : i64
  %e = arith.cmpi eq, %m, %x : i32
  %f = arith.andi %e, %z : i1
  mask.yield %f : i1
}

// CHECK-LABEL: mask.func @aux {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T1:.*]]: tensor<8xi32>, %[[T2:.*]]: tensor<4x16xi64>, %[[TB:.*]]: tensor<3xi1>, %[[S:.*]]: i32, %[[S64:.*]]: i64):
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[T1]][%[[Q]]] : tensor<8xi32>[i32] -> i32
// CHECK-NEXT:    %[[Y:.*]] = mask.load %[[T2]][%[[B]], %[[H]]] : tensor<4x16xi64>[i32, i32] -> i64
// CHECK-NEXT:    %[[Z:.*]] = mask.load %[[TB]][%[[H]]] : tensor<3xi1>[i32] -> i1
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[M:.*]] = mask.floormod %[[Q]], %[[C64]] : i32
// CHECK-NEXT:    %[[M64:.*]] = mask.floormod %[[Y]], %[[S64]] : i64
// CHECK-NEXT:    %[[E:.*]] = arith.cmpi eq, %[[M]], %[[X]] : i32
// CHECK-NEXT:    %[[F:.*]] = arith.andi %[[E]], %[[Z]] : i1
// CHECK-NEXT:    mask.yield %[[F]] : i1
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "aux"}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T1:.*]]: tensor<8xi32>, %[[T2:.*]]: tensor<4x16xi64>, %[[TB:.*]]: tensor<3xi1>, %[[S:.*]]: i32, %[[S64:.*]]: i64):
// GENERIC-NEXT:    %[[X:.*]] = "mask.load"(%[[T1]], %[[Q]]) : (tensor<8xi32>, i32) -> i32
// GENERIC-NEXT:    %[[Y:.*]] = "mask.load"(%[[T2]], %[[B]], %[[H]]) : (tensor<4x16xi64>, i32, i32) -> i64
// GENERIC-NEXT:    %[[Z:.*]] = "mask.load"(%[[TB]], %[[H]]) : (tensor<3xi1>, i32) -> i1
// GENERIC-NEXT:    %[[C64:.*]] = "arith.constant"() <{value = 64 : i32}> : () -> i32
// GENERIC-NEXT:    %[[M:.*]] = "mask.floormod"(%[[Q]], %[[C64]]) : (i32, i32) -> i32
// GENERIC-NEXT:    %[[M64:.*]] = "mask.floormod"(%[[Y]], %[[S64]]) : (i64, i64) -> i64
// GENERIC-NEXT:    %[[E:.*]] = "arith.cmpi"(%[[M]], %[[X]]) <{predicate = 0 : i64}> : (i32, i32) -> i1
// GENERIC-NEXT:    %[[F:.*]] = "arith.andi"(%[[E]], %[[Z]]) : (i1, i1) -> i1
// GENERIC-NEXT:    "mask.yield"(%[[F]]) : (i1) -> ()
// GENERIC-NEXT:  }) : () -> ()

// Unsigned aux tensors and scalars (torch uint8 .. uint64): a load gives the
// element's bits as a signless integer, arith.extui its value.
mask.func @unsigned_aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %win : tensor<8xui8>, %t64 : tensor<2x3xui64>, %s : ui16):
  %bits = mask.load %win[%h] : tensor<8xui8>[i32] -> i8
  %w = arith.extui %bits : i8 to i32
  %y = mask.load %t64[%b, %h] : tensor<2x3xui64>[i32, i32] -> i64
  %sv = arith.extui %s : ui16 to i32
  %d = arith.subi %q, %kv : i32
  %le = arith.cmpi sle, %d, %w : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @unsigned_aux {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[WIN:.*]]: tensor<8xui8>, %[[T64:.*]]: tensor<2x3xui64>, %[[S:.*]]: ui16):
// CHECK-NEXT:    %[[BITS:.*]] = mask.load %[[WIN]][%[[H]]] : tensor<8xui8>[i32] -> i8
// CHECK-NEXT:    %[[W:.*]] = arith.extui %[[BITS]] : i8 to i32
// CHECK-NEXT:    %[[Y:.*]] = mask.load %[[T64]][%[[B]], %[[H]]] : tensor<2x3xui64>[i32, i32] -> i64
// CHECK-NEXT:    %[[SV:.*]] = arith.extui %[[S]] : ui16 to i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[LE:.*]] = arith.cmpi sle, %[[D]], %[[W]] : i32
// CHECK-NEXT:    mask.yield %[[LE]] : i1
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "unsigned_aux"}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[WIN:.*]]: tensor<8xui8>, %[[T64:.*]]: tensor<2x3xui64>, %[[S:.*]]: ui16):
// GENERIC-NEXT:    %[[BITS:.*]] = "mask.load"(%[[WIN]], %[[H]]) : (tensor<8xui8>, i32) -> i8
// GENERIC-NEXT:    %[[W:.*]] = "arith.extui"(%[[BITS]]) : (i8) -> i32
// GENERIC-NEXT:    %[[Y:.*]] = "mask.load"(%[[T64]], %[[B]], %[[H]]) : (tensor<2x3xui64>, i32, i32) -> i64
// GENERIC-NEXT:    %[[SV:.*]] = "arith.extui"(%[[S]]) : (ui16) -> i32

mask.func @windowed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %lane = mask.lane : i32
  %kvl = arith.addi %kv, %lane : i32
  %d = arith.subi %q, %kv : i32
  %near = mask.lane_cmp "sle", -1 * lane + %d + -256 : i32
  %ge = mask.lane_cmp "sge", 1 * lane + %kv + 0 : i32
  %b64 = arith.extsi %b : i32 to i64
  %wide = mask.lane_cmp "ne", -3 * lane + %b64 + 9000000000 : i64
  %w = arith.constant -1 : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @windowed window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[NEAR:.*]] = mask.lane_cmp "sle", -1 * lane + %[[D]] + -256 : i32
// CHECK-NEXT:    %[[GE:.*]] = mask.lane_cmp "sge", 1 * lane + %[[KV]] + 0 : i32
// CHECK-NEXT:    %[[B64:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT:    %[[WIDE:.*]] = mask.lane_cmp "ne", -3 * lane + %[[B64]] + 9000000000 : i64
// CHECK-NEXT:    %[[W:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "windowed", kv_window}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// GENERIC-NEXT:    %[[LANE:.*]] = "mask.lane"() : () -> i32
// GENERIC-NEXT:    %[[KVL:.*]] = "arith.addi"(%[[KV]], %[[LANE]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    %[[D:.*]] = "arith.subi"(%[[Q]], %[[KV]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    %[[NEAR:.*]] = "mask.lane_cmp"(%[[D]]) <{predicate = "sle", coeff = -1 : i64, offset = -256 : i64}> : (i32) -> i1
// GENERIC-NEXT:    %[[GE:.*]] = "mask.lane_cmp"(%[[KV]]) <{predicate = "sge", coeff = 1 : i64, offset = 0 : i64}> : (i32) -> i1
// GENERIC-NEXT:    %[[B64:.*]] = "arith.extsi"(%[[B]]) : (i32) -> i64
// GENERIC-NEXT:    %[[WIDE:.*]] = "mask.lane_cmp"(%[[B64]]) <{predicate = "ne", coeff = -3 : i64, offset = 9000000000 : i64}> : (i64) -> i1
// GENERIC-NEXT:    %[[W:.*]] = "arith.constant"() <{value = -1 : i32}> : () -> i32
// GENERIC-NEXT:    "mask.yield"(%[[W]]) : (i32) -> ()
// GENERIC-NEXT:  }) : () -> ()

mask.func @unpacked_fn window unpacked "a reason with `quotes` and (parens)" {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 2 * lane + %q + 5 : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @unpacked_fn window unpacked "a reason with `quotes` and (parens)" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[P:.*]] = mask.lane_cmp "slt", 2 * lane + %[[Q]] + 5 : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "unpacked_fn", kv_window, unpacked = "a reason with `quotes` and (parens)"}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// GENERIC-NEXT:    %[[P:.*]] = "mask.lane_cmp"(%[[Q]]) <{predicate = "slt", coeff = 2 : i64, offset = 5 : i64}> : (i32) -> i1
// GENERIC-NEXT:    "mask.yield"(%[[P]]) : (i1) -> ()
// GENERIC-NEXT:  }) : () -> ()

// `unpacked` without `window`, and extra attributes after the keyword.
mask.func @attrs unpacked "r" attributes {foo = 1 : i32} {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK-LABEL: mask.func @attrs unpacked "r" attributes {foo = 1 : i32} {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    mask.yield %[[T]] : i1
// CHECK-NEXT:  }
// CHECK-NEXT: }

// GENERIC-LABEL: "mask.func"() <{sym_name = "attrs", unpacked = "r"}> ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// GENERIC-NEXT:    %[[T:.*]] = "arith.constant"() <{value = true}> : () -> i1
// GENERIC-NEXT:    "mask.yield"(%[[T]]) : (i1) -> ()
// GENERIC-NEXT:  }) {foo = 1 : i32} : () -> ()
// GENERIC-NEXT: }) : () -> ()
