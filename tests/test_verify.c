/* The verifier rejects hand-broken plans, naming the task and the event: a missing wait,
 * a threshold one too low, queues in an order that deadlocks, a tile_cover with a gap, a
 * reduce-group member without its finalizer signal. Each starts from a valid seed plan and
 * edits its encoded instructions, which is what executors run. */
#include <string.h>

#include "glm5_prefix.h"
#include "internal.h"
#include "testing.h"

static mrt_context *ctx;
static mrt_graph *g;

static mrt_plan *fresh(void) {
    mrt_plan_opts o = mrt_plan_opts_default();
    o.workers = 148;
    o.tiling = MRT_TILING_SEED;
    mrt_plan *p = NULL;
    mrt_status st = mrt_plan_build(g, &o, &p);
    CHECK(st == MRT_OK, "seed plan: %s", mrt_last_error(ctx));
    return p;
}

static int task_of(const mrt_plan *p, const char *op, int index) {
    const mrt_op *o = mrt_graph_find_op(p->g, op);
    return p->op_first_task[o->id] + index;
}

static uint32_t *word(mrt_plan *p, int task) {
    return p->instr + ((size_t)p->tasks[task].worker * p->max_len + p->tasks[task].slot) * MRT_INSTR_WORDS;
}

static mrt_instr get(mrt_plan *p, int task) {
    mrt_instr in;
    mrt_instr_decode(word(p, task), &in);
    return in;
}

static void put(mrt_plan *p, int task, const mrt_instr *in) { mrt_instr_encode(in, word(p, task)); }

static void expect_reject(mrt_plan *p, mrt_status want, const char *what, const char *n1, const char *n2) {
    mrt_status st = mrt_plan_verify(p);
    const char *msg = mrt_last_error(ctx);
    CHECK(st == want, "%s: verifier says %s (%s), want %s", what, mrt_status_name(st), msg, mrt_status_name(want));
    CHECK(strstr(msg, n1) && strstr(msg, n2), "%s: \"%s\" should name %s and %s", what, msg, n1, n2);
    printf("%-22s -> %s\n", what, msg);
}

int main(void) {
    ctx = mrt_context_new();
    glm5_config c = glm5_config_glm5();
    glm5_shape s = {16, 2, 8192};
    if (glm5_prefix_graph(ctx, &c, &s, &g)) return 1;

    /* a valid plan verifies, and stays valid after a decode/encode round trip */
    mrt_plan *p = fresh();
    CHECK(mrt_plan_verify(p) == MRT_OK, "valid plan: %s", mrt_last_error(ctx));

    /* 1. a missing wait: D0[5] stops waiting for B0's q tiles */
    int t = task_of(p, "D0", 5);
    mrt_instr in = get(p, t);
    CHECK(in.wait_count == 1, "D0 waits once");
    in.wait_count = 0;
    put(p, t, &in);
    expect_reject(p, MRT_ERR_RACE, "missing wait", "D0[5]", "e2");
    mrt_plan_free(p);

    /* 2. a threshold one too low: D1[7] waits e2 >= 15 instead of 16 */
    p = fresh();
    t = task_of(p, "D1", 7);
    in = get(p, t);
    for (uint32_t j = 0; j < in.wait_count; j++)
        if (in.waits[j].event == 2) in.waits[j].threshold = 15;
    put(p, t, &in);
    expect_reject(p, MRT_ERR_RACE, "threshold one too low", "D1[7]", "e2 >= 15");
    mrt_plan_free(p);

    /* 3. queues in an order that deadlocks: worker 0 runs B1[0] before A0[0], whose
     * publication B1[0] waits for */
    p = fresh();
    int a0 = task_of(p, "A0", 0);
    CHECK(p->tasks[a0].worker == 0 && p->tasks[a0].slot == 0, "A0[0] heads worker 0");
    int later = -1;
    for (int i = 0; i < p->n_tasks; i++)
        if (p->tasks[i].worker == 0 && p->tasks[i].slot == 1) later = i;
    mrt_instr first = get(p, a0), second = get(p, later);
    put(p, later, &first); /* slot 1 now holds A0[0] */
    put(p, a0, &second);   /* slot 0 now holds the later task */
    char name[32];
    snprintf(name, sizeof name, "%s[%d]", p->g->ops[p->tasks[later].op].name, p->tasks[later].index);
    expect_reject(p, MRT_ERR_DEADLOCK, "deadlocking order", name, "worker 0 slot 0");
    mrt_plan_free(p);

    /* 4. a tile_cover with a gap: head 3's event loses D0[7] (its second N tile, which writes
     * q_nope columns 128..191 and q_pe) and its waiters' thresholds drop to 1 so the counts
     * still agree: the cover leaves D0[7]'s region out */
    p = fresh();
    int d07 = task_of(p, "D0", 7), d2 = task_of(p, "D2", 12); /* D2[12..15] are head 3 */
    in = get(p, d07);
    uint32_t ev = in.signals[0].event;
    in.signal_count = 0;
    put(p, d07, &in);
    for (int k = 0; k < 4; k++) {
        mrt_instr w = get(p, d2 + k);
        CHECK(w.wait_count == 1 && w.waits[0].event == ev && w.waits[0].threshold == 2, "D2[%d] waits head 3's event", 12 + k);
        w.waits[0].threshold = 1;
        put(p, d2 + k, &w);
    }
    char evname[16];
    snprintf(evname, sizeof evname, "e%u", ev);
    expect_reject(p, MRT_ERR_RACE, "tile_cover gap", "D2[12]", "gap in the cover");
    CHECK(strstr(mrt_last_error(ctx), evname) != NULL, "names the event %s: %s", evname, mrt_last_error(ctx));
    mrt_plan_free(p);

    /* 5. a reduce-group member without the finalizer's signal: if it finishes last the
     * event is never signalled */
    p = fresh();
    t = task_of(p, "B0", 2); /* B0[0..3]: the group of q tile 0 */
    in = get(p, t);
    CHECK(in.signal_count == 1 && (in.signals[0].publication & MRT_PUB_BY_FINALIZER), "B0 signals as finalizer");
    in.signal_count = 0;
    put(p, t, &in);
    expect_reject(p, MRT_ERR_DEADLOCK, "finalizer signal", "B0[2]", "e2");
    mrt_plan_free(p);

    /* 6. a threshold that can never be reached */
    p = fresh();
    t = task_of(p, "E1", 63);
    in = get(p, t);
    in.waits[0].threshold += 1;
    put(p, t, &in);
    expect_reject(p, MRT_ERR_DEADLOCK, "unreachable", "E1[63]", "can never start");
    mrt_plan_free(p);

    mrt_graph_free(g);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
