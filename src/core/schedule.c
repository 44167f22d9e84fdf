/* Placement: tasks -> per-worker queues. Every queue keeps one global topological order of
 * the tasks, which is what makes spin-waiting deadlock-free (the verifier proves it).
 *
 * roundrobin (the article's): task i of the plan order goes to worker i % workers. An op
 * given a worker range (--place) deals its tasks over that range in a rotation of its own,
 * and the other ops' rotation passes over its tasks.
 * critical-path: list scheduling. A task's cost is an estimate of its time on one SM (a
 * model fitted to the megakernel's trace: its kind, tokens, bytes and arithmetic, below);
 * its rank is its cost plus the largest rank among the tasks that wait for it (the longest
 * remaining path). Repeatedly the worker that frees up first takes, of the tasks whose
 * producers are placed, the highest-ranked one that can start then (else the one whose inputs
 * are ready first). Tasks are picked only after their producers, so the pick order is
 * topological and every queue, kept in pick order, follows it. An op given a worker range
 * (--place) has its tasks taken only by workers in it; when the worker that frees up first
 * may take none of the tasks whose producers are placed, the pick it would have made goes to
 * the worker of that task's range that frees up first (the range is a constraint on the same
 * list scheduling, so a range of every worker places as no range does). */
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

/* The cost model: an instruction's time on its worker, from the megakernel's own trace.
 *   cost = fixed + per_token x tokens + bytes_x x (its bytes at one SM's share of HBM
 *          bandwidth, H200: 4.3 TB/s over 132 SMs) + per_flop x its arithmetic
 *          + MRT_COST_GAP_US (a worker's step from one instruction to the next)
 * per instruction kind, fitted by least squares (scripts/fit_costs.py) to the medians of each
 * op's instructions at the 12 shapes of [E]'s sweep (M 1, 16, 64, 128 x KV 1024, 8192, 65536)
 * under roundrobin and critical-path (untuned) and the default plan (H200, 2026-11-30,
 * session 24 run 2, scripts/device-s24b.sh: E1's reduce-scatter epilogue, 775276d's; the
 * traces ran the keys-first form of E1 reverted after it, whose instruction time from
 * visible is the same: 11.4 against 11.2 us at M=16 KV=8192). An instruction's time there is
 * published less the later of visible and its inputs' publication, so it holds the weights
 * it streams after its input and its share of the group finalization, not its wait; the gap
 * is the median from a worker's publication to its next instruction visible. Median error
 * of the fit 3-13% a kind, worst 59% (gemm_fp8: B1's 16 tiles). Fed back through the same
 * queues it gives the traced spans within 9% at M >= 16 KV <= 8192 (roundrobin M = 16 / 64 /
 * 128 KV=8192: 78.6 / 134.6 / 199.3 against 78.7 / 131.1 / 203.1), 3-9% low at M >= 64
 * KV=65536, 13-20% low at M=16 KV=65536 and 15-31% low at M=1.
 * Session 23's fit (run 1, a595f6d) priced E1 before its 8 resident groups (d11bb1c) and
 * this epilogue: bytes_x 1.74 and 0.472 us a MFLOP against 1.04 and 0.205 now; its estimate
 * for roundrobin at M=128 KV=65536 was 540.3 us (traced 404.7 in run 2). With this fit auto
 * and tuning changed their picks at two shapes (run 4): M=128 KV=8192 195.5 us against 198.6
 * for the old pick, M=64 KV=65536 233.9 against 218.5 (critical-path with D1 in 2 splits,
 * 5.4% below roundrobin's estimate: the model's blind spot there, session 23's too); and
 * critical-path's own queues moved (M=128 KV=1024 177.1 against 186.5, run 3). The model before
 * it (fixed costs of session 5, per-token costs of session 14) put M=16 KV=8192 at 109.4 us
 * and ranked a 512-key E1 tile like a 128-key one. Terms a kind does not use are 0: GEMM
 * tiles stream their weights at ~2.6x an SM's share (bytes_x 0.38) with ~0.2 us a token of
 * epilogue and finalization; index_logits pays for its arithmetic and its bytes; top-k for
 * its passes over the logits (a row's two, a slice's one: topk.c).
 * Refitted with the 4-stage rings (session 33, runs 2-3: 36 new pairs; gemm_fp8 8.77 / 0.204 /
 * 0.131, index_logits 5.76 / 1.117 / 0.202, topk 4.66 / 4.559, ...): no pick of auto or tuning
 * moved, critical-path's queues moved at four shapes, level at three and 5.6-6.5 us slower at
 * M=128 KV=1024 (161.98 / 164.60 against 156.38 / 158.06): this table stays.
 * Refitted to session 41's 33 pairs (TMA-loading E1, 4-stage rings; gemm_fp8 8.08 / 0.198 /
 * 0.215, index_logits 5.34 / 0.245 / 0.202, topk 2.47 / 4.995, a0 7.32, gemm_bf16 3.93 / 0.074,
 * bmm 4.49 / 0.108): E1 ~3 us a task cheaper at up to 16 tokens; session 42 run 2 (A B, the 12
 * shapes): M=16 KV <= 8192 -0.5 us, M=64 KV=1024 -1.6, M=128 KV=1024 +4, +0.8-1.2 at four
 * others: this table stays. */
