// `-` is stdin, as for mlir-opt and xdsl-opt: .mlir text, located (in
// remarks and errors) as <stdin>; the same as no input file.

// RUN: cat %s | mask-opt - -p pack-mask 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: cat %s | mask-opt - -p pack-mask 2>/dev/null | filecheck %s --check-prefix=IR
// RUN: cat %s | mask-opt -p pack-mask - -t cute --no-remarks -o %t.py
// RUN: filecheck %s --check-prefix=CUTE --input-file=%t.py
// RUN: sh -c 'echo "mask.func @f {" | mask-opt - -o %t.bad; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not test -e %t.bad

// REMARK:      {{^}}<stdin>:{{[0-9]+}}:3: remark: mask.func @gather not packed: `doc[kv + lane]` is a per-lane gather: its index depends on kv_idx{{$}}
// IR:          mask.func @causal
// IR:          interval.keep_word
// IR:          mask.func @gather
// CUTE:        def causal(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// CUTE:        def gather(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// BAD:         {{^}}mask-opt: error: <stdin>:{{[0-9]+}}:{{[0-9]+}}: {{.*}}{{$}}
// BAD-NEXT:    {{^}}exit 1{{$}}

mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

mask.func @gather {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc : tensor<1024xi32>):
  %dq = mask.load %doc[%q] : tensor<1024xi32>[i32] -> i32
  %dk = mask.load %doc[%kv] : tensor<1024xi32>[i32] -> i32
  %eq = arith.cmpi eq, %dq, %dk : i32
  mask.yield %eq : i1
}
