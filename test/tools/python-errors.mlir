// Errors of Python input (`FILE.py:FUNCTION`) reported before any tracing,
// on small files that import nothing (tools/examples/masks.py imports torch).

// RUN: not mask-opt %S/Inputs/no-such-file.py:causal 2>&1 | filecheck %s --check-prefix=NOFILE
// NOFILE: {{^}}mask-opt: error: {{.*}}Inputs/no-such-file.py: no such file{{$}}

// RUN: not mask-opt %S/Inputs/no_torch.py:no_such_mask 2>&1 | filecheck %s --check-prefix=NOFN
// NOFN: {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: no function named 'no_such_mask'{{$}}

// RUN: not mask-opt %S/Inputs/no_torch.py:NOT_A_FUNCTION 2>&1 | filecheck %s --check-prefix=NOTFN
// NOTFN: {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: 'NOT_A_FUNCTION' is not a function{{$}}

// Without `:FUNCTION` the function is `mask_mod`.
// RUN: not mask-opt %S/Inputs/no_torch.py 2>&1 | filecheck %s --check-prefix=DEFAULT
// DEFAULT: {{^}}mask-opt: error: {{.*}}Inputs/no_torch.py: no function named 'mask_mod'{{$}}

// RUN: not mask-opt %S/Inputs/raises.py:causal 2>&1 | filecheck %s --check-prefix=RAISES
// RAISES: {{^}}mask-opt: error: {{.*}}Inputs/raises.py: importing the file raised RuntimeError: this file cannot be imported{{$}}
// RAISES-NOT: Traceback
