// A malformed frontend spec (-f) is a usage error like a malformed target
// (target-syntax.mlir): one line, exit status 2, with the column of the
// problem; -o is not written. It used to end in xDSL's ArgSpecParseError.

// RUN: rm -f %t.out
// RUN: sh -c "mask-opt %s -f 'mlir{' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=OPEN
// RUN: sh -c "mask-opt %s -f '' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: sh -c "mask-opt %s -f 'mlir,x' -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=TWO
// RUN: sh -c "mask-opt %s -f bogus -o %t.out; echo \"exit \$?\"" 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not test -e %t.out
// A well-formed frontend still works.
// RUN: mask-opt %s -f mlir | filecheck %s --check-prefix=IR

// OPEN:         {{^}}mask-opt: error: invalid frontend 'mlir{': column 6, at the end: expected argument name here{{$}}
// OPEN-NEXT:    {{^}}exit 2{{$}}
// EMPTY:        {{^}}mask-opt: error: invalid frontend '': column 1, at the end: expected frontend name here{{$}}
// EMPTY-NEXT:   {{^}}exit 2{{$}}
// TWO:          {{^}}mask-opt: error: invalid frontend 'mlir,x': column 5, at ',': expected `{` or the end of the frontend here{{$}}
// TWO-NEXT:     {{^}}exit 2{{$}}
// UNKNOWN:      {{^}}mask-opt: error: argument -f/--frontend: invalid choice: 'bogus' (choose from mlir) (see mask-opt --help){{$}}
// UNKNOWN-NEXT: {{^}}exit 2{{$}}

// IR: mask.func @f
mask.func @f {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  mask.yield %t : i1
}
