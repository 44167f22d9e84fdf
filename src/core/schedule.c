/* Placement: tasks -> per-worker queues. Every queue keeps one global topological order of
 * the tasks, which is what makes spin-waiting deadlock-free (the verifier proves it).
 *
 * roundrobin (the article's): task i of the plan order goes to worker i % workers.
 * critical-path: list scheduling. A task's cost is an estimate of its time on one SM from
 * the bytes it moves; its rank is its cost plus the largest rank among the tasks that wait
 * for it (the longest remaining path). Repeatedly the ready task of highest rank goes to the
 * worker that frees up first. Tasks are picked only after their producers, so the pick order
 * is topological and every queue, kept in pick order, follows it. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void place_roundrobin(mrt_plan *p) {
    for (int i = 0; i < p->n_tasks; i++) {
        p->tasks[i].worker = i % p->workers;
        p->tasks[i].slot = i / p->workers;
    }
}

/* The cost model: a fixed per-instruction cost (decode, barriers, pipeline ramp) plus the
 * bytes at one SM's share of HBM bandwidth (H200: ~4.3 TB/s over 132 SMs). */
#define MRT_COST_FIXED_US 0.8
#define MRT_SM_BYTES_PER_US (4.3e6 / 132.0)

static double task_us(const mrt_task *k) { return MRT_COST_FIXED_US + k->cost / MRT_SM_BYTES_PER_US; }

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

/* A max-heap of ready tasks by rank (ties: plan order, for reproducible plans). */
typedef struct heap {
    int *v, n;
    const double *rank;
} heap;

static bool above(const heap *h, int a, int b) {
    return h->rank[a] > h->rank[b] || (h->rank[a] == h->rank[b] && a < b);
}
static void heap_push(heap *h, int t) {
    int i = h->n++;
    h->v[i] = t;
    while (i && above(h, h->v[i], h->v[(i - 1) / 2])) {
        int u = (i - 1) / 2, x = h->v[i];
        h->v[i] = h->v[u], h->v[u] = x, i = u;
    }
}
static int heap_pop(heap *h) {
    int top = h->v[0], i = 0;
    h->v[0] = h->v[--h->n];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, b = i;
        if (l < h->n && above(h, h->v[l], h->v[b])) b = l;
        if (r < h->n && above(h, h->v[r], h->v[b])) b = r;
        if (b == i) break;
        int x = h->v[i];
        h->v[i] = h->v[b], h->v[b] = x, i = b;
    }
    return top;
}

static mrt_status place_critical_path(mrt_plan *p) {
    deps d = {0};
    mrt_status st = build_deps(p, &d);
    int n = p->n_tasks;
    double *rank = calloc((size_t)n + 1, sizeof(double)), *finish = calloc((size_t)n + 1, sizeof(double));
    double *ready_at = calloc((size_t)n + 1, sizeof(double)), *free_at = calloc((size_t)p->workers, sizeof(double));
    int *missing = calloc((size_t)n + 1, sizeof(int)), *slots = calloc((size_t)p->workers, sizeof(int));
    int *succ_first = calloc((size_t)n + 2, sizeof(int)), *succ = NULL;
    heap h = {malloc(sizeof(int) * (size_t)(n + 1)), 0, rank};
    if (!st && (!rank || !finish || !ready_at || !free_at || !missing || !slots || !succ_first || !h.v))
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
            rank[i] = task_us(&p->tasks[i]) + best;
        }
        for (int i = 0; i < n; i++) {
            missing[i] = d.first[i + 1] - d.first[i];
            if (!missing[i]) heap_push(&h, i);
        }
        for (int placed = 0; placed < n; placed++) {
            if (h.n == 0) {
                st = mrt_fail(p->ctx, MRT_ERR_DEADLOCK, "placement: %d of %d tasks can never become ready", n - placed, n);
                break;
            }
            int t = heap_pop(&h), w = 0;
            for (int k = 1; k < p->workers; k++)
                if (free_at[k] < free_at[w]) w = k;
            double start = free_at[w] > ready_at[t] ? free_at[w] : ready_at[t];
            finish[t] = start + task_us(&p->tasks[t]);
            free_at[w] = finish[t];
            p->tasks[t].worker = w;
            p->tasks[t].slot = slots[w]++;
            for (int k = succ_first[t]; k < succ_first[t + 1]; k++) {
                int s = succ[k];
                if (finish[t] > ready_at[s]) ready_at[s] = finish[t];
                if (--missing[s] == 0) heap_push(&h, s);
            }
        }
    }
    free(d.first), free(d.list), free(rank), free(finish), free(ready_at), free(free_at);
    free(missing), free(slots), free(succ_first), free(succ), free(h.v);
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
