// RUN: sh -c 'mask-opt %s; echo "exit $?"' 2>&1 | filecheck %s
// RUN: rm -f %t.out
// RUN: not mask-opt %s -o %t.out
// RUN: not test -e %t.out

// Malformed IR: one line, `mask-opt: error: FILE:LINE:COL: message`, exit
// status 1, and -o is not written.

mask.func @f {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.cmpi sge, %q : i32
  mask.yield %x : i1
}

// CHECK:      {{^}}mask-opt: error: {{.*}}malformed.mlir:11:27: Expected ','{{$}}
// CHECK-NEXT: {{^}}exit 1{{$}}
// CHECK-NOT: Traceback
