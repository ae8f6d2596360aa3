// A pipeline that does not end in IR the CuTe target can print: an op with
// no CuTe form, here an unsigned division by a divisor that may be 0 (exit
// status 1, one line naming the function and the op, no output file). The
// remark says why the function did not pack.

// RUN: sh -c 'mask-opt %s -t cute -o %t.py; echo "exit $?"' 2>&1 | filecheck %s
// RUN: not test -e %t.py
// RUN: sh -c 'mask-opt %s -p pack-mask -t cute -o %t.py; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=PACK
// RUN: not test -e %t.py

mask.func @unsigned_div {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %x = arith.divui %q, %kv : i32
  %c = arith.constant 3 : i32
  %r = arith.cmpi sge, %x, %c : i32
  mask.yield %r : i1
}

// CHECK:      {{^}}mask-opt: error: -t cute: mask.func @unsigned_div: cannot print arith.divui by a divisor that may be 0 as CuTe code{{$}}
// CHECK-NEXT: {{^}}exit 1{{$}}

// PACK:      {{^}}{{.*}}unprintable.mlir:13:3: remark: mask.func @unsigned_div not packed: `arith.divui(q, kv + lane)` is not linear in kv_idx (arith.divui of a value that depends on kv_idx){{$}}
// PACK-NEXT: {{^}}      %x = arith.divui %q, %kv : i32{{$}}
// PACK-NEXT: {{^}}      ^{{$}}
// PACK-NEXT: {{^}}mask-opt: error: -t cute: mask.func @unsigned_div: cannot print arith.divui by a divisor that may be 0 as CuTe code{{$}}
// PACK-NEXT: {{^}}exit 1{{$}}
