/* The plan verifier. It reads what executors run — the encoded instruction tensor — and
 * the tasks' declared regions, and proves:
 *   1. every task is in exactly one queue slot, and its instruction is well formed;
 *   2. every wait's threshold equals what its event's producers add up to (exact);
 *   3. race freedom: every region a task reads that another planned op writes is written
 *      only by publication instances that one of the task's waits guarantees have happened;
 *      and no two publications store into overlapping regions;
 *   4. deadlock freedom: running the queues in order, with the event semantics, finishes.
 * A rejection names the task and the event (docs/ARCHITECTURE.md, "Verifier"). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "memo.h"

typedef struct vstate {
    mrt_plan *p;
    int *where;     /* by task id: worker * max_len + slot, -1 if absent */
    int n_ev;
    uint64_t *total; /* by event: sum of increments of its distinct producer instances */
    int *prod_first, *prod;   /* by event: its producer instances */
    char lbl[128], lbl2[128];
} vstate;

static const char *task_name(vstate *v, int task, char *buf) {
    const mrt_task *k = &v->p->tasks[task];
    snprintf(buf, 128, "%s[%d]", v->p->g->ops[k->op].name, k->index);
    return buf;
}

/* A task's instruction, decoded from the tensor (decode_all checked it decodes). Decoding
 * on demand keeps a plan build from touching a second copy of every instruction. */
static mrt_instr ins_of(const vstate *v, int task) {
    mrt_instr in;
    mrt_instr_decode(v->p->instr + (size_t)v->where[task] * MRT_INSTR_WORDS, &in);
    return in;
}

static mrt_status decode_all(vstate *v) {
    mrt_plan *p = v->p;
    for (int i = 0; i < p->n_tasks; i++) v->where[i] = -1;
    for (int w = 0; w < p->workers; w++)
        for (int s = 0; s < p->max_len; s++) {
            const uint32_t *word = p->instr + ((size_t)w * p->max_len + s) * MRT_INSTR_WORDS;
            mrt_instr in;
            if (mrt_instr_decode(word, &in))
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "worker %d slot %d: not an instruction of ABI version %u", w, s,
                                MRT_ISA_VERSION);
            if (in.opcode == MRT_OPC_NOOP) continue;
            if (in.task >= (uint32_t)p->n_tasks)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "worker %d slot %d: task id %u out of range", w, s, in.task);
            if (v->where[in.task] >= 0)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "task %s is queued twice (worker %d slot %d)",
                                task_name(v, (int)in.task, v->lbl), w, s);
            v->where[in.task] = w * p->max_len + s;
            const mrt_task *k = &p->tasks[in.task];
            uint32_t want_group = k->group >= 0 ? mrt_group_pack((uint32_t)k->group, (uint32_t)p->groups[k->group].members)
                                                : MRT_NO_GROUP;
            if (in.group != want_group)
                return mrt_fail(p->ctx, MRT_ERR_INVALID, "task %s: instruction names reduce group word %#x, plan has %#x",
                                task_name(v, (int)in.task, v->lbl), in.group, want_group);
            for (uint32_t j = 0; j < in.wait_count + in.signal_count; j++) {
                uint32_t e = j < in.wait_count ? in.waits[j].event : in.signals[j - in.wait_count].event;
                if (e >= (uint32_t)v->n_ev)
                    return mrt_fail(p->ctx, MRT_ERR_INVALID, "task %s: event %u does not exist (plan has %d)",
                                    task_name(v, (int)in.task, v->lbl), e, v->n_ev);
            }
        }
    for (int i = 0; i < p->n_tasks; i++)
        if (v->where[i] < 0)
            return mrt_fail(p->ctx, MRT_ERR_DEADLOCK, "task %s is in no queue", task_name(v, i, v->lbl));
    return MRT_OK;
}

/* Producer instances of every event, from the signals. Members of a reduce group each
 * carry the group's signals (any of them may be the finalizer): all must carry them. */
