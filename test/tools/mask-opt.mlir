// mask-opt driver behaviour on .mlir input.

// Remarks: a function that does not pack is reported on stderr (stdout has
// only the IR); --no-remarks silences them.
// RUN: mask-opt %s -p pack-mask 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK --strict-whitespace
// RUN: mask-opt %s -p pack-mask --no-remarks 2> %t.quiet > /dev/null
// RUN: not test -s %t.quiet
// RUN: mask-opt %s -p pack-mask 2>/dev/null | filecheck %s --check-prefix=IR
// RUN: mask-opt -p pack-mask < %s 2>&1 >/dev/null | filecheck %s --check-prefix=STDIN

// Ops parsed from .mlir are located like mlir-opt does (file:line:col of the
// op): the remark points at the gather, shows its line and names it rendered
// from the IR; the suggestion is a note. --no-remark-source: one line.
// RUN: mask-opt %s -p pack-mask --no-remark-source 2>&1 >/dev/null | filecheck %s --check-prefix=ONELINE
// REMARK:      {{^}}{{.*}}mask-opt.mlir:{{[0-9]+}}:3: remark: mask.func @gather not packed: `doc[kv + lane]` is a per-lane gather: its index depends on kv_idx{{$}}
// REMARK-NEXT: {{^}}      %dk = mask.load %doc[%kv] : tensor<1024xi32>[i32] -> i32{{$}}
// REMARK-NEXT: {{^}}      ^{{$}}
// REMARK-NEXT: {{^}}{{.*}}mask-opt.mlir:{{[0-9]+}}:3: note: if documents are contiguous, compare kv_idx with the bounds of q_idx's document instead of comparing doc of q_idx and kv_idx: `(kv_idx >= doc_starts[doc[q]]) & (kv_idx < doc_ends[doc[q]])` packs (doc_starts/doc_ends indexed by document id){{$}}
// ONELINE:     {{^}}{{.*}}mask-opt.mlir:{{[0-9]+}}:3: remark: mask.func @gather not packed: `doc[kv + lane]` is a per-lane gather: its index depends on kv_idx; if documents are contiguous, {{.*}} packs (doc_starts/doc_ends indexed by document id){{$}}
// ONELINE-NOT: {{.}}
// REMARK-NOT:  remark:
// IR:          mask.func @causal window {
// IR:            mask.yield %{{.*}} : i32
// IR:          mask.func @gather window unpacked "`doc[kv + lane]` is a per-lane gather: its index depends on kv_idx; if documents are contiguous,
// IR:            mask.yield %{{.*}} : i1
// STDIN:       {{^}}<stdin>:{{[0-9]+}}:3: remark: mask.func @gather not packed: `doc[kv + lane]` is a per-lane gather

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

// Input errors exit with status 1, usage errors with status 2; each is one
// line on stderr, and -o is not written.

// A missing input file, a directory, a file that is neither .mlir nor .py.
// RUN: sh -c 'mask-opt %s.missing -o %t.missing.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not test -e %t.missing.out
// MISSING:      {{^}}mask-opt: error: {{.*}}mask-opt.mlir.missing: no such file{{$}}
// MISSING-NEXT: {{^}}exit 1{{$}}
// RUN: sh -c 'mask-opt %S; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=DIR
// DIR:          {{^}}mask-opt: error: {{.*}}tools: is a directory{{$}}
// DIR-NEXT:     {{^}}exit 1{{$}}
// RUN: sh -c 'mask-opt %S/Inputs/not-ir.txt; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=EXT
// EXT:          {{^}}mask-opt: error: {{.*}}not-ir.txt: unrecognized input; give a .mlir file or a Python mask_mod as FILE.py:FUNCTION{{$}}
// EXT-NEXT:     {{^}}exit 2{{$}}

// An unknown pass, and an unknown pass option: usage errors.
// RUN: sh -c 'mask-opt %s -p no-such-pass -o %t.pass.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not test -e %t.pass.out
// PASS:         {{^}}mask-opt: error: invalid pass pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']{{$}}
// PASS-NEXT:    {{^}}exit 2{{$}}
// RUN: sh -c "mask-opt %s -p 'fold-intervals{bogus=3}'; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:       {{^}}mask-opt: error: invalid pass pipeline 'fold-intervals{bogus=3}': Provided arguments ["bogus"] not found in expected arguments ["max_intervals"]{{$}}
// OPTION-NEXT:  {{^}}exit 2{{$}}
// RUN: sh -c "mask-opt %s -p 'pack-mask{max-intervals=many}'; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=VALUE
// VALUE:        {{^}}mask-opt: error: invalid pass pipeline 'pack-mask{max-intervals=many}': {{.*}}{{$}}
// VALUE-NEXT:   {{^}}exit 2{{$}}
// RUN: sh -c "mask-opt %s -p 'fold-intervals{max-intervals=0}'; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO:         {{^}}mask-opt: error: invalid pass pipeline 'fold-intervals{max-intervals=0}': max-intervals must be at least 1, got 0{{$}}
// ZERO-NEXT:    {{^}}exit 2{{$}}

// An unknown target and an unknown option are argument errors.
// RUN: sh -c 'mask-opt %s -t no-such-target; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET:       {{^}}mask-opt: error: argument -t/--target: invalid choice: 'no-such-target' (choose from mlir, cute, cute-exprs) (see mask-opt --help){{$}}
// TARGET-NEXT:  {{^}}exit 2{{$}}
// RUN: sh -c 'mask-opt %s --no-such-option; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG:         {{^}}mask-opt: error: unrecognized arguments: --no-such-option (see mask-opt --help){{$}}
// FLAG-NEXT:    {{^}}exit 2{{$}}

// -o into a directory that does not exist.
// RUN: sh -c 'mask-opt %s --no-remarks -o %t.no-such-dir/out.mlir; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=WRITE
// WRITE:        {{^}}mask-opt: error: cannot write {{.*}}no-such-dir/out.mlir: No such file or directory{{$}}
// WRITE-NEXT:   {{^}}exit 1{{$}}

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
