/* megartp: a C runtime that runs the decode step of an LLM layer as one persistent GPU
 * kernel driven by a host-generated plan, and the same graph as the schedules it competes
 * with. This header is the whole public API: contexts and errors, the OpGraph, plans,
 * executors. See docs/ARCHITECTURE.md.
 *
 * Pipeline: OpGraph (tensors, ops) -> TaskGraph (tiles, regions, events) -> Plan
 * (per-worker instruction queues, OperandPtrTable) -> executor (cpu | serial | cmp | mega). */
#ifndef MEGARTP_H
#define MEGARTP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "megartp_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status and context ------------------------------------------------------------ */

typedef enum mrt_status {
    MRT_OK = 0,
    MRT_ERR_INVALID,     /* a bad argument: null, out of range, unknown name */
    MRT_ERR_SHAPE,       /* shapes of an op's tensors do not fit together */
    MRT_ERR_DTYPE,       /* a tensor has the wrong element type for its slot */
    MRT_ERR_GRAPH,       /* a cycle, a tensor with two producers, an op with no outputs */
    MRT_ERR_UNKNOWN_OP,  /* no op kind of that name */
    MRT_ERR_RACE,        /* a plan whose reads are not protected by its waits */
    MRT_ERR_DEADLOCK,    /* a plan whose queues cannot all finish */
    MRT_ERR_LIMIT,       /* a fixed capacity (ABI fields, table sizes) is exceeded */
    MRT_ERR_NOMEM,
    MRT_ERR_MISMATCH,    /* a result differs from its reference beyond tolerance */
    MRT_ERR_UNSUPPORTED  /* valid, but not built here (no GPU, no CUDA) */
} mrt_status;

const char *mrt_status_name(mrt_status s);

/* A context owns every graph, plan and buffer made through it and holds the message
 * of the last error. Library calls never exit or abort. */
typedef struct mrt_context mrt_context;

mrt_context *mrt_context_new(void);
void mrt_context_free(mrt_context *ctx);
const char *mrt_last_error(const mrt_context *ctx);

/* ---- OpGraph ----------------------------------------------------------------------- */

typedef enum mrt_dtype { MRT_BF16, MRT_E4M3, MRT_F32, MRT_I32, MRT_U8, MRT_DTYPE_COUNT } mrt_dtype;
typedef enum mrt_role {
    MRT_ROLE_INPUT,     /* supplied every step (activations, positions, block table) */
    MRT_ROLE_WEIGHT,    /* bound once */
    MRT_ROLE_OUTPUT,    /* read by the caller after the step */
    MRT_ROLE_WORKSPACE, /* produced and consumed inside the step */
    MRT_ROLE_CACHE,     /* persistent across steps, updated in place (KV caches) */
    MRT_ROLE_COUNT
} mrt_role;

#define MRT_MAX_DIMS 4
#define MRT_MAX_OP_IO 12
#define MRT_MAX_TENSORS 128
#define MRT_MAX_OPS 32

typedef struct mrt_graph mrt_graph;
typedef struct mrt_tensor mrt_tensor;
typedef struct mrt_op mrt_op;

/* Op parameters: small op-defined integers and floats (documented per op kind in
 * src/ops/<kind>.c). Tiling hints for the article's `seed` tiling also live here. */
typedef struct mrt_op_params {
    int32_t i[8];
    float f[4];
    int32_t seed_block_m, seed_block_n, seed_split, seed_chunk; /* 0 = op default */
} mrt_op_params;

mrt_graph *mrt_graph_new(mrt_context *ctx);
void mrt_graph_free(mrt_graph *g);

/* A tensor of up to 4 dims. Returns NULL (with a message in ctx) on bad arguments. */
mrt_tensor *mrt_tensor_new(mrt_graph *g, const char *name, mrt_dtype dtype, mrt_role role,
                           int ndim, const int64_t *dims);

/* An op of kind `kind` (e.g. "gemm_fp8"), reading `in` and writing `out`. The op's shapes
 * and dtypes are checked by mrt_graph_validate, not here, so a graph can be assembled in
 * any order. Returns NULL on an unknown kind or bad arguments. */
mrt_op *mrt_op_new(mrt_graph *g, const char *kind, const char *name, int n_in,
                   mrt_tensor *const *in, int n_out, mrt_tensor *const *out,
                   const mrt_op_params *params);