static mrt_status collect_producers(vstate *v) {
    mrt_plan *p = v->p;
    int *cnt = calloc((size_t)v->n_ev + 1, sizeof(int));
    int cap = 0;
    if (!cnt) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    for (int i = 0; i < p->n_tasks; i++) cap += (int)ins_of(v, i).signal_count;
    v->prod = malloc(sizeof(int) * (size_t)(cap + 1));
    if (!v->prod) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    for (int i = 0; i < p->n_tasks; i++)
    {
        mrt_instr in = ins_of(v, i);
        for (uint32_t j = 0; j < in.signal_count; j++) cnt[in.signals[j].event]++;
    }
    int sum = 0;
    for (int e = 0; e < v->n_ev; e++) v->prod_first[e] = sum, sum += cnt[e], cnt[e] = 0;
    v->prod_first[v->n_ev] = sum;
    mrt_status st = MRT_OK;
    for (int i = 0; i < p->n_tasks && !st; i++) {
        mrt_instr in_ = ins_of(v, i);
        const mrt_instr *in = &in_;
        const mrt_task *k = &p->tasks[i];
        for (uint32_t j = 0; j < in->signal_count && !st; j++) {
            const mrt_signal *sg = &in->signals[j];
            int pub = (int)(sg->publication & 0xFFu);
            bool fin = (sg->publication & MRT_PUB_BY_FINALIZER) != 0;
            int inst = -1;
            if (fin && k->group >= 0 && (k->group_pubs >> pub & 1u)) inst = p->group_inst[k->group * 8 + pub];
            else if (!fin && !(k->group >= 0 && (k->group_pubs >> pub & 1u))) inst = p->task_inst[i * 8 + pub];
            if (inst < 0)
                st = mrt_fail(p->ctx, MRT_ERR_INVALID, "task %s signals event %u for publication %#x it does not make",
                              task_name(v, i, v->lbl), sg->event, sg->publication);
            else if (sg->increment != 1)
                st = mrt_fail(p->ctx, MRT_ERR_INVALID, "task %s signals event %u with increment %u (publications count 1)",
                              task_name(v, i, v->lbl), sg->event, sg->increment);
            else
                v->prod[v->prod_first[sg->event] + cnt[sg->event]++] = inst;
        }
    }
    /* distinct instances per event; a group instance must be signalled by every member */
    for (int e = 0; e < v->n_ev && !st; e++) {
        int *a = v->prod + v->prod_first[e], n = cnt[e], k = 0;
        for (int i = 0; i < n; i++) {
            int inst = a[i];
            bool dup = false;
            for (int j = 0; j < k && !dup; j++) dup = a[j] == inst;
            if (!dup) a[k++] = inst;
        }
        for (int i = 0; i < k && !st; i++) {
            const mrt_pubinst *q = &p->pubs[a[i]];
            if (q->group < 0) continue;
            const mrt_group *gr = &p->groups[q->group];
            for (int m = 0; m < gr->members && !st; m++) {
                mrt_instr in_ = ins_of(v, gr->first_task + m);
                const mrt_instr *in = &in_;
                bool has = false;
                for (uint32_t j = 0; j < in->signal_count && !has; j++)
                    has = (int)in->signals[j].event == e && (int)(in->signals[j].publication & 0xFFu) == q->pub &&
                          (in->signals[j].publication & MRT_PUB_BY_FINALIZER);
                if (!has)
                    st = mrt_fail(p->ctx, MRT_ERR_DEADLOCK,
                                  "task %s lacks the signal of event e%d that its reduce group's finalizer owes "
                                  "(if it finishes last, e%d is never signalled)",
                                  task_name(v, gr->first_task + m, v->lbl), e, e);
            }
        }
        v->total[e] = (uint64_t)k;
        cnt[e] = k;
    }
    /* compact the lists so prod_first[e]..+cnt[e] are the distinct instances */
    int pos = 0;
    for (int e = 0; e < v->n_ev; e++) {
        int first = v->prod_first[e];
        v->prod_first[e] = pos;
        memmove(v->prod + pos, v->prod + first, sizeof(int) * (size_t)cnt[e]);
        pos += cnt[e];
    }
    v->prod_first[v->n_ev] = pos;
    free(cnt);
    return st;
}

