// RUN: mask-opt %s -p pack-mask --no-remarks | filecheck %s
// RUN: mask-opt %s -p 'pack-mask{max-intervals=1}' --no-remarks | filecheck %s --check-prefix=ONE

// The whole pipeline (canonicalize, cse, lane-affine, canonicalize, cse,
// fold-intervals, simplify-intervals, canonicalize, cse) on the classic
// FlexAttention masks. Every packed function yields one keep word.

// Causal: lanes [0, q - kv + 1).
mask.func @causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  mask.yield %ge : i1
}

// CHECK-LABEL: mask.func @causal window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[V1]], %[[V0]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.maxsi %[[V2]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.subi %[[V5]], %[[V4]] : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.range %[[V3]], %[[V6]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V7]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @causal window {

// Sliding window of 256: [q - kv - 256, q - kv + 1), one run.
mask.func @sliding_window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %ge = arith.cmpi sge, %q, %kv : i32
  %d = arith.subi %q, %kv : i32
  %c256 = arith.constant 256 : i32
  %near = arith.cmpi sle, %d, %c256 : i32
  %r = arith.andi %ge, %near : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @sliding_window window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[V1]], %[[V0]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.maxsi %[[V2]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.subi %[[V5]], %[[V4]] : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.maxsi %[[V0]], %[[V7]] : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.constant -256 : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.addi %[[V8]], %[[V9]] : i32
// CHECK-NEXT:    %[[V11:.*]] = interval.range %[[V10]], %[[V6]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V11]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// Prefix LM: the prefix [0, 128 - kv) or causal [0, q - kv + 1): both start
// at lane 0, so one run [0, max(128 - kv, q - kv + 1)).
mask.func @prefix_lm {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c128 = arith.constant 128 : i32
  %p = arith.cmpi slt, %kv, %c128 : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %r = arith.ori %p, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @prefix_lm window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:  %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:  %[[V1:.*]] = arith.constant 128 : i32
// CHECK-NEXT:  %[[V2:.*]] = arith.subi %[[V1]], %[[KV]] : i32
// CHECK-NEXT:  %[[V3:.*]] = arith.constant 31 : i32
// CHECK-NEXT:  %[[V4:.*]] = arith.subi %[[V3]], %[[V0]] : i32
// CHECK-NEXT:  %[[V5:.*]] = arith.constant 0 : i32
// CHECK-NEXT:  %[[V6:.*]] = arith.maxsi %[[V4]], %[[V5]] : i32
// CHECK-NEXT:  %[[V7:.*]] = arith.constant 32 : i32
// CHECK-NEXT:  %[[V8:.*]] = arith.subi %[[V7]], %[[V6]] : i32
// CHECK-NEXT:  %[[V9:.*]] = arith.maxsi %[[V2]], %[[V8]] : i32
// CHECK-NEXT:  %[[V10:.*]] = interval.range %[[V5]], %[[V9]] : i32
// CHECK-NEXT:  %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:  mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @prefix_lm window {
// ONE:         interval.range
// ONE-NOT:     interval.union
// ONE:         mask.yield %{{.*}} : i32

// Chunked causal: same chunk of 512 and causal: one run from the chunk start
// to the causal end. The chunk end (q // 512) * 512 + 512 - kv is dropped: it
// is never below q + 1 - kv (q - (q // 512) * 512 is in [0, 511]).
mask.func @chunked_causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c512 = arith.constant 512 : i32
  %qc = arith.floordivsi %q, %c512 : i32
  %kc = arith.floordivsi %kv, %c512 : i32
  %same = arith.cmpi eq, %qc, %kc : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %r = arith.andi %same, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @chunked_causal window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : i32
// CHECK-NEXT:    %[[QC:.*]] = arith.floordivsi %[[Q]], %[[C512]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.muli %[[QC]], %[[C512]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[KV]], %[[V0]] : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.subi %[[V3]], %[[V1]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.subi %[[V5]], %[[V2]] : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.maxsi %[[V6]], %[[V3]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.subi %[[V8]], %[[V7]] : i32
// CHECK-NEXT:    %[[V10:.*]] = interval.range %[[V4]], %[[V9]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V10]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @chunked_causal window {
// ONE:         mask.yield %{{.*}} : i32

// Document-start causal: the start of q's document is an aux load indexed
// by q only (lane-uniform); kv - start needs i64 (aux values are any i32).
mask.func @document_causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc_ids : tensor<1024xi32>, %starts : tensor<4xi32>):
  %doc = mask.load %doc_ids[%q] : tensor<1024xi32>[i32] -> i32
  %start = mask.load %starts[%doc] : tensor<4xi32>[i32] -> i32
  %in = arith.cmpi sge, %kv, %start : i32
  %le = arith.cmpi sle, %kv, %q : i32
  %r = arith.andi %in, %le : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @document_causal window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[DOC_IDS:.*]]: tensor<1024xi32>, %[[STARTS:.*]]: tensor<4xi32>):