#define MRT_COST_GAP_US 0.90 /* `plan --json` prints it (cost_gap_us) for scripts/fit_costs.py */
typedef struct mrt_cost_terms {
    double fixed, per_token, bytes_x, per_mflop;
} mrt_cost_terms;
static const mrt_cost_terms mrt_cost[MRT_OPC_COUNT] = {
    [MRT_OPC_NOOP] = {0.8, 0, 0, 0},
    [MRT_OPC_ADD_RMSNORM_QUANT] = {8.48, 0, 0, 0}, /* a row; a slice of one (session 29) priced as a row, not refitted */
    [MRT_OPC_GEMM_FP8] = {7.93, 0.221, 0.383, 0},
    [MRT_OPC_GEMM_BF16] = {4.28, 0.079, 0, 0},
    [MRT_OPC_BMM_BF16] = {4.66, 0.108, 0, 0},
    [MRT_OPC_INDEX_LOGITS] = {6.71, 0, 1.042, 0.205},
    [MRT_OPC_TOPK] = {4.34, 0, 5.358, 0},
};
#define MRT_SM_BYTES_PER_US (4.3e6 / 132.0)

int mrt_task_tokens(const mrt_plan *p, const mrt_task *k) {
    const mrt_op_class *oc = mrt_op_class_get(p->g->ops[k->op].kind);
    return oc && oc->tokens ? oc->tokens(k->payload) : 1;
}

double mrt_task_time_us(const mrt_plan *p, const mrt_task *k) {
    const int kind = p->g->ops[k->op].kind;
    const double bytes_us = k->cost / MRT_SM_BYTES_PER_US;
    if (kind < 0 || kind >= MRT_OPC_COUNT) return 0.8 + bytes_us;
    const mrt_cost_terms *c = &mrt_cost[kind];
    return c->fixed + c->per_token * mrt_task_tokens(p, k) + c->bytes_x * bytes_us + c->per_mflop * k->flops * 1e-6;
}

double mrt_task_cost_us(const mrt_plan *p, const mrt_task *k) { return mrt_task_time_us(p, k) + MRT_COST_GAP_US; }
double mrt_cost_gap_us(void) { return MRT_COST_GAP_US; }

/* The dependency graph at the level of events: a task feeds publication instances (its own,
 * and every instance of its reduce group), an instance counts toward events, an event is
 * waited for by tasks. A task's predecessors are the feeders of the instances of the events
 * it waits for; expanded task by task that is tens of thousands of edges for GLM-5 (every D0
 * and D1 tile waits for B0's 48 split members), where these lists are a few thousand entries.
 * All three are CSR arrays (first[i] .. first[i + 1] index list), in ascending order of
 * what they list from. */
typedef struct cp_graph {
    int *feed_first, *feed;       /* task -> the instances it feeds */
    int *inst_feeders;            /* instance -> its feeders (1, or the group's members) */
    int *inst_ev_first, *inst_ev; /* instance -> the events it counts toward (an entry per ev_prod entry) */
    int *cons_first, *cons;       /* event -> the tasks that wait for it (an entry per wait) */
} cp_graph;

/* A CSR index from counts: first[i + 1] holds row i's count, becomes row i + 1's start. */
static void csr_sums(int *first, int n) {
    for (int i = 0; i < n; i++) first[i + 1] += first[i];
}

static void cp_graph_free(cp_graph *c) {
    free(c->feed_first), free(c->feed), free(c->inst_feeders), free(c->inst_ev_first), free(c->inst_ev);
    free(c->cons_first), free(c->cons);
}