static mrt_status check_thresholds(vstate *v) {
    mrt_plan *p = v->p;
    for (int i = 0; i < p->n_tasks; i++) {
        mrt_instr in_ = ins_of(v, i);
        const mrt_instr *in = &in_;
        for (uint32_t j = 0; j < in->wait_count; j++) {
            uint32_t e = in->waits[j].event, thr = in->waits[j].threshold;
            if (thr < v->total[e])
                return mrt_fail(p->ctx, MRT_ERR_RACE,
                                "task %s waits e%u >= %u, but e%u's producers add up to %llu: the threshold is too low "
                                "and lets it start before all of them publish",
                                task_name(v, i, v->lbl), e, thr, e, (unsigned long long)v->total[e]);
            if (thr > v->total[e])
                return mrt_fail(p->ctx, MRT_ERR_DEADLOCK,
                                "task %s waits e%u >= %u, but e%u's producers add up to only %llu: it can never start",
                                task_name(v, i, v->lbl), e, thr, e, (unsigned long long)v->total[e]);
        }
    }
    return MRT_OK;
}

static const char *inst_name(vstate *v, int inst, char *buf) {
    const mrt_pubinst *q = &v->p->pubs[inst];
    if (q->task >= 0) return task_name(v, q->task, buf);
    const mrt_group *gr = &v->p->groups[q->group];
    const mrt_task *k = &v->p->tasks[gr->first_task];
    snprintf(buf, 128, "the finalizer of group %d (%.32s[%d..%d])", q->group, v->p->g->ops[k->op].name, k->index,
             k->index + gr->members - 1);
    return buf;
}

/* The event an instance signals, for messages; -1 if none. */
static int event_of(const vstate *v, int inst) {
    for (int e = 0; e < v->n_ev; e++)
        for (int i = v->prod_first[e]; i < v->prod_first[e + 1]; i++)
            if (v->prod[i] == inst) return e;
    return -1;
}

