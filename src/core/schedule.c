/* Placement: tasks -> per-worker queues. Every queue keeps one global topological order of
 * the tasks, which is what makes spin-waiting deadlock-free (the verifier proves it).
 *
 * roundrobin (the article's): task i of the plan order goes to worker i % workers. An op
 * given a worker range (--place) deals its tasks over that range in a rotation of its own,
 * and the other ops' rotation passes over its tasks.
 * critical-path: list scheduling. A task's cost is an estimate of its time on one SM (a
 * fixed cost of its kind, one per token past an M=16 tile's, and the bytes it moves, below);
 * its rank is its cost plus the largest rank among the tasks that wait for it (the longest
 * remaining path). Repeatedly the worker that frees up first takes, of the tasks whose
 * producers are placed, the highest-ranked one that can start then (else the one whose inputs
 * are ready first). Tasks are picked only after their producers, so the pick order is
 * topological and every queue, kept in pick order, follows it. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void place_roundrobin(mrt_plan *p) {
    int next = 0, dealt[MRT_MAX_OPS] = {0};
    for (int i = 0; i < p->n_tasks; i++) { /* queue_len (zeroed) counts each queue as it fills */
        const int op = p->tasks[i].op, lo = p->place_lo[op];
        const int w = lo >= 0 ? lo + dealt[op]++ % (p->place_hi[op] - lo + 1) : next++ % p->workers;
        p->tasks[i].worker = w;
        p->tasks[i].slot = p->queue_len[w]++;
    }
}

/* The cost model: per instruction a fixed cost of its kind, measured at M=16 (a GEMM tile of
 * 16 tokens, an E1 tile of a request's 8, one A0 or F1 row), a cost per token beyond those,
 * and its bytes at one SM's share of HBM bandwidth (H200: ~4.3 TB/s over 132 SMs).
 * The fixed costs are what the megakernel's instructions take beyond their bytes, from its
 * trace (H200, 2026-11-29, GLM-5 M=16 KV=8192, cc82354: per-op medians of input -> computed
 * -> published, less the bytes term): A0 rows, E1 tiles and F1 rows are one-shot code of
 * 10-15 us, a gemm_fp8 tile carries its share of the finalization. With a flat 0.8 us (until
 * then) the model put the step at 32 us against 160-180 measured.
 * The per-token costs are the growth from M=16 to M=128 in the traces of session 14 run 4
 * (b1f19fa, KV=8192): a gemm_fp8 tile 14-17 -> 36-41 us (finalization share included), an E1
 * tile 8 -> 47 (8 -> 64 tokens), a bmm tile 6 -> 20, a head-gate tile 7 -> 10, A0 and F1 ~11
 * us a row. Without them (sessions 5-13) the model ranked a 128-token tile like a 16-token one
 * and estimated M=128 at 144 us against 241-285 measured; critical-path placement then lost to
 * roundrobin at M >= 64 (run 6: 182.8 / 315.4 against 159.1 / 241.4 us at M=64 / 128). A model
 * fitted through both traces' points instead (a smaller fixed cost, every token priced) did
 * better there (167.6 / 257.0) and worse where the policy had been best (M=1: 101.6 against
 * 84.8; M=16: 97.1 against 94.9): so the M=16 costs stay as measured and only tokens past
 * them are priced, which leaves every plan at M <= 16 as before (no task there has tokens past
 * its kind's base; the same queues, task by task, at M = 1, 2, 8, 16 under both models:
 * `plan --json` of each, checked on the CPU) and is not yet measured at M >= 64. */