static mrt_status build_cp_graph(mrt_plan *p, cp_graph *c) {
    const int n = p->n_tasks, np = p->n_pubs, ne = p->n_events;
    int n_feed = 0, n_prod = 0, n_cons = 0;
    for (int i = 0; i < np; i++) n_feed += p->pubs[i].task >= 0 ? 1 : p->groups[p->pubs[i].group].members;
    for (int e = 0; e < ne; e++) n_prod += p->events[e].n_prod;
    for (int t = 0; t < n; t++) n_cons += p->tasks[t].n_wait;
    c->feed_first = calloc((size_t)n + 1, sizeof(int)), c->feed = calloc((size_t)n_feed + 1, sizeof(int));
    c->inst_feeders = calloc((size_t)np + 1, sizeof(int));
    c->inst_ev_first = calloc((size_t)np + 1, sizeof(int));
    c->inst_ev = calloc((size_t)n_prod + 1, sizeof(int));
    c->cons_first = calloc((size_t)ne + 1, sizeof(int)), c->cons = calloc((size_t)n_cons + 1, sizeof(int));
    const int rows = n > np ? (n > ne ? n : ne) : (np > ne ? np : ne);
    int *fill = calloc((size_t)rows + 1, sizeof(int)); /* entries written so far in each row */
    if (!c->feed_first || !c->feed || !c->inst_feeders || !c->inst_ev_first || !c->inst_ev || !c->cons_first || !c->cons ||
        !fill) {
        free(fill);
        return mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    }
    /* task -> instances, in instance order (as prod_tasks expanded them before) */
    for (int i = 0; i < np; i++) {
        const mrt_pubinst *q = &p->pubs[i];
        const mrt_group *g = q->task >= 0 ? NULL : &p->groups[q->group];
        c->inst_feeders[i] = g ? g->members : 1;
        for (int m = 0; m < c->inst_feeders[i]; m++) c->feed_first[(g ? g->first_task + m : q->task) + 1]++;
    }
    csr_sums(c->feed_first, n);
    for (int i = 0; i < np; i++) {
        const mrt_pubinst *q = &p->pubs[i];
        const mrt_group *g = q->task >= 0 ? NULL : &p->groups[q->group];
        for (int m = 0; m < c->inst_feeders[i]; m++) {
            const int t = g ? g->first_task + m : q->task;
            c->feed[c->feed_first[t] + fill[t]++] = i;
        }
    }
    /* instance -> events */
    for (int e = 0; e < ne; e++)
        for (int k = 0; k < p->events[e].n_prod; k++) c->inst_ev_first[p->ev_prod[p->events[e].prod0 + k] + 1]++;
    csr_sums(c->inst_ev_first, np);
    memset(fill, 0, sizeof(int) * (size_t)np);
    for (int e = 0; e < ne; e++)
        for (int k = 0; k < p->events[e].n_prod; k++) {
            const int i = p->ev_prod[p->events[e].prod0 + k];
            c->inst_ev[c->inst_ev_first[i] + fill[i]++] = e;
        }
    /* event -> waiting tasks, in task order */
    for (int t = 0; t < n; t++)
        for (int j = 0; j < p->tasks[t].n_wait; j++) c->cons_first[p->tasks[t].wait[j].event + 1]++;
    csr_sums(c->cons_first, ne);
    memset(fill, 0, sizeof(int) * (size_t)ne);
    for (int t = 0; t < n; t++)
        for (int j = 0; j < p->tasks[t].n_wait; j++) {
            const int e = p->tasks[t].wait[j].event;
            c->cons[c->cons_first[e] + fill[e]++] = t;
        }
    free(fill);
    return MRT_OK;
}

/* A walk over the event graph as tasks finish (placement, estimate): when each instance,
 * event and task became complete or ready. */
typedef struct cp_run {
    double *inst_at, *ev_at, *ready_at; /* latest finish among an instance's feeders, an event's
                                           instances, a task's predecessors (so far) */
    int *inst_left, *ev_left, *missing; /* feeders not yet finished, instances not yet complete,
                                           waited events not yet complete */
} cp_run;

static void cp_run_free(cp_run *r) {
    free(r->inst_at), free(r->ev_at), free(r->ready_at), free(r->inst_left), free(r->ev_left), free(r->missing);
}

/* Nothing finished yet: a task waits for the events that have instances (one with none is
 * met from the start). */