/* Checks the whole graph: known kinds, every op's shapes and dtypes, one producer per
 * tensor, no cycles, no empty dimension. */
mrt_status mrt_graph_validate(mrt_graph *g);

int mrt_graph_num_ops(const mrt_graph *g);
int mrt_graph_num_tensors(const mrt_graph *g);
mrt_op *mrt_graph_op(const mrt_graph *g, int i);
mrt_op *mrt_graph_find_op(const mrt_graph *g, const char *name);
mrt_tensor *mrt_graph_tensor(const mrt_graph *g, int i);
mrt_tensor *mrt_graph_find_tensor(const mrt_graph *g, const char *name);
const char *mrt_op_name(const mrt_op *op);
const char *mrt_op_kind(const mrt_op *op);
const char *mrt_tensor_name(const mrt_tensor *t);
int mrt_tensor_id(const mrt_tensor *t); /* its index: buffers[] of the executors use it */
mrt_dtype mrt_tensor_dtype(const mrt_tensor *t);
mrt_role mrt_tensor_role(const mrt_tensor *t);
int mrt_tensor_ndim(const mrt_tensor *t);
int64_t mrt_tensor_dim(const mrt_tensor *t, int d);
size_t mrt_tensor_bytes(const mrt_tensor *t); /* logical size (one partial) */
size_t mrt_dtype_size(mrt_dtype d);
const char *mrt_dtype_name(mrt_dtype d);

/* ---- Plans ------------------------------------------------------------------------- */

typedef enum mrt_policy {
    MRT_POLICY_ROUNDROBIN,    /* task i -> worker i % workers (the article's) */
    MRT_POLICY_CRITICAL_PATH, /* list scheduling by longest remaining path under a cost model
                                 fitted to the megakernel's trace */
    MRT_POLICY_AUTO           /* the default: both, and critical-path's queues where the cost
                                 model puts its step more than 3% below roundrobin's, or no
                                 higher where no task has more than 16 tokens; roundrobin
                                 when `place` is given (mrt_plan_info.policy: the one taken) */
} mrt_policy;
const char *mrt_policy_name(mrt_policy p); /* "roundrobin", "critical-path", "auto" (the CLI's) */
typedef enum mrt_tiling { MRT_TILING_DEFAULT, MRT_TILING_SEED } mrt_tiling;
typedef enum mrt_pairing { MRT_PAIRING_AUTO, MRT_PAIRING_WHOLE } mrt_pairing;

typedef struct mrt_plan_opts {
    int workers;        /* queues, one per SM (default 132, an H200) */
    mrt_policy policy;
    mrt_tiling tiling;
    mrt_pairing pairing; /* WHOLE forces the `whole` strategy on every edge */
    int fuse_events;     /* merge events whose producers are the same tasks (Mirage) */
    const char *ops;     /* comma list of op names to plan, NULL = the tiling's default */
    const char *order;   /* comma list: the planned ops in this order (producers first), which
                            serial launches and roundrobin deals out in; NULL = plan.c's rule */
    const char *split;   /* comma list OP=N: split-K N for those GEMMs (a divisor of their K
                            blocks), after the tiling's rules; NULL = the tiling's */
    const char *place;   /* comma list OP=LO-HI (or OP=W): those ops' tasks on workers LO..HI only
                            (roundrobin deals them over the range, the other ops keep the
                            rotation; critical-path lets only the range take them; AUTO means
                            roundrobin); NULL = none */
    const char *chunk;   /* comma list OP=N: N keys a task for those chunked ops (index logits;
                            a multiple of 128), after the tiling's rules; NULL = the tiling's */
    const char *block_n; /* comma list OP=N: N output columns (weight rows) a task of those FP8
                            GEMMs, 128 or 256 (the megakernel's tall tiles, at up to 32 tokens a
                            task), after the tiling's rules; NULL = the tiling's (128) */
    int tune;            /* AUTO, default tiling, no split / chunk / place given: also plan the
                            indexer branch in fewer, larger tasks and keep the plan the cost
                            model prices lowest by a margin (plan.c; default 1; 0: one plan) */
} mrt_plan_opts;

mrt_plan_opts mrt_plan_opts_default(void);

typedef struct mrt_plan mrt_plan;

/* Validates the graph, expands tiles, lowers to tasks and events, places queues, encodes
 * instructions and runs the verifier. On error *out is NULL and ctx holds the message. */
