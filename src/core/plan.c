/* Plan building: choose the ops, their tiling, then lower, place, encode and verify. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "topk_split.h"

mrt_plan_opts mrt_plan_opts_default(void) {
    mrt_plan_opts o = {.workers = 132, .policy = MRT_POLICY_AUTO, .tiling = MRT_TILING_DEFAULT,
                       .pairing = MRT_PAIRING_AUTO, .fuse_events = 0, .ops = NULL, .order = NULL, .split = NULL,
                       .place = NULL, .chunk = NULL, .block_n = NULL, .tune = 1};
    return o;
}

const char *mrt_policy_name(mrt_policy p) {
    static const char *names[] = {[MRT_POLICY_ROUNDROBIN] = "roundrobin", [MRT_POLICY_CRITICAL_PATH] = "critical-path",
                                  [MRT_POLICY_AUTO] = "auto"};
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "unknown policy";
}

static bool has_seed(const mrt_op *op) {
    return op->p.seed_block_m || op->p.seed_block_n || op->p.seed_split || op->p.seed_chunk;
}

/* The op ids of a comma list of op names (option `what`), in list order; each name must be
 * an op of the graph and appear once. */
static mrt_status op_list(const mrt_plan *p, const char *list, const char *what, int *ids, int *n_ids) {
    const mrt_graph *g = p->g;
    bool seen[MRT_MAX_OPS] = {false};
    *n_ids = 0;
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char name[32];
        if (n == 0 || n >= sizeof name)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "%s: empty or overlong op name in \"%s\"", what, list);
        memcpy(name, s, n);
        name[n] = 0;
        const mrt_op *op = mrt_graph_find_op(g, name);
        if (!op) {
            char all[256] = "";
            for (int o = 0; o < g->n_ops; o++) {
                strcat(all, o ? "," : "");
                strcat(all, g->ops[o].name);
            }
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "%s: no op named \"%s\" (the graph has %s)", what, name, all);
        }
        if (seen[op->id]) return mrt_fail(p->ctx, MRT_ERR_INVALID, "%s: %s named twice", what, name);
        seen[op->id] = true;
        ids[(*n_ids)++] = op->id;
        s += n + (e ? 1 : 0);
    }
    return MRT_OK;
}

/* Marks the selected ops: the --ops list, or every op (the seed tiling: every op the
 * article planned, i.e. those with a seed configuration; F1 top-k was not among them). */
static mrt_status select_ops(mrt_plan *p, bool *sel) {
    const mrt_graph *g = p->g;
    if (!p->opts.ops || !*p->opts.ops) {
        for (int o = 0; o < g->n_ops; o++)
            sel[o] = p->opts.tiling != MRT_TILING_SEED || has_seed(&g->ops[o]);
        return MRT_OK;
    }
    int ids[MRT_MAX_OPS], n;
    mrt_status s = op_list(p, p->opts.ops, "--ops", ids, &n);
    for (int i = 0; i < n && !s; i++) sel[ids[i]] = true;
    return s;
}

/* The --order list as the plan's op order: exactly the selected ops, each after the planned
 * producers of its inputs. */
static mrt_status given_order(mrt_plan *p, const bool *sel) {
    const mrt_graph *g = p->g;
    int ids[MRT_MAX_OPS], n, pos[MRT_MAX_OPS];
    mrt_status s = op_list(p, p->opts.order, "--order", ids, &n);
    if (s) return s;
    for (int o = 0; o < g->n_ops; o++) pos[o] = -1;
    for (int i = 0; i < n; i++) {
        if (!sel[ids[i]]) return mrt_fail(p->ctx, MRT_ERR_INVALID, "--order: %s is not a planned op", g->ops[ids[i]].name);
        pos[ids[i]] = i;
    }
    for (int o = 0; o < g->n_ops; o++)
        if (sel[o] && pos[o] < 0)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--order: the planned op %s is missing", g->ops[o].name);
    for (int i = 0; i < n; i++) {
        const mrt_op *op = &g->ops[ids[i]];
        for (int k = 0; k < op->n_in; k++) {
            const int prod = g->tensors[op->in[k]].producer;
            if (prod >= 0 && sel[prod] && pos[prod] > i)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "--order: %s comes before its producer %s", op->name,
                                g->ops[prod].name);
        }
    }
    for (int i = 0; i < n; i++) p->ops[p->n_ops++] = ids[i];
    return MRT_OK;
}

