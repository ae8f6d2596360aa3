// RUN: not mask-opt %s 2>&1 | filecheck %s

// An op of no registered dialect.

mask.func @f {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = mask.bogus %q : i32
  mask.yield %x : i1
}

// CHECK:     {{^}}mask-opt: error: {{.*}}unregistered.mlir:7:19: Operation mask.bogus is not registered{{$}}
// CHECK-NOT: Traceback