mrt_status mrt_plan_build(mrt_graph *g, const mrt_plan_opts *opts, mrt_plan **out);
void mrt_plan_free(mrt_plan *p);

/* Proves the plan race-free and deadlock-free from its encoded instructions. */
mrt_status mrt_plan_verify(mrt_plan *p);

typedef struct mrt_plan_info {
    int tasks, events, workers, max_len, ops;
    double build_us;             /* graph validation to verified plan */
    const uint32_t *instr;       /* [workers, max_len, 32] */
    const int *queue_len;        /* [workers] real (non-NoOp) instructions: a queue's first queue_len
                                  * slots; NoOps pad the rest, and the megakernel stops before them */
    mrt_policy policy;           /* the placement its queues come from (never AUTO) */
    double estimate_us;          /* the step under the placement's cost model */
    const char *tuned;           /* the options tuning chose ("--split D1=2 --chunk E1=256"), or "" */
} mrt_plan_info;

mrt_plan_info mrt_plan_get_info(const mrt_plan *p);

/* Human table (json = 0) or one JSON object (json = 1). */
mrt_status mrt_plan_print(const mrt_plan *p, FILE *f, int json);

/* ---- traces ------------------------------------------------------------------------ */

/* A trace of one step. Task traces (cpu, mega): per plan task, its worker track and phase
 * stamps. CTA traces (the stream executors serial, cmp): per kernel launch its op, stream and
 * kernel name, and per CTA its SM and start / inputs-ready / end stamps. Times are in us on
 * one clock. megartp writes Chrome trace-event JSON (Perfetto, chrome://tracing) and a
 * self-contained HTML timeline, with the metrics below. */
typedef struct mrt_trace mrt_trace;

typedef enum mrt_phase {
    MRT_PH_VISIBLE,   /* the instruction is decoded and visible to its roles */
    MRT_PH_WEIGHTS,   /* weight loads issued */
    MRT_PH_INPUT,     /* its waits are met: main input ready */
    MRT_PH_COMPUTED,  /* compute done */
    MRT_PH_PUBLISHED, /* outputs published (events signalled) */
    MRT_PH_COUNT
} mrt_phase;

typedef struct mrt_trace_metrics {
    double span_us;         /* first stamp to last */
    double active_ratio;    /* busy time of all tracks / (span x tracks); busy: an instruction
                               from input ready to published, a CTA from start to end */
    int gap_count;          /* gaps: stretches where no unit runs anywhere; units are ops in a
                               task trace, kernel launches in a CTA trace */
    double gap_median_us, gap_total_us, gap_pct;
    int critical_len;       /* tasks (through the events) or kernel launches (through stream
                               order and data dependences) on the critical path */
    double critical_us;     /* its length: first start to last end */
    double tick_us;         /* the smallest gap between two distinct stamps: the clock's
                               resolution is at most this (%globaltimer can tick coarsely) */
} mrt_trace_metrics;

mrt_trace *mrt_trace_new(mrt_plan *p, const char *executor);
void mrt_trace_free(mrt_trace *t);
/* Records task `task` on track `track` with its MRT_PH_COUNT stamps. */
void mrt_trace_add(mrt_trace *t, int task, int track, const double *stamps);
/* CTA traces: a kernel launch of graph op `op` on `stream`, in issue order; returns its
 * number, or -1 (bad op or stream, out of memory). */
int mrt_trace_add_launch(mrt_trace *t, int op, int stream, const char *kernel);
/* A CTA of launch `launch` ran on SM `sm` from start to end; its inputs were ready at `ready`
 * (its PDL wait returned; pass start where it waited for nothing). */
void mrt_trace_add_cta(mrt_trace *t, int launch, int sm, double start, double ready, double end);
/* Tracks the active ratio divides by (the device's SMs, the plan's workers); default: the
 * highest track seen + 1. */
void mrt_trace_set_tracks(mrt_trace *t, int tracks);
mrt_trace_metrics mrt_trace_get_metrics(const mrt_trace *t);
/* Prints the metrics, per-op timings and the critical path for people. */
void mrt_trace_print(const mrt_trace *t, FILE *f);
mrt_status mrt_trace_write_json(const mrt_trace *t, FILE *f);
mrt_status mrt_trace_write_html(const mrt_trace *t, FILE *f);

/* ---- executors --------------------------------------------------------------------- */

