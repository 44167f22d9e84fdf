/* Lowering: each planned op expands into tiles (tasks with declared regions), then every
 * producer -> consumer tensor edge becomes events by its pairing strategy.
 *
 * Events are keyed by the exact set of publication instances a consumer must see; two
 * consumers that need the same set share one event (the article's e0 serves B0 and B1).
 * A publication instance is a task's publication, or a reduce group's (done once, by the
 * group's finalizer). `--fuse-events` additionally merges events whose instances come from
 * the same tasks (Mirage's event fusion): A0's two publications then share one counter. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "memo.h"

struct mrt_tiler {
    mrt_plan *p;
    const mrt_op *op;
    mrt_status st;
    int cap_tasks, cap_groups, cap_tensors, cap_acc;
    int group, group_left; /* open reduce group */
    uint32_t group_pubs;
};

static bool grow(void **arr, int *cap, int need, size_t elem) {
    if (need <= *cap) return true;
    int n = *cap ? *cap * 2 : 64;
    while (n < need) n *= 2;
    void *q = realloc(*arr, (size_t)n * elem);
    if (!q) return false;
    *arr = q;
    *cap = n;
    return true;
}

static mrt_task *cur_task(mrt_tiler *t) {
    mrt_plan *p = t->p;
    if (p->n_tasks == 0 || p->tasks[p->n_tasks - 1].op != t->op->id) return NULL;
    return &p->tasks[p->n_tasks - 1];
}

uint32_t *mrt_tiler_task(mrt_tiler *t, double bytes, double flops) {
    static uint32_t sink[MRT_PAYLOAD_WORDS];
    mrt_plan *p = t->p;
    if (t->st) return sink;
    if (!grow((void **)&p->tasks, &t->cap_tasks, p->n_tasks + 1, sizeof(mrt_task))) {
        t->st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for tasks");
        return sink;
    }
    mrt_task *k = &p->tasks[p->n_tasks];
    memset(k, 0, sizeof *k);
    k->op = t->op->id;
    k->acc0 = p->n_acc;
    k->index = p->op_tasks[t->op->id]++;
    k->cost = bytes;
    k->flops = flops;
    k->group = -1;
    if (t->group_left > 0) {
        k->group = t->group;
        k->group_pubs = t->group_pubs;
        t->group_left--;
    }
    if (k->index == 0) p->op_first_task[t->op->id] = p->n_tasks;
    p->n_tasks++;
    return k->payload;
}

static void add_access(mrt_tiler *t, const mrt_tensor *tensor, mrt_box box, int kind, int pub) {
    mrt_plan *p = t->p;
    if (t->st) return;
    mrt_task *k = cur_task(t);
    if (!k) {
        t->st = mrt_fail(t->p->ctx, MRT_ERR_INVALID, "op %s: region declared before any task", t->op->name);
        return;
    }
    if (k->n_acc >= MRT_MAX_ACCESS || pub < 0 || pub >= 8) {
        t->st = mrt_fail(t->p->ctx, MRT_ERR_LIMIT, "op %s task %d: more than %d regions or publication %d >= 8",
                         t->op->name, k->index, MRT_MAX_ACCESS, pub);
        return;
    }
    if (mrt_box_empty(box)) return;
    if (!grow((void **)&p->acc, &t->cap_acc, p->n_acc + 1, sizeof(mrt_access))) {
        t->st = mrt_fail(t->p->ctx, MRT_ERR_NOMEM, "plan: out of memory for regions");
        return;
    }
    mrt_access *a = &p->acc[p->n_acc++];
    k->n_acc++;
    a->tensor = tensor->id;
    a->kind = kind;
    a->pub = pub;
    a->box = box;
}

void mrt_tiler_read(mrt_tiler *t, const mrt_tensor *x, mrt_box b) { add_access(t, x, b, MRT_ACC_READ, 0); }
void mrt_tiler_write(mrt_tiler *t, const mrt_tensor *x, mrt_box b, int pub) {
    add_access(t, x, b, MRT_ACC_WRITE, pub);
}
void mrt_tiler_partial(mrt_tiler *t, const mrt_tensor *x, mrt_box b, int pub) {
    add_access(t, x, b, MRT_ACC_PARTIAL, pub);
}

