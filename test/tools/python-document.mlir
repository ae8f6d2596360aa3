// The per-lane gather of tools/examples/masks.py does not pack: the IR on
// stdout keeps the reason in `unpacked`, and a remark on stderr names the
// gather as written (`doc_ids[kv_idx]`), at its line and column in masks.py,
// underlines it in the source line and suggests the rewrite that packs.
// (One mask-opt run per file: loading masks.py imports torch.)

// RUN: mask-opt %S/../../tools/examples/masks.py:document_gather 2> %t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK --strict-whitespace --input-file=%t.err

// CHECK:      mask.func @document_gather window unpacked "`doc_ids[kv_idx]` is a per-lane gather: its index depends on kv_idx; if documents are contiguous, {{.*}}" {
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

// REMARK:      {{^.*}}tools/examples/masks.py:40:31: remark: mask.func @document_gather not packed: `doc_ids[kv_idx]` is a per-lane gather: its index depends on kv_idx{{$}}
// REMARK-NEXT: {{^}}        return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx){{$}}
// REMARK-NEXT: {{^}}                                  ^~~~~~~~~~~~~~~{{$}}
// REMARK-NEXT: {{^.*}}tools/examples/masks.py:40:31: note: if documents are contiguous, compare kv_idx with the bounds of q_idx's document instead of comparing doc_ids of q_idx and kv_idx: `(kv_idx >= doc_starts[doc_ids[q_idx]]) & (kv_idx < doc_ends[doc_ids[q_idx]])` packs (doc_starts/doc_ends indexed by document id){{$}}
// REMARK-NOT:  remark