/* Ops on the longest chain of consumers that starts at op o, o included; len[] memoizes
 * (0: not yet known), so each op is visited once. */
static int chain_len(const mrt_graph *g, int o, int *len) {
    if (len[o]) return len[o];
    int best = 0;
    for (int c = 0; c < g->n_ops; c++)
        for (int i = 0; i < g->ops[c].n_in; i++)
            if (g->tensors[g->ops[c].in[i]].producer == o) {
                const int l = chain_len(g, c, len);
                best = l > best ? l : best;
                break;
            }
    return len[o] = best + 1;
}

/* Topological order of the selected ops. Seed tiling (the article's plan): stable by op id,
 * the graph's order when it is one. Default tiling: of the ops whose producers are placed,
 * the one that starts the longest chain of consumers first (ties: op id). Roundrobin gives
 * tasks to workers in this order and each worker runs its queue in it, so an op that feeds
 * a longer chain is not queued behind one that ends sooner: for GLM-5, E1 (-> F1) comes
 * before D2 (a leaf), A0 B0 C0 B1 D1 D0 E1 D2 F1 instead of the article's ... D0 D2 E1 F1;
 * the megakernel's step 100.73 / 101.69 us against 110.77 / 110.70 (H200, session 11 run
 * 3, roundrobin), serial and cmp unchanged. (A global sort by chain length instead, E1 ahead
 * of D0 in every queue, measured worse: session 9 run 6.) */
static void order_ops(mrt_plan *p, const bool *sel) {
    const mrt_graph *g = p->g;
    bool done[MRT_MAX_OPS] = {false};
    int len[MRT_MAX_OPS] = {0};
    if (p->opts.tiling != MRT_TILING_SEED)
        for (int o = 0; o < g->n_ops; o++) chain_len(g, o, len);
    for (int placed = 0; placed < g->n_ops; placed++) {
        int pick = -1;
        for (int o = 0; o < g->n_ops; o++) {
            if (done[o]) continue;
            bool ready = true;
            for (int i = 0; i < g->ops[o].n_in && ready; i++) {
                int prod = g->tensors[g->ops[o].in[i]].producer;
                ready = prod < 0 || done[prod];
            }
            if (ready && (pick < 0 || len[o] > len[pick])) pick = o;
        }
        if (pick < 0) break; /* a cycle: mrt_graph_validate refuses those before a plan */
        done[pick] = true;
        if (sel[pick]) p->ops[p->n_ops++] = pick;
    }
}

static mrt_tile_cfg pick_cfg(const mrt_plan *p, const mrt_op *op) {
    mrt_tile_cfg c = mrt_op_class_get(op->kind)->default_cfg(p->g, op, p->opts.workers);
    if (p->max_slices && op->kind == MRT_OPC_ADD_RMSNORM_QUANT && c.split > p->max_slices)
        c.split = p->max_slices; /* build_queues' next try */
    if (p->opts.tiling == MRT_TILING_SEED) {
        if (op->p.seed_block_m) c.block_m = op->p.seed_block_m;
        if (op->p.seed_block_n) c.block_n = op->p.seed_block_n;
        if (op->p.seed_split) c.split = op->p.seed_split;
        else if (op->kind == MRT_OPC_ADD_RMSNORM_QUANT) c.split = 1; /* the seed's rows whole */
        if (op->p.seed_chunk) c.chunk = op->p.seed_chunk;
    }
    return c;
}

/* The step's first tasks where the planner put a row in slices (add-RMSNorm-quant at <= 16
 * rows: add_rmsnorm_quant.c) take workers at the start too. A split-K op right after them
 * (depth 1) leaves them theirs as well where it keeps at least 3/4 of its tasks that way, so
 * that every first GEMM tile has a worker of its own and streams its weights from the step's
 * start instead of queueing behind a slice (GLM-5, 132 workers: M=2, 4, 8, 16 A0 32 + B0 63 +
 * C0 16 + B1 16 = 127 tasks; M=1's 16 slices leave B0 its 84). H200, bench/RESULTS.md session
 * 30, A Bs within a run: M=16 KV=1024 61.21 / 61.12 us against 62.52 / 62.62, KV=8192 67.01 /
 * 66.85 against 67.11 / 67.16, KV=65536 117.51 against 119.40 (run 3; M=2..8: run 5 and
 * add_rmsnorm_quant.c). Rows whole are not counted: M=32 (32 + 63 + 32) 86.19 / 86.27
 * against 85.91 / 85.98, M=48 (48 + 42 + 32) 107.63 against 103.00 at KV=8192 and 98.40
 * against 87.66 at KV=1024 (run 4; B0 in half its tiles streams twice the weights a tile). */
