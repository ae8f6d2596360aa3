// RUN: mask-opt %s | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | mask-opt | filecheck %s
// RUN: mask-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Round-trips of every op of the `interval` dialect.

mask.func @sets window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %lo = arith.subi %q, %kv : i32
  %c32 = arith.constant 32 : i32
  %r = interval.range %lo, %c32 : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %r64 = interval.range %x, %x : i64
  %f = interval.full
  %e = interval.empty
  %u = interval.union %r, %r64, %e
  %u1 = interval.union %r
  %i = interval.intersect %u, %f
  %i1 = interval.intersect %r64
  %c = interval.complement %i
  %cond = arith.cmpi eq, %b, %h : i32
  %s = interval.select %cond, %c, %u1
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @sets window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T:.*]]: tensor<4xi64>):
// CHECK-NEXT:    %[[LO:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[C32]] : i32
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[T]][%[[B]]] : tensor<4xi64>[i32] -> i64
// CHECK-NEXT:    %[[R64:.*]] = interval.range %[[X]], %[[X]] : i64
// CHECK-NEXT:    %[[F:.*]] = interval.full
// CHECK-NEXT:    %[[E:.*]] = interval.empty
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R]], %[[R64]], %[[E]]
// CHECK-NEXT:    %[[U1:.*]] = interval.union %[[R]]
// CHECK-NEXT:    %[[I:.*]] = interval.intersect %[[U]], %[[F]]
// CHECK-NEXT:    %[[I1:.*]] = interval.intersect %[[R64]]
// CHECK-NEXT:    %[[C:.*]] = interval.complement %[[I]]
// CHECK-NEXT:    %[[COND:.*]] = arith.cmpi eq, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[S:.*]] = interval.select %[[COND]], %[[C]], %[[U1]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[S]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "sets", kv_window}> ({
// GENERIC-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T:.*]]: tensor<4xi64>):
// GENERIC-NEXT:    %[[LO:.*]] = "arith.subi"(%[[Q]], %[[KV]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    %[[C32:.*]] = "arith.constant"() <{value = 32 : i32}> : () -> i32
// GENERIC-NEXT:    %[[R:.*]] = "interval.range"(%[[LO]], %[[C32]]) : (i32, i32) -> !interval.set
// GENERIC-NEXT:    %[[X:.*]] = "mask.load"(%[[T]], %[[B]]) : (tensor<4xi64>, i32) -> i64
// GENERIC-NEXT:    %[[R64:.*]] = "interval.range"(%[[X]], %[[X]]) : (i64, i64) -> !interval.set
// GENERIC-NEXT:    %[[F:.*]] = "interval.full"() : () -> !interval.set
// GENERIC-NEXT:    %[[E:.*]] = "interval.empty"() : () -> !interval.set
// GENERIC-NEXT:    %[[U:.*]] = "interval.union"(%[[R]], %[[R64]], %[[E]]) : (!interval.set, !interval.set, !interval.set) -> !interval.set
// GENERIC-NEXT:    %[[U1:.*]] = "interval.union"(%[[R]]) : (!interval.set) -> !interval.set
// GENERIC-NEXT:    %[[I:.*]] = "interval.intersect"(%[[U]], %[[F]]) : (!interval.set, !interval.set) -> !interval.set
// GENERIC-NEXT:    %[[I1:.*]] = "interval.intersect"(%[[R64]]) : (!interval.set) -> !interval.set
// GENERIC-NEXT:    %[[C:.*]] = "interval.complement"(%[[I]]) : (!interval.set) -> !interval.set
// GENERIC-NEXT:    %[[COND:.*]] = "arith.cmpi"(%[[B]], %[[H]]) <{predicate = 0 : i64}> : (i32, i32) -> i1
// GENERIC-NEXT:    %[[S:.*]] = "interval.select"(%[[COND]], %[[C]], %[[U1]]) : (i1, !interval.set, !interval.set) -> !interval.set
// GENERIC-NEXT:    %[[W:.*]] = "interval.keep_word"(%[[S]]) : (!interval.set) -> i32
// GENERIC-NEXT:    "mask.yield"(%[[W]]) : (i32) -> ()
// GENERIC-NEXT:  }) : () -> ()

// interval.periodic: the lanes L with (L + phase) mod period in residues.
mask.func @periodic window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %even = interval.periodic %kv period 2 residues 1 : i32
  %q64 = arith.extsi %q : i32 to i64
  %third = interval.periodic %q64 period 3 residues 6 : i64
  %i = interval.intersect %even, %third
  %w = interval.keep_word %i : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @periodic window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[EVEN:.*]] = interval.periodic %[[KV]] period 2 residues 1 : i32
// CHECK-NEXT:    %[[Q64:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[THIRD:.*]] = interval.periodic %[[Q64]] period 3 residues 6 : i64
// CHECK-NEXT:    %[[I:.*]] = interval.intersect %[[EVEN]], %[[THIRD]]
// CHECK-NEXT:    %[[W:.*]] = interval.keep_word %[[I]] : i32
// CHECK-NEXT:    mask.yield %[[W]] : i32
// CHECK-NEXT:  }