// CHECK-NEXT:    %[[DOC:.*]] = mask.load %[[DOC_IDS]][%[[Q]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:    %[[START:.*]] = mask.load %[[STARTS]][%[[DOC]]] : tensor<4xi32>[i32] -> i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[KV]], %[[Q]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.maxsi %[[START]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V4]], %[[KV]] : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.addi %[[V2]], %[[V6]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.maxsi %[[V7]], %[[V3]] : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.subi %[[V9]], %[[V8]] : i32
// CHECK-NEXT:    %[[V11:.*]] = interval.range %[[V5]], %[[V10]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V11]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// Per-batch sliding window: the window size is an aux load indexed by b.
mask.func @per_batch_window {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %windows : tensor<8xi32>):
  %win = mask.load %windows[%b] : tensor<8xi32>[i32] -> i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %d = arith.subi %q, %kv : i32
  %near = arith.cmpi sle, %d, %win : i32
  %r = arith.andi %ge, %near : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @per_batch_window window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[WINDOWS:.*]]: tensor<8xi32>):
// CHECK-NEXT:    %[[WIN:.*]] = mask.load %[[WINDOWS]][%[[B]]] : tensor<8xi32>[i32] -> i32
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK-NEXT:    %[[V2:.*]] = arith.extsi %[[KV]] : i32 to i64
// CHECK-NEXT:    %[[V3:.*]] = arith.subi %[[V1]], %[[V2]] : i64
// CHECK-NEXT:    %[[V4:.*]] = arith.extsi %[[WIN]] : i32 to i64
// CHECK-NEXT:    %[[V5:.*]] = arith.subi %[[V3]], %[[V4]] : i64
// CHECK-NEXT:    %[[V6:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V7:.*]] = arith.subi %[[V6]], %[[V0]] : i32
// CHECK-NEXT:    %[[V8:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V9:.*]] = arith.maxsi %[[V7]], %[[V8]] : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V11:.*]] = arith.subi %[[V10]], %[[V9]] : i32
// CHECK-NEXT:    %[[V12:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[V13:.*]] = arith.maxsi %[[V5]], %[[V12]] : i64
// CHECK-NEXT:    %[[V14:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[V15:.*]] = arith.minsi %[[V13]], %[[V14]] : i64
// CHECK-NEXT:    %[[V16:.*]] = arith.trunci %[[V15]] : i64 to i32
// CHECK-NEXT:    %[[V17:.*]] = interval.range %[[V16]], %[[V11]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V17]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// Per-head masking: a lane-uniform condition selects the causal run;
// select(h < 4, causal, true) is canonicalized to (h >= 4) | causal.
mask.func @head_causal {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c4 = arith.constant 4 : i32
  %causal_head = arith.cmpi slt, %h, %c4 : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %t = arith.constant true
  %r = arith.select %causal_head, %ge, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @head_causal window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi sge, %[[H]], %[[C4]] : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.subi %[[V1]], %[[V0]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V4:.*]] = arith.maxsi %[[V2]], %[[V3]] : i32
// CHECK-NEXT:    %[[V5:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[V6:.*]] = arith.subi %[[V5]], %[[V4]] : i32
// CHECK-NEXT:    %[[V7:.*]] = interval.full
// CHECK-NEXT:    %[[V8:.*]] = interval.empty
// CHECK-NEXT:    %[[V9:.*]] = interval.select %[[HIGH]], %[[V7]], %[[V8]]
// CHECK-NEXT:    %[[V10:.*]] = interval.range %[[V3]], %[[V6]] : i32
// CHECK-NEXT:    %[[V11:.*]] = interval.union %[[V9]], %[[V10]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[V11]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @head_causal window unpacked "2 ranges exceed max-intervals=1 at `(h >= 4) | (-lane + (q - kv) >= 0)`; raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked)" {

