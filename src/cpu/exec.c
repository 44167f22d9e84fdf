/* The CPU executor: interprets a plan's encoded instruction queues with the event
 * semantics of the GPU executors (a worker runs its head instruction only once its waits
 * are met; reduce groups finalize on the last member's ticket), calling each op's C
 * reference tile function.
 *
 * Single-threaded mode picks the next worker with a seeded random scheduler, so every
 * interleaving is reproducible from its seed, and proves the run race-free: each task's
 * happens-before set is built only from its waits (not from queue order: on the GPU the
 * next instruction of a worker may start before the previous one ends), every published
 * write is logged with its writer, and a read of a region that is unwritten (still
 * poisoned) or written by a task outside the reader's happens-before set is reported with
 * the task, tensor and region. Thread mode runs the queues on real threads with C11
 * atomics (release on signal, acquire on wait) for determinism checks. */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "cpu.h"
#include "ops.h"

mrt_cpu_opts mrt_cpu_opts_default(void) {
    mrt_cpu_opts o = {.seed = 1, .threads = 0, .check_races = 1, .trace = NULL};
    return o;
}

typedef struct wlog {
    mrt_box box;
    int writer;
} wlog;

typedef struct exec {
    mrt_plan *p;
    mrt_context *ctx;
    void **buf;      /* by plan tensor id */
    bool *owned;     /* buf[i] allocated here */
    void **slots;    /* [n_ops][16] */
    int **slot_partials;
    mrt_instr *ins;  /* decoded, [workers * max_len] */
    /* race tracking (single thread) */
    int words;           /* bitset words per task */
    uint64_t *hb;        /* [n_tasks][words]: tasks ordered before each task */
    uint64_t *ev_clock;  /* [n_events][words]: everything a waiter of the event inherits */
    uint64_t *grp_clock; /* [n_groups][words]: members and what they saw (the ticket) */
    wlog **log;          /* by plan tensor */
    int *log_n, *log_cap;
    /* counters */
    _Atomic uint32_t *events, *tickets;
    mrt_trace *trace; /* single-threaded runs only */
    double t0;
} exec;

static void bits_or(uint64_t *dst, const uint64_t *src, int words) {
    for (int i = 0; i < words; i++) dst[i] |= src[i];
}
static bool bit_get(const uint64_t *b, int i) { return b[i >> 6] >> (i & 63) & 1u; }
static void bit_set(uint64_t *b, int i) { b[i >> 6] |= 1ull << (i & 63); }

static const char *task_label(const mrt_plan *p, int task, char *buf, size_t n) {
    const mrt_task *k = &p->tasks[task];
    snprintf(buf, n, "%s[%d]", p->g->ops[k->op].name, k->index);
    return buf;
}

/* ---- set-up ------------------------------------------------------------------------------ */

static mrt_status bind(exec *x, void *const *buffers) {
    mrt_plan *p = x->p;
    for (int t = 0; t < p->n_tensors; t++) {
        const mrt_plan_tensor *pt = &p->tensors[t];
        bool graph = t < p->g->n_tensors;
        void *given = graph && buffers ? buffers[t] : NULL;
        bool used = !graph || p->tensors[t].planned_input;
        for (int i = 0; graph && i < p->n_ops && !used; i++) {
            const mrt_op *op = &p->g->ops[p->ops[i]];
            for (int j = 0; j < op->n_in; j++) used |= op->in[j] == t;
            for (int j = 0; j < op->n_out; j++) used |= op->out[j] == t;
        }
        if (!used) continue;
        bool must_give = pt->t.role != MRT_ROLE_WORKSPACE || pt->planned_input;
        if (given && pt->partials > 1)
            return mrt_fail(x->ctx, MRT_ERR_INVALID,
                            "tensor %s is written as %d split-K partials by this plan's tiling: give it the workspace "
                            "role (the executor owns it) or plan its producer without a split", pt->t.name, pt->partials);
        if (given) {
            x->buf[t] = given;
            continue;
        }
        if (must_give)
            return mrt_fail(x->ctx, MRT_ERR_INVALID, "tensor %s (%s%s) has no buffer", pt->t.name,
                            pt->t.role == MRT_ROLE_WORKSPACE ? "workspace" : "input, weight, output or cache",
                            pt->planned_input ? ", an input of this plan since its producer is not planned" : "");
        size_t bytes = mrt_tensor_bytes(&pt->t) * (size_t)pt->partials;
        x->buf[t] = malloc(bytes ? bytes : 1);
        if (!x->buf[t]) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "tensor %s: out of memory (%zu bytes)", pt->t.name, bytes);
        memset(x->buf[t], 0xFF, bytes); /* poison: an unprotected read shows as NaN */
        x->owned[t] = true;
    }
    /* operand rows: inputs, outputs, then the op's scratch tensors in creation order */
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &p->g->ops[p->ops[i]];
        int n = 0;
        for (int j = 0; j < op->n_in; j++) x->slot_partials[i][n] = p->tensors[op->in[j]].partials, x->slots[i * 16 + n++] = x->buf[op->in[j]];
        for (int j = 0; j < op->n_out; j++) x->slot_partials[i][n] = p->tensors[op->out[j]].partials, x->slots[i * 16 + n++] = x->buf[op->out[j]];
        for (int t = p->g->n_tensors; t < p->n_tensors; t++)
            if (p->tensors[t].scratch_of == op->id) {
                if (n == MRT_OPERAND_SLOTS)
                    return mrt_fail(x->ctx, MRT_ERR_LIMIT, "op %s needs more than %d operand slots", op->name, MRT_OPERAND_SLOTS);
                x->slot_partials[i][n] = 1, x->slots[i * 16 + n++] = x->buf[t];
            }
        for (int s = 0; s < MRT_OPERAND_SLOTS; s++) p->operands[i * 16 + s] = (uint64_t)(uintptr_t)(s < n ? x->slots[i * 16 + s] : NULL);
        const mrt_op_class *cls = mrt_op_class_get(op->kind);
        if (cls->check_inputs) {
            mrt_status st = cls->check_inputs(x->ctx, p, op, x->slots + i * 16);
            if (st) return st;
        }
    }
    return MRT_OK;
}

