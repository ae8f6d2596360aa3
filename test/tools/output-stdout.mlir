// `-o -` is stdout, as for mlir-opt and xdsl-opt: no file named `-` is
// written. As with no -o, stdout gets the output only when the whole run
// succeeds: a run that fails (malformed IR, a target that cannot print the
// module) writes nothing to stdout.

// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d && mask-opt %s -p pack-mask -t cute --no-remarks -o - > %t.d/stdout
// RUN: filecheck %s --check-prefix=CUTE --input-file=%t.d/stdout
// RUN: not test -e %t.d/-
// RUN: cd %t.d && mask-opt %s -o - | filecheck %s --check-prefix=IR
// RUN: not test -e %t.d/-
// RUN: cd %t.d && sh -c 'echo "mask.func @f {" | mask-opt - -o - > %t.d/bad.stdout; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not test -s %t.d/bad.stdout
// RUN: cd %t.d && sh -c 'echo "builtin.module {}" | mask-opt - -t cute -o - > %t.d/empty.stdout; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not test -s %t.d/empty.stdout
// RUN: not test -e %t.d/-

// CUTE:       def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CUTE:       mask_mod.__vec_size__ = 32
// IR:         mask.func @causal
// BAD:        {{^}}mask-opt: error: <stdin>:{{[0-9]+}}:{{[0-9]+}}: {{.*}}{{$}}
// BAD-NEXT:   {{^}}exit 1{{$}}
// EMPTY:      {{^}}mask-opt: error: -t cute: the module has no mask.func to print{{$}}
// EMPTY-NEXT: {{^}}exit 1{{$}}

mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}
