// RUN: mask-opt %s --split-input-file | filecheck %s --check-prefix=ROUND
// RUN: mask-opt %s --split-input-file -p 'set-domain{q=32768 kv=32768}' | filecheck %s --check-prefix=SET
// RUN: mask-opt %s --split-input-file -p 'set-domain{q=32768 kv=32768},pack-mask' | filecheck %s
// RUN: mask-opt %s --split-input-file --domain 'q<32768,kv<32768' -p pack-mask | filecheck %s
// RUN: mask-opt %s --split-input-file -p pack-mask | filecheck %s --check-prefix=FULL
// RUN: not mask-opt %s --domain 'q<0' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not mask-opt %s -p 'set-domain{q=0}' 2>&1 | filecheck %s --check-prefix=BADPASS

// set-domain states the index domain as mask.func's `domain`; value ranges
// start from it. Bottom-right causal, `q + 768 >= kv`: with q < 2^15 the
// int32 sum cannot wrap, so its run ends at 32 - max(-737 - (q - kv), 0), the
// shift amount of the run q - kv + 769 (FA4's cheapest prefix form), with no
// guard against the wrap.

mask.func @bottom_right_causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c768 = arith.constant 768 : i32
  %s = arith.addi %q, %c768 : i32
  %ge = arith.cmpi sge, %s, %kv : i32
  mask.yield %ge : i1
}

// ROUND-LABEL: mask.func @bottom_right_causal {
// SET-LABEL:   mask.func @bottom_right_causal domain array<i64: 2147483648, 2147483648, 32768, 32768> {

// CHECK-LABEL: mask.func @bottom_right_causal window domain array<i64: 2147483648, 2147483648, 32768, 32768> {
// CHECK-NEXT:  ^bb0(%b: i32, %h: i32, %q: i32, %kv: i32):
// CHECK-NEXT:    %0 = arith.subi %q, %kv : i32
// CHECK-NEXT:    %1 = arith.constant -737 : i32
// CHECK-NEXT:    %2 = arith.subi %1, %0 : i32
// CHECK-NEXT:    %3 = arith.constant 0 : i32
// CHECK-NEXT:    %4 = arith.maxsi %2, %3 : i32
// CHECK-NEXT:    %5 = arith.constant 32 : i32
// CHECK-NEXT:    %6 = arith.subi %5, %4 : i32
// CHECK-NEXT:    %7 = interval.range %3, %6 : i32
// CHECK-NEXT:    %keep = interval.keep_word %7 : i32
// CHECK-NEXT:    mask.yield %keep : i32

// Without a domain the sum wraps for q >= 2^31 - 768: guarded in i64.
// FULL-LABEL: mask.func @bottom_right_causal window {
// FULL:         arith.extsi
// FULL:         arith.maxsi

// BAD: mask-opt: error: invalid --domain 'q<0': domain bound q < 0 must be an integer in [1, 2^31]
// BADPASS: q < 0 must be an integer in [1, 2^31]

// -----

// A stated domain round-trips, and a tighter one already stated is kept.
mask.func @bounded domain array<i64: 8, 16, 1024, 32768> {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// ROUND-LABEL: mask.func @bounded domain array<i64: 8, 16, 1024, 32768> {
// SET-LABEL:   mask.func @bounded domain array<i64: 8, 16, 1024, 32768> {
// CHECK-LABEL: mask.func @bounded window domain array<i64: 8, 16, 1024, 32768> {

