// A malformed target (-t) is a usage error, like a malformed pipeline (see
// pipeline-syntax.mlir): one line, exit status 2, with the column of the
// problem and the text found there (or "the end"); -o is not written. A
// target is one name, with options in braces: nothing may follow it.

// RUN: rm -f %t.out
// RUN: sh -c "mask-opt %s -t 'cute{' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=OPEN
// RUN: sh -c "mask-opt %s -t 'cute}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=CLOSE
// RUN: sh -c "mask-opt %s -t '{}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=NONAME
// RUN: sh -c "mask-opt %s -t '' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: sh -c "mask-opt %s -t 'cute{x=}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: sh -c "mask-opt %s -t 'cute,mlir' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=TWO
// RUN: sh -c "mask-opt %s -t 'cute{}x' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=AFTER
// An unknown target option is a usage error too, found before the input is
// read (like an unknown pass option).
// RUN: sh -c "mask-opt %s -t 'cute{x=1}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not test -e %t.out
// A well-formed target still works.
// RUN: mask-opt %s -p pack-mask -t 'cute{}' | filecheck %s --check-prefix=CUTE

// OPEN:         {{^}}mask-opt: error: invalid target 'cute{': column 6, at the end: expected argument name here{{$}}
// OPEN-NEXT:    {{^}}exit 2{{$}}
// CLOSE:        {{^}}mask-opt: error: invalid target 'cute}': column 5, at '}': expected `{` or the end of the target here{{$}}
// CLOSE-NEXT:   {{^}}exit 2{{$}}
// NONAME:       {{^}}mask-opt: error: invalid target '{}': column 1, at '{': expected target name here{{$}}
// NONAME-NEXT:  {{^}}exit 2{{$}}
// EMPTY:        {{^}}mask-opt: error: invalid target '': column 1, at the end: expected target name here{{$}}
// EMPTY-NEXT:   {{^}}exit 2{{$}}
// NOVALUE:      {{^}}mask-opt: error: invalid target 'cute{x=}': column 8, at '}': unknown argument value, wrap argument in quotes to pass arbitrary string values{{$}}
// NOVALUE-NEXT: {{^}}exit 2{{$}}
// TWO:          {{^}}mask-opt: error: invalid target 'cute,mlir': column 5, at ',': expected `{` or the end of the target here{{$}}
// TWO-NEXT:     {{^}}exit 2{{$}}
// AFTER:        {{^}}mask-opt: error: invalid target 'cute{}x': column 7, at 'x': expected the end of the target here{{$}}
// AFTER-NEXT:   {{^}}exit 2{{$}}
// OPTION:       {{^}}mask-opt: error: invalid target 'cute{x=1}': Provided arguments ["x"] not found in expected arguments []{{$}}
// OPTION-NEXT:  {{^}}exit 2{{$}}
// CUTE:         def mask_mod(b_idx, h_idx, q_idx, kv_idx, seqlen_info, aux_tensors):

mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}