static mrt_status cp_run_init(mrt_plan *p, const cp_graph *cg, cp_run *r) {
    const int n = p->n_tasks, ne = p->n_events, np = p->n_pubs;
    r->inst_at = calloc((size_t)np + 1, sizeof(double)), r->ev_at = calloc((size_t)ne + 1, sizeof(double));
    r->ready_at = calloc((size_t)n + 1, sizeof(double)), r->inst_left = calloc((size_t)np + 1, sizeof(int));
    r->ev_left = calloc((size_t)ne + 1, sizeof(int)), r->missing = calloc((size_t)n + 1, sizeof(int));
    if (!r->inst_at || !r->ev_at || !r->ready_at || !r->inst_left || !r->ev_left || !r->missing)
        return mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    memcpy(r->inst_left, cg->inst_feeders, sizeof(int) * (size_t)np);
    for (int e = 0; e < ne; e++) r->ev_left[e] = p->events[e].n_prod;
    for (int t = 0; t < n; t++)
        for (int j = 0; j < p->tasks[t].n_wait; j++) r->missing[t] += r->ev_left[p->tasks[t].wait[j].event] > 0;
    return MRT_OK;
}

/* Task t finished at `finish`: the instances it completes, their events, and the waiters
 * those make ready (into fresh, in the order of the events' waiter lists; returns how many).
 * A waiter's ready time is the latest finish among its predecessors. */
static int cp_finish(const cp_graph *cg, cp_run *r, int t, double finish, int *fresh) {
    int nfresh = 0;
    for (int f = cg->feed_first[t]; f < cg->feed_first[t + 1]; f++) {
        const int inst = cg->feed[f];
        if (finish > r->inst_at[inst]) r->inst_at[inst] = finish;
        if (--r->inst_left[inst]) continue;
        for (int k = cg->inst_ev_first[inst]; k < cg->inst_ev_first[inst + 1]; k++) {
            const int e = cg->inst_ev[k];
            if (r->inst_at[inst] > r->ev_at[e]) r->ev_at[e] = r->inst_at[inst];
            if (--r->ev_left[e]) continue;
            for (int c = cg->cons_first[e]; c < cg->cons_first[e + 1]; c++) {
                const int w = cg->cons[c];
                if (r->ev_at[e] > r->ready_at[w]) r->ready_at[w] = r->ev_at[e];
                if (--r->missing[w] == 0) fresh[nfresh++] = w;
            }
        }
    }
    return nfresh;
}

/* A binary heap of task or worker ids; `before` orders them by `rank` and `at` (a task's
 * ready time, a worker's free time). */
typedef struct cp_heap {
    int *a, n;
    const double *rank, *at;
    bool (*before)(const struct cp_heap *h, int x, int y);
} cp_heap;

static bool earlier_ready(const cp_heap *h, int x, int y) { return h->at[x] < h->at[y]; }
/* the worker that frees up first, then the lowest-numbered */
static bool earlier_free(const cp_heap *h, int x, int y) {
    return h->at[x] < h->at[y] || (h->at[x] == h->at[y] && x < y);
}
/* the pick among tasks that can start now: highest rank, then plan order */
static bool higher_rank(const cp_heap *h, int x, int y) {
    return h->rank[x] > h->rank[y] || (h->rank[x] == h->rank[y] && x < y);
}

static void heap_push(cp_heap *h, int t) {
    int i = h->n++;
    for (; i > 0 && h->before(h, t, h->a[(i - 1) / 2]); i = (i - 1) / 2) h->a[i] = h->a[(i - 1) / 2];
    h->a[i] = t;
}