typedef struct mrt_cpu_opts {
    uint64_t seed;   /* seeds the interleaving: a run is reproducible from its seed */
    int threads;     /* 0: one thread, seeded random interleaving, race detection on;
                        N > 0: the queues on N real threads (no race detection) */
    int check_races; /* with threads == 0: track every region and reject unprotected reads */
    mrt_trace *trace; /* NULL, or filled with each task's interval on its worker's track */
} mrt_cpu_opts;

mrt_cpu_opts mrt_cpu_opts_default(void);

/* Runs one step of the plan on the CPU. buffers[i] is the host buffer of graph tensor i:
 * required for inputs, weights, outputs, caches and tensors whose producer is not in the
 * plan; workspaces may be NULL (then allocated, poisoned, and freed). Inputs the plan
 * depends on (positions, block tables) are checked before anything is written. */
mrt_status mrt_cpu_run(mrt_plan *p, void *const *buffers, const mrt_cpu_opts *o);

/* GPU executors (CUDA builds; elsewhere every call answers MRT_ERR_UNSUPPORTED).
 * An mrt_gpu_exec owns device buffers for every tensor of a plan's graph: one set of
 * activations and workspaces, and `copies` sets of weights and caches, so benchmarks can
 * rotate through more bytes than the L2 holds (tests use 1). */
typedef struct mrt_gpu_exec mrt_gpu_exec;

mrt_status mrt_gpu_exec_new(mrt_plan *p, int copies, mrt_gpu_exec **out);
void mrt_gpu_exec_free(mrt_gpu_exec *x);
/* Host <-> device for graph tensor `tensor`; `copy` selects a weight/cache copy (0 for
 * other tensors). Poison fills with 0xFF (NaN for floats, NaN codes for e4m3). All three are
 * in order with the executor's steps: upload and download wait for the steps already
 * launched and return when the copy is done; poison is queued behind them. */
mrt_status mrt_gpu_upload(mrt_gpu_exec *x, int tensor, int copy, const void *host);
mrt_status mrt_gpu_download(mrt_gpu_exec *x, int tensor, int copy, void *host);
mrt_status mrt_gpu_poison(mrt_gpu_exec *x, int tensor);
/* One step of the `serial` executor (one kernel per op, plan order, one stream) on weight
 * and cache copy `copy`; graph = 1 replays a CUDA graph captured on first use. Asynchronous:
 * mrt_gpu_sync waits and reports a device error (with the watchdog's records). */
mrt_status mrt_gpu_serial_step(mrt_gpu_exec *x, int copy, int graph);
/* One step of the `cmp` executor: the same kernels on several streams (independent
 * branches side by side), programmatic dependent launch inside a stream, as a CUDA graph
 * captured on first use per copy. Asynchronous, like mrt_gpu_serial_step. */
mrt_status mrt_gpu_cmp_step(mrt_gpu_exec *x, int copy);
/* One step of the persistent megakernel on weight/cache copy `copy`: every op of the GLM-5
 * prefix (an op it cannot run is refused with MRT_ERR_UNSUPPORTED, naming the op, on the
 * first step, which also builds its device tables for every copy). reload = 1 re-uploads the
 * plan's instructions (after editing the plan) and restarts the step count. Between reloads
 * event counters are never reset: step n waits for threshold * n, n counted on the device,
 * so steps may be captured into a CUDA graph (after a first, uncaptured step). A wait past
 * its bound traps; mrt_gpu_sync then reports the worker, instruction, event, expected and
 * seen count. */
mrt_status mrt_gpu_mega_step(mrt_gpu_exec *x, int copy, int reload);
mrt_status mrt_gpu_sync(mrt_gpu_exec *x);
/* Runs executor "serial", "cmp" or "mega" on copy `copy` with trace stamps on (a warm step,
 * then the recorded one) and records the step into t, made by mrt_trace_new for x's plan.
 * serial and cmp: every CTA of every kernel stamps %globaltimer at its start, when its
 * producer wait returns and at its end (SM tracks, one track per stream); their untraced
 * steps pass NULL records, so stamping costs one branch a kernel. mega: the traced
 * instantiation of the megakernel stamps each instruction's phases (worker tracks); the
 * untraced one has no stamp code. Synchronous. */
mrt_status mrt_gpu_trace_step(mrt_gpu_exec *x, const char *executor, int copy, mrt_trace *t);

#ifdef __cplusplus
}
#endif
#endif