uint32_t mrt_tiler_group(mrt_tiler *t, int members, uint32_t group_pubs) {
    mrt_plan *p = t->p;
    if (t->st) return 0;
    if (members < 1 || (unsigned)members > MRT_MAX_GROUP_MEMBERS || p->n_groups + 1 >= (int)MRT_MAX_GROUPS) {
        t->st = mrt_fail(p->ctx, MRT_ERR_LIMIT, "op %s: reduce group of %d members (1..%u allowed)",
                         t->op->name, members, MRT_MAX_GROUP_MEMBERS);
        return 0;
    }
    if (!grow((void **)&p->groups, &t->cap_groups, p->n_groups + 1, sizeof(mrt_group))) {
        t->st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for groups");
        return 0;
    }
    mrt_group *gr = &p->groups[p->n_groups];
    gr->op = t->op->id;
    gr->members = members;
    gr->first_task = p->n_tasks;
    t->group = p->n_groups++;
    t->group_left = members;
    t->group_pubs = group_pubs;
    return (uint32_t)t->group;
}

void mrt_tiler_set_partials(mrt_tiler *t, const mrt_tensor *x, int partials) {
    t->p->tensors[x->id].partials = partials;
}

int mrt_tiler_scratch(mrt_tiler *t, const char *name, mrt_dtype dtype, int64_t rows, int64_t cols) {
    mrt_plan *p = t->p;
    if (t->st) return 0;
    if (!grow((void **)&p->tensors, &t->cap_tensors, p->n_tensors + 1, sizeof(mrt_plan_tensor))) {
        t->st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for tensors");
        return 0;
    }
    mrt_plan_tensor *pt = &p->tensors[p->n_tensors];
    memset(pt, 0, sizeof *pt);
    pt->t.id = p->n_tensors;
    snprintf(pt->t.name, sizeof pt->t.name, "%s.%s", t->op->name, name);
    pt->t.dtype = dtype;
    pt->t.role = MRT_ROLE_WORKSPACE;
    pt->t.ndim = 2;
    pt->t.dims[0] = rows;
    pt->t.dims[1] = cols;
    pt->t.producer = t->op->id;
    pt->partials = 1;
    pt->scratch_of = t->op->id;
    return p->n_tensors++;
}

const mrt_tensor *mrt_tiler_tensor(mrt_tiler *t, int id) { return &t->p->tensors[id].t; }

/* ---- publication instances ------------------------------------------------------------ */

/* Numbers the publication instances and indexes every tensor's writes by instance. A
 * group instance's writes are the first member's declaration: every member declares the
 * same finalizer writes, since any of them may be the one that performs them. */
