// The per-lane gather of tools/examples/masks.py does not pack: the IR on
// stdout keeps the reason in `unpacked`, and a remark on stderr gives the
// source location of the function and of the gather.
// (One mask-opt run per file: loading masks.py imports torch.)

// RUN: mask-opt %S/../../tools/examples/masks.py:document_gather 2> %t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK --input-file=%t.err

// CHECK:      mask.func @document_gather window unpacked "`%index = mask.load` ({{.*}}tools/examples/masks.py:40) is a per-lane gather: its index depends on kv_idx; {{.*}}" {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[IDS:.*]]: tensor<1024xi32>):
// CHECK-NEXT:   %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:   %[[KVL:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:   %[[DQ:.*]] = mask.load %[[IDS]][%[[Q]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:   %[[DK:.*]] = mask.load %[[IDS]][%[[KVL]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:   %[[EQ:.*]] = arith.cmpi eq, %[[DQ]], %[[DK]] : i32
// CHECK-NEXT:   %[[D:.*]] = arith.subi %[[KV]], %[[Q]] : i32
// CHECK-NEXT:   %[[LE:.*]] = mask.lane_cmp "sle", 1 * lane + %[[D]] + 0 : i32
// CHECK-NEXT:   %[[AND:.*]] = arith.andi %[[EQ]], %[[LE]] : i1
// CHECK-NEXT:   mask.yield %[[AND]] : i1
// CHECK-NEXT: }

// REMARK: {{^.*}}tools/examples/masks.py:40:1: remark: mask.func @document_gather not packed: `%index = mask.load` ({{.*}}tools/examples/masks.py:40) is a per-lane gather: its index depends on kv_idx