static int first_tasks(const mrt_plan *p, const int *depth) {
    int n = 0;
    for (int j = 0; j < p->n_ops; j++) {
        const mrt_op *q = &p->g->ops[p->ops[j]];
        const mrt_tile_cfg *c = &p->cfg[q->id];
        if (depth[q->id] == 0 && q->kind == MRT_OPC_ADD_RMSNORM_QUANT && c->split > 1 && c->block_m > 0) {
            const int64_t rows = p->g->tensors[q->in[0]].dims[0];
            n += (int)((rows + c->block_m - 1) / c->block_m) * c->split;
        }
    }
    return n;
}

/* Ops at the same depth of the graph (longest path from the step's inputs) become ready
 * together and run side by side: cmp's streams, the megakernel's queues. A split-K op sized
 * alone fills every worker; beside smaller siblings it leaves them theirs, so that nothing
 * queues behind its tasks at the start (GLM-5, 132 workers: B0 21 x 6 = 126 beside C0 16 and
 * B1 16 queued C0 behind B0 on the megakernel's workers, and D1 waits for all of C0; with
 * 132 - 32 workers B0 is 21 x 4 = 84 and A0 + B0 + C0 + B1 = 132 tasks, one a worker). Only
 * ops whose default tiling states its tasks (split-K GEMMs) take part; the siblings keep
 * their sizes from the first pass (a sibling counts only if it has fewer tasks). */
#ifndef MRT_SHARE_WORKERS
#define MRT_SHARE_WORKERS 1 /* -DMRT_SHARE_WORKERS=0 (C flags): session 9's A/B */
#endif
static void share_workers(mrt_plan *p) {
    const mrt_graph *g = p->g;
    int depth[MRT_MAX_OPS] = {0};
    mrt_tile_cfg first[MRT_MAX_OPS];
    for (int i = 0; i < p->n_ops; i++) { /* p->ops is topological */
        const mrt_op *op = &g->ops[p->ops[i]];
        for (int j = 0; j < op->n_in; j++) {
            int prod = g->tensors[op->in[j]].producer;
            if (prod >= 0 && p->op_row[prod] >= 0 && depth[prod] + 1 > depth[op->id]) depth[op->id] = depth[prod] + 1;
        }
        first[op->id] = p->cfg[op->id];
    }
    const int slices = first_tasks(p, depth); /* depth 0: the loop below changes none of them */
    for (int i = 0; i < p->n_ops; i++) {
        const int o = p->ops[i];
        if (!first[o].tasks) continue;
        int others = 0;
        for (int j = 0; j < p->n_ops; j++) {
            const int q = p->ops[j];
            if (q != o && depth[q] == depth[o] && first[q].tasks && first[q].tasks < first[o].tasks) others += first[q].tasks;
        }
        const mrt_op_class *oc = mrt_op_class_get(g->ops[o].kind);
        if (others && others < p->opts.workers) p->cfg[o] = oc->default_cfg(g, &g->ops[o], p->opts.workers - others);
        const int at_start = depth[o] == 1 ? slices : 0;
        if (at_start && others + at_start < p->opts.workers) {
            const mrt_tile_cfg c = oc->default_cfg(g, &g->ops[o], p->opts.workers - others - at_start);
            if (4 * c.tasks >= 3 * p->cfg[o].tasks) p->cfg[o] = c;
        }
    }
}

/* One item OP=VALUE of option `what`'s comma list at s: *op the planned op, *val its value
 * (up to the next comma), *next the next item; `form` names the item's shape in the error. */