static const double mrt_cost_fixed_us[MRT_OPC_COUNT] = {
    [MRT_OPC_NOOP] = 0.8,          [MRT_OPC_ADD_RMSNORM_QUANT] = 10.0, [MRT_OPC_GEMM_FP8] = 16.0,
    [MRT_OPC_GEMM_BF16] = 9.0,     [MRT_OPC_BMM_BF16] = 3.0,           [MRT_OPC_INDEX_LOGITS] = 15.0,
    [MRT_OPC_TOPK] = 14.0,
};
/* tokens a fixed cost covers, and the cost of each token past them */
static const int mrt_cost_base_tokens[MRT_OPC_COUNT] = {
    [MRT_OPC_NOOP] = 1,       [MRT_OPC_ADD_RMSNORM_QUANT] = 1, [MRT_OPC_GEMM_FP8] = 16, [MRT_OPC_GEMM_BF16] = 16,
    [MRT_OPC_BMM_BF16] = 16,  [MRT_OPC_INDEX_LOGITS] = 8,      [MRT_OPC_TOPK] = 1,
};
static const double mrt_cost_token_us[MRT_OPC_COUNT] = {
    [MRT_OPC_ADD_RMSNORM_QUANT] = 8.0, [MRT_OPC_GEMM_FP8] = 0.2,      [MRT_OPC_GEMM_BF16] = 0.03,
    [MRT_OPC_BMM_BF16] = 0.125,        [MRT_OPC_INDEX_LOGITS] = 0.7, [MRT_OPC_TOPK] = 10.0,
};
#define MRT_SM_BYTES_PER_US (4.3e6 / 132.0)

double mrt_task_cost_us(const mrt_plan *p, const mrt_task *k) {
    const int kind = p->g->ops[k->op].kind;
    const double bytes_us = k->cost / MRT_SM_BYTES_PER_US;
    if (kind < 0 || kind >= MRT_OPC_COUNT) return 0.8 + bytes_us;
    double us = mrt_cost_fixed_us[kind] + bytes_us;
    const mrt_op_class *c = mrt_op_class_get(kind);
    const int past = (c && c->tokens ? c->tokens(k->payload) : 1) - mrt_cost_base_tokens[kind];
    if (past > 0) us += mrt_cost_token_us[kind] * past;
    return us;
}

/* Tasks a task waits for: the publishers of its events (every member of a group). */
typedef struct deps {
    int *first, *list; /* CSR: predecessors of each task */
} deps;

static int prod_tasks(const mrt_plan *p, int inst, int *out) {
    const mrt_pubinst *q = &p->pubs[inst];
    if (q->task >= 0) {
        out[0] = q->task;
        return 1;
    }
    const mrt_group *g = &p->groups[q->group];
    for (int m = 0; m < g->members; m++) out[m] = g->first_task + m;
    return g->members;
}

static mrt_status build_deps(mrt_plan *p, deps *d) {
    int total = 0, most = 1;
    for (int g = 0; g < p->n_groups; g++)
        if (p->groups[g].members > most) most = p->groups[g].members;
    for (int i = 0; i < p->n_tasks; i++)
        for (int j = 0; j < p->tasks[i].n_wait; j++) {
            const mrt_event *e = &p->events[p->tasks[i].wait[j].event];
            for (int k = 0; k < e->n_prod; k++) {
                const mrt_pubinst *q = &p->pubs[p->ev_prod[e->prod0 + k]];
                total += q->task >= 0 ? 1 : p->groups[q->group].members;
            }
        }
    d->first = malloc(sizeof(int) * (size_t)(p->n_tasks + 1));
    d->list = malloc(sizeof(int) * (size_t)(total + 1));
    int *tmp = malloc(sizeof(int) * (size_t)most);
    if (!d->first || !d->list || !tmp) {
        free(tmp);
        return mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    }
    int n = 0;
    for (int i = 0; i < p->n_tasks; i++) {
        d->first[i] = n;
        for (int j = 0; j < p->tasks[i].n_wait; j++) {
            const mrt_event *e = &p->events[p->tasks[i].wait[j].event];
            for (int k = 0; k < e->n_prod; k++) {
                int c = prod_tasks(p, p->ev_prod[e->prod0 + k], tmp);
                memcpy(d->list + n, tmp, sizeof(int) * (size_t)c);
                n += c;
            }
        }
    }
    d->first[p->n_tasks] = n;
    free(tmp);
    return MRT_OK;
}