/* ---- race tracking ------------------------------------------------------------------------ */

static mrt_status check_reads(exec *x, int task) {
    mrt_plan *p = x->p;
    const mrt_task *k = &p->tasks[task];
    const uint64_t *hb = x->hb + (size_t)task * x->words;
    char lbl[64], lbl2[64];
    for (int a = 0; a < k->n_acc; a++) {
        const mrt_access *rd = &mrt_task_acc(p, k)[a];
        if (rd->kind != MRT_ACC_READ) continue;
        const mrt_plan_tensor *pt = &p->tensors[rd->tensor];
        int prod = pt->t.producer;
        if (prod < 0 || prod == k->op || p->op_row[prod] < 0) continue; /* inputs, own scratch */
        mrt_box got[512];
        int ng = 0;
        for (int i = 0; i < x->log_n[rd->tensor]; i++) {
            const wlog *w = &x->log[rd->tensor][i];
            if (!mrt_box_overlap(w->box, rd->box)) continue;
            if (!bit_get(hb, w->writer))
                return mrt_fail(x->ctx, MRT_ERR_RACE,
                                "unprotected read: task %s reads %s rows %lld..%lld cols %lld..%lld, written by %s, "
                                "which none of its waits orders before it", task_label(p, task, lbl, sizeof lbl),
                                pt->t.name, (long long)w->box.r0, (long long)w->box.r1, (long long)w->box.c0,
                                (long long)w->box.c1, task_label(p, w->writer, lbl2, sizeof lbl2));
            if (ng < 512) got[ng++] = w->box;
        }
        mrt_box gap;
        if (pt->t.role != MRT_ROLE_CACHE && !mrt_boxes_cover(got, ng, rd->box, &gap))
            return mrt_fail(x->ctx, MRT_ERR_RACE,
                            "unprotected read: task %s reads %s rows %lld..%lld cols %lld..%lld before any task wrote "
                            "it (still poisoned): no wait protects it", task_label(p, task, lbl, sizeof lbl), pt->t.name,
                            (long long)gap.r0, (long long)gap.r1, (long long)gap.c0, (long long)gap.c1);
    }
    return MRT_OK;
}

static mrt_status log_writes(exec *x, int task, int writer, bool group_pubs) {
    mrt_plan *p = x->p;
    const mrt_task *k = &p->tasks[task];
    for (int a = 0; a < k->n_acc; a++) {
        const mrt_access *w = &mrt_task_acc(p, k)[a];
        if (w->kind == MRT_ACC_READ) continue;
        bool by_group = k->group >= 0 && (k->group_pubs >> w->pub & 1u);
        if (by_group != group_pubs) continue;
        int t = w->tensor;
        if (x->log_n[t] == x->log_cap[t]) {
            int cap = x->log_cap[t] ? 2 * x->log_cap[t] : 64;
            wlog *q = realloc(x->log[t], sizeof(wlog) * (size_t)cap);
            if (!q) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "cpu executor: out of memory");
            x->log[t] = q, x->log_cap[t] = cap;
        }
        x->log[t][x->log_n[t]++] = (wlog){w->box, writer};
    }
    return MRT_OK;
}

