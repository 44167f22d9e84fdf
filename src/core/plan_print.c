/* Printing a plan: a table for people, one JSON object for tools and tests. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void producer_label(const mrt_plan *p, int inst, char *buf, size_t n) {
    const mrt_pubinst *q = &p->pubs[inst];
    const mrt_task *k = &p->tasks[q->task >= 0 ? q->task : p->groups[q->group].first_task];
    const char *op = p->g->ops[k->op].name;
    if (q->task >= 0) snprintf(buf, n, "%s[%d]", op, k->index);
    else snprintf(buf, n, "%s[%d-%d]", op, k->index, k->index + p->groups[q->group].members - 1);
}

/* Per event, its consumers (tasks waiting on it), from the tasks' waits. */
static int *consumers_by_event(const mrt_plan *p, int **first) {
    *first = calloc((size_t)p->n_events + 2, sizeof(int));
    int total = 0;
    for (int i = 0; i < p->n_tasks; i++) total += p->tasks[i].n_wait;
    int *list = malloc(sizeof(int) * (size_t)(total + 1));
    if (!*first || !list) {
        free(*first);
        free(list);
        *first = NULL;
        return NULL;
    }
    for (int i = 0; i < p->n_tasks; i++)
        for (int j = 0; j < p->tasks[i].n_wait; j++) (*first)[p->tasks[i].wait[j].event + 1]++;
    for (int e = 0; e < p->n_events; e++) (*first)[e + 1] += (*first)[e];
    int *fill = calloc((size_t)p->n_events + 1, sizeof(int));
    for (int i = 0; i < p->n_tasks; i++)
        for (int j = 0; j < p->tasks[i].n_wait; j++) {
            int e = (int)p->tasks[i].wait[j].event;
            list[(*first)[e] + fill[e]++] = i;
        }
    free(fill);
    return list;
}

/* "B0 x84, B1 x8": counts of consumer tasks by op. */
static void summarize(const mrt_plan *p, const int *tasks, int n, char *buf, size_t cap) {
    buf[0] = 0;
    int counts[MRT_MAX_OPS] = {0};
    for (int i = 0; i < n; i++) counts[p->tasks[tasks[i]].op]++;
    for (int o = 0; o < MRT_MAX_OPS; o++)
        if (counts[o]) {
            size_t len = strlen(buf);
            snprintf(buf + len, cap - len, "%s%s x%d", len ? ", " : "", p->g->ops[o].name, counts[o]);
        }
}