static mrt_status make_pubs(mrt_plan *p) {
    p->task_inst = malloc(sizeof(int) * 8 * (size_t)(p->n_tasks + 1));
    p->group_inst = malloc(sizeof(int) * 8 * (size_t)(p->n_groups + 1));
    p->pubs = malloc(sizeof(mrt_pubinst) * 8 * (size_t)(p->n_tasks + 1));
    p->wr_first = malloc(sizeof(int) * (size_t)(p->n_tensors + 1));
    p->wr = malloc(sizeof(mrt_write) * (size_t)(p->n_acc + 1));
    if (!p->task_inst || !p->group_inst || !p->pubs || !p->wr_first || !p->wr)
        return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    memset(p->task_inst, 0xFF, sizeof(int) * 8 * (size_t)(p->n_tasks + 1));
    memset(p->group_inst, 0xFF, sizeof(int) * 8 * (size_t)(p->n_groups + 1));
    int *count = calloc((size_t)p->n_tensors + 1, sizeof(int));
    if (!count) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { /* counting sort of the writes by tensor */
            int sum = 0;
            for (int x = 0; x < p->n_tensors; x++) p->wr_first[x] = sum, sum += count[x], count[x] = 0;
            p->wr_first[p->n_tensors] = sum;
        }
        for (int i = 0; i < p->n_tasks; i++) {
            const mrt_task *k = &p->tasks[i];
            for (int a = 0; a < k->n_acc; a++) {
                const mrt_access *w = &mrt_task_acc(p, k)[a];
                if (w->kind == MRT_ACC_READ) continue;
                bool by_group = k->group >= 0 && (k->group_pubs >> w->pub & 1u);
                if (by_group && i != p->groups[k->group].first_task) continue;
                int *slot = by_group ? &p->group_inst[k->group * 8 + w->pub] : &p->task_inst[i * 8 + w->pub];
                if (pass == 0) {
                    count[w->tensor]++;
                    if (*slot >= 0) continue;
                    mrt_pubinst *q = &p->pubs[p->n_pubs];
                    q->task = by_group ? -1 : i;
                    q->group = by_group ? k->group : -1;
                    q->pub = w->pub;
                    *slot = p->n_pubs++;
                } else {
                    mrt_write *r = &p->wr[p->wr_first[w->tensor] + count[w->tensor]++];
                    r->inst = *slot;
                    r->kind = w->kind;
                    r->box = w->box;
                }
            }
        }
    }
    free(count);
    return MRT_OK;
}

/* ---- events ---------------------------------------------------------------------------- */

typedef struct ev_table {
    int cap, cap_prod, n_prod;
    int *hash; /* open addressing: event id or -1 */
    int hcap;
} ev_table;

static uint64_t set_hash(const int *ids, int n) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++) h = (h ^ (uint64_t)(unsigned)ids[i]) * 1099511628211ull;
    return h ^ (uint64_t)n;
}

static mrt_status ev_rehash(mrt_plan *p, ev_table *et) {
    int hcap = et->hcap ? et->hcap * 2 : 256;
    int *h = malloc(sizeof(int) * (size_t)hcap);
    if (!h) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for events");
    memset(h, 0xFF, sizeof(int) * (size_t)hcap);
    for (int e = 0; e < p->n_events; e++) {
        uint64_t x = set_hash(p->ev_prod + p->events[e].prod0, p->events[e].n_prod);
        int j = (int)(x % (uint64_t)hcap);
        while (h[j] >= 0) j = (j + 1) % hcap;
        h[j] = e;
    }
    free(et->hash);
    et->hash = h;
    et->hcap = hcap;
    return MRT_OK;
}

/* Finds or makes the event for the sorted instance set ids[0..n). */
static int ev_get(mrt_plan *p, ev_table *et, const int *ids, int n, mrt_strategy s, int prod_op,
                  int tensor, mrt_status *st) {
    if (2 * (p->n_events + 1) > et->hcap && (*st = ev_rehash(p, et))) return -1;
    uint64_t x = set_hash(ids, n);
    int j = (int)(x % (uint64_t)et->hcap);
    for (; et->hash[j] >= 0; j = (j + 1) % et->hcap) {
        const mrt_event *e = &p->events[et->hash[j]];
        if (e->n_prod == n && !memcmp(p->ev_prod + e->prod0, ids, sizeof(int) * (size_t)n)) return e->id;
    }
    if (!grow((void **)&p->events, &et->cap, p->n_events + 1, sizeof(mrt_event)) ||
        !grow((void **)&p->ev_prod, &et->cap_prod, et->n_prod + n, sizeof(int))) {
        *st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for events");
        return -1;
    }
    mrt_event *e = &p->events[p->n_events];
    memset(e, 0, sizeof *e);
    e->id = p->n_events;
    e->threshold = (uint32_t)n;
    e->strategy = s;
    e->producer_op = prod_op;
    e->tensor = tensor;
    e->n_prod = n;
    e->prod0 = et->n_prod;
    memcpy(p->ev_prod + et->n_prod, ids, sizeof(int) * (size_t)n);
    et->n_prod += n;
    et->hash[j] = e->id;
    return p->n_events++;
}

