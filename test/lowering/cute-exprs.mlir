// RUN: mask-opt %s --split-input-file -t cute-exprs | filecheck %s
// RUN: mask-opt %s --split-input-file -t cute | filecheck %s --check-prefix=MODULE

// `-t cute-exprs` prints the self-contained keep-mask expressions that the
// inductor drop-in hands torch's FLASH template, one per run, or why a
// function has none.

// A causal upper bound: one shift, no names.
mask.func @causal window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c31 = arith.constant 31 : i32
  %c0 = arith.constant 0 : i32
  %d = arith.subi %q, %kv : i32
  %a = arith.subi %c31, %d : i32
  %amount = arith.maxsi %a, %c0 : i32
  %c32 = arith.constant 32 : i32
  %hi = arith.subi %c32, %amount : i32
  %run = interval.range %c0, %hi : i32
  %keep = interval.keep_word %run : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: # mask.func @causal: 1 self-contained keep-mask expressions, ORed
// CHECK-NEXT:  utils.shr_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(min(max((cutlass.Int32(31) - (q_idx[0] - kv_idx[0])), cutlass.Int32(0)), cutlass.Int32(32))))

// -----

// A select of runs on a lane-uniform condition: the module names a
// conditional expression, a self-contained expression calls cutlass.select_
// (the DSL's rewrite of a conditional expression nested in the FLASH
// template's `mask_mod_packed[0] | (...)` crashed its compiler).
mask.func @head_select window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %lo = arith.subi %q, %kv : i32
  %run = interval.range %lo, %c32 : i32
  %f = interval.full
  %c3 = arith.constant 3 : i32
  %cond = arith.cmpi eq, %h, %c3 : i32
  %s = interval.select %cond, %run, %f
  %keep = interval.keep_word %s : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: # mask.func @head_select: 1 self-contained keep-mask expressions, ORed
// CHECK-NEXT:  cutlass.Uint32(cutlass.select_((h_idx[0] == cutlass.Int32(3)), utils.shl_u32(cutlass.Uint32(0xFFFFFFFF), cutlass.Uint32(max((q_idx[0] - kv_idx[0]), cutlass.Int32(0)))), cutlass.Uint32(0xFFFFFFFF)))
// MODULE-LABEL: """maskopt: mask.func @head_select, packed keep word."""
// MODULE:       cond = (h == cutlass.Int32(3))
// MODULE:       s = (run if cond else f)

// -----

// fold-intervals' bound of `(511 - kv) > t[q % 7]`: the i64
// clamp(0 - kv - t, -511, -479) + 511. Its narrowed Int32 form used to print
// `(cutlass.Int32(0) - kv_idx[0])` inside a nested min/max, the shape ptxas
// miscompiles (PTXAS_NEGATION): wrong keep words on an H200 through the
// drop-in. The module negates with the neg_i64 helper, and the expression
// writes the same helper's inline-asm call in place (it cannot define it).
mask.func @negated_clamped_difference window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<16xi32>):
  %c7 = arith.constant 7 : i32
  %i = mask.floormod %q, %c7 : i32
  %x = mask.load %t[%i] : tensor<16xi32>[i32] -> i32
  %kv64 = arith.extsi %kv : i32 to i64
  %x64 = arith.extsi %x : i32 to i64
  %z = arith.constant 0 : i64
  %nkv = arith.subi %z, %kv64 : i64
  %d = arith.subi %nkv, %x64 : i64
  %k1 = arith.constant -511 : i64
  %lo = arith.maxsi %d, %k1 : i64
  %k2 = arith.constant -479 : i64
  %c = arith.minsi %lo, %k2 : i64
  %c32 = arith.trunci %c : i64 to i32
  %c511 = arith.constant 511 : i32
  %hi = arith.addi %c32, %c511 : i32
  %c0 = arith.constant 0 : i32
  %run = interval.range %c0, %hi : i32
  %keep = interval.keep_word %run : i32
  mask.yield %keep : i32
}

// CHECK-LABEL: # mask.func @negated_clamped_difference: 1 self-contained keep-mask expressions, ORed
// CHECK-NOT:    cutlass.Int{{32|64}}(0) -
// CHECK-NEXT:   cutlass.Uint32(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i32(), {{.*}}cutlass.Int64(cutlass._mlir.dialects.llvm.inline_asm(cutlass.cutlass_dsl.T.i64(), [cutlass.Int64(cutlass.Int64(kv_idx[0])).ir_value()], "{ .reg .b64 t; not.b64 t, $1; add.s64 $0, t, 1; }", "=l,l"
// CHECK-SAME:   "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r"
// MODULE-LABEL: def neg_i64(
// MODULE-NOT:   cutlass.Int{{32|64}}(0) -
// MODULE:       neg_i64(
// MODULE-NOT:   cutlass.Int{{32|64}}(0) -
// MODULE:       return packed.load()