static void print_table(const mrt_plan *p, FILE *f, const int *cfirst, const int *clist) {
    fprintf(f, "ops (%d planned):\n  %-4s %-18s %6s  %-28s\n", p->n_ops, "op", "kind", "tiles", "tiling");
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &p->g->ops[p->ops[i]];
        const mrt_tile_cfg *c = &p->cfg[op->id];
        fprintf(f, "  %-4s %-18s %6d  block_m %d block_n %d split %d chunk %d\n", op->name, mrt_op_kind(op),
                p->op_tasks[op->id], c->block_m, c->block_n, c->split, c->chunk);
    }
    fprintf(f, "events (%d):\n  %-5s %9s  %-11s  %-30s %s\n", p->n_events, "id", "threshold", "strategy", "producers",
            "consumers");
    for (int e = 0; e < p->n_events; e++) {
        const mrt_event *ev = &p->events[e];
        char prod[128], first[40], last[40], cons[256];
        producer_label(p, p->ev_prod[ev->prod0], first, sizeof first);
        producer_label(p, p->ev_prod[ev->prod0 + ev->n_prod - 1], last, sizeof last);
        if (ev->n_prod == 1) snprintf(prod, sizeof prod, "%s", first);
        else snprintf(prod, sizeof prod, "%d: %s .. %s", ev->n_prod, first, last);
        summarize(p, clist + cfirst[e], cfirst[e + 1] - cfirst[e], cons, sizeof cons);
        fprintf(f, "  e%-4d %9u  %-11s  %-30s %s\n", e, ev->threshold, mrt_strategy_name(ev->strategy), prod, cons);
    }
    fprintf(f, "queues: [%d, %d, %d] (%d tasks, %d NoOp pads)\n", p->workers, p->max_len, MRT_INSTR_WORDS, p->n_tasks,
            p->workers * p->max_len - p->n_tasks);
    fprintf(f, "queue lengths:");
    for (int len = p->max_len; len >= 0; len--) {
        int n = 0;
        for (int w = 0; w < p->workers; w++) n += p->queue_len[w] == len;
        if (n) fprintf(f, "  %d x %d", n, len);
    }
    fprintf(f, "  (workers x instructions)\ncost-model step estimate: %.1f us (each instruction's time from its kind, "
               "tokens, bytes and arithmetic, fitted to the megakernel's trace on the H200: within 9%% of the "
               "traced step at M >= 16 KV <= 8192, 3-20%% low at KV=65536, 15-31%% low at M=1; for comparing "
               "placements)\n", p->estimate_us);
    if (p->opts.policy == MRT_POLICY_AUTO && p->auto_other_us > 0)
        fprintf(f, "placement: auto took %s (estimate %.1f us against %s's %.1f; critical-path is taken below "
                   "%.0f%% of roundrobin's, or up to 100%% where no task works on more than %d tokens; above that "
                   "never where the index logits have more than %.1fx as many tasks as workers)\n",
                mrt_policy_name(p->placed), p->estimate_us,
                mrt_policy_name(p->placed == MRT_POLICY_CRITICAL_PATH ? MRT_POLICY_ROUNDROBIN : MRT_POLICY_CRITICAL_PATH),
                p->auto_other_us, 100 * MRT_AUTO_RATIO, MRT_AUTO_CP_TOKENS, MRT_AUTO_IL_WAVES);
    if (p->n_tune > 1) { /* what tuning compared (plan.c build_tuned) */
        fprintf(f, "tuning:");
        for (int i = 0; i < p->n_tune; i++)
            fprintf(f, "%s %s %.1f us%s", i ? "," : "", *p->tune[i].opts ? p->tune[i].opts : "the default tiling",
                    p->tune[i].estimate_us, !strcmp(p->tune[i].opts, p->tuned) ? " (taken)" : "");
        fprintf(f, " (cost-model steps; the lowest is taken)\n");
    }
    fprintf(f, "build: %.1f us (validate + configure %.0f, tile + lower %.0f, place %.0f", p->build_us, p->phase_us[0],
            p->phase_us[1], p->phase_us[2]);
    if (p->n_tune > 1) fprintf(f, ", these three over the %d tilings", p->n_tune);
    fprintf(f, "; encode %.0f, verify %.0f)\n", p->phase_us[3], p->phase_us[4]);
}

/* queues: each worker's tasks in queue order, "OP[index]" (what a placement did, task by
 * task: two plans can be compared by their JSON). by_slot: [workers][max_len] task ids, or
 * NULL when it could not be allocated (the array is then left out). */
static void print_json_queues(const mrt_plan *p, FILE *f) {
    int *by_slot = (int *)malloc(sizeof(int) * (size_t)p->workers * (size_t)(p->max_len > 0 ? p->max_len : 1));
    if (!by_slot) return;
    for (int t = 0; t < p->n_tasks; t++) by_slot[p->tasks[t].worker * p->max_len + p->tasks[t].slot] = t;
    fprintf(f, "\n \"queues\": [");
    for (int w = 0; w < p->workers; w++) {
        fprintf(f, "%s[", w ? ", " : "");
        for (int s = 0; s < p->queue_len[w]; s++) {
            const mrt_task *k = &p->tasks[by_slot[w * p->max_len + s]];
            fprintf(f, "%s\"%s[%d]\"", s ? ", " : "", p->g->ops[k->op].name, k->index);
        }
        fprintf(f, "]");
    }
    fprintf(f, "],");
    free(by_slot);
}

