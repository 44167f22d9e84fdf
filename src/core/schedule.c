/* Placement: tasks -> per-worker queues. Every queue keeps the plan's global topological
 * task order, which is what makes spin-waiting deadlock-free (the verifier proves it). */
#include <stdlib.h>

#include "internal.h"

/* roundrobin (the article's): task i goes to worker i % workers. */
static void place_roundrobin(mrt_plan *p) {
    for (int i = 0; i < p->n_tasks; i++) {
        p->tasks[i].worker = i % p->workers;
        p->tasks[i].slot = i / p->workers;
    }
}

mrt_status mrt_schedule(mrt_plan *p) {
    p->workers = p->opts.workers;
    p->queue_len = calloc((size_t)p->workers, sizeof(int));
    if (!p->queue_len) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    switch (p->opts.policy) {
    case MRT_POLICY_ROUNDROBIN: place_roundrobin(p); break;
    default: return mrt_fail(p->ctx, MRT_ERR_INVALID, "unknown placement policy %d", p->opts.policy);
    }
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
