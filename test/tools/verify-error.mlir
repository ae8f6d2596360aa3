// RUN: sh -c 'mask-opt %s; echo "exit $?"' 2>&1 | filecheck %s --check-prefixes=CHECK,EXIT
// RUN: not mask-opt %s -p pack-mask -t cute 2>&1 | filecheck %s
// RUN: rm -f %t.out
// RUN: not mask-opt %s -o %t.out
// RUN: not test -e %t.out

// An op that fails verification: the verifier message on one line, exit
// status 1, no output file.

mask.func @few {
^bb0(%b : i32):
  %t = arith.constant true
  mask.yield %t : i1
}

// CHECK:     {{^}}mask-opt: error: mask.func @few needs the index arguments b, h, q_idx, kv_idx : i32, got 1 argument(s){{$}}
// EXIT-NEXT: {{^}}exit 1{{$}}
// CHECK-NOT: Operation does not verify
