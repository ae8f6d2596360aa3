// Unsigned aux tensors (Inputs/unsigned_masks.py, issue 18). torch computes
// on uint8 with zero extension and its own promotion; the FX importer holds
// a uint8 value exactly in i32 (arith.extui of the loaded bits) and reduces
// what may leave [0, 255] with `andi 255`, as torch wraps. (One mask-opt run
// per mask: loading the file imports torch.)

// RUN: mask-opt %S/Inputs/unsigned_masks.py:window_u8 -p dce | filecheck %s --check-prefix=WINDOW
// RUN: mask-opt %S/Inputs/unsigned_masks.py:index_table_u8 -p dce | filecheck %s --check-prefix=TABLE
// RUN: mask-opt %S/Inputs/unsigned_masks.py:wrapping_u8 -p dce | filecheck %s --check-prefix=WRAP
// RUN: mask-opt %S/Inputs/unsigned_masks.py:row_u8_vs_q -p dce | filecheck %s --check-prefix=ROW
// RUN: mask-opt %S/Inputs/unsigned_masks.py:same_u64 -p dce | filecheck %s --check-prefix=U64
// RUN: sh -c 'mask-opt %S/Inputs/unsigned_masks.py:add_u16; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=ADD16
// RUN: sh -c 'mask-opt %S/Inputs/unsigned_masks.py:index_by_u8; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=INDEX

// `q - kv <= win_u8[h]`: int32 op uint8 (both 0-dim) compares in int32.
// WINDOW:      mask.func @window_u8 {
// WINDOW-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[WIN:.*]]: tensor<8xui8>):
// WINDOW-NEXT:   %[[SUB:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// WINDOW-NEXT:   %[[BITS:.*]] = mask.load %[[WIN]][%[[H]]] : tensor<8xui8>[i32] -> i8
// WINDOW-NEXT:   %[[W:.*]] = arith.extui %[[BITS]] : i8 to i32
// WINDOW-NEXT:   %[[LE:.*]] = arith.cmpi sle, %[[SUB]], %[[W]] : i32
// WINDOW-NEXT:   %[[GE:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// WINDOW-NEXT:   %[[AND:.*]] = arith.andi %[[LE]], %[[GE]] : i1
// WINDOW-NEXT:   mask.yield %[[AND]] : i1

// `starts[doc_u8[q_idx].long()]`: the uint8 id zero-extends, then converts.
// TABLE:      ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[DOC:.*]]: tensor<6xui8>, %[[STARTS:.*]]: tensor<256xi32>):
// TABLE-NEXT:   %[[BITS:.*]] = mask.load %[[DOC]][%[[Q]]] : tensor<6xui8>[i32] -> i8
// TABLE-NEXT:   %[[ID:.*]] = arith.extui %[[BITS]] : i8 to i32
// TABLE-NEXT:   %[[ID64:.*]] = arith.extsi %[[ID]] : i32 to i64
// TABLE-NEXT:   %[[START:.*]] = mask.load %[[STARTS]][%[[ID64]]] : tensor<256xi32>[i64] -> i32
// TABLE-NEXT:   %[[LE:.*]] = arith.cmpi sle, %[[START]], %[[KV]] : i32

// `win_u8[h] + 100` is uint8 (a Python scalar takes the tensor's dtype) and
// wraps: 200 + 100 is 44.
// WRAP:      %[[BITS:.*]] = mask.load %{{.*}}[%{{.*}}] : tensor<8xui8>[i32] -> i8
// WRAP-NEXT: %[[W:.*]] = arith.extui %[[BITS]] : i8 to i32
// WRAP-NEXT: %[[C100:.*]] = arith.constant 100 : i32
// WRAP-NEXT: %[[SUM:.*]] = arith.addi %[[W]], %[[C100]] : i32
// WRAP-NEXT: %[[C255:.*]] = arith.constant 255 : i32
// WRAP-NEXT: %[[ADD:.*]] = arith.andi %[[SUM]], %[[C255]] : i32
// WRAP-NEXT: %[[SUB:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// WRAP-NEXT: %{{.*}} = arith.cmpi sgt, %[[ADD]], %[[SUB]] : i32

// `row_u8[h] <= q_idx`: a dimensioned uint8 row against the 0-dim int32
// q_idx compares in uint8 (torch.result_type), so q_idx wraps to q_idx & 255.
// ROW:      %[[BITS:.*]] = mask.load %[[ROW:.*]][%[[H:.*]], %{{.*}}] : tensor<2x3xui8>[i32, i64] -> i8
// ROW-NEXT: %[[E0:.*]] = arith.extui %[[BITS]] : i8 to i32
// ROW:      %[[C255:.*]] = arith.constant 255 : i32
// ROW-NEXT: %[[QU8:.*]] = arith.andi %[[Q:.*]], %[[C255]] : i32
// ROW-NEXT: %{{.*}} = arith.cmpi sle, %[[E0]], %[[QU8]] : i32

// A uint64 element is its bits in i64: == compares them.
// U64:      %[[X:.*]] = mask.load %[[IDS:.*]][%{{.*}}] : tensor<3xui64>[i32] -> i64
// U64-NEXT: %[[C0:.*]] = arith.constant 0 : i64
// U64-NEXT: %[[Y:.*]] = mask.load %[[IDS]][%[[C0]]] : tensor<3xui64>[i64] -> i64
// U64-NEXT: %{{.*}} = arith.cmpi eq, %[[X]], %[[Y]] : i64

// torch 2.13 has no uint16 `+` on CPU (fake tracing does not check it).
// ADD16:      {{^}}mask-opt: error: {{.*}}Inputs/unsigned_masks.py:38:13: `win_u16[h] + 1` (aten.add) computes on torch.uint16, for which torch 2.13 implements only `*`, `==`, `!=`, `&`, `|`, `^`, torch.where and conversions on CPU (eager torch raises NotImplementedError); convert it first, e.g. with `.int()` or `.long()`{{$}}
// ADD16-NEXT: {{^}}exit 1{{$}}

// torch reads a uint8 index as a boolean mask: the trace fails, saying so.
// INDEX:      {{^}}mask-opt: error: {{.*}}Inputs/unsigned_masks.py:42:12: mask_mod 'index_by_u8' failed to trace: an aux tensor indexed with a tensor that is not int64 or int32 (torch reads a uint8 index as a boolean mask; uint16/32/64 and float tensors do not trace as indices): convert the index with .long() or .int(): RuntimeError: tensors used as indices must be long, int, byte or bool tensors{{$}}
// INDEX-NEXT: {{^}}exit 1{{$}}