static int heap_pop(cp_heap *h) {
    const int top = h->a[0], last = h->a[--h->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->before(h, h->a[c + 1], h->a[c])) c++;
        if (!h->before(h, h->a[c], last)) break;
        h->a[i] = h->a[c], i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

/* whether worker w may take task t (--place: its op's range, if it has one) */
static bool may_take(const mrt_plan *p, int t, int w) {
    const int op = p->tasks[t].op, lo = p->place_lo[op];
    return lo < 0 || (w >= lo && w <= p->place_hi[op]);
}

/* Of the ready tasks (`ready`, in arrival order) that worker w may take (w < 0: any), the one
 * whose inputs are ready first, ties to the higher rank then arrival; -1 if none. */
static int first_ready(const mrt_plan *p, const int *ready, int nready, const double *ready_at, const double *rank,
                       int w) {
    int best = -1;
    for (int r = 0; r < nready; r++) {
        const int c = ready[r];
        if (w >= 0 && !may_take(p, c, w)) continue;
        const int b = best >= 0 ? ready[best] : -1;
        if (b < 0 || ready_at[c] < ready_at[b] || (ready_at[c] == ready_at[b] && rank[c] > rank[b])) best = r;
    }
    return best;
}

static mrt_status place_critical_path(mrt_plan *p, const cp_graph *cg) {
    int n = p->n_tasks;
    cp_run run = {0};
    mrt_status st = cp_run_init(p, cg, &run);
    const size_t N = (size_t)n + 1, W = (size_t)p->workers;
    double *rank = calloc(N, sizeof(double)), *finish = calloc(N, sizeof(double));
    double *cost = calloc(N, sizeof(double)); /* each task's, computed once */
    double *free_at = calloc(W, sizeof(double)), *ready_at = run.ready_at;
    double *ev_rank = calloc((size_t)p->n_events + 1, sizeof(double)); /* the highest rank of an event's waiters */
    int *slots = calloc(W, sizeof(int));
    int *ready = calloc(N, sizeof(int)), nready = 0, *pos = calloc(N, sizeof(int));
    int *skipped = calloc(N, sizeof(int)); /* `now` tasks the worker may not take */
    int *fresh = calloc(N, sizeof(int));   /* tasks a placement made ready */
    /* ready tasks: `pending` (by ready time) until the freed-up time passes it, then `now` (by
     * rank); the array keeps their order of arrival, which breaks ties among tasks that
     * cannot start yet */
    cp_heap pending = {calloc(N, sizeof(int)), 0, rank, ready_at, earlier_ready};
    cp_heap now = {calloc(N, sizeof(int)), 0, rank, ready_at, higher_rank};
    cp_heap workers = {calloc(W, sizeof(int)), 0, NULL, free_at, earlier_free};
    if (!st && (!rank || !finish || !cost || !free_at || !ev_rank || !slots || !ready || !pos || !pending.a || !now.a ||
                !workers.a || !skipped || !fresh))
        st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    if (!st) {
        /* ranks in reverse plan order: consumers come after their producers in it. A task's
         * rank is its cost plus the highest rank among the waiters of the events its
         * instances count toward (its successors'). */
        for (int i = n - 1; i >= 0; i--) {
            double best = 0;
            for (int f = cg->feed_first[i]; f < cg->feed_first[i + 1]; f++) {
                const int inst = cg->feed[f];
                for (int k = cg->inst_ev_first[inst]; k < cg->inst_ev_first[inst + 1]; k++)
                    if (ev_rank[cg->inst_ev[k]] > best) best = ev_rank[cg->inst_ev[k]];
            }
            cost[i] = mrt_task_cost_us(p, &p->tasks[i]);
            rank[i] = cost[i] + best;
            for (int j = 0; j < p->tasks[i].n_wait; j++) {
                const int e = p->tasks[i].wait[j].event;
                if (rank[i] > ev_rank[e]) ev_rank[e] = rank[i];
            }
        }
        for (int i = 0; i < n; i++)
            if (!run.missing[i]) pos[i] = nready, ready[nready++] = i, heap_push(&pending, i);
        for (int w = 0; w < p->workers; w++) heap_push(&workers, w);
        for (int placed = 0; placed < n; placed++) {
            if (nready == 0) {
                st = mrt_fail(p->ctx, MRT_ERR_DEADLOCK, "placement: %d of %d tasks can never become ready", n - placed, n);
                break;
            }
            int w = heap_pop(&workers); /* back in with its new free time below */
            bool elsewhere = false;          /* --place sent the pick to another worker */
            /* among the tasks that can start as soon as that worker frees up, the highest rank;
             * if none can, the one ready first: a queue never sits idle behind a task waiting
             * for inputs while another task could run (ties: plan order, then arrival order,
             * reproducible). The freed-up time never decreases, so a task that can start now
             * can at every later pick: it moves from `pending` to `now` once. */
            while (pending.n && ready_at[pending.a[0]] <= free_at[w]) {
                const int c = heap_pop(&pending);
                if (pos[c] >= 0) heap_push(&now, c); /* else placed while pending (below) */
            }
            int t = -1, nskip = 0;
            while (now.n && t < 0) { /* the highest rank this worker may take */
                const int c = heap_pop(&now);
                if (may_take(p, c, w)) t = c;
                else skipped[nskip++] = c;
            }
            while (nskip) heap_push(&now, skipped[--nskip]);
            if (t < 0) { /* none it may take can start yet: the one ready first */
                const int best = first_ready(p, ready, nready, ready_at, rank, w);
                if (best >= 0) t = ready[best]; /* stays in `pending` until popped there (pos < 0 then) */
            }
            if (t < 0) {
                /* --place keeps every ready task off this worker: the pick is the one it would
                 * have taken without the ranges, by the worker of its range that frees up first
                 * (this one waits for a later pick: the heap's rebuild below puts it back) */
                t = now.n ? heap_pop(&now) : ready[first_ready(p, ready, nready, ready_at, rank, -1)];
                w = -1;
                for (int x = 0; x < p->workers; x++)
                    if (may_take(p, t, x) && (w < 0 || free_at[x] < free_at[w])) w = x;
                elsewhere = true;
            }
            const int r = pos[t];
            ready[r] = ready[--nready], pos[ready[r]] = r, pos[t] = -1;
            double start = free_at[w] > ready_at[t] ? free_at[w] : ready_at[t];
            finish[t] = start + cost[t];
            free_at[w] = finish[t];
            if (!elsewhere) {
                heap_push(&workers, w);
            } else { /* the worker popped above is out of the heap, w in it with its old free time */
                workers.n = 0;
                for (int x = 0; x < p->workers; x++) heap_push(&workers, x);
            }
            p->tasks[t].worker = w;
            p->tasks[t].slot = slots[w]++;
            /* the tasks it makes ready join in task order (the order they had as its
             * successors, before the event graph) */
            const int nfresh = cp_finish(cg, &run, t, finish[t], fresh);
            for (int a = 1; a < nfresh; a++) /* insertion sort: a few tasks */
                for (int b = a; b > 0 && fresh[b - 1] > fresh[b]; b--) {
                    const int x = fresh[b];
                    fresh[b] = fresh[b - 1], fresh[b - 1] = x;
                }
            for (int a = 0; a < nfresh; a++) {
                const int s = fresh[a];
                pos[s] = nready, ready[nready++] = s, heap_push(&pending, s);
            }
        }
    }
    cp_run_free(&run);
    free(rank), free(finish), free(cost), free(free_at), free(ev_rank), free(slots), free(ready), free(pos);
    free(skipped), free(fresh), free(pending.a), free(now.a), free(workers.a);
    return st;
}

/* The step under the cost model: each worker runs its queue in order; a task starts when
 * its worker is free and the producers of its events have published (a group's publication
 * when its last member finishes). Any placement can be compared this way without a GPU.
 * Workers whose next task can start are taken from a stack; a finished task completes its
 * instances, their events and its waiters as in place_critical_path (a task's start is the
 * later of its worker's free time and its events' last publication, whatever order the
 * workers are visited in). A placement that deadlocks leaves the span of what could run. */
static mrt_status estimate(mrt_plan *p, const cp_graph *cg) {
    const int n = p->n_tasks, L = p->max_len;
    cp_run r = {0};
    mrt_status st = cp_run_init(p, cg, &r);
    const size_t W = (size_t)p->workers;
    double *free_at = calloc(W, sizeof(double));
    int *head = calloc(W, sizeof(int)), *at = calloc(W * (size_t)L + 1, sizeof(int));
    int *runnable = calloc(W + 1, sizeof(int)), nrun = 0; /* workers whose head can start */
    int *fresh = calloc((size_t)n + 1, sizeof(int));
    if (!st && (!free_at || !head || !at || !runnable || !fresh))
        st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "estimate: out of memory");
    double span = 0;
    if (!st) {
        for (int i = 0; i < p->workers * L; i++) at[i] = -1;
        for (int t = 0; t < n; t++) at[p->tasks[t].worker * L + p->tasks[t].slot] = t;
        for (int w = 0; w < p->workers; w++) {
            while (head[w] < L && at[w * L + head[w]] < 0) head[w]++;
            if (head[w] < L && !r.missing[at[w * L + head[w]]]) runnable[nrun++] = w;
        }
        while (nrun) {
            const int w = runnable[--nrun], t = at[w * L + head[w]];
            const double start = free_at[w] > r.ready_at[t] ? free_at[w] : r.ready_at[t];
            const double finish = start + mrt_task_cost_us(p, &p->tasks[t]);
            free_at[w] = finish;
            if (finish > span) span = finish;
            const int nfresh = cp_finish(cg, &r, t, finish, fresh);
            for (int a = 0; a < nfresh; a++) { /* a waiter at its worker's head (not w's: that is t) can start */
                const int s = fresh[a], ws = p->tasks[s].worker;
                if (ws != w && head[ws] < L && at[ws * L + head[ws]] == s) runnable[nrun++] = ws;
            }
            head[w]++;
            while (head[w] < L && at[w * L + head[w]] < 0) head[w]++;
            if (head[w] < L && !r.missing[at[w * L + head[w]]]) runnable[nrun++] = w;
        }
    }
    p->estimate_us = span;
    cp_run_free(&r);
    free(free_at), free(head), free(at), free(runnable), free(fresh);
    return st;
}

