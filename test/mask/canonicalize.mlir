// RUN: mask-opt %s -p canonicalize | filecheck %s

// Canonicalization of `mask.floormod` and the i1 identities maskopt
// attaches to arith.andi / arith.ori / arith.xori.

// floormod has the divisor's sign: -7 mod 3 = 2, 7 mod -3 = -2.
mask.func @floormod_fold window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm7 = arith.constant -7 : i32
  %c3 = arith.constant 3 : i32
  %m = mask.floormod %cm7, %c3 : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_fold window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[M:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

mask.func @floormod_fold_negative_divisor window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c7 = arith.constant 7 : i32
  %cm3 = arith.constant -3 : i32
  %m = mask.floormod %c7, %cm3 : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_fold_negative_divisor window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[M:.*]] = arith.constant -2 : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

// A zero divisor is left alone.
mask.func @floormod_by_zero window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %m = mask.floormod %c7, %c0 : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_by_zero window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[M:.*]] = mask.floormod %[[C7]], %[[C0]] : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

mask.func @floormod_by_one window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c1 = arith.constant 1 : i32
  %m = mask.floormod %q, %c1 : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_by_one window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[M:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

mask.func @floormod_by_minus_one window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm1 = arith.constant -1 : i32
  %m = mask.floormod %q, %cm1 : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_by_minus_one window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[M:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

// A non-constant divisor stays.
mask.func @floormod_kept window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %m = mask.floormod %q, %h : i32
  mask.yield %m : i32
}

// CHECK-LABEL: mask.func @floormod_kept window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[M:.*]] = mask.floormod %[[Q]], %[[H]] : i32
// CHECK-NEXT:    mask.yield %[[M]] : i32
// CHECK-NEXT:  }

// i1 identities ------------------------------------------------------------

mask.func @andi_true {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %t = arith.constant true
  %r = arith.andi %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @andi_true {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

mask.func @andi_true_lhs {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %t = arith.constant true
  %r = arith.andi %t, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @andi_true_lhs {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

mask.func @andi_false {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %f = arith.constant false
  %r = arith.andi %x, %f : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @andi_false {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.constant false
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

mask.func @andi_self {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %r = arith.andi %x, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @andi_self {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

mask.func @ori_false {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %f = arith.constant false
  %r = arith.ori %f, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @ori_false {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

mask.func @ori_true {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %t = arith.constant true
  %r = arith.ori %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @ori_true {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.constant true
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

mask.func @ori_self {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %r = arith.ori %x, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @ori_self {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

mask.func @xori_false {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q, %kv : i32
  %f = arith.constant false
  %r = arith.xori %x, %f : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @xori_false {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

// Double negation of a value that is not a comparison.
mask.func @double_negation {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %flags : tensor<4xi1>):
  %x = mask.load %flags[%h] : tensor<4xi1>[i32] -> i1
  %t = arith.constant true
  %n = arith.xori %x, %t : i1
  %r = arith.xori %n, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @double_negation {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[FLAGS:.*]]: tensor<4xi1>):
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[FLAGS]][%[[H]]] : tensor<4xi1>[i32] -> i1
// CHECK-NEXT:    mask.yield %[[X]] : i1
// CHECK-NEXT:  }

// A single negation of a non-comparison stays.
mask.func @negation_kept {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %flags : tensor<4xi1>):
  %x = mask.load %flags[%h] : tensor<4xi1>[i32] -> i1
  %t = arith.constant true
  %n = arith.xori %x, %t : i1
  mask.yield %n : i1
}

// CHECK-LABEL: mask.func @negation_kept {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[FLAGS:.*]]: tensor<4xi1>):
// CHECK-NEXT:    %[[X:.*]] = mask.load %[[FLAGS]][%[[H]]] : tensor<4xi1>[i32] -> i1
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[N:.*]] = arith.xori %[[X]], %[[T]] : i1
// CHECK-NEXT:    mask.yield %[[N]] : i1
// CHECK-NEXT:  }

// Negated comparisons invert their predicate (true on either side).
mask.func @not_slt {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi slt, %q, %kv : i32
  %t = arith.constant true
  %r = arith.xori %t, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_slt {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

mask.func @not_eq {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi eq, %b, %kv : i32
  %t = arith.constant true
  %r = arith.xori %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_eq {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi ne, %[[B]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

mask.func @not_sgt {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sgt, %kv, %q : i32
  %t = arith.constant true
  %r = arith.xori %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_sgt {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi sle, %[[KV]], %[[Q]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

mask.func @not_ult {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi ult, %q, %kv : i32
  %t = arith.constant true
  %r = arith.xori %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_ult {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi uge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// A comparison with another use keeps its negation.
mask.func @not_cmpi_shared {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi eq, %q, %kv : i32
  %y = arith.cmpi sgt, %b, %h : i32
  %t = arith.constant true
  %n = arith.xori %x, %t : i1
  %a = arith.andi %n, %y : i1
  %r = arith.ori %a, %x : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @not_cmpi_shared {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi eq, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.cmpi sgt, %[[B]], %[[H]] : i32
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[N:.*]] = arith.xori %[[X]], %[[T]] : i1
// CHECK-NEXT:    %[[A:.*]] = arith.andi %[[N]], %[[Y]] : i1
// CHECK-NEXT:    %[[R:.*]] = arith.ori %[[A]], %[[X]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// The identities compose: (x & true) | (false ^ (y ^ true) ^ true) -> x | y.
mask.func @composed {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %flags : tensor<4xi1>):
  %x = arith.cmpi sge, %q, %kv : i32
  %y = mask.load %flags[%b] : tensor<4xi1>[i32] -> i1
  %t = arith.constant true
  %f = arith.constant false
  %a = arith.andi %x, %t : i1
  %ny = arith.xori %y, %t : i1
  %nny = arith.xori %ny, %t : i1
  %z = arith.xori %f, %nny : i1
  %r = arith.ori %a, %z : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @composed {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[FLAGS:.*]]: tensor<4xi1>):
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[Y:.*]] = mask.load %[[FLAGS]][%[[B]]] : tensor<4xi1>[i32] -> i1
// CHECK-NEXT:    %[[R:.*]] = arith.ori %[[X]], %[[Y]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// Integer folds with torch's semantics: `//` floors (and wraps at MIN // -1),
// `fmod` (arith.remsi) truncates, `>>` is arithmetic, `<<` drops high bits.
mask.func @int_folds window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %cm1 = arith.constant -1 : i32
  %min = arith.constant -2147483648 : i32
  %c3 = arith.constant 3 : i32
  %fd = arith.floordivsi %cm7, %c2 : i32
  %wrap = arith.floordivsi %min, %cm1 : i32
  %fmod = arith.remsi %cm7, %c2 : i32
  %shr = arith.shrsi %cm7, %c2 : i32
  %shl = arith.shli %min, %c3 : i32
  %a = arith.addi %fd, %wrap : i32
  %s = arith.addi %fmod, %shr : i32
  %t = arith.addi %shl, %s : i32
  %r = arith.addi %a, %t : i32
  mask.yield %r : i32
}

// -4 + MIN = 2147483644; -1 + -2 + 0 = -3; 2147483644 - 3 = 2147483641.
// CHECK-LABEL: mask.func @int_folds window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[R:.*]] = arith.constant 2147483641 : i32
// CHECK-NEXT:    mask.yield %[[R]] : i32
// CHECK-NEXT:  }

// `x fmod +-1` is 0 (MIN % -1 is UB in LLVM), `x // -1` is `0 - x`; division
// by zero and shifts by >= the width are left alone.
mask.func @int_identities window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %cm1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %c32 = arith.constant 32 : i32
  %rem = arith.remsi %q, %cm1 : i32
  %neg = arith.floordivsi %q, %cm1 : i32
  %byzero = arith.floordivsi %c7, %c0 : i32
  %wide = arith.shli %c7, %c32 : i32
  %a = arith.addi %rem, %neg : i32
  %z = arith.addi %byzero, %wide : i32
  %r = arith.addi %a, %z : i32
  mask.yield %r : i32
}

// CHECK-LABEL: mask.func @int_identities window {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %[[Q:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[NEG:.*]] = arith.subi %[[Z]], %[[Q]] : i32
// CHECK-NEXT:    %[[BYZERO:.*]] = arith.floordivsi %[[C7]], %[[C0]] : i32
// CHECK-NEXT:    %[[WIDE:.*]] = arith.shli %[[C7]], %[[C32]] : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[BYZERO]], %[[WIDE]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[NEG]], %[[S]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i32
// CHECK-NEXT:  }

// Dead sign and zero extensions are erased (maskopt marks them Pure).
mask.func @dead_ext {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %q64 = arith.extsi %q : i32 to i64
  %kv64 = arith.extui %kv : i32 to i64
  %p = arith.cmpi sge, %q, %kv : i32
  mask.yield %p : i1
}

// CHECK-LABEL: mask.func @dead_ext {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[P]] : i1
// CHECK-NEXT:  }

// An i1 select with one constant arm is an and/or (MLIR's arith
// canonicalizer does the same): select(c, true, b) = c | b,
// select(c, a, false) = c & a, select(c, false, b) = ~c & b,
// select(c, a, true) = ~c | a.
mask.func @select_i1_constant_arm {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %flags : tensor<4xi1>):
  %true = arith.constant true
  %false = arith.constant false
  %c = mask.load %flags[%h] : tensor<4xi1>[i32] -> i1
  %x = arith.cmpi sge, %q, %kv : i32
  %or = arith.select %c, %true, %x : i1
  %and = arith.select %c, %x, %false : i1
  %andnot = arith.select %c, %false, %x : i1
  %ornot = arith.select %c, %x, %true : i1
  %r0 = arith.xori %or, %and : i1
  %r1 = arith.xori %andnot, %ornot : i1
  %r = arith.xori %r0, %r1 : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @select_i1_constant_arm {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[FLAGS:.*]]: tensor<4xi1>):
// CHECK-NEXT:    %[[C:.*]] = mask.load %[[FLAGS]][%[[H]]] : tensor<4xi1>[i32] -> i1
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[OR:.*]] = arith.ori %[[C]], %[[X]] : i1
// CHECK-NEXT:    %[[AND:.*]] = arith.andi %[[C]], %[[X]] : i1
// CHECK-NEXT:    %[[T0:.*]] = arith.constant true
// CHECK-NEXT:    %[[N0:.*]] = arith.xori %[[C]], %[[T0]] : i1
// CHECK-NEXT:    %[[ANDNOT:.*]] = arith.andi %[[N0]], %[[X]] : i1
// CHECK-NEXT:    %[[T1:.*]] = arith.constant true
// CHECK-NEXT:    %[[N1:.*]] = arith.xori %[[C]], %[[T1]] : i1
// CHECK-NEXT:    %[[ORNOT:.*]] = arith.ori %[[N1]], %[[X]] : i1
// CHECK-NEXT:    %[[R0:.*]] = arith.xori %[[OR]], %[[AND]] : i1
// CHECK-NEXT:    %[[R1:.*]] = arith.xori %[[ANDNOT]], %[[ORNOT]] : i1
// CHECK-NEXT:    %[[R:.*]] = arith.xori %[[R0]], %[[R1]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// torch.where(kv < 4, True, q >= kv): the global-tokens mask (kv < 4) | (q >= kv);
// torch.where(h < 4, q >= kv, True): the negated condition becomes h >= 4.
mask.func @select_i1_where {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %true = arith.constant true
  %c4 = arith.constant 4 : i32
  %sink = arith.cmpi slt, %kv, %c4 : i32
  %causal = arith.cmpi sge, %q, %kv : i32
  %global = arith.select %sink, %true, %causal : i1
  %low = arith.cmpi slt, %h, %c4 : i32
  %heads = arith.select %low, %causal, %true : i1
  %r = arith.andi %global, %heads : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @select_i1_where {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[SINK:.*]] = arith.cmpi slt, %[[KV]], %[[C4]] : i32
// CHECK-NEXT:    %[[CAUSAL:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[GLOBAL:.*]] = arith.ori %[[SINK]], %[[CAUSAL]] : i1
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi sge, %[[H]], %[[C4]] : i32
// CHECK-NEXT:    %[[HEADS:.*]] = arith.ori %[[HIGH]], %[[CAUSAL]] : i1
// CHECK-NEXT:    %[[R:.*]] = arith.andi %[[GLOBAL]], %[[HEADS]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// A select of two non-constant i1 values stays one op (fold-intervals folds
// it as (c & a) | (~c & b)); two constant arms and integer selects are xDSL's.
mask.func @select_i1_kept {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %true = arith.constant true
  %false = arith.constant false
  %c1 = arith.constant 1 : i32
  %c = arith.cmpi slt, %kv, %h : i32
  %x = arith.cmpi sge, %q, %kv : i32
  %y = arith.cmpi eq, %q, %kv : i32
  %sel = arith.select %c, %x, %y : i1
  %same = arith.select %c, %true, %false : i1
  %n = arith.select %c, %c1, %q : i32
  %z = arith.cmpi sgt, %n, %b : i32
  %r0 = arith.andi %sel, %same : i1
  %r = arith.andi %r0, %z : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @select_i1_kept {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[KV]], %[[H]] : i32
// CHECK-NEXT:    %[[X:.*]] = arith.cmpi sge, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.cmpi eq, %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : i1
// CHECK-NEXT:    %[[N:.*]] = arith.select %[[C]], %[[C1]], %[[Q]] : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.cmpi sgt, %[[N]], %[[B]] : i32
// CHECK-NEXT:    %[[R0:.*]] = arith.andi %[[SEL]], %[[C]] : i1
// CHECK-NEXT:    %[[R:.*]] = arith.andi %[[R0]], %[[Z]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// `x - x` is 0 (MLIR's fold, missing from xDSL 0.75): left to LLVM, it made
// the CuTe target print `(q - q) - kv`, which LLVM turns into a bare `0 - kv`
// feeding a chained max (the ptxas negation miscompile, on an H200).
mask.func @sub_self {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %s = arith.subi %q, %q : i32
  %d = arith.subi %s, %kv : i32
  %r = arith.cmpi sge, %d, %h : i32
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @sub_self {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Z]], %[[KV]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi sge, %[[D]], %[[H]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// min/max of two constants fold (signed and unsigned), and of a value with
// itself: `clamp(kv, min=0, max=0) < 0` left `minsi 0, 0` in front of a
// comparison that the drop-in printed as a Python-constant select_ condition.
mask.func @min_max_fold {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %z = arith.constant 0 : i32
  %m1 = arith.constant -1 : i32
  %a = arith.minsi %z, %z : i32
  %c = arith.maxsi %m1, %z : i32
  %u = arith.maxui %m1, %z : i32
  %s = arith.minsi %q, %q : i32
  %t = arith.maxsi %s, %a : i32
  %x = arith.addi %t, %c : i32
  %y = arith.addi %x, %u : i32
  %r = arith.cmpi sge, %y, %kv : i32
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @min_max_fold {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[T:.*]] = arith.maxsi %[[Q]], %[[Z]] : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[T]], %[[M1]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.cmpi sge, %[[Y]], %[[KV]] : i32
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// A comparison of a sign- or zero-extended constant with a constant folds
// (`(kv - kv).to(torch.int64) == 0`; the extension is left to DCE).
mask.func @cmpi_of_extended_constants {
^bb0(%b: i32, %h: i32, %q: i32, %kv: i32):
  %z = arith.constant 0 : i32
  %m = arith.constant -1 : i32
  %e = arith.extsi %z : i32 to i64
  %u = arith.extui %m : i32 to i64
  %z64 = arith.constant 0 : i64
  %x = arith.cmpi eq, %e, %z64 : i64
  %y = arith.cmpi sgt, %u, %z64 : i64
  %r = arith.andi %x, %y : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @cmpi_of_extended_constants {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    mask.yield %[[T]] : i1
// CHECK-NEXT:  }

// A min/max (and a division, a shift) of an extended constant folds too:
// `min((q - q).to(torch.int64), 0) == -277` is false before it reaches a
// select that the drop-in would print with a Python-constant condition
// (fuzz seed 84, mask 1840).
mask.func @min_of_extended_constant {
^bb0(%b: i32, %h: i32, %q: i32, %kv: i32):
  %z = arith.constant 0 : i32
  %e = arith.extsi %z : i32 to i64
  %z64 = arith.constant 0 : i64
  %m = arith.minsi %e, %z64 : i64
  %c = arith.constant -277 : i64
  %x = arith.cmpi eq, %m, %c : i64
  mask.yield %x : i1
}

// CHECK-LABEL: mask.func @min_of_extended_constant {
// CHECK-NEXT:  ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    %[[F:.*]] = arith.constant false
// CHECK-NEXT:    mask.yield %[[F]] : i1
// CHECK-NEXT:  }