static mrt_status op_item(const mrt_plan *p, const char *what, const char *form, const char *s, const mrt_op **op,
                          const char **val, int *val_len, const char **next) {
    const char *e = strchr(s, ','), *eq = strchr(s, '=');
    const size_t n = e ? (size_t)(e - s) : strlen(s);
    char name[32];
    if (!eq || (e && eq > e) || eq == s || (size_t)(eq - s) >= sizeof name)
        return mrt_fail(p->ctx, MRT_ERR_INVALID, "%s: \"%.*s\" is not %s", what, (int)n, s, form);
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    *op = mrt_graph_find_op(p->g, name);
    if (!*op || p->op_row[(*op)->id] < 0) return mrt_fail(p->ctx, MRT_ERR_INVALID, "%s: %s is not a planned op", what, name);
    *val = eq + 1, *val_len = (int)(s + n - eq - 1), *next = s + n + (e ? 1 : 0);
    return MRT_OK;
}

/* A whole number 0..max from the val_len characters at val (no sign, no blanks), else -1. */
static long whole_number(const char *val, int val_len, long max) {
    long v = 0;
    if (val_len < 1) return -1;
    for (int i = 0; i < val_len; i++) {
        if (val[i] < '0' || val[i] > '9' || v > max) return -1;
        v = v * 10 + (val[i] - '0');
    }
    return v <= max ? v : -1;
}

/* The --split list (OP=N,...): split-K N for those ops, after every other tiling rule, so a
 * queue layout can be measured without a rebuild (e.g. D1 in fewer, longer tasks leaves
 * workers to D0, whose input is ready at the same moment). The split-K GEMMs (the ops whose
 * default tiling states its tasks; their input 0 is [M, K]) take divisors of their K blocks
 * only: every split holds the same K blocks, as the stream executors require. Top-k takes N
 * slices a row (1 = a row on one worker; topk.c), add-RMSNorm-quant N slices of a row's
 * 128-groups (add_rmsnorm_quant.c; the megakernel and cpu executors, serial and cmp run their
 * own kernels). */
static mrt_status given_splits(mrt_plan *p) {
    const mrt_graph *g = p->g;
    for (const char *s = p->opts.split; *s;) {
        const mrt_op *op;
        const char *val;
        int vn;
        mrt_status st = op_item(p, "--split", "OP=N", s, &op, &val, &vn, &s);
        if (st) return st;
        const char *name = op->name;
        const long v = whole_number(val, vn, 4096);
        if (v < 1)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--split: %s: \"%.*s\" is not a split of 1..4096", name, vn, val);
        mrt_tile_cfg *c = &p->cfg[op->id];
        if (op->kind == MRT_OPC_TOPK) { /* slices a row, each on its own worker (topk.c) */
            if (v > MRT_TOPK_MAX_SLICES)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "--split: %s=%ld: top-k splits a row into 1..%d slices", name,
                                v, MRT_TOPK_MAX_SLICES);
            c->split = (int)v;
            continue;
        }
        if (op->kind == MRT_OPC_ADD_RMSNORM_QUANT) { /* slices a row, each a task (add_rmsnorm_quant.c) */
            const int64_t groups = g->tensors[op->in[0]].dims[1] / 128;
            if (v > groups)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "--split: %s=%ld: a row has %lld 128-groups to slice", name, v,
                                (long long)groups);
            c->split = (int)v;
            continue;
        }
        if (c->tasks < 1 || c->split < 1)
            return mrt_fail(p->ctx, MRT_ERR_INVALID,
                            "--split: %s does not split (only the split-K GEMMs, top-k's and add-RMSNorm's rows do)",
                            name);
        const int64_t kblocks = g->tensors[op->in[0]].dims[1] / 128;
        if (kblocks % v)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--split: %s=%ld does not divide its %lld K blocks", name, v,
                            (long long)kblocks);
        c->split = (int)v; /* (c->tasks, share_workers' input, is not read after it) */
    }
    return MRT_OK;
}

/* The --chunk list (OP=N,...): N keys a task for those chunked ops (index logits: a request's
 * keys in chunks of N, the last one shorter), after every other tiling rule, so E1's task
 * count can be measured without a rebuild (e.g. 64 tasks of 256 keys at M=16 KV=8192, one
 * round on the 64 workers of an indexer partition; bench/RESULTS.md, session 21). A multiple
 * of 128, the size the E1 tiles pass over keys in. */