static mrt_status check_races(vstate *v) {
    mrt_plan *p = v->p;
    int *mark = malloc(sizeof(int) * (size_t)(p->n_pubs + 1));
    if (!mark) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    for (int i = 0; i < p->n_pubs; i++) mark[i] = -1;
    mrt_status st = MRT_OK;
    mrt_memo memo; /* (tensor, box, the task's wait events) already proven */
    if (!mrt_memo_init(&memo, 1024)) {
        free(mark);
        return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    }
    for (int c = 0; c < p->n_tasks && !st; c++) {
        const mrt_task *k = &p->tasks[c];
        mrt_instr in_ = ins_of(v, c);
        const mrt_instr *in = &in_;
        int32_t w3[3] = {0, 0, 0}; /* the wait events (memo key); tasks with 4 waits skip the memo */
        for (uint32_t j = 0; j < in->wait_count && j < 3; j++) w3[j] = (int32_t)in->waits[j].event + 1;
        for (uint32_t j = 0; j < in->wait_count; j++) {
            uint32_t e = in->waits[j].event;
            for (int i = v->prod_first[e]; i < v->prod_first[e + 1]; i++) mark[v->prod[i]] = c;
        }
        for (int a = 0; a < k->n_acc && !st; a++) {
            const mrt_access *rd = &mrt_task_acc(p, k)[a];
            if (rd->kind != MRT_ACC_READ) continue;
            const mrt_plan_tensor *pt = &p->tensors[rd->tensor];
            int prod = pt->t.producer;
            if (prod < 0 || prod == k->op || p->op_row[prod] < 0) continue;
            int32_t key[8] = {rd->tensor, rd->box.r0, rd->box.r1, rd->box.c0, rd->box.c1, w3[0], w3[1], w3[2]};
            bool found;
            mrt_memo_slot *ms = mrt_memo_find(&memo, key, &found);
            if (found && in->wait_count <= 3) continue;
            mrt_box got[256];
            int ng = 0;
            for (int w = p->wr_first[rd->tensor]; w < p->wr_first[rd->tensor + 1] && !st; w++) {
                const mrt_write *wr = &p->wr[w];
                if (!mrt_box_overlap(wr->box, rd->box)) continue;
                if (ng < 256) got[ng++] = wr->box;
                if (mark[wr->inst] == c) continue;
                /* name the wait on the same producer op that fails to cover it, if any */
                int near = -1;
                for (uint32_t j = 0; j < in->wait_count && near < 0; j++)
                    if (p->events[in->waits[j].event].producer_op == prod) near = (int)in->waits[j].event;
                mrt_box b = wr->box;
                if (near >= 0)
                    st = mrt_fail(p->ctx, MRT_ERR_RACE,
                                  "task %s reads %s rows %lld..%lld cols %lld..%lld written by %s, but its wait on e%d "
                                  "(%s of %d producers) leaves that region out: a gap in the cover",
                                  task_name(v, c, v->lbl), pt->t.name, (long long)b.r0, (long long)b.r1,
                                  (long long)b.c0, (long long)b.c1, inst_name(v, wr->inst, v->lbl2), near,
                                  mrt_strategy_name(p->events[near].strategy), v->prod_first[near + 1] - v->prod_first[near]);
                else
                    st = mrt_fail(p->ctx, MRT_ERR_RACE,
                                  "task %s reads %s rows %lld..%lld cols %lld..%lld written by %s, and no wait protects "
                                  "it: a missing wait (the producer signals e%d)",
                                  task_name(v, c, v->lbl), pt->t.name, (long long)b.r0, (long long)b.r1,
                                  (long long)b.c0, (long long)b.c1, inst_name(v, wr->inst, v->lbl2),
                                  event_of(v, wr->inst));
            }
            mrt_box gap;
            if (!st && pt->t.role != MRT_ROLE_CACHE && !mrt_boxes_cover(got, ng, rd->box, &gap))
                st = mrt_fail(p->ctx, MRT_ERR_RACE, "task %s reads %s rows %lld..%lld cols %lld..%lld, which no task writes",
                              task_name(v, c, v->lbl), pt->t.name, (long long)gap.r0, (long long)gap.r1,
                              (long long)gap.c0, (long long)gap.c1);
            if (!st) mrt_memo_put(&memo, ms, key, 1);
        }
    }
    mrt_memo_free(&memo);
    free(mark);
    return st;
}

/* No two publications store into overlapping regions (partials accumulate: allowed).
 * A sweep over writes sorted by first column compares only column-overlapping pairs. */
static mrt_status check_waw(vstate *v) {
    mrt_plan *p = v->p;
    int most = 0;
    for (int t = 0; t < p->n_tensors; t++)
        if (p->wr_first[t + 1] - p->wr_first[t] > most) most = p->wr_first[t + 1] - p->wr_first[t];
    const mrt_write **w = malloc(sizeof(*w) * (size_t)(most + 1));
    if (!w) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    mrt_status st = MRT_OK;
    for (int t = 0; t < p->n_tensors && !st; t++) {
        int n = 0;
        for (int i = p->wr_first[t]; i < p->wr_first[t + 1]; i++)
            if (p->wr[i].kind != MRT_ACC_PARTIAL) w[n++] = &p->wr[i];
        for (int i = 1; i < n; i++) /* writes come nearly sorted by column: insertion sort */
            for (int j = i; j > 0 && w[j - 1]->box.c0 > w[j]->box.c0; j--) {
                const mrt_write *x = w[j];
                w[j] = w[j - 1], w[j - 1] = x;
            }
        for (int i = 0; i < n && !st; i++)
            for (int j = i + 1; j < n && w[j]->box.c0 < w[i]->box.c1 && !st; j++)
                if (w[i]->inst != w[j]->inst && mrt_box_overlap(w[i]->box, w[j]->box))
                    st = mrt_fail(p->ctx, MRT_ERR_RACE, "%s and %s both write %s rows %lld..%lld",
                                  inst_name(v, w[i]->inst, v->lbl), inst_name(v, w[j]->inst, v->lbl2),
                                  p->tensors[t].t.name, (long long)w[i]->box.r0, (long long)w[i]->box.r1);
    }
    free(w);
    return st;
}

