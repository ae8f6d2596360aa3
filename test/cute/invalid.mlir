// RUN: mask-opt %s --split-input-file --verify-diagnostics | filecheck %s

mask.func @mixed window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %u = cute.to_u32 %q : i32
  %bad = "cute.add"(%u, %q) : (ui32, i32) -> ui32
  %s = cute.lanes %bad
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK: attribute ui32 expected from variable 'T', but got i32

// -----

mask.func @signed_word window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %s = "cute.lanes"(%q) : (i32) -> !interval.set
  %w = interval.keep_word %s : i32
  mask.yield %w : i32
}

// CHECK: Expected attribute ui32 but got i32
