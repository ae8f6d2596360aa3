// A traced mask_mod with a CuTe target and no -p runs pack-mask and then
// interval-to-cute: --print-ir-after-all shows the word form that -t cute
// prints as cute ops (a plain shift by min(amount, 32), test/sass-results.md),
// and no pure op the lowering left unused. With -t mlir the default stays
// pack-mask (the interval IR).
// (One mask-opt run per line: loading tools/examples/masks.py imports torch.)

// RUN: mask-opt %S/../../tools/examples/masks.py:causal -t cute --print-ir-after-all 2>&1 >/dev/null | filecheck %s
// RUN: mask-opt %S/../../tools/examples/masks.py:causal --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=MLIR

// CHECK:      IR Dump After cse (pack-mask 10/10)
// CHECK:      %[[R:.*]] = interval.range
// CHECK:      // -----// IR Dump After interval-to-cute //----- //
// CHECK:      mask.func @causal window {
// CHECK:        %[[D:.*]] = arith.subi %q_idx, %kv_idx : i32
// CHECK:        %[[A:.*]] = arith.maxsi
// CHECK-NEXT:   %[[C32:.*]] = cute.constant 32 : i32
// CHECK-NEXT:   %[[M:.*]] = cute.min %[[A]], %[[C32]] : i32
// CHECK-NEXT:   %[[ONES:.*]] = cute.constant 4294967295 : ui32
// CHECK-NEXT:   %[[W:.*]] = cute.shr_u32 %[[ONES]], %[[M]] : i32
// CHECK-NEXT:   %[[V:.*]] = cute.lanes %[[W]]
// CHECK-NEXT:   %[[K:.*]] = interval.keep_word %[[V]] : i32
// CHECK-NEXT:   mask.yield %[[K]] : i32
// CHECK-NOT:  interval.range
// CHECK-NOT:  IR Dump

// MLIR:       IR Dump After cse (pack-mask 10/10)
// MLIR-NOT:   IR Dump
// MLIR-NOT:   cute.
