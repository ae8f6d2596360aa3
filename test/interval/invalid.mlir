// RUN: mask-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the `interval` ops, one per chunk.

%u = "interval.union"() : () -> !interval.set

// CHECK:      {{^}}interval.union needs at least one set{{$}}
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   %u = "interval.union"() : () -> !interval.set
// CHECK-NEXT:   ^^^^^^^^^^^^^^^^^^^^^-
// CHECK-NEXT:   | Operation does not verify: interval.union needs at least one set

// -----

%i = "interval.intersect"() : () -> !interval.set

// CHECK:      {{^}}interval.intersect needs at least one set{{$}}

// -----

%a = arith.constant 0 : i32
%b = arith.constant 4 : i64
%r = "interval.range"(%a, %b) : (i32, i64) -> !interval.set

// CHECK:      {{^}}operand 'hi' at position 1 does not verify:{{$}}
// CHECK-NEXT: {{^}}attribute i32 expected from variable 'T', but got i64{{$}}

// -----

%a = arith.constant 1.0 : f32
%r = "interval.range"(%a, %a) : (f32, f32) -> !interval.set

// CHECK:      {{^}}operand 'lo' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}f32 should be of base attribute integer_type{{$}}

// -----

%a = arith.constant 0 : i32
%r = "interval.range"(%a, %a) : (i32, i32) -> i32

// CHECK:      {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i32 should be of base attribute interval.set{{$}}

// -----

%f = "interval.full"() : () -> i32

// CHECK:      {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i32 should be of base attribute interval.set{{$}}
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   %f = "interval.full"() : () -> i32

// -----

%e = "interval.empty"() : () -> i1

// CHECK:      {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i1 should be of base attribute interval.set{{$}}

// -----

%c = arith.constant 1 : i32
%u = "interval.union"(%c) : (i32) -> !interval.set

// CHECK:      {{^}}operand 'sets' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i32 should be of base attribute interval.set{{$}}

// -----

%c = arith.constant 1 : i32
%n = "interval.complement"(%c) : (i32) -> !interval.set

// CHECK:      {{^}}operand 'set' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}i32 should be of base attribute interval.set{{$}}

// -----

%c = arith.constant 1 : i32
%f = interval.full
%s = "interval.select"(%c, %f, %f) : (i32, !interval.set, !interval.set) -> !interval.set

// CHECK:      {{^}}operand 'cond' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}Expected attribute i1 but got i32{{$}}

// -----

%f = interval.full
%w = "interval.keep_word"(%f) : (!interval.set) -> i64

// CHECK:      {{^}}result 'result' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}Expected attribute i32 but got i64{{$}}
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT:   %f = "interval.full"() : () -> !interval.set
// CHECK-NEXT:   %w = "interval.keep_word"(%f) : (!interval.set) -> i64
// CHECK-NEXT:   ^^^^^^^^^^^^^^^^^^^^^^^^^-

// -----

// The custom form checks the keep word type while parsing.
%f = interval.full
%w = interval.keep_word %f : i64

// CHECK: {{^}}Expected attribute i32 but got i64{{$}}

// -----

%p = arith.constant 0 : i32
%s = interval.periodic %p period 33 residues 1 : i32

// CHECK: {{^}}interval.periodic period must be in [1, 32], got 33{{$}}

// -----

%p = arith.constant 0 : i32
%s = interval.periodic %p period 3 residues 8 : i32

// CHECK: {{^}}interval.periodic residues 0x8 must be a mask of the 3 residues of period 3{{$}}

// -----

%u = arith.constant 0 : i32
%b = interval.bound %u * 2 + 0 side "lo" : i32

// CHECK: {{^}}interval.bound sign must be 1 or -1, got 2{{$}}

// -----

%u = arith.constant 0 : i32
%b = "interval.bound"(%u) <{sign = 1 : i64, k = 0 : i64, side = "mid"}> : (i32) -> i32

// CHECK: {{^}}Expected one of "both", "hi", "lo", but got "mid"{{$}}

// -----

%u = arith.constant 0 : i16
%b = "interval.bound"(%u) <{sign = 1 : i64, k = 0 : i64, side = "lo"}> : (i16) -> i32

// CHECK: {{^}}operand 'u' at position 0 does not verify:{{$}}
// CHECK-NEXT: {{^}}Expected one of i32, i64, but got i16{{$}}

// -----

%u = arith.constant 0 : i32
%s = interval.span %u * -2 + 0 width 1 : i32

// CHECK: {{^}}interval.span sign must be 1 or -1, got -2{{$}}

// -----

%u = arith.constant 0 : i32
%s = interval.span %u * 1 + 0 width 0 : i32

// CHECK: {{^}}interval.span width must be in [1, 32], got 0{{$}}

// -----

%u = arith.constant 0 : i32
%s = interval.span %u * 1 + 0 width 33 : i32

// CHECK: {{^}}interval.span width must be in [1, 32], got 33{{$}}