static mrt_status place_critical_path(mrt_plan *p) {
    deps d = {0};
    mrt_status st = build_deps(p, &d);
    int n = p->n_tasks;
    double *rank = calloc((size_t)n + 1, sizeof(double)), *finish = calloc((size_t)n + 1, sizeof(double));
    double *ready_at = calloc((size_t)n + 1, sizeof(double)), *free_at = calloc((size_t)p->workers, sizeof(double));
    int *missing = calloc((size_t)n + 1, sizeof(int)), *slots = calloc((size_t)p->workers, sizeof(int));
    int *succ_first = calloc((size_t)n + 2, sizeof(int)), *succ = NULL;
    int *ready = malloc(sizeof(int) * (size_t)(n + 1)), nready = 0;
    if (!st && (!rank || !finish || !ready_at || !free_at || !missing || !slots || !succ_first || !ready))
        st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    if (!st) { /* successors (CSR) from the predecessor lists; duplicates are harmless */
        for (int i = 0; i < n; i++)
            for (int k = d.first[i]; k < d.first[i + 1]; k++) succ_first[d.list[k] + 1]++;
        for (int i = 0; i < n; i++) succ_first[i + 1] += succ_first[i];
        succ = malloc(sizeof(int) * (size_t)(succ_first[n] + 1));
        int *fill = calloc((size_t)n + 1, sizeof(int));
        if (!succ || !fill) st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
        for (int i = 0; !st && i < n; i++)
            for (int k = d.first[i]; k < d.first[i + 1]; k++) {
                int u = d.list[k];
                succ[succ_first[u] + fill[u]++] = i;
            }
        free(fill);
    }
    if (!st) {
        /* ranks in reverse plan order: consumers come after their producers in it */
        for (int i = n - 1; i >= 0; i--) {
            double best = 0;
            for (int k = succ_first[i]; k < succ_first[i + 1]; k++)
                if (rank[succ[k]] > best) best = rank[succ[k]];
            rank[i] = mrt_task_cost_us(p, &p->tasks[i]) + best;
        }
        for (int i = 0; i < n; i++) {
            missing[i] = d.first[i + 1] - d.first[i];
            if (!missing[i]) ready[nready++] = i;
        }
        for (int placed = 0; placed < n; placed++) {
            if (nready == 0) {
                st = mrt_fail(p->ctx, MRT_ERR_DEADLOCK, "placement: %d of %d tasks can never become ready", n - placed, n);
                break;
            }
            int w = 0;
            for (int k = 1; k < p->workers; k++)
                if (free_at[k] < free_at[w]) w = k;
            /* among the tasks that can start as soon as that worker frees up, the highest rank;
             * if none can, the one ready first: a queue never sits idle behind a task waiting
             * for inputs while another task could run (ties: plan order, reproducible) */
            int best = -1;
            bool best_now = false;
            for (int r = 0; r < nready; r++) {
                int c = ready[r];
                bool now = ready_at[c] <= free_at[w];
                if (best < 0 || (now && !best_now) ||
                    (now == best_now && (now ? rank[c] > rank[ready[best]] || (rank[c] == rank[ready[best]] && c < ready[best])
                                             : ready_at[c] < ready_at[ready[best]] ||
                                                   (ready_at[c] == ready_at[ready[best]] && rank[c] > rank[ready[best]]))))
                    best = r, best_now = now;
            }
            int t = ready[best];
            ready[best] = ready[--nready];
            double start = free_at[w] > ready_at[t] ? free_at[w] : ready_at[t];
            finish[t] = start + mrt_task_cost_us(p, &p->tasks[t]);
            free_at[w] = finish[t];
            p->tasks[t].worker = w;
            p->tasks[t].slot = slots[w]++;
            for (int k = succ_first[t]; k < succ_first[t + 1]; k++) {
                int s = succ[k];
                if (finish[t] > ready_at[s]) ready_at[s] = finish[t];
                if (--missing[s] == 0) ready[nready++] = s;
            }
        }
    }
    free(d.first), free(d.list), free(rank), free(finish), free(ready_at), free(free_at);
    free(missing), free(slots), free(succ_first), free(succ), free(ready);
    return st;
}