static const char *tname(const mrt_plan *p, int tensor) { return p->tensors[tensor].t.name; }

static const char *task_label(const mrt_plan *p, int task, char *buf, size_t n) {
    const mrt_task *k = &p->tasks[task];
    snprintf(buf, n, "%s[%d]", p->g->ops[k->op].name, k->index);
    return buf;
}

/* Checks a fine strategy's claim against the declared regions (DESIGN.md section 1). */
static mrt_status check_claim(mrt_plan *p, mrt_strategy s, int cons, const mrt_access *rd) {
    char lbl[48];
    mrt_box boxes[256];
    int kinds[256], nb = 0, n = 0, last_inst = -1;
    for (int i = p->wr_first[rd->tensor]; i < p->wr_first[rd->tensor + 1]; i++) {
        const mrt_write *w = &p->wr[i];
        if (!mrt_box_overlap(w->box, rd->box)) continue;
        if (nb == 256)
            return mrt_fail(p->ctx, MRT_ERR_LIMIT, "task %s: more than 256 producer regions on %s",
                            task_label(p, cons, lbl, sizeof lbl), tname(p, rd->tensor));
        n += w->inst != last_inst; /* writes of one instance are adjacent */
        last_inst = w->inst;
        boxes[nb] = w->box;
        kinds[nb++] = w->kind;
    }
    bool cache = p->tensors[rd->tensor].t.role == MRT_ROLE_CACHE;
    mrt_box gap;
    if (s == MRT_STRAT_REDUCE) {
        for (int i = 0; i < nb; i++)
            if (kinds[i] != MRT_ACC_PARTIAL || !mrt_box_contains(boxes[i], rd->box))
                return mrt_fail(p->ctx, MRT_ERR_RACE,
                                "tile_reduce claim fails for %s reading %s: a producer region is not a partial "
                                "of the whole read region", task_label(p, cons, lbl, sizeof lbl), tname(p, rd->tensor));
        return MRT_OK;
    }
    if (s == MRT_STRAT_TILE && n != 1)
        return mrt_fail(p->ctx, MRT_ERR_RACE, "tile claim fails for %s reading %s: %d producers, expected 1",
                        task_label(p, cons, lbl, sizeof lbl), tname(p, rd->tensor), n);
    /* no producer region overlaps another (a partial may: split-K planes of one box) */
    bool partial = false, overlap = false;
    for (int i = 0; i < nb; i++) partial |= kinds[i] == MRT_ACC_PARTIAL;
    if (!partial) overlap = !mrt_boxes_disjoint(boxes, nb);
    for (int i = 0; partial && i < nb && !overlap; i++)
        for (int j = i + 1; j < nb && !overlap; j++)
            overlap = kinds[i] != MRT_ACC_PARTIAL && mrt_box_overlap(boxes[i], boxes[j]);
    if (overlap)
        return mrt_fail(p->ctx, MRT_ERR_RACE, "%s claim fails for %s reading %s: producer regions overlap",
                        mrt_strategy_name(s), task_label(p, cons, lbl, sizeof lbl), tname(p, rd->tensor));
    if (!cache && !mrt_boxes_cover(boxes, nb, rd->box, &gap))
        return mrt_fail(p->ctx, MRT_ERR_RACE,
                        "%s claim fails for %s reading %s: rows %lld..%lld cols %lld..%lld are written by no "
                        "producer task", mrt_strategy_name(s), task_label(p, cons, lbl, sizeof lbl),
                        tname(p, rd->tensor), (long long)gap.r0, (long long)gap.r1, (long long)gap.c0,
                        (long long)gap.c1);
    return MRT_OK;
}

/* Instances that write `tensor`, overlapping `box` (all of them if box is NULL), sorted
 * and without repeats. */