// GENERIC-LABEL: "mask.func"() <{sym_name = "periodic", kv_window}> ({
// GENERIC:         %[[EVEN:.*]] = "interval.periodic"(%{{.*}}) <{period = 2 : i64, residues = 1 : i64}> : (i32) -> !interval.set
// GENERIC:         %[[THIRD:.*]] = "interval.periodic"(%{{.*}}) <{period = 3 : i64, residues = 6 : i64}> : (i64) -> !interval.set

// Lane bounds clip(sign * u + k, 0, 32) of an i32 and an i64 u, on each side.
mask.func @bounds window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %u = arith.subi %q, %kv : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %hi = interval.bound %u * 1 + 1 side "hi" : i32
  %lo = interval.bound %x * -1 + 31 side "lo" : i64
  %both = interval.bound %u * -1 + -5 side "both" : i32
  %r = interval.range %lo, %hi : i32
  %e = interval.range %both, %both : i32
  %s = interval.union %r, %e
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @bounds window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T:.*]]: tensor<4xi64>):
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[T]][%[[B]]] : tensor<4xi64>[i32] -> i64
// CHECK-NEXT:    %[[HI:.*]] = interval.bound %[[U]] * 1 + 1 side "hi" : i32
// CHECK-NEXT:    %[[LO:.*]] = interval.bound %[[X]] * -1 + 31 side "lo" : i64
// CHECK-NEXT:    %[[BOTH:.*]] = interval.bound %[[U]] * -1 + -5 side "both" : i32
// CHECK-NEXT:    %[[R:.*]] = interval.range %[[LO]], %[[HI]] : i32
// CHECK-NEXT:    %[[E:.*]] = interval.range %[[BOTH]], %[[BOTH]] : i32

// GENERIC-LABEL: "mask.func"() <{sym_name = "bounds", kv_window}> ({
// GENERIC:         %{{.*}} = "interval.bound"(%{{.*}}) <{sign = 1 : i64, k = 1 : i64, side = "hi"}> : (i32) -> i32
// GENERIC-NEXT:    %{{.*}} = "interval.bound"(%{{.*}}) <{sign = -1 : i64, k = 31 : i64, side = "lo"}> : (i64) -> i32
// GENERIC-NEXT:    %{{.*}} = "interval.bound"(%{{.*}}) <{sign = -1 : i64, k = -5 : i64, side = "both"}> : (i32) -> i32

// Fixed-width runs [a, a + W) at a = sign * u + k of an i32 and an i64 u.
mask.func @spans window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %u = arith.subi %q, %kv : i32
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %d = interval.span %u * 1 + 0 width 1 : i32
  %n = interval.span %x * -1 + 4294967296 width 32 : i64
  %s = interval.union %d, %n
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK-LABEL: mask.func @spans window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[T:.*]]: tensor<4xi64>):
// CHECK-NEXT:    %[[U:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[T]][%[[B]]] : tensor<4xi64>[i32] -> i64
// CHECK-NEXT:    %[[D:.*]] = interval.span %[[U]] * 1 + 0 width 1 : i32
// CHECK-NEXT:    %[[N:.*]] = interval.span %[[X]] * -1 + 4294967296 width 32 : i64
// CHECK-NEXT:    %[[S:.*]] = interval.union %[[D]], %[[N]]

// GENERIC-LABEL: "mask.func"() <{sym_name = "spans", kv_window}> ({
// GENERIC:         %{{.*}} = "interval.span"(%{{.*}}) <{sign = 1 : i64, k = 0 : i64, width = 1 : i64}> : (i32) -> !interval.set
// GENERIC-NEXT:    %{{.*}} = "interval.span"(%{{.*}}) <{sign = -1 : i64, k = 4294967296 : i64, width = 32 : i64}> : (i64) -> !interval.set

// Interval ops are not tied to a mask.func.
%lo = arith.constant 3 : i8
%hi = arith.constant 9 : i8
%lanes = interval.range %lo, %hi : i8
%all = interval.full
%word = interval.keep_word %all : i32

// CHECK:      %[[LO:.*]] = arith.constant 3 : i8
// CHECK-NEXT: %[[HI:.*]] = arith.constant 9 : i8
// CHECK-NEXT: %[[LANES:.*]] = interval.range %[[LO]], %[[HI]] : i8
// CHECK-NEXT: %[[ALL:.*]] = interval.full
// CHECK-NEXT: %[[WORD:.*]] = interval.keep_word %[[ALL]] : i32
// CHECK-NEXT: }

// GENERIC:      %[[LANES:.*]] = "interval.range"(%{{.*}}, %{{.*}}) : (i8, i8) -> !interval.set
// GENERIC-NEXT: %[[ALL:.*]] = "interval.full"() : () -> !interval.set
// GENERIC-NEXT: %[[WORD:.*]] = "interval.keep_word"(%[[ALL]]) : (!interval.set) -> i32