static void print_json(const mrt_plan *p, FILE *f, const int *cfirst, const int *clist) {
    fprintf(f, "{\"tasks\": %d, \"events\": %d, \"queue_shape\": [%d, %d, %d], \"build_us\": %.3f, \"estimate_us\": %.3f,\n"
               " \"policy\": \"%s\",\n", p->n_tasks, p->n_events, p->workers, p->max_len, MRT_INSTR_WORDS, p->build_us,
            p->estimate_us, mrt_policy_name(p->placed));
    /* what tuning compared: [options, cost-model step] a tiling, "" the default one */
    fprintf(f, " \"tuned\": \"%s\", \"tuning\": [", p->tuned);
    for (int i = 0; i < p->n_tune; i++) fprintf(f, "%s[\"%s\", %.3f]", i ? ", " : "", p->tune[i].opts, p->tune[i].estimate_us);
    fprintf(f, "],\n");
    fprintf(f, " \"queue_lengths\": [");
    for (int w = 0; w < p->workers; w++) fprintf(f, "%s%d", w ? ", " : "", p->queue_len[w]);
    fprintf(f, "],");
    print_json_queues(p, f);
    /* the cost model's inputs and estimate, task by task (plan order): what
     * scripts/fit_costs.py fits against a trace of the same plan */
    fprintf(f, "\n \"task_costs\": [");
    for (int t = 0; t < p->n_tasks; t++) {
        const mrt_task *k = &p->tasks[t];
        fprintf(f, "%s[\"%s[%d]\", %d, %.0f, %.0f, %.3f]", t ? ", " : "", p->g->ops[k->op].name, k->index,
                mrt_task_tokens(p, k), k->cost, k->flops, mrt_task_cost_us(p, k));
    }
    fprintf(f, "],");
    /* the worker's step each task cost includes: fit_costs.py takes it off a cost to compare it
     * with a measured time */
    fprintf(f, "\n \"cost_gap_us\": %.3f,", mrt_cost_gap_us());
    fprintf(f, "\n \"ops\": [");
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &p->g->ops[p->ops[i]];
        const mrt_tile_cfg *c = &p->cfg[op->id];
        fprintf(f, "%s\n  {\"name\": \"%s\", \"kind\": \"%s\", \"tiles\": %d, \"block_m\": %d, \"block_n\": %d, "
                   "\"split\": %d, \"chunk\": %d}", i ? "," : "", op->name, mrt_op_kind(op), p->op_tasks[op->id],
                c->block_m, c->block_n, c->split, c->chunk);
    }
    fprintf(f, "],\n \"event_list\": [");
    for (int e = 0; e < p->n_events; e++) {
        const mrt_event *ev = &p->events[e];
        fprintf(f, "%s\n  {\"id\": %d, \"threshold\": %u, \"strategy\": \"%s\", \"producers\": [", e ? "," : "", e,
                ev->threshold, mrt_strategy_name(ev->strategy));
        for (int i = 0; i < ev->n_prod; i++) {
            char lbl[64];
            producer_label(p, p->ev_prod[ev->prod0 + i], lbl, sizeof lbl);
            fprintf(f, "%s\"%s\"", i ? ", " : "", lbl);
        }
        fprintf(f, "], \"consumers\": [");
        for (int i = cfirst[e]; i < cfirst[e + 1]; i++) {
            const mrt_task *k = &p->tasks[clist[i]];
            fprintf(f, "%s\"%s[%d]\"", i > cfirst[e] ? ", " : "", p->g->ops[k->op].name, k->index);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "]}\n");
}

mrt_status mrt_plan_print(const mrt_plan *p, FILE *f, int json) {
    if (!p || !f) return MRT_ERR_INVALID;
    int *cfirst = NULL, *clist = consumers_by_event(p, &cfirst);
    if (!clist) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan print: out of memory");
    if (json) print_json(p, f, cfirst, clist);
    else print_table(p, f, cfirst, clist);
    free(cfirst);
    free(clist);
    return MRT_OK;
}