/* The step under the cost model: each worker runs its queue in order; a task starts when
 * its worker is free and the producers of its events have published (a group's publication
 * when its last member finishes). Any placement can be compared this way without a GPU. */
mrt_status mrt_estimate(mrt_plan *p) {
    int n = p->n_tasks;
    double *finish = calloc((size_t)n + 1, sizeof(double)), *pub = calloc((size_t)p->n_pubs + 1, sizeof(double));
    double *free_at = calloc((size_t)p->workers, sizeof(double));
    int *head = calloc((size_t)p->workers, sizeof(int)), *left = calloc((size_t)p->n_groups + 1, sizeof(int));
    int *at = malloc(sizeof(int) * ((size_t)p->workers * p->max_len + 1));
    bool *done = calloc((size_t)n + 1, 1);
    mrt_status st = MRT_OK;
    if (!finish || !pub || !free_at || !head || !left || !at || !done)
        st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "estimate: out of memory");
    for (int i = 0; !st && i < p->workers * p->max_len; i++) at[i] = -1;
    for (int t = 0; !st && t < n; t++) at[p->tasks[t].worker * p->max_len + p->tasks[t].slot] = t;
    for (int g = 0; !st && g < p->n_groups; g++) left[g] = p->groups[g].members;
    double span = 0;
    for (int placed = 0, progress = 1; !st && placed < n && progress;) {
        progress = 0;
        for (int w = 0; w < p->workers; w++)
            while (head[w] < p->max_len) {
                int t = at[w * p->max_len + head[w]];
                if (t < 0) {
                    head[w]++;
                    continue;
                }
                const mrt_task *k = &p->tasks[t];
                double ready = free_at[w];
                bool ok = true;
                for (int j = 0; j < k->n_wait && ok; j++) {
                    const mrt_event *e = &p->events[k->wait[j].event];
                    for (int i = 0; i < e->n_prod && ok; i++) {
                        int inst = p->ev_prod[e->prod0 + i];
                        const mrt_pubinst *q = &p->pubs[inst];
                        ok = q->task >= 0 ? done[q->task] : left[q->group] == 0;
                        if (ok && pub[inst] > ready) ready = pub[inst];
                    }
                }
                if (!ok) break;
                finish[t] = free_at[w] = ready + mrt_task_cost_us(p, k);
                done[t] = true;
                if (finish[t] > span) span = finish[t];
                if (k->group >= 0) left[k->group]--;
                for (int a = 0; a < 8; a++) { /* a group's publication: when its last member finishes */
                    int inst = mrt_plan_pubinst(p, t, a);
                    if (inst >= 0 && finish[t] > pub[inst]) pub[inst] = finish[t];
                }
                head[w]++, placed++, progress = 1;
            }
    }
    p->estimate_us = span;
    free(finish), free(pub), free(free_at), free(head), free(left), free(at), free(done);
    return st;
}

mrt_status mrt_schedule(mrt_plan *p) {
    p->workers = p->opts.workers;
    p->queue_len = calloc((size_t)p->workers, sizeof(int));
    if (!p->queue_len) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    mrt_status st = MRT_OK;
    switch (p->opts.policy) {
    case MRT_POLICY_ROUNDROBIN: place_roundrobin(p); break;
    case MRT_POLICY_CRITICAL_PATH: st = place_critical_path(p); break;
    default: return mrt_fail(p->ctx, MRT_ERR_INVALID, "unknown placement policy %d", p->opts.policy);
    }
    if (st) return st;
    p->max_len = 0;
    for (int i = 0; i < p->n_tasks; i++) {
        int w = p->tasks[i].worker;
        if (p->tasks[i].slot + 1 > p->queue_len[w]) p->queue_len[w] = p->tasks[i].slot + 1;
    }
    for (int w = 0; w < p->workers; w++)
        if (p->queue_len[w] > p->max_len) p->max_len = p->queue_len[w];
    if (p->max_len == 0) p->max_len = 1;
    return MRT_OK;
}
