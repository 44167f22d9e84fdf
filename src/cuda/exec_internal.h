/* The GPU executors' shared state (src/cuda only): device buffers per tensor and weight
 * copy, per-op GEMM plans, streams. serial.cu owns buffers and op launches; cmp.cu builds
 * the multistream graph from the same launches. */
#ifndef MRT_EXEC_INTERNAL_H
#define MRT_EXEC_INTERNAL_H

#include <cuda_runtime.h>

#include "gpu.h"
#include "internal.h"

#include "trace_gpu.h"

#define MRT_MAX_COPIES 16
#define MRT_CMP_STREAMS 3
#define MRT_CMP_EVENTS 16

/* The megakernel's device copies of the plan: instructions, the OperandPtrTable
 * ([copies][plan ops] rows of src/cuda/mega_op.h), never-reset event counters and
 * reduce-group tickets, the CTA launch count, gemm_fp8 split partials (F1: its slices' pairs
 * and counts) per graph op, and
 * the dynamic shared memory each CTA gets. */
typedef struct mrt_gpu_mega {
    uint32_t *instr;
    void *table;
    unsigned *events, *tickets;
    unsigned *launches; /* CTAs started since the last reload (the kernel's step number) */
    bool loaded;
    float *part[MRT_MAX_OPS];
    int smem, tn; /* dynamic shared memory a CTA; the plan's GEMM tile width (kernel instance) */
} mrt_gpu_mega;

typedef struct op_state {
    float *c;                          /* gemm_fp8: reduced fp32 output [M, N] */
    void *ws;                          /* GEMM split-K workspace */
    mrt_gpu_gemm gemm[MRT_MAX_COPIES]; /* GEMM launch plans, one per weight copy */
    bool fused;                        /* gemm_fp8: fused_gemm holds plans with the finalization in
                                          the GEMM's store, for launches with MRT_LAUNCH_FUSED */
    mrt_gpu_gemm fused_gemm[MRT_MAX_COPIES];
} op_state;

struct mrt_gpu_exec {
    mrt_context *ctx;
    mrt_plan *p;
    const mrt_graph *g;
    int copies;
    void *dev[MRT_MAX_TENSORS][MRT_MAX_COPIES];
    size_t bytes[MRT_MAX_TENSORS];
    op_state op[MRT_MAX_OPS];
    cudaStream_t stream;
    cudaGraphExec_t graph[MRT_MAX_COPIES];     /* serial step graphs, per copy */
    cudaStream_t side[MRT_CMP_STREAMS];        /* cmp: the branches' streams */
    cudaEvent_t ev[MRT_CMP_EVENTS];            /* cmp: fork / join points */
    cudaGraphExec_t cmp_graph[MRT_MAX_COPIES]; /* cmp step graphs, per copy */
    int cmp_prog_joins;                        /* cmp: cross-stream joins of the last capture made
                                                  programmatic edges */
    unsigned delay_ns;                         /* tests: A0 holds its outputs back */
    mrt_gpu_mega mega;                         /* the megakernel's device state */
    mrt_gpu_stamps stamps;                     /* traced steps: records and launch table */
    unsigned long long *mega_stamps;           /* traced mega steps: [workers][max_len][phases] */
    char why[512];
};

static inline bool rotates(const mrt_tensor *t) { return t->role == MRT_ROLE_WEIGHT || t->role == MRT_ROLE_CACHE; }

/* Device pointer of tensor `tensor` for weight/cache copy `copy`. */
void *mrt_gpu_dev(mrt_gpu_exec *x, int tensor, int copy);
/* Launches op's kernels (a GEMM and its finalization are one op; one kernel where the op has
 * a fused plan: the serial executor's launch) on `stream`; pdl = 1 lets the first kernel
 * start before the previous kernel in that stream ends. */
mrt_status mrt_gpu_launch_op(mrt_gpu_exec *x, const mrt_op *op, int copy, void *stream, int pdl);
/* The same in two parts: MRT_LAUNCH_FIRST the op's first kernel, which reads only the op's
 * first mrt_gpu_op_first_inputs(op) inputs (an fp8 GEMM: x8, sx, w, sw), MRT_LAUNCH_REST the
 * kernels after it (the GEMM's finalization, which reads the rest too: cmp joins the producers
 * of those inputs in between, so D1's GEMM does not wait for the head gate C0). */
enum { MRT_LAUNCH_FIRST = 1, MRT_LAUNCH_REST = 2, MRT_LAUNCH_ALL = 3,
       MRT_LAUNCH_FUSED = 4 /* the serial executor's: an op with a fused plan runs it (one kernel) */ };
int mrt_gpu_op_first_inputs(const mrt_op *op);
mrt_status mrt_gpu_launch_op_part(mrt_gpu_exec *x, const mrt_op *op, int copy, void *stream, int pdl, int part);
mrt_status mrt_gpu_cuda_fail(mrt_gpu_exec *x, int e, const char *what);
/* Where Q_B's finalization (D0) writes its roped q_pe in every GPU executor: straight into the
 * FlashMLA query (qmla's last rope columns, beside the absorbed part D2 writes), not into the
 * graph's q_pe workspace, which D2 would otherwise copy (serial.cu). Sets e's qmla fields. */
mrt_status mrt_gpu_q_b_query(mrt_gpu_exec *x, const mrt_op *op, int copy, struct mrt_gpu_epi *e);
/* Issues one serial step (every op in plan order on x->stream): what its graph captures.
 * (The cmp executor's counterpart, mrt_gpu_cmp_launch, is declared in bench.h.) */
mrt_status mrt_gpu_serial_launch(mrt_gpu_exec *x, int copy);
/* One megakernel step; stamps: NULL, or [workers][max_len][MRT_PH_COUNT] device stamps
 * (launches the traced instantiation). */
mrt_status mrt_gpu_mega_launch(mrt_gpu_exec *x, int copy, int reload, unsigned long long *stamps);
/* Fills the megakernel's OperandPtrTable (host rows_host: copies x plan ops rows of
 * mrt_mega_op) for `smem` bytes of shared memory a CTA; refuses ops it cannot run. */
mrt_status mrt_gpu_mega_table(mrt_gpu_exec *x, int smem, void *rows_host);
/* Launches the step `issue` enqueues for `copy` as a CUDA graph, captured into *cache on
 * first use; refuses a copy out of range. */
mrt_status mrt_gpu_graph_step(mrt_gpu_exec *x, int copy, const char *what, mrt_status (*issue)(mrt_gpu_exec *, int),
                              cudaGraphExec_t *cache);

#endif