/* ---- running one instruction -------------------------------------------------------------- */

static void run_tile(exec *x, const mrt_instr *in, int phase) {
    mrt_plan *p = x->p;
    const mrt_task *k = &p->tasks[in->task];
    const mrt_op *op = &p->g->ops[k->op];
    mrt_cpu_tile c = {.plan = p, .op = op, .cfg = p->cfg[op->id], .payload = in->payload,
                      .slot = x->slots + in->operand_row * 16, .partials = x->slot_partials[in->operand_row],
                      .phase = phase};
    const mrt_op_class *cls = mrt_op_class_get(op->kind);
    if (phase == MRT_PHASE_MAIN || cls->has_final) cls->cpu(&c);
}

static bool ready(exec *x, const mrt_instr *in) {
    for (uint32_t j = 0; j < in->wait_count; j++)
        if (atomic_load_explicit(&x->events[in->waits[j].event], memory_order_acquire) < in->waits[j].threshold)
            return false;
    return true;
}

static void signal(exec *x, const mrt_instr *in, bool finalizer_pubs) {
    for (uint32_t j = 0; j < in->signal_count; j++)
        if (((in->signals[j].publication & MRT_PUB_BY_FINALIZER) != 0) == finalizer_pubs)
            atomic_fetch_add_explicit(&x->events[in->signals[j].event], in->signals[j].increment, memory_order_release);
}

/* Runs the instruction (its waits are met). With tracking: computes its happens-before
 * set, checks its reads, logs its writes and propagates clocks through its signals. */
static mrt_status step(exec *x, const mrt_instr *in, bool track, int worker) {
    int task = (int)in->task;
    double st_us[MRT_PH_COUNT];
    if (x->trace) st_us[MRT_PH_VISIBLE] = st_us[MRT_PH_WEIGHTS] = st_us[MRT_PH_INPUT] = mrt_now_us() - x->t0;
    uint64_t *hb = track ? x->hb + (size_t)task * x->words : NULL;
    mrt_status st;
    if (track) {
        for (uint32_t j = 0; j < in->wait_count; j++)
            bits_or(hb, x->ev_clock + (size_t)in->waits[j].event * x->words, x->words);
        if ((st = check_reads(x, task))) return st;
    }
    run_tile(x, in, MRT_PHASE_MAIN);
    if (x->trace) st_us[MRT_PH_COMPUTED] = st_us[MRT_PH_PUBLISHED] = mrt_now_us() - x->t0;
    if (track) {
        bit_set(hb, task);
        if ((st = log_writes(x, task, task, false))) return st;
    }
    /* A task outside a reduce group finalizes its own outputs (a split-K op with one split
     * and one tile a unit): before it signals, since its publications include the
     * finalized outputs. (Signalling first let real-thread consumers read them early.) */
    if (in->group == MRT_NO_GROUP) {
        run_tile(x, in, MRT_PHASE_FINAL);
        if (track && (st = log_writes(x, task, task, true))) return st;
    }
    if (track)
        for (uint32_t j = 0; j < in->signal_count; j++)
            if (!(in->signals[j].publication & MRT_PUB_BY_FINALIZER))
                bits_or(x->ev_clock + (size_t)in->signals[j].event * x->words, hb, x->words);
    signal(x, in, false);
    if (in->group == MRT_NO_GROUP) {
        if (x->trace) {
            st_us[MRT_PH_PUBLISHED] = mrt_now_us() - x->t0;
            mrt_trace_add(x->trace, task, worker, st_us);
        }
        return MRT_OK;
    }
    uint32_t g = mrt_group_id(in->group);
    if (track) bits_or(x->grp_clock + (size_t)g * x->words, hb, x->words);
    uint32_t t = atomic_fetch_add_explicit(&x->tickets[g], 1, memory_order_acq_rel) + 1;
    if (t != mrt_group_members(in->group)) {
        if (x->trace) mrt_trace_add(x->trace, task, worker, st_us);
        return MRT_OK;
    }
    /* the finalizer: the ticket's acquire orders every member's partial before it */
    if (track) bits_or(hb, x->grp_clock + (size_t)g * x->words, x->words);
    run_tile(x, in, MRT_PHASE_FINAL);
    if (track) {
        if ((st = log_writes(x, task, task, true))) return st;
        for (uint32_t j = 0; j < in->signal_count; j++)
            if (in->signals[j].publication & MRT_PUB_BY_FINALIZER)
                bits_or(x->ev_clock + (size_t)in->signals[j].event * x->words, hb, x->words);
    }
    signal(x, in, true);
    if (x->trace) {
        st_us[MRT_PH_PUBLISHED] = mrt_now_us() - x->t0;
        mrt_trace_add(x->trace, task, worker, st_us);
    }
    return MRT_OK;
}