static int find_producers(const mrt_plan *p, int tensor, const mrt_box *box, int *ids) {
    int n = 0;
    for (int i = p->wr_first[tensor]; i < p->wr_first[tensor + 1]; i++)
        if (!box || mrt_box_overlap(p->wr[i].box, *box)) ids[n++] = p->wr[i].inst;
    for (int i = 1; i < n; i++) /* few producers per read: insertion sort beats qsort */
        for (int j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
            int t = ids[j];
            ids[j] = ids[j - 1], ids[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!k || ids[k - 1] != ids[i]) ids[k++] = ids[i];
    return k;
}

static mrt_status add_wait(mrt_plan *p, int task, int ev) {
    mrt_task *k = &p->tasks[task];
    char lbl[48];
    for (int i = 0; i < k->n_wait; i++)
        if ((int)k->wait[i].event == ev) return MRT_OK;
    if (k->n_wait == MRT_MAX_WAITS)
        return mrt_fail(p->ctx, MRT_ERR_LIMIT, "task %s needs more than %d waits (the ABI's limit)",
                        task_label(p, task, lbl, sizeof lbl), MRT_MAX_WAITS);
    k->wait[k->n_wait].event = (uint32_t)ev;
    k->wait[k->n_wait].threshold = p->events[ev].threshold;
    k->n_wait++;
    p->events[ev].n_cons++;
    return MRT_OK;
}

static mrt_status add_signal(mrt_plan *p, int task, int ev, uint32_t pub) {
    mrt_task *k = &p->tasks[task];
    char lbl[48];
    for (int i = 0; i < k->n_sig; i++)
        if ((int)k->sig[i].event == ev && k->sig[i].publication == pub) return MRT_OK;
    if (k->n_sig == MRT_MAX_SIGNALS)
        return mrt_fail(p->ctx, MRT_ERR_LIMIT, "task %s needs more than %d signals (the ABI's limit)",
                        task_label(p, task, lbl, sizeof lbl), MRT_MAX_SIGNALS);
    k->sig[k->n_sig].event = (uint32_t)ev;
    k->sig[k->n_sig].increment = 1;
    k->sig[k->n_sig].publication = pub;
    k->n_sig++;
    return MRT_OK;
}

/* Mirage-style fusion: events whose instances come from the same set of tasks merge into
 * one counter with the summed threshold. Runs before waits and signals are attached. */
static void fuse_events(mrt_plan *p, int *remap) {
    int n = 0;
    for (int e = 0; e < p->n_events; e++) {
        remap[e] = -1;
        for (int f = 0; f < n && remap[e] < 0; f++) {
            /* same task set: compare the multiset of publishing tasks (groups by id) */
            const mrt_event *a = &p->events[e], *b = &p->events[f];
            if (a->n_prod != b->n_prod) continue;
            bool same = true;
            for (int i = 0; i < a->n_prod && same; i++) {
                const mrt_pubinst *x = &p->pubs[p->ev_prod[a->prod0 + i]], *y = &p->pubs[p->ev_prod[b->prod0 + i]];
                same = x->task == y->task && x->group == y->group;
            }
            if (same) remap[e] = f;
        }
        if (remap[e] < 0) {
            if (n != e) {
                p->events[n] = p->events[e];
                p->events[n].id = n;
            }
            remap[e] = n++;
        } else {
            mrt_event *dst = &p->events[remap[e]];
            /* the fused event counts every instance of both */
            dst->threshold += p->events[e].threshold;
        }
    }
    p->n_events = n;
}

typedef struct need {
    int task, ev;
} need;

static bool subset(const mrt_plan *p, int a, int b) { /* producers of event a within those of b */
    const int *x = p->ev_prod + p->events[a].prod0, *y = p->ev_prod + p->events[b].prod0;
    int nx = p->events[a].n_prod, ny = p->events[b].n_prod, j = 0;
    for (int i = 0; i < nx; i++) {
        while (j < ny && y[j] < x[i]) j++;
        if (j == ny || y[j] != x[i]) return false;
    }
    return true;
}

/* A wait whose producers are a subset of another wait's of the same task guarantees
 * nothing more: drop it (a D1 split reads 4 qr8 blocks but its finalizer needs all 16
 * block norms, so it waits once, for the 16). Events no task waits for then disappear and
 * the rest are renumbered in creation order. */
static mrt_status drop_redundant(mrt_plan *p, need *needs, int *n_needs) {
    int k = 0;
    for (int i = 0; i < *n_needs;) {
        int j = i;
        while (j < *n_needs && needs[j].task == needs[i].task) j++;
        for (int a = i; a < j; a++) {
            bool drop = false;
            for (int b = i; b < j && !drop; b++) {
                if (a == b || needs[a].ev == needs[b].ev) {
                    drop = needs[a].ev == needs[b].ev && b < a; /* a repeat */
                    continue;
                }
                drop = subset(p, needs[a].ev, needs[b].ev) &&
                       !(subset(p, needs[b].ev, needs[a].ev) && b > a); /* equal sets: keep the first */
            }
            if (!drop) needs[k++] = needs[a];
        }
        i = j;
    }
    *n_needs = k;
    int *remap = malloc(sizeof(int) * (size_t)(p->n_events + 1));
    if (!remap) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    for (int e = 0; e < p->n_events; e++) remap[e] = -1;
    for (int i = 0; i < k; i++) remap[needs[i].ev] = 0;
    int n = 0;
    for (int e = 0; e < p->n_events; e++)
        if (remap[e] == 0) {
            remap[e] = n;
            p->events[n] = p->events[e];
            p->events[n].id = n;
            n++;
        }
    p->n_events = n;
    for (int i = 0; i < k; i++) needs[i].ev = remap[needs[i].ev];
    free(remap);
    return MRT_OK;
}

mrt_status mrt_lower(mrt_plan *p) {
    const mrt_graph *g = p->g;
    mrt_tiler t = {.p = p};
    t.cap_tensors = p->n_tensors;
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &g->ops[p->ops[i]];
        const mrt_op_class *cls = mrt_op_class_get(op->kind);
        t.op = op;
        t.group_left = 0;
        mrt_status s = cls->tile(&t, g, op, p->cfg[op->id]);
        if (!s) s = t.st;
        if (!s && t.group_left)
            s = mrt_fail(p->ctx, MRT_ERR_INVALID, "op %s: reduce group left %d members short", op->name, t.group_left);
        if (!s && p->op_tasks[op->id] == 0)
            s = mrt_fail(p->ctx, MRT_ERR_INVALID, "op %s: tiling produced no tasks", op->name);
        if (s) return s;
    }
    mrt_status st = make_pubs(p);
    ev_table et = {0};
    /* consumers' required instance sets, in plan order: consumer op, task, read access */
    need *needs = NULL;
    int n_needs = 0, cap_needs = 0;
    int *ids = malloc(sizeof(int) * (size_t)(p->n_acc + 1));
    mrt_memo memo = {0}; /* (tensor, box, strategy) -> event, or -2 for "no producer" */
    if ((!ids || !mrt_memo_init(&memo, 1024)) && !st) st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
    for (int c = 0; c < p->n_tasks && !st; c++) {
        const mrt_task *k = &p->tasks[c];
        for (int a = 0; a < k->n_acc && !st; a++) {
            const mrt_access *rd = &mrt_task_acc(p, k)[a];
            if (rd->kind != MRT_ACC_READ) continue;
            int prod = p->tensors[rd->tensor].t.producer;
            if (prod < 0 || prod == k->op || p->op_row[prod] < 0) continue; /* input, own scratch, left-out op */
            const mrt_op *po = &g->ops[prod], *co = &g->ops[k->op];
            mrt_strategy s = p->opts.pairing == MRT_PAIRING_WHOLE ? MRT_STRAT_WHOLE
                                                                   : mrt_pairing_lookup(po->kind, co->kind);
            int32_t key[8] = {rd->tensor, rd->box.r0, rd->box.r1, rd->box.c0, rd->box.c1, s, 0, 0};
            bool found;
            mrt_memo_slot *ms = mrt_memo_find(&memo, key, &found);
            if (found) {
                if (ms->val < 0) continue;
                if (!grow((void **)&needs, &cap_needs, n_needs + 1, sizeof(need))) {
                    st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
                    break;
                }
                needs[n_needs].task = c;
                needs[n_needs++].ev = ms->val;
                continue;
            }
            int n = find_producers(p, rd->tensor, s == MRT_STRAT_WHOLE ? NULL : &rd->box, ids);
            if (n == 0) {
                if (p->tensors[rd->tensor].t.role == MRT_ROLE_CACHE) { /* history only */
                    mrt_memo_put(&memo, ms, key, -2);
                    continue;
                }
                char lbl[48];
                st = mrt_fail(p->ctx, MRT_ERR_RACE, "task %s reads %s rows %lld..%lld, which no task of %s writes",
                              task_label(p, c, lbl, sizeof lbl), tname(p, rd->tensor), (long long)rd->box.r0,
                              (long long)rd->box.r1, po->name);
                break;
            }
            if (s != MRT_STRAT_WHOLE && (st = check_claim(p, s, c, rd))) break;
            int ev = ev_get(p, &et, ids, n, s, prod, rd->tensor, &st);
            if (st) break;
            mrt_memo_put(&memo, mrt_memo_find(&memo, key, &found), key, ev);
            if (!grow((void **)&needs, &cap_needs, n_needs + 1, sizeof(need))) {
                st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
                break;
            }
            needs[n_needs].task = c;
            needs[n_needs++].ev = ev;
        }
    }
    if (!st) st = drop_redundant(p, needs, &n_needs);
    int *remap = NULL;
    if (!st && p->opts.fuse_events) {
        remap = malloc(sizeof(int) * (size_t)(p->n_events + 1));
        if (!remap) st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory");
        else {
            /* producers of merged events: keep the first's list, the threshold sums both */
            int *old_prod0 = malloc(sizeof(int) * (size_t)(p->n_events + 1));
            int *old_nprod = malloc(sizeof(int) * (size_t)(p->n_events + 1));
            int n_old = p->n_events;
            for (int e = 0; e < n_old; e++) old_prod0[e] = p->events[e].prod0, old_nprod[e] = p->events[e].n_prod;
            fuse_events(p, remap);
            /* signals: every instance of every merged event signals the fused one */
            for (int e = 0; e < n_old && !st; e++)
                for (int i = 0; i < old_nprod[e] && !st; i++) {
                    const mrt_pubinst *q = &p->pubs[p->ev_prod[old_prod0[e] + i]];
                    uint32_t pub = (uint32_t)q->pub | (q->group >= 0 ? MRT_PUB_BY_FINALIZER : 0u);
                    if (q->task >= 0) st = add_signal(p, q->task, remap[e], pub);
                    else
                        for (int m = 0; m < p->groups[q->group].members && !st; m++)
                            st = add_signal(p, p->groups[q->group].first_task + m, remap[e], pub);
                }
            free(old_prod0);
            free(old_nprod);
        }
    } else if (!st) {
        for (int e = 0; e < p->n_events && !st; e++)
            for (int i = 0; i < p->events[e].n_prod && !st; i++) {
                const mrt_pubinst *q = &p->pubs[p->ev_prod[p->events[e].prod0 + i]];
                uint32_t pub = (uint32_t)q->pub | (q->group >= 0 ? MRT_PUB_BY_FINALIZER : 0u);
                if (q->task >= 0) st = add_signal(p, q->task, e, pub);
                else
                    for (int m = 0; m < p->groups[q->group].members && !st; m++)
                        st = add_signal(p, p->groups[q->group].first_task + m, e, pub);
            }
    }
    for (int i = 0; i < n_needs && !st; i++) st = add_wait(p, needs[i].task, remap ? remap[needs[i].ev] : needs[i].ev);
    free(remap);
    free(needs);
    free(ids);
    mrt_memo_free(&memo);
    free(et.hash);
    return st;
}

const char *mrt_strategy_name(mrt_strategy s) {
    static const char *n[] = {"whole", "tile", "tile_cover", "tile_reduce"};
    return (unsigned)s < 4 ? n[s] : "?";
}
