// mask-opt driver behaviour on .mlir input.

// Remarks: a function that does not pack is reported on stderr (stdout has
// only the IR); --no-remarks silences them.
// RUN: mask-opt %s -p pack-mask 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: mask-opt %s -p pack-mask --no-remarks 2> %t.quiet > /dev/null
// RUN: not test -s %t.quiet
// RUN: mask-opt %s -p pack-mask 2>/dev/null | filecheck %s --check-prefix=IR
// RUN: mask-opt -p pack-mask < %s 2>&1 >/dev/null | filecheck %s --check-prefix=STDIN

// REMARK:      {{.*}}mask-opt.mlir: remark: mask.func @gather not packed: `%dk = mask.load` is a per-lane gather: its index depends on kv_idx; index aux tensors by lane-uniform values (b, h, q_idx) instead, e.g. a starts/offsets tensor indexed by the document of q_idx; the CuTe target evaluates it per lane (32 predicate evaluations per keep word)
// REMARK-NOT:  remark:
// IR:          mask.func @causal window {
// IR:            mask.yield %{{.*}} : i32
// IR:          mask.func @gather window unpacked "`%dk = mask.load` is a per-lane gather:
// IR:            mask.yield %{{.*}} : i1
// STDIN:       <stdin>: remark: mask.func @gather not packed: `%dk = mask.load` is a per-lane gather

// -o writes the output file (atomically); nothing goes to stdout.
// RUN: rm -f %t.py %t.stdout
// RUN: mask-opt %s -p pack-mask -t cute --no-remarks -o %t.py > %t.stdout
// RUN: filecheck %s --check-prefix=OUT --input-file=%t.py
// RUN: not test -s %t.stdout
// OUT:      import cutlass
// OUT:      def causal(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// OUT:      causal.__vec_size__ = 32
// OUT:      def gather(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):
// OUT:          for lane in cutlass.range_constexpr(32):
// OUT:      gather.__vec_size__ = 32

// A missing input file.
// RUN: not mask-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: mask-opt: error: {{.*}}mask-opt.mlir.missing: no such file

// An unknown pass, and an unknown pass option.
// RUN: not mask-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// PASS: mask-opt: error: invalid pass pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']
// RUN: not mask-opt %s -p 'fold-intervals{bogus=3}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: mask-opt: error: invalid pass pipeline 'fold-intervals{bogus=3}': Provided arguments ["bogus"] not found in expected arguments ["max_intervals"]

// An unknown target is an argument error.
// RUN: not mask-opt %s -t no-such-target 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET: mask-opt: error: argument -t/--target: invalid choice: 'no-such-target' (choose from mlir, cute)

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