/* Runs the queues in order with counting events: the greedy run finishes iff any run
 * does, since completing a task never disables another. */
static mrt_status check_deadlock(vstate *v) {
    mrt_plan *p = v->p;
    uint64_t *ctr = calloc((size_t)v->n_ev + 1, sizeof(uint64_t));
    int *head = calloc((size_t)p->workers, sizeof(int));
    int *ticket = calloc((size_t)p->n_groups + 1, sizeof(int));
    if (!ctr || !head || !ticket) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    int done = 0;
    bool progress = true;
    while (progress) {
        progress = false;
        for (int w = 0; w < p->workers; w++)
            while (head[w] < p->max_len) {
                const uint32_t *word = p->instr + ((size_t)w * p->max_len + head[w]) * MRT_INSTR_WORDS;
                mrt_instr in = {0};
                mrt_instr_decode(word, &in);
                if (in.opcode != MRT_OPC_NOOP) {
                    bool ready = true;
                    for (uint32_t j = 0; j < in.wait_count && ready; j++)
                        ready = ctr[in.waits[j].event] >= in.waits[j].threshold;
                    if (!ready) break;
                    bool last = true;
                    if (in.group != MRT_NO_GROUP)
                        last = (uint32_t)++ticket[mrt_group_id(in.group)] == mrt_group_members(in.group);
                    for (uint32_t j = 0; j < in.signal_count; j++)
                        if (!(in.signals[j].publication & MRT_PUB_BY_FINALIZER) || last)
                            ctr[in.signals[j].event] += in.signals[j].increment;
                    done++;
                }
                head[w]++;
                progress = true;
            }
    }
    mrt_status st = MRT_OK;
    if (done != p->n_tasks) {
        char msg[768] = "";
        int shown = 0;
        for (int w = 0; w < p->workers && shown < 3; w++) {
            if (head[w] >= p->max_len) continue;
            mrt_instr in = {0};
            mrt_instr_decode(p->instr + ((size_t)w * p->max_len + head[w]) * MRT_INSTR_WORDS, &in);
            for (uint32_t j = 0; j < in.wait_count; j++) {
                uint32_t e = in.waits[j].event;
                if (ctr[e] >= in.waits[j].threshold) continue;
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, "%sworker %d slot %d task %s waits e%u >= %u, which reaches only %llu",
                         shown ? "; " : "", w, head[w], task_name(v, (int)in.task, v->lbl), e, in.waits[j].threshold,
                         (unsigned long long)ctr[e]);
                shown++;
                break;
            }
        }
        st = mrt_fail(p->ctx, MRT_ERR_DEADLOCK, "plan deadlocks after %d of %d tasks: %s", done, p->n_tasks, msg);
    }
    free(ctr);
    free(head);
    free(ticket);
    return st;
}

mrt_status mrt_plan_verify(mrt_plan *p) {
    if (!p) return MRT_ERR_INVALID;
    vstate v = {.p = p, .n_ev = p->n_events};
    v.where = malloc(sizeof(int) * ((size_t)p->n_tasks + 1));
    v.total = calloc((size_t)p->n_events + 1, sizeof(uint64_t));
    v.prod_first = calloc((size_t)p->n_events + 2, sizeof(int));
    mrt_status st = MRT_OK;
    if (!v.where || !v.total || !v.prod_first) st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "verify: out of memory");
    if (!st) st = decode_all(&v);
    if (!st) st = collect_producers(&v);
    if (!st) st = check_thresholds(&v);
    if (!st) st = check_races(&v);
    if (!st) st = check_waw(&v);
    if (!st) st = check_deadlock(&v);
    free(v.where);
    free(v.total);
    free(v.prod_first);
    free(v.prod);
    return st;
}