/* ---- schedulers --------------------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static mrt_status stuck(exec *x, const int *head, int done) {
    mrt_plan *p = x->p;
    char msg[512] = "", lbl[64];
    int shown = 0;
    for (int w = 0; w < p->workers && shown < 3; w++) {
        if (head[w] >= p->max_len) continue;
        const mrt_instr *in = &x->ins[w * p->max_len + head[w]];
        for (uint32_t j = 0; j < in->wait_count; j++) {
            uint32_t e = in->waits[j].event, seen = atomic_load(&x->events[e]);
            if (seen >= in->waits[j].threshold) continue;
            size_t len = strlen(msg);
            snprintf(msg + len, sizeof msg - len, "%sworker %d task %s waits e%u >= %u, sees %u", shown++ ? "; " : "", w,
                     task_label(p, (int)in->task, lbl, sizeof lbl), e, in->waits[j].threshold, seen);
            break;
        }
    }
    return mrt_fail(x->ctx, MRT_ERR_DEADLOCK, "cpu executor stuck after %d of %d tasks: %s", done, p->n_tasks, msg);
}

static mrt_status run_interleaved(exec *x, uint64_t seed, bool track) {
    mrt_plan *p = x->p;
    int *head = calloc((size_t)p->workers, sizeof(int)), *cand = malloc(sizeof(int) * (size_t)p->workers);
    if (!head || !cand) {
        free(head);
        free(cand);
        return mrt_fail(x->ctx, MRT_ERR_NOMEM, "cpu executor: out of memory");
    }
    uint64_t rng = seed;
    int done = 0;
    mrt_status st = MRT_OK;
    while (!st) {
        int n = 0;
        for (int w = 0; w < p->workers; w++) {
            while (head[w] < p->max_len && x->ins[w * p->max_len + head[w]].opcode == MRT_OPC_NOOP) head[w]++;
            if (head[w] < p->max_len && ready(x, &x->ins[w * p->max_len + head[w]])) cand[n++] = w;
        }
        if (n == 0) {
            if (done < p->n_tasks) st = stuck(x, head, done);
            break;
        }
        int w = cand[rng_next(&rng) % (uint64_t)n];
        st = step(x, &x->ins[w * p->max_len + head[w]++], track, w);
        done++;
    }
    free(head);
    free(cand);
    return st;
}

typedef struct thread_arg {
    exec *x;
    int first, stride;
    atomic_int *failed;
    mrt_status st;
} thread_arg;

/* A thread owns queues first, first + stride, ...; it runs whichever owned head is ready
 * (blocking on one queue while another of its queues could run would deadlock). */
static int thread_main(void *arg) {
    thread_arg *a = arg;
    exec *x = a->x;
    mrt_plan *p = x->p;
    int nq = 0, heads[4096];
    for (int w = a->first; w < p->workers; w += a->stride) heads[nq++] = 0;
    double t0 = mrt_now_us();
    for (;;) {
        bool all = true, progress = false;
        for (int q = 0; q < nq; q++) {
            int w = a->first + q * a->stride;
            while (heads[q] < p->max_len) {
                const mrt_instr *in = &x->ins[w * p->max_len + heads[q]];
                if (in->opcode != MRT_OPC_NOOP) {
                    if (!ready(x, in)) break;
                    step(x, in, false, w);
                }
                heads[q]++;
                progress = true;
            }
            all &= heads[q] == p->max_len;
        }
        if (all || atomic_load(a->failed)) break;
        if (!progress) {
            if (mrt_now_us() - t0 > 120e6) { /* bounded: a wrong plan must not hang the run */
                a->st = mrt_fail(x->ctx, MRT_ERR_DEADLOCK, "cpu executor (threads): no progress for 120 s");
                atomic_store(a->failed, 1);
                break;
            }
            sched_yield();
        } else {
            t0 = mrt_now_us();
        }
    }
    return 0;
}

