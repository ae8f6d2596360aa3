// Errors of Python input (`FILE.py:FUNCTION`) reported before any tracing,
// on small files that import nothing (tools/examples/masks.py imports torch).

// RUN: not mask-opt %S/Inputs/no-such-file.py:causal 2>&1 | filecheck %s --check-prefix=NOFILE
// NOFILE: {{^}}mask-opt: error: {{.*}}Inputs/no-such-file.py: no such file{{$}}

// RUN: sh -c 'mask-opt %S/Inputs/no_torch.py:no_such_mask -o %t.out; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=NOFN
// RUN: not test -e %t.out
// NOFN:      {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: no function named 'no_such_mask'{{$}}
// NOFN-NEXT: {{^}}exit 1{{$}}

// RUN: not mask-opt %S/Inputs/no_torch.py:NOT_A_FUNCTION 2>&1 | filecheck %s --check-prefix=NOTFN
// NOTFN: {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: 'NOT_A_FUNCTION' is not a function{{$}}

// Without `:FUNCTION` the function is `mask_mod`.
// RUN: not mask-opt %S/Inputs/no_torch.py 2>&1 | filecheck %s --check-prefix=DEFAULT
// DEFAULT: {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: no function named 'mask_mod'{{$}}

// RUN: sh -c 'mask-opt %S/Inputs/raises.py:causal; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=RAISES
// RAISES:      {{^}}mask-opt: error: {{.*}}Inputs/raises.py:3:1: importing the file raised RuntimeError: this file cannot be imported{{$}}
// RAISES-NEXT: {{^}}exit 1{{$}}

// RUN: sh -c 'mask-opt %S/Inputs/syntax_error.py:causal; echo "exit $?"' 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX:      {{^}}mask-opt: error: {{.*}}Inputs/syntax_error.py:4:32: importing the file raised SyntaxError: {{.*}}{{$}}
// SYNTAX-NEXT: {{^}}exit 1{{$}}