/* queue_len and max_len from the tasks' worker and slot */
static void count_queues(mrt_plan *p) {
    memset(p->queue_len, 0, sizeof(int) * (size_t)p->workers);
    p->max_len = 0;
    for (int i = 0; i < p->n_tasks; i++) {
        int w = p->tasks[i].worker;
        if (p->tasks[i].slot + 1 > p->queue_len[w]) p->queue_len[w] = p->tasks[i].slot + 1;
    }
    for (int w = 0; w < p->workers; w++)
        if (p->queue_len[w] > p->max_len) p->max_len = p->queue_len[w];
    if (p->max_len == 0) p->max_len = 1;
}

/* A placement by `policy`, its queue lengths and its step under the cost model. (The
 * dependencies by event are built for each placement: built once and kept over both of
 * auto's placements, they moved where glibc trims its heap, and a tuned build at M=16
 * KV=8192 took 63 page faults instead of 9, 1.9 ms against 1.3, on the session-55 VM. Kept
 * in scratch memory the context holds between builds, they left glibc's mmap threshold low
 * and lowering's growing arrays mmapped: 184 faults a tuned build at M=128 KV=65536 against
 * 63.) */
static mrt_status place(mrt_plan *p, mrt_policy policy) {
    if (policy != MRT_POLICY_ROUNDROBIN && policy != MRT_POLICY_CRITICAL_PATH)
        return mrt_fail(p->ctx, MRT_ERR_INVALID, "unknown placement policy %d", policy);
    cp_graph cg = {0};
    mrt_status st = build_cp_graph(p, &cg);
    memset(p->queue_len, 0, sizeof(int) * (size_t)p->workers); /* roundrobin counts slots in it */
    if (!st && policy == MRT_POLICY_CRITICAL_PATH) st = place_critical_path(p, &cg);
    else if (!st) place_roundrobin(p);
    if (!st) {
        count_queues(p), p->placed = policy;
        st = estimate(p, &cg);
    }
    cp_graph_free(&cg);
    return st;
}