static mrt_status given_chunks(mrt_plan *p) {
    for (const char *s = p->opts.chunk; *s;) {
        const mrt_op *op;
        const char *val;
        int vn;
        mrt_status st = op_item(p, "--chunk", "OP=N", s, &op, &val, &vn, &s);
        if (st) return st;
        const long v = whole_number(val, vn, 1L << 24);
        if (v < 128 || v % 128)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--chunk: %s: \"%.*s\" is not a multiple of 128 keys up to 2^24",
                            op->name, vn, val);
        mrt_tile_cfg *c = &p->cfg[op->id];
        if (c->chunk < 1)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--chunk: %s takes no chunks (only index logits do)", op->name);
        c->chunk = (int)v;
    }
    return MRT_OK;
}

/* The --block-n list (OP=N,...): N output columns a task of those FP8 GEMMs, after every
 * other tiling rule: 256 gives the megakernel's tall tiles (two 128-row scale blocks a tile,
 * mega_table.cu; the streams' executors keep their own tiles), so a GEMM whose tiles would
 * take two rounds on the workers it gets (GLM-5's D0 at M=16: 128 tiles on 68 workers) can
 * take one; bench/micro/kblock.cu measured what a tall K block costs. Each op's epilogue
 * checks its own fit at lowering (gemm_fp8.c: QKV_A's q width a multiple, INDEX_Q a head). */
static mrt_status given_block_n(mrt_plan *p) {
    for (const char *s = p->opts.block_n; *s;) {
        const mrt_op *op;
        const char *val;
        int vn;
        mrt_status st = op_item(p, "--block-n", "OP=N", s, &op, &val, &vn, &s);
        if (st) return st;
        const long v = whole_number(val, vn, 4096);
        if (op->kind != MRT_OPC_GEMM_FP8)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--block-n: %s is not an FP8 GEMM (gemm_fp8)", op->name);
        if (v != 128 && v != 256)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--block-n: %s: \"%.*s\" is not 128 or 256 columns", op->name,
                            vn, val);
        p->cfg[op->id].block_n = (int)v;
    }
    return MRT_OK;
}

/* The --place list (OP=LO-HI or OP=W): roundrobin deals those ops' tasks over workers LO..HI,
 * critical-path lets only those workers take them (schedule.c), so a placement that keeps ops
 * apart (e.g. D0's tiles off the workers that run D1 and E1, which are on the critical path)
 * can be measured without a rebuild. Under auto a --place means roundrobin. */
static mrt_status given_places(mrt_plan *p) {
    for (const char *s = p->opts.place; *s;) {
        const mrt_op *op;
        const char *val, *dash;
        int vn;
        mrt_status st = op_item(p, "--place", "OP=LO-HI", s, &op, &val, &vn, &s);
        if (st) return st;
        if (p->place_lo[op->id] >= 0) return mrt_fail(p->ctx, MRT_ERR_INVALID, "--place: %s named twice", op->name);
        dash = memchr(val, '-', (size_t)vn);
        const int n_lo = dash ? (int)(dash - val) : vn;
        const long lo = whole_number(val, n_lo, 1L << 20), hi = dash ? whole_number(dash + 1, vn - n_lo - 1, 1L << 20) : lo;
        if (lo < 0 || hi < 0 || lo > hi || hi >= p->opts.workers)
            return mrt_fail(p->ctx, MRT_ERR_INVALID, "--place: %s: \"%.*s\" is not LO-HI with 0 <= LO <= HI < %d workers",
                            op->name, vn, val, p->opts.workers);
        p->place_lo[op->id] = (int)lo, p->place_hi[op->id] = (int)hi;
    }
    return MRT_OK;
}

/* Time spent in a build's first three phases (validate + configure, tile + lower, place),
 * summed over every plan it builds: tuning's candidates, a retry with fewer row slices, a
 * try that failed. finish_plan gives the plan the sums, so the phases add up to the build. */
typedef struct build_phases {
    double us[3];
} build_phases;

/* A plan up to its queues and their cost-model step (what tuning compares); finish_plan
 * encodes and verifies it. */
