// RUN: mask-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the `mask` ops, one per chunk. xDSL prints the message
// on its own line, then the module with the failing op underlined.
// (mask-opt prints the chunk separators after all the diagnostics.)

mask.func @few {
^bb0(%b : i32, %h : i32, %q : i32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}mask.func @few needs the index arguments b, h, q_idx, kv_idx : i32, got 3 argument(s){{$}}
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   "mask.func"() <{sym_name = "few"}> ({
// CHECK-NEXT:   ^^^^^^^^^^^-
// CHECK-NEXT:   | Operation does not verify: mask.func @few needs the index arguments b, h, q_idx, kv_idx : i32, got 3 argument(s)

// -----

mask.func @i64_index {
^bb0(%b : i32, %h : i32, %q : i64, %kv : i32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @i64_index: index argument q_idx must be i32, got i64{{$}}

// -----

mask.func @i16_kv {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i16):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @i16_kv: index argument kv_idx must be i32, got i16{{$}}

// -----

mask.func @tensor_after_scalar {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : i32, %t1 : tensor<8xi32>):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @tensor_after_scalar: aux tensor argument #5 follows an aux scalar; tensors come first{{$}}

// -----

mask.func @float_aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xf32>):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @float_aux: aux tensor argument #4 must have a signless or unsigned (ui8, ui16, ui32, ui64) integer element type and a static shape, got tensor<8xf32>{{$}}

// -----

mask.func @dynamic_aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t0 : tensor<2xi32>, %t1 : tensor<?xi32>):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @dynamic_aux: aux tensor argument #5 must have a signless or unsigned (ui8, ui16, ui32, ui64) integer element type and a static shape, got tensor<?xi32>{{$}}

// -----

mask.func @signed_aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xsi8>):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @signed_aux: aux tensor argument #4 must have a signless or unsigned (ui8, ui16, ui32, ui64) integer element type and a static shape, got tensor<8xsi8>{{$}}

// -----

mask.func @unsigned_bool_aux {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xui1>):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @unsigned_bool_aux: aux tensor argument #4 must have a signless or unsigned (ui8, ui16, ui32, ui64) integer element type and a static shape, got tensor<8xui1>{{$}}

// -----

mask.func @float_scalar {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : f32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @float_scalar: aux argument #4 must be a tensor or a signless or unsigned (ui8, ui16, ui32, ui64) integer, got f32{{$}}

// -----

mask.func @signed_scalar {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %s : si32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.func @signed_scalar: aux argument #4 must be a tensor or a signless or unsigned (ui8, ui16, ui32, ui64) integer, got si32{{$}}

// -----

mask.func @word_without_window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %w = arith.constant -1 : i32
  mask.yield %w : i32
}

// CHECK: {{^}}mask.func @word_without_window yields a keep word (i32) but is not windowed; only a `window` function yields keep words{{$}}

// -----

mask.func @yield_i64 window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %w = arith.constant -1 : i64
  mask.yield %w : i64
}

// CHECK: {{^}}Expected one of i1, i32, but got i64{{$}}

// -----

mask.func @empty_body {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
}

// CHECK: {{^}}Operation mask.func contains empty block in single-block region that expects at least a terminator{{$}}

// -----

mask.func @two_blocks {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  mask.yield %t : i1
^bb1:
  %t2 = arith.constant true
  mask.yield %t2 : i1
}

// CHECK: {{^}}Region 'body' at position 0 expected a single block, but got 2 blocks{{$}}

// -----

"mask.func"() <{sym_name = "outer"}> ({
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  "mask.yield"(%t) : (i1) -> ()
}) : () -> ()
%t = arith.constant true
"mask.yield"(%t) : (i1) -> ()

// CHECK:      {{^}}'mask.yield' expects parent op 'mask.func'{{$}}
// CHECK:        }) : () -> ()
// CHECK-NEXT:   %t = "arith.constant"() <{value = true}> : () -> i1
// CHECK-NEXT:   "mask.yield"(%t) : (i1) -> ()
// CHECK-NEXT:   ^^^^^^^^^^^^-
// CHECK-NEXT:   | Operation does not verify: 'mask.yield' expects parent op 'mask.func'

// -----

mask.func @load_rank {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<4x8xi32>):
  %x = mask.load %t1[%q] : tensor<4x8xi32>[i32] -> i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}mask.load of a rank-2 tensor takes 2 indices, got 1{{$}}
// CHECK:          %x = "mask.load"(%t1, %q) : (tensor<4x8xi32>, i32) -> i32
// CHECK-NEXT:     ^^^^^^^^^^^^^^^^-
// CHECK-NEXT:     | Operation does not verify: mask.load of a rank-2 tensor takes 2 indices, got 1

// -----

mask.func @load_too_many {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xi32>):
  %x = mask.load %t1[%q, %kv] : tensor<8xi32>[i32, i32] -> i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.load of a rank-1 tensor takes 1 indices, got 2{{$}}

// -----

mask.func @load_result_type {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xi32>):
  %x = mask.load %t1[%q] : tensor<8xi32>[i32] -> i64
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.load result type i64 must be the element type i32 of the tensor{{$}}

// -----

// An unsigned tensor loads its element's bits as a signless integer: not ui8,
// not the zero-extended value.
mask.func @load_unsigned_result_type {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xui8>):
  %x = mask.load %t1[%q] : tensor<8xui8>[i32] -> ui8
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.load result type ui8 must be i8, the bits of the tensor's unsigned element type ui8{{$}}

// -----

mask.func @load_unsigned_widened {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t1 : tensor<8xui16>):
  %x = mask.load %t1[%q] : tensor<8xui16>[i32] -> i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK: {{^}}mask.load result type i32 must be i16, the bits of the tensor's unsigned element type ui16{{$}}

// -----

mask.func @load_not_tensor {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = "mask.load"(%q, %q) : (i32, i32) -> i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}operand 'tensor' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i32 should be of base attribute tensor{{$}}

// -----

mask.func @floormod_types {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.constant 3 : i64
  %m = "mask.floormod"(%q, %c) : (i32, i64) -> i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}operand 'rhs' at position 1 does not verify:{{$}}
// CHECK-NEXT: {{^}}attribute i32 expected from variable 'T', but got i64{{$}}
// CHECK:          %m = "mask.floormod"(%q, %c) : (i32, i64) -> i32
// CHECK-NEXT:     ^^^^^^^^^^^^^^^^^^^^-

// -----

mask.func @lane_cmp_coeff_zero window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 0 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK:      {{^}}mask.lane_cmp coefficient must be non-zero; a comparison without the lane is an arith.cmpi{{$}}
// CHECK:          %p = "mask.lane_cmp"(%q) <{predicate = "slt", coeff = 0 : i64, offset = 0 : i64}> : (i32) -> i1
// CHECK-NEXT:     ^^^^^^^^^^^^^^^^^^^^-

// -----

mask.func @lane_cmp_unsigned window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "ult", 1 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK: {{^}}mask.lane_cmp predicate 'ult' is not one of eq, ne, slt, sle, sgt, sge{{$}}

// -----

mask.func @lane_cmp_bad_name window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = "mask.lane_cmp"(%q) <{predicate = "lt", coeff = 1 : i64, offset = 0 : i64}> : (i32) -> i1
  mask.yield %p : i1
}