// Constant masks fold to constant keep words.
mask.func @everything {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  %x = arith.cmpi sge, %q, %kv : i32
  %r = arith.ori %x, %t : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @everything window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[KEEP:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// A per-lane gather (doc_ids[kv]) cannot pack: the function stays as it is
// after lane-affine, with the reason in `unpacked`.
mask.func @document_gather {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32, %doc_ids : tensor<1024xi32>):
  %dq = mask.load %doc_ids[%q] : tensor<1024xi32>[i32] -> i32
  %dk = mask.load %doc_ids[%kv] : tensor<1024xi32>[i32] -> i32
  %same = arith.cmpi eq, %dq, %dk : i32
  %le = arith.cmpi sle, %kv, %q : i32
  %r = arith.andi %same, %le : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @document_gather window unpacked "`doc_ids[kv + lane]` is a per-lane gather: its index depends on kv_idx; if documents are contiguous, compare kv_idx with the bounds of q_idx's document instead of comparing doc_ids of q_idx and kv_idx: `(kv_idx >= doc_starts[doc_ids[q]]) & (kv_idx < doc_ends[doc_ids[q]])` packs (doc_starts/doc_ends indexed by document id)" {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32, %[[DOC_IDS:.*]]: tensor<1024xi32>):
// CHECK-NEXT:    %[[LANE:.*]] = mask.lane : i32
// CHECK-NEXT:    %[[KV_1:.*]] = arith.addi %[[KV]], %[[LANE]] : i32
// CHECK-NEXT:    %[[DQ:.*]] = mask.load %[[DOC_IDS]][%[[Q]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:    %[[DK:.*]] = mask.load %[[DOC_IDS]][%[[KV_1]]] : tensor<1024xi32>[i32] -> i32
// CHECK-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %[[DQ]], %[[DK]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[KV]], %[[Q]] : i32
// CHECK-NEXT:    %[[LE:.*]] = mask.lane_cmp "sle", 1 * lane + %[[V0]] + 0 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.andi %[[SAME]], %[[LE]] : i1
// CHECK-NEXT:    mask.yield %[[R]] : i1
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @document_gather window unpacked "`doc_ids[kv + lane]` is a per-lane gather:


// A difference that wraps in i32 (s - (kv + L), s = q + 768 itself wrapping):
// lane-affine splits `d <= 100` at the wrap, fold-intervals keeps both runs
// (the second only reachable where s - kv - L < -2^31); with one run allowed
// it stays per-lane and says so.
mask.func @wrapping_difference {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c768 = arith.constant 768 : i32
  %c100 = arith.constant 100 : i32
  %s = arith.addi %q, %c768 : i32
  %d = arith.subi %s, %kv : i32
  %le = arith.cmpi sle, %d, %c100 : i32
  mask.yield %le : i1
}

// CHECK-LABEL: mask.func @wrapping_difference window {
// CHECK:         %[[R0:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// CHECK:         %[[R1:.*]] = interval.range %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[R0]], %[[R1]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32

// ONE-LABEL: mask.func @wrapping_difference window unpacked "2 ranges exceed max-intervals=1
// ONE-NOT:     interval.
// ONE:         mask.yield %{{.*}} : i1

// Global tokens written as torch.where(kv < 4, True, q >= kv): canonicalize
// makes it (kv < 4) | (q >= kv), whose two runs from lane 0 are one run up to
// the larger end.
mask.func @global_tokens_where {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %t = arith.constant true
  %c4 = arith.constant 4 : i32
  %sink = arith.cmpi slt, %kv, %c4 : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %r = arith.select %sink, %t, %ge : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @global_tokens_where window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C28:.*]] = arith.constant 28 : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.addi %[[KV]], %[[C28]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[SINK_END:.*]] = arith.subi %[[C32]], %[[V0]] : i32
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[C31]], %[[D]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.maxsi %[[V1]], %[[C0]] : i32
// CHECK-NEXT:    %[[CAUSAL_END:.*]] = arith.subi %[[C32]], %[[V2]] : i32
// CHECK-NEXT:    %[[END:.*]] = arith.maxsi %[[SINK_END]], %[[CAUSAL_END]] : i32
// CHECK-NEXT:    %[[SPAN:.*]] = interval.range %[[C0]], %[[END]] : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[SPAN]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @global_tokens_where window {
// ONE:         interval.range
// ONE-NOT:     interval.union
// ONE:         mask.yield %{{.*}} : i32

// torch.where(kv < 64, q >= kv, kv < 128): an i1 select on a lane-dependent
// condition, (c & a) | (~c & b), two runs split at lane 64 - kv.
mask.func @where_lane_condition {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %head = arith.cmpi slt, %kv, %c64 : i32
  %ge = arith.cmpi sge, %q, %kv : i32
  %near = arith.cmpi slt, %kv, %c128 : i32
  %r = arith.select %head, %ge, %near : i1
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @where_lane_condition window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[C64]], %[[KV]] : i32
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.subi %[[C31]], %[[D]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.maxsi %[[V0]], %[[C0]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[CAUSAL_END:.*]] = arith.subi %[[C32]], %[[V1]] : i32
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[NEAR_END:.*]] = arith.subi %[[C128]], %[[KV]] : i32
// CHECK-NEXT:    %[[HI:.*]] = arith.minsi %[[SPLIT]], %[[CAUSAL_END]] : i32
// CHECK-NEXT:    %[[YES:.*]] = interval.range %[[C0]], %[[HI]] : i32
// CHECK-NEXT:    %[[NO:.*]] = interval.range %[[SPLIT]], %[[NEAR_END]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[YES]], %[[NO]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// torch.where(kv < 4, q, q - 20) >= kv: lane-affine distributes the
// comparison over the select's arms, (c & q >= kv) | (~c & q - 20 >= kv).
mask.func @where_int_bound {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c4 = arith.constant 4 : i32
  %c20 = arith.constant 20 : i32
  %sink = arith.cmpi slt, %kv, %c4 : i32
  %qm = arith.subi %q, %c20 : i32
  %lim = arith.select %sink, %q, %qm : i32
  %r = arith.cmpi sge, %lim, %kv : i32
  mask.yield %r : i1
}

// CHECK-LABEL: mask.func @where_int_bound window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[Q]], %[[KV]] : i32
// CHECK-NEXT:    %[[C28:.*]] = arith.constant 28 : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.addi %[[KV]], %[[C28]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[C32]], %[[V0]] : i32
// CHECK-NEXT:    %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[V1:.*]] = arith.subi %[[C31]], %[[D]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[V2:.*]] = arith.maxsi %[[V1]], %[[C0]] : i32
// CHECK-NEXT:    %[[CM19:.*]] = arith.constant -19 : i32
// CHECK-NEXT:    %[[LATE_END:.*]] = arith.addi %[[D]], %[[CM19]] : i32
// CHECK-NEXT:    %[[V3:.*]] = arith.maxsi %[[V0]], %[[V2]] : i32
// CHECK-NEXT:    %[[SINK_END:.*]] = arith.subi %[[C32]], %[[V3]] : i32
// CHECK-NEXT:    %[[SINK_SPAN:.*]] = interval.range %[[C0]], %[[SINK_END]] : i32
// CHECK-NEXT:    %[[LATE_SPAN:.*]] = interval.range %[[SPLIT]], %[[LATE_END]] : i32
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[SINK_SPAN]], %[[LATE_SPAN]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// Nine diagonals kv == q + i (i = 0..8), where the int32 q + i wraps for
// q >= 2^31 - i: each q + i is a wrapped lane-uniform atom, so the nine
// runs [q + i - kv, q + i + 1 - kv) do not compare and would be nine runs.
// Folded by cases on q (between the points where some q + i wraps), q + i
// is exact in each case and the runs merge into [q - kv, q + 9 - kv); where
// q + i wraps, the lanes of the wrapped diagonals are past kv + 31 anyway,
// the same run: one range, no case left.
mask.func @wrapped_diagonals {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %d0 = arith.cmpi eq, %kv, %q : i32
  %c1 = arith.constant 1 : i32
  %q1 = arith.addi %q, %c1 : i32
  %d1 = arith.cmpi eq, %kv, %q1 : i32
  %u1 = arith.ori %d0, %d1 : i1
  %c2 = arith.constant 2 : i32
  %q2 = arith.addi %q, %c2 : i32
  %d2 = arith.cmpi eq, %kv, %q2 : i32
  %u2 = arith.ori %u1, %d2 : i1
  %c3 = arith.constant 3 : i32
  %q3 = arith.addi %q, %c3 : i32
  %d3 = arith.cmpi eq, %kv, %q3 : i32
  %u3 = arith.ori %u2, %d3 : i1
  %c4 = arith.constant 4 : i32
  %q4 = arith.addi %q, %c4 : i32
  %d4 = arith.cmpi eq, %kv, %q4 : i32
  %u4 = arith.ori %u3, %d4 : i1
  %c5 = arith.constant 5 : i32
  %q5 = arith.addi %q, %c5 : i32
  %d5 = arith.cmpi eq, %kv, %q5 : i32
  %u5 = arith.ori %u4, %d5 : i1
  %c6 = arith.constant 6 : i32
  %q6 = arith.addi %q, %c6 : i32
  %d6 = arith.cmpi eq, %kv, %q6 : i32
  %u6 = arith.ori %u5, %d6 : i1
  %c7 = arith.constant 7 : i32
  %q7 = arith.addi %q, %c7 : i32
  %d7 = arith.cmpi eq, %kv, %q7 : i32
  %u7 = arith.ori %u6, %d7 : i1
  %c8 = arith.constant 8 : i32
  %q8 = arith.addi %q, %c8 : i32
  %d8 = arith.cmpi eq, %kv, %q8 : i32
  %u8 = arith.ori %u7, %d8 : i1
  mask.yield %u8 : i1
}

// CHECK-LABEL: mask.func @wrapped_diagonals window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[KV]], %[[Q]] : i32
// CHECK-NEXT:    %[[R:.*]] = interval.span %[[D]] * -1 + 0 width 9 : i32
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[R]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// ONE-LABEL: mask.func @wrapped_diagonals window {
// ONE:         interval.keep_word

// The conjunction of issue 20: kv + k <= q + 3000 + k % 7 (k = 0..9). The
// int32 kv + k wraps at kv = 2^31 - k, in the last window: lane-affine
// splits each comparison there (two runs, the second where kv + k wraps),
// and q + 3000 + c is a wrapped atom, so the pieces of different
// comparisons do not cancel: 12 runs at the sixth `&` already. By cases on
// q (q + 3000 + c wraps for q >= 2^31 - 3000 - c), they do: where nothing
// wraps (q <= 2^31 - 3007), [0, q + 2994 - kv) and [2^31 - 7 - kv, q + 3001
// - kv) (kv + 7 wrapped, kv + 6 not; only for q = 2^31 - 3007); for q from
// 2^31 - 3006 to 2^31 - 3003 (q + 3000 + c wraps for c > 2^31 - 3001 - q),
// the one lane q + 3000 - kv; for larger q none. The second run is
// non-empty only at q = 2^31 - 3007, where it is that lane: the lane's
// guard is widened to q >= 2^31 - 3007 and the run dropped
// (share_edge_runs). Two runs.
mask.func @wrapped_conjunction {
^bb0(%b : i32, %h : i32, %q : i32, %kv : i32):
  %c3000 = arith.constant 3000 : i32
  %s0 = arith.addi %q, %c3000 : i32
  %t0 = arith.cmpi sle, %kv, %s0 : i32
  %k1 = arith.constant 1 : i32
  %x1 = arith.addi %kv, %k1 : i32
  %c1 = arith.constant 3001 : i32
  %s1 = arith.addi %q, %c1 : i32
  %t1 = arith.cmpi sle, %x1, %s1 : i32
  %a1 = arith.andi %t0, %t1 : i1
  %k2 = arith.constant 2 : i32
  %x2 = arith.addi %kv, %k2 : i32
  %c2 = arith.constant 3002 : i32
  %s2 = arith.addi %q, %c2 : i32
  %t2 = arith.cmpi sle, %x2, %s2 : i32
  %a2 = arith.andi %a1, %t2 : i1
  %k3 = arith.constant 3 : i32
  %x3 = arith.addi %kv, %k3 : i32
  %c3 = arith.constant 3003 : i32
  %s3 = arith.addi %q, %c3 : i32
  %t3 = arith.cmpi sle, %x3, %s3 : i32
  %a3 = arith.andi %a2, %t3 : i1
  %k4 = arith.constant 4 : i32
  %x4 = arith.addi %kv, %k4 : i32
  %c4 = arith.constant 3004 : i32
  %s4 = arith.addi %q, %c4 : i32
  %t4 = arith.cmpi sle, %x4, %s4 : i32
  %a4 = arith.andi %a3, %t4 : i1
  %k5 = arith.constant 5 : i32
  %x5 = arith.addi %kv, %k5 : i32
  %c5 = arith.constant 3005 : i32
  %s5 = arith.addi %q, %c5 : i32
  %t5 = arith.cmpi sle, %x5, %s5 : i32
  %a5 = arith.andi %a4, %t5 : i1
  %k6 = arith.constant 6 : i32
  %x6 = arith.addi %kv, %k6 : i32
  %c6 = arith.constant 3006 : i32
  %s6 = arith.addi %q, %c6 : i32
  %t6 = arith.cmpi sle, %x6, %s6 : i32
  %a6 = arith.andi %a5, %t6 : i1
  %k7 = arith.constant 7 : i32
  %x7 = arith.addi %kv, %k7 : i32
  %t7 = arith.cmpi sle, %x7, %s0 : i32
  %a7 = arith.andi %a6, %t7 : i1
  %k8 = arith.constant 8 : i32
  %x8 = arith.addi %kv, %k8 : i32
  %c8 = arith.constant 3001 : i32
  %s8 = arith.addi %q, %c8 : i32
  %t8 = arith.cmpi sle, %x8, %s8 : i32
  %a8 = arith.andi %a7, %t8 : i1
  %k9 = arith.constant 9 : i32
  %x9 = arith.addi %kv, %k9 : i32
  %c9 = arith.constant 3002 : i32
  %s9 = arith.addi %q, %c9 : i32
  %t9 = arith.cmpi sle, %x9, %s9 : i32
  %a9 = arith.andi %a8, %t9 : i1
  mask.yield %a9 : i1
}

// CHECK-LABEL: mask.func @wrapped_conjunction window {
// CHECK-NEXT:  ^bb0(%[[B:.*]]: i32, %[[H:.*]]: i32, %[[Q:.*]]: i32, %[[KV:.*]]: i32):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[KV]], %[[Q]] : i32
// CHECK-NEXT:    %[[C2962:.*]] = arith.constant 2962 : i32
// CHECK-NEXT:    %[[V10:.*]] = arith.maxsi %[[D]], %[[C2962]] : i32
// CHECK-NEXT:    %[[CM2962:.*]] = arith.constant -2962 : i32
// CHECK-NEXT:    %[[V12:.*]] = arith.addi %[[V10]], %[[CM2962]] : i32
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[P7:.*]] = arith.subi %[[C32]], %[[V12]] : i32
// CHECK-NEXT:    %[[CEDGE:.*]] = arith.constant 2147480641 : i32
// CHECK-NEXT:    %[[NONE:.*]] = arith.cmpi sle, %[[Q]], %[[CEDGE]] : i32
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[Q]], %[[CEDGE]] : i32
// CHECK-NEXT:    %[[CHI:.*]] = arith.constant 2147480645 : i32
// CHECK-NEXT:    %[[LE:.*]] = arith.cmpi sle, %[[Q]], %[[CHI]] : i32
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R1:.*]] = interval.range %[[Z]], %[[P7]] : i32
// CHECK-NEXT:    %[[E:.*]] = interval.empty
// CHECK-NEXT:    %[[S1:.*]] = interval.select %[[NONE]], %[[R1]], %[[E]]
// CHECK-NEXT:    %[[R2:.*]] = interval.span %[[D]] * -1 + 3000 width 1 : i32
// CHECK-NEXT:    %[[SOME:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:    %[[S2:.*]] = interval.select %[[SOME]], %[[R2]], %[[E]]
// CHECK-NEXT:    %[[U:.*]] = interval.union %[[S1]], %[[S2]]
// CHECK-NEXT:    %[[KEEP:.*]] = interval.keep_word %[[U]] : i32
// CHECK-NEXT:    mask.yield %[[KEEP]] : i32
// CHECK-NEXT:  }

// With one run allowed it stays per-lane: the note names the wrap split and
// the least max-intervals that packs, checked.
// ONE-LABEL: mask.func @wrapped_conjunction window unpacked "2 ranges exceed max-intervals=1 at {{.*}}: a comparison is split in two runs where a value it compares wraps around (at `lane + kv - 2147483647 >= 0`) (integer arithmetic wraps, as in torch); raise max-intervals (pack-mask{max-intervals=N}, compile_mask(..., max_intervals=N)): max-intervals=2 packs it (checked); if the wrap is not meant, compare int64 values (`kv_idx.to(torch.int64) + 1`), which do not wrap" {
// ONE-NOT:     interval.
// ONE:         mask.yield %{{.*}} : i1