static mrt_status build_queues_as(mrt_graph *g, mrt_plan_opts o, int max_slices, build_phases *ph, mrt_plan **out) {
    double t0 = mrt_now_us(), t2 = 0, t3 = 0;
    if (o.workers < 1 || o.workers > 4096)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "--workers %d: must be 1..4096", o.workers);
    if (o.policy != MRT_POLICY_ROUNDROBIN && o.policy != MRT_POLICY_CRITICAL_PATH && o.policy != MRT_POLICY_AUTO)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "policy %d: unknown placement policy", o.policy);
    mrt_status s = mrt_graph_validate(g);
    if (s) return s;
    mrt_plan *p = calloc(1, sizeof *p);
    if (!p) return mrt_fail(g->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    p->ctx = g->ctx;
    p->g = g;
    p->opts = o;
    p->max_slices = max_slices;
    bool sel[MRT_MAX_OPS] = {false};
    if ((s = select_ops(p, sel))) goto fail;
    if (p->opts.order && *p->opts.order) {
        if ((s = given_order(p, sel))) goto fail;
    } else {
        order_ops(p, sel);
    }
    for (int i = 0; i < MRT_MAX_OPS; i++) p->op_row[i] = p->place_lo[i] = p->place_hi[i] = -1;
    for (int i = 0; i < p->n_ops; i++) p->op_row[p->ops[i]] = i;
    p->n_tensors = g->n_tensors;
    p->tensors = calloc((size_t)g->n_tensors, sizeof(mrt_plan_tensor));
    if (!p->tensors) {
        s = mrt_fail(g->ctx, MRT_ERR_NOMEM, "plan: out of memory");
        goto fail;
    }
    for (int t = 0; t < g->n_tensors; t++) {
        mrt_plan_tensor *pt = &p->tensors[t];
        pt->t = g->tensors[t];
        pt->partials = 1;
        pt->scratch_of = -1;
        pt->planned_input = false;
    }
    /* an input of this plan: read by a planned op, written by one left out (--ops) */
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &g->ops[p->ops[i]];
        for (int j = 0; j < op->n_in; j++) {
            mrt_plan_tensor *pt = &p->tensors[op->in[j]];
            pt->planned_input = pt->t.producer >= 0 && p->op_row[pt->t.producer] < 0;
        }
    }
    for (int i = 0; i < p->n_ops; i++) p->cfg[p->ops[i]] = pick_cfg(p, &g->ops[p->ops[i]]);
    const bool split_given = p->opts.split && *p->opts.split;
    /* given splits before share_workers too, which sees A0's slices (a given A0=1 leaves B0 its
     * workers), and again after it, over the GEMM sizes it picks */
    if (split_given && (s = given_splits(p))) goto fail;
    if (o.tiling == MRT_TILING_DEFAULT && MRT_SHARE_WORKERS) share_workers(p);
    if (split_given && (s = given_splits(p))) goto fail;
    if (p->opts.chunk && *p->opts.chunk && (s = given_chunks(p))) goto fail;
    if (p->opts.block_n && *p->opts.block_n && (s = given_block_n(p))) goto fail;
    if (p->opts.place && *p->opts.place && (s = given_places(p))) goto fail;
    t2 = mrt_now_us();
    if ((s = mrt_lower(p))) goto fail;
    t3 = mrt_now_us();
    s = mrt_schedule(p); /* placement with its estimate */
fail:;
    const double t4 = mrt_now_us();
    ph->us[0] += (t2 ? t2 : t4) - t0;
    ph->us[1] += t2 ? (t3 ? t3 : t4) - t2 : 0;
    ph->us[2] += t3 ? t4 - t3 : 0;
    if (!s) {
        *out = p;
        return MRT_OK;
    }
    int slices = 1, sliced = -1; /* rows of add-RMSNorm-quant in slices (a limit may be theirs) */
    for (int i = 0; i < p->n_ops; i++)
        if (g->ops[p->ops[i]].kind == MRT_OPC_ADD_RMSNORM_QUANT && p->cfg[p->ops[i]].split > slices)
            slices = p->cfg[p->ops[i]].split, sliced = p->ops[i];
    mrt_plan_free(p);
    if (s != MRT_ERR_LIMIT || slices == 1) return s;
    if (!max_slices || slices <= max_slices) return build_queues_as(g, o, slices / 2, ph, out);
    /* slices above max_slices are a user's (--split): say what to change */
    char why[512];
    snprintf(why, sizeof why, "%s", mrt_last_error(g->ctx));
    return mrt_fail(g->ctx, s,
                    "%s: %s's rows in %d slices (--split) of %lld 128-groups, some cutting across a consumer's K "
                    "splits; take fewer, or slices that nest in those splits",
                    why, g->ops[sliced].name, slices, (long long)(g->tensors[g->ops[sliced].in[0]].dims[1] / 128));
}