/* AUTO takes critical-path's queues only where the cost model puts their step more than 3%
 * below roundrobin's: the model's median error is 3-13% an instruction kind (4-10% in
 * session 23's fit, the one the figures below were measured under), and
 * critical-path's queues cost more than it sees (at M=16 KV=8192 its D0 tiles 16.2 us against
 * 13.8 under roundrobin, session 23 run 1: the model estimates the two placements alike, the
 * step was 84.6 against 79.5). The 3% is where run 2 (H200, 2026-11-30, the 12 shapes of
 * [E]'s sweep) separates them: critical-path was faster at M=1 KV=8192 / 65536 (estimate
 * ratios 0.85 / 0.87, steps 66.3 / 92.3 against 76.9 / 100.9 us), M=64 KV=1024 (0.959,
 * 121.4 against 125.9) and M=128 KV=1024 (0.943, 188.9 against 205.8), level at M=16
 * KV=65536 (0.943, 141.7 / 142.1), slower at M=64 KV=8192 (0.973, 151.9 against 141.4) and
 * KV=65536 (0.997, 334.9 against 311.6); the rest estimate alike (ratio 1.0). One miss at
 * that margin: M=16 KV=1024 (0.99) where critical-path was 3.0 us faster. With `place`
 * AUTO is roundrobin (a ranged critical-path is asked for by name). (MRT_AUTO_RATIO, internal.h)
 * Where no task works on more than MRT_AUTO_CP_TOKENS (16) tokens, AUTO takes critical-path
 * unless its estimate is above roundrobin's: there the two estimates tie at KV <= 2048 (the
 * model sees the step's chain, not the placement) and critical-path was faster at every
 * such shape measured (H200, session 31 runs 1 and 3, us, roundrobin against critical-path:
 * KV=1024 M=1 58.0 / 57.8, M=2 59.4 / 57.0, M=4 59.3-59.6 / 58.3-58.5, M=8 60.1 / 58.8, M=16
 * 61.2 / 60.2-60.5, each twice; KV=2048 M=1 58.9 / 56.6, M=4 59.9 / 58.0, M=16 61.1 / 60.9;
 * KV=4096 (estimate ratios 0.975-1.0) M=1 60.2 / 58.3, M=4 59.8 / 59.3, M=8 60.3 / 60.0).
 * Above 16 tokens ties went the other way (runs 2-3: M=24 KV=4096 70.1 against 72.1, M=32
 * KV=1024 73.3 against 76.3, M=128 KV=8192 185.4 against 187.4-190.4, M=32 KV=65536 151.2
 * against 175.3), and so did ratios 0.98-0.997 (M=96 KV=4096 150.7 against 151.9, KV=8192
 * 159.5 against 163.8) but for M=64 KV=8192 (0.990: 108.9-110.3 against 106.4-107.1): the
 * 97% stays there.
 * Above 16 tokens AUTO takes roundrobin wherever an index-logits op has more than
 * MRT_AUTO_IL_WAVES (1.5) times as many tasks as there are workers (mrt_plan_il_waves: its
 * tasks run in waves): critical-path ranks them above every other ready task (the index-logits
 * and top-k path is the step's longest), so their waves run back to back on every worker and
 * the other branch (D0 -> D2 in GLM-5) is left for the end, where its tiles and the top-k rows
 * queue behind each other (session 38 run 4's traces, M=64 KV=65536: D0's last tiles visible
 * at 142 us against 61 under roundrobin). The model does not see it: with each op's measured
 * median time the two queues replay in the other order (session 39; the spans follow the
 * tasks' own times: a sliced top-k row's merging slice takes 36 us against its other slice's
 * 21.5, an index-logits task's first pass of keys lands ~3-4 us later as the first after a
 * GEMM on its worker under critical-path). Measured (H200, session 39 run 3, the auto picks
 * before and after, A B twice, us): KV=65536 (256 tasks, 1.94x) M=24 144.0 / 143.6 -> 132.5 /
 * 130.8, M=32 159.0 / 159.4 -> 143.2 / 143.1, M=48 170.9 / 171.7 -> 172.7 / 171.1, M=64 210.0 /
 * 211.4 -> 195.3 / 195.7, M=96 320.4 / 318.9 -> 310.2 / 310.9 (M=128 took roundrobin already).
 * At 1.45x (KV=49152, 192 tasks) it went either way: M=24 -5.5, M=48 -9, but M=96 +18
 * (253-257 -> 273), and below one wave too (runs 1-2, the tuned tiling under each policy:
 * KV=32768 M=64 153.4 against 168.5 for critical-path, M=96 229.9 against 218.9; KV=16384
 * M=24 82.7 against 77.3), so the rule stops at 1.5x. */
