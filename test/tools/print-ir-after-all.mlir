// --print-ir-after-all (alias --print-between-passes) dumps the IR after
// every pass on stderr, pack-mask expanded into its passes; stdout keeps
// only the result. --time-passes prints a timing report on stderr.

// RUN: mask-opt %s -p 'pack-mask,cse' --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: mask-opt %s -p 'pack-mask,cse' --print-between-passes 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: mask-opt %s -p 'pack-mask,cse' --print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=OUT
// RUN: mask-opt %s -p 'pack-mask{max-intervals=4}' --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: mask-opt %s --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=NOPASS
// RUN: mask-opt %s -p 'lane-affine,cse' --print-ir-before-all --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=BOTH

mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// DUMP:      // -----// IR Dump After canonicalize (pack-mask 1/10) //----- //
// DUMP-NEXT: builtin.module {
// DUMP-NEXT:   mask.func @causal {
// DUMP:      // -----// IR Dump After cse (pack-mask 2/10) //----- //
// DUMP:      // -----// IR Dump After lane-affine (pack-mask 3/10) //----- //
// DUMP-NEXT: builtin.module {
// DUMP-NEXT:   mask.func @causal window {
// DUMP:          mask.lane_cmp "sge", -1 * lane + %{{.*}} + 0 : i32
// DUMP:      // -----// IR Dump After canonicalize (pack-mask 4/10) //----- //
// DUMP:      // -----// IR Dump After cse (pack-mask 5/10) //----- //
// DUMP:      // -----// IR Dump After fold-intervals (pack-mask 6/10) //----- //
// DUMP:          %[[U:.*]] = arith.subi %q, %kv : i32
// DUMP-NEXT:     %[[HI:.*]] = interval.bound %[[U]] * 1 + 1 side "hi" : i32
// DUMP:          interval.range %{{.*}}, %[[HI]] : i32
// DUMP:          interval.keep_word
// DUMP:      // -----// IR Dump After simplify-intervals (pack-mask 7/10) //----- //
// DUMP:          interval.bound
// DUMP:      // -----// IR Dump After lower-interval-bounds (pack-mask 8/10) //----- //
// DUMP-NOT:      interval.bound
// DUMP:          %[[C32:.*]] = arith.constant 32 : i32
// DUMP-NEXT:     %{{.*}} = arith.subi %[[C32]], %{{.*}} : i32
// DUMP:      // -----// IR Dump After canonicalize (pack-mask 9/10) //----- //
// DUMP:      // -----// IR Dump After cse (pack-mask 10/10) //----- //
// DUMP:      // -----// IR Dump After cse //----- //
// DUMP-NOT:  IR Dump

// OUT-NOT:   IR Dump
// OUT:       builtin.module {
// OUT:         mask.func @causal window {
// OUT-NOT:   IR Dump

// TIME:      ===-{{-+}}===
// TIME-NEXT: {{ +}}... Execution time report ...
// TIME-NEXT: ===-{{-+}}===
// TIME-NEXT:   Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// TIME-EMPTY:
// TIME-NEXT:   ----Wall Time----  ----Name----
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}  parse
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}  pack-mask{max-intervals=4}
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    canonicalize (pack-mask 1/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    cse (pack-mask 2/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    lane-affine (pack-mask 3/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    canonicalize (pack-mask 4/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    cse (pack-mask 5/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    fold-intervals{max-intervals=4} (pack-mask 6/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    simplify-intervals (pack-mask 7/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    lower-interval-bounds (pack-mask 8/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    canonicalize (pack-mask 9/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}    cse (pack-mask 10/10)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}  output (mlir)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}  rest (verification, remarks)
// TIME-NEXT:   {{ *[0-9]+\.[0-9]+}} (100.0%)  Total

// NOPASS:      ----Wall Time----  ----Name----
// NOPASS-NEXT: parse
// NOPASS-NEXT: output (mlir)
// NOPASS-NEXT: rest (verification, remarks)
// NOPASS-NEXT: Total

// BOTH:      // -----// IR Dump Before lane-affine //----- //
// BOTH-NEXT: builtin.module {
// BOTH-NEXT:   mask.func @causal {
// BOTH:      // -----// IR Dump After lane-affine //----- //
// BOTH-NEXT: builtin.module {
// BOTH-NEXT:   mask.func @causal window {
// BOTH:      // -----// IR Dump Before cse //----- //
// BOTH:      // -----// IR Dump After cse //----- //
// BOTH-NOT:  IR Dump