// CHECK: {{^}}mask.lane_cmp predicate 'lt' is not one of eq, ne, slt, sle, sgt, sge{{$}}

// -----

mask.func @lane_cmp_float window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = arith.constant 1.0 : f32
  %p = "mask.lane_cmp"(%c) <{predicate = "eq", coeff = 1 : i64, offset = 0 : i64}> : (f32) -> i1
  mask.yield %p : i1
}

// CHECK:      {{^}}operand 'u' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}f32 should be of base attribute integer_type{{$}}

// -----

mask.func @lane_not_windowed {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %l = mask.lane : i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}mask.lane in mask.func @lane_not_windowed, which is not windowed (add `window`){{$}}
// CHECK:          %l = "mask.lane"() : () -> i32
// CHECK-NEXT:     ^^^^^^^^^^^^^^^^-

// -----

mask.func @lane_cmp_not_windowed {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %p = mask.lane_cmp "slt", 1 * lane + %q + 0 : i32
  mask.yield %p : i1
}

// CHECK:      {{^}}mask.lane_cmp in mask.func @lane_cmp_not_windowed, which is not windowed (add `window`){{$}}
// CHECK:          %p = "mask.lane_cmp"(%q) <{predicate = "slt", coeff = 1 : i64, offset = 0 : i64}> : (i32) -> i1

// -----

mask.func @lane_i64 window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %l = "mask.lane"() : () -> i64
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}Expected attribute i32 but got i64{{$}}

// -----

// A chunk that verifies prints its module (in order with the diagnostics).
mask.func @fine window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %l = mask.lane : i32
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:      builtin.module {
// CHECK-NEXT:   mask.func @fine window {
