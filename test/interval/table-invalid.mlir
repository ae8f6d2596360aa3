// RUN: mask-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of `interval.table`.

%a = arith.constant 0 : i32
%s = "interval.table"(%a, %a) <{table = array<i64: 0, 1, 2>}> : (i32, i32) -> !interval.set

// CHECK: {{^}}interval.table table must have 32 entries, got 3{{$}}

// -----

%a = arith.constant 0 : i32
%s = "interval.table"(%a, %a) <{table = array<i32: 0>}> : (i32, i32) -> !interval.set

// CHECK: {{^}}Expected attribute i64 but got i32{{$}}
