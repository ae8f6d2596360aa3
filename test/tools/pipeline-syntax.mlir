// A malformed pass pipeline (-p) is a usage error: one line, exit status 2,
// with the column of the problem and the text found there (or "the end");
// -o is not written. An empty pass name is malformed, after a trailing comma
// too, as in mlir-opt. (An unknown pass or option: see mask-opt.mlir.)

// RUN: rm -f %t.out
// RUN: sh -c "mask-opt %s -p 'pack-mask{' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=OPEN
// RUN: sh -c "mask-opt %s -p 'pack-mask}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=CLOSE
// RUN: sh -c "mask-opt %s -p ',' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=COMMA
// RUN: sh -c "mask-opt %s -p 'pack-mask,,cse' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: sh -c "mask-opt %s -p 'pack-mask,' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=TRAILING
// RUN: sh -c "mask-opt %s -p '{}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=NONAME
// RUN: sh -c "mask-opt %s -p 'fold-intervals{max-intervals=}' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not test -e %t.out

// OPEN:         {{^}}mask-opt: error: invalid pass pipeline 'pack-mask{': column 11, at the end: expected argument name here{{$}}
// OPEN-NEXT:    {{^}}exit 2{{$}}
// CLOSE:        {{^}}mask-opt: error: invalid pass pipeline 'pack-mask}': column 10, at '}': expected a comma or pass arguments here{{$}}
// CLOSE-NEXT:   {{^}}exit 2{{$}}
// COMMA:        {{^}}mask-opt: error: invalid pass pipeline ',': column 1, at ',': expected pass name here{{$}}
// COMMA-NEXT:   {{^}}exit 2{{$}}
// EMPTY:        {{^}}mask-opt: error: invalid pass pipeline 'pack-mask,,cse': column 11, at ',': expected pass name here{{$}}
// EMPTY-NEXT:   {{^}}exit 2{{$}}
// TRAILING:     {{^}}mask-opt: error: invalid pass pipeline 'pack-mask,': column 11, at the end: expected pass name here{{$}}
// TRAILING-NEXT: {{^}}exit 2{{$}}
// NONAME:       {{^}}mask-opt: error: invalid pass pipeline '{}': column 1, at '{': expected pass name here{{$}}
// NONAME-NEXT:  {{^}}exit 2{{$}}
// NOVALUE:      {{^}}mask-opt: error: invalid pass pipeline 'fold-intervals{max-intervals=}': column 30, at '}': unknown argument value, wrap argument in quotes to pass arbitrary string values{{$}}
// NOVALUE-NEXT: {{^}}exit 2{{$}}

mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}