/* The tiling's plan with AUTO's placement; add-RMSNorm-quant's default row slices
 * (add_rmsnorm_quant.c) halved while they need more signals than a task has (slices that
 * cut across a consumer's K splits: DeepSeek-V3.2's 56 groups in 8 at M=1). A user's
 * --split A0=S that does not fit fails (given_splits overrides every try). */
static mrt_status build_queues(mrt_graph *g, mrt_plan_opts o, build_phases *ph, mrt_plan **out) {
    return build_queues_as(g, o, 0, ph, out);
}

/* Encodes and verifies a plan from build_queues (freed on failure); its build time counts
 * from t0, its first phases are ph's. */
static mrt_status finish_plan(mrt_plan *p, double t0, const build_phases *ph, mrt_plan **out) {
    memcpy(p->phase_us, ph->us, sizeof ph->us);
    double t4 = mrt_now_us();
    mrt_status s = mrt_encode(p);
    double t5 = mrt_now_us();
    p->phase_us[3] = t5 - t4;
    if (!s && !(p->operands = calloc((size_t)p->n_ops * MRT_OPERAND_SLOTS, sizeof(uint64_t))))
        s = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    if (!s) s = mrt_plan_verify(p);
    p->phase_us[4] = mrt_now_us() - t5;
    p->build_us = mrt_now_us() - t0;
    if (s) {
        mrt_plan_free(p);
        return s;
    }
    *out = p;
    return MRT_OK;
}

/* Tuning (policy AUTO with opts.tune, the default, when no split, chunk or place is given):
 * the indexer branch in fewer, larger tasks. The gemm_fp8 op computing an index_logits op's
 * queries (GLM-5's D1) with its split halved, and that with the index_logits op's chunk
 * doubled too (up to 512 keys, the longest the cost model was fitted on): each candidate is
 * a whole plan (AUTO's placement included); the one with the lowest cost-model step is taken
 * when that is below the default plan's. Why these two (H200, session 23 run 3, all 12
 * shapes of [E]'s sweep measured for both candidates under both policies): the model put
 * them 5-19% below the default plan at 8 shapes; at the 7 of them beyond 5% they were
 * 3.7-13.6 us faster (M=16 KV=8192 75.1 against 79.5). A doubled chunk past 512 keys
 * (KV=65536) was priced 20-25 us low and measured 4-29 us slower. Until session 38 a
 * candidate was taken only below 95% of the default's estimate (session 23's M=64 KV=65536,
 * 3.7% below and 16 us slower). Session 38 (runs 1-2, both candidates and the default tiling
 * measured at 21 shapes, M 1..128, KV 1024..65536, one run each): of the 28 candidates priced
 * below the default plan 26 were faster (2.3-13.1 us), the five the margin refused by 3.5-12.4
 * (M=1 KV=8192 52.88 against 56.43, M=2 / 4 / 8 KV=8192 55.34 / 57.09 / 56.29 against 63.39 /
 * 63.45 / 65.29, M=4 KV=65536 86.15 against 98.54); slower: M=128 KV=8192's D1 halved alone
 * (+4.4 us; the chunk-doubled one, priced lower, is taken: -4.6) and M=64 KV=65536 (D1 halved
 * under critical-path, priced 5.4% below, 14.9 us slower than the default tiling under
 * roundrobin: the model's miss there). Of the 8 priced above it 7 were faster too (1.4-5.5 us),
 * but M=128 KV=65536's (1.004x the estimate) 10.9 us slower: no margin the other way either.
 * Every candidate is tiled, lowered and placed (auto's two placements); only the one taken is
 * encoded and verified. A candidate that cannot be planned (a split its GEMM's K blocks do not
 * take) is skipped; its message stays in the context although the build succeeds. */
#define MRT_TUNE_MAX_CHUNK 512

