/* Internal structures of the host runtime: graph, regions, tasks, events, plans.
 * Only src/, models/, tools/ and white-box tests include this. */
#ifndef MRT_INTERNAL_H
#define MRT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>

#include "megartp.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mrt_context {
    char err[1024];
};

/* Records a message in ctx (printf-style) and returns s, so callers write
 * `return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: ...", ...)`. */
mrt_status mrt_fail(mrt_context *ctx, mrt_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

struct mrt_tensor {
    int id;
    char name[32];
    mrt_dtype dtype;
    mrt_role role;
    int ndim;
    int64_t dims[MRT_MAX_DIMS];
    int producer; /* op id, -1 if none */
};

struct mrt_op {
    int id;
    int kind; /* index into the op class table (= opcode) */
    char name[16];
    int n_in, n_out;
    int in[MRT_MAX_OP_IO], out[MRT_MAX_OP_IO];
    mrt_op_params p;
};

struct mrt_graph {
    mrt_context *ctx;
    int n_tensors, n_ops;
    struct mrt_tensor tensors[MRT_MAX_TENSORS];
    struct mrt_op ops[MRT_MAX_OPS];
};

/* A tensor viewed as 2D: rows = dims[0], cols = product of the other dims ([n] is n x 1).
 * Every region is a box in that view. */
int64_t mrt_tensor_rows(const struct mrt_tensor *t);
int64_t mrt_tensor_cols(const struct mrt_tensor *t);

/* 32-bit coordinates keep the region tables small (a plan build touches them all). */
typedef struct mrt_box {
    int32_t r0, r1, c0, c1; /* half-open */
} mrt_box;

static inline bool mrt_box_empty(mrt_box b) { return b.r0 >= b.r1 || b.c0 >= b.c1; }
static inline bool mrt_box_overlap(mrt_box a, mrt_box b) {
    return a.r0 < b.r1 && b.r0 < a.r1 && a.c0 < b.c1 && b.c0 < a.c1;
}
static inline bool mrt_box_contains(mrt_box outer, mrt_box in) {
    return outer.r0 <= in.r0 && in.r1 <= outer.r1 && outer.c0 <= in.c0 && in.c1 <= outer.c1;
}
static inline bool mrt_box_equal(mrt_box a, mrt_box b) {
    return a.r0 == b.r0 && a.r1 == b.r1 && a.c0 == b.c0 && a.c1 == b.c1;
}
/* True if the union of boxes[0..n) covers `target`; if not and gap != NULL, one uncovered
 * cell's box (a sub-box of target no box touches) is written there. */
bool mrt_boxes_cover(const mrt_box *boxes, int n, mrt_box target, mrt_box *gap);
/* True if no two of boxes[0..n) overlap (n <= 256). */
bool mrt_boxes_disjoint(const mrt_box *boxes, int n);

/* ---- tasks: what the tiling of one op produces ---------------------------------------- */

enum { MRT_ACC_READ = 0, MRT_ACC_WRITE = 1, MRT_ACC_PARTIAL = 2 };

/* A declared access. Writes carry the publication that makes them visible: a small
 * op-defined id. A publication is either the task's own (`group` < 0) or its reduce
 * group's: then exactly one member, the last to finish its partial, performs it. */
typedef struct mrt_access {
    int tensor;
    int kind;
    int pub;
    mrt_box box;
} mrt_access;

#define MRT_MAX_ACCESS 4096 /* regions of one task (a cache write spans one box per request) */

typedef struct mrt_task {
    int op;   /* graph op id */
    int index; /* tile index within the op */
    uint32_t payload[MRT_PAYLOAD_WORDS];
    int acc0, n_acc; /* its accesses: plan->acc[acc0 .. acc0 + n_acc) */
    int group;          /* reduce group id, -1 if none */
    uint32_t group_pubs; /* bit p set: publication p is done by the group's finalizer */
    int n_wait, n_sig;
    mrt_wait wait[MRT_MAX_WAITS];
    mrt_signal sig[MRT_MAX_SIGNALS];
    int worker, slot; /* placement */
    double cost;      /* bytes moved, for the placement's cost model (schedule.c) */
    double flops;     /* its arithmetic (2 x multiply-adds), for the same */
} mrt_task;

/* A reduce group: split-K tasks whose partials one finalizer reduces (in fixed split
 * order, so results are deterministic). The ticket counter picks the finalizer. */
typedef struct mrt_group {
    int op;
    int members;
    int first_task; /* members are the tasks first_task .. first_task + members - 1 */
} mrt_group;

/* A publication instance: the unit that signals an event once (increment 1). */
typedef struct mrt_pubinst {
    int task;  /* publishing task, or -1 for a group publication */
    int group; /* group id for a group publication, else -1 */
    int pub;
} mrt_pubinst;

typedef struct mrt_write {
    int inst, kind;
    mrt_box box;
} mrt_write;

typedef enum { MRT_STRAT_WHOLE, MRT_STRAT_TILE, MRT_STRAT_COVER, MRT_STRAT_REDUCE } mrt_strategy;
const char *mrt_strategy_name(mrt_strategy s);

typedef struct mrt_event {
    int id;
    uint32_t threshold;
    mrt_strategy strategy;
    int producer_op, tensor; /* the edge it was made for (first one, if shared) */
    int n_prod;
    int prod0; /* index into plan->ev_prod (publication instance ids) */
    int n_cons;
} mrt_event;

/* ---- the tiler: how an op emits its tiles ---------------------------------------------- */

typedef struct mrt_tile_cfg {
    int block_m, block_n, split, chunk;
    int tasks; /* default tiling of split-K ops: the tasks it makes (plan.c share_workers); else 0 */
} mrt_tile_cfg;

typedef struct mrt_tiler mrt_tiler;
/* Starts a new task of the current op (the bytes it moves and its arithmetic, for the cost
 * model); returns its payload to fill. */
uint32_t *mrt_tiler_task(mrt_tiler *t, double bytes, double flops);
void mrt_tiler_read(mrt_tiler *t, const struct mrt_tensor *tensor, mrt_box box);
void mrt_tiler_write(mrt_tiler *t, const struct mrt_tensor *tensor, mrt_box box, int pub);
void mrt_tiler_partial(mrt_tiler *t, const struct mrt_tensor *tensor, mrt_box box, int pub);
/* Opens a reduce group of `members` tasks; the next `members` tasks join it and
 * publications in `group_pubs` (bit mask) become the group's. Returns its ticket id. */
uint32_t mrt_tiler_group(mrt_tiler *t, int members, uint32_t group_pubs);
/* Sets the physical partial count of an op output written with mrt_tiler_partial. */
void mrt_tiler_set_partials(mrt_tiler *t, const struct mrt_tensor *tensor, int partials);
/* Asks for an op-private scratch tensor (split-K partials); returns its tensor id. */
int mrt_tiler_scratch(mrt_tiler *t, const char *name, mrt_dtype dtype, int64_t rows, int64_t cols);
const struct mrt_tensor *mrt_tiler_tensor(mrt_tiler *t, int id);

/* ---- op classes ---------------------------------------------------------------------- */

typedef struct mrt_cpu_tile mrt_cpu_tile; /* defined in src/cpu/cpu.h */

typedef struct mrt_op_class {
    const char *name;
    int opcode;
    int n_in, n_out; /* exact counts, or -1 where the op's check decides (by params) */
    /* Shapes and dtypes; writes a message naming the op and the tensor into ctx. */
    mrt_status (*check)(mrt_context *ctx, const mrt_graph *g, const struct mrt_op *op);
    /* Tile parameters for the `default` tiling (seed comes from the op params). */
    mrt_tile_cfg (*default_cfg)(const mrt_graph *g, const struct mrt_op *op, int workers);
    /* Emits the op's tasks with their regions. */
    mrt_status (*tile)(mrt_tiler *t, const mrt_graph *g, const struct mrt_op *op,
                       mrt_tile_cfg cfg);
    /* Checks runtime input values the plan depends on (positions, block tables) before
     * anything is written; NULL if the op has none. slot = the op's operand row. */
    mrt_status (*check_inputs)(mrt_context *ctx, const mrt_plan *p, const struct mrt_op *op, void *const *slot);
    /* Runs one task on the CPU (reference tile function): its own work (phase MAIN) and,
     * for ops with has_final, the finalization its reduce group owes (phase FINAL). */
    void (*cpu)(const mrt_cpu_tile *c);
    bool has_final;
    /* The step's tokens a task computes for (rows of its tile), for the placement's cost
     * model (schedule.c), from its payload. */
    int (*tokens)(const uint32_t *payload);
} mrt_op_class;

/* tokens() of the ops whose payload starts with their row range [m0, m1). */
int mrt_payload_rows(const uint32_t *payload);

const mrt_op_class *mrt_op_class_find(const char *name);
const mrt_op_class *mrt_op_class_get(int kind);
int mrt_op_class_count(void);

/* Pairing registry: the fine strategy known for (producer kind, consumer kind), or
 * MRT_STRAT_WHOLE. */
mrt_strategy mrt_pairing_lookup(int producer_kind, int consumer_kind);

/* ---- the plan -------------------------------------------------------------------------- */

typedef struct mrt_plan_tensor {
    struct mrt_tensor t; /* graph tensor, or op scratch */
    int partials;        /* physical copies (>1 for split-K partial outputs) */
    int scratch_of;      /* op id for op scratch, -1 for graph tensors */
    bool planned_input;  /* produced by an op left out of the plan (--ops) */
} mrt_plan_tensor;

/* A tiling tuning planned (plan.c build_tuned): its options and its cost-model step. */
typedef struct mrt_tune_cand {
    char opts[160];     /* "--split D1=2 --chunk E1=256"; "" for the default tiling */
    double estimate_us; /* under auto's placement */
} mrt_tune_cand;

struct mrt_plan {
    mrt_context *ctx;
    const mrt_graph *g;
    mrt_plan_opts opts;
    int n_ops;
    int ops[MRT_MAX_OPS]; /* graph op ids in plan order (topological); plan op i = row i */
    int op_row[MRT_MAX_OPS]; /* graph op id -> operand row, -1 if not planned */
    mrt_tile_cfg cfg[MRT_MAX_OPS]; /* by graph op id */
    int op_first_task[MRT_MAX_OPS], op_tasks[MRT_MAX_OPS]; /* by graph op id */
    int place_lo[MRT_MAX_OPS], place_hi[MRT_MAX_OPS]; /* by graph op id: --place's workers, -1 = all */

    int n_tensors;
    mrt_plan_tensor *tensors; /* graph tensors first (same ids), then scratch */

    int n_tasks;
    mrt_task *tasks;
    int n_acc;
    mrt_access *acc; /* every task's declared accesses, task by task */
    int n_groups;
    mrt_group *groups;

    int n_pubs;
    mrt_pubinst *pubs;
    int *task_inst, *group_inst; /* [task * 8 + pub], [group * 8 + pub] -> instance id */
    int *wr_first;               /* [n_tensors + 1]: each tensor's writes in wr */
    mrt_write *wr;               /* every declared write, by tensor, with its instance */

    int n_events;
    mrt_event *events;
    int *ev_prod; /* publication instance ids */

    int workers, max_len;
    int *queue_len;
    uint32_t *instr;    /* [workers, max_len, 32] */
    uint64_t *operands; /* [n_ops, 16]: filled when buffers are bound */
    double build_us;
    double phase_us[5]; /* validate + configure, tile + lower, place (each summed over every
                           tiling the build planned: plan.c build_phases), encode, verify */
    double estimate_us; /* the step under the placement cost model (schedule.c) */
    mrt_policy placed;  /* the policy its queues come from (opts.policy, AUTO resolved) */
    double auto_other_us; /* AUTO: the estimate of the placement not taken (else 0) */
    int max_slices;       /* add-RMSNorm-quant's default row slices at most this many, 0: as its
                             default (plan.c build_queues) */
    char tuned[160];      /* tuning's options where it changed the tiling (plan.c), else "" */
    int n_tune;           /* tuning's plans (plan.c build_tuned; 0 when it did not run) */
    mrt_tune_cand tune[3];
};

static inline const mrt_access *mrt_task_acc(const struct mrt_plan *p, const mrt_task *k) { return p->acc + k->acc0; }

mrt_status mrt_lower(mrt_plan *p);    /* tiles -> tasks, groups, events (lower.c) */
mrt_status mrt_schedule(mrt_plan *p); /* tasks -> queues and their cost-model step, estimate_us (schedule.c) */
mrt_status mrt_encode(mrt_plan *p);   /* queues -> instruction tensor (isa.c) */
/* The cost model (schedule.c): a task's time on its worker from its input, and that plus a
 * worker's step to its next instruction (what placement adds up). */
double mrt_task_time_us(const mrt_plan *p, const mrt_task *k);
double mrt_task_cost_us(const mrt_plan *p, const mrt_task *k);
double mrt_cost_gap_us(void); /* the worker's step in mrt_task_cost_us */
int mrt_task_tokens(const mrt_plan *p, const mrt_task *k); /* its op's tokens(), 1 without one */
/* AUTO takes critical-path's queues when their estimate is below this share of roundrobin's
 * (schedule.c says why) */
#define MRT_AUTO_RATIO 0.97
/* ... except where no task works on more than this many tokens: there critical-path unless
 * its estimate is above roundrobin's */
#define MRT_AUTO_CP_TOKENS 16
/* ... and never above that where an index-logits op has more than this many times as many
 * tasks as workers (schedule.c) */
#define MRT_AUTO_IL_WAVES 1.5
bool mrt_plan_il_waves(const mrt_plan *p);

double mrt_now_us(void);
void *mrt_xcalloc(size_t n, size_t size);

/* The plan a trace was made for. */
const mrt_plan *mrt_trace_plan(const mrt_trace *t);

#ifdef __cplusplus
}
#endif

#endif