static mrt_status run_threads(exec *x, int threads) {
    if (threads > x->p->workers) threads = x->p->workers;
    thrd_t th[256];
    thread_arg args[256];
    atomic_int failed = 0;
    if (threads > 256) threads = 256;
    int started = 0;
    for (int i = 0; i < threads; i++) {
        args[i] = (thread_arg){.x = x, .first = i, .stride = threads, .failed = &failed};
        if (thrd_create(&th[i], thread_main, &args[i]) != thrd_success) break;
        started++;
    }
    for (int i = 0; i < started; i++) thrd_join(th[i], NULL);
    if (started < threads) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "cpu executor: could not start %d threads", threads);
    for (int i = 0; i < started; i++)
        if (args[i].st) return args[i].st;
    return MRT_OK;
}

/* ---- entry ----------------------------------------------------------------------------------- */

static void exec_free(exec *x) {
    mrt_plan *p = x->p;
    for (int t = 0; x->buf && t < p->n_tensors; t++)
        if (x->owned[t]) free(x->buf[t]);
    for (int t = 0; x->log && t < p->n_tensors; t++) free(x->log[t]);
    for (int i = 0; x->slot_partials && i < p->n_ops; i++) free(x->slot_partials[i]);
    free(x->slot_partials);
    free(x->buf);
    free(x->owned);
    free(x->slots);
    free(x->ins);
    free(x->hb);
    free(x->ev_clock);
    free(x->grp_clock);
    free(x->log);
    free(x->log_n);
    free(x->log_cap);
    free((void *)x->events);
    free((void *)x->tickets);
}

mrt_status mrt_cpu_run(mrt_plan *p, void *const *buffers, const mrt_cpu_opts *o) {
    if (!p) return MRT_ERR_INVALID;
    mrt_cpu_opts opt = o ? *o : mrt_cpu_opts_default();
    exec x = {.p = p, .ctx = p->ctx};
    size_t q = (size_t)p->workers * p->max_len;
    x.buf = calloc((size_t)p->n_tensors, sizeof(void *));
    x.owned = calloc((size_t)p->n_tensors, sizeof(bool));
    x.slots = calloc((size_t)p->n_ops * 16, sizeof(void *));
    x.slot_partials = calloc((size_t)p->n_ops, sizeof(int *));
    x.ins = calloc(q, sizeof(mrt_instr));
    x.events = calloc((size_t)p->n_events + 1, sizeof(uint32_t));
    x.tickets = calloc((size_t)p->n_groups + 1, sizeof(uint32_t));
    mrt_status st = MRT_OK;
    if (!x.buf || !x.owned || !x.slots || !x.slot_partials || !x.ins || !x.events || !x.tickets)
        st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "cpu executor: out of memory");
    for (int i = 0; !st && i < p->n_ops; i++)
        if (!(x.slot_partials[i] = calloc(MRT_OPERAND_SLOTS, sizeof(int))))
            st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "cpu executor: out of memory");
    for (size_t i = 0; !st && i < q; i++)
        if (mrt_instr_decode(p->instr + i * MRT_INSTR_WORDS, &x.ins[i]))
            st = mrt_fail(p->ctx, MRT_ERR_INVALID, "instruction %zu is not of ABI version %u", i, MRT_ISA_VERSION);
    bool track = opt.threads == 0 && opt.check_races;
    if (!st && track) {
        x.words = (p->n_tasks + 63) / 64;
        x.hb = calloc((size_t)p->n_tasks * x.words, sizeof(uint64_t));
        x.ev_clock = calloc((size_t)(p->n_events + 1) * x.words, sizeof(uint64_t));
        x.grp_clock = calloc((size_t)(p->n_groups + 1) * x.words, sizeof(uint64_t));
        x.log = calloc((size_t)p->n_tensors, sizeof(wlog *));
        x.log_n = calloc((size_t)p->n_tensors, sizeof(int));
        x.log_cap = calloc((size_t)p->n_tensors, sizeof(int));
        if (!x.hb || !x.ev_clock || !x.grp_clock || !x.log || !x.log_n || !x.log_cap)
            st = mrt_fail(p->ctx, MRT_ERR_NOMEM, "cpu executor: out of memory for race tracking");
    }
    mrt_e4m3_lut_init();
    x.trace = opt.threads == 0 ? opt.trace : NULL;
    x.t0 = mrt_now_us();
    if (!st) st = bind(&x, buffers);
    x.t0 = mrt_now_us();
    if (!st) st = opt.threads > 0 ? run_threads(&x, opt.threads) : run_interleaved(&x, opt.seed, track);
    exec_free(&x);
    return st;
}