static mrt_status build_tuned(mrt_graph *g, mrt_plan_opts o, mrt_plan **out) {
    double t0 = mrt_now_us();
    mrt_plan *best = NULL;
    build_phases ph = {{0}};
    mrt_status s = build_queues(g, o, &ph, &best);
    if (s) return s;
    mrt_tune_cand cand_of[3] = {{.opts = "", .estimate_us = best->estimate_us}};
    int n = 1;
    int e = -1, q = -1;
    for (int i = 0; i < best->n_ops && e < 0; i++) {
        const mrt_op *op = &g->ops[best->ops[i]];
        if (op->kind != MRT_OPC_INDEX_LOGITS) continue;
        const int prod = g->tensors[op->in[0]].producer;
        if (prod >= 0 && best->op_row[prod] >= 0 && g->ops[prod].kind == MRT_OPC_GEMM_FP8 && best->cfg[prod].split >= 2)
            e = op->id, q = prod;
    }
    if (e >= 0) {
        char split[48], chunk[48]; /* op names are at most 15 characters */
        snprintf(split, sizeof split, "%s=%d", g->ops[q].name, best->cfg[q].split / 2);
        snprintf(chunk, sizeof chunk, "%s=%d", g->ops[e].name, best->cfg[e].chunk * 2);
        const bool both = best->cfg[e].chunk * 2 <= MRT_TUNE_MAX_CHUNK;
        for (int c = 0; c < (both ? 2 : 1); c++) {
            mrt_plan_opts oc = o;
            oc.tune = 0, oc.split = split, oc.chunk = c ? chunk : NULL;
            mrt_plan *cand = NULL;
            if (build_queues(g, oc, &ph, &cand)) continue; /* a split the op's K blocks do not take: no candidate */
            mrt_tune_cand *t = &cand_of[n++];
            snprintf(t->opts, sizeof t->opts, "--split %s%s%s", split, c ? " --chunk " : "", c ? chunk : "");
            t->estimate_us = cand->estimate_us;
            if (cand->estimate_us < best->estimate_us) {
                mrt_plan_free(best);
                best = cand;
                snprintf(best->tuned, sizeof best->tuned, "%s", t->opts);
            } else {
                mrt_plan_free(cand);
            }
        }
    }
    best->opts = o; /* the caller's options; best->tuned says what tuning changed */
    best->n_tune = n; /* every tiling planned, the taken one among them */
    memcpy(best->tune, cand_of, sizeof cand_of);
    return finish_plan(best, t0, &ph, out);
}

mrt_status mrt_plan_build(mrt_graph *g, const mrt_plan_opts *opts, mrt_plan **out) {
    if (!out) return MRT_ERR_INVALID;
    *out = NULL;
    if (!g) return MRT_ERR_INVALID;
    mrt_plan_opts o = opts ? *opts : mrt_plan_opts_default();
    const bool given = (o.split && *o.split) || (o.chunk && *o.chunk) || (o.place && *o.place);
    if (o.policy == MRT_POLICY_AUTO && o.tune && !given && o.tiling == MRT_TILING_DEFAULT) return build_tuned(g, o, out);
    const double t0 = mrt_now_us();
    mrt_plan *p = NULL;
    build_phases ph = {{0}};
    mrt_status s = build_queues(g, o, &ph, &p);
    return s ? s : finish_plan(p, t0, &ph, out);
}

void mrt_plan_free(mrt_plan *p) {
    if (!p) return;
    free(p->tensors);
    free(p->tasks);
    free(p->acc);
    free(p->groups);
    free(p->pubs);
    free(p->task_inst);
    free(p->group_inst);
    free(p->wr_first);
    free(p->wr);
    free(p->events);
    free(p->ev_prod);
    free(p->queue_len);
    free(p->instr);
    free(p->operands);
    free(p);
}

mrt_plan_info mrt_plan_get_info(const mrt_plan *p) {
    mrt_plan_info i = {.tasks = p->n_tasks, .events = p->n_events, .workers = p->workers,
                       .max_len = p->max_len, .ops = p->n_ops, .build_us = p->build_us,
                       .instr = p->instr, .queue_len = p->queue_len, .policy = p->placed,
                       .estimate_us = p->estimate_us, .tuned = p->tuned};
    return i;
}