static bool few_tokens(const mrt_plan *p) {
    for (int i = 0; i < p->n_tasks; i++)
        if (mrt_task_tokens(p, &p->tasks[i]) > MRT_AUTO_CP_TOKENS) return false;
    return true;
}
bool mrt_plan_il_waves(const mrt_plan *p) {
    int n[MRT_MAX_OPS] = {0};
    for (int i = 0; i < p->n_tasks; i++) {
        const int op = p->tasks[i].op;
        if (p->g->ops[op].kind == MRT_OPC_INDEX_LOGITS && ++n[op] > MRT_AUTO_IL_WAVES * p->workers) return true;
    }
    return false;
}
static bool any_place(const mrt_plan *p) {
    for (int op = 0; op < MRT_MAX_OPS; op++)
        if (p->place_lo[op] >= 0) return true;
    return false;
}

static mrt_status place_auto(mrt_plan *p) {
    mrt_status st = place(p, MRT_POLICY_CRITICAL_PATH);
    if (st) return st;
    const double cp_us = p->estimate_us;
    int *keep = malloc(sizeof(int) * 2 * (size_t)(p->n_tasks + 1));
    if (!keep) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "placement: out of memory");
    for (int i = 0; i < p->n_tasks; i++) keep[2 * i] = p->tasks[i].worker, keep[2 * i + 1] = p->tasks[i].slot;
    st = place(p, MRT_POLICY_ROUNDROBIN);
    if (!st && (few_tokens(p) ? cp_us <= p->estimate_us
                              : !mrt_plan_il_waves(p) && cp_us < MRT_AUTO_RATIO * p->estimate_us)) {
        p->auto_other_us = p->estimate_us;
        for (int i = 0; i < p->n_tasks; i++) p->tasks[i].worker = keep[2 * i], p->tasks[i].slot = keep[2 * i + 1];
        count_queues(p);
        p->placed = MRT_POLICY_CRITICAL_PATH, p->estimate_us = cp_us;
    } else if (!st) {
        p->auto_other_us = cp_us;
    }
    free(keep);
    return st;
}

mrt_status mrt_schedule(mrt_plan *p) {
    p->workers = p->opts.workers;
    p->queue_len = calloc((size_t)p->workers, sizeof(int));
    if (!p->queue_len) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    if (p->opts.policy == MRT_POLICY_AUTO) return any_place(p) ? place(p, MRT_POLICY_ROUNDROBIN) : place_auto(p);
    return place(p, p->opts.policy);
}
