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

// -----

mask.func @unbounded window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = "cute.clamped_sub"(%q, %kv) : (i32, i32) -> i32
  mask.yield %d : i32
}

// CHECK: cute.clamped_sub needs a lower or an upper bound

// -----

mask.func @empty_bounds window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d = cute.clamped_sub %q, %kv lo 5 hi 1 : i32
  mask.yield %d : i32
}

// CHECK: cute.clamped_sub bounds are empty: lo 5 > hi 1

// -----

mask.func @wide_one_sided window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi64>):
  %x = mask.load %t[%b] : tensor<4xi64>[i32] -> i64
  %d = cute.clamped_sub %x, %kv lo 0 : i64
  mask.yield %d : i32
}

// CHECK: cute.clamped_sub of an i64 lhs needs both bounds

// -----

mask.func @wrap_by_zero window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %t : tensor<4xi32>):
  %i = cute.wrap_index %q by 0 : i32
  %x = mask.load %t[%i] : tensor<4xi32>[i32] -> i32
  mask.yield %x : i32
}

// CHECK: cute.wrap_index needs a size > 0, not 0

// -----

// The wrapping ops are signed Int32/Int64 arithmetic: a ui32 word wraps by
// its type already (cute.add).
mask.func @wrap_of_word window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c = cute.constant 3 : ui32
  %a = cute.add_wrap %c, %c : ui32
  %s = cute.lanes %a
  %k = interval.keep_word %s : i32
  mask.yield %k : i32
}

// CHECK: Expected one of i32, i64, but got ui32
