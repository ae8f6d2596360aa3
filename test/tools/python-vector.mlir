// Small tensor values are scalarized by the FX importer (Inputs/vector_masks.py):
// VSA's top-k row `topk[h, q_idx // 64]` (3 of a tensor's 4 dimensions
// indexed) becomes 3 loads with constant last indices, the elementwise `==`
// with `kv_tile.unsqueeze(-1)` 3 comparisons, `.any(dim=-1)` an `ori` chain.
// A tensor value of more than 32 elements is an error naming it.
// (One mask-opt run per mask: loading the file imports torch.)

// RUN: mask-opt %S/Inputs/vector_masks.py:vsa -p dce | filecheck %s
// RUN: sh -c 'mask-opt %S/Inputs/vector_masks.py:too_wide; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=WIDE

// CHECK:      mask.func @vsa {
// CHECK-NEXT: ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q_IDX:.*]]: i32, %[[KV_IDX:.*]]: i32, %[[TOPK:.*]]: tensor<2x2x3xi32>, %[[SIZES:.*]]: tensor<5xi64>):
// CHECK-NEXT:   %[[V0:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[DIV:.*]] = arith.floordivsi %[[Q_IDX]], %[[V0]] : i32
// CHECK-NEXT:   %[[V1:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[DIV_1:.*]] = arith.floordivsi %[[KV_IDX]], %[[V1]] : i32
// CHECK-NEXT:   %[[V2:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[INDEX:.*]] = mask.load %[[TOPK]][%[[H]], %[[DIV]], %[[V2]]] : tensor<2x2x3xi32>[i32, i32, i64] -> i32
// CHECK-NEXT:   %[[V3:.*]] = arith.constant 1 : i64
// CHECK-NEXT:   %[[INDEX_1:.*]] = mask.load %[[TOPK]][%[[H]], %[[DIV]], %[[V3]]] : tensor<2x2x3xi32>[i32, i32, i64] -> i32
// CHECK-NEXT:   %[[V4:.*]] = arith.constant 2 : i64
// CHECK-NEXT:   %[[INDEX_2:.*]] = mask.load %[[TOPK]][%[[H]], %[[DIV]], %[[V4]]] : tensor<2x2x3xi32>[i32, i32, i64] -> i32
// CHECK-NEXT:   %[[EQ:.*]] = arith.cmpi eq, %[[INDEX]], %[[DIV_1]] : i32
// CHECK-NEXT:   %[[EQ_1:.*]] = arith.cmpi eq, %[[INDEX_1]], %[[DIV_1]] : i32
// CHECK-NEXT:   %[[EQ_2:.*]] = arith.cmpi eq, %[[INDEX_2]], %[[DIV_1]] : i32
// CHECK-NEXT:   %[[V5:.*]] = arith.ori %[[EQ]], %[[EQ_1]] : i1
// CHECK-NEXT:   %[[ANY:.*]] = arith.ori %[[V5]], %[[EQ_2]] : i1
// CHECK-NEXT:   %[[V6:.*]] = arith.constant 64 : i32
// CHECK-NEXT:   %[[REMAINDER:.*]] = mask.floormod %[[KV_IDX]], %[[V6]] : i32
// CHECK-NEXT:   %[[INDEX_3:.*]] = mask.load %[[SIZES]][%[[DIV_1]]] : tensor<5xi64>[i32] -> i64
// CHECK-NEXT:   %[[V7:.*]] = arith.extsi %[[REMAINDER]] : i32 to i64
// CHECK-NEXT:   %[[LT:.*]] = arith.cmpi slt, %[[V7]], %[[INDEX_3]] : i64
// CHECK-NEXT:   %[[BITWISE_AND:.*]] = arith.andi %[[ANY]], %[[LT]] : i1
// CHECK-NEXT:   mask.yield %[[BITWISE_AND]] : i1
// CHECK-NEXT: }

// WIDE:      {{^}}mask-opt: error: {{.*}}Inputs/vector_masks.py:22:13: `wide[h]` (aten.index) is a tensor of shape [33] (33 elements); the mask dialect is scalar and maskopt scalarizes tensor values of at most 32 elements{{$}}
// WIDE-NEXT: {{^}}exit 1{{$}}
